import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  CONTACT_PHONE_PATTERN,
  DEFAULT_PAGE_SIZE,
  isValidCreditCode,
  ORG_MESSAGES,
  ORG_SORTS,
  ORG_TYPES,
  type Organization,
  type OrganizationListQuery,
  type OrgType,
  REGIONS,
} from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
} from 'antd';
import { useEffect, useState } from 'react';
import {
  createOrganization,
  deleteOrganization,
  ORGANIZATIONS_KEY,
  organizationsQuery,
  updateOrganization,
} from '../../api/accounts';
import {
  AccountsLayout,
  applySaveError,
  ForbiddenCard,
  LoadFailure,
  pagination,
  SaveErrorAlert,
  sortOf,
  sortState,
  useLoginRoleType,
} from './shared';

const TITLE = '管理机构';

type Filters = OrganizationListQuery & { pageNum: number; pageSize: number };

const TYPE_COLORS: Record<OrgType, string> = {
  交易中心: 'blue',
  监管部门: 'volcano',
  行业主管部门: 'green',
  其他: 'default',
};

interface OrgFormValues {
  name: string;
  orgType?: OrgType;
  region?: (typeof REGIONS)[number];
  creditCode?: string;
  contact?: string;
  phone?: string;
  address?: string;
  enabled: boolean;
}

const ORG_FIELDS = ['name', 'orgType', 'region', 'creditCode', 'contact', 'phone', 'address', 'enabled'] as const;

const blankToNull = (v: string | undefined) => (v?.trim() ? v.trim() : null);

