import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  ACCOUNT_MESSAGES,
  ACCOUNT_SORTS,
  ACCOUNT_STATUS_LABELS,
  ACCOUNT_STATUSES,
  type AccountRow,
  type AccountStatus,
  type AdminAccountListQuery,
  type AdminAccountType,
  DEFAULT_PAGE_SIZE,
  LOGIN_ROLE_LABELS,
  type LoginRoleType,
} from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Input, Select, Space, Table, type TableColumnsType, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { ACCOUNTS_KEY, adminAccountsQuery } from '../../api/accounts';
import { formatDateTime } from '../../lib/format';
import {
  type AccountDialogMode,
  AccountFormModal,
  ResetPasswordModal,
  StatusAction,
  UnlockAction,
} from './AccountDialogs';
import {
  AccountsLayout,
  ForbiddenCard,
  LoadFailure,
  pagination,
  StatusTag,
  sortOf,
  sortState,
  useCurrentUserId,
  useLoginRoleType,
} from './shared';

const TITLE = '管理员信息';

type Filters = AdminAccountListQuery & { pageNum: number; pageSize: number };

function AdminAccounts() {
  const queryClient = useQueryClient();
  const selfId = useCurrentUserId();
  const [filters, setFilters] = useState<Filters>({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [keyword, setKeyword] = useState('');
  const [dialog, setDialog] = useState<AccountDialogMode | null>(null);
  const [resetting, setResetting] = useState<AccountRow | null>(null);
  const list = useQuery(adminAccountsQuery(filters));

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ACCOUNTS_KEY });
  const setFilter = (next: Partial<Filters>) => setFilters((f) => ({ ...f, ...next, pageNum: 1 }));

  if (list.isError && !list.data) return <LoadFailure error={list.error} what={TITLE} />;

  const columns: TableColumnsType<AccountRow> = [
    { title: '账号', dataIndex: 'account', sorter: true, sortOrder: sortState(filters, 'account'), width: 160 },
    { title: '姓名', dataIndex: 'userName', sorter: true, sortOrder: sortState(filters, 'userName'), width: 140 },
    { title: '手机号码', dataIndex: 'phone', width: 140, render: (v: string | null) => v ?? '—' },
    {
      title: '账号类型',
      dataIndex: 'loginRoleType',
      width: 100,
      render: (t: string) => (
        <Tag color={t === 'M' ? 'blue' : 'purple'}>{LOGIN_ROLE_LABELS[t as LoginRoleType] ?? t}</Tag>
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 140,
      render: (s: AccountStatus, row) => (
        <StatusTag status={s} mustChangePassword={row.mustChangePassword} loginLocks={row.loginLocks} />
      ),
    },
    {
      title: '创建时间',
      dataIndex: 'createdAt',
      width: 170,
      sorter: true,
      sortOrder: sortState(filters, 'createdAt'),
      render: (v: string) => formatDateTime(v),
    },
    {
      title: '操作',
      key: 'actions',
      width: 200,
      fixed: 'right',
      render: (_, row) => {
        const self = row.id === selfId;
        return (
          <Space size={0} wrap>
            <Button
              type="link"
              size="small"
              onClick={() => setDialog({ kind: 'edit', row })}
              data-testid="account-edit"
            >
              编辑
            </Button>
            <StatusAction row={row} self={self} onDone={refresh} />
            <UnlockAction row={row} onDone={refresh} />
            {self ? (
              <Tooltip title={ACCOUNT_MESSAGES.cannotResetSelf}>
                <Button type="link" size="small" disabled data-testid="account-reset">
                  重置密码
                </Button>
              </Tooltip>
            ) : (
              <Button type="link" size="small" onClick={() => setResetting(row)} data-testid="account-reset">
                重置密码
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <Card
      title={TITLE}
      extra={
        <Space>
          <Button icon={<ReloadOutlined />} onClick={refresh} loading={list.isFetching && !list.isPending}>
            刷新
          </Button>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDialog({ kind: 'admin' })}
            data-testid="account-create"
          >
            新增账号
          </Button>
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder="账号、姓名或手机号码"
          style={{ width: 260 }}
          maxLength={50}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
          enterButton="搜索"
          data-testid="filter-keyword"
        />
        <Select<AdminAccountType>
          allowClear
          placeholder="全部类型"
          style={{ width: 130 }}
          value={filters.loginRoleType}
          onChange={(loginRoleType) => setFilter({ loginRoleType })}
          options={(['M', 'D'] as const).map((t) => ({ value: t, label: LOGIN_ROLE_LABELS[t] }))}
          data-testid="filter-type"
        />
        <Select<AccountStatus>
          allowClear
          placeholder="全部状态"
          style={{ width: 130 }}
          value={filters.status}
          onChange={(status) => setFilter({ status })}
          options={ACCOUNT_STATUSES.map((s) => ({ value: s, label: ACCOUNT_STATUS_LABELS[s] }))}
          data-testid="filter-status"
        />
      </Space>
      <Table<AccountRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching}
        scroll={{ x: 1000 }}
        locale={{ emptyText: '暂无数据' }}
        data-testid="account-table"
        pagination={pagination(filters, list.data?.total ?? 0, setFilters)}
        onChange={(_, __, sorter, extra) => {
          if (extra.action === 'sort') setFilter(sortOf(sorter, ACCOUNT_SORTS) as Partial<Filters>);
        }}
      />
      <AccountFormModal
        mode={dialog}
        onClose={() => setDialog(null)}
        onSaved={() => {
          setDialog(null);
          refresh();
        }}
      />
      <ResetPasswordModal
        row={resetting}
        onClose={() => setResetting(null)}
        onSaved={() => {
          setResetting(null);
          refresh();
        }}
      />
    </Card>
  );
}

/** 管理员信息 `/system/adminInfo`: administrator and developer accounts (administrators only). */
export default function AdminInfoPage() {
  const role = useLoginRoleType();
  return (
    <AccountsLayout title={TITLE}>{role === 'M' ? <AdminAccounts /> : <ForbiddenCard what={TITLE} />}</AccountsLayout>
  );
}
