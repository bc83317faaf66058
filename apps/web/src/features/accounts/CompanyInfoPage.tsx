import {
  appToday,
  CAPITAL_PATTERN,
  COMPANY_INFO_PROMPT,
  DATE_FORMAT,
  DEFAULT_PAGE_SIZE,
  ENTERPRISE_CHANGE_STATUS_LABELS,
  ENTERPRISE_FIELD_LABELS,
  ENTERPRISE_MESSAGES,
  ENTERPRISE_SORTS,
  type EnterpriseChange,
  type EnterpriseChangeItem,
  type EnterpriseChangeStatus,
  type EnterpriseInfo,
  type EnterpriseListItem,
  type EnterpriseListQuery,
  type EnterpriseRequiredField,
  REGIONS,
  RFC_AREAS,
  RFC_CONTACT_LENGTH,
  RFC_DIALOG_LENGTH,
  RFC_SYSTEM,
} from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Drawer,
  Form,
  Input,
  Segmented,
  Select,
  Skeleton,
  Space,
  Table,
  type TableColumnsType,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  ENTERPRISES_KEY,
  enterpriseChangeListQuery,
  enterpriseInfoQuery,
  enterpriseListQuery,
  enterpriseTypesQuery,
  updateEnterpriseInfo,
} from '../../api/accounts';
import {
  applySaveError,
  FilterBar,
  KeywordFilter,
  LoadFailure,
  RefreshButton,
  SaveErrorAlert,
  SelectFilter,
  ServerTable,
  sortable,
  useServerList,
} from '../../components/admin';
import { formatDateTime, formatYuan } from '../../lib/format';
import { ChangeDialog, EnterpriseCreditCard } from '../credit-change';
import { AdminRegisterButton } from '../register';
import { AccountsForbidden, AccountsLayout, useLoginRoleType } from './shared';

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

/** A value of a change as people read it: capital in yuan with separators, empty as 未填写. */
function changeValueText(item: Pick<EnterpriseChangeItem, 'field'>, v: string | null): string {
  if (v === null || v === '') return '未填写';
  return item.field === 'registeredCapital' ? (formatYuan(v) ?? v) : v;
}

/** What a change asks for: each field, what it is now (public) and what it would become. */
export function ChangeItems({ items, testId = 'change-items' }: { items: EnterpriseChangeItem[]; testId?: string }) {
  return (
    <Table<EnterpriseChangeItem>
      rowKey="field"
      size="small"
      pagination={false}
      dataSource={items}
      data-testid={testId}
      columns={[
        { title: '变更项', dataIndex: 'label', width: 140 },
        {
          title: '原值（门户现行）',
          key: 'old',
          render: (_, i) => <Typography.Text delete>{changeValueText(i, i.oldValue)}</Typography.Text>,
        },
        {
          title: '新值',
          key: 'new',
          render: (_, i) => <Typography.Text strong>{changeValueText(i, i.newValue)}</Typography.Text>,
        },
      ]}
    />
  );
}

const CHANGE_COLORS: Record<EnterpriseChangeStatus, string> = {
  pending: 'processing',
  approved: 'success',
  rejected: 'error',
};

/** The enterprise's latest change round as its staff (or an administrator) sees it above the information. */
function ChangeStatus({ change, own, onOpen }: { change: EnterpriseChange; own: boolean; onOpen?: () => void }) {
  const open = onOpen ? (
    <Button size="small" onClick={onOpen} data-testid="company-change-open">
      查看变更
    </Button>
  ) : null;
  if (change.status === 'pending') {
    return (
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        data-testid="company-change-pending"
        title={own ? '信息变更办理中' : '该企业有正在办理的信息变更'}
        action={open}
        description={
          <>
            <div style={{ marginBottom: 8 }}>
              {change.submittedBy} 于 {formatDateTime(change.submittedAt)} 发起。
              {own
                ? '管理员审核通过前，门户与各业务系统仍使用原信息；提交前可在「信息变更」中修改。'
                : '请在「变更审核」中处理。'}
            </div>
            {change.items.length ? <ChangeItems items={change.items} /> : null}
          </>
        }
      />
    );
  }
  if (change.status === 'rejected') {
    return (
      <Alert
        type="error"
        showIcon
        style={{ marginBottom: 16 }}
        data-testid="company-change-rejected"
        action={open}
        title={`信息变更已被驳回（${formatDateTime(change.decidedAt)}）`}
        description={
          <>
            <div data-testid="company-change-reason">审核建议：{change.reason}</div>
            <div style={{ marginTop: 4 }}>
              驳回的变更：{change.items.map((i) => i.label).join('、')}。可在「信息变更」中发起下一轮变更。
            </div>
          </>
        }
      />
    );
  }
  return (
    <Alert
      type="success"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="company-change-approved"
      action={open}
      title={`最近一次变更已于 ${formatDateTime(change.decidedAt)} 审核通过（${change.items.map((i) => i.label).join('、')}）`}
    />
  );
}