function OrgFormModal({
  open,
  record,
  onClose,
  onSaved,
}: {
  open: boolean;
  record: Organization | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<OrgFormValues>();
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
            orgType: record.orgType,
            region: record.region as OrgFormValues['region'],
            creditCode: record.creditCode ?? '',
            contact: record.contact ?? '',
            phone: record.phone ?? '',
            address: record.address ?? '',
            enabled: record.enabled,
          }
        : { enabled: true },
    );
  }, [open, record, form]);

  const onFinish = async (v: OrgFormValues) => {
    if (saving) return;
    setSaving(true);
    setErrors([]);
    const body = {
      name: v.name.trim(),
      orgType: v.orgType as OrgType,
      region: v.region as (typeof REGIONS)[number],
      creditCode: blankToNull(v.creditCode)?.toUpperCase() ?? null,
      contact: blankToNull(v.contact),
      phone: blankToNull(v.phone),
      address: blankToNull(v.address),
      enabled: !!v.enabled,
    };
    try {
      if (record) await updateOrganization({ ...body, id: record.id, version: record.version });
      else await createOrganization(body);
      void message.success('保存成功');
      onSaved();
    } catch (err) {
      setErrors(applySaveError(err, form, ORG_FIELDS));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={record ? `编辑管理机构：${record.name}` : '新增管理机构'}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'org-save' } as ButtonProps}
      forceRender
      width={640}
    >
      <SaveErrorAlert lines={errors} testId="org-form-error" />
      <Form<OrgFormValues> form={form} layout="vertical" onFinish={onFinish} autoComplete="off">
        <Form.Item
          name="name"
          label="机构名称"
          rules={[
            { required: true, whitespace: true, message: ORG_MESSAGES.nameRequired },
            { max: 100, message: '最多 100 个字符' },
          ]}
        >
          <Input placeholder="如：山西省公共资源交易中心" maxLength={100} data-testid="org-name" />
        </Form.Item>
        <div style={{ display: 'flex', gap: 16 }}>
          <Form.Item
            name="orgType"
            label="机构类型"
            style={{ flex: 1 }}
            rules={[{ required: true, message: ORG_MESSAGES.orgTypeRequired }]}
          >
            <Select
              placeholder="请选择机构类型"
              options={ORG_TYPES.map((t) => ({ value: t, label: t }))}
              data-testid="org-type"
            />
          </Form.Item>
          <Form.Item
            name="region"
            label="所属地区"
            style={{ flex: 1 }}
            rules={[{ required: true, message: ORG_MESSAGES.regionRequired }]}
          >
            <Select
              placeholder="请选择所属地区"
              options={REGIONS.map((r) => ({ value: r, label: r }))}
              data-testid="org-region"
            />
          </Form.Item>
        </div>
        <Form.Item
          name="creditCode"
          label="统一社会信用代码"
          extra="选填；填写时校验 18 位代码及校验位"
          rules={[
            {
              validator: async (_, v: string | undefined) => {
                const code = v?.trim().toUpperCase();
                if (code && !isValidCreditCode(code)) throw new Error(ORG_MESSAGES.creditCode);
              },
            },
          ]}
        >
          <Input placeholder="选填" maxLength={18} data-testid="org-credit-code" />
        </Form.Item>
        <div style={{ display: 'flex', gap: 16 }}>
          <Form.Item name="contact" label="联系人" style={{ flex: 1 }} rules={[{ max: 50, message: '最多 50 个字符' }]}>
            <Input placeholder="选填" maxLength={50} data-testid="org-contact" />
          </Form.Item>
          <Form.Item
            name="phone"
            label="联系电话"
            style={{ flex: 1 }}
            rules={[
              {
                validator: async (_, v: string | undefined) => {
                  if (v?.trim() && !CONTACT_PHONE_PATTERN.test(v.trim())) throw new Error(ORG_MESSAGES.phone);
                },
              },
            ]}
          >
            <Input placeholder="如：0351-1234567" maxLength={30} data-testid="org-phone" />
          </Form.Item>
        </div>
        <Form.Item name="address" label="地址" rules={[{ max: 200, message: '最多 200 个字符' }]}>
          <Input placeholder="选填" maxLength={200} data-testid="org-address" />
        </Form.Item>
        <Form.Item name="enabled" label="启用" valuePropName="checked">
          <Switch data-testid="org-enabled" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function Organizations({ canEdit }: { canEdit: boolean }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<Filters>({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<{ open: boolean; record: Organization | null }>({
    open: false,
    record: null,
  });
  const list = useQuery(organizationsQuery(filters));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_KEY });
  const setFilter = (next: Partial<Filters>) => setFilters((f) => ({ ...f, ...next, pageNum: 1 }));
  const remove = useMutation({
    mutationFn: (id: string) => deleteOrganization(id),
    onSuccess: () => {
      void message.success('删除成功');
      refresh();
    },
    onError: refresh,
  });

  if (list.isError && !list.data) return <LoadFailure error={list.error} what={TITLE} />;

  const columns: TableColumnsType<Organization> = [
    { title: '机构名称', dataIndex: 'name', sorter: true, sortOrder: sortState(filters, 'name'), ellipsis: true },
    {
      title: '机构类型',
      dataIndex: 'orgType',
      width: 130,
      sorter: true,
      sortOrder: sortState(filters, 'orgType'),
      render: (t: OrgType) => <Tag color={TYPE_COLORS[t]}>{t}</Tag>,
    },
    { title: '所属地区', dataIndex: 'region', width: 110, sorter: true, sortOrder: sortState(filters, 'region') },
    { title: '统一社会信用代码', dataIndex: 'creditCode', width: 190, render: (v: string | null) => v ?? '—' },
    { title: '联系人', dataIndex: 'contact', width: 100, render: (v: string | null) => v ?? '—' },
    { title: '联系电话', dataIndex: 'phone', width: 140, render: (v: string | null) => v ?? '—' },
    {
      title: '状态',
      dataIndex: 'enabled',
      width: 90,
      render: (v: boolean) => (
        <Tag color={v ? 'success' : 'default'} data-testid="org-status">
          {v ? '启用' : '停用'}
        </Tag>
      ),
    },
    ...(canEdit
      ? [
          {
            title: '操作',
            key: 'actions',
            width: 130,
            fixed: 'right' as const,
            render: (_: unknown, row: Organization) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setEditing({ open: true, record: row })}
                  data-testid="org-edit"
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
                  <Button type="link" size="small" danger data-testid="org-delete">
                    删除
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card
      title={TITLE}
      extra={
        <Space>
          <Button icon={<ReloadOutlined />} onClick={refresh} loading={list.isFetching && !list.isPending}>
            刷新
          </Button>
          {canEdit ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing({ open: true, record: null })}
              data-testid="org-create"
            >
              新增机构
            </Button>
          ) : null}
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder="机构名称、联系人或信用代码"
          style={{ width: 280 }}
          maxLength={50}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
          enterButton="搜索"
          data-testid="filter-keyword"
        />
        <Select<OrgType>
          allowClear
          placeholder="全部类型"
          style={{ width: 150 }}
          value={filters.orgType}
          onChange={(orgType) => setFilter({ orgType })}
          options={ORG_TYPES.map((t) => ({ value: t, label: t }))}
          data-testid="filter-org-type"
        />
        <Select<(typeof REGIONS)[number]>
          allowClear
          placeholder="全部地区"
          style={{ width: 130 }}
          value={filters.region}
          onChange={(region) => setFilter({ region })}
          options={REGIONS.map((r) => ({ value: r, label: r }))}
          data-testid="filter-region"
        />
        <Select<'true' | 'false'>
          allowClear
          placeholder="全部状态"
          style={{ width: 120 }}
          value={filters.enabled}
          onChange={(enabled) => setFilter({ enabled })}
          options={[
            { value: 'true', label: '启用' },
            { value: 'false', label: '停用' },
          ]}
          data-testid="filter-enabled"
        />
      </Space>
      <Table<Organization>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching}
        scroll={{ x: 1100 }}
        locale={{ emptyText: '暂无数据' }}
        data-testid="org-table"
        pagination={pagination(filters, list.data?.total ?? 0, setFilters)}
        onChange={(_, __, sorter, extra) => {
          if (extra.action === 'sort') setFilter(sortOf(sorter, ORG_SORTS) as Partial<Filters>);
        }}
      />
      {canEdit ? (
        <OrgFormModal
          open={editing.open}
          record={editing.record}
          onClose={() => setEditing((e) => ({ ...e, open: false }))}
          onSaved={() => {
            setEditing((e) => ({ ...e, open: false }));
            refresh();
          }}
        />
      ) : null}
    </Card>
  );
}

/** 管理机构 `/system/managementInfo`: trading centres and authorities; administrators edit, developers read. */
export default function ManagementInfoPage() {
  const role = useLoginRoleType();
  return (
    <AccountsLayout title={TITLE}>
      {role === 'M' || role === 'D' ? <Organizations canEdit={role === 'M'} /> : <ForbiddenCard what={TITLE} />}
    </AccountsLayout>
  );
}
