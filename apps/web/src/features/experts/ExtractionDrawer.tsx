import { EXPERT_CATEGORIES, type ExpertCategory, type ExtractionDetail, type ExtractionMember } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  type ButtonProps,
  Descriptions,
  Drawer,
  Empty,
  Input,
  Modal,
  Popconfirm,
  Space,
  Spin,
  Steps,
  Table,
  type TableColumnsType,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  answerMember,
  commitExtraction,
  drawExtraction,
  EXPERTS_KEY,
  extractionDetailQuery,
  finalizeExtraction,
  publishExtraction,
} from '../../api/experts';
import { LoadFailure } from '../../components/admin';
import { EXTRACTION_PRINT_PATH, EXTRACTION_VERIFY_PATH } from './paths';

export const STATUS_COLORS: Record<string, string> = {
  draft: 'default',
  drawn: 'processing',
  confirmed: 'success',
  published: 'purple',
};
const ANSWER_COLORS: Record<string, string> = { pending: 'gold', confirmed: 'green', declined: 'red' };

/** The hash in a monospaced, copyable line. */
export function Hash({ value, testId }: { value: string | null; testId?: string }) {
  if (!value) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Typography.Text code copyable style={{ fontSize: 12, wordBreak: 'break-all' }} data-testid={testId}>
      {value}
    </Typography.Text>
  );
}

export function conditionsText(d: Pick<ExtractionDetail, 'conditions' | 'avoidedExperts'>) {
  const c = d.conditions;
  const parts = [
    `招标人代表 ${c.tendereeReps} 人`,
    `专家：${c.lines.map((l) => `${l.specialty} ${l.count} 人`).join('、')}`,
    `地区：${c.regions.length ? c.regions.join('、') : '全省'}`,
    `回避单位：${c.avoidEmployers.length ? c.avoidEmployers.join('、') : '无'}`,
  ];
  if (d.avoidedExperts.length) {
    parts.push(`回避专家：${d.avoidedExperts.map((e) => e.name ?? '（保密）').join('、')}`);
  }
  parts.push(c.recentDays > 0 ? `近 ${c.recentDays} 天内被抽中的专家回避` : '不限近期抽中');
  return parts;
}

function stepOf(d: ExtractionDetail) {
  if (d.status === 'published') return 4;
  if (d.status === 'confirmed') return 3;
  if (d.status === 'drawn') return 2;
  return d.seedHash ? 1 : 0;
}

function DeclineDialog({
  member,
  onClose,
  onDone,
  extractionId,
}: {
  member: ExtractionMember | null;
  extractionId: string;
  onClose: () => void;
  onDone: (d: ExtractionDetail, replaced: boolean, exhausted: boolean) => void;
}) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={member !== null}
      title={`登记拒绝：${member?.name ?? ''}`}
      okText="确认拒绝并补抽"
      okButtonProps={
        { danger: true, disabled: !note.trim(), loading: busy, 'data-testid': 'decline-ok' } as ButtonProps
      }
      cancelText="取消"
      onCancel={onClose}
      afterOpenChange={(o) => !o && setNote('')}
      destroyOnHidden
      onOk={async () => {
        if (!member) return;
        setBusy(true);
        try {
          const r = await answerMember({ id: extractionId, memberId: member.id, answer: 'declined', note });
          onDone(r.detail, r.replacementId !== null, r.exhausted);
        } catch {
          // the request client has said why
        } finally {
          setBusy(false);
        }
      }}
    >
      <Typography.Paragraph type="secondary">
        专家拒绝后，系统按同一抽取条件、同一种子链从「{member?.specialty}」中补抽一名专家。
      </Typography.Paragraph>
      <Input.TextArea
        rows={3}
        maxLength={500}
        showCount
        value={note}
        onChange={(e) => setNote(e.target.value)}
        placeholder="请填写拒绝原因（电话答复内容）"
        data-testid="decline-note"
      />
    </Modal>
  );
}

