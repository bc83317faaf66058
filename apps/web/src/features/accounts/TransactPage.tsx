import { DeleteOutlined, PlusOutlined, ReloadOutlined, RightOutlined } from '@ant-design/icons';
import {
  DEFAULT_PAGE_SIZE,
  SERVICE_ITEM_LIMITS as L,
  PAGE_SIZES,
  SERVICE_ITEM_MESSAGES,
  SERVICE_ITEM_SORTS,
  type ServiceItem,
  type ServiceItemListQuery,
} from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Pagination,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tabs,
  Tag,
  TreeSelect,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import {
  businessSystemsQuery,
  createServiceItem,
  deleteServiceItem,
  SERVICE_ITEMS_KEY,
  serviceItemsQuery,
  updateServiceItem,
} from '../../api/accounts';
import { nodeListQuery } from '../../api/config';
import { formatDateTime } from '../../lib/format';
import { nodeTreeOptions } from '../config/shared';
import {
  AccountsLayout,
  applySaveError,
  LoadFailure,
  pagination,
  SaveErrorAlert,
  sortOf,
  sortState,
  useLoginRoleType,
} from './shared';

const TITLE = '办理事项';

export const timeLimitText = (days: number) => (days === 0 ? '即时办结' : `${days} 个工作日`);

type Filters = ServiceItemListQuery & { pageNum: number; pageSize: number };

/**
 * The published items as a guide: what can be handled, with which materials, how long, and where — 「去办理」 opens the
 * node the item names (its system chooser when it names none).
 */
function ServiceGuide() {
  const [filters, setFilters] = useState<Filters>({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [keyword, setKeyword] = useState('');
  const list = useQuery(serviceItemsQuery({ ...filters, enabled: 'true' }));

  if (list.isError && !list.data) return <LoadFailure error={list.error} what={TITLE} />;
  const items = list.data?.records ?? [];

  return (
    <div data-testid="service-guide">
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder="事项名称或说明"
          style={{ width: 300 }}
          maxLength={50}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilters((f) => ({ ...f, keyword: v.trim() || undefined, pageNum: 1 }))}
          enterButton="搜索"
          data-testid="guide-keyword"
        />
      </Space>
      {list.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : items.length === 0 ? (
        <Empty description="暂无数据" />
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          {items.map((item) => (
            <Card
              key={item.id}
              size="small"
              data-testid="service-item"
              title={
                <Space wrap>
                  <span>{item.name}</span>
                  <Tag color="blue">
                    {item.systemName ?? item.systemCoding}
                    {item.nodeTitle ? ` › ${item.nodeTitle}` : ''}
                  </Tag>
                  <Tag color={item.timeLimitDays === 0 ? 'green' : 'default'}>{timeLimitText(item.timeLimitDays)}</Tag>
                </Space>
              }
              extra={
                <Link
                  to={item.link}
                  data-testid="service-item-go"
                  title={item.nodeTitle ? `打开「${item.nodeTitle}」` : '选择业务系统后办理'}
                >
                  去办理 <RightOutlined />
                </Link>
              }
            >
              {item.description ? (
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 8 }}>
                  {item.description}
                </Typography.Paragraph>
              ) : null}
              <Typography.Text type="secondary">所需材料：</Typography.Text>
              {item.materials.length ? (
                <ol style={{ margin: '4px 0 0', paddingLeft: 20 }} data-testid="service-item-materials">
                  {item.materials.map((m, i) => (
                    // materials may repeat; their position is their identity
                    // biome-ignore lint/suspicious/noArrayIndexKey: see above
                    <li key={i}>{m}</li>
                  ))}
                </ol>
              ) : (
                <Typography.Text>无需提交材料</Typography.Text>
              )}
            </Card>
          ))}
        </Space>
      )}
      {(list.data?.total ?? 0) > 0 ? (
        <Pagination
          style={{ marginTop: 16, justifyContent: 'flex-end' }}
          current={filters.pageNum}
          pageSize={filters.pageSize}
          total={list.data?.total ?? 0}
          pageSizeOptions={PAGE_SIZES.map(String)}
          showSizeChanger
          showTotal={(n) => `共 ${n} 项`}
          onChange={(pageNum, pageSize) =>
            setFilters((f) => ({ ...f, pageNum: pageSize !== f.pageSize ? 1 : pageNum, pageSize }))
          }
        />
      ) : null}
    </div>
  );
}

