import {
  DEFAULT_PAGE_SIZE,
  SYSTEM_NOTICE_AUDIENCE_LABELS,
  SYSTEM_NOTICE_STATUS_LABELS,
  SYSTEM_NOTICE_STATUSES,
  SYSTEM_NOTICE_TYPE_LABELS,
  type SystemNotice,
  type SystemNoticeRead,
  type SystemNoticeStatus,
  type SystemNoticeType,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Drawer, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import {
  ADMIN_SYSTEM_NOTICES_KEY,
  deleteSystemNotice,
  publishSystemNotice,
  type SystemNoticeFilters,
  systemNoticeListQuery,
  systemNoticeReadsQuery,
  withdrawSystemNotice,
} from '../../api/systemNotices';
import {
  ActionLink,
  ConfirmAction,
  ConfirmDelete,
  CreateButton,
  dateTimeColumn,
  FilterBar,
  KeywordFilter,
  ListCard,
  LoadFailure,
  PageFrame,
  RowActions,
  SelectFilter,
  ServerTable,
  useEditDialog,
  useRowDialog,
  useServerList,
} from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { SystemNoticeFormDialog } from './SystemNoticeForm';

const TITLE = '系统通知管理';
const STATUS_COLORS: Record<SystemNoticeStatus, string> = {
  draft: 'default',
  published: 'success',
  withdrawn: 'warning',
};

/** 通知对象 in words: 全部用户, the role's name, or the enterprises (named on hover). */
export function audienceText(n: Pick<SystemNotice, 'audience' | 'roleName' | 'roleCode' | 'enterprises'>): string {
  if (n.audience === 'role') return `角色：${n.roleName ?? n.roleCode ?? '—'}`;
  if (n.audience === 'enterprises')
    return n.enterprises.length === 1 ? `企业：${n.enterprises[0]!.name}` : `${n.enterprises.length} 家企业`;
  return SYSTEM_NOTICE_AUDIENCE_LABELS.everyone;
}

function ReadsDrawer({ row, onClose }: { row: SystemNotice | null; onClose: () => void }) {
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const reads = useQuery({ ...systemNoticeReadsQuery(row?.id ?? '', page.pageNum, page.pageSize), enabled: !!row });
  const columns: TableColumnsType<SystemNoticeRead> = [
    { title: '账号', dataIndex: 'account', width: 120 },
    { title: '姓名', dataIndex: 'userName', width: 110 },
    { title: '所属企业', dataIndex: 'enterpriseName', ellipsis: true, render: (v: string | null) => v ?? '—' },
    { title: '已读时间', dataIndex: 'readAt', width: 160, render: (v: string | null) => formatDateTime(v) },
    {
      title: '不再显示',
      dataIndex: 'dismissed',
      width: 90,
      render: (v: boolean) => (v ? <Tag color="orange">是</Tag> : '否'),
    },
  ];
  return (
    <Drawer
      open={row !== null}
      onClose={onClose}
      size={760}
      title={row ? `已读情况：${row.title}` : '已读情况'}
      destroyOnHidden
      afterOpenChange={(o) => !o && setPage({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE })}
      data-testid="system-notice-reads"
    >
      {row ? (
        <Typography.Paragraph type="secondary" data-testid="system-notice-reads-summary">
          通知对象 {audienceText(row)}，共 {row.audienceSize} 人，已读 {row.readCount} 人
        </Typography.Paragraph>
      ) : null}
      <Table<SystemNoticeRead>
        rowKey="userId"
        size="small"
        columns={columns}
        dataSource={reads.data?.records ?? []}
        loading={reads.isFetching}
        locale={{ emptyText: '暂无已读记录' }}
        data-testid="system-notice-reads-table"
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: reads.data?.total ?? 0,
          showTotal: (n) => `共 ${n} 人`,
          onChange: (pageNum, pageSize) => setPage({ pageNum: pageSize !== page.pageSize ? 1 : pageNum, pageSize }),
        }}
      />
    </Drawer>
  );
}

