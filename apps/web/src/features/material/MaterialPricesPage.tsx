import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import {
  type ApiBody,
  appToday,
  MATERIAL_CITY_NAMES,
  MATERIAL_STATUS_LABELS,
  type MaterialImportErrors,
  type MaterialPeriod,
  type MaterialPrice,
  type MaterialPricePage,
  type MaterialStatus,
  type Page,
} from '@ks/contracts';
import { type QueryKey, type UseQueryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  type ButtonProps,
  DatePicker,
  Drawer,
  Form,
  Modal,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
  Upload,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import {
  deleteMaterialPeriod,
  downloadMaterialTemplate,
  importMaterialPeriod,
  MATERIAL_KEY,
  materialAdminPeriodsQuery,
  materialAdminRowsQuery,
  materialClassesQuery,
  materialCountiesQuery,
  materialGroupsQuery,
  materialInfoQuery,
  materialPeriodsQuery,
  publishMaterialPeriod,
  withdrawMaterialPeriod,
} from '../../api/material';
import { isApiError } from '../../api/request';
import {
  ActionLink,
  ConfirmAction,
  FilterBar,
  KeywordFilter,
  ListCard,
  LoadFailure,
  PageFrame,
  RowActions,
  SelectFilter,
  ServerTable,
  useServerList,
} from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { useCurrentUser } from '../../lib/sessionHooks';

const MaterialTrend = lazy(() => import('./MaterialTrend'));
const TITLE = '材料信息价';
const STATUS_COLORS: Record<MaterialStatus, string> = { draft: 'default', published: 'success', withdrawn: 'warning' };
const SORTS = ['code', 'name', 'priceIn', 'priceEx'] as const;
type Trend = ApiBody<'materialHistory'>;

/** The columns of a page of prices; `onTrend`: the 价格走势 action. */
function priceColumns(onTrend?: (r: MaterialPrice) => void): TableColumnsType<MaterialPrice> {
  const cols: TableColumnsType<MaterialPrice> = [
    { title: '材料编码', dataIndex: 'code', width: 110, sorter: true },
    { title: '材料名称', dataIndex: 'name', width: 180, sorter: true, ellipsis: true },
    { title: '规格型号', dataIndex: 'spec', width: 180, ellipsis: true },
    { title: '单位', dataIndex: 'unit', width: 70 },
    { title: '除税价（元）', dataIndex: 'priceEx', width: 120, align: 'right', sorter: true },
    { title: '含税价（元）', dataIndex: 'priceIn', width: 120, align: 'right', sorter: true },
    { title: '区县', dataIndex: 'county', width: 90 },
    { title: '分类', dataIndex: 'classification', width: 140, ellipsis: true },
    { title: '材料组', dataIndex: 'materialGroup', width: 110, ellipsis: true },
    { title: '备注', dataIndex: 'remark', width: 120, ellipsis: true },
  ];
  if (onTrend) {
    cols.push({
      title: '操作',
      key: 'ops',
      width: 90,
      fixed: 'right',
      render: (_, r) => (
        <ActionLink onClick={() => onTrend(r)} testId={`material-trend-${r.id}`}>
          价格走势
        </ActionLink>
      ),
    });
  }
  return cols;
}

type BrowseFilters = {
  city: string;
  period?: string;
  county?: string;
  classification?: string;
  materialGroup?: string;
  keyWord?: string;
  pageNum: number;
  pageSize: number;
  sortField?: string;
  order?: 'asc' | 'desc';
};
/** The page query in the list's shape: its answer is a page (plus the period read and whether the count was capped). */
const infoOf = ((f: BrowseFilters) => {
  const { sortField, ...rest } = f;
  return materialInfoQuery({ ...rest, sort: sortField as (typeof SORTS)[number] | undefined });
}) as unknown as (f: BrowseFilters) => UseQueryOptions<Page<MaterialPrice>, Error, Page<MaterialPrice>, QueryKey>;

/** Everyone: the published prices of a city's period, filtered and searched; a material's history in a drawer. */
function Browse() {
  const view = useServerList({
    initial: { city: '太原市', pageNum: 1, pageSize: 20 } as BrowseFilters,
    query: infoOf,
    refreshKey: MATERIAL_KEY,
  });
  const f = view.filters;
  const scope = { city: f.city, period: f.period };
  const periods = useQuery(materialPeriodsQuery(f.city));
  const counties = useQuery(materialCountiesQuery(scope));
  const classes = useQuery(materialClassesQuery(scope));
  const groups = useQuery(materialGroupsQuery({ ...scope, classification: f.classification }));
  const [trend, setTrend] = useState<(Trend & { title: string }) | null>(null);
  const page = view.list.data as MaterialPricePage | undefined;
  const current = page?.period;
  if (view.failed) return <LoadFailure error={view.list.error!} what={TITLE} />;
  const opts = (list?: { value: string; count: number }[]) =>
    (list ?? []).map((o) => ({ value: o.value, label: `${o.value}（${o.count}）` }));
  return (
    <ListCard
      title={current ? `${current.city}${current.label}材料信息价` : '材料信息价查询'}
      view={view}
      testId="material-browse"
    >
      <FilterBar>
        <Select
          style={{ width: 110 }}
          value={f.city}
          onChange={(city) => view.setFilter({ city, period: undefined, county: undefined, materialGroup: undefined })}
          options={MATERIAL_CITY_NAMES.map((c) => ({ value: c, label: c }))}
          data-testid="material-city"
          aria-label="城市"
        />
        <Select
          style={{ width: 130 }}
          placeholder="当前期次"
          allowClear
          value={f.period}
          onChange={(period) => view.setFilter({ period })}
          options={(periods.data ?? []).map((p) => ({ value: p.period, label: p.label }))}
          loading={periods.isPending}
          data-testid="material-period"
          aria-label="期次"
        />
        <SelectFilter
          placeholder="区县"
          value={f.county}
          onChange={(county) => view.setFilter({ county })}
          options={opts(counties.data)}
          width={150}
          testId="material-county"
        />
        <SelectFilter
          placeholder="分类"
          value={f.classification}
          onChange={(classification) => view.setFilter({ classification, materialGroup: undefined })}
          options={opts(classes.data)}
          width={200}
          testId="material-class"
        />
        <SelectFilter
          placeholder="材料组"
          value={f.materialGroup}
          onChange={(materialGroup) => view.setFilter({ materialGroup })}
          options={opts(groups.data)}
          width={160}
          testId="material-group"
        />
        <KeywordFilter
          placeholder="材料名称或编码"
          onSearch={(keyWord) => view.setFilter({ keyWord })}
          testId="material-keyword"
        />
      </FilterBar>
      {page?.capped ? (
        <Typography.Paragraph type="secondary">
          匹配超过 10000 条，仅显示前 10000 条，请缩小筛选范围。
        </Typography.Paragraph>
      ) : null}
      <ServerTable<MaterialPrice, BrowseFilters>
        view={view}
        columns={priceColumns((r) =>
          setTrend({
            city: r.city,
            county: r.county,
            code: r.code,
            spec: r.spec,
            title: `${r.name} ${r.spec}（${r.county}）`,
          }),
        )}
        sorts={SORTS}
        scrollX={1400}
        unit="条"
        testId="material-table"
        emptyText={periods.data && periods.data.length === 0 ? '该城市暂无已发布的材料信息价' : '暂无符合条件的材料'}
      />
      <Drawer
        open={trend !== null}
        onClose={() => setTrend(null)}
        width={720}
        title={trend ? `价格走势：${trend.title}` : '价格走势'}
        destroyOnHidden
      >
        {trend ? (
          <Suspense fallback={<p>加载中…</p>}>
            <MaterialTrend material={{ city: trend.city, county: trend.county, code: trend.code, spec: trend.spec }} />
          </Suspense>
        ) : null}
      </Drawer>
    </ListCard>
  );
}

/** The rows of one period (a draft included), for an administrator to check before publishing. */
function PeriodRows({ period }: { period: MaterialPeriod }) {
  const [q, setQ] = useState<{ periodId: string; keyWord?: string; pageNum: number; pageSize: number }>({
    periodId: period.id,
    pageNum: 1,
    pageSize: 20,
  });
  const rows = useQuery(materialAdminRowsQuery(q));
  return (
    <>
      <FilterBar>
        <KeywordFilter
          placeholder="材料名称或编码"
          onSearch={(keyWord) => setQ((p) => ({ ...p, keyWord, pageNum: 1 }))}
          testId="material-rows-keyword"
        />
      </FilterBar>
      <Table<MaterialPrice>
        rowKey="id"
        size="small"
        columns={priceColumns()}
        dataSource={rows.data?.records ?? []}
        loading={rows.isFetching}
        scroll={{ x: 1300 }}
        data-testid="material-rows"
        pagination={{
          current: q.pageNum,
          pageSize: q.pageSize,
          total: rows.data?.total ?? 0,
          showTotal: (n) => `共 ${n}${rows.data?.capped ? '+' : ''} 条`,
          onChange: (pageNum, pageSize) => setQ((p) => ({ ...p, pageNum, pageSize })),
        }}
      />
    </>
  );
}

/** The import dialog: period, city and the workbook; a refusal lists every bad row. */
function ImportDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ period: Dayjs; city: string }>();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; errors: MaterialImportErrors | null } | null>(null);
  const close = () => {
    setFailure(null);
    setFile(null);
    form.resetFields();
    onClose();
  };
  const submit = async () => {
    const v = await form.validateFields();
    if (!file) {
      setFailure({ message: '请选择材料信息价文件', errors: null });
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const p = await importMaterialPeriod(v.period.format('YYYY-MM'), v.city, file);
      void message.success(`已导入${p.city}${p.label}（${p.rowCount} 行），为草稿，核对后发布`);
      onDone();
      close();
    } catch (e) {
      if (isApiError(e)) {
        const data = e.data as MaterialImportErrors | null;
        setFailure({ message: e.message, errors: data && Array.isArray(data.errors) ? data : null });
      } else setFailure({ message: '导入失败，请稍后重试', errors: null });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title="导入材料信息价"
      width={760}
      onCancel={close}
      onOk={() => void submit()}
      okText="导入"
      cancelText="取消"
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'material-import-ok' } as ButtonProps}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="inline"
        initialValues={{ city: '太原市', period: dayjs(appToday()).startOf('month') }}
        style={{ marginBottom: 16 }}
      >
        <Form.Item name="period" label="期次" rules={[{ required: true, message: '请选择期次' }]}>
          <DatePicker picker="month" format="YYYY年M月" placeholder="选择月份" data-testid="material-import-period" />
        </Form.Item>
        <Form.Item name="city" label="城市" rules={[{ required: true, message: '请选择城市' }]}>
          <Select
            style={{ width: 120 }}
            options={MATERIAL_CITY_NAMES.map((c) => ({ value: c, label: c }))}
            data-testid="material-import-city"
          />
        </Form.Item>
      </Form>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space>
          <Upload
            accept=".xlsx"
            maxCount={1}
            showUploadList={false}
            beforeUpload={(f) => {
              setFile(f);
              setFailure(null);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="material-import-file">
              选择文件
            </Button>
          </Upload>
          <span data-testid="material-import-name">{file ? file.name : '未选择文件（.xlsx）'}</span>
          <Button type="link" icon={<DownloadOutlined />} onClick={() => void downloadMaterialTemplate()}>
            下载模板
          </Button>
        </Space>
        <Typography.Text type="secondary">
          任何一行有误时不导入任何数据；导入后为草稿，发布后公众可见。同一期次与城市只能有一期已发布。
        </Typography.Text>
        {failure ? <Alert type="error" showIcon message={failure.message} data-testid="material-import-error" /> : null}
        {failure?.errors?.errors.some((e) => e.row > 0) ? (
          <Table
            rowKey={(r) => `${r.row}-${r.column}`}
            size="small"
            data-testid="material-import-errors"
            dataSource={failure.errors.errors}
            pagination={{ pageSize: 8, showTotal: () => `共 ${failure.errors!.errorCount} 行有误` }}
            columns={[
              { title: '行号', dataIndex: 'row', width: 70, render: (v: number) => `第 ${v} 行` },
              { title: '列', dataIndex: 'column', width: 110 },
              { title: '原因', dataIndex: 'reason' },
            ]}
          />
        ) : null}
      </Space>
    </Modal>
  );
}

