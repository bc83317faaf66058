import { DownloadOutlined } from '@ant-design/icons';
import {
  DATE_FORMAT,
  DEFAULT_PAGE_SIZE,
  EVALUATE_TYPES,
  FEEDBACK_QUESTIONNAIRES,
  FEEDBACK_RATING_LABELS,
  type FeedbackQuestionStat,
  type FeedbackRange,
  type FeedbackText,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Col, DatePicker, Rate, Row, Space, Statistic, Table, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { exportFeedback, FEEDBACK_KEY, feedbackSummaryQuery, feedbackTextsQuery } from '../../api/feedback';
import {
  dateTimeColumn,
  FilterBar,
  ListCard,
  LoadFailure,
  orDash,
  PageFrame,
  ServerTable,
  useServerList,
} from '../../components/admin';
import { Chart } from '../../components/charts/Chart';

const TITLE = '用户反馈';
const typeTitle = (t: string) => FEEDBACK_QUESTIONNAIRES[t as keyof typeof FEEDBACK_QUESTIONNAIRES]?.title ?? t;

/** The distribution of one question's scores as bars 不满意 … 非常完美. */
function Distribution({ stat }: { stat: FeedbackQuestionStat }) {
  return (
    <Chart
      type="bar"
      categories={FEEDBACK_RATING_LABELS}
      series={[{ name: '人数', values: stat.distribution, color: '#1362fc' }]}
      label={`${stat.question}的评分分布`}
      height={130}
      showValues
      testId="feedback-distribution"
    />
  );
}

function QuestionTable({ evaluateType, stats }: { evaluateType: string; stats: FeedbackQuestionStat[] }) {
  const columns: TableColumnsType<FeedbackQuestionStat> = [
    { title: '问题', dataIndex: 'question' },
    { title: '评价人数', dataIndex: 'count', width: 96, align: 'right' },
    {
      title: '平均分',
      dataIndex: 'average',
      width: 190,
      render: (v: number | null) =>
        v === null ? (
          '—'
        ) : (
          <Space size={8}>
            <Rate disabled allowHalf value={Math.round(v * 2) / 2} style={{ fontSize: 13 }} />
            <strong data-testid="feedback-average">{v.toFixed(2)}</strong>
          </Space>
        ),
    },
    { title: '评分分布', key: 'distribution', width: 320, render: (_, s) => <Distribution stat={s} /> },
  ];
  return (
    <Card
      title={typeTitle(evaluateType)}
      size="small"
      style={{ marginBottom: 16 }}
      data-testid={`feedback-stats-${evaluateType}`}
    >
      <Table<FeedbackQuestionStat>
        rowKey="question"
        size="small"
        pagination={false}
        columns={columns}
        dataSource={stats}
        locale={{ emptyText: '暂无数据' }}
      />
    </Card>
  );
}

type TextFilters = FeedbackRange & { pageNum: number; pageSize: number };

/**
 * 用户反馈 (administrators): for a date range, the number of submissions, per question the average and the
 * distribution of the scores 1–5, the texts with who wrote them and when (paged), and the export to xlsx.
 */
export default function FeedbackAdminPage() {
  const { message } = App.useApp();
  const [days, setDays] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const range: FeedbackRange = {
    ...(days?.[0] ? { startDate: days[0].format(DATE_FORMAT) } : {}),
    ...(days?.[1] ? { endDate: days[1].format(DATE_FORMAT) } : {}),
  };
  const summary = useQuery(feedbackSummaryQuery(range));
  const texts = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as TextFilters,
    query: feedbackTextsQuery,
    refreshKey: FEEDBACK_KEY,
  });
  const [exporting, setExporting] = useState(false);

  const onRange = (v: [Dayjs | null, Dayjs | null] | null) => {
    setDays(v);
    texts.setFilters((f) => ({
      pageNum: 1,
      pageSize: f.pageSize,
      ...(v?.[0] ? { startDate: v[0].format(DATE_FORMAT) } : {}),
      ...(v?.[1] ? { endDate: v[1].format(DATE_FORMAT) } : {}),
    }));
  };

  const onExport = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      await exportFeedback(range);
      void message.success('导出成功');
    } catch {
      // the global prompt shows why
    } finally {
      setExporting(false);
    }
  };

  const d = summary.data;
  const rated = d?.questions.filter((q) => q.count > 0) ?? [];
  const overall = rated.length
    ? rated.reduce((a, q) => a + (q.average ?? 0) * q.count, 0) / rated.reduce((a, q) => a + q.count, 0)
    : null;

  const columns: TableColumnsType<FeedbackText> = [
    dateTimeColumn('提交时间', 'createdAt'),
    { title: '提交人', dataIndex: 'userName', width: 110 },
    { title: '账号', dataIndex: 'account', width: 120, render: orDash },
    { title: '所属企业', dataIndex: 'enterpriseName', width: 220, ellipsis: true, render: orDash },
    {
      title: '平均分',
      dataIndex: 'average',
      width: 80,
      render: (v: number | null) => (v === null ? '—' : v.toFixed(2)),
    },
    {
      title: '意见建议',
      dataIndex: 'text',
      render: (v: string) => <span style={{ whiteSpace: 'pre-wrap' }}>{v}</span>,
    },
  ];

  return (
    <PageFrame section={{ title: '系统管理' }} title={TITLE}>
      <Card style={{ marginBottom: 16 }}>
        <FilterBar>
          <span>提交日期</span>
          <DatePicker.RangePicker
            value={days}
            onChange={(v) => onRange(v as [Dayjs | null, Dayjs | null] | null)}
            allowEmpty={[true, true]}
            data-testid="feedback-range"
          />
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            onClick={() => void onExport()}
            data-testid="feedback-export"
          >
            导出
          </Button>
        </FilterBar>
        <Row gutter={16}>
          <Col span={6}>
            <Statistic title="反馈次数" value={d?.submissions ?? 0} loading={summary.isPending} />
          </Col>
          <Col span={6}>
            <Statistic title="填写意见" value={d?.withText ?? 0} loading={summary.isPending} />
          </Col>
          <Col span={6}>
            <Statistic
              title="综合平均分"
              value={overall === null ? '—' : overall.toFixed(2)}
              suffix={overall === null ? undefined : '/ 5'}
              loading={summary.isPending}
            />
          </Col>
        </Row>
      </Card>
      {summary.isError && !d ? (
        <LoadFailure error={summary.error} what="查看用户反馈" />
      ) : (
        EVALUATE_TYPES.map((t) => (
          <QuestionTable key={t} evaluateType={t} stats={d?.questions.filter((q) => q.evaluateType === t) ?? []} />
        ))
      )}
      <ListCard title="意见建议" view={texts} testId="feedback-texts-card">
        <ServerTable<FeedbackText, TextFilters> view={texts} columns={columns} testId="feedback-texts" scrollX={960} />
      </ListCard>
    </PageFrame>
  );
}
