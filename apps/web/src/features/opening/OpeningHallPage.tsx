import {
  AuditOutlined,
  CheckOutlined,
  DownloadOutlined,
  FlagOutlined,
  KeyOutlined,
  LoginOutlined,
  NotificationOutlined,
  PlayCircleOutlined,
  StopOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { OPENING_BID_STATUS_LABELS, type OpeningBid, type OpeningHall, type OpeningResponse } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ButtonProps } from 'antd';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Popconfirm,
  Row,
  Select,
  Space,
  Steps,
  Table,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  downloadOpeningRecord,
  openingAnswer,
  openingClose,
  openingDraw,
  openingHallKey,
  openingHallQuery,
  openingRead,
  openingRespond,
  openingSectionsQuery,
  openingSignIn,
  setHall,
} from '../../api/opening';
import { LoadFailure, PageFrame } from '../../components/admin';
import { formatDateTime, formatMoney } from '../../lib/format';
import { useLiveEvent } from '../../lib/live';
import { OPENING_PAGES } from '../../lib/paths';
import { DecryptDialog, StartDialog, TextDialog } from './dialogs';
import { OutcomeCard } from './OutcomeCard';
import { Countdown, formatSeconds, ROLE_LABELS, StatusTag, TITLE } from './parts';
import './opening.css';

/** The hall is read again this often whatever the live channel says (a lost event, a stream being reconnected). */
export const HALL_REFETCH_MS = 15_000;

const STEPS = ['签到', '开标', '解密', '抽取唱标顺序', '唱标', '确认', '结束'];

/** Where the opening is on the Steps bar. */
function stepOf(h: OpeningHall): { current: number; status: 'process' | 'finish' | 'error' } {
  switch (h.status) {
    case 'waiting':
      return { current: 0, status: 'process' };
    case 'decrypting':
      return { current: h.actions.draw || h.bids.every((b) => b.status !== 'pending') ? 3 : 2, status: 'process' };
    case 'reading':
      return { current: h.seed ? 4 : 3, status: 'process' };
    case 'confirming':
      return { current: 5, status: 'process' };
    case 'closed':
      return { current: 6, status: 'finish' };
    case 'failed':
      return { current: 1, status: 'error' };
  }
}

/** The bid read out last (the one the hall is looking at). */
function lastRead(bids: OpeningBid[]): OpeningBid | null {
  let last: OpeningBid | null = null;
  for (const b of bids) if (b.reading && (!last || b.reading.readAt > last.reading!.readAt)) last = b;
  return last;
}

const BID_STATUS_COLORS: Record<OpeningBid['status'], string> = {
  pending: 'default',
  decrypted: 'success',
  late: 'error',
};

/** A step the hall's buttons run: its answer is the hall now; a refusal (shown by the request client) reloads it. */
function useStep<T>(sectionId: string, run: (v: T) => Promise<OpeningHall>, done: string) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  return useMutation({
    mutationFn: run,
    onSuccess: (h) => {
      setHall(qc, h);
      void message.success(done);
    },
    onError: () => void qc.invalidateQueries({ queryKey: openingHallKey(sectionId) }),
  });
}

/** A button that asks 确定 / 取消 first. */
function ConfirmButton({
  title,
  onConfirm,
  loading,
  testId,
  icon,
  danger,
  type = 'default',
  children,
}: {
  title: ReactNode;
  onConfirm: () => Promise<unknown>;
  loading: boolean;
  testId: string;
  icon?: ReactNode;
  danger?: boolean;
  type?: 'primary' | 'default';
  children: ReactNode;
}) {
  return (
    <Popconfirm
      title={title}
      okText="确定"
      cancelText="取消"
      okButtonProps={{ danger, 'data-testid': 'confirm-ok' } as ButtonProps}
      onConfirm={() => onConfirm().catch(() => undefined)}
    >
      <Button type={type} danger={danger} icon={icon} loading={loading} data-testid={testId}>
        {children}
      </Button>
    </Popconfirm>
  );
}