/** Administrators and developers: the imported periods, drafts included; administrators import and publish. */
function Periods({ canEdit }: { canEdit: boolean }) {
  const qc = useQueryClient();
  const view = useServerList({
    initial: { pageNum: 1, pageSize: 10 } as {
      pageNum: number;
      pageSize: number;
      status?: MaterialStatus;
      city?: string;
    },
    query: materialAdminPeriodsQuery,
    refreshKey: MATERIAL_KEY,
  });
  const [importing, setImporting] = useState(false);
  const [viewing, setViewing] = useState<MaterialPeriod | null>(null);
  const done = () => void qc.invalidateQueries({ queryKey: MATERIAL_KEY });
  if (view.failed) return <LoadFailure error={view.list.error!} what="材料信息价期次" />;
  const columns: TableColumnsType<MaterialPeriod> = [
    { title: '期次', dataIndex: 'label', width: 110 },
    { title: '城市', dataIndex: 'city', width: 90 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: MaterialStatus) => <Tag color={STATUS_COLORS[s]}>{MATERIAL_STATUS_LABELS[s]}</Tag>,
    },
    { title: '材料行数', dataIndex: 'rowCount', width: 100, align: 'right' },
    { title: '导入文件', dataIndex: 'fileName', ellipsis: true },
    { title: '导入人', dataIndex: 'importedByName', width: 110 },
    { title: '导入时间', dataIndex: 'importedAt', width: 160, render: (v: string) => formatDateTime(v) },
    {
      title: '发布时间',
      dataIndex: 'publishedAt',
      width: 160,
      render: (v: string | null) => (v ? formatDateTime(v) : '—'),
    },
    {
      title: '操作',
      key: 'ops',
      width: 200,
      fixed: 'right',
      render: (_, r) => (
        <RowActions>
          <ActionLink onClick={() => setViewing(r)} testId={`material-view-${r.id}`}>
            查看
          </ActionLink>
          {canEdit && r.status !== 'published' ? (
            <ConfirmAction
              title={`确认发布${r.city}${r.label}材料信息价？`}
              description="发布后公众可以查询。"
              run={() => publishMaterialPeriod(r.id)}
              successText="发布成功"
              onDone={done}
              testId={`material-publish-${r.id}`}
            >
              发布
            </ConfirmAction>
          ) : null}
          {canEdit && r.status === 'published' ? (
            <ConfirmAction
              title={`确认撤回${r.city}${r.label}材料信息价？`}
              description="撤回后公众不再可见。"
              run={() => withdrawMaterialPeriod(r.id)}
              successText="撤回成功"
              onDone={done}
              danger
              testId={`material-withdraw-${r.id}`}
            >
              撤回
            </ConfirmAction>
          ) : null}
          {canEdit && r.status !== 'published' ? (
            <ConfirmAction
              title={`确认删除${r.city}${r.label}（${MATERIAL_STATUS_LABELS[r.status]}）？删除后不可恢复。`}
              run={() => deleteMaterialPeriod(r.id)}
              successText="删除成功"
              onDone={done}
              danger
              testId={`material-delete-${r.id}`}
            >
              删除
            </ConfirmAction>
          ) : null}
        </RowActions>
      ),
    },
  ];
  return (
    <ListCard
      title="期次管理"
      view={view}
      testId="material-periods"
      actions={
        <>
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void downloadMaterialTemplate()}
            data-testid="material-template"
          >
            下载模板
          </Button>
          {canEdit ? (
            <Button
              type="primary"
              icon={<UploadOutlined />}
              onClick={() => setImporting(true)}
              data-testid="material-import"
            >
              导入
            </Button>
          ) : null}
        </>
      }
    >
      <FilterBar>
        <SelectFilter
          placeholder="状态"
          value={view.filters.status}
          onChange={(status) => view.setFilter({ status })}
          options={(Object.keys(MATERIAL_STATUS_LABELS) as MaterialStatus[]).map((s) => ({
            value: s,
            label: MATERIAL_STATUS_LABELS[s],
          }))}
          testId="material-status"
        />
        <SelectFilter
          placeholder="城市"
          value={view.filters.city}
          onChange={(city) => view.setFilter({ city })}
          options={MATERIAL_CITY_NAMES.map((c) => ({ value: c, label: c }))}
          testId="material-periods-city"
        />
      </FilterBar>
      <ServerTable
        view={view}
        columns={columns}
        scrollX={1200}
        unit="期"
        testId="material-periods-table"
        emptyText="暂无导入的材料信息价"
      />
      <ImportDialog open={importing} onClose={() => setImporting(false)} onDone={done} />
      <Drawer
        open={viewing !== null}
        onClose={() => setViewing(null)}
        width={1100}
        title={viewing ? `${viewing.city}${viewing.label}（${MATERIAL_STATUS_LABELS[viewing.status]}）` : ''}
        destroyOnHidden
      >
        {viewing ? <PeriodRows period={viewing} /> : null}
      </Drawer>
    </ListCard>
  );
}

/**
 * 材料信息价 `/custom/materialPrices` (issue 19; the sidebar's node of property materialPrices): everyone browses and
 * searches the published prices and opens a material's price history; administrators import periods (with the
 * template and every bad row listed), publish and withdraw them; developers see the periods and change nothing.
 */
export default function MaterialPricesPage() {
  const role = useCurrentUser().userInfo?.loginRoleType;
  return (
    <PageFrame section={{ title: '统计分析' }} title={TITLE}>
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        {role === 'M' || role === 'D' ? <Periods canEdit={role === 'M'} /> : null}
        <Browse />
      </Space>
    </PageFrame>
  );
}
