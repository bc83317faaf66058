import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  type AdminNotice,
  DEFAULT_HOME_URL,
  DEFAULT_PAGE_SIZE,
  NOTICE_CATEGORIES,
  NOTICE_STATUS_LABELS,
  NOTICE_STATUSES,
  type NoticeCategory,
  type NoticeStatus,
  PAGE_SIZES,
  PORTAL_KEYWORD_MAX,
  PORTAL_NOTICE_NODE,
  PORTAL_NOTICE_SYSTEM,
} from '@ks/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Breadcrumb,
  Button,
  type ButtonProps,
  Card,
  Input,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Table,
  type TableColumnsType,
  Tag,
} from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../api/call';
import {
  ADMIN_NOTICES_KEY,
  type AdminNoticeFilters,
  adminNoticeListQuery,
  deleteNotice,
  publishNotice,
  withdrawNotice,
} from '../../api/portalAdmin';
import { isApiError } from '../../api/request';
import { ForbiddenCard } from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { NoticeFormDrawer } from './NoticeFormDrawer';

const STATUS_COLORS: Record<NoticeStatus, string> = { draft: 'default', published: 'success', withdrawn: 'warning' };

type Action = 'publish' | 'withdraw' | 'delete';

const ACTIONS: Record<Action, { run: (id: string) => Promise<unknown>; confirm: string; label: string }> = {
  publish: { run: publishNotice, confirm: '确认发布该公告？发布后将在门户公开显示。', label: '发布' },
  withdraw: { run: withdrawNotice, confirm: '确认撤回该公告？撤回后门户将不再显示。', label: '撤回' },
  delete: { run: deleteNotice, confirm: '确认删除该草稿？删除后不可恢复。', label: '删除' },
};

/** The notice buttons the signed-in user may press: the server's operations list of the PORTAL_NOTICE node. */
export const noticeButtonsQuery = queryOptions({
  queryKey: ['buttons', PORTAL_NOTICE_NODE],
  queryFn: () =>
    call('tableButtons', {
      data: { gnCoding: PORTAL_NOTICE_NODE, systemCoding: PORTAL_NOTICE_SYSTEM },
      // a 403 (no grant) is shown on the page itself
      silent: true,
    }),
  retry: false,
});