function Responses({
  bid,
  hall,
  onAnswer,
}: {
  bid: OpeningBid;
  hall: OpeningHall;
  onAnswer: (r: OpeningResponse) => void;
}) {
  const confirmed = bid.responses.some((r) => r.kind === 'confirm');
  const objections = bid.responses.filter((r) => r.kind === 'objection');
  if (!confirmed && objections.length === 0) {
    if (hall.status === 'confirming' && bid.reading) return <Tag>待确认</Tag>;
    if (hall.status === 'closed' && bid.reading) return <Tag color="warning">未确认</Tag>;
    return <span>—</span>;
  }
  return (
    <Space orientation="vertical" size={2}>
      {confirmed && <Tag color="success">已确认</Tag>}
      {objections.map((o) => (
        <div key={o.id} className="opening-objection" data-testid={`opening-objection-${o.id}`}>
          <Typography.Text type="danger">异议</Typography.Text>（{o.userName}，{formatSeconds(o.at)}）：{o.text}
          {o.answer ? (
            <div>
              <Typography.Text type="success">答复</Typography.Text>（{o.answeredBy ?? '主持人'}，
              {formatSeconds(o.answeredAt)}）：{o.answer}
            </div>
          ) : hall.actions.answer ? (
            <Button type="link" size="small" onClick={() => onAnswer(o)} data-testid={`opening-answer-${o.id}`}>
              答复
            </Button>
          ) : (
            <Typography.Text type="secondary">（待答复）</Typography.Text>
          )}
        </div>
      ))}
    </Space>
  );
}

function BidsTable({ hall, onAnswer }: { hall: OpeningHall; onAnswer: (r: OpeningResponse) => void }) {
  const current = lastRead(hall.bids)?.bidId ?? null;
  const rows = [...hall.bids].sort(
    (a, b) => (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER),
  );
  const dash = (v: ReactNode) => v ?? '—';
  return (
    <Table<OpeningBid>
      rowKey="bidId"
      size="small"
      bordered
      pagination={false}
      dataSource={rows}
      scroll={{ x: 1100 }}
      className="opening-bids"
      data-testid="opening-bids"
      locale={{
        emptyText:
          hall.status === 'waiting' ? `开标前不公开投标人名单（已签到 ${hall.signedInCount} 家）` : '没有投标文件',
      }}
      rowClassName={(r) => (r.bidId === current ? 'opening-row-current' : '')}
      onRow={(r) => ({ 'data-testid': `opening-bid-row-${r.bidId}` }) as object}
      columns={[
        { title: '顺序', key: 'order', width: 56, align: 'center', render: (_, r) => dash(r.order) },
        { title: '投标人', dataIndex: 'enterpriseName', width: 200 },
        {
          title: '签到',
          key: 'signedIn',
          width: 76,
          render: (_, r) => (r.signedIn ? <Tag color="blue">已签到</Tag> : <Tag>未签到</Tag>),
        },
        {
          title: '解密状态',
          key: 'status',
          width: 150,
          render: (_, r) => (
            <Space orientation="vertical" size={0}>
              <Tag color={BID_STATUS_COLORS[r.status]}>{OPENING_BID_STATUS_LABELS[r.status]}</Tag>
              {r.reason && (
                <Typography.Text type="danger" style={{ fontSize: 12 }}>
                  {r.reason}
                </Typography.Text>
              )}
            </Space>
          ),
        },
        {
          title: '投标报价（元）',
          key: 'price',
          width: 150,
          align: 'right',
          render: (_, r) =>
            r.reading ? (
              <span className="opening-price" data-testid={`opening-price-${r.bidId}`}>
                {formatMoney(r.reading.price)}
              </span>
            ) : (
              '—'
            ),
        },
        {
          title: '工期（日历天）',
          key: 'duration',
          width: 110,
          align: 'right',
          render: (_, r) => dash(r.reading?.durationDays),
        },
        { title: '质量标准', key: 'quality', width: 100, render: (_, r) => dash(r.reading?.quality) },
        { title: '项目经理', key: 'manager', width: 90, render: (_, r) => dash(r.reading?.manager) },
        {
          title: '确认情况',
          key: 'responses',
          render: (_, r) => <Responses bid={r} hall={hall} onAnswer={onAnswer} />,
        },
      ]}
    />
  );
}