/** One extraction: conditions, the committed hash, the steps, the list with the phone answers, the log. */
export function ExtractionDrawer({
  id,
  onClose,
  onChanged,
}: {
  id: string | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const detail = useQuery({ ...extractionDetailQuery(id ?? ''), enabled: id !== null });
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [declining, setDeclining] = useState<ExtractionMember | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const settle = (d: ExtractionDetail) => {
    qc.setQueryData(extractionDetailQuery(d.id).queryKey, d);
    void qc.invalidateQueries({ queryKey: [...EXPERTS_KEY, 'list'] });
    onChanged();
  };
  const step = async (name: string, run: () => Promise<ExtractionDetail>, ok: string) => {
    setBusy(name);
    try {
      settle(await run());
      void message.success(ok);
    } catch {
      void detail.refetch();
    } finally {
      setBusy(null);
    }
  };

  const d = detail.data;
  const memberColumns: TableColumnsType<ExtractionMember> = [
    {
      title: '序',
      key: 'seq',
      width: 56,
      render: (_, m) => `${m.line + 1}-${m.seq + 1}`,
    },
    { title: '专业', dataIndex: 'specialty', width: 130 },
    {
      title: '姓名',
      dataIndex: 'name',
      width: 90,
      render: (v: string | null, m) => (
        <span data-testid="member-name">
          {v ?? <Typography.Text type="secondary">保密</Typography.Text>}
          {m.replacement ? (
            <Tag color="blue" style={{ marginLeft: 4 }}>
              补抽
            </Tag>
          ) : null}
        </span>
      ),
    },
    { title: '性别', dataIndex: 'gender', width: 56, render: (v) => v ?? '—' },
    { title: '职称', dataIndex: 'title', width: 110, render: (v) => v ?? '—' },
    { title: '工作单位', dataIndex: 'employer', width: 230, ellipsis: true, render: (v) => v ?? '—' },
    { title: '地区', dataIndex: 'region', width: 80, render: (v) => v ?? '—' },
    { title: '联系电话', dataIndex: 'phone', width: 120, render: (v) => v ?? '—' },
    {
      title: '答复',
      dataIndex: 'answer',
      width: 90,
      render: (a: string, m) => (
        <Tag color={ANSWER_COLORS[a]} data-testid="member-answer">
          {m.answerLabel}
        </Tag>
      ),
    },
    { title: '备注', dataIndex: 'note', ellipsis: true, width: 140, render: (v: string) => v || '—' },
  ];
  if (d?.canManage && d.status === 'drawn') {
    memberColumns.push({
      title: '操作',
      key: 'ops',
      width: 150,
      fixed: 'right',
      render: (_, m) =>
        m.answer === 'pending' ? (
          <Space size={0}>
            <Popconfirm
              title={`确认 ${m.name ?? ''} 已电话答复参加评标？`}
              okText="确定"
              cancelText="取消"
              okButtonProps={{ 'data-testid': 'confirm-ok' } as ButtonProps}
              onConfirm={() =>
                step(
                  `confirm-${m.id}`,
                  async () =>
                    (await answerMember({ id: d.id, memberId: m.id, answer: 'confirmed', note: '电话确认参加' }))
                      .detail,
                  '已登记确认参加',
                )
              }
            >
              <Button type="link" size="small" loading={busy === `confirm-${m.id}`} data-testid="member-confirm">
                确认参加
              </Button>
            </Popconfirm>
            <Button type="link" size="small" danger onClick={() => setDeclining(m)} data-testid="member-decline">
              拒绝
            </Button>
          </Space>
        ) : null,
    });
  }

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={1080}
      title={d ? `${d.code}　${d.projectName} ${d.sectionName}` : '抽取详情'}
      destroyOnHidden
      data-testid="extraction-drawer"
      extra={
        d ? (
          <Space>
            <Link to={`${EXTRACTION_VERIFY_PATH}?id=${d.id}`} target="_blank" data-testid="extraction-verify-link">
              验证抽取
            </Link>
            {d.namesVisible && d.status !== 'draft' ? (
              <Link to={`${EXTRACTION_PRINT_PATH}?id=${d.id}`} data-testid="extraction-print-link">
                打印抽取记录
              </Link>
            ) : null}
          </Space>
        ) : null
      }
    >
      {detail.isLoading ? (
        <Spin />
      ) : detail.error ? (
        <LoadFailure error={detail.error} what="抽取详情" />
      ) : d ? (
        <>
          <Steps
            size="small"
            current={stepOf(d)}
            style={{ marginBottom: 16 }}
            items={[
              { title: '草稿' },
              { title: '种子已承诺' },
              { title: '已抽取' },
              { title: '已确认' },
              { title: '已公开' },
            ]}
          />
          {d.canManage ? (
            <Space style={{ marginBottom: 16 }} wrap>
              {d.status === 'draft' && !d.seedHash ? (
                <Popconfirm
                  title="提交种子承诺？"
                  description="系统将生成随机种子并保存专家库快照，公布种子的 SHA-256；此后条件不能修改。"
                  okText="确定"
                  cancelText="取消"
                  okButtonProps={{ 'data-testid': 'confirm-ok' } as ButtonProps}
                  onConfirm={() => step('commit', () => commitExtraction(d.id), '种子承诺已提交')}
                >
                  <Button type="primary" loading={busy === 'commit'} data-testid="extraction-commit">
                    提交种子承诺
                  </Button>
                </Popconfirm>
              ) : null}
              {d.status === 'draft' && d.seedHash ? (
                <Popconfirm
                  title="按已承诺的种子开始抽取？"
                  okText="确定"
                  cancelText="取消"
                  okButtonProps={{ 'data-testid': 'confirm-ok' } as ButtonProps}
                  onConfirm={() => step('draw', () => drawExtraction(d.id), '抽取完成')}
                >
                  <Button type="primary" loading={busy === 'draw'} data-testid="extraction-draw">
                    开始抽取
                  </Button>
                </Popconfirm>
              ) : null}
              {d.status === 'drawn' ? (
                <Popconfirm
                  title="确认专家名单？"
                  description="确认后名单锁定并揭示种子，可在验证页复核抽取过程。"
                  okText="确定"
                  cancelText="取消"
                  okButtonProps={{ 'data-testid': 'confirm-ok' } as ButtonProps}
                  onConfirm={() => step('finalize', () => finalizeExtraction(d.id), '名单已确认')}
                  disabled={!d.canFinalize}
                >
                  <Button
                    type="primary"
                    disabled={!d.canFinalize}
                    loading={busy === 'finalize'}
                    data-testid="extraction-finalize"
                  >
                    确认名单
                  </Button>
                </Popconfirm>
              ) : null}
              {d.status === 'confirmed' ? (
                <Popconfirm
                  title="向所有人公开专家名单？"
                  okText="确定"
                  cancelText="取消"
                  okButtonProps={{ 'data-testid': 'confirm-ok' } as ButtonProps}
                  onConfirm={() => step('publish', () => publishExtraction(d.id), '名单已公开')}
                  disabled={!d.canPublish}
                >
                  <Button disabled={!d.canPublish} loading={busy === 'publish'} data-testid="extraction-publish">
                    公开名单
                  </Button>
                </Popconfirm>
              ) : null}
              {d.status === 'confirmed' && !d.canPublish ? (
                <Typography.Text type="secondary">评标开始（{d.evaluationStartAt}）后可公开名单</Typography.Text>
              ) : null}
              {d.status === 'drawn' && !d.canFinalize ? (
                <Typography.Text type="secondary">各专业专家全部确认参加后可确认名单</Typography.Text>
              ) : null}
            </Space>
          ) : null}
          <Descriptions size="small" bordered column={2} style={{ marginBottom: 16 }}>
            <Descriptions.Item label="状态">
              <Tag color={STATUS_COLORS[d.status]} data-testid="extraction-status">
                {d.statusLabel}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label="项目编号">{d.projectRef || '—'}</Descriptions.Item>
            <Descriptions.Item label="开标时间">{d.openingAt}</Descriptions.Item>
            <Descriptions.Item label="评标开始时间">{d.evaluationStartAt}</Descriptions.Item>
            <Descriptions.Item label="评标地点" span={2}>
              {d.location || '—'}
            </Descriptions.Item>
            <Descriptions.Item label="抽取条件" span={2}>
              {conditionsText(d).join('；')}
            </Descriptions.Item>
            <Descriptions.Item label="种子承诺 SHA-256" span={2}>
              <Hash value={d.seedHash} testId="extraction-seed-hash" />
              {d.committedAt ? (
                <Typography.Text type="secondary">（{d.committedAt} 提交，抽取前公布）</Typography.Text>
              ) : null}
            </Descriptions.Item>
            <Descriptions.Item label="专家库快照" span={2}>
              {d.poolSize !== null ? (
                <>
                  {d.poolSize} 人（{d.snapshotAt}）　快照哈希 <Hash value={d.poolHash} />
                </>
              ) : (
                '提交种子承诺时保存'
              )}
            </Descriptions.Item>
            <Descriptions.Item label="抽取种子" span={2}>
              {d.seed ? (
                <Hash value={d.seed} testId="extraction-seed" />
              ) : (
                <Typography.Text type="secondary">名单确认后揭示，评标开始后向所有人公开</Typography.Text>
              )}
            </Descriptions.Item>
          </Descriptions>
          {d.lines.length && d.status !== 'draft' ? (
            <Table
              size="small"
              rowKey="specialty"
              pagination={false}
              style={{ marginBottom: 16 }}
              dataSource={d.lines}
              data-testid="extraction-lines-table"
              columns={[
                { title: '专业', dataIndex: 'specialty' },
                {
                  title: '类别',
                  dataIndex: 'category',
                  width: 70,
                  render: (c: string) => EXPERT_CATEGORIES[c as ExpertCategory] ?? c,
                },
                { title: '需抽取', dataIndex: 'count', width: 70 },
                { title: '已确认', dataIndex: 'confirmed', width: 70 },
                { title: '待确认', dataIndex: 'pending', width: 70 },
                { title: '已拒绝', dataIndex: 'declined', width: 70 },
                { title: '符合条件', dataIndex: 'eligible', width: 80, render: (v: number | null) => v ?? '—' },
                {
                  title: '',
                  key: 'x',
                  width: 120,
                  render: (_, l) => (l.exhausted ? <Tag color="red">已无可补抽专家</Tag> : null),
                },
              ]}
            />
          ) : null}
          {!d.namesVisible && d.members.length ? (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 12 }}
              title="专家名单在评标开始前保密，仅抽取管理员可见"
            />
          ) : null}
          <Table<ExtractionMember>
            size="small"
            rowKey="id"
            pagination={false}
            columns={memberColumns}
            dataSource={d.members}
            scroll={{ x: 1280 }}
            data-testid="extraction-members"
            locale={{ emptyText: <Empty description={d.seedHash ? '尚未抽取' : '提交种子承诺后方可抽取'} /> }}
          />
          {d.log.length ? (
            <>
              <Typography.Title level={5} style={{ marginTop: 20 }}>
                操作日志
              </Typography.Title>
              <Timeline
                data-testid="extraction-log"
                items={d.log.map((l, i) => ({
                  key: i,
                  content: (
                    <span style={{ fontSize: 12 }}>
                      <Typography.Text type="secondary">
                        {l.time} {l.who}
                      </Typography.Text>
                      　{l.logbook}
                    </span>
                  ),
                }))}
              />
            </>
          ) : null}
          <DeclineDialog
            member={declining}
            extractionId={d.id}
            onClose={() => setDeclining(null)}
            onDone={(next, replaced, exhausted) => {
              setDeclining(null);
              settle(next);
              if (exhausted) void message.warning('该专业符合条件的专家已全部抽出，无法补抽');
              else if (replaced) void message.success('已登记拒绝，并按同一种子链补抽一名专家');
            }}
          />
        </>
      ) : null}
    </Drawer>
  );
}
