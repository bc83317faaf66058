import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { DRAWER_WIDTHS, type NoticeJump } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Drawer,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  TreeSelect,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import {
  configSystemsQuery,
  deleteNoticeJump,
  type NoticeJumpBody,
  nodeListQuery,
  noticeJumpsKey,
  noticeJumpsQuery,
  saveNoticeJump,
} from '../../api/config';
import { applySaveError, LoadError, nodeTreeOptions, SaveErrorAlert, SystemSelect } from '../../components/admin';
import { ConfigLayout } from './shared';

/** Message types (todo 待办 / rejected 驳回 / notice 公告 / message 消息). */
export const MSG_TYPES = [
  { value: 'todo', label: '待办', color: 'blue' },
  { value: 'rejected', label: '驳回', color: 'red' },
  { value: 'notice', label: '公告', color: 'green' },
  { value: 'message', label: '消息', color: 'purple' },
] as const;

interface JumpFormValues {
  name: string;
  msgType?: NoticeJump['msgType'];
  systemCoding?: string | null;
  gnCoding?: string | null;
  enabled: boolean;
}

const JUMP_FIELDS = new Set(['name', 'msgType', 'systemCoding', 'gnCoding', 'enabled']);

/** Leaves of one system's menu tree (the node a message opens). */
function LeafSelect({
  systemCoding,
  value,
  onChange,
}: {
  systemCoding: string | null | undefined;
  value?: string | null;
  onChange?: (v: string | null) => void;
}) {
  const nodes = useQuery({ ...nodeListQuery(systemCoding ?? ''), enabled: !!systemCoding });
  return (
    <TreeSelect<string>
      allowClear
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
      placeholder={systemCoding ? '请选择跳转节点' : '请先选择系统'}
      disabled={!systemCoding}
      loading={nodes.isFetching}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      treeData={nodeTreeOptions(nodes.data ?? [], true)}
      data-testid="jump-node"
      aria-label="跳转节点"
      notFoundContent="暂无数据"
    />
  );
}