interface ItemFormValues {
  name: string;
  systemCoding?: string;
  gnCoding?: string | null;
  description?: string;
  materials: string[];
  timeLimitDays: number | null;
  sort: number | null;
  enabled: boolean;
}

const ITEM_FIELDS = [
  'name',
  'systemCoding',
  'gnCoding',
  'description',
  'materials',
  'timeLimitDays',
  'sort',
  'enabled',
] as const;

function ItemFormModal({
  open,
  record,
  onClose,
  onSaved,
}: {
  open: boolean;
  record: ServiceItem | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<ItemFormValues>();
  const systems = useQuery({ ...businessSystemsQuery, enabled: open });
  const systemCoding = Form.useWatch('systemCoding', form);
  const nodes = useQuery({ ...nodeListQuery(systemCoding ?? ''), enabled: open && Boolean(systemCoding) });
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
            systemCoding: record.systemCoding,
            gnCoding: record.gnCoding,
            description: record.description,
            materials: record.materials,
            timeLimitDays: record.timeLimitDays,
            sort: record.sort,
            enabled: record.enabled,
          }
        : { materials: [''], timeLimitDays: 1, sort: 0, enabled: true },
    );
  }, [open, record, form]);

  const onFinish = async (v: ItemFormValues) => {
    if (saving) return;
    setSaving(true);
    setErrors([]);
    const body = {
      name: v.name.trim(),
      systemCoding: v.systemCoding ?? '',
      gnCoding: v.gnCoding || null,
      description: (v.description ?? '').trim(),
      materials: (v.materials ?? []).map((m) => (m ?? '').trim()).filter(Boolean),
      timeLimitDays: v.timeLimitDays ?? 0,
      sort: v.sort ?? 0,
      enabled: !!v.enabled,
    };
    try {
      if (record) await updateServiceItem({ ...body, id: record.id, version: record.version });
      else await createServiceItem(body);
      void message.success('保存成功');
      onSaved();
    } catch (err) {
      setErrors(applySaveError(err, form, ITEM_FIELDS));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={record ? `编辑办理事项：${record.name}` : '新增办理事项'}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'item-save' } as ButtonProps}
      forceRender
      width={680}
    >
      <SaveErrorAlert lines={errors} testId="item-form-error" />
      <Form<ItemFormValues> form={form} layout="vertical" onFinish={onFinish} autoComplete="off">
        <Form.Item
          name="name"
          label="事项名称"
          rules={[
            { required: true, whitespace: true, message: SERVICE_ITEM_MESSAGES.nameRequired },
            { max: L.name, message: `最多 ${L.name} 个字符` },
          ]}
        >
          <Input placeholder="如：信用信息变更申请" maxLength={L.name} data-testid="item-name" />
        </Form.Item>
        <Form.Item
          name="systemCoding"
          label="办理系统"
          rules={[{ required: true, message: SERVICE_ITEM_MESSAGES.systemRequired }]}
        >
          <Select
            placeholder="请选择办理该事项的业务系统"
            loading={systems.isFetching}
            notFoundContent="暂无数据"
            options={(systems.data ?? []).map((s) => ({
              value: s.gnCoding,
              label: `${s.systemName}（${s.gnCoding}）`,
            }))}
            data-testid="item-system"
            // the node belongs to the system: choosing another system clears it
            onChange={() => form.setFieldValue('gnCoding', null)}
          />
        </Form.Item>
        <Form.Item
          name="gnCoding"
          label="办理节点"
          extra="办事指南中的「去办理」直接打开该节点；不选则打开业务系统选择页"
        >
          <TreeSelect<string>
            allowClear
            showSearch={{ treeNodeFilterProp: 'title' }}
            treeDefaultExpandAll
            placeholder={systemCoding ? '请选择办理该事项的菜单节点' : '请先选择办理系统'}
            disabled={!systemCoding}
            loading={nodes.isFetching}
            treeData={nodeTreeOptions(nodes.data ?? [], true)}
            notFoundContent="暂无数据"
            data-testid="item-node"
          />
        </Form.Item>
        <Form.Item
          name="description"
          label="事项说明"
          rules={[{ max: L.description, message: `最多 ${L.description} 个字符` }]}
        >
          <Input.TextArea
            rows={3}
            showCount
            maxLength={L.description}
            placeholder="办理条件、流程等说明（纯文本）"
            data-testid="item-description"
          />
        </Form.Item>
        <Form.Item label="所需材料" required={false}>
          <Form.List name="materials">
            {(fields, { add, remove }) => (
              <Space orientation="vertical" style={{ width: '100%' }}>
                {fields.map((field, index) => (
                  <Space key={field.key} align="baseline" style={{ width: '100%' }}>
                    <Form.Item
                      name={field.name}
                      noStyle
                      rules={[{ max: L.material, message: `材料名称最多 ${L.material} 个字符` }]}
                    >
                      <Input
                        placeholder={`材料 ${index + 1}`}
                        maxLength={L.material}
                        style={{ width: 520 }}
                        data-testid="item-material"
                      />
                    </Form.Item>
                    <Button
                      type="text"
                      icon={<DeleteOutlined />}
                      aria-label={`删除材料 ${index + 1}`}
                      onClick={() => remove(field.name)}
                    />
                  </Space>
                ))}
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  disabled={fields.length >= L.materials}
                  onClick={() => add('')}
                  data-testid="item-material-add"
                >
                  添加材料
                </Button>
              </Space>
            )}
          </Form.List>
        </Form.Item>
        <div style={{ display: 'flex', gap: 16 }}>
          <Form.Item
            name="timeLimitDays"
            label="办理时限（工作日，0 为即时办结）"
            style={{ flex: 1 }}
            rules={[{ required: true, message: '请输入办理时限' }]}
          >
            <InputNumber
              min={0}
              max={L.timeLimitDays}
              precision={0}
              style={{ width: '100%' }}
              data-testid="item-days"
            />
          </Form.Item>
          <Form.Item name="sort" label="排序（越小越靠前）" style={{ flex: 1 }}>
            <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} data-testid="item-sort" />
          </Form.Item>
          <Form.Item name="enabled" label="发布" valuePropName="checked">
            <Switch data-testid="item-enabled" />
          </Form.Item>
        </div>
      </Form>
    </Modal>
  );
}

