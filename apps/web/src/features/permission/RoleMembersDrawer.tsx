import { LOGIN_ROLE_LABELS, type LoginRoleType, type Role, type UserBrief } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Result, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { ROLES_KEY, roleMembersQuery, saveRoleMembers } from '../../api/permission';
import { LoadError } from '../../components/admin';
import { UserSelect, useUserDirectory } from './shared';

export const MAX_ROLE_MEMBERS = 500;

/** Built-in roles whose members are decided by the account type. */
export const BUILTIN_SCOPES: Record<string, { label: string; type: LoginRoleType }> = {
  user: { label: '全部企业/个人用户', type: 'U' },
  admin: { label: '全部管理员账号', type: 'M' },
  developer: { label: '全部开发者账号', type: 'D' },
};

export const builtinScope = (role: Role) => (role.builtin ? (BUILTIN_SCOPES[role.code] ?? null) : null);

/** 成员 of a role: built-in roles contain every account of their type; custom roles are edited here. */
export function RoleMembersDrawer({ role, onClose }: { role: Role | null; onClose: () => void }) {
  const { modal } = App.useApp();
  const scope = role ? builtinScope(role) : null;
  const [dirty, setDirty] = useState(false);
  const close = () => {
    if (!dirty) {
      onClose();
      return;
    }
    modal.confirm({
      title: '成员修改尚未保存',
      content: '关闭后本次修改将丢失，确定关闭？',
      okText: '放弃修改',
      cancelText: '继续编辑',
      onOk: () => {
        setDirty(false);
        onClose();
      },
    });
  };
  return (
    <Drawer
      open={role !== null}
      onClose={close}
      size={680}
      title={role ? `角色成员：${role.name}（${role.code}）` : '角色成员'}
      destroyOnHidden
      data-testid="members-drawer"
    >
      {role === null ? null : role.builtin ? (
        <Result
          status="info"
          title={<span data-testid="members-builtin">{scope?.label ?? '由账号类型决定'}</span>}
          subTitle={
            scope
              ? `内置角色「${role.name}」包含全部${LOGIN_ROLE_LABELS[scope.type]}账号（${scope.type} 类），成员随账号类型自动确定，无需维护。当前共 ${role.memberCount} 人。`
              : '内置角色的成员由账号类型决定，无需维护。'
          }
        />
      ) : (
        <MembersEditor role={role} onClose={close} onDirtyChange={setDirty} />
      )}
    </Drawer>
  );
}

function MembersEditor({
  role,
  onClose,
  onDirtyChange,
}: {
  role: Role;
  onClose: () => void;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const members = useQuery(roleMembersQuery(role.id));
  const directory = useUserDirectory();
  const [list, setList] = useState<UserBrief[] | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (members.data) {
      setList((cur) => cur ?? members.data);
      directory.remember(members.data);
    }
  }, [members.data, directory.remember]);

  const current = list ?? members.data ?? [];
  const dirty = useMemo(() => {
    if (!list || !members.data) return false;
    const a = list.map((u) => u.id).sort();
    const b = members.data.map((u) => u.id).sort();
    return a.length !== b.length || a.some((id, i) => id !== b[i]);
  }, [list, members.data]);

  useEffect(() => {
    onDirtyChange(dirty);
    return () => onDirtyChange(false);
  }, [dirty, onDirtyChange]);

  const add = (id: string | string[] | null) => {
    if (typeof id !== 'string') return;
    const u = directory.known.get(id);
    if (!u || current.some((m) => m.id === id)) return;
    setList([...current, u]);
  };

  const remove = (id: string) => setList(current.filter((m) => m.id !== id));

  const save = async () => {
    setSaving(true);
    try {
      const saved = await saveRoleMembers({ roleId: role.id, userIds: current.map((u) => u.id) });
      void message.success('保存成功');
      queryClient.setQueryData(roleMembersQuery(role.id).queryKey, saved);
      setList(saved);
      void queryClient.invalidateQueries({ queryKey: ROLES_KEY });
    } catch {
      // the request client has shown the failure
    } finally {
      setSaving(false);
    }
  };

  const columns: TableColumnsType<UserBrief> = [
    { title: '账号', dataIndex: 'account', width: 130 },
    { title: '姓名', dataIndex: 'userName', width: 110 },
    {
      title: '账号类型',
      dataIndex: 'loginRoleType',
      width: 90,
      render: (t: string) => LOGIN_ROLE_LABELS[t as LoginRoleType] ?? t,
    },
    { title: '所属企业', dataIndex: 'enterpriseName', ellipsis: true, render: (v: string | null) => v ?? '—' },
    {
      title: '操作',
      key: 'actions',
      width: 70,
      render: (_, u) => (
        <Button
          type="link"
          size="small"
          danger
          onClick={() => remove(u.id)}
          data-testid={`member-remove-${u.account}`}
          disabled={saving}
        >
          移除
        </Button>
      ),
    },
  ];

  if (members.isError) return <LoadError error={members.error} what="角色成员" />;

  return (
    <div data-testid="members-editor">
      <Space wrap style={{ marginBottom: 12 }}>
        <UserSelect
          directory={directory}
          value={null}
          onChange={add}
          testId="member-search"
          placeholder="输入账号或姓名，选择后加入成员"
          width={400}
          disabled={saving || members.isPending || current.length >= MAX_ROLE_MEMBERS}
        />
        <Typography.Text type="secondary" data-testid="member-count">
          共 {current.length} 人{dirty ? '（未保存）' : ''}
        </Typography.Text>
      </Space>
      {current.length >= MAX_ROLE_MEMBERS ? (
        <Alert type="warning" showIcon title={`一个角色最多 ${MAX_ROLE_MEMBERS} 名成员`} style={{ marginBottom: 12 }} />
      ) : null}
      <Table<UserBrief>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={current}
        loading={members.isPending}
        pagination={current.length > 20 ? { pageSize: 20, showTotal: (t) => `共 ${t} 人` } : false}
        locale={{ emptyText: '暂无数据' }}
        data-testid="member-table"
      />
      <Space style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
        <Button onClick={onClose} disabled={saving}>
          关闭
        </Button>
        <Button
          type="primary"
          onClick={save}
          loading={saving}
          disabled={!dirty || members.isPending}
          data-testid="members-save"
        >
          保存成员
        </Button>
      </Space>
    </div>
  );
}
