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
import { Form, Input, Select, Switch, type TableColumnsType, Tag } from 'antd';
import {
  createOrganization,
  deleteOrganization,
  ORGANIZATIONS_KEY,
  organizationsQuery,
  updateOrganization,
} from '../../api/accounts';
import {
  ActionLink,
  BooleanFilter,
  ConfirmDelete,
  CreateButton,
  FilterBar,
  FormDialog,
  KeywordFilter,
  ListCard,
  LoadFailure,
  RowActions,
  SelectFilter,
  ServerTable,
  sortable,
  useEditDialog,
  useServerList,
} from '../../components/admin';
import { AccountsForbidden, AccountsLayout, useLoginRoleType } from './shared';

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
  const submit = (v: OrgFormValues) => {
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
    return record ? updateOrganization({ ...body, id: record.id, version: record.version }) : createOrganization(body);
  };

  return (
    <FormDialog<OrgFormValues>
      open={open}
      subject={record}
      title={record ? `编辑管理机构：${record.name}` : '新增管理机构'}
      values={() =>
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
          : { enabled: true }
      }
      fields={ORG_FIELDS}
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      testId="org-save"
      errorTestId="org-form-error"
      width={640}
    >
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
    </FormDialog>
  );
}

function Organizations({ canEdit }: { canEdit: boolean }) {
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as Filters,
    query: organizationsQuery,
    refreshKey: ORGANIZATIONS_KEY,
  });
  const { filters, setFilter, refresh } = view;
  const editing = useEditDialog<Organization>(refresh);

  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;

  const columns: TableColumnsType<Organization> = [
    { title: '机构名称', dataIndex: 'name', ...sortable(filters, 'name'), ellipsis: true },
    {
      title: '机构类型',
      dataIndex: 'orgType',
      width: 130,
      ...sortable(filters, 'orgType'),
      render: (t: OrgType) => <Tag color={TYPE_COLORS[t]}>{t}</Tag>,
    },
    { title: '所属地区', dataIndex: 'region', width: 110, ...sortable(filters, 'region') },
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
              <RowActions>
                <ActionLink onClick={() => editing.edit(row)} testId="org-edit">
                  编辑
                </ActionLink>
                <ConfirmDelete
                  name={row.name}
                  run={() => deleteOrganization(row.id)}
                  onDone={refresh}
                  testId="org-delete"
                />
              </RowActions>
            ),
          },
        ]
      : []),
  ];

  return (
    <ListCard
      title={TITLE}
      view={view}
      actions={
        canEdit ? (
          <CreateButton onClick={editing.create} testId="org-create">
            新增机构
          </CreateButton>
        ) : null
      }
    >
      <FilterBar>
        <KeywordFilter
          placeholder="机构名称、联系人或信用代码"
          width={280}
          onSearch={(keyword) => setFilter({ keyword })}
          testId="filter-keyword"
        />
        <SelectFilter<OrgType>
          placeholder="全部类型"
          width={150}
          value={filters.orgType}
          onChange={(orgType) => setFilter({ orgType })}
          options={ORG_TYPES.map((t) => ({ value: t, label: t }))}
          testId="filter-org-type"
        />
        <SelectFilter<(typeof REGIONS)[number]>
          placeholder="全部地区"
          value={filters.region}
          onChange={(region) => setFilter({ region })}
          options={REGIONS.map((r) => ({ value: r, label: r }))}
          testId="filter-region"
        />
        <BooleanFilter
          labels={['启用', '停用']}
          value={filters.enabled}
          onChange={(enabled) => setFilter({ enabled })}
          testId="filter-enabled"
        />
      </FilterBar>
      <ServerTable<Organization, Filters>
        view={view}
        columns={columns}
        sorts={ORG_SORTS}
        scrollX={1100}
        testId="org-table"
      />
      {canEdit ? <OrgFormModal {...editing.props} /> : null}
    </ListCard>
  );
}

/** 管理机构 `/system/managementInfo`: trading centres and authorities; administrators edit, developers read. */
export default function ManagementInfoPage() {
  const role = useLoginRoleType();
  return (
    <AccountsLayout title={TITLE}>
      {role === 'M' || role === 'D' ? <Organizations canEdit={role === 'M'} /> : <AccountsForbidden what={TITLE} />}
    </AccountsLayout>
  );
}