/** Administrators: every item, enabled or not, with create / edit / delete. */
function ServiceItemAdmin() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<Filters>({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; record: ServiceItem | null }>({ open: false, record: null });
  const list = useQuery(serviceItemsQuery(filters));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: SERVICE_ITEMS_KEY });
  const setFilter = (next: Partial<Filters>) => setFilters((f) => ({ ...f, ...next, pageNum: 1 }));
  const remove = useMutation({
    mutationFn: (id: string) => deleteServiceItem(id),
    onSuccess: () => {
      void message.success('删除成功');
      refresh();
    },
    onError: refresh,
  });

  if (list.isError && !list.data) return <LoadFailure error={list.error} what={TITLE} />;

  const columns: TableColumnsType<ServiceItem> = [
    { title: '排序', dataIndex: 'sort', width: 80, sorter: true, sortOrder: sortState(filters, 'sort') },
    { title: '事项名称', dataIndex: 'name', ellipsis: true, sorter: true, sortOrder: sortState(filters, 'name') },
    {
      title: '办理系统',
      dataIndex: 'systemName',
      width: 170,
      render: (v: string | null, row) => v ?? <Tag color="error">{row.systemCoding}（系统不存在）</Tag>,
    },
    {
      title: '办理节点',
      dataIndex: 'nodeTitle',
      width: 150,
      ellipsis: true,
      render: (v: string | null) => v ?? <Typography.Text type="secondary">（系统选择页）</Typography.Text>,
    },
    {
      title: '办理时限',
      dataIndex: 'timeLimitDays',
      width: 120,
      sorter: true,
      sortOrder: sortState(filters, 'timeLimitDays'),
      render: (d: number) => timeLimitText(d),
    },
    { title: '材料', dataIndex: 'materials', width: 70, render: (m: string[]) => `${m.length} 项` },
    {
      title: '状态',
      dataIndex: 'enabled',
      width: 90,
      render: (v: boolean) => (
        <Tag color={v ? 'success' : 'default'} data-testid="item-status">
          {v ? '已发布' : '未发布'}
        </Tag>
      ),
    },
    {
      title: '更新时间',
      dataIndex: 'updatedAt',
      width: 170,
      sorter: true,
      sortOrder: sortState(filters, 'updatedAt'),
      render: (v: string) => formatDateTime(v),
    },
    {
      title: '操作',
      key: 'actions',
      width: 130,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => setEditing({ open: true, record: row })}
            data-testid="item-edit"
          >
            编辑
          </Button>
          <Popconfirm
            title={`确认删除「${row.name}」？删除后不可恢复。`}
            okText="确定"
            cancelText="取消"
            okButtonProps={{ danger: true, 'data-testid': 'confirm-ok' } as ButtonProps}
            onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger data-testid="item-delete">
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="service-admin">
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Input.Search
            allowClear
            placeholder="事项名称或说明"
            style={{ width: 260 }}
            maxLength={50}
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            enterButton="搜索"
            data-testid="filter-keyword"
          />
          <Select<'true' | 'false'>
            allowClear
            placeholder="全部状态"
            style={{ width: 120 }}
            value={filters.enabled}
            onChange={(enabled) => setFilter({ enabled })}
            options={[
              { value: 'true', label: '已发布' },
              { value: 'false', label: '未发布' },
            ]}
            data-testid="filter-enabled"
          />
        </Space>
        <Space>
          <Button icon={<ReloadOutlined />} onClick={refresh} loading={list.isFetching && !list.isPending}>
            刷新
          </Button>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing({ open: true, record: null })}
            data-testid="item-create"
          >
            新增事项
          </Button>
        </Space>
      </Space>
      <Table<ServiceItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching}
        scroll={{ x: 1000 }}
        locale={{ emptyText: '暂无数据' }}
        data-testid="item-table"
        pagination={pagination(filters, list.data?.total ?? 0, setFilters)}
        onChange={(_, __, sorter, extra) => {
          if (extra.action === 'sort') setFilter(sortOf(sorter, SERVICE_ITEM_SORTS) as Partial<Filters>);
        }}
      />
      <ItemFormModal
        open={editing.open}
        record={editing.record}
        onClose={() => setEditing((e) => ({ ...e, open: false }))}
        onSaved={() => {
          setEditing((e) => ({ ...e, open: false }));
          refresh();
        }}
      />
    </div>
  );
}

/** 办理事项 `/system/transact`: administrators publish service matters; everyone signed in reads the guide. */
export default function TransactPage() {
  const role = useLoginRoleType();
  return (
    <AccountsLayout title={TITLE}>
      <Card title={TITLE}>
        {role === 'M' ? (
          <Tabs
            items={[
              { key: 'admin', label: '事项管理', children: <ServiceItemAdmin /> },
              { key: 'guide', label: '办事指南', children: <ServiceGuide /> },
            ]}
          />
        ) : (
          <ServiceGuide />
        )}
      </Card>
    </AccountsLayout>
  );
}
