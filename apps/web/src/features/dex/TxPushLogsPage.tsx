import {
  DEFAULT_PAGE_SIZE,
  DEX_KIND_LABELS,
  DEX_KINDS,
  DEX_MSG,
  DEX_PUSH_STATUS_LABELS,
  DEX_PUSH_STATUSES,
  type DexAttempt,
  type DexPushRow,
  type DexPushStatus,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Drawer, Table, type TableColumnsType, Tag } from 'antd';
import {
  configuredOf,
  DEX_KEY,
  type DexPushFilters,
  dexPushDetailQuery,
  dexPushListQuery,
  resendPush,
} from '../../api/dex';
import {
  ActionLink,
  ConfirmAction,
  FilterBar,
  KeywordFilter,
  ListCard,
  LoadFailure,
  PageFrame,
  RowActions,
  SelectFilter,
  ServerTable,
  useServerList,
} from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { useSearchParam } from '../../lib/searchParam';
import { useCurrentUser } from '../../lib/sessionHooks';

const TITLE = '交易推送';
const STATUS_COLORS: Record<DexPushStatus, string> = {
  queued: 'default',
  sending: 'processing',
  sent: 'success',
  failed: 'error',
};

export function StatusTag({ status }: { status: DexPushStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{DEX_PUSH_STATUS_LABELS[status]}</Tag>;
}

function Attempts({ id }: { id: string }) {
  const q = useQuery(dexPushDetailQuery(id));
  if (q.isError && !q.data) return <LoadFailure error={q.error} what="推送记录" />;
  const d = q.data;
  const columns: TableColumnsType<DexAttempt> = [
    { title: '次序', dataIndex: 'attempt', width: 60 },
    { title: '时间', dataIndex: 'startedAt', width: 160, render: (v: string) => formatDateTime(v) },
    {
      title: '结果',
      dataIndex: 'ok',
      width: 80,
      render: (ok: boolean) => (ok ? <Tag color="success">成功</Tag> : <Tag color="error">失败</Tag>),
    },
    { title: 'HTTP 状态', dataIndex: 'httpStatus', width: 90, render: (v: number | null) => v ?? '无应答' },
    { title: '耗时（毫秒）', dataIndex: 'durationMs', width: 100, align: 'right' },
    { title: '错误', dataIndex: 'error', ellipsis: true, render: (v: string | null) => v ?? '—' },
  ];
  return (
    <>
      {d ? (
        <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
          <Descriptions.Item label="业务键">{d.push.businessKey}</Descriptions.Item>
          <Descriptions.Item label="类型">{DEX_KIND_LABELS[d.push.kind]}</Descriptions.Item>
          <Descriptions.Item label="标题" span={2}>
            {d.push.title}
          </Descriptions.Item>
          <Descriptions.Item label="状态">
            <StatusTag status={d.push.status} />
          </Descriptions.Item>
          <Descriptions.Item label="尝试次数">{d.push.attempts}</Descriptions.Item>
        </Descriptions>
      ) : null}
      <Table<DexAttempt>
        size="small"
        rowKey={(a) => `${a.attempt}-${a.startedAt}`}
        loading={q.isPending}
        dataSource={d?.attempts ?? []}
        columns={columns}
        pagination={false}
        locale={{ emptyText: '尚未推送过' }}
        data-testid="dex-attempts"
      />
    </>
  );
}

function Pushes() {
  const [open, setOpen] = useSearchParam('pushId');
  const admin = useCurrentUser().userInfo?.loginRoleType === 'M';
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as DexPushFilters,
    query: dexPushListQuery,
    refreshKey: DEX_KEY,
  });
  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;
  const configured = configuredOf(view.list.data);
  const columns: TableColumnsType<DexPushRow> = [
    {
      title: '标题',
      dataIndex: 'title',
      width: 360,
      ellipsis: true,
      render: (v: string, r) => (
        <ActionLink onClick={() => setOpen(r.id)} testId={`dex-open-${r.businessKey}`}>
          {v}
        </ActionLink>
      ),
    },
    { title: '类型', dataIndex: 'kind', width: 90, render: (k: DexPushRow['kind']) => DEX_KIND_LABELS[k] },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: DexPushStatus, r) => (
        <span data-testid={`dex-status-${r.businessKey}`}>
          <StatusTag status={s} />
        </span>
      ),
    },
    { title: '尝试次数', dataIndex: 'attempts', width: 80, align: 'right' },
    { title: '最近错误', dataIndex: 'lastError', width: 220, ellipsis: true, render: (v: string | null) => v ?? '—' },
    {
      title: '下次尝试',
      dataIndex: 'nextAttemptAt',
      width: 150,
      render: (v: string | null) => (v ? formatDateTime(v) : '—'),
    },
    { title: '推送时间', dataIndex: 'sentAt', width: 150, render: (v: string | null) => (v ? formatDateTime(v) : '—') },
    { title: '业务键', dataIndex: 'businessKey', width: 200, ellipsis: true },
    { title: '创建时间', dataIndex: 'createdAt', width: 150, render: (v: string) => formatDateTime(v) },
    {
      title: '操作',
      key: 'ops',
      width: 150,
      fixed: 'right',
      render: (_, r) => (
        <RowActions>
          <ActionLink onClick={() => setOpen(r.id)} testId={`dex-attempts-${r.businessKey}`}>
            推送记录
          </ActionLink>
          {admin && r.status === 'failed' ? (
            <ConfirmAction
              title={`重新推送《${r.title}》？`}
              description="将重新排队推送，尝试次数清零"
              run={() => resendPush(r.id)}
              successText={DEX_MSG.resent}
              onDone={view.refresh}
              testId={`dex-resend-${r.businessKey}`}
            >
              重新推送
            </ConfirmAction>
          ) : null}
        </RowActions>
      ),
    },
  ];
  return (
    <ListCard title="推送到上级平台" view={view} testId="dex-card">
      {configured ? null : (
        <Alert
          type="warning"
          showIcon
          message={DEX_MSG.notConfigured}
          style={{ marginBottom: 12 }}
          data-testid="dex-unconfigured"
        />
      )}
      <FilterBar>
        <KeywordFilter
          placeholder="标题或业务键"
          onSearch={(keyword) => view.setFilter({ keyword })}
          testId="dex-keyword"
        />
        <SelectFilter<DexPushStatus>
          placeholder="状态"
          value={view.filters.status}
          onChange={(status) => view.setFilter({ status })}
          options={DEX_PUSH_STATUSES.map((s) => ({ value: s, label: DEX_PUSH_STATUS_LABELS[s] }))}
          testId="dex-status-filter"
        />
        <SelectFilter<DexPushRow['kind']>
          placeholder="类型"
          value={view.filters.kind}
          onChange={(kind) => view.setFilter({ kind })}
          options={DEX_KINDS.map((k) => ({ value: k, label: DEX_KIND_LABELS[k] }))}
          testId="dex-kind-filter"
        />
      </FilterBar>
      <ServerTable<DexPushRow, DexPushFilters>
        view={view}
        columns={columns}
        rowKey="id"
        scrollX={1660}
        unit="条"
        testId="dex-table"
        emptyText="暂无推送记录"
      />
      <Drawer open={open.length > 0} onClose={() => setOpen(null)} size={900} title="推送记录" destroyOnHidden>
        {open ? <Attempts id={open} /> : null}
      </Drawer>
    </ListCard>
  );
}

/**
 * 交易推送 `/dexRecords/txPushLogs` (issue 19; node property txPush): published notices and results queued for the
 * upstream public-resource platform, each with its attempts; an administrator re-sends a failed one.
 */
export default function TxPushLogsPage() {
  return (
    <PageFrame section={{ title: '数据交换' }} title={TITLE} wide>
      <Pushes />
    </PageFrame>
  );
}