function SystemNotices() {
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as SystemNoticeFilters,
    query: systemNoticeListQuery,
    refreshKey: ADMIN_SYSTEM_NOTICES_KEY,
  });
  const { filters, setFilter, refresh } = view;
  const edit = useEditDialog<SystemNotice>(refresh);
  const reads = useRowDialog<SystemNotice>(refresh);

  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;

  const columns: TableColumnsType<SystemNotice> = [
    {
      title: '标题',
      dataIndex: 'title',
      ellipsis: true,
      render: (title: string) => <span title={title}>{title}</span>,
    },
    {
      title: '类型',
      dataIndex: 'type',
      width: 100,
      render: (t: SystemNoticeType) => <Tag color={t === 1 ? 'gold' : 'blue'}>{SYSTEM_NOTICE_TYPE_LABELS[t]}</Tag>,
    },
    {
      title: '通知对象',
      key: 'audience',
      width: 180,
      ellipsis: true,
      render: (_, row) => (
        <Tooltip title={row.audience === 'enterprises' ? row.enterprises.map((e) => e.name).join('、') : undefined}>
          <span data-testid="system-notice-audience-cell">{audienceText(row)}</span>
        </Tooltip>
      ),
    },
    {
      title: '有效期',
      key: 'window',
      width: 200,
      render: (_, row) => (
        <span style={{ fontSize: 12, lineHeight: 1.5, display: 'inline-block' }}>
          {formatDateTime(row.startAt)}
          <br />至 {formatDateTime(row.endAt)}
        </span>
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: SystemNoticeStatus) => (
        <Tag color={STATUS_COLORS[s]} data-testid="system-notice-status">
          {SYSTEM_NOTICE_STATUS_LABELS[s]}
        </Tag>
      ),
    },
    {
      title: '已读 / 对象人数',
      key: 'reads',
      width: 130,
      render: (_, row) => (
        <ActionLink onClick={() => reads.open(row)} testId="system-notice-read-count">
          {row.readCount} / {row.audienceSize}
        </ActionLink>
      ),
    },
    dateTimeColumn('更新时间', 'updatedAt'),
    {
      title: '操作',
      key: 'actions',
      width: 190,
      fixed: 'right',
      render: (_, row) => (
        <RowActions>
          <ActionLink onClick={() => edit.edit(row)} testId="system-notice-edit">
            编辑
          </ActionLink>
          {row.status === 'published' ? (
            <ConfirmAction
              title="确认撤回该通知？撤回后用户将不再看到它。"
              run={() => withdrawSystemNotice(row.id)}
              successText="撤回成功"
              onDone={refresh}
              testId="system-notice-withdraw"
            >
              撤回
            </ConfirmAction>
          ) : (
            <ConfirmAction
              title="确认发布该通知？"
              description="发布后通知对象在有效期内登录即可看到，在线用户即时收到。"
              run={() => publishSystemNotice(row.id)}
              successText="发布成功"
              onDone={refresh}
              testId="system-notice-publish"
            >
              发布
            </ConfirmAction>
          )}
          {row.status === 'draft' ? (
            <ConfirmDelete
              name={row.title}
              run={() => deleteSystemNotice(row.id)}
              onDone={refresh}
              testId="system-notice-delete"
            />
          ) : null}
        </RowActions>
      ),
    },
  ];

  return (
    <ListCard
      title={TITLE}
      view={view}
      testId="system-notice-card"
      actions={
        <CreateButton onClick={edit.create} testId="system-notice-create">
          新建通知
        </CreateButton>
      }
    >
      <FilterBar>
        <KeywordFilter
          placeholder="通知标题关键字"
          onSearch={(keyword) => setFilter({ keyword })}
          testId="filter-keyword"
        />
        <SelectFilter<string>
          placeholder="全部类型"
          value={filters.type ? String(filters.type) : undefined}
          onChange={(t) => setFilter({ type: t ? (Number(t) as SystemNoticeType) : undefined })}
          options={([1, 2] as const).map((t) => ({ value: String(t), label: SYSTEM_NOTICE_TYPE_LABELS[t] }))}
          testId="filter-type"
        />
        <SelectFilter<SystemNoticeStatus>
          placeholder="全部状态"
          value={filters.status}
          onChange={(status) => setFilter({ status })}
          options={SYSTEM_NOTICE_STATUSES.map((s) => ({ value: s, label: SYSTEM_NOTICE_STATUS_LABELS[s] }))}
          testId="filter-status"
        />
      </FilterBar>
      <ServerTable<SystemNotice, SystemNoticeFilters>
        view={view}
        columns={columns}
        scrollX={1150}
        testId="system-notice-table"
      />
      <SystemNoticeFormDialog {...edit.props} />
      <ReadsDrawer row={reads.row} onClose={reads.close} />
    </ListCard>
  );
}

/** 系统通知管理 `/system/systemNotice` (administrators): the notices of screen 16, their audience and who read them. */
export default function SystemNoticePage() {
  return (
    <PageFrame section={{ title: '系统管理' }} title={TITLE}>
      <SystemNotices />
    </PageFrame>
  );
}
