import { FileTextOutlined } from '@ant-design/icons';
import { GRANULARITIES, GRANULARITY_LABELS, type Granularity, type Metrics, REGIONS, TRADE_TYPES } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, DatePicker, Row, Segmented, Select, Space, Table } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { type IndicatorFilters, indicatorsQuery } from '../../api/publicdata';
import { LoadFailure, PageFrame } from '../../components/admin';
import { Chart } from '../../components/charts/Chart';
import { Definitions, Figures, GapChart, metricColumns, metricFigures, PublicNav, SECTION, toWan } from './common';

const TITLE = '市场指标';
type Named = Metrics & { name: string };

/** The report period of the range's last period (a month or a quarter; a year reports its last quarter). */
function reportPeriodFor(granularity: Granularity, endMonth: string): string {
  if (granularity === 'month') return endMonth;
  const [y, m] = endMonth.split('-').map(Number) as [number, number];
  return `${y}-Q${Math.ceil(m / 3)}`;
}

/**
 * 市场指标 `/demoPublicPage/indicatorDet` (issue 19): per month, quarter or year, region and trade type — the 交易
 * published and their control prices, the bidders per section opened in this platform's hall, the awards with their
 * average discount rate, and the re-tender rate — as figures, charts and tables by region and trade type. The latest
 * period opens as a monitoring report.
 */
export default function IndicatorPage() {
  const navigate = useNavigate();
  const [filters, setFilters] = useState<IndicatorFilters>({ granularity: 'month' });
  const q = useQuery(indicatorsQuery(filters));
  const d = q.data;
  const periods = d?.periods ?? [];
  const names = periods.map((p) => p.period);
  const granularity = (filters.granularity ?? 'month') as Granularity;
  return (
    <PageFrame section={SECTION} title={TITLE} nav={<PublicNav current="/demoPublicPage/indicatorDet" />}>
      <Card size="small" style={{ marginBottom: 16 }} data-testid="publicdata-indicators">
        <Space wrap>
          <span>统计粒度</span>
          <Segmented
            value={granularity}
            options={GRANULARITIES.map((g) => ({ value: g, label: GRANULARITY_LABELS[g] }))}
            onChange={(g) =>
              setFilters({ ...filters, granularity: g as Granularity, startMonth: undefined, endMonth: undefined })
            }
            data-testid="publicdata-granularity"
          />
          <span>统计期间</span>
          <DatePicker.RangePicker
            picker="month"
            allowClear={false}
            value={d ? [dayjs(`${d.startMonth}-01`), dayjs(`${d.endMonth}-01`)] : null}
            onChange={(v) => {
              if (v?.[0] && v[1])
                setFilters({ ...filters, startMonth: v[0].format('YYYY-MM'), endMonth: v[1].format('YYYY-MM') });
            }}
            data-testid="publicdata-period"
          />
          <span>地区</span>
          <Select
            allowClear
            placeholder="全省"
            style={{ width: 120 }}
            value={filters.region}
            onChange={(region?: (typeof REGIONS)[number]) => setFilters({ ...filters, region })}
            options={REGIONS.map((r) => ({ value: r, label: r }))}
            data-testid="publicdata-ind-region"
          />
          <span>交易类型</span>
          <Select
            allowClear
            placeholder="全部类型"
            style={{ width: 120 }}
            value={filters.tradeType}
            onChange={(tradeType?: (typeof TRADE_TYPES)[number]) => setFilters({ ...filters, tradeType })}
            options={TRADE_TYPES.map((t) => ({ value: t, label: t }))}
            data-testid="publicdata-ind-trade-type"
          />
          <Button
            icon={<FileTextOutlined />}
            disabled={!d}
            onClick={() => {
              if (!d) return;
              const p = new URLSearchParams({ period: reportPeriodFor(granularity, d.endMonth) });
              if (filters.region) p.set('region', filters.region);
              void navigate(`/demoPublicPage/monitoringReport?${p}`);
            }}
            data-testid="publicdata-to-report"
          >
            生成监测报告
          </Button>
        </Space>
      </Card>
      {q.isError && !d ? (
        <LoadFailure error={q.error} what={TITLE} />
      ) : (
        <>
          <Figures loading={q.isPending} items={metricFigures(d?.total, 'publicdata-total')} />
          <Row gutter={16}>
            <Col xs={24} xl={12}>
              <Card size="small" title="各期发布与成交（宗）" style={{ marginBottom: 16 }}>
                <Chart
                  type="bar"
                  categories={names}
                  series={[
                    { name: '发布', values: periods.map((p) => p.published) },
                    { name: '成交', values: periods.map((p) => p.awarded) },
                    { name: '流标/终止', values: periods.map((p) => p.failed), color: '#f5222d' },
                  ]}
                  label="各期发布、成交与流标的交易数"
                  testId="publicdata-chart-volume"
                />
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title="平均下浮率与重新招标率" style={{ marginBottom: 16 }}>
                <GapChart
                  periods={names}
                  series={[
                    { name: '平均下浮率', values: periods.map((p) => p.discountRate), color: '#1362fc' },
                    { name: '重新招标率', values: periods.map((p) => p.retenderRate), color: '#f5222d' },
                  ]}
                  label="各期平均下浮率与重新招标率"
                  testId="publicdata-chart-rates"
                />
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title="控制价与成交金额（万元）" style={{ marginBottom: 16 }}>
                <Chart
                  type="line"
                  categories={names}
                  series={[
                    { name: '控制价', values: periods.map((p) => toWan(p.controlAmount)) },
                    { name: '成交金额', values: periods.map((p) => toWan(p.awardAmount)) },
                  ]}
                  label="各期控制价与成交金额（万元）"
                  testId="publicdata-chart-amount"
                />
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title="平均投标人数（家/标段，本平台开标）" style={{ marginBottom: 16 }}>
                <GapChart
                  kind="perSection"
                  periods={names}
                  series={[{ name: '平均投标人数', values: periods.map((p) => p.bidders), color: '#36cfc9' }]}
                  label="各期平均投标人数"
                  testId="publicdata-chart-bidders"
                />
              </Card>
            </Col>
          </Row>
          <Card size="small" title="分地区" style={{ marginBottom: 16 }}>
            <Table<Named>
              size="small"
              rowKey="name"
              loading={q.isFetching}
              columns={metricColumns<Named>('地区', 'name')}
              dataSource={d?.byRegion ?? []}
              pagination={false}
              scroll={{ x: 1050 }}
              locale={{ emptyText: '暂无数据' }}
              data-testid="publicdata-by-region"
            />
          </Card>
          <Card size="small" title="分交易类型" style={{ marginBottom: 16 }}>
            <Table<Named>
              size="small"
              rowKey="name"
              loading={q.isFetching}
              columns={metricColumns<Named>('交易类型', 'name')}
              dataSource={d?.byTradeType ?? []}
              pagination={false}
              scroll={{ x: 1050 }}
              locale={{ emptyText: '暂无数据' }}
              data-testid="publicdata-by-trade-type"
            />
          </Card>
          <Definitions />
        </>
      )}
    </PageFrame>
  );
}