/**
 * The enterprise's own information (U user): read-only as it is public, with its latest change round. Changes go
 * through change rounds (screen 1): 信息变更 opens the change dialog on the enterprise's information, 联系人变更 the
 * dialog in its contact-person mode; an administrator's pass makes the new values public.
 */
function OwnEnterprise({ prompt }: { prompt?: boolean }) {
  const queryClient = useQueryClient();
  const info = useQuery(enterpriseInfoQuery());
  const [dialog, setDialog] = useState<'info' | 'contact' | null>(null);
  if (info.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (info.isError) return <LoadFailure error={info.error} what={TITLE} />;
  const e = info.data;
  const text = (v: string | null) => v || <Typography.Text type="secondary">未填写</Typography.Text>;
  return (
    <div data-testid="company-editor">
      {prompt ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="company-info-prompt"
          title={COMPANY_INFO_PROMPT}
          description={e.missing.length ? `尚未填写：${missingText(e.missing)}。请通过「信息变更」补充。` : undefined}
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
      {e.change ? <ChangeStatus change={e.change} own onOpen={() => setDialog('info')} /> : null}
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, md: 2 }}
        style={{ marginBottom: 16 }}
        data-testid="company-public"
        items={[
          { key: 'name', label: ENTERPRISE_FIELD_LABELS.name, children: e.name },
          {
            key: 'creditCode',
            label: ENTERPRISE_FIELD_LABELS.creditCode,
            children: <span data-testid="company-credit-code">{e.creditCode}</span>,
          },
          { key: 'type', label: ENTERPRISE_FIELD_LABELS.enterpriseType, children: e.enterpriseType },
          { key: 'grade', label: '信用等级', children: e.creditGrade ?? '—' },
          { key: 'legalPerson', label: ENTERPRISE_FIELD_LABELS.legalPerson, children: text(e.legalPerson) },
          { key: 'region', label: ENTERPRISE_FIELD_LABELS.region, children: text(e.region) },
          {
            key: 'address',
            label: ENTERPRISE_FIELD_LABELS.address,
            span: 2,
            children: <span data-testid="company-address-text">{text(e.address)}</span>,
          },
          {
            key: 'capital',
            label: ENTERPRISE_FIELD_LABELS.registeredCapital,
            children: text(formatYuan(e.registeredCapital)),
          },
          { key: 'established', label: ENTERPRISE_FIELD_LABELS.establishedAt, children: text(e.establishedAt) },
          { key: 'staff', label: '人员数量', children: `${e.staffCount} 人` },
          { key: 'updated', label: '最后更新', children: formatDateTime(e.updatedAt) },
        ]}
      />
      <Typography.Paragraph type="secondary" data-testid="company-review-note">
        企业信息的修改须通过「信息变更」办理，经管理员审核通过后才会在门户公示和用于各业务系统。
      </Typography.Paragraph>
      <Space>
        <Button type="primary" onClick={() => setDialog('info')} data-testid="company-change">
          信息变更
        </Button>
        <Button onClick={() => setDialog('contact')} data-testid="company-contact-change">
          联系人变更
        </Button>
      </Space>
      <ChangeDialog
        gnCoding={RFC_AREAS.enterprise}
        systemCoding={RFC_SYSTEM}
        businessId={e.id}
        open={dialog !== null}
        length={dialog === 'contact' ? RFC_CONTACT_LENGTH : RFC_DIALOG_LENGTH}
        onClose={() => setDialog(null)}
        onChanged={() => void queryClient.invalidateQueries({ queryKey: ENTERPRISES_KEY })}
      />
      <EnterpriseCreditCard mayChange />
    </div>
  );
}

/**
 * One enterprise as an administrator edits it: the read-only identity (name, credit code, type) and the fields, written
 * at once. A save sends the `updatedAt` it was based on; the server refuses a stale one (409) and the form reloads.
 * (An enterprise changes its own information through change rounds: OwnEnterprise.)
 */
