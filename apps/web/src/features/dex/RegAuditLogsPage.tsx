import { CloudDownloadOutlined, SyncOutlined } from '@ant-design/icons';
import {
  DEFAULT_PAGE_SIZE,
  DEX_AUDIT_ACTION_LABELS,
  DEX_MSG,
  DEX_REG_CHANGE_LABELS,
  DEX_REG_CHANGES,
  DEX_REG_FIELD_LABELS,
  DEX_REG_STATE_LABELS,
  DEX_REG_STATES,
  DEX_REG_STATUSES,
  DEX_SYNC_PHASE_LABELS,
  DEX_SYNC_STATUS_LABELS,
  type DexAuditAction,
  type DexAuditRow,
  type DexDiffItem,
  type DexRegChange,
  type DexRegField,
  type DexRegRow,
  type DexRegState,
  type DexRegStatus,
  type DexSyncJob,
  type DexSyncStatus,
} from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  type ButtonProps,
  Card,
  Collapse,
  DatePicker,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Input,
  Popconfirm,
  Progress,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import {
  approveRegistration,
  DEX_KEY,
  type DexRegFilters,
  dexRegDetailQuery,
  dexRegListQuery,
  dexSyncJobQuery,
  regConfiguredOf,
  rejectRegistration,
  startDexSync,
} from '../../api/dex';
import {
  ActionLink,
  FilterBar,
  FormDialog,
  KeywordFilter,
  ListCard,
  LoadFailure,
  PageFrame,
  RowActions,
  SelectFilter,
  ServerTable,
  sortable,
  useServerList,
} from '../../components/admin';
import { formatDateTime, formatYuan } from '../../lib/format';
import { useLiveEvent } from '../../lib/live';
import { useSearchParam } from '../../lib/searchParam';
import { useCurrentUser } from '../../lib/sessionHooks';

const TITLE = '监管审核';

const STATE_COLORS: Record<DexRegState, string> = {
  pending: 'processing',
  approved: 'success',
  dismissed: 'warning',
  invalid: 'error',
};
const CHANGE_COLORS: Record<DexRegChange, string> = {
  new: 'blue',
  changed: 'orange',
  unchanged: 'default',
  rejected: 'red',
};
const ACTION_COLORS: Record<DexAuditAction, string> = {
  ...CHANGE_COLORS,
  approved: 'green',
  dismissed: 'volcano',
};
const SYNC_COLORS: Record<DexSyncStatus, string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
};

export function RegStateTag({
  r,
  testId = `reg-state-${r.upstreamId}`,
}: {
  r: Pick<DexRegRow, 'state' | 'reason' | 'upstreamId'>;
  testId?: string;
}) {
  const tag = (
    <Tag color={STATE_COLORS[r.state]} data-testid={testId}>
      {DEX_REG_STATE_LABELS[r.state]}
    </Tag>
  );
  return r.reason && (r.state === 'invalid' || r.state === 'dismissed') ? (
    <Tooltip title={r.reason}>{tag}</Tooltip>
  ) : (
    tag
  );
}

const fieldLabel = (f: string) => DEX_REG_FIELD_LABELS[f as DexRegField] ?? f;
/** A field's text as people read it: amounts with separators. */
const shown = (field: string, v: string | null) =>
  v === null ? (
    <Typography.Text type="secondary">（空）</Typography.Text>
  ) : field === 'registeredCapital' ? (
    formatYuan(v)
  ) : (
    v
  );

