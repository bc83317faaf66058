import { DeleteOutlined, PlusOutlined, RightOutlined } from '@ant-design/icons';
import {
  DEFAULT_PAGE_SIZE,
  SERVICE_ITEM_LIMITS as L,
  SERVICE_ITEM_MESSAGES,
  SERVICE_ITEM_SORTS,
  type ServiceItem,
  type ServiceItemListQuery,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Form,
  Input,
  InputNumber,
  Pagination,
  Select,
  Skeleton,
  Space,
  Switch,
  type TableColumnsType,
  Tabs,
  Tag,
  TreeSelect,
  Typography,
} from 'antd';
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
import {
  ActionLink,
  BooleanFilter,
  ConfirmDelete,
  CreateButton,
  dateTimeColumn,
  FilterBar,
  FormDialog,
  KeywordFilter,
  LoadFailure,
  nodeTreeOptions,
  pagination,
  RefreshButton,
  RowActions,
  ServerTable,
  sortable,
  useEditDialog,
  useServerList,
} from '../../components/admin';
import { AccountsLayout, useLoginRoleType } from './shared';

const TITLE = '办理事项';

export const timeLimitText = (days: number) => (days === 0 ? '即时办结' : `${days} 个工作日`);

type Filters = ServiceItemListQuery & { pageNum: number; pageSize: number };

/**
 * The published items as a guide: what can be handled, with which materials, how long, and where — 「去办理」 opens the
 * node the item names (its system chooser when it names none).
 */
function ServiceGuide() {
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as Filters,
    query: (f) => serviceItemsQuery({ ...f, enabled: 'true' }),
    refreshKey: SERVICE_ITEMS_KEY,
  });
  const { list, filters, setFilters } = view;

  if (view.failed) return <LoadFailure error={list.error!} what={TITLE} />;
  const items = view.records;

  return (
    <div data-testid="service-guide">
      <FilterBar>
        <KeywordFilter
          placeholder="事项名称或说明"
          width={300}
          onSearch={(keyword) => view.setFilter({ keyword })}
          testId="guide-keyword"
        />
      </FilterBar>
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
      {view.total > 0 ? (
        <Pagination
          style={{ marginTop: 16, justifyContent: 'flex-end' }}
          {...pagination(filters, view.total, setFilters, '项')}
          showQuickJumper={false}
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
  const [form] = Form.useForm<ItemFormValues>();
  const systems = useQuery({ ...businessSystemsQuery, enabled: open });
  const systemCoding = Form.useWatch('systemCoding', form);
  const nodes = useQuery({ ...nodeListQuery(systemCoding ?? ''), enabled: open && Boolean(systemCoding) });

  const submit = (v: ItemFormValues) => {
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
    return record ? updateServiceItem({ ...body, id: record.id, version: record.version }) : createServiceItem(body);
  };

  return (
    <FormDialog<ItemFormValues>
      open={open}
      subject={record}
      title={record ? `编辑办理事项：${record.name}` : '新增办理事项'}
      form={form}
      values={() =>
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
          : { materials: [''], timeLimitDays: 1, sort: 0, enabled: true }
      }
      fields={ITEM_FIELDS}
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      testId="item-save"
      errorTestId="item-form-error"
      width={680}
    >
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
          <InputNumber min={0} max={L.timeLimitDays} precision={0} style={{ width: '100%' }} data-testid="item-days" />
        </Form.Item>
        <Form.Item name="sort" label="排序（越小越靠前）" style={{ flex: 1 }}>
          <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} data-testid="item-sort" />
        </Form.Item>
        <Form.Item name="enabled" label="发布" valuePropName="checked">
          <Switch data-testid="item-enabled" />
        </Form.Item>
      </div>
    </FormDialog>
  );
}

/** Administrators: every item, enabled or not, with create / edit / delete. */
function ServiceItemAdmin() {
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as Filters,
    query: serviceItemsQuery,
    refreshKey: SERVICE_ITEMS_KEY,
  });
  const { filters, setFilter, refresh } = view;
  const editing = useEditDialog<ServiceItem>(refresh);

  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;

  const columns: TableColumnsType<ServiceItem> = [
    { title: '排序', dataIndex: 'sort', width: 80, ...sortable(filters, 'sort') },
    { title: '事项名称', dataIndex: 'name', ellipsis: true, ...sortable(filters, 'name') },
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
      ...sortable(filters, 'timeLimitDays'),
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
    dateTimeColumn('更新时间', 'updatedAt', filters),
    {
      title: '操作',
      key: 'actions',
      width: 130,
      fixed: 'right',
      render: (_, row) => (
        <RowActions>
          <ActionLink onClick={() => editing.edit(row)} testId="item-edit">
            编辑
          </ActionLink>
          <ConfirmDelete name={row.name} run={() => deleteServiceItem(row.id)} onDone={refresh} testId="item-delete" />
        </RowActions>
      ),
    },
  ];

  return (
    <div data-testid="service-admin">
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <KeywordFilter
            placeholder="事项名称或说明"
            onSearch={(keyword) => setFilter({ keyword })}
            testId="filter-keyword"
          />
          <BooleanFilter
            labels={['已发布', '未发布']}
            value={filters.enabled}
            onChange={(enabled) => setFilter({ enabled })}
            testId="filter-enabled"
          />
        </Space>
        <Space>
          <RefreshButton onClick={refresh} query={view.list} />
          <CreateButton onClick={editing.create} testId="item-create">
            新增事项
          </CreateButton>
        </Space>
      </Space>
      <ServerTable<ServiceItem, Filters>
        view={view}
        columns={columns}
        sorts={SERVICE_ITEM_SORTS}
        scrollX={1000}
        testId="item-table"
      />
      <ItemFormModal {...editing.props} />
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
