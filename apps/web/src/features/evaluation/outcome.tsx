import { DownloadOutlined } from '@ant-design/icons';
import type { EvalObjection, EvalOutcome } from '@ks/contracts';
import { useMutation } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { downloadAwardNotice } from '../../api/evaluation';
import { textRules } from '../../components/admin';
import { formatDateTime, formatMoney } from '../../lib/format';
import { portalNoticeHref } from '../../lib/paths';
import { formatSeconds, points, testIdProps } from './parts';
import './outcome.css';

/**
 * What follows the evaluation (issue 17), as the host's room step and the bidders' card in the opening hall show it:
 * the candidates, the publicity period, the objections and their answers, the award and its notice.
 */

type Candidate = EvalOutcome['candidates'][number];
type Publicity = NonNullable<EvalOutcome['publicity']>;

/** ¥ with thousands separators and two decimals. */
export const yuan = (v: number) => `¥${formatMoney(v)}`;

/** 中标候选人: rank, enterprise, price, total (— under the lowest-price method). */
export function CandidatesTable({ candidates, winnerId }: { candidates: Candidate[]; winnerId?: string | null }) {
  return (
    <Table<Candidate>
      rowKey="bidId"
      size="small"
      bordered
      pagination={false}
      dataSource={candidates}
      data-testid="eval-candidates"
      locale={{ emptyText: '没有合格的中标候选人' }}
      onRow={(r) => ({ 'data-testid': `eval-candidate-${r.rank}` }) as object}
      columns={[
        { title: '排名', dataIndex: 'rank', width: 70, align: 'center', render: (v: number) => <strong>{v}</strong> },
        {
          title: '中标候选人',
          dataIndex: 'enterpriseName',
          render: (v: string, r) => (
            <Space size={4}>
              {v}
              {winnerId === r.bidId && <Tag color="success">中标人</Tag>}
            </Space>
          ),
        },
        {
          title: '投标报价',
          dataIndex: 'price',
          width: 180,
          align: 'right',
          render: (v: number) => <span className="eval-num">{yuan(v)}</span>,
        },
        { title: '综合得分', dataIndex: 'total', width: 110, align: 'right', render: (v: number | null) => points(v) },
      ]}
    />
  );
}

/** 公示中 / 公示期已结束. */
export function PublicityTag({ publicity }: { publicity: Publicity }) {
  return publicity.running ? (
    <Tag color="processing" data-testid="eval-publicity-tag">
      公示中
    </Tag>
  ) : (
    <Tag data-testid="eval-publicity-tag">公示期已结束</Tag>
  );
}

/** The period, its tag, and (late) the 逾期公示 mark. */
export function PublicityPeriod({ publicity }: { publicity: Publicity }) {
  return (
    <Space size={6} wrap>
      <span data-testid="eval-publicity-period">
        {formatDateTime(publicity.start)} 至 {formatDateTime(publicity.end)}
      </span>
      <PublicityTag publicity={publicity} />
      {publicity.late && <Tag color="warning">逾期公示</Tag>}
    </Space>
  );
}

/** A notice on the portal, in a new tab. */
export function NoticeLink({ id, testId, children }: { id: string; testId: string; children: ReactNode }) {
  return (
    <Typography.Link href={portalNoticeHref(id)} target="_blank" rel="noopener noreferrer" data-testid={testId}>
      {children}
    </Typography.Link>
  );
}

/** 下载中标通知书 (PDF). */
export function AwardNoticeButton({ sectionId, code }: { sectionId: string; code: string }) {
  const notice = useMutation({
    mutationFn: () => downloadAwardNotice(sectionId, `中标通知书-${code}.pdf`),
  });
  return (
    <Button
      icon={<DownloadOutlined />}
      loading={notice.isPending}
      onClick={() => notice.mutate()}
      data-testid="eval-award-notice"
    >
      下载中标通知书
    </Button>
  );
}

/** 异议: who raised it, the text, and the answer (or 答复 when `onAnswer`, else 待答复). */
export function ObjectionsTable({
  objections,
  onAnswer,
  emptyText = '公示期内没有异议',
}: {
  objections: EvalObjection[];
  onAnswer?: (o: EvalObjection) => void;
  emptyText?: string;
}) {
  return (
    <Table<EvalObjection>
      rowKey="id"
      size="small"
      bordered
      pagination={false}
      dataSource={objections}
      scroll={{ x: 900 }}
      data-testid="eval-objections"
      locale={{ emptyText }}
      onRow={(r) => ({ 'data-testid': `eval-objection-${r.id}` }) as object}
      columns={[
        { title: '异议人', dataIndex: 'enterpriseName', width: 200 },
        { title: '提出人', dataIndex: 'userName', width: 90 },
        { title: '异议内容', dataIndex: 'text', render: (v: string) => <span className="eval-text">{v}</span> },
        { title: '提出时间', dataIndex: 'at', width: 170, render: (v: string) => formatSeconds(v) },
        {
          title: '答复',
          key: 'answer',
          width: 280,
          render: (_, o) =>
            o.answer ? (
              <Space orientation="vertical" size={0}>
                <span className="eval-text">{o.answer}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {formatSeconds(o.answeredAt)}
                </Typography.Text>
              </Space>
            ) : onAnswer ? (
              <Button type="link" size="small" onClick={() => onAnswer(o)} data-testid={`eval-answer-${o.id}`}>
                答复
              </Button>
            ) : (
              <Typography.Text type="warning">待答复</Typography.Text>
            ),
        },
      ]}
    />
  );
}

/** A text of 5–1000 characters asked for in a dialog: an objection (异议), or the host's answer (答复). */
export function OutcomeTextDialog({
  open,
  title,
  label,
  hint,
  okText,
  testId,
  run,
  onClose,
}: {
  open: boolean;
  title: string;
  label: string;
  hint?: ReactNode;
  okText: string;
  /** eval-<testId>-text, eval-<testId>-ok */
  testId: string;
  /** sends the text; resolves once it is done (the dialog closes), rejects on a refusal (it stays open) */
  run: (text: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ text: string }>();
  const send = useMutation({ mutationFn: run, onSuccess: onClose });
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText="取消"
      onCancel={onClose}
      confirmLoading={send.isPending}
      okButtonProps={testIdProps(`eval-${testId}-ok`)}
      onOk={() =>
        form.validateFields().then(
          (v) => send.mutate(v.text.trim()),
          () => undefined,
        )
      }
      destroyOnHidden
    >
      {hint && <div style={{ marginBottom: 8 }}>{hint}</div>}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="text" label={label} rules={textRules(label, 5, 1000)}>
          <Input.TextArea rows={5} maxLength={1000} showCount data-testid={`eval-${testId}-text`} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
