import { ReloadOutlined } from '@ant-design/icons';
import {
  appToday,
  CAPITAL_PATTERN,
  COMPANY_INFO_PROMPT,
  DATE_FORMAT,
  DEFAULT_PAGE_SIZE,
  ENTERPRISE_FIELD_LABELS,
  ENTERPRISE_MESSAGES,
  ENTERPRISE_SORTS,
  type EnterpriseInfo,
  type EnterpriseListItem,
  type EnterpriseListQuery,
  type EnterpriseRequiredField,
  REGIONS,
} from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Drawer,
  Form,
  Input,
  Select,
  Skeleton,
  Space,
  Table,
  type TableColumnsType,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  ENTERPRISES_KEY,
  enterpriseInfoQuery,
  enterpriseListQuery,
  enterpriseTypesQuery,
  updateEnterpriseInfo,
} from '../../api/accounts';
import { formatDateTime } from '../../lib/format';
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

const TITLE = '企业信息';

interface CompanyFormValues {
  legalPerson: string;
  region?: (typeof REGIONS)[number];
  address: string;
  registeredCapital: string;
  establishedAt: Dayjs | null;
}

const COMPANY_FIELDS = ['legalPerson', 'region', 'address', 'registeredCapital', 'establishedAt'] as const;

const missingText = (missing: string[]) =>
  missing.map((f) => ENTERPRISE_FIELD_LABELS[f as EnterpriseRequiredField] ?? f).join('、');

/**
 * One enterprise: the read-only identity (name, credit code, type) and the fields its staff complete. A save sends
 * the `updatedAt` it was based on; the server refuses a stale one (409) and the form reloads.
 */
