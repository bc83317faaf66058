import {
  ACCOUNT_SORTS,
  ACCOUNT_STATUS_LABELS,
  ACCOUNT_STATUSES,
  type AccountRow,
  type AccountStatus,
  DEFAULT_PAGE_SIZE,
  type PersonnelListQuery,
} from '@ks/contracts';
import { Alert, Card, Space, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { ACCOUNTS_KEY, personnelQuery } from '../../api/accounts';
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
import { AccountsForbidden, AccountsLayout, StatusTag, useLoginRoleType } from './shared';

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
  const [dialog, setDialog] = useState<AccountDialogMode | null>(null);
  const [resetting, setResetting] = useState<AccountRow | null>(null);
  const [assigning, setAssigning] = useState<AccountRow | null>(null);

  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;

  const columns: TableColumnsType<AccountRow> = [
    { title: '账号', dataIndex: 'account', width: 150, ...sortable(filters, 'account', admin) },
    { title: '姓名', dataIndex: 'userName', width: 120, ...sortable(filters, 'userName', admin) },
    { title: '手机号码', dataIndex: 'phone', width: 130, render: (v: string | null) => v ?? '—' },
    ...(admin
      ? [{ title: '所属企业', dataIndex: 'enterpriseName', ellipsis: true, render: (v: string | null) => v ?? '—' }]
      : []),
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
      ...sortable(filters, 'createdAt', admin),
      render: (v: string) => formatDateTime(v),
    },
    ...(admin
      ? [
          {
            title: '操作',
            key: 'actions',
            width: 260,
            fixed: 'right' as const,
            render: (_: unknown, row: AccountRow) => (
              <RowActions wrap>
                <ActionLink onClick={() => setDialog({ kind: 'edit', row })} testId="account-edit">
                  编辑
                </ActionLink>
                <StatusAction row={row} self={false} onDone={refresh} />
                <UnlockAction row={row} onDone={refresh} />
                <ActionLink onClick={() => setResetting(row)} testId="account-reset">
                  重置密码
                </ActionLink>
                <ActionLink onClick={() => setAssigning(row)} testId="account-assign-roles">
                  分配角色
                </ActionLink>
              </RowActions>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card
      title={admin ? TITLE : '本企业人员'}
      extra={
        <Space>
          <RefreshButton onClick={refresh} query={view.list} />
          {admin ? (
            <CreateButton
              onClick={() => setDialog({ kind: 'personnel', enterpriseId: filters.enterpriseId })}
              testId="account-create"
            >
              新增人员
            </CreateButton>
          ) : null}
        </Space>
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
        sorts={admin ? ACCOUNT_SORTS : undefined}
        scrollX={admin ? 1200 : 800}
        testId="personnel-table"
      />
      {admin ? (
        <>
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
          <RolesModal
            row={assigning}
            onClose={() => setAssigning(null)}
            onSaved={() => {
              setAssigning(null);
              refresh();
            }}
          />
        </>
      ) : null}
    </Card>
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