/** 唱标: the bid read out last, large, and how far the reading is. */
function ReadingCard({ hall }: { hall: OpeningHall }) {
  const current = lastRead(hall.bids);
  const toRead = hall.bids.filter((b) => b.order !== null && b.status === 'decrypted');
  const read = hall.bids.filter((b) => b.reading).length;
  if (!current && hall.status !== 'reading') return null;
  return (
    <Card
      size="small"
      title={
        <Space>
          <NotificationOutlined />
          唱标
        </Space>
      }
      extra={
        <span data-testid="opening-read-progress">
          已唱 {read} / {toRead.length} 家
        </span>
      }
      style={{ marginBottom: 12 }}
    >
      {current?.reading ? (
        <div className="opening-reading" data-testid="opening-reading-current">
          <div className="opening-reading-who">
            第 {current.order ?? '—'} 家：{current.enterpriseName}
          </div>
          <Descriptions
            size="small"
            column={4}
            items={[
              {
                key: 'price',
                label: '投标报价（元）',
                children: <span className="opening-price">{formatMoney(current.reading.price)}</span>,
              },
              { key: 'duration', label: '工期（日历天）', children: current.reading.durationDays },
              { key: 'quality', label: '质量标准', children: current.reading.quality },
              { key: 'manager', label: '项目经理', children: current.reading.manager },
            ]}
          />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            唱出时间 {formatSeconds(current.reading.readAt)}
          </Typography.Text>
        </div>
      ) : (
        <Typography.Text type="secondary">唱标顺序已抽取，等待主持人唱标</Typography.Text>
      )}
    </Card>
  );
}

/**
 * The seed of the reading order and of 评审系数 K: its commitment from the start, the seed and K once drawn, and how to
 * check them.
 */
function SeedCard({ hall }: { hall: OpeningHall }) {
  if (!hall.seedCommitment) return null;
  return (
    <Card size="small" title="唱标顺序与评审系数" style={{ marginBottom: 12 }} data-testid="opening-seed-card">
      <Descriptions
        size="small"
        column={1}
        items={[
          {
            key: 'commitment',
            label: '种子承诺',
            children: (
              <Typography.Text
                code
                copyable
                style={{ fontSize: 12, wordBreak: 'break-all' }}
                data-testid="opening-seed-commitment"
              >
                {hall.seedCommitment}
              </Typography.Text>
            ),
          },
          {
            key: 'seed',
            label: '随机种子',
            children: hall.seed ? (
              <Typography.Text
                code
                copyable
                style={{ fontSize: 12, wordBreak: 'break-all' }}
                data-testid="opening-seed"
              >
                {hall.seed}
              </Typography.Text>
            ) : (
              <Typography.Text type="secondary">抽取唱标顺序时公开</Typography.Text>
            ),
          },
          {
            key: 'k',
            label: '评审系数 K',
            children: hall.benchmarkK ? (
              <span data-testid="opening-k">
                <Typography.Text strong>{hall.benchmarkK.value.toFixed(2)}</Typography.Text>
                <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                  （备选 {hall.benchmarkK.candidates.map((k) => k.toFixed(2)).join('、')}）
                </Typography.Text>
              </span>
            ) : (
              <Typography.Text type="secondary">与唱标顺序一同随机抽取</Typography.Text>
            ),
          },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '8px 0 0' }}>
        开标时在开评标日志中写入种子的 SHA-256（种子承诺），抽取时公开种子。任何人均可核验：SHA-256(种子)
        等于种子承诺；唱标顺序为各投标文件按 SHA-256(种子‖投标文件编号) 从小到大排列；评审系数 K 为备选值中第 n 个（从 0
        起），n 为 SHA-256(种子‖":K") 前 13 位十六进制数除以备选值个数的余数，综合评估法的评标基准价使用该 K。
      </Typography.Paragraph>
    </Card>
  );
}

