import { ACCOUNT_SORTS, type AccountRow, DEFAULT_PAGE_SIZE, type PersonnelListQuery } from '@ks/contracts';
import { Alert, Space, type TableColumnsType, Tag } from 'antd';
import { ACCOUNTS_KEY, personnelQuery } from '../../api/accounts';
import {
  ActionLink,
  CreateButton,
  FilterBar,
  KeywordFilter,
  ListCard,
  LoadFailure,
  orDash,
  RowActions,
  ServerTable,
  useRowDialog,
  useServerList,
} from '../../components/admin';
import { getUserInfo } from '../../lib/session';
import {
  type AccountDialogMode,
  AccountFormModal,
  EnterpriseSelect,
  ResetPasswordModal,
  RolesModal,
  StatusAction,
  UnlockAction,
} from './AccountDialogs';
import { AccountStatusFilter, AccountsForbidden, AccountsLayout, accountColumns, useLoginRoleType } from './shared';

const TITLE = '人员信息';

type Filters = PersonnelListQuery & { pageNum: number; pageSize: number };

/**
 * Enterprise staff (U accounts). Administrators see everyone, create accounts for an enterprise, enable/disable,
 * reset passwords and assign custom roles; a U user sees the staff of their own enterprise, read-only.
 */
function Personnel({ admin }: { admin: boolean }) {
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as Filters,
    query: personnelQuery,
    refreshKey: ACCOUNTS_KEY,
  });
  const { filters, setFilter, refresh } = view;
  const dialog = useRowDialog<AccountDialogMode>(refresh);
  const resetting = useRowDialog<AccountRow>(refresh);
  const assigning = useRowDialog<AccountRow>(refresh);

  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;

  const base = accountColumns(filters, admin);
  const columns: TableColumnsType<AccountRow> = [
    base.account,
    base.userName,
    base.phone,
    ...(admin ? [{ title: '所属企业', dataIndex: 'enterpriseName', ellipsis: true, render: orDash }] : []),
    {
      title: '角色',
      dataIndex: 'roles',
      width: 180,
      render: (roles: AccountRow['roles']) => (
        <Space size={[0, 4]} wrap data-testid="account-roles">
          <Tag>企业/个人</Tag>
          {roles.map((r) => (
            <Tag color="geekblue" key={r.id}>
              {r.name}
            </Tag>
          ))}
        </Space>
      ),
    },
    base.status,
    base.createdAt,
    ...(admin
      ? [
          {
            title: '操作',
            key: 'actions',
            width: 260,
            fixed: 'right' as const,
            render: (_: unknown, row: AccountRow) => (
              <RowActions wrap>
                <ActionLink onClick={() => dialog.open({ kind: 'edit', row })} testId="account-edit">
                  编辑
                </ActionLink>
                <StatusAction row={row} self={false} onDone={refresh} />
                <UnlockAction row={row} onDone={refresh} />
                <ActionLink onClick={() => resetting.open(row)} testId="account-reset">
                  重置密码
                </ActionLink>
                <ActionLink onClick={() => assigning.open(row)} testId="account-assign-roles">
                  分配角色
                </ActionLink>
              </RowActions>
            ),
          },
        ]
      : []),
  ];

  return (
    <ListCard
      title={admin ? TITLE : '本企业人员'}
      view={view}
      actions={
        admin ? (
          <CreateButton
            onClick={() => dialog.open({ kind: 'personnel', enterpriseId: filters.enterpriseId })}
            testId="account-create"
          >
            新增人员
          </CreateButton>
        ) : null
      }
    >
      {admin ? null : (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="own-enterprise-hint"
          title={`${getUserInfo()?.enterpriseName ?? '本企业'}的人员账号（只读）；如需新增人员或调整权限，请联系平台管理员。`}
        />
      )}
      <FilterBar>
        {admin ? (
          <EnterpriseSelect
            allowClear
            placeholder="全部企业"
            style={{ width: 280 }}
            value={filters.enterpriseId}
            onChange={(enterpriseId) => setFilter({ enterpriseId })}
            testId="filter-enterprise"
          />
        ) : null}
        <KeywordFilter
          placeholder="账号、姓名或手机号码"
          onSearch={(keyword) => setFilter({ keyword })}
          testId="filter-keyword"
        />
        <AccountStatusFilter value={filters.status} onChange={(status) => setFilter({ status })} />
      </FilterBar>
      <ServerTable<AccountRow, Filters>
        view={view}
        columns={columns}
        sorts={admin ? ACCOUNT_SORTS : undefined}
        scrollX={admin ? 1200 : 800}
        testId="personnel-table"
      />
      {admin ? (
        <>
          <AccountFormModal mode={dialog.row} onClose={dialog.close} onSaved={dialog.saved} />
          <ResetPasswordModal {...resetting.props} />
          <RolesModal {...assigning.props} />
        </>
      ) : null}
    </ListCard>
  );
}

/** 人员信息 `/system/personnelInfo`: administrators manage every enterprise's staff; U users see their own. */
export default function PersonnelInfoPage() {
  const role = useLoginRoleType();
  return (
    <AccountsLayout title={TITLE}>
      {role === 'M' ? (
        <Personnel admin />
      ) : role === 'U' ? (
        <Personnel admin={false} />
      ) : (
        <AccountsForbidden what={TITLE} />
      )}
    </AccountsLayout>
  );
}
