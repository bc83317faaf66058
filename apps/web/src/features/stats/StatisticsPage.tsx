import { DownloadOutlined } from '@ant-design/icons';
import type { ParticipateRow, TxnRow } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Col, Input, Row, Select, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { reportApiError } from '../../api/request';
import { downloadParticipate, participateQuery, txnListQuery, txnStatsQuery } from '../../api/stats';
import { LoadFailure, PageFrame } from '../../components/admin';
import { Chart } from '../../components/charts/Chart';
import { formatMoney } from '../../lib/format';
import { Figures, type Period, PeriodBar, SECTION, StatsNav, usePeriodParam, wan } from './common';

const TITLE = '交易统计';

interface Drill {
  month?: string;
  type?: string;
  region?: string;
}

const drillText = (d: Drill) =>
  [d.month && `${d.month}`, d.region && `${d.region}`, d.type && `${d.type}`].filter(Boolean).join(' · ') || '全部';

function TxnTable({ period, type, drill }: { period: Period; type?: string; drill: Drill }) {
  const [page, setPage] = useState({ curPage: 1, pageSize: 10 });
  const [key, setKey] = useState('');
  const k = JSON.stringify({ period, type, drill });
  if (k !== key) {
    setKey(k);
    if (page.curPage !== 1) setPage({ ...page, curPage: 1 });
  }
  const list = useQuery(
    txnListQuery({
      ...period,
      region: drill.region ?? period.region,
      type: drill.type ?? type,
      month: drill.month,
      ...page,
    }),
  );
  const columns: TableColumnsType<TxnRow> = [
    { title: '项目编号', dataIndex: 'projectCode', width: 170 },
    { title: '项目名称', dataIndex: 'projectName', ellipsis: true },
    { title: '标段', key: 'section', width: 170, render: (_, r) => `${r.sectionCode} ${r.sectionName}` },
    { title: '项目类型', dataIndex: 'type', width: 130 },
    { title: '地区', dataIndex: 'region', width: 90 },
    { title: '开标时间', dataIndex: 'openedAt', width: 150 },
    { title: '控制价（元）', dataIndex: 'amount', width: 160, align: 'right', render: (v: number) => formatMoney(v) },
  ];
  if (list.isError) return <LoadFailure error={list.error} what="交易明细" />;
  return (
    <Table<TxnRow>
      size="small"
      rowKey="sectionId"
      columns={columns}
      dataSource={list.data?.records ?? []}
      loading={list.isFetching}
      locale={{ emptyText: '暂无数据' }}
      scroll={{ x: 1000 }}
      data-testid="stats-txn-table"
      pagination={{
        current: page.curPage,
        pageSize: page.pageSize,
        total: list.data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: [10, 20, 30, 50],
        showQuickJumper: true,
        showTotal: (t) => `共 ${t} 个标段`,
        onChange: (curPage, pageSize) => setPage({ curPage: pageSize === page.pageSize ? curPage : 1, pageSize }),
      }}
    />
  );
}

const SORT_FIELDS = { sections: 'sections', amount: 'amount' } as const;

function Participants({ period, type }: { period: Period; type?: string }) {
  const { message } = App.useApp();
  const [keyword, setKeyword] = useState<string>();
  const [page, setPage] = useState({ curPage: 1, pageSize: 10 });
  const [sort, setSort] = useState<{ sortField?: 'sections' | 'amount'; order?: 'asc' | 'desc' }>({});
  const [exporting, setExporting] = useState(false);
  const list = useQuery(participateQuery({ ...period, type, keyword, ...sort, ...page }));
  const sorted = (f: keyof typeof SORT_FIELDS) =>
    sort.sortField === f ? (sort.order === 'asc' ? ('ascend' as const) : ('descend' as const)) : null;
  const columns: TableColumnsType<ParticipateRow> = [
    { title: '企业名称', dataIndex: 'enterpriseName', ellipsis: true },
    { title: '统一社会信用代码', dataIndex: 'creditCode', width: 190 },
    { title: '所在地区', dataIndex: 'region', width: 100, render: (v: string | null) => v ?? '—' },
    {
      title: '报名标段数',
      dataIndex: 'sections',
      width: 120,
      align: 'right',
      sorter: true,
      sortOrder: sorted('sections'),
    },
    {
      title: '标段控制价合计（元）',
      dataIndex: 'amount',
      width: 190,
      align: 'right',
      sorter: true,
      sortOrder: sorted('amount'),
      render: (v: number) => formatMoney(v),
    },
  ];
  return (
    <Card
      size="small"
      title="参与交易的企业"
      data-testid="stats-participants"
      extra={
        <Space>
          <Input.Search
            allowClear
            placeholder="企业名称或信用代码"
            style={{ width: 220 }}
            onSearch={(v) => {
              setKeyword(v.trim() || undefined);
              setPage({ ...page, curPage: 1 });
            }}
            data-testid="stats-participants-keyword"
          />
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            data-testid="stats-participants-export"
            onClick={() => {
              setExporting(true);
              downloadParticipate({ ...period, type, keyword })
                .then(() => void message.success('已导出'))
                .catch(reportApiError)
                .finally(() => setExporting(false));
            }}
          >
            导出
          </Button>
        </Space>
      }
    >
      {list.isError ? (
        <LoadFailure error={list.error} what="参与交易的企业" />
      ) : (
        <Table<ParticipateRow>
          size="small"
          rowKey="enterpriseId"
          columns={columns}
          dataSource={list.data?.records ?? []}
          loading={list.isFetching}
          locale={{ emptyText: '暂无数据' }}
          onChange={(p, _f, s) => {
            const one = Array.isArray(s) ? s[0] : s;
            const field = one?.order ? (one.field as keyof typeof SORT_FIELDS) : undefined;
            setSort(field ? { sortField: field, order: one?.order === 'ascend' ? 'asc' : 'desc' } : {});
            setPage({ curPage: p.pageSize === page.pageSize ? (p.current ?? 1) : 1, pageSize: p.pageSize ?? 10 });
          }}
          pagination={{
            current: page.curPage,
            pageSize: page.pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 30, 50],
            showTotal: (t) => `共 ${t} 家企业`,
          }}
        />
      )}
    </Card>
  );
}