function EventsCard({ hall }: { hall: OpeningHall }) {
  return (
    <Card
      size="small"
      title="开评标日志"
      extra={
        <Link to="/bid/ledger" target="_blank" rel="noopener noreferrer">
          校验日志
        </Link>
      }
    >
      <div className="opening-events" data-testid="opening-events">
        {hall.events.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无记录" />
        ) : (
          <Timeline
            reverse
            items={hall.events.map((e) => ({
              key: e.seq,
              content: (
                <div data-testid={`opening-event-${e.seq}`}>
                  <div className="opening-event-time">
                    {formatSeconds(e.at)} · {e.actorName}
                  </div>
                  <div>{e.text}</div>
                  <Typography.Text type="secondary" className="opening-event-hash" title={e.hash}>
                    #{e.seq} {e.hash.slice(0, 12)}…
                  </Typography.Text>
                </div>
              ),
            }))}
          />
        )}
      </div>
    </Card>
  );
}

function HeaderCard({ hall, offset, onZero }: { hall: OpeningHall; offset: number; onZero: () => void }) {
  const { section } = hall;
  let countdown: { label: string; node: ReactNode } | null = null;
  if (hall.status === 'waiting') {
    countdown = hall.due
      ? { label: '开标', node: <Typography.Text type="warning">已到开标时间，等待主持人开标</Typography.Text> }
      : {
          label: '距开标',
          node: <Countdown target={section.bidDeadline} offset={offset} onZero={onZero} testId="opening-countdown" />,
        };
  } else if (hall.status === 'decrypting' && hall.decryptDeadline) {
    countdown = {
      label: '解密剩余',
      node: <Countdown target={hall.decryptDeadline} offset={offset} onZero={onZero} testId="opening-countdown" />,
    };
  }
  const mine = hall.mine;
  return (
    <Card
      size="small"
      style={{ marginBottom: 12 }}
      title={
        <Space wrap>
          <span>{section.projectName}</span>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
            {section.code} {section.name}
          </Typography.Text>
        </Space>
      }
      extra={<StatusTag status={hall.status} testId="opening-status" />}
    >
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 4 }}
        items={[
          { key: 'deadline', label: '开标时间', children: formatDateTime(section.bidDeadline) },
          ...(countdown ? [{ key: 'countdown', label: countdown.label, children: countdown.node }] : []),
          { key: 'role', label: '我的身份', children: ROLE_LABELS[hall.role] },
          { key: 'signed', label: '已签到', children: `${hall.signedInCount} 家` },
          ...(hall.startedAt
            ? [
                { key: 'started', label: '开标于', children: formatSeconds(hall.startedAt) },
                { key: 'minutes', label: '解密时限', children: `${hall.decryptMinutes ?? '—'} 分钟` },
              ]
            : []),
          ...(hall.closedAt ? [{ key: 'closed', label: '结束于', children: formatSeconds(hall.closedAt) }] : []),
          ...(mine
            ? [
                {
                  key: 'mine',
                  label: '本单位',
                  children: (
                    <Space size={4} wrap data-testid="opening-mine">
                      <span>{mine.enterpriseName}</span>
                      {mine.signedIn ? <Tag color="blue">已签到</Tag> : <Tag>未签到</Tag>}
                      {mine.status && (
                        <Tag color={BID_STATUS_COLORS[mine.status]}>{OPENING_BID_STATUS_LABELS[mine.status]}</Tag>
                      )}
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}

type Dialog =
  | { kind: 'start' }
  | { kind: 'decrypt' }
  | { kind: 'object' }
  | { kind: 'answer'; response: OpeningResponse };

function Hall({ sectionId }: { sectionId: string }) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const hallQuery = useQuery({ ...openingHallQuery(sectionId), refetchInterval: HALL_REFETCH_MS });
  const reload = () => void qc.invalidateQueries({ queryKey: openingHallKey(sectionId) });
  useLiveEvent('opening', (d) => {
    if (d.sectionId === sectionId) reload();
  });
  useLiveEvent('resync', reload);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const signIn = useStep(sectionId, () => openingSignIn(sectionId), '签到成功');
  const draw = useStep(sectionId, () => openingDraw(sectionId), '唱标顺序已抽取');
  const read = useStep(sectionId, () => openingRead(sectionId), '已唱标');
  const confirm = useStep(sectionId, () => openingRespond({ sectionId, kind: 'confirm' }), '已确认开标结果');
  const close = useStep(sectionId, () => openingClose(sectionId), '开标已结束');
  const record = useMutation({
    mutationFn: (code: string) => downloadOpeningRecord(sectionId, `开标记录-${code}.pdf`),
  });
  const after = (h: OpeningHall, text: string) => {
    setHall(qc, h);
    void message.success(text);
  };

  if (hallQuery.error) return <LoadFailure error={hallQuery.error} what="开标大厅" />;
  const hall = hallQuery.data;
  if (!hall) return <Card loading />;
  const offset = Date.parse(hall.now) - hallQuery.dataUpdatedAt;
  const step = stepOf(hall);
  const a = hall.actions;
  const any = Object.values(a).some(Boolean);

  return (
    <>
      <HeaderCard hall={hall} offset={offset} onZero={reload} />
      {hall.status === 'failed' && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title="流标（须重新招标）"
          description={hall.failureReason}
          data-testid="opening-failed"
        />
      )}
      <Card size="small" style={{ marginBottom: 12 }}>
        <Steps
          size="small"
          current={step.current}
          status={step.status}
          items={STEPS.map((title) => ({ title }))}
          data-testid="opening-steps"
        />
      </Card>
      {any && (
        <Card size="small" style={{ marginBottom: 12 }} data-testid="opening-actions">
          <Space wrap>
            {a.signIn && (
              <Button
                type="primary"
                icon={<LoginOutlined />}
                loading={signIn.isPending}
                onClick={() => signIn.mutate(undefined)}
                data-testid="opening-signin"
              >
                签到
              </Button>
            )}
            {a.start && (
              <Button
                type="primary"
                icon={<PlayCircleOutlined />}
                onClick={() => setDialog({ kind: 'start' })}
                data-testid="opening-start"
              >
                开标
              </Button>
            )}
            {a.decrypt && (
              <Button
                type="primary"
                icon={<KeyOutlined />}
                onClick={() => setDialog({ kind: 'decrypt' })}
                data-testid="opening-decrypt"
              >
                解密投标文件
              </Button>
            )}
            {a.draw && (
              <Button
                type="primary"
                icon={<SwapOutlined />}
                loading={draw.isPending}
                onClick={() => draw.mutate(undefined)}
                data-testid="opening-draw"
              >
                抽取唱标顺序
              </Button>
            )}
            {a.read && (
              <Button
                type="primary"
                icon={<NotificationOutlined />}
                loading={read.isPending}
                onClick={() => read.mutate(undefined)}
                data-testid="opening-read"
              >
                唱标下一家
              </Button>
            )}
            {a.respond && (
              <>
                <ConfirmButton
                  title="确认开标结果（唱标内容）无误？确认后不能撤回。"
                  onConfirm={() => confirm.mutateAsync(undefined)}
                  loading={confirm.isPending}
                  testId="opening-confirm"
                  icon={<CheckOutlined />}
                  type="primary"
                >
                  确认开标结果
                </ConfirmButton>
                <Button
                  icon={<AuditOutlined />}
                  onClick={() => setDialog({ kind: 'object' })}
                  data-testid="opening-object"
                >
                  提出异议
                </Button>
              </>
            )}
            {a.close && (
              <ConfirmButton
                title="结束开标？未确认的投标人将记为未确认，并生成开标记录。"
                onConfirm={() => close.mutateAsync(undefined)}
                loading={close.isPending}
                testId="opening-close"
                icon={<StopOutlined />}
                danger
              >
                结束开标
              </ConfirmButton>
            )}
            {a.record && (
              <Button
                icon={<DownloadOutlined />}
                loading={record.isPending}
                onClick={() => record.mutate(hall.section.code)}
                data-testid="opening-record"
              >
                下载开标记录
              </Button>
            )}
          </Space>
        </Card>
      )}
      {hall.status === 'closed' && hall.role === 'bidder' && <OutcomeCard sectionId={sectionId} />}
      <Row gutter={12}>
        <Col xs={24} xl={17}>
          <ReadingCard hall={hall} />
          <Card
            size="small"
            title={
              <Space>
                <FlagOutlined />
                投标文件
              </Space>
            }
            style={{ marginBottom: 12 }}
          >
            <BidsTable hall={hall} onAnswer={(response) => setDialog({ kind: 'answer', response })} />
          </Card>
        </Col>
        <Col xs={24} xl={7}>
          <SeedCard hall={hall} />
          <EventsCard hall={hall} />
        </Col>
      </Row>
      <StartDialog hall={hall} open={dialog?.kind === 'start'} onClose={() => setDialog(null)} />
      <DecryptDialog hall={hall} open={dialog?.kind === 'decrypt'} onClose={() => setDialog(null)} />
      <TextDialog
        open={dialog?.kind === 'object'}
        title="提出异议"
        label="异议内容"
        min={5}
        hint="异议及主持人的答复记入开标记录与开评标日志。"
        okText="提交异议"
        textTestId="opening-objection-text"
        okTestId="opening-objection-ok"
        run={async (text) => after(await openingRespond({ sectionId, kind: 'objection', text }), '异议已提交')}
        onClose={() => setDialog(null)}
      />
      <TextDialog
        open={dialog?.kind === 'answer'}
        title="答复异议"
        label="答复"
        min={2}
        hint={dialog?.kind === 'answer' ? `异议：${dialog.response.text ?? ''}` : undefined}
        okText="提交答复"
        textTestId="opening-answer-text"
        okTestId="opening-answer-ok"
        run={async (answer) => {
          if (dialog?.kind !== 'answer') return;
          after(await openingAnswer({ id: dialog.response.id, answer }), '答复已记录');
        }}
        onClose={() => setDialog(null)}
      />
    </>
  );
}

/** Without a section: choose one of those the caller may enter. */
function SectionPicker() {
  const [, setParams] = useSearchParams();
  const sections = useQuery(openingSectionsQuery);
  if (sections.error) return <LoadFailure error={sections.error} what="开标项目" />;
  return (
    <Card size="small" title="选择开标项目">
      {sections.data && sections.data.length === 0 ? (
        <Empty description="暂无可进入的开标项目" data-testid="opening-none" />
      ) : (
        <Space wrap>
          <Select
            showSearch
            loading={sections.isLoading}
            placeholder="选择要进入的标段"
            style={{ width: 520 }}
            optionFilterProp="label"
            options={(sections.data ?? []).map((s) => ({
              value: s.id,
              label: `${s.code} ${s.name}（${s.projectName}，${formatDateTime(s.bidDeadline)}）`,
            }))}
            onChange={(id: string) =>
              setParams((p) => {
                const q = new URLSearchParams(p);
                q.set('sectionId', id);
                return q;
              })
            }
            data-testid="opening-section-select"
          />
          <Link to={OPENING_PAGES.overview}>全部开标项目</Link>
        </Space>
      )}
    </Card>
  );
}

/**
 * 不见面开标 `/bid/bidMeet?sectionId=` (issue 17): one section's opening, live for everyone in the hall — sign-in, the
 * host's start, each bidder's decryption in their own browser, the drawn reading order, the reading, confirmations and
 * objections, the close and its record; every step from the tamper-evident log. Buttons follow the hall's `actions`.
 * Once closed, a bidder also sees the evaluation's outcome (评标结果: the published candidates, objections, the award).
 */
export default function OpeningHallPage() {
  const [params] = useSearchParams();
  const sectionId = params.get('sectionId') ?? '';
  return (
    <PageFrame section={{ title: TITLE, to: OPENING_PAGES.overview }} title="不见面开标" wide>
      {sectionId ? <Hall key={sectionId} sectionId={sectionId} /> : <SectionPicker />}
    </PageFrame>
  );
}