/** Before → after of some fields, the changed cells marked. */
function DiffTable({
  diff,
  before,
  after,
  testId,
  empty,
}: {
  diff: DexDiffItem[];
  before: string;
  after: string;
  testId: string;
  empty: string;
}) {
  const columns: TableColumnsType<DexDiffItem> = [
    { title: '字段', dataIndex: 'field', width: 150, render: (f: string) => fieldLabel(f) },
    {
      title: before,
      dataIndex: 'before',
      render: (v: string | null, d) => <Typography.Text type="secondary">{shown(d.field, v)}</Typography.Text>,
    },
    {
      title: after,
      dataIndex: 'after',
      render: (v: string | null, d) => <Typography.Text strong>{shown(d.field, v)}</Typography.Text>,
    },
  ];
  return (
    <Table<DexDiffItem>
      size="small"
      rowKey="field"
      columns={columns}
      dataSource={diff}
      pagination={false}
      locale={{ emptyText: empty }}
      data-testid={testId}
    />
  );
}

/** 驳回 with its reason (required, as the server requires). */
function RejectDialog({ row, onClose }: { row: DexRegRow | null; onClose: (done: boolean) => void }) {
  return (
    <FormDialog<{ reason: string }>
      open={row !== null}
      subject={row?.id}
      title={row ? `驳回「${row.name}」` : '驳回'}
      intro={
        <Typography.Paragraph type="secondary">
          驳回后企业库不作修改；上游再次变更该登记时将重新进入待审核。
        </Typography.Paragraph>
      }
      submit={(v) => rejectRegistration(row!, v.reason.trim())}
      onClose={() => onClose(false)}
      onSaved={() => onClose(true)}
      successText={DEX_MSG.dismissed}
      okText="驳回"
      okDanger
      testId="reg-reject-ok"
      dialogTestId="reg-reject-dialog"
    >
      <Form.Item
        name="reason"
        label="驳回原因"
        rules={[{ required: true, whitespace: true, message: DEX_MSG.reasonRequired }]}
      >
        <Input.TextArea
          rows={5}
          maxLength={500}
          showCount
          placeholder="请填写驳回原因"
          data-testid="reg-reject-reason"
        />
      </Form.Item>
    </FormDialog>
  );
}

/** 通过 after 确认通过？ */
function ApproveButton({ row, onDone, link = true }: { row: DexRegRow; onDone: () => void; link?: boolean }) {
  const { message } = App.useApp();
  const m = useMutation({
    mutationFn: () => approveRegistration(row),
    onSuccess: () => {
      void message.success(DEX_MSG.approved);
      onDone();
    },
    onError: () => onDone(),
  });
  return (
    <Popconfirm
      title="确认通过？"
      description="通过后将按该登记新建或更新企业库中的企业信息"
      okText="确定"
      cancelText="取消"
      okButtonProps={{ 'data-testid': 'confirm-ok' } as ButtonProps}
      onConfirm={() => m.mutateAsync().catch(() => undefined)}
    >
      <Button
        type={link ? 'link' : 'primary'}
        size={link ? 'small' : 'middle'}
        loading={m.isPending}
        data-testid={link ? `reg-approve-${row.upstreamId}` : 'reg-drawer-approve'}
      >
        通过
      </Button>
    </Popconfirm>
  );
}

function History({ rows }: { rows: DexAuditRow[] }) {
  const columns: TableColumnsType<DexAuditRow> = [
    { title: '时间', dataIndex: 'at', width: 150, render: (v: string) => formatDateTime(v) },
    {
      title: '事项',
      dataIndex: 'action',
      width: 110,
      render: (a: DexAuditAction) => <Tag color={ACTION_COLORS[a]}>{DEX_AUDIT_ACTION_LABELS[a]}</Tag>,
    },
    { title: '操作人', dataIndex: 'actorName', width: 100 },
    {
      title: '说明',
      key: 'what',
      render: (_, a) =>
        a.reason ??
        (a.action === 'new'
          ? '首次从上游同步'
          : a.diff.length
            ? a.diff.map((d) => `${fieldLabel(d.field)}：${d.before ?? '（空）'} → ${d.after ?? '（空）'}`).join('；')
            : '—'),
    },
  ];
  return (
    <Table<DexAuditRow>
      size="small"
      rowKey="id"
      columns={columns}
      dataSource={rows}
      pagination={false}
      locale={{ emptyText: '暂无审核日志' }}
      data-testid="reg-history"
    />
  );
}