export function EnterpriseEditor({
  id,
  prompt,
  onSaved,
}: {
  /** absent: the signed-in user's own enterprise */
  id?: string;
  /** the 418 prompt (type=1): complete the information before handling business */
  prompt?: boolean;
  onSaved?: (e: EnterpriseInfo) => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const info = useQuery(enterpriseInfoQuery(id));
  const [form] = Form.useForm<CompanyFormValues>();
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);

  const fill = (e: EnterpriseInfo) =>
    form.setFieldsValue({
      legalPerson: e.legalPerson ?? '',
      region: (e.region ?? undefined) as CompanyFormValues['region'],
      address: e.address ?? '',
      registeredCapital: e.registeredCapital ? String(Number(e.registeredCapital)) : '',
      establishedAt: e.establishedAt ? dayjs(e.establishedAt) : null,
    });

  // biome-ignore lint/correctness/useExhaustiveDependencies: refill only when another version arrives
  useEffect(() => {
    if (info.data) fill(info.data);
  }, [info.data?.id, info.data?.updatedAt]);

  if (info.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (info.isError) return <LoadFailure error={info.error} what={TITLE} />;
  const e = info.data;

  const onFinish = async (v: CompanyFormValues) => {
    if (saving) return;
    setSaving(true);
    setErrors([]);
    try {
      const saved = await updateEnterpriseInfo({
        id: e.id,
        updatedAt: e.updatedAt,
        legalPerson: v.legalPerson.trim(),
        region: v.region as (typeof REGIONS)[number],
        address: v.address.trim(),
        registeredCapital: v.registeredCapital.trim(),
        establishedAt: v.establishedAt ? v.establishedAt.format('YYYY-MM-DD') : '',
      });
      message.success('保存成功');
      queryClient.setQueryData(enterpriseInfoQuery(id).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: [...ENTERPRISES_KEY, 'list'] });
      onSaved?.(saved);
    } catch (err) {
      setErrors(applySaveError(err, form, COMPANY_FIELDS));
      // someone else saved first: show their version
      void info.refetch();
    } finally {
      setSaving(false);
    }
  };

  return (
    <div data-testid="company-editor">
      {prompt ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="company-info-prompt"
          title={COMPANY_INFO_PROMPT}
          description={e.missing.length ? `尚未填写：${missingText(e.missing)}` : undefined}
        />
      ) : e.missing.length ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="company-info-missing"
          title={`以下信息尚未完善：${missingText(e.missing)}`}
        />
      ) : null}
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, md: 2 }}
        style={{ marginBottom: 24 }}
        items={[
          { key: 'name', label: ENTERPRISE_FIELD_LABELS.name, children: e.name },
          {
            key: 'creditCode',
            label: ENTERPRISE_FIELD_LABELS.creditCode,
            children: <span data-testid="company-credit-code">{e.creditCode}</span>,
          },
          { key: 'type', label: ENTERPRISE_FIELD_LABELS.enterpriseType, children: e.enterpriseType },
          { key: 'grade', label: '信用等级', children: e.creditGrade ?? '—' },
          { key: 'staff', label: '人员数量', children: `${e.staffCount} 人` },
          { key: 'updated', label: '最后更新', children: formatDateTime(e.updatedAt) },
        ]}
      />
      <SaveErrorAlert lines={errors} testId="company-form-error" />
      <Form<CompanyFormValues>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        autoComplete="off"
        style={{ maxWidth: 720 }}
        disabled={saving}
      >
        <div style={{ display: 'flex', gap: 16 }}>
          <Form.Item
            name="legalPerson"
            label={ENTERPRISE_FIELD_LABELS.legalPerson}
            style={{ flex: 1 }}
            rules={[
              { required: true, whitespace: true, message: '请输入法定代表人' },
              { max: 50, message: '最多 50 个字符' },
            ]}
          >
            <Input placeholder="请输入法定代表人" maxLength={50} data-testid="company-legal-person" />
          </Form.Item>
          <Form.Item
            name="region"
            label={ENTERPRISE_FIELD_LABELS.region}
            style={{ flex: 1 }}
            rules={[{ required: true, message: '请选择所在地区' }]}
          >
            <Select
              placeholder="请选择所在地区"
              options={REGIONS.map((r) => ({ value: r, label: r }))}
              data-testid="company-region"
            />
          </Form.Item>
        </div>
        <Form.Item
          name="address"
          label={ENTERPRISE_FIELD_LABELS.address}
          rules={[
            { required: true, whitespace: true, message: '请输入注册地址' },
            { max: 200, message: '最多 200 个字符' },
          ]}
        >
          <Input placeholder="请输入注册地址" maxLength={200} data-testid="company-address" />
        </Form.Item>
        <div style={{ display: 'flex', gap: 16 }}>
          <Form.Item
            name="registeredCapital"
            label={ENTERPRISE_FIELD_LABELS.registeredCapital}
            style={{ flex: 1 }}
            rules={[
              { required: true, whitespace: true, message: '请输入注册资本' },
              { pattern: CAPITAL_PATTERN, message: ENTERPRISE_MESSAGES.capital },
            ]}
          >
            <Input placeholder="如 80000000" suffix="元" maxLength={17} data-testid="company-capital" />
          </Form.Item>
          <Form.Item
            name="establishedAt"
            label={ENTERPRISE_FIELD_LABELS.establishedAt}
            style={{ flex: 1 }}
            rules={[{ required: true, message: '请选择成立日期' }]}
          >
            <DatePicker
              style={{ width: '100%' }}
              placeholder="请选择成立日期"
              // not after today in the platform's zone (APP_TZ), as the server checks
              disabledDate={(d) => d.format(DATE_FORMAT) > appToday()}
              data-testid="company-established"
            />
          </Form.Item>
        </div>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="company-save">
            保存
          </Button>
          <Button onClick={() => fill(e)} data-testid="company-reset">
            重置
          </Button>
        </Space>
      </Form>
    </div>
  );
}

type Filters = EnterpriseListQuery & { pageNum: number; pageSize: number };

