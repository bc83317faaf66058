import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Role } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Popconfirm,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { Link } from 'react-router';
import { deleteRole, ROLES_KEY, rolesQuery } from '../../api/permission';
import { ForbiddenCard, isForbidden, LoadError, PageFrame } from '../../components/admin';
import { PERMISSION_SECTION } from '../../lib/paths';
import { RoleFormModal } from './RoleFormModal';
import { builtinScope, RoleMembersDrawer } from './RoleMembersDrawer';
import { permissConfigUrl } from './shared';

/**
 * 角色权限 `/system/permissionsSet` (administrators): the roles, creating, renaming and deleting custom roles, their
 * members, and a link to each role's permission matrix. Built-in roles are neither renamed nor deleted, and their
 * members are every account of their type.
 */
export default function PermissionsSetPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const roles = useQuery(rolesQuery);
  const [form, setForm] = useState<{ open: boolean; role: Role | null }>({ open: false, role: null });
  const [membersOf, setMembersOf] = useState<Role | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ROLES_KEY });

  const remove = useMutation({
    mutationFn: (role: Role) => deleteRole(role.id),
    onSuccess: () => {
      void message.success('删除成功');
      void refresh();
    },
    onError: () => void refresh(),
  });

  if (roles.isError && isForbidden(roles.error)) {
    return (
      <PageFrame section={PERMISSION_SECTION} title="角色权限">
        <ForbiddenCard reason="仅管理员可配置角色与权限" />
      </PageFrame>
    );
  }

  const columns: TableColumnsType<Role> = [
    {
      title: '角色名称',
      dataIndex: 'name',
      render: (name: string, r) => (
        <Space size={6}>
          <span data-testid="role-name">{name}</span>
          {r.builtin ? <Tag color="blue">内置</Tag> : null}
        </Space>
      ),
    },
    {
      title: '角色编码',
      dataIndex: 'code',
      width: 180,
      render: (code: string) => <Typography.Text code>{code}</Typography.Text>,
    },
    {
      title: '成员',
      dataIndex: 'memberCount',
      width: 220,
      render: (n: number, r) => {
        const scope = builtinScope(r);
        return <span data-testid="role-members-count">{scope ? `${scope.label}（${n} 人）` : `${n} 人`}</span>;
      },
    },
    {
      title: '操作',
      key: 'actions',
      width: 300,
      render: (_, r) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setMembersOf(r)} data-testid="role-members">
            成员
          </Button>
          <Tooltip title={r.builtin ? '内置角色不可重命名' : undefined}>
            <Button
              type="link"
              size="small"
              disabled={r.builtin}
              onClick={() => setForm({ open: true, role: r })}
              data-testid="role-rename"
            >
              重命名
            </Button>
          </Tooltip>
          <Link to={permissConfigUrl('role', r.code)} data-testid="role-permission" style={{ padding: '0 7px' }}>
            配置权限
          </Link>
          {r.builtin ? (
            <Tooltip title="内置角色不可删除">
              <Button type="link" size="small" danger disabled data-testid="role-delete">
                删除
              </Button>
            </Tooltip>
          ) : (
            <Popconfirm
              title={`确认删除角色「${r.name}」？`}
              description="该角色的成员关系和权限配置将一并删除，且不可恢复。"
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true, 'data-testid': 'confirm-ok' } as ButtonProps}
              onConfirm={() => remove.mutateAsync(r).catch(() => undefined)}
            >
              <Button
                type="link"
                size="small"
                danger
                loading={remove.isPending && remove.variables?.id === r.id}
                data-testid="role-delete"
              >
                删除
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <PageFrame section={PERMISSION_SECTION} title="角色权限">
      <Card
        title="角色权限"
        extra={
          <Space>
            <Button icon={<ReloadOutlined />} onClick={() => void refresh()} loading={roles.isFetching}>
              刷新
            </Button>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, role: null })}
              data-testid="role-create"
            >
              新建角色
            </Button>
          </Space>
        }
      >
        <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
          内置角色：管理员（admin）可查看并操作全部功能；开发者（developer）可查看全部菜单；企业/个人（user）包含全部企业/个人账号。
          自定义角色的成员在此维护，其可见菜单与按钮在「配置权限」中设置。
        </Typography.Paragraph>
        {roles.isError ? <LoadError error={roles.error} what="角色" /> : null}
        <Table<Role>
          rowKey="id"
          columns={columns}
          dataSource={roles.data ?? []}
          loading={roles.isPending}
          pagination={false}
          locale={{ emptyText: '暂无数据' }}
          data-testid="role-table"
          onRow={(r) => ({ 'data-testid': `role-row-${r.code}` }) as HTMLAttributes<HTMLElement>}
        />
      </Card>
      <RoleFormModal
        open={form.open}
        role={form.role}
        onClose={() => setForm((f) => ({ ...f, open: false }))}
        onSaved={() => {
          setForm((f) => ({ ...f, open: false }));
          void refresh();
        }}
      />
      <RoleMembersDrawer role={membersOf} onClose={() => setMembersOf(null)} />
    </PageFrame>
  );
}