function Detail({ id, onReject, onDone }: { id: string; onReject: (r: DexRegRow) => void; onDone: () => void }) {
  const q = useQuery(dexRegDetailQuery(id));
  if (q.isError && !q.data) return <LoadFailure error={q.error} what="企业登记" />;
  const d = q.data;
  if (!d) return <Card loading variant="borderless" />;
  const r = d.registration;
  return (
    <div data-testid="reg-detail">
      {r.reason ? (
        <Alert
          type={r.state === 'invalid' ? 'error' : 'warning'}
          showIcon
          title={r.state === 'invalid' ? '校验未通过，已拒收' : '已驳回'}
          description={r.reason}
          style={{ marginBottom: 16 }}
          data-testid="reg-reason"
        />
      ) : null}
      <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label="企业名称" span={2}>
          {r.name}
        </Descriptions.Item>
        <Descriptions.Item label="统一社会信用代码">{r.creditCode || '—'}</Descriptions.Item>
        <Descriptions.Item label="上游编号">{r.upstreamId}</Descriptions.Item>
        <Descriptions.Item label="法定代表人">{r.legalPerson ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="注册资本">{formatYuan(r.registeredCapital) ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="所在地区">{r.region ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="成立日期">{r.establishedAt ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="注册地址" span={2}>
          {r.address ?? '—'}
        </Descriptions.Item>
        <Descriptions.Item label="主体类型">{r.entType ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="登记类型 / 状态">
          {r.regType ?? '—'} / {r.regStatus ?? '—'}
        </Descriptions.Item>
        <Descriptions.Item label="审核状态">
          <RegStateTag r={r} testId="reg-detail-state" />
          {r.decidedBy ? (
            <Typography.Text type="secondary">
              {r.decidedBy} {formatDateTime(r.decidedAt)}
            </Typography.Text>
          ) : null}
        </Descriptions.Item>
        <Descriptions.Item label="上游更新时间">{formatDateTime(r.upstreamUpdatedAt) || '—'}</Descriptions.Item>
      </Descriptions>
      {r.state !== 'invalid' ? (
        <>
          <Typography.Title level={5}>
            {r.state === 'approved' ? '与企业库的差异' : '通过后写入企业库'}
            <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal', marginLeft: 8 }}>
              {d.local ? `对应企业：${d.local.name}（${d.local.creditCode}）` : '企业库中尚无该企业，通过后将新建'}
            </Typography.Text>
          </Typography.Title>
          <DiffTable
            diff={d.localDiff}
            before="企业库当前"
            after="上游登记"
            testId="reg-local-diff"
            empty="与企业库一致，无需修改"
          />
        </>
      ) : null}
      {d.diff.length ? (
        <>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            上游最近一次变更
          </Typography.Title>
          <DiffTable diff={d.diff} before="变更前" after="变更后" testId="reg-diff" empty="无变化" />
        </>
      ) : null}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        审核日志
      </Typography.Title>
      <History rows={d.history} />
      <Collapse
        size="small"
        style={{ marginTop: 16 }}
        items={[
          {
            key: 'raw',
            label: '上游原始数据',
            children: (
              <pre style={{ margin: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                {JSON.stringify(d.raw, null, 2)}
              </pre>
            ),
          },
        ]}
      />
      {r.canDecide ? (
        <Space style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
          <Button danger onClick={() => onReject(r)} data-testid="reg-drawer-reject">
            驳回
          </Button>
          <ApproveButton row={r} onDone={onDone} link={false} />
        </Space>
      ) : null}
    </div>
  );
}

const active = (j: DexSyncJob | null | undefined) => j?.status === 'queued' || j?.status === 'running';

/** The latest sync: its state, progress while it runs, what it found, why it failed; 同步 / 全量同步 for administrators. */
function SyncCard({ admin, onFinished }: { admin: boolean; onFinished: () => void }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [running, setRunning] = useState(false);
  const q = useQuery(dexSyncJobQuery(running));
  const job = q.data?.job ?? null;
  const configured = q.data?.configured ?? true;
  const isActive = active(job);
  const last = useRef<DexSyncStatus | null>(null);
  useEffect(() => {
    setRunning(isActive);
    // a sync that ends brings new rows: the list reads again
    if (job && last.current && last.current !== job.status && !active(job)) onFinished();
    last.current = job?.status ?? null;
  }, [isActive, job, onFinished]);
  const start = useMutation({
    mutationFn: (full: boolean) => startDexSync(full),
    onSuccess: () => {
      void message.success(DEX_MSG.syncStarted);
      setRunning(true);
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: [...DEX_KEY, 'sync-job'] }),
  });
  const disabled = !configured || isActive || start.isPending;
  const percent =
    job && isActive
      ? job.phase === 'applying'
        ? 100
        : job.total
          ? Math.min(99, Math.round((job.fetched / job.total) * 100))
          : 0
      : 0;
  return (
    <Card
      title="企业登记同步"
      style={{ marginBottom: 16 }}
      data-testid="reg-sync-card"
      extra={
        admin ? (
          <Space>
            <Tooltip title="只拉取上次同步完成以来上游有变化的登记">
              <Button
                type="primary"
                icon={<SyncOutlined spin={isActive} />}
                disabled={disabled}
                loading={start.isPending}
                onClick={() => start.mutate(false)}
                data-testid="reg-sync"
              >
                同步
              </Button>
            </Tooltip>
            <Button
              icon={<CloudDownloadOutlined />}
              disabled={disabled}
              onClick={() => start.mutate(true)}
              data-testid="reg-sync-full"
            >
              全量同步
            </Button>
          </Space>
        ) : null
      }
    >
      {configured ? null : (
        <Alert
          type="warning"
          showIcon
          title={DEX_MSG.syncNotConfigured}
          description="配置后由管理员在此发起同步；下方为此前同步的记录。"
          style={{ marginBottom: 12 }}
          data-testid="reg-unconfigured"
        />
      )}
      {q.isError && !q.data ? <LoadFailure error={q.error} what="同步任务" /> : null}
      {job ? (
        <>
          <Descriptions size="small" column={{ xs: 1, md: 2, xl: 4 }} data-testid="reg-sync-job">
            <Descriptions.Item label="最近一次同步">
              <Tag color={SYNC_COLORS[job.status]} data-testid="reg-sync-status">
                {DEX_SYNC_STATUS_LABELS[job.status]}
              </Tag>
              {job.full ? '全量' : `增量（自 ${formatDateTime(job.since)}）`}
            </Descriptions.Item>
            <Descriptions.Item label="发起人">{job.startedByName}</Descriptions.Item>
            <Descriptions.Item label="开始时间">{formatDateTime(job.startedAt ?? job.createdAt)}</Descriptions.Item>
            <Descriptions.Item label="完成时间">{formatDateTime(job.finishedAt) || '—'}</Descriptions.Item>
            <Descriptions.Item label="同步结果" span={{ xs: 1, md: 2, xl: 4 }}>
              <span data-testid="reg-sync-counts">
                拉取 {job.fetched} 条（{job.pages} 页）：新增 {job.counts.new} · 变更 {job.counts.changed} · 无变化{' '}
                {job.counts.unchanged} · 拒收 {job.counts.rejected}
              </span>
            </Descriptions.Item>
          </Descriptions>
          {isActive ? (
            <div data-testid="reg-sync-progress">
              <Progress percent={percent} status="active" />
              <Typography.Text type="secondary">
                {job.status === 'queued'
                  ? '等待开始…'
                  : job.phase === 'applying'
                    ? `${DEX_SYNC_PHASE_LABELS.applying}：${job.fetched} 条登记及审核日志…`
                    : `${DEX_SYNC_PHASE_LABELS.fetching}：第 ${job.pages} 页，已拉取 ${job.fetched}${
                        job.total === null ? '' : ` / ${job.total}`
                      } 条`}
              </Typography.Text>
            </div>
          ) : null}
          {job.status === 'failed' ? (
            <Alert
              type="error"
              showIcon
              title="同步失败，本次未写入任何数据"
              description={job.error}
              style={{ marginTop: 8 }}
              data-testid="reg-sync-error"
            />
          ) : null}
        </>
      ) : q.data ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚未同步过企业登记" />
      ) : null}
    </Card>
  );
}

function Registrations({ admin }: { admin: boolean }) {
  const [open, setOpen] = useSearchParam('regId');
  const [rejecting, setRejecting] = useState<DexRegRow | null>(null);
  const [days, setDays] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const qc = useQueryClient();
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as DexRegFilters,
    query: dexRegListQuery,
    refreshKey: DEX_KEY,
  });
  const refresh = view.refresh;
  // another administrator's decision, or a sync's progress and end
  useLiveEvent('dex', () => void qc.invalidateQueries({ queryKey: DEX_KEY }));
  if (view.failed) return <LoadFailure error={view.list.error!} what="同步的企业登记" />;
  const configured = regConfiguredOf(view.list.data);
  const onRange = (v: [Dayjs | null, Dayjs | null] | null) => {
    setDays(v);
    view.setFilter({ startDate: v?.[0]?.format('YYYY-MM-DD'), endDate: v?.[1]?.format('YYYY-MM-DD') });
  };
  const columns: TableColumnsType<DexRegRow> = [
    {
      title: '企业名称',
      dataIndex: 'name',
      width: 250,
      ellipsis: true,
      ...sortable(view.filters, 'name'),
      render: (v: string, r) => (
        <ActionLink onClick={() => setOpen(r.id)} testId={`reg-open-${r.upstreamId}`}>
          {v}
        </ActionLink>
      ),
    },
    { title: '统一社会信用代码', dataIndex: 'creditCode', width: 190, render: (v: string) => v || '—' },
    {
      title: '审核状态',
      dataIndex: 'state',
      width: 110,
      render: (_: DexRegState, r) => <RegStateTag r={r} />,
    },
    {
      title: '同步结果',
      dataIndex: 'change',
      width: 90,
      render: (c: DexRegChange, r) => (
        <Tag color={CHANGE_COLORS[c]} data-testid={`reg-change-${r.upstreamId}`}>
          {DEX_REG_CHANGE_LABELS[c]}
        </Tag>
      ),
    },
    {
      title: '原因',
      dataIndex: 'reason',
      width: 200,
      ellipsis: true,
      render: (v: string | null, r) => (v ? <span data-testid={`reg-reason-${r.upstreamId}`}>{v}</span> : '—'),
    },
    { title: '法定代表人', dataIndex: 'legalPerson', width: 100, render: (v: string | null) => v ?? '—' },
    { title: '主体类型', dataIndex: 'entType', width: 110, render: (v: string | null) => v ?? '—' },
    { title: '所在地区', dataIndex: 'region', width: 90, render: (v: string | null) => v ?? '—' },
    { title: '登记状态', dataIndex: 'regStatus', width: 90, render: (v: string | null) => v ?? '—' },
    {
      title: '上游更新时间',
      dataIndex: 'upstreamUpdatedAt',
      width: 150,
      ...sortable(view.filters, 'upstreamUpdatedAt'),
      render: (v: string | null) => formatDateTime(v) || '—',
    },
    {
      title: '同步时间',
      dataIndex: 'pulledAt',
      width: 150,
      ...sortable(view.filters, 'pulledAt'),
      render: (v: string) => formatDateTime(v),
    },
    {
      title: '操作',
      key: 'ops',
      width: 170,
      fixed: 'right',
      render: (_, r) => (
        <RowActions>
          <ActionLink onClick={() => setOpen(r.id)} testId={`reg-detail-${r.upstreamId}`}>
            详情
          </ActionLink>
          {r.canDecide ? (
            <>
              <ApproveButton row={r} onDone={refresh} />
              <ActionLink danger onClick={() => setRejecting(r)} testId={`reg-reject-${r.upstreamId}`}>
                驳回
              </ActionLink>
            </>
          ) : null}
        </RowActions>
      ),
    },
  ];
  return (
    <>
      <SyncCard admin={admin} onFinished={refresh} />
      <ListCard title="同步的企业登记" view={view} testId="reg-card">
        <FilterBar>
          <KeywordFilter
            placeholder="企业名称、统一社会信用代码或上游编号"
            onSearch={(keyword) => view.setFilter({ keyword })}
            width={320}
            testId="reg-keyword"
          />
          <SelectFilter<DexRegState>
            placeholder="审核状态"
            value={view.filters.state}
            onChange={(state) => view.setFilter({ state })}
            options={DEX_REG_STATES.map((s) => ({ value: s, label: DEX_REG_STATE_LABELS[s] }))}
            testId="reg-state-filter"
          />
          <SelectFilter<DexRegChange>
            placeholder="同步结果"
            value={view.filters.change}
            onChange={(change) => view.setFilter({ change })}
            options={DEX_REG_CHANGES.map((c) => ({ value: c, label: DEX_REG_CHANGE_LABELS[c] }))}
            testId="reg-change-filter"
          />
          <SelectFilter<DexRegStatus>
            placeholder="登记状态"
            value={view.filters.regStatus}
            onChange={(regStatus) => view.setFilter({ regStatus })}
            options={DEX_REG_STATUSES.map((s) => ({ value: s, label: s }))}
            testId="reg-status-filter"
          />
          <DatePicker.RangePicker
            value={days}
            onChange={(v) => onRange(v as [Dayjs | null, Dayjs | null] | null)}
            allowEmpty={[true, true]}
            placeholder={['上游更新开始日期', '结束日期']}
            data-testid="reg-period"
          />
        </FilterBar>
        <ServerTable<DexRegRow, DexRegFilters>
          view={view}
          columns={columns}
          sorts={['name', 'upstreamUpdatedAt', 'pulledAt']}
          rowKey="id"
          scrollX={1700}
          unit="条"
          testId="reg-table"
          emptyText={
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                configured ? '暂无同步的企业登记，点击「同步」从上游平台拉取' : '暂无同步的企业登记（未配置上游平台）'
              }
            />
          }
        />
        <Drawer
          open={open.length > 0}
          onClose={() => setOpen(null)}
          size={900}
          title="企业登记详情"
          destroyOnHidden
          data-testid="reg-drawer"
        >
          {open ? <Detail id={open} onReject={(r) => setRejecting(r)} onDone={refresh} /> : null}
        </Drawer>
        <RejectDialog
          row={rejecting}
          onClose={(done) => {
            setRejecting(null);
            if (done) refresh();
          }}
        />
      </ListCard>
    </>
  );
}

/**
 * 监管审核 `/dexRecords/regAuditLogs` (issue 19; node property regAudit): enterprise registrations pulled from the
 * upstream public-resource platform, each with what the last sync found and its audit log; an administrator starts a
 * sync (progress shown while it runs) and passes (writes into the enterprise library) or rejects (with a reason) each
 * new or changed registration.
 */
export default function RegAuditLogsPage() {
  const admin = useCurrentUser().userInfo?.loginRoleType === 'M';
  return (
    <PageFrame section={{ title: '数据交换' }} title={TITLE} wide>
      <Registrations admin={admin} />
    </PageFrame>
  );
}
