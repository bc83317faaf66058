import { type Metrics, REGIONS, TXN_STATUS_LABELS, type TxnStatus } from '@ks/contracts';
import { Card, Col, DatePicker, Empty, Row, Segmented, Space, Statistic, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { KeywordFilter, SelectFilter } from '../../components/admin';
import { EChart } from '../../components/charts/EChart';
import { formatCount } from '../../lib/format';
import { portalNoticeHref } from '../../lib/paths';

/** The public data pages, one click apart (perDetails is the people's list and one person's record). */
export const PUBLIC_PAGES = [
  { value: '/demoPublicPage/detailsList', label: '交易明细' },
  { value: '/demoPublicPage/priceLimitDetails', label: '控制价公示' },
  { value: '/demoPublicPage/indicatorDet', label: '市场指标' },
  { value: '/demoPublicPage/monitoringReport', label: '监测报告' },
  { value: '/demoPublicPage/perDetails', label: '从业人员' },
] as const;
export type PublicPage = (typeof PUBLIC_PAGES)[number]['value'];

export const SECTION = { title: '公共数据' };
export const PER_DETAILS_PATH = '/demoPublicPage/perDetails';
export const personHref = (id: string) => `${PER_DETAILS_PATH}?${new URLSearchParams({ id })}`;

export function PublicNav({ current }: { current: PublicPage }) {
  const navigate = useNavigate();
  return (
    <Segmented
      className="ks-no-print"
      style={{ marginBottom: 16 }}
      value={current}
      options={PUBLIC_PAGES.map((p) => ({ ...p }))}
      onChange={(v) => navigate(String(v))}
      data-testid="publicdata-nav"
    />
  );
}

/** Yuan in 万元 with two decimals and thousands separators: 12,345.68. */
export function wan(yuan: number | null | undefined): string {
  if (typeof yuan !== 'number' || !Number.isFinite(yuan)) return '—';
  return (yuan / 10_000).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Yuan as a number of 万元 with two decimals (for charts). */
export const toWan = (yuan: number) => Math.round(yuan / 100) / 100;

/** Yuan with thousands separators and two decimals, or —. */
export function yuan(v: number | null | undefined): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '—';
  return v.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A rate (0.1234) as 12.34%, or —. */
export function pct(rate: number | null | undefined): string {
  return typeof rate === 'number' && Number.isFinite(rate) ? `${(rate * 100).toFixed(2)}%` : '—';
}

/** Bidders per section with two decimals, or —. */
export const perSection = (v: number | null | undefined) => (typeof v === 'number' ? v.toFixed(2) : '—');

const STATUS_COLORS: Record<TxnStatus, string> = {
  bidding: 'processing',
  opened: 'cyan',
  publicity: 'gold',
  awarded: 'success',
  failed: 'error',
};

export function TxnStatusTag({ status }: { status: TxnStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{TXN_STATUS_LABELS[status]}</Tag>;
}

/** A portal notice, opened in a new tab (the portal is the public site). */
export function NoticeLink({ id, children, testId }: { id: string; children: ReactNode; testId?: string }) {
  return (
    <Typography.Link href={portalNoticeHref(id)} target="_blank" rel="noopener noreferrer" data-testid={testId}>
      {children}
    </Typography.Link>
  );
}

export function PersonLink({ id, children, testId }: { id: string; children: ReactNode; testId?: string }) {
  return (
    <Link to={personHref(id)} data-testid={testId}>
      {children}
    </Link>
  );
}

export interface Figure {
  title: string;
  value: string;
  suffix?: string;
  hint?: string;
  testId: string;
}

/** Statistic cards in a row. */
export function Figures({ items, loading }: { items: Figure[]; loading: boolean }) {
  return (
    <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
      {items.map((f) => (
        <Col key={f.testId} xs={24} sm={12} lg={8} xxl={4}>
          <Card size="small" data-testid={f.testId}>
            <Statistic title={f.title} loading={loading} value={f.value} suffix={f.suffix} />
            {f.hint ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {f.hint}
              </Typography.Text>
            ) : null}
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** The headline figures of a set of indicators. */
export function metricFigures(m: Metrics | undefined, prefix: string): Figure[] {
  return [
    {
      title: '发布交易（标段）',
      value: formatCount(m?.published ?? 0),
      suffix: '宗',
      testId: `${prefix}-published`,
    },
    { title: '控制价合计', value: wan(m?.controlAmount ?? 0), suffix: '万元', testId: `${prefix}-control` },
    {
      title: '平均投标人数',
      value: perSection(m?.bidders),
      suffix: m?.bidders == null ? undefined : '家/标段',
      hint: `本平台开标 ${m?.opened ?? 0} 个标段`,
      testId: `${prefix}-bidders`,
    },
    {
      title: '成交',
      value: formatCount(m?.awarded ?? 0),
      suffix: '宗',
      hint: `成交金额 ${wan(m?.awardAmount ?? 0)} 万元`,
      testId: `${prefix}-awarded`,
    },
    {
      title: '平均下浮率',
      value: pct(m?.discountRate),
      hint: `${m?.discountSamples ?? 0} 宗有最高投标限价的成交`,
      testId: `${prefix}-discount`,
    },
    {
      title: '重新招标率',
      value: pct(m?.retenderRate),
      hint: `流标或终止 ${m?.failed ?? 0} 宗 / 办结 ${m?.concluded ?? 0} 宗`,
      testId: `${prefix}-retender`,
    },
  ];
}

/** How the numbers are counted, in a line under the page. */
export function Definitions() {
  return (
    <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 8 }}>
      口径：交易为同一项目编号与标段的已发布公告，按首个招标公告（资格预审公告）发布日期计入；控制价取该公告金额（工程建设、政府采购为最高投标限价）。
      平均下浮率 = 成交的工程建设、政府采购交易 1 − 中标价 ÷ 控制价 的平均值；重新招标率 = 流标或终止 ÷
      办结（成交、流标或终止）； 平均投标人数 =
      本平台开标大厅开标结束的标段解密成功的投标文件数的平均值。草稿、已撤回的公告和未公示的结果不计入。
    </Typography.Paragraph>
  );
}

/** Rows of indicators per name (region, trade type) as table columns. */
export function metricColumns<R extends Metrics>(nameTitle: string, nameKey: keyof R & string) {
  return [
    { title: nameTitle, dataIndex: nameKey, width: 110, fixed: 'left' as const },
    { title: '发布（宗）', dataIndex: 'published', width: 90, align: 'right' as const },
    {
      title: '控制价（万元）',
      dataIndex: 'controlAmount',
      width: 130,
      align: 'right' as const,
      render: (v: number) => wan(v),
    },
    { title: '成交（宗）', dataIndex: 'awarded', width: 90, align: 'right' as const },
    {
      title: '成交金额（万元）',
      dataIndex: 'awardAmount',
      width: 140,
      align: 'right' as const,
      render: (v: number) => wan(v),
    },
    {
      title: '平均下浮率',
      dataIndex: 'discountRate',
      width: 100,
      align: 'right' as const,
      render: (v: number | null) => pct(v),
    },
    { title: '流标/终止', dataIndex: 'failed', width: 90, align: 'right' as const },
    {
      title: '重新招标率',
      dataIndex: 'retenderRate',
      width: 100,
      align: 'right' as const,
      render: (v: number | null) => pct(v),
    },
    {
      title: '平均投标人',
      dataIndex: 'bidders',
      width: 100,
      align: 'right' as const,
      render: (v: number | null) => perSection(v),
    },
  ];
}

/** 发布日期 range (days), both ends counted. */
export function DateRange({
  value,
  onChange,
}: {
  value: [string, string] | null;
  onChange: (range: [string, string] | null) => void;
}) {
  return (
    <Space size={4}>
      <span>发布日期</span>
      <DatePicker.RangePicker
        allowClear
        value={value ? [dayjs(value[0]), dayjs(value[1])] : null}
        onChange={(v) => onChange(v?.[0] && v[1] ? [v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')] : null)}
        data-testid="publicdata-dates"
      />
    </Space>
  );
}

/** The filters the published-transaction lists share, and a setter of some of them (useServerList's setFilter). */
interface TxnListFilters<T extends string> {
  tradeType?: T;
  region?: (typeof REGIONS)[number];
  dateFrom?: string;
  dateTo?: string;
}

/**
 * The filter fields of a list of published transactions (交易明细, 控制价公示): keyword, trade type, region and 发布日期;
 * `children` (e.g. a status) stand between the region and the dates. Test ids are `${testId}-keyword`,
 * `-trade-type` and `-region`.
 */
export function TxnFilterFields<T extends string>({
  filters,
  setFilter,
  tradeTypes,
  testId,
  children,
}: {
  filters: TxnListFilters<T>;
  setFilter: (patch: TxnListFilters<T> & { keyword?: string }) => void;
  tradeTypes: readonly T[];
  testId: string;
  children?: ReactNode;
}) {
  const { dateFrom: from, dateTo: to } = filters;
  // a Space of its own: the bar's Space spaces its direct children only, and these are one child there
  return (
    <Space wrap>
      <KeywordFilter
        placeholder="项目名称、编号或招标人"
        onSearch={(keyword) => setFilter({ keyword })}
        testId={`${testId}-keyword`}
      />
      <SelectFilter<T>
        placeholder="交易类型"
        value={filters.tradeType}
        onChange={(tradeType) => setFilter({ tradeType })}
        options={tradeTypes.map((t) => ({ value: t, label: t }))}
        testId={`${testId}-trade-type`}
      />
      <SelectFilter<(typeof REGIONS)[number]>
        placeholder="地区"
        value={filters.region}
        onChange={(region) => setFilter({ region })}
        options={REGIONS.map((r) => ({ value: r, label: r }))}
        testId={`${testId}-region`}
      />
      {children}
      <DateRange
        value={from && to ? [from, to] : null}
        onChange={(r) => setFilter({ dateFrom: r?.[0], dateTo: r?.[1] })}
      />
    </Space>
  );
}

/**
 * Values per period where a period without a base (no award, nothing concluded, nothing opened) is a gap, not a zero:
 * rates as lines in percent, or counts per section as bars. Drawn by the product's ECharts host; its box says the
 * numbers in words.
 */
export function GapChart({
  periods,
  series,
  label,
  testId,
  kind = 'rate',
  height = 260,
}: {
  periods: readonly string[];
  series: readonly { name: string; values: readonly (number | null)[]; color: string }[];
  label: string;
  testId: string | undefined;
  /** rate: lines of 0–1 shown in percent; perSection: bars of bidders per section */
  kind?: 'rate' | 'perSection';
  height?: number;
}) {
  const rate = kind === 'rate';
  const show = (v: number | null) => (rate ? pct(v) : v === null ? '—' : `${v.toFixed(2)} 家`);
  const option = useMemo(
    () => ({
      color: series.map((s) => s.color),
      tooltip: {
        trigger: 'axis',
        valueFormatter: (v: unknown) =>
          typeof v === 'number' ? (rate ? `${v.toFixed(2)}%` : `${v.toFixed(2)} 家`) : '—',
      },
      legend: { top: 0, show: series.length > 1 },
      grid: {
        left: 8,
        right: 16,
        top: series.length > 1 ? 32 : 16,
        bottom: 8,
        outerBoundsMode: 'same',
        outerBoundsContain: 'axisLabel',
      },
      xAxis: { type: 'category', data: [...periods], boundaryGap: !rate, axisLabel: { hideOverlap: true } },
      yAxis: { type: 'value', axisLabel: rate ? { formatter: (v: number) => `${v}%` } : {} },
      series: series.map((s) => ({
        type: rate ? 'line' : 'bar',
        name: s.name,
        connectNulls: false,
        barMaxWidth: 36,
        label: rate ? { show: false } : { show: true, position: 'top' },
        data: s.values.map((v) => (v === null ? null : rate ? Math.round(v * 10_000) / 100 : v)),
      })),
    }),
    [periods, series, rate],
  );
  if (!periods.length || series.every((s) => s.values.every((v) => v === null))) {
    return (
      <div data-testid={testId} style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />
      </div>
    );
  }
  const words = series
    .map((s) => `${s.name}：${periods.map((p, i) => `${p} ${show(s.values[i] ?? null)}`).join('，')}`)
    .join('；');
  return <EChart option={option} height={height} label={`${label}：${words}`} testId={testId} />;
}
