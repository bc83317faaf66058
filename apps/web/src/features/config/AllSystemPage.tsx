import { type ConfigSystem, NEW_SYSTEM_MESSAGES, SYSTEM_TITLE_MAX } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Form,
  Input,
  Popconfirm,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
} from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { CONFIG_KEY, configSystemsQuery, deleteSystem, renameSystem } from '../../api/config';
import { ActionLink, CreateButton, FormDialog, LoadError, RefreshButton } from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { menuSetUpHref } from '../../lib/paths';
import { NewSystemDialog } from '../shell';
import { DisplayGroupsDrawer } from './DisplayGroupsDrawer';
import { ConfigLayout } from './shared';

interface SystemFormValues {
  systemName: string;
  title: string;
  gnCoding: string;
  enabled: boolean;
}

const SYSTEM_FIELDS = new Set(['systemName', 'title', 'gnCoding', 'enabled']);

/** Edits a system's names and state; the code is shown read-only (编码生成后不可修改). */
function SystemEditModal({
  system,
  onClose,
  onSaved,
}: {
  system: ConfigSystem | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  return (
    <FormDialog<SystemFormValues>
      open={!!system}
      subject={system}
      title="编辑系统"
      values={() =>
        system
          ? { systemName: system.systemName, title: system.title, gnCoding: system.gnCoding, enabled: system.enabled }
          : undefined
      }
      fields={(name) => name.length === 1 && SYSTEM_FIELDS.has(String(name[0]))}
      submit={(v) =>
        renameSystem({
          systemCoding: system?.gnCoding ?? '',
          systemName: v.systemName.trim(),
          title: v.title.trim(),
          enabled: v.enabled,
        })
      }
      onClose={onClose}
      onSaved={onSaved}
      testId="system-save"
      errorTestId="system-form-error"
      dialogTestId="system-edit-modal"
    >
      <Form.Item
        name="systemName"
        label="系统全称"
        rules={[
          { required: true, whitespace: true, message: NEW_SYSTEM_MESSAGES.systemNameRequired },
          { max: 50, message: '最多 50 个字符' },
        ]}
      >
        <Input placeholder="请输入系统全称" maxLength={50} data-testid="system-name-input" />
      </Form.Item>
      <Form.Item
        name="title"
        label="系统简称"
        rules={[
          { required: true, whitespace: true, message: NEW_SYSTEM_MESSAGES.titleRequired },
          { min: 1, max: SYSTEM_TITLE_MAX, message: NEW_SYSTEM_MESSAGES.titleLength },
        ]}
      >
        <Input placeholder="请输入系统简称" data-testid="system-title-input" />
      </Form.Item>
      <Form.Item name="gnCoding" label="系统编码" extra={NEW_SYSTEM_MESSAGES.gnCodingImmutable}>
        <Input readOnly disabled data-testid="system-code-input" />
      </Form.Item>
      <Form.Item name="enabled" label="启用" valuePropName="checked">
        <Switch checkedChildren="启用" unCheckedChildren="停用" data-testid="system-enabled-input" />
      </Form.Item>
    </FormDialog>
  );
}

/** 系统管理 `/system/allSystem`: every business system, edit / enable / delete, display groups, 新建系统. */
export default function AllSystemPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const systems = useQuery(configSystemsQuery);
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<ConfigSystem | null>(null);
  const [groupsOf, setGroupsOf] = useState<ConfigSystem | null>(null);
  const [creating, setCreating] = useState(false);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: CONFIG_KEY });
    // the system lists of the landing page and the sidebar follow
    void queryClient.invalidateQueries({ queryKey: ['systemList'] });
  };

  const toggle = useMutation({
    mutationFn: (s: ConfigSystem) =>
      renameSystem({ systemCoding: s.gnCoding, systemName: s.systemName, title: s.title, enabled: !s.enabled }, false),
    onSuccess: () => {
      void message.success('操作成功');
      refresh();
    },
  });

  const remove = useMutation({
    mutationFn: (s: ConfigSystem) => deleteSystem(s.gnCoding),
    onSuccess: () => {
      void message.success('删除成功');
      refresh();
    },
  });

  const busy = toggle.isPending || remove.isPending;
  const kw = keyword.trim().toLowerCase();
  const rows = (systems.data ?? []).filter(
    (s) =>
      !kw ||
      s.systemName.toLowerCase().includes(kw) ||
      s.title.toLowerCase().includes(kw) ||
      s.gnCoding.toLowerCase().includes(kw),
  );

  const columns: TableColumnsType<ConfigSystem> = [
    { title: '序号', key: 'no', width: 64, align: 'center', render: (_, __, i) => i + 1 },
    { title: '系统名称', dataIndex: 'systemName', ellipsis: true },
    { title: '简称', dataIndex: 'title', width: 120 },
    {
      title: '系统编码',
      dataIndex: 'gnCoding',
      width: 140,
      render: (v: string) => <code>{v}</code>,
    },
    {
      title: '状态',
      dataIndex: 'enabled',
      width: 90,
      render: (v: boolean) => (
        <Tag color={v ? 'success' : 'default'} data-testid="system-status">
          {v ? '启用' : '停用'}
        </Tag>
      ),
    },
    { title: '菜单数', dataIndex: 'menuCount', width: 90, align: 'right' },
    { title: '创建时间', dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
    {
      title: '操作',
      key: 'actions',
      width: 330,
      render: (_, s) => (
        <Space size={0} wrap>
          <Link to={menuSetUpHref(s.gnCoding)} data-testid="system-menus" style={{ padding: '0 7px' }}>
            菜单设置
          </Link>
          <ActionLink onClick={() => setGroupsOf(s)} testId="system-groups">
            展示分组
          </ActionLink>
          <ActionLink onClick={() => setEditing(s)} testId="system-edit">
            编辑
          </ActionLink>
          <Popconfirm
            title={
              s.enabled
                ? `确认停用「${s.systemName}」？停用后普通用户将看不到该系统。`
                : `确认启用「${s.systemName}」？`
            }
            okText="确定"
            cancelText="取消"
            okButtonProps={{ 'data-testid': 'confirm-ok' } as ButtonProps}
            onConfirm={() => toggle.mutateAsync(s).catch(() => undefined)}
          >
            <Button type="link" size="small" disabled={busy} data-testid="system-toggle">
              {s.enabled ? '停用' : '启用'}
            </Button>
          </Popconfirm>
          <Popconfirm
            title={`确认删除系统「${s.systemName}」？只能删除没有菜单的系统，删除后不可恢复。`}
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true, 'data-testid': 'confirm-ok' } as ButtonProps}
            onConfirm={() => remove.mutateAsync(s).catch(() => undefined)}
          >
            <Tooltip title={s.menuCount > 0 ? '该系统下还有菜单，需先删除菜单' : undefined}>
              <Button type="link" size="small" danger disabled={busy} data-testid="system-delete">
                删除
              </Button>
            </Tooltip>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <ConfigLayout title="系统管理">
      <Card
        title="系统管理"
        data-testid="all-system"
        extra={
          <Space>
            <Input.Search
              allowClear
              placeholder="名称 / 简称 / 编码"
              style={{ width: 220 }}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
              data-testid="system-keyword"
            />
            <RefreshButton onClick={refresh} query={systems} />
            <CreateButton onClick={() => setCreating(true)} testId="create-system">
              新建系统
            </CreateButton>
          </Space>
        }
      >
        {systems.isError ? (
          <LoadError error={systems.error} what="系统列表" />
        ) : (
          <Table<ConfigSystem>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={rows}
            loading={systems.isFetching}
            locale={{ emptyText: '暂无数据' }}
            pagination={false}
            scroll={{ x: 1100 }}
            data-testid="system-table"
          />
        )}
      </Card>
      <SystemEditModal
        system={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          refresh();
        }}
      />
      <DisplayGroupsDrawer system={groupsOf} onClose={() => setGroupsOf(null)} />
      <NewSystemDialog open={creating} onClose={() => setCreating(false)} onCreated={refresh} />
    </ConfigLayout>
  );
}