/** Administrators: every enterprise, with detail and the same edit in a drawer. */
function EnterpriseList() {
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<Filters>({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [keyword, setKeyword] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const list = useQuery(enterpriseListQuery(filters));
  const types = useQuery(enterpriseTypesQuery);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ENTERPRISES_KEY });
  const setFilter = (next: Partial<Filters>) => setFilters((f) => ({ ...f, ...next, pageNum: 1 }));

  if (list.isError && !list.data) return <LoadFailure error={list.error} what={TITLE} />;

  const columns: TableColumnsType<EnterpriseListItem> = [
    { title: '企业名称', dataIndex: 'name', ellipsis: true, sorter: true, sortOrder: sortState(filters, 'name') },
    {
      title: '统一社会信用代码',
      dataIndex: 'creditCode',
      width: 200,
      sorter: true,
      sortOrder: sortState(filters, 'creditCode'),
    },
    { title: '企业类型', dataIndex: 'enterpriseType', width: 130 },
    { title: '所在地区', dataIndex: 'region', width: 100, render: (v: string | null) => v ?? '—' },
    { title: '法定代表人', dataIndex: 'legalPerson', width: 110, render: (v: string | null) => v ?? '—' },
    { title: '人员', dataIndex: 'staffCount', width: 70 },
    {
      title: '信息完整度',
      dataIndex: 'missing',
      width: 120,
      render: (m: string[]) =>
        m.length ? (
          <Tag color="warning" title={missingText(m)}>
            待完善 {m.length} 项
          </Tag>
        ) : (
          <Tag color="success">完整</Tag>
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
      width: 100,
      fixed: 'right',
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => setOpenId(row.id)} data-testid="enterprise-open">
          详情/编辑
        </Button>
      ),
    },
  ];

  const current = list.data?.records.find((r) => r.id === openId);
  return (
    <Card
      title="企业信息管理"
      extra={
        <Button icon={<ReloadOutlined />} onClick={refresh} loading={list.isFetching && !list.isPending}>
          刷新
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder="企业名称或统一社会信用代码"
          style={{ width: 300 }}
          maxLength={50}
          value={keyword}
          onChange={(ev) => setKeyword(ev.target.value)}
          onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
          enterButton="搜索"
          data-testid="filter-keyword"
        />
        <Select<string>
          allowClear
          placeholder="全部类型"
          style={{ width: 160 }}
          value={filters.enterpriseType}
          loading={types.isFetching}
          onChange={(enterpriseType) => setFilter({ enterpriseType })}
          options={(types.data ?? []).map((o) => ({ value: o.value, label: o.label }))}
          data-testid="filter-enterprise-type"
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
      </Space>
      <Table<EnterpriseListItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching}
        scroll={{ x: 1200 }}
        locale={{ emptyText: '暂无数据' }}
        data-testid="enterprise-table"
        pagination={pagination(filters, list.data?.total ?? 0, setFilters)}
        onChange={(_, __, sorter, extra) => {
          if (extra.action === 'sort') setFilter(sortOf(sorter, ENTERPRISE_SORTS) as Partial<Filters>);
        }}
      />
      <Drawer
        open={openId !== null}
        onClose={() => setOpenId(null)}
        size={760}
        title={current ? `企业信息：${current.name}` : '企业信息'}
        destroyOnHidden
        data-testid="enterprise-drawer"
      >
        {openId ? <EnterpriseEditor id={openId} /> : null}
      </Drawer>
    </Card>
  );
}

/**
 * 企业信息 `/system/companyInfo`: a U user completes their own enterprise (with `?type=1`, sent here by the global
 * prompt's 418, the page asks for it first); administrators manage every enterprise; developers have no access.
 */
export default function CompanyInfoPage() {
  const role = useLoginRoleType();
  const [params] = useSearchParams();
  const prompt = params.get('type') === '1';
  return (
    <AccountsLayout title={TITLE}>
      {role === 'U' ? (
        <Card title={TITLE} data-testid="company-info">
          <EnterpriseEditor prompt={prompt} />
        </Card>
      ) : role === 'M' ? (
        <EnterpriseList />
      ) : (
        <ForbiddenCard what={TITLE} />
      )}
    </AccountsLayout>
  );
}
