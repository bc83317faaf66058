import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { appToday, type Metrics, type MonitoringReport, REGIONS, REPORT_PERIOD, reportPeriodOf } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Col, DatePicker, Row, Segmented, Select, Space, Spin, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { useSearchParams } from 'react-router';
import { downloadReportPdf, reportQuery } from '../../api/publicdata';
import { reportApiError } from '../../api/request';
import { LoadFailure, PageFrame } from '../../components/admin';
import { Chart } from '../../components/charts/Chart';
import { Definitions, GapChart, metricColumns, PublicNav, pct, perSection, SECTION, toWan, wan } from './common';

const TITLE = '监测报告';
type Named = Metrics & { name: string };

/** The current quarter: the default report (it runs to today). */
function currentQuarter(): string {
  const [y, m] = appToday().split('-').map(Number) as [number, number];
  return `${y}-Q${Math.ceil(m / 3)}`;
}

const periodOfDay = (kind: 'month' | 'quarter', d: dayjs.Dayjs) =>
  kind === 'month' ? d.format('YYYY-MM') : `${d.year()}-Q${Math.floor(d.month() / 3) + 1}`;

/**
 * Printing shows the report alone: a copy of it sits directly in <body> (hidden on screen), and the print style sheet
 * hides every other child of <body> — the app's frame, menus and buttons take no room and paint nothing.
 */
const PRINT_CSS = `.ks-report-print { display: none; }
@media print {
  @page { size: A4; margin: 14mm; }
  body { background: #fff !important; }
  body > *:not(.ks-report-print) { display: none !important; }
  .ks-report-print { display: block !important; }
  .ks-report-print .ant-card { break-inside: avoid; box-shadow: none; }
}`;

interface Change {
  text: string;
  tone: 'up' | 'down' | 'flat' | 'none';
}

const countChange = (cur: number, prev: number): Change => {
  if (cur === prev) return { text: '持平', tone: 'flat' };
  if (prev === 0) return { text: `+${cur}`, tone: 'up' };
  const d = cur - prev;
  return {
    text: `${d > 0 ? '+' : ''}${d}（${d > 0 ? '+' : ''}${((d / prev) * 100).toFixed(2)}%）`,
    tone: d > 0 ? 'up' : 'down',
  };
};
const amountChange = (cur: number, prev: number): Change => {
  if (cur === prev) return { text: '持平', tone: 'flat' };
  if (prev === 0) return { text: '—', tone: 'none' };
  const d = ((cur - prev) / prev) * 100;
  return { text: `${d > 0 ? '+' : ''}${d.toFixed(2)}%`, tone: d > 0 ? 'up' : 'down' };
};
const rateChange = (cur: number | null, prev: number | null): Change => {
  if (cur === null || prev === null) return { text: '—', tone: 'none' };
  const d = Math.round((cur - prev) * 10_000) / 100;
  if (d === 0) return { text: '持平', tone: 'flat' };
  return { text: `${d > 0 ? '上升' : '下降'} ${Math.abs(d).toFixed(2)} 个百分点`, tone: d > 0 ? 'up' : 'down' };
};
const numberChange = (cur: number | null, prev: number | null, unit: string): Change => {
  if (cur === null || prev === null) return { text: '—', tone: 'none' };
  const d = Math.round((cur - prev) * 100) / 100;
  if (d === 0) return { text: '持平', tone: 'flat' };
  return { text: `${d > 0 ? '+' : ''}${d.toFixed(2)} ${unit}`, tone: d > 0 ? 'up' : 'down' };
};

interface SummaryRow {
  key: string;
  name: string;
  current: string;
  previous: string;
  change: Change;
}

function summaryRows(c: Metrics, p: Metrics): SummaryRow[] {
  return [
    {
      key: 'published',
      name: '发布交易（标段，宗）',
      current: String(c.published),
      previous: String(p.published),
      change: countChange(c.published, p.published),
    },
    {
      key: 'control',
      name: '控制价合计（万元）',
      current: wan(c.controlAmount),
      previous: wan(p.controlAmount),
      change: amountChange(c.controlAmount, p.controlAmount),
    },
    {
      key: 'awarded',
      name: '成交（宗）',
      current: String(c.awarded),
      previous: String(p.awarded),
      change: countChange(c.awarded, p.awarded),
    },
    {
      key: 'award',
      name: '成交金额（万元）',
      current: wan(c.awardAmount),
      previous: wan(p.awardAmount),
      change: amountChange(c.awardAmount, p.awardAmount),
    },
    {
      key: 'discount',
      name: '平均下浮率',
      current: pct(c.discountRate),
      previous: pct(p.discountRate),
      change: rateChange(c.discountRate, p.discountRate),
    },
    {
      key: 'failed',
      name: '流标或终止（宗）',
      current: String(c.failed),
      previous: String(p.failed),
      change: countChange(c.failed, p.failed),
    },
    {
      key: 'retender',
      name: '重新招标率',
      current: pct(c.retenderRate),
      previous: pct(p.retenderRate),
      change: rateChange(c.retenderRate, p.retenderRate),
    },
    {
      key: 'bidders',
      name: '平均投标人数（家/标段）',
      current: `${perSection(c.bidders)}（开标 ${c.opened} 个）`,
      previous: `${perSection(p.bidders)}（开标 ${p.opened} 个）`,
      change: numberChange(c.bidders, p.bidders, '家'),
    },
  ];
}

