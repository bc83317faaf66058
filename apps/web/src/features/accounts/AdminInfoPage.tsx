import {
  ACCOUNT_MESSAGES,
  ACCOUNT_SORTS,
  type AccountRow,
  type AdminAccountListQuery,
  type AdminAccountType,
  DEFAULT_PAGE_SIZE,
  LOGIN_ROLE_LABELS,
  type LoginRoleType,
} from '@ks/contracts';
import { type TableColumnsType, Tag } from 'antd';
import { ACCOUNTS_KEY, adminAccountsQuery } from '../../api/accounts';
import {
  ActionLink,
  CreateButton,
  FilterBar,
  KeywordFilter,
  ListCard,
  LoadFailure,
  RowActions,
  SelectFilter,
  ServerTable,
  useRowDialog,
  useServerList,
} from '../../components/admin';
import {
  type AccountDialogMode,
  AccountFormModal,
  ResetPasswordModal,
  StatusAction,
  UnlockAction,
} from './AccountDialogs';
import {
  AccountStatusFilter,
  AccountsForbidden,
  AccountsLayout,
  accountColumns,
  useCurrentUserId,
  useLoginRoleType,
} from './shared';

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
  const dialog = useRowDialog<AccountDialogMode>(refresh);
  const resetting = useRowDialog<AccountRow>(refresh);

  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;

  const base = accountColumns(filters);
  const columns: TableColumnsType<AccountRow> = [
    base.account,
    base.userName,
    base.phone,
    {
      title: '账号类型',
      dataIndex: 'loginRoleType',
      width: 100,
      render: (t: string) => (
        <Tag color={t === 'M' ? 'blue' : 'purple'}>{LOGIN_ROLE_LABELS[t as LoginRoleType] ?? t}</Tag>
      ),
    },
    base.status,
    base.createdAt,
    {
      title: '操作',
      key: 'actions',
      width: 200,
      fixed: 'right',
      render: (_, row) => {
        const self = row.id === selfId;
        return (
          <RowActions wrap>
            <ActionLink onClick={() => dialog.open({ kind: 'edit', row })} testId="account-edit">
              编辑
            </ActionLink>
            <StatusAction row={row} self={self} onDone={refresh} />
            <UnlockAction row={row} onDone={refresh} />
            <ActionLink
              onClick={() => resetting.open(row)}
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
    <ListCard
      title={TITLE}
      view={view}
      actions={
        <CreateButton onClick={() => dialog.open({ kind: 'admin' })} testId="account-create">
          新增账号
        </CreateButton>
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
        <AccountStatusFilter value={filters.status} onChange={(status) => setFilter({ status })} />
      </FilterBar>
      <ServerTable<AccountRow, Filters>
        view={view}
        columns={columns}
        sorts={ACCOUNT_SORTS}
        scrollX={1000}
        testId="account-table"
      />
      <AccountFormModal mode={dialog.row} onClose={dialog.close} onSaved={dialog.saved} />
      <ResetPasswordModal {...resetting.props} />
    </ListCard>
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