function NoticeManager({ can }: { can: Set<string> }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<AdminNoticeFilters>({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [keyword, setKeyword] = useState('');
  const [drawer, setDrawer] = useState<{ open: boolean; id: string | null }>({ open: false, id: null });
  const list = useQuery(adminNoticeListQuery(filters));

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ADMIN_NOTICES_KEY });
    // the public pages show the change at once
    void queryClient.invalidateQueries({ queryKey: ['portal'] });
  };

  const action = useMutation({
    mutationFn: ({ kind, id }: { kind: Action; id: string }) => ACTIONS[kind].run(id),
    onSuccess: () => {
      void message.success('操作成功');
      refresh();
    },
    // failures are shown by the request client (global prompt); the list may be stale, so refresh it
    onError: refresh,
  });

  const setFilter = (next: Partial<AdminNoticeFilters>) => setFilters((f) => ({ ...f, ...next, pageNum: 1 }));
  const listForbidden = isApiError(list.error) && list.error.status === 403;

  const actionButton = (kind: Action, row: AdminNotice, danger = false) => (
    <Popconfirm
      key={kind}
      title={ACTIONS[kind].confirm}
      okText="确定"
      cancelText="取消"
      okButtonProps={{ danger, 'data-testid': 'confirm-ok' } as ButtonProps}
      onConfirm={() => action.mutateAsync({ kind, id: row.id }).catch(() => undefined)}
    >
      <Button type="link" size="small" danger={danger} data-testid={`notice-${kind}`}>
        {ACTIONS[kind].label}
      </Button>
    </Popconfirm>
  );

  const columns: TableColumnsType<AdminNotice> = [
    {
      title: '标题',
      dataIndex: 'title',
      ellipsis: true,
      render: (title: string, row) =>
        row.status === 'published' ? (
          <a
            href={`/transac-news?id=${encodeURIComponent(row.id)}`}
            target="_blank"
            rel="noopener noreferrer"
            title="在门户查看"
          >
            {title}
          </a>
        ) : (
          <span title={title}>{title}</span>
        ),
    },
    { title: '类别', dataIndex: 'category', width: 130 },
    { title: '交易类型', dataIndex: 'tradeType', width: 100 },
    { title: '地区', dataIndex: 'region', width: 90 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: NoticeStatus) => (
        <Tag color={STATUS_COLORS[s]} data-testid="notice-status">
          {NOTICE_STATUS_LABELS[s] ?? s}
        </Tag>
      ),
    },
    {
      title: '发布时间',
      dataIndex: 'publishedAt',
      width: 160,
      render: (v: string | null) => (v ? formatDateTime(v) : '—'),
    },
    {
      title: '操作',
      key: 'actions',
      width: 170,
      render: (_, row) => (
        <Space size={0} wrap>
          {can.has('edit') ? (
            <Button
              type="link"
              size="small"
              data-testid="notice-edit"
              onClick={() => setDrawer({ open: true, id: row.id })}
            >
              编辑
            </Button>
          ) : null}
          {row.status !== 'published' && can.has('publish') ? actionButton('publish', row) : null}
          {row.status === 'published' && can.has('withdraw') ? actionButton('withdraw', row) : null}
          {row.status === 'draft' && can.has('delete') ? actionButton('delete', row, true) : null}
        </Space>
      ),
    },
  ];

  // the menu may be visible (developers see every menu) while the notices are not: drafts are not public
  if (listForbidden) return <ForbiddenCard reason="您没有门户公告管理的权限" />;
  return (
    <Card
      title="门户公告管理"
      extra={
        <Space>
          <Button icon={<ReloadOutlined />} onClick={refresh} loading={list.isFetching && !list.isPending}>
            刷新
          </Button>
          {can.has('add') ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setDrawer({ open: true, id: null })}
              data-testid="notice-create"
            >
              新建公告
            </Button>
          ) : null}
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 16 }} data-testid="notice-admin-filters">
        <Select<NoticeStatus>
          allowClear
          placeholder="全部状态"
          style={{ width: 140 }}
          value={filters.status}
          onChange={(status) => setFilter({ status })}
          options={NOTICE_STATUSES.map((s) => ({ label: NOTICE_STATUS_LABELS[s], value: s }))}
          data-testid="filter-status"
        />
        <Select<NoticeCategory>
          allowClear
          placeholder="全部类别"
          style={{ width: 170 }}
          value={filters.category}
          onChange={(category) => setFilter({ category })}
          options={NOTICE_CATEGORIES.map((c) => ({ label: c, value: c }))}
          data-testid="filter-category"
        />
        <Input.Search
          allowClear
          placeholder="公告标题关键字"
          style={{ width: 280 }}
          maxLength={PORTAL_KEYWORD_MAX}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
          enterButton="搜索"
          data-testid="filter-keyword"
        />
      </Space>
      <Table<AdminNotice>
        rowKey="id"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching}
        data-testid="notice-table"
        scroll={{ x: 900 }}
        locale={{ emptyText: '暂无数据' }}
        pagination={{
          current: filters.pageNum,
          pageSize: filters.pageSize,
          total: list.data?.total ?? 0,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showQuickJumper: true,
          showTotal: (total) => `共 ${total} 条`,
          onChange: (pageNum, pageSize) =>
            setFilters((f) => ({ ...f, pageNum: pageSize !== f.pageSize ? 1 : pageNum, pageSize })),
        }}
      />
      <NoticeFormDrawer
        open={drawer.open}
        noticeId={drawer.id}
        onClose={() => setDrawer((d) => ({ ...d, open: false }))}
        onSaved={() => {
          setDrawer((d) => ({ ...d, open: false }));
          refresh();
        }}
      />
    </Card>
  );
}

export default function PortalNoticesPage() {
  const buttons = useQuery(noticeButtonsQuery);
  return (
    <div style={{ maxWidth: 1280, margin: '0 auto' }}>
      <Breadcrumb
        style={{ marginBottom: 16 }}
        items={[{ title: <Link to={DEFAULT_HOME_URL}>首页</Link> }, { title: '门户公告管理' }]}
      />
      {buttons.isPending ? (
        <Card>
          <Skeleton active paragraph={{ rows: 6 }} />
        </Card>
      ) : buttons.isSuccess && buttons.data.length > 0 ? (
        <NoticeManager can={new Set(buttons.data.map((b) => b.code))} />
      ) : (
        <ForbiddenCard reason="您没有门户公告管理的权限" />
      )}
    </div>
  );
}
