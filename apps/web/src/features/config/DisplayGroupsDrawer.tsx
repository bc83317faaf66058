import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { type ConfigSystem, DRAWER_WIDTHS } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Divider,
  Drawer,
  Empty,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Space,
  Spin,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import {
  CONFIG_KEY,
  createDisplayGroup,
  type DisplayGroup,
  deleteDisplayGroup,
  displayGroupsKey,
  displayGroupsQuery,
  groupIconsQuery,
  updateDisplayGroup,
} from '../../api/config';
import { applySaveError, LoadError, SaveErrorAlert } from '../../components/admin';
import { IconSelect, NamedIcon } from '../../components/icons';

interface GroupFormValues {
  name: string;
  icon?: string | null;
  sort: number;
}

const GROUP_FIELDS = new Set(['name', 'icon', 'sort']);

/** The display groups of one system: list, add, edit, delete (GET/POST/PUT/DELETE display-groups). */
export function DisplayGroupsDrawer({ system, onClose }: { system: ConfigSystem | null; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<GroupFormValues>();
  const [editing, setEditing] = useState<DisplayGroup | null>(null);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const systemCoding = system?.gnCoding ?? '';
  const groups = useQuery({ ...displayGroupsQuery(systemCoding), enabled: !!system });
  const icons = useQuery({ ...groupIconsQuery, enabled: !!system });

  // a new system starts with an empty form
  useEffect(() => {
    setEditing(null);
    setErrors([]);
    if (systemCoding) form.resetFields();
  }, [systemCoding, form]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: displayGroupsKey(systemCoding) });
    // menus that named a renamed or deleted group follow it
    void queryClient.invalidateQueries({ queryKey: [...CONFIG_KEY, 'nodeList', systemCoding] });
  };

  const startEdit = (g: DisplayGroup) => {
    setEditing(g);
    setErrors([]);
    form.setFieldsValue({ name: g.name, icon: g.icon, sort: g.sort });
  };
  const cancelEdit = () => {
    setEditing(null);
    setErrors([]);
    form.resetFields();
  };

  const onFinish = async (v: GroupFormValues) => {
    if (saving || !system) return;
    setSaving(true);
    setErrors([]);
    const body = { name: v.name.trim(), icon: v.icon ?? null, sort: v.sort ?? 0 };
    try {
      if (editing) await updateDisplayGroup({ id: editing.id, ...body });
      else await createDisplayGroup({ systemCoding, ...body });
      void message.success('保存成功');
      cancelEdit();
      refresh();
    } catch (err) {
      setErrors(applySaveError(err, form, (name) => name.length === 1 && GROUP_FIELDS.has(String(name[0]))));
    } finally {
      setSaving(false);
    }
  };

  const remove = useMutation({
    mutationFn: (id: string) => deleteDisplayGroup(id),
    onSuccess: (_, id) => {
      void message.success('删除成功');
      if (editing?.id === id) cancelEdit();
      refresh();
    },
  });

  return (
    <Drawer
      open={!!system}
      onClose={onClose}
      size={DRAWER_WIDTHS.wide}
      title={system ? `展示分组 · ${system.systemName}` : '展示分组'}
      destroyOnHidden
      data-testid="groups-drawer"
    >
      <Typography.Text type="secondary">菜单可归入展示分组，侧边栏按分组显示。</Typography.Text>
      <Divider titlePlacement="start" plain>
        {editing ? `编辑分组：${editing.name}` : '新增分组'}
      </Divider>
      <SaveErrorAlert lines={errors} testId="group-form-error" />
      <Form<GroupFormValues>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={{ sort: 0 }}
        data-testid="group-form"
      >
        <Form.Item
          name="name"
          label="分组名称"
          rules={[
            { required: true, whitespace: true, message: '请输入分组名称' },
            { max: 30, message: '最多 30 个字符' },
          ]}
        >
          <Input placeholder="请输入分组名称" maxLength={30} data-testid="group-name" />
        </Form.Item>
        <Form.Item name="icon" label="图标">
          <IconSelect icons={icons.data} data-testid="group-icon" />
        </Form.Item>
        <Form.Item name="sort" label="排序" rules={[{ required: true, message: '请输入排序' }]}>
          <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} data-testid="group-sort" />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="group-save">
            {editing ? '保存' : '添加'}
          </Button>
          {editing ? <Button onClick={cancelEdit}>取消</Button> : null}
        </Space>
      </Form>
      <Divider titlePlacement="start" plain>
        已有分组
      </Divider>
      {groups.isError ? (
        <LoadError error={groups.error} what="展示分组" />
      ) : groups.isPending && system ? (
        <Spin />
      ) : (
        <div data-testid="group-list">
          {(groups.data ?? []).length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />
          ) : null}
          {(groups.data ?? []).map((g) => (
            <div
              key={g.id}
              data-testid="group-item"
              style={{
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'space-between',
                padding: '6px 0',
                borderBottom: '1px solid #f0f0f0',
              }}
            >
              <Space>
                <NamedIcon name={g.icon} />
                <span>{g.name}</span>
                <Typography.Text type="secondary">排序 {g.sort}</Typography.Text>
              </Space>
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={`编辑分组 ${g.name}`}
                  onClick={() => startEdit(g)}
                  data-testid="group-edit"
                />
                <Popconfirm
                  title={`确认删除分组「${g.name}」？使用该分组的菜单将不再分组。`}
                  okText="确定"
                  cancelText="取消"
                  okButtonProps={{ danger: true, 'data-testid': 'confirm-ok' } as ButtonProps}
                  onConfirm={() => remove.mutateAsync(g.id).catch(() => undefined)}
                >
                  <Button
                    type="link"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`删除分组 ${g.name}`}
                    disabled={remove.isPending}
                    data-testid="group-delete"
                  />
                </Popconfirm>
              </Space>
            </div>
          ))}
        </div>
      )}
    </Drawer>
  );
}
