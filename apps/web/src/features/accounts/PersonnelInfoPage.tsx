import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  ACCOUNT_SORTS,
  ACCOUNT_STATUS_LABELS,
  ACCOUNT_STATUSES,
  type AccountRow,
  type AccountStatus,
  DEFAULT_PAGE_SIZE,
  type PersonnelListQuery,
} from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Select, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { ACCOUNTS_KEY, personnelQuery } from '../../api/accounts';
import { getUserInfo } from '../../app/session';
import { formatDateTime } from '../../lib/format';
import {
  type AccountDialogMode,
  AccountFormModal,
  EnterpriseSelect,
  ResetPasswordModal,
  RolesModal,
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
  useLoginRoleType,
} from './shared';

const TITLE = '人员信息';

type Filters = PersonnelListQuery & { pageNum: number; pageSize: number };

/**
 * Enterprise staff (U accounts). Administrators see everyone, create accounts for an enterprise, enable/disable,
 * reset passwords and assign custom roles; a U user sees the staff of their own enterprise, read-only.
 */
function Personnel({ admin }: { admin: boolean }) {
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<Filters>({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [keyword, setKeyword] = useState('');
  const [dialog, setDialog] = useState<AccountDialogMode | null>(null);
  const [resetting, setResetting] = useState<AccountRow | null>(null);
  const [assigning, setAssigning] = useState<AccountRow | null>(null);
  const list = useQuery(personnelQuery(filters));

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ACCOUNTS_KEY });
  const setFilter = (next: Partial<Filters>) => setFilters((f) => ({ ...f, ...next, pageNum: 1 }));

  if (list.isError && !list.data) return <LoadFailure error={list.error} what={TITLE} />;

  const columns: TableColumnsType<AccountRow> = [
    { title: '账号', dataIndex: 'account', width: 150, sorter: admin, sortOrder: sortState(filters, 'account') },
    { title: '姓名', dataIndex: 'userName', width: 120, sorter: admin, sortOrder: sortState(filters, 'userName') },
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
      sorter: admin,
      sortOrder: sortState(filters, 'createdAt'),
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
              <Space size={0} wrap>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setDialog({ kind: 'edit', row })}
                  data-testid="account-edit"
                >
                  编辑
                </Button>
                <StatusAction row={row} self={false} onDone={refresh} />
                <UnlockAction row={row} onDone={refresh} />
                <Button type="link" size="small" onClick={() => setResetting(row)} data-testid="account-reset">
                  重置密码
                </Button>
                <Button type="link" size="small" onClick={() => setAssigning(row)} data-testid="account-assign-roles">
                  分配角色
                </Button>
              </Space>
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
          <Button icon={<ReloadOutlined />} onClick={refresh} loading={list.isFetching && !list.isPending}>
            刷新
          </Button>
          {admin ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setDialog({ kind: 'personnel', enterpriseId: filters.enterpriseId })}
              data-testid="account-create"
            >
              新增人员
            </Button>
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
      <Space wrap style={{ marginBottom: 16 }}>
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
        scroll={{ x: admin ? 1200 : 800 }}
        locale={{ emptyText: '暂无数据' }}
        data-testid="personnel-table"
        pagination={pagination(filters, list.data?.total ?? 0, setFilters)}
        onChange={(_, __, sorter, extra) => {
          if (extra.action === 'sort') setFilter(sortOf(sorter, ACCOUNT_SORTS) as Partial<Filters>);
        }}
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
      {role === 'M' ? <Personnel admin /> : role === 'U' ? <Personnel admin={false} /> : <ForbiddenCard what={TITLE} />}
    </AccountsLayout>
  );
}