const TONE_COLORS: Record<Change['tone'], string | undefined> = {
  up: '#cf1322',
  down: '#389e0d',
  flat: undefined,
  none: undefined,
};

/** The report as a document: on screen, and its copy for printing. */
function ReportDocument({ r, forPrint = false }: { r: MonitoringReport; forPrint?: boolean }) {
  const id = (s: string) => (forPrint ? undefined : s);
  const months = r.trend.map((t) => t.period);
  return (
    <article data-testid={id('publicdata-report-document')} style={{ background: '#fff' }}>
      <header style={{ textAlign: 'center', marginBottom: 16 }}>
        <Typography.Title level={3} style={{ marginBottom: 4 }} data-testid={id('publicdata-report-title')}>
          公共资源交易市场监测报告（{r.label}）
        </Typography.Title>
        <Typography.Text type="secondary">
          报告期间 {r.start} 至 {r.end} · 比较期间 {r.previousLabel} · 统计范围 {r.region ?? '全省'} · 生成时间{' '}
          {r.generatedAt}
        </Typography.Text>
      </header>
      <Card size="small" title="一、主要指标" style={{ marginBottom: 16 }}>
        <Table<SummaryRow>
          size="small"
          rowKey="key"
          pagination={false}
          dataSource={summaryRows(r.current, r.previous)}
          data-testid={id('publicdata-report-summary')}
          columns={[
            { title: '指标', dataIndex: 'name', width: 200 },
            { title: `本期（${r.label}）`, dataIndex: 'current', align: 'right' },
            { title: `上期（${r.previousLabel}）`, dataIndex: 'previous', align: 'right' },
            {
              title: '较上期',
              dataIndex: 'change',
              align: 'right',
              render: (c: Change) => <span style={{ color: TONE_COLORS[c.tone] }}>{c.text}</span>,
            },
          ]}
        />
      </Card>
      <Card size="small" title="二、主要发现" style={{ marginBottom: 16 }}>
        <ol style={{ margin: 0, paddingLeft: 20, lineHeight: 1.9 }} data-testid={id('publicdata-report-findings')}>
          {r.findings.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ol>
      </Card>
      <Row gutter={16}>
        <Col xs={24} xl={forPrint ? 24 : 12}>
          <Card size="small" title="三、月度走势：发布、成交与流标（宗）" style={{ marginBottom: 16 }}>
            <Chart
              type="bar"
              categories={months}
              series={[
                { name: '发布', values: r.trend.map((t) => t.published) },
                { name: '成交', values: r.trend.map((t) => t.awarded) },
                { name: '流标/终止', values: r.trend.map((t) => t.failed), color: '#f5222d' },
              ]}
              label="月度发布、成交与流标的交易数"
              testId={id('publicdata-report-chart-trend')}
            />
          </Card>
        </Col>
        <Col xs={24} xl={forPrint ? 24 : 12}>
          <Card size="small" title="月度走势：平均下浮率与重新招标率" style={{ marginBottom: 16 }}>
            <GapChart
              periods={months}
              series={[
                { name: '平均下浮率', values: r.trend.map((t) => t.discountRate), color: '#1362fc' },
                { name: '重新招标率', values: r.trend.map((t) => t.retenderRate), color: '#f5222d' },
              ]}
              label="月度平均下浮率与重新招标率"
              testId={id('publicdata-report-chart-rates')}
            />
          </Card>
        </Col>
      </Row>
      <Card size="small" title="四、分地区情况" style={{ marginBottom: 16 }}>
        <Chart
          type="bar"
          categories={r.byRegion.map((x) => x.name)}
          series={[
            { name: '发布（宗）', values: r.byRegion.map((x) => x.published) },
            { name: '成交（宗）', values: r.byRegion.map((x) => x.awarded) },
          ]}
          label="分地区发布与成交的交易数"
          height={220}
          testId={id('publicdata-report-chart-region')}
        />
        <Table<Named>
          size="small"
          rowKey="name"
          pagination={false}
          columns={metricColumns<Named>('地区', 'name')}
          dataSource={r.byRegion}
          scroll={forPrint ? undefined : { x: 1050 }}
          locale={{ emptyText: '暂无数据' }}
          data-testid={id('publicdata-report-region')}
        />
      </Card>
      <Card size="small" title="五、分交易类型情况" style={{ marginBottom: 16 }}>
        <Chart
          type="pie"
          categories={r.byTradeType.map((x) => x.name)}
          series={[{ name: '控制价（万元）', values: r.byTradeType.map((x) => toWan(x.controlAmount)) }]}
          label="分交易类型的控制价（万元）"
          height={240}
          testId={id('publicdata-report-chart-type')}
        />
        <Table<Named>
          size="small"
          rowKey="name"
          pagination={false}
          columns={metricColumns<Named>('交易类型', 'name')}
          dataSource={r.byTradeType}
          scroll={forPrint ? undefined : { x: 1050 }}
          locale={{ emptyText: '暂无数据' }}
          data-testid={id('publicdata-report-type')}
        />
      </Card>
      <Definitions />
    </article>
  );
}

function PrintCopy({ r }: { r: MonitoringReport }) {
  return createPortal(
    <div className="ks-report-print">
      <style>{PRINT_CSS}</style>
      <ReportDocument r={r} forPrint />
    </div>,
    document.body,
  );
}

/**
 * 监测报告 `/demoPublicPage/monitoringReport` (issue 19): a month's or a quarter's market indicators against the period
 * before, by region and trade type, with the findings the server writes from them; 打印 prints the report alone,
 * 下载PDF downloads the server's PDF of the same report. The period and region travel in the address.
 */
export default function MonitoringReportPage() {
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const asked = params.get('period') ?? '';
  const period = REPORT_PERIOD.test(asked) ? asked : currentQuarter();
  const regionParam = params.get('region') ?? '';
  const region = (REGIONS as readonly string[]).includes(regionParam)
    ? (regionParam as (typeof REGIONS)[number])
    : undefined;
  const kind = reportPeriodOf(period)?.kind ?? 'quarter';
  const [downloading, setDownloading] = useState(false);
  const q = useQuery(reportQuery({ period, region }));
  const r = q.data;
  const set = (next: { period?: string; region?: string | null }) =>
    setParams(
      (p) => {
        const n = new URLSearchParams(p);
        if (next.period) n.set('period', next.period);
        if (next.region !== undefined) {
          if (next.region) n.set('region', next.region);
          else n.delete('region');
        }
        return n;
      },
      { replace: true },
    );
  const start = reportPeriodOf(period)?.startMonth ?? appToday().slice(0, 7);
  return (
    <PageFrame section={SECTION} title={TITLE} nav={<PublicNav current="/demoPublicPage/monitoringReport" />}>
      <Card size="small" style={{ marginBottom: 16 }} className="ks-no-print" data-testid="publicdata-report">
        <Space wrap>
          <Segmented
            value={kind}
            options={[
              { value: 'month', label: '月报' },
              { value: 'quarter', label: '季报' },
            ]}
            onChange={(k) => set({ period: periodOfDay(k as 'month' | 'quarter', dayjs(`${start}-01`)) })}
            data-testid="publicdata-report-kind"
          />
          <DatePicker
            picker={kind}
            allowClear={false}
            value={dayjs(`${start}-01`)}
            format={kind === 'month' ? 'YYYY年M月' : (d) => `${d.year()}年第${Math.floor(d.month() / 3) + 1}季度`}
            disabledDate={(d) => d.isAfter(dayjs(appToday()), 'day')}
            onChange={(d) => d && set({ period: periodOfDay(kind, d) })}
            data-testid="publicdata-report-period"
          />
          <Select
            allowClear
            placeholder="全省"
            style={{ width: 120 }}
            value={region}
            onChange={(v?: string) => set({ region: v ?? null })}
            options={REGIONS.map((x) => ({ value: x, label: x }))}
            data-testid="publicdata-report-region"
          />
          <Button
            icon={<PrinterOutlined />}
            disabled={!r}
            onClick={() => window.print()}
            data-testid="publicdata-print"
          >
            打印
          </Button>
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            disabled={!r}
            loading={downloading}
            onClick={() => {
              if (!r) return;
              setDownloading(true);
              downloadReportPdf({ period, region }, `市场监测报告-${r.label}.pdf`)
                .then(() => void message.success('已下载'))
                .catch(reportApiError)
                .finally(() => setDownloading(false));
            }}
            data-testid="publicdata-pdf"
          >
            下载PDF
          </Button>
        </Space>
      </Card>
      {q.isError && !r ? (
        <LoadFailure error={q.error} what={TITLE} />
      ) : !r ? (
        <Card>
          <Spin />
        </Card>
      ) : (
        <Card>
          <Spin spinning={q.isFetching}>
            <ReportDocument r={r} />
          </Spin>
          <PrintCopy r={r} />
        </Card>
      )}
    </PageFrame>
  );
}