function JumpDrawer({
  open,
  record,
  onClose,
  onSaved,
}: {
  open: boolean;
  record: NoticeJump | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<JumpFormValues>();
  const systemCoding = Form.useWatch('systemCoding', form);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);

  useEffect(() => {
    if (!open) return;
    setErrors([]);
    form.resetFields();
    form.setFieldsValue(
      record
        ? {
            name: record.name,
            msgType: record.msgType,
            systemCoding: record.systemCoding,
            gnCoding: record.gnCoding,
            enabled: record.enabled,
          }
        : { name: '', enabled: true },
    );
  }, [open, record, form]);

  const onFinish = async (v: JumpFormValues) => {
    if (saving) return;
    setSaving(true);
    setErrors([]);
    const body: NoticeJumpBody = {
      ...(record ? { id: record.id } : {}),
      name: v.name.trim(),
      msgType: v.msgType as NoticeJump['msgType'],
      systemCoding: v.systemCoding ?? '',
      gnCoding: v.gnCoding ?? '',
      enabled: !!v.enabled,
    };
    try {
      await saveNoticeJump(body);
      void message.success('保存成功');
      onSaved();
    } catch (err) {
      setErrors(applySaveError(err, form, (name) => name.length === 1 && JUMP_FIELDS.has(String(name[0]))));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={DRAWER_WIDTHS.narrow}
      title={record ? '编辑消息跳转' : '新增消息跳转'}
      destroyOnHidden
      data-testid="jump-drawer"
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="jump-save">
            保存
          </Button>
        </Space>
      }
    >
      <SaveErrorAlert lines={errors} testId="jump-form-error" />
      <Form<JumpFormValues> form={form} layout="vertical" onFinish={onFinish} initialValues={{ enabled: true }}>
        <Form.Item
          name="name"
          label="配置名称"
          rules={[
            { required: true, whitespace: true, message: '请输入配置名称' },
            { max: 30, message: '最多 30 个字符' },
          ]}
        >
          <Input placeholder="请输入配置名称" maxLength={30} data-testid="jump-name" />
        </Form.Item>
        <Form.Item name="msgType" label="消息类型" rules={[{ required: true, message: '请选择消息类型' }]}>
          <Select
            placeholder="请选择消息类型"
            options={MSG_TYPES.map((t) => ({ value: t.value, label: t.label }))}
            data-testid="jump-msg-type"
          />
        </Form.Item>
        <Form.Item name="systemCoding" label="所属系统" rules={[{ required: true, message: '请选择系统' }]}>
          <SystemSelectField onSystemChange={() => form.setFieldValue('gnCoding', null)} />
        </Form.Item>
        <Form.Item
          name="gnCoding"
          label="跳转节点"
          extra="只能选择末级节点"
          rules={[{ required: true, message: '请选择跳转节点' }]}
        >
          <LeafSelect systemCoding={systemCoding} />
        </Form.Item>
        <Form.Item name="enabled" label="启用" valuePropName="checked">
          <Switch data-testid="jump-enabled" />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

/** SystemSelect as a form control; choosing another system clears the node. */
function SystemSelectField({
  value,
  onChange,
  onSystemChange,
}: {
  value?: string | null;
  onChange?: (v: string | null) => void;
  onSystemChange: () => void;
}) {
  return (
    <SystemSelect
      value={value}
      width={252}
      testId="jump-system"
      onChange={(v) => {
        onChange?.(v);
        onSystemChange();
      }}
    />
  );
}

/** 消息跳转配置 `/system/jumpNoticeCfg`: which node a to-do, rejection, notice or message opens. */
export default function JumpNoticeCfgPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const jumps = useQuery(noticeJumpsQuery);
  const systems = useQuery(configSystemsQuery);
  const [drawer, setDrawer] = useState<{ open: boolean; record: NoticeJump | null }>({ open: false, record: null });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: noticeJumpsKey });
  const systemName = (code: string) => systems.data?.find((s) => s.gnCoding === code)?.systemName ?? code;

  const remove = useMutation({
    mutationFn: (id: string) => deleteNoticeJump(id),
    onSuccess: () => {
      void message.success('删除成功');
      refresh();
    },
  });

  const columns: TableColumnsType<NoticeJump> = [
    { title: '配置名称', dataIndex: 'name', ellipsis: true },
    {
      title: '消息类型',
      dataIndex: 'msgType',
      width: 100,
      render: (v: NoticeJump['msgType']) => {
        const t = MSG_TYPES.find((x) => x.value === v);
        return <Tag color={t?.color}>{t?.label ?? v}</Tag>;
      },
    },
    { title: '所属系统', dataIndex: 'systemCoding', width: 160, render: (v: string) => systemName(v) },
    { title: '跳转节点', dataIndex: 'gnCoding', width: 160, render: (v: string) => <code>{v}</code> },
    {
      title: '状态',
      dataIndex: 'enabled',
      width: 80,
      render: (v: boolean) => <Tag color={v ? 'success' : 'default'}>{v ? '启用' : '停用'}</Tag>,
    },
    {
      title: '跳转路径',
      dataIndex: 'path',
      ellipsis: true,
      render: (v: string) => (
        <Typography.Text code copyable={{ text: v }} title={v}>
          {v}
        </Typography.Text>
      ),
    },
    {
      title: '操作',
      key: 'ops',
      width: 120,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setDrawer({ open: true, record: r })} data-testid="jump-edit">
            编辑
          </Button>
          <Popconfirm
            title={`确认删除「${r.name}」？`}
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true, 'data-testid': 'confirm-ok' } as ButtonProps}
            onConfirm={() => remove.mutateAsync(r.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger disabled={remove.isPending} data-testid="jump-delete">
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <ConfigLayout title="消息跳转配置">
      <Card
        title="消息跳转配置"
        data-testid="jump-notice-cfg"
        extra={
          <Space>
            <Button icon={<ReloadOutlined />} onClick={refresh} loading={jumps.isFetching && !jumps.isPending}>
              刷新
            </Button>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setDrawer({ open: true, record: null })}
              data-testid="jump-create"
            >
              新增
            </Button>
          </Space>
        }
      >
        {jumps.isError ? (
          <LoadError error={jumps.error} what="消息跳转配置" />
        ) : (
          <Table<NoticeJump>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={jumps.data ?? []}
            loading={jumps.isFetching}
            locale={{ emptyText: '暂无数据' }}
            pagination={false}
            scroll={{ x: 1000 }}
            data-testid="jump-table"
          />
        )}
      </Card>
      <JumpDrawer
        open={drawer.open}
        record={drawer.record}
        onClose={() => setDrawer((d) => ({ ...d, open: false }))}
        onSaved={() => {
          setDrawer((d) => ({ ...d, open: false }));
          refresh();
        }}
      />
    </ConfigLayout>
  );
}
