import { CREDIT_SUBJECT_KINDS, type CreditSubjectKind } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Row, Segmented, Skeleton, Statistic, Table, type TableColumnsType, Tag } from 'antd';
import { useSearchParams } from 'react-router';
import { LoadFailure, PageFrame, RefreshButton } from '../../components/admin';
import { Chart } from '../../components/charts/Chart';
import { gradeOverviewQuery, topTitlesQuery } from './api';
import { CREDIT_SECTION, levelColor } from './shared';

export const ANALYSIS_TITLE = '信用分析';

const KIND_LABELS: Record<CreditSubjectKind, string> = { enterprise: '企业', person: '从业人员' };

interface LevelRow {
  title: string;
  range: string;
  count: number;
  ratio: number;
}

const LEVEL_COLUMNS: TableColumnsType<LevelRow> = [
  { title: '信用等级', dataIndex: 'title', render: (t: string) => <Tag color={levelColor(t)}>{t}</Tag> },
  { title: '分数区间', dataIndex: 'range' },
  { title: '数量', dataIndex: 'count', align: 'right' },
  { title: '占比', dataIndex: 'ratio', align: 'right', render: (r: number) => `${(r * 100).toFixed(1)}%` },
];

/** "60 ≤ 分数 < 70", or "≥ 90" for the top level. */
export function rangeText(minScore: number, maxScore: number | null): string {
  return maxScore === null ? `≥ ${minScore}` : `${minScore} ≤ 分数 < ${maxScore}`;
}

/** "2026-03" → "3月" (the card's title gives the months' range with their years). */
export function monthLabel(month: string): string {
  return `${Number(month.split('-')[1])}月`;
}

/**
 * 信用分析 `/credit/analysis` (node property analysis2): how the graded enterprises or practitioners spread over the
 * levels (bars and a pie), and the good and bad conduct records decided in each of the last 12 months (lines), from
 * grade-overview; the platform's totals from top-titles. Administrators, reviewers and developers (the server says who).
 */
export default function AnalysisPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const kindParam = searchParams.get('kind');
  const kind: CreditSubjectKind = (CREDIT_SUBJECT_KINDS as readonly string[]).includes(kindParam ?? '')
    ? (kindParam as CreditSubjectKind)
    : 'enterprise';
  const overview = useQuery(gradeOverviewQuery(kind));
  const titles = useQuery(topTitlesQuery);
  const setKind = (k: CreditSubjectKind) => {
    const next = new URLSearchParams(searchParams);
    if (k === 'enterprise') next.delete('kind');
    else next.set('kind', k);
    setSearchParams(next, { replace: true });
  };

  const data = overview.data;
  const levels = titles.data?.levels ?? [];
  const total = (key: string) => titles.data?.totals.find((t) => t.key === key)?.value;
  const label = KIND_LABELS[kind];

  if (overview.isError && !data) {
    return (
      <PageFrame section={CREDIT_SECTION} title={ANALYSIS_TITLE}>
        <div data-testid="credit-analysis">
          <LoadFailure error={overview.error} what="信用分析" reason="只有管理员、审核人员和开发者可以查看信用分析" />
        </div>
      </PageFrame>
    );
  }

  const rows: LevelRow[] = (data?.distribution ?? []).map((d) => {
    const l = levels.find((x) => x.title === d.title);
    return { ...d, range: l ? rangeText(l.minScore, l.maxScore) : '—' };
  });
  const categories = rows.map((r) => r.title);
  const counts = rows.map((r) => r.count);
  const trend = data?.trend ?? [];

  return (
    <PageFrame section={CREDIT_SECTION} title={ANALYSIS_TITLE}>
      <div data-testid="credit-analysis">
        <Card
          size="small"
          style={{ marginBottom: 16 }}
          title={
            <Segmented<CreditSubjectKind>
              value={kind}
              onChange={setKind}
              options={CREDIT_SUBJECT_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
              data-testid="analysis-kind"
            />
          }
          extra={
            <RefreshButton
              query={overview}
              onClick={() => {
                void overview.refetch();
                void titles.refetch();
              }}
            />
          }
        >
          {data ? (
            <Row gutter={[16, 12]} data-testid="analysis-stats">
              <Col xs={12} md={6}>
                <Statistic title={`${label}总数`} value={data.subjects} />
              </Col>
              <Col xs={12} md={6}>
                <Statistic
                  title={`已评定${label}`}
                  value={data.graded}
                  suffix={
                    <span style={{ fontSize: 13, color: '#8a93a3' }}>
                      （{data.subjects ? ((data.graded / data.subjects) * 100).toFixed(1) : '0.0'}%）
                    </span>
                  }
                />
              </Col>
              <Col xs={12} md={6}>
                <Statistic
                  title="平均信用分"
                  value={data.averageScore ?? '—'}
                  precision={data.averageScore === null ? undefined : 2}
                />
              </Col>
              <Col xs={12} md={6}>
                <Statistic title="待审核记录" value={total('waiting') ?? '—'} />
              </Col>
            </Row>
          ) : (
            <Skeleton active paragraph={{ rows: 1 }} />
          )}
        </Card>
        <Row gutter={16}>
          <Col xs={24} xl={14}>
            <Card title={`${label}信用等级分布`} style={{ marginBottom: 16 }} loading={!data}>
              {data && data.graded === 0 ? (
                <Empty description={`暂无已评定的${label}`} />
              ) : (
                <Row gutter={16} align="middle">
                  <Col xs={24} md={12}>
                    <Chart
                      type="bar"
                      categories={categories}
                      series={[{ name: label, values: counts }]}
                      label={`${label}信用等级分布柱状图`}
                      showValues
                      testId="analysis-distribution-bar"
                    />
                  </Col>
                  <Col xs={24} md={12}>
                    <Chart
                      type="pie"
                      categories={categories}
                      series={[{ name: label, values: counts }]}
                      label={`${label}信用等级占比饼图`}
                      testId="analysis-distribution-pie"
                    />
                  </Col>
                </Row>
              )}
            </Card>
          </Col>
          <Col xs={24} xl={10}>
            <Card title="等级分数线与分布" style={{ marginBottom: 16 }} loading={!data}>
              <Table<LevelRow>
                rowKey="title"
                size="small"
                pagination={false}
                columns={LEVEL_COLUMNS}
                dataSource={rows}
                data-testid="analysis-levels"
              />
            </Card>
          </Col>
        </Row>
        <Card
          title={
            <span>
              近 12 个月审核通过的{label}信用记录
              {trend.length ? (
                <span style={{ marginLeft: 8, fontSize: 12, fontWeight: 400, color: '#8a93a3' }}>
                  （{trend[0]!.month} 至 {trend.at(-1)!.month}）
                </span>
              ) : null}
            </span>
          }
          loading={!data}
          extra={
            <span style={{ color: '#8a93a3', fontSize: 12 }}>
              有效良好行为 {total('good') ?? '—'} 条 · 有效不良行为 {total('bad') ?? '—'} 条
            </span>
          }
        >
          <Chart
            type="line"
            height={240}
            categories={trend.map((t) => monthLabel(t.month))}
            series={[
              { name: '良好行为', values: trend.map((t) => t.good), color: '#52c41a' },
              { name: '不良行为', values: trend.map((t) => t.bad), color: '#f5222d' },
            ]}
            label={`近 12 个月审核通过的${label}信用记录折线图`}
            showValues
            testId="analysis-trend"
          />
        </Card>
      </div>
    </PageFrame>
  );
}
