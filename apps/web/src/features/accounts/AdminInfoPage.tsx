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
import { Card, Space, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { ACCOUNTS_KEY, adminAccountsQuery } from '../../api/accounts';
import {
  ActionLink,
  CreateButton,
  FilterBar,
  KeywordFilter,
  LoadFailure,
  RefreshButton,
  RowActions,
  SelectFilter,
  ServerTable,
  sortable,
  useServerList,
} from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import {
  type AccountDialogMode,
  AccountFormModal,
  ResetPasswordModal,
  StatusAction,
  UnlockAction,
} from './AccountDialogs';
import { AccountsForbidden, AccountsLayout, StatusTag, useCurrentUserId, useLoginRoleType } from './shared';

const TITLE = '管理员信息';

type Filters = AdminAccountListQuery & { pageNum: number; pageSize: number };

function AdminAccounts() {
  const selfId = useCurrentUserId();
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as Filters,
    query: adminAccountsQuery,
    refreshKey: ACCOUNTS_KEY,
  });
  const { filters, setFilter, refresh } = view;
  const [dialog, setDialog] = useState<AccountDialogMode | null>(null);
  const [resetting, setResetting] = useState<AccountRow | null>(null);

  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;

  const columns: TableColumnsType<AccountRow> = [
    { title: '账号', dataIndex: 'account', ...sortable(filters, 'account'), width: 160 },
    { title: '姓名', dataIndex: 'userName', ...sortable(filters, 'userName'), width: 140 },
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
      ...sortable(filters, 'createdAt'),
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
          <RowActions wrap>
            <ActionLink onClick={() => setDialog({ kind: 'edit', row })} testId="account-edit">
              编辑
            </ActionLink>
            <StatusAction row={row} self={self} onDone={refresh} />
            <UnlockAction row={row} onDone={refresh} />
            <ActionLink
              onClick={() => setResetting(row)}
              disabled={self}
              why={ACCOUNT_MESSAGES.cannotResetSelf}
              testId="account-reset"
            >
              重置密码
            </ActionLink>
          </RowActions>
        );
      },
    },
  ];

  return (
    <Card
      title={TITLE}
      extra={
        <Space>
          <RefreshButton onClick={refresh} query={view.list} />
          <CreateButton onClick={() => setDialog({ kind: 'admin' })} testId="account-create">
            新增账号
          </CreateButton>
        </Space>
      }
    >
      <FilterBar>
        <KeywordFilter
          placeholder="账号、姓名或手机号码"
          onSearch={(keyword) => setFilter({ keyword })}
          testId="filter-keyword"
        />
        <SelectFilter<AdminAccountType>
          placeholder="全部类型"
          value={filters.loginRoleType}
          onChange={(loginRoleType) => setFilter({ loginRoleType })}
          options={(['M', 'D'] as const).map((t) => ({ value: t, label: LOGIN_ROLE_LABELS[t] }))}
          testId="filter-type"
        />
        <SelectFilter<AccountStatus>
          placeholder="全部状态"
          value={filters.status}
          onChange={(status) => setFilter({ status })}
          options={ACCOUNT_STATUSES.map((s) => ({ value: s, label: ACCOUNT_STATUS_LABELS[s] }))}
          testId="filter-status"
        />
      </FilterBar>
      <ServerTable<AccountRow, Filters>
        view={view}
        columns={columns}
        sorts={ACCOUNT_SORTS}
        scrollX={1000}
        testId="account-table"
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
    <AccountsLayout title={TITLE}>
      {role === 'M' ? <AdminAccounts /> : <AccountsForbidden what={TITLE} />}
    </AccountsLayout>
  );
}