export function EnterpriseEditor({
  id,
  prompt,
  onSaved,
}: {
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

  /** The form starts from the public values. */
  const fill = (e: EnterpriseInfo) => {
    const v: Record<string, string | null> = {
      legalPerson: e.legalPerson,
      region: e.region,
      address: e.address,
      registeredCapital: e.registeredCapital,
      establishedAt: e.establishedAt,
    };
    form.setFieldsValue({
      legalPerson: v.legalPerson ?? '',
      region: (v.region ?? undefined) as CompanyFormValues['region'],
      address: v.address ?? '',
      registeredCapital: v.registeredCapital ? String(Number(v.registeredCapital)) : '',
      establishedAt: v.establishedAt ? dayjs(v.establishedAt) : null,
    });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: refill only when another version arrives
  useEffect(() => {
    if (info.data) fill(info.data);
  }, [
    info.data?.id,
    info.data?.updatedAt,
    info.data?.change?.id,
    info.data?.change?.version,
    info.data?.change?.status,
  ]);

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
      void message.success('保存成功');
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
      {e.change?.status === 'pending' ? <ChangeStatus change={e.change} own={false} /> : null}
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
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as Filters,
    query: enterpriseListQuery,
    refreshKey: ENTERPRISES_KEY,
  });
  const { filters, setFilter, refresh } = view;
  const [openId, setOpenId] = useState<string | null>(null);
  const types = useQuery(enterpriseTypesQuery);

  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;

  const columns: TableColumnsType<EnterpriseListItem> = [
    { title: '企业名称', dataIndex: 'name', ellipsis: true, ...sortable(filters, 'name') },
    { title: '统一社会信用代码', dataIndex: 'creditCode', width: 200, ...sortable(filters, 'creditCode') },
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
      title: '变更申请',
      dataIndex: 'pendingChange',
      width: 100,
      render: (pending: boolean) =>
        pending ? (
          <Tag color="processing" data-testid="enterprise-pending">
            待审核
          </Tag>
        ) : (
          '—'
        ),
    },
    {
      title: '更新时间',
      dataIndex: 'updatedAt',
      width: 170,
      ...sortable(filters, 'updatedAt'),
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

  const current = view.records.find((r) => r.id === openId);
  return (
    <Card
      title="企业信息管理"
      extra={
        <span style={{ display: 'inline-flex', gap: 8 }}>
          <AdminRegisterButton onCreated={refresh} />
          <RefreshButton onClick={refresh} query={view.list} />
        </span>
      }
    >
      <FilterBar>
        <KeywordFilter
          placeholder="企业名称或统一社会信用代码"
          width={300}
          onSearch={(keyword) => setFilter({ keyword })}
          testId="filter-keyword"
        />
        <SelectFilter<string>
          placeholder="全部类型"
          width={160}
          value={filters.enterpriseType}
          loading={types.isFetching}
          onChange={(enterpriseType) => setFilter({ enterpriseType })}
          options={(types.data ?? []).map((o) => ({ value: o.value, label: o.label }))}
          testId="filter-enterprise-type"
        />
        <SelectFilter<(typeof REGIONS)[number]>
          placeholder="全部地区"
          value={filters.region}
          onChange={(region) => setFilter({ region })}
          options={REGIONS.map((r) => ({ value: r, label: r }))}
          testId="filter-region"
        />
      </FilterBar>
      <ServerTable<EnterpriseListItem, Filters>
        view={view}
        columns={columns}
        sorts={ENTERPRISE_SORTS}
        scrollX={1300}
        testId="enterprise-table"
      />
      <Drawer
        open={openId !== null}
        onClose={() => setOpenId(null)}
        size={760}
        title={current ? `企业信息：${current.name}` : '企业信息'}
        destroyOnHidden
        data-testid="enterprise-drawer"
      >
        {openId ? (
          <>
            <EnterpriseEditor id={openId} />
            <EnterpriseCreditCard enterpriseId={openId} mayChange={false} />
          </>
        ) : null}
      </Drawer>
    </Card>
  );
}

type ChangeFilters = { status: EnterpriseChangeStatus; keyword?: string; pageNum: number; pageSize: number };

/**
 * 变更审核 (administrators): enterprises' information change rounds. Open ones (正在变更), oldest first, with what
 * changes (old → new); 审核 opens the round in the change dialog (screen 1), where a reviewer holding its to-do passes
 * (the values are written and become public) or rejects it (with the suggestion the enterprise will read); decided
 * ones with who decided and why, opened read-only.
 */
export function EnterpriseChangeReview({ onDecided }: { onDecided?: () => void }) {
  const view = useServerList({
    initial: { status: 'pending', pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as ChangeFilters,
    query: enterpriseChangeListQuery,
    refreshKey: ENTERPRISES_KEY,
  });
  const { filters, setFilter, list } = view;
  const [opened, setOpened] = useState<EnterpriseChange | null>(null);

  if (view.failed) return <LoadFailure error={list.error!} what="变更审核" />;
  const pending = filters.status === 'pending';
  const columns: TableColumnsType<EnterpriseChange> = [
    {
      title: '企业',
      key: 'enterprise',
      width: 240,
      render: (_, c) => (
        <>
          <div>{c.enterpriseName}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {c.creditCode}
          </Typography.Text>
        </>
      ),
    },
    {
      title: '变更内容（原值 → 新值）',
      key: 'items',
      render: (_, c) => (
        <div data-testid="change-row-items">
          {c.items.map((i) => (
            <div key={i.field}>
              <Typography.Text type="secondary">{i.label}：</Typography.Text>
              <Typography.Text delete>{changeValueText(i, i.oldValue)}</Typography.Text>
              {' → '}
              <Typography.Text strong>{changeValueText(i, i.newValue)}</Typography.Text>
            </div>
          ))}
        </div>
      ),
    },
    { title: '发起人', dataIndex: 'submittedBy', width: 100 },
    { title: '提交时间', dataIndex: 'submittedAt', width: 170, render: (v: string) => formatDateTime(v) },
    ...(pending
      ? []
      : ([
          {
            title: '状态',
            dataIndex: 'status',
            width: 90,
            render: (s: EnterpriseChangeStatus) => (
              <Tag color={CHANGE_COLORS[s]}>{ENTERPRISE_CHANGE_STATUS_LABELS[s]}</Tag>
            ),
          },
          {
            title: '审核',
            key: 'decision',
            width: 260,
            render: (_, c) => (
              <>
                <div>
                  {c.decidedBy} · {formatDateTime(c.decidedAt)}
                </div>
                {c.reason ? <Typography.Text type="secondary">审核建议：{c.reason}</Typography.Text> : null}
              </>
            ),
          },
        ] as TableColumnsType<EnterpriseChange>)),
    {
      title: '操作',
      key: 'actions',
      width: 100,
      fixed: 'right',
      render: (_, c) => (
        <Button type="link" size="small" onClick={() => setOpened(c)} data-testid="change-open">
          {pending ? '审核' : '查看'}
        </Button>
      ),
    },
  ];

  return (
    <div data-testid="change-review">
      <FilterBar>
        <Segmented<EnterpriseChangeStatus>
          value={filters.status}
          onChange={(status) => setFilter({ status })}
          options={(['pending', 'approved', 'rejected'] as const).map((v) => ({
            value: v,
            label: ENTERPRISE_CHANGE_STATUS_LABELS[v],
          }))}
          data-testid="change-status"
        />
        <KeywordFilter
          placeholder="企业名称或统一社会信用代码"
          width={300}
          onSearch={(keyword) => setFilter({ keyword })}
        />
      </FilterBar>
      <ServerTable<EnterpriseChange, ChangeFilters>
        view={view}
        columns={columns}
        scrollX={1000}
        emptyText={pending ? '暂无正在办理的信息变更' : '暂无数据'}
        testId="change-table"
      />
      <ChangeDialog
        gnCoding={RFC_AREAS.enterprise}
        systemCoding={RFC_SYSTEM}
        businessId={opened?.enterpriseId ?? ''}
        open={opened !== null}
        change={false}
        onClose={() => setOpened(null)}
        onChanged={() => {
          view.refresh();
          onDecided?.();
        }}
      />
    </div>
  );
}

/** Administrators: the enterprise list and the review of enterprises' changes (with the number waiting). */
function AdminCompanyInfo() {
  const queryClient = useQueryClient();
  const waiting = useQuery(enterpriseChangeListQuery({ status: 'pending', pageNum: 1, pageSize: 10 }));
  const count = waiting.data?.total ?? 0;
  return (
    <Tabs
      defaultActiveKey={count ? 'review' : 'list'}
      key={waiting.isPending ? 'loading' : 'ready'}
      items={[
        { key: 'list', label: '企业信息管理', children: <EnterpriseList /> },
        {
          key: 'review',
          label: (
            <span data-testid="change-review-tab">
              变更审核 <Badge count={count} size="small" />
            </span>
          ),
          children: (
            <Card>
              <EnterpriseChangeReview
                onDecided={() => void queryClient.invalidateQueries({ queryKey: ENTERPRISES_KEY })}
              />
            </Card>
          ),
        },
      ]}
    />
  );
}

/**
 * 企业信息 `/system/companyInfo`: a U user changes their own enterprise's information through change rounds (信息变更,
 * screen 1), which an administrator passes or rejects before they reach the public record (with `?type=1`, sent here
 * by the global prompt's 418, the page asks to complete it first); administrators manage every enterprise and review
 * the rounds in the same dialog; developers have no access.
 */
export default function CompanyInfoPage() {
  const role = useLoginRoleType();
  const [params] = useSearchParams();
  const prompt = params.get('type') === '1';
  return (
    <AccountsLayout title={TITLE}>
      {role === 'U' ? (
        <Card title={TITLE} data-testid="company-info">
          <OwnEnterprise prompt={prompt} />
        </Card>
      ) : role === 'M' ? (
        <AdminCompanyInfo />
      ) : (
        <AccountsForbidden what={TITLE} />
      )}
    </AccountsLayout>
  );
}