/**
 * 全量统计 `/custom/statistics` (issue 19): transactions — sections of projects whose 进场登记 passed, by the month of
 * their opening, the project's type and region; count and amount (the sections' control prices). Clicking a bar, a
 * slice or a card lists the sections behind it; the participating enterprises below, with their export.
 */
export default function StatisticsPage() {
  const initial = usePeriodParam();
  const [period, setPeriod] = useState<Period>(initial);
  const [type, setType] = useState<string>();
  const [drill, setDrill] = useState<Drill>({});
  const stats = useQuery(txnStatsQuery({ ...period, type }));
  const d = stats.data;
  const change = (p: Period) => {
    setPeriod(p);
    setDrill({});
  };
  const months = d?.byMonth ?? [];
  return (
    <PageFrame section={SECTION} title={TITLE}>
      <StatsNav current="/custom/statistics" />
      <PeriodBar
        value={period}
        onChange={change}
        regions={d?.regions}
        extra={
          <>
            <span>项目类型</span>
            <Select
              allowClear
              placeholder="全部类型"
              style={{ width: 150 }}
              value={type}
              onChange={(v?: string) => {
                setType(v || undefined);
                setDrill({});
              }}
              options={(d?.types ?? []).map((t) => ({ value: t, label: t }))}
              data-testid="stats-type"
            />
          </>
        }
      />
      {stats.isError ? (
        <LoadFailure error={stats.error} what={TITLE} />
      ) : (
        <>
          <Figures
            loading={stats.isLoading}
            items={[
              {
                title: '交易数（个标段）',
                value: d?.total.count ?? 0,
                testId: 'stats-total-count',
                onClick: () => setDrill({}),
              },
              { title: '交易额（万元）', value: wan(d?.total.amount ?? 0), money: true, testId: 'stats-total-amount' },
              { title: '涉及地区', value: d?.byRegion.length ?? 0, testId: 'stats-total-regions' },
              { title: '项目类型', value: d?.byType.length ?? 0, testId: 'stats-total-types' },
            ]}
          />
          <Row gutter={16}>
            <Col xs={24} xl={12}>
              <Card size="small" title="月度交易数" style={{ marginBottom: 16 }}>
                <Chart
                  type="bar"
                  categories={months.map((m) => m.month)}
                  series={[{ name: '交易数', values: months.map((m) => m.count) }]}
                  label="月度交易数"
                  showValues
                  testId="stats-chart-month"
                  onClick={(i) => setDrill({ month: months[i]?.month })}
                />
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title="月度交易额（万元）" style={{ marginBottom: 16 }}>
                <Chart
                  type="line"
                  categories={months.map((m) => m.month)}
                  series={[{ name: '交易额（万元）', values: months.map((m) => wan(m.amount)) }]}
                  label="月度交易额（万元）"
                  testId="stats-chart-amount"
                  onClick={(i) => setDrill({ month: months[i]?.month })}
                />
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title="按项目类型（交易额，万元）" style={{ marginBottom: 16 }}>
                <Chart
                  type="pie"
                  categories={(d?.byType ?? []).map((t) => t.name)}
                  series={[{ name: '交易额（万元）', values: (d?.byType ?? []).map((t) => wan(t.amount)) }]}
                  label="按项目类型的交易额"
                  testId="stats-chart-type"
                  onClick={(i) => setDrill({ type: d?.byType[i]?.name })}
                />
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title="按地区（交易数）" style={{ marginBottom: 16 }}>
                <Chart
                  type="bar"
                  categories={(d?.byRegion ?? []).map((r) => r.name)}
                  series={[{ name: '交易数', values: (d?.byRegion ?? []).map((r) => r.count) }]}
                  label="按地区的交易数"
                  showValues
                  testId="stats-chart-region"
                  onClick={(i) => setDrill({ region: d?.byRegion[i]?.name })}
                />
              </Card>
            </Col>
          </Row>
          <Card
            size="small"
            style={{ marginBottom: 16 }}
            title={
              <span data-testid="stats-drill-title">
                交易明细：<Tag color="blue">{drillText(drill)}</Tag>
              </span>
            }
            extra={
              Object.keys(drill).length ? (
                <Button size="small" onClick={() => setDrill({})} data-testid="stats-drill-clear">
                  查看全部
                </Button>
              ) : (
                <span style={{ color: 'rgba(0,0,0,0.45)' }}>点击图表中的柱、点或扇区查看对应的交易</span>
              )
            }
          >
            <TxnTable period={period} type={type} drill={drill} />
          </Card>
          <Participants period={period} type={type} />
        </>
      )}
    </PageFrame>
  );
}
