import type { CompleteCount, CompleteRow, TodoRecordRow } from '@ks/contracts';
import { RECORD_STATES, TODO_STATE_LABELS } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Row, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import {
  completeCountQuery,
  completeListQuery,
  todoEnterpriseQuery,
  todoListQuery,
  todoRecordsQuery,
  todoRegionQuery,
} from '../../api/stats';
import { ActionLink, LoadFailure, PageFrame } from '../../components/admin';
import { Chart } from '../../components/charts/Chart';
import { formatCount } from '../../lib/format';
import { Figures, type Period, PeriodBar, SECTION, StatsNav, usePeriodParam } from './common';

const TITLE = '办件与待办统计';
const STATE_LABELS: Record<(typeof RECORD_STATES)[number], string> = {
  draft: '草稿',
  pending: '审核中',
  passed: '已通过',
  rejected: '已驳回',
};

type CountRow = CompleteCount['rows'][number];

/** What a clicked number stands for: records of a node in a state, or to-dos. */
type Drill =
  | { kind: 'records'; gnCoding: string; nodeName: string; status?: (typeof RECORD_STATES)[number] }
  | {
      kind: 'todos';
      title: string;
      gnCoding?: string;
      region?: string;
      enterpriseId?: string;
      state?: 'open' | 'done';
    };

const pagination = (
  page: { curPage: number; pageSize: number },
  total: number,
  set: (p: typeof page) => void,
  unit: string,
) => ({
  current: page.curPage,
  pageSize: page.pageSize,
  total,
  showSizeChanger: true,
  pageSizeOptions: [10, 20, 30, 50],
  showQuickJumper: true,
  showTotal: (t: number) => `共 ${t} ${unit}`,
  onChange: (curPage: number, pageSize: number) => set({ curPage: pageSize === page.pageSize ? curPage : 1, pageSize }),
});

function DrillTable({ period, drill }: { period: Period; drill: Drill }) {
  const [page, setPage] = useState({ curPage: 1, pageSize: 10 });
  const [key, setKey] = useState('');
  const k = JSON.stringify({ period, drill });
  if (k !== key) {
    setKey(k);
    if (page.curPage !== 1) setPage({ ...page, curPage: 1 });
  }
  const records = useQuery(
    completeListQuery(
      drill.kind === 'records'
        ? { ...period, gnCoding: drill.gnCoding, status: drill.status, ...page }
        : { gnCoding: 'x' },
      drill.kind === 'records',
    ),
  );
  const todos = useQuery(
    todoRecordsQuery(
      drill.kind === 'todos'
        ? {
            ...period,
            region: drill.region ?? period.region,
            gnCoding: drill.gnCoding,
            enterpriseId: drill.enterpriseId,
            state: drill.state,
            ...page,
          }
        : {},
      drill.kind === 'todos',
    ),
  );
  if (drill.kind === 'records') {
    const columns: TableColumnsType<CompleteRow> = [
      { title: '事项', dataIndex: 'businessName', ellipsis: true },
      { title: '企业', dataIndex: 'enterpriseName', width: 220, render: (v: string | null) => v ?? '—' },
      { title: '状态', dataIndex: 'status', width: 90, render: (v: string) => <Tag>{v}</Tag> },
      { title: '审核级别', dataIndex: 'auditLevel', width: 90, render: (v: number) => (v ? `第 ${v} 级` : '—') },
      { title: '创建时间', dataIndex: 'createdAt', width: 150 },
      { title: '更新时间', dataIndex: 'updatedAt', width: 150 },
    ];
    if (records.isError) return <LoadFailure error={records.error} what="办件明细" />;
    return (
      <Table<CompleteRow>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={records.data?.records ?? []}
        loading={records.isFetching}
        locale={{ emptyText: '暂无数据' }}
        data-testid="stats-drill-table"
        pagination={pagination(page, records.data?.total ?? 0, setPage, '条')}
      />
    );
  }
  const columns: TableColumnsType<TodoRecordRow> = [
    { title: '业务', dataIndex: 'nodeName', width: 140 },
    { title: '事项', dataIndex: 'businessName', ellipsis: true },
    { title: '提交人', dataIndex: 'submitterName', width: 100 },
    { title: '企业', dataIndex: 'enterpriseName', width: 200, render: (v: string | null) => v ?? '—' },
    { title: '地区', dataIndex: 'region', width: 90 },
    { title: '级别', dataIndex: 'level', width: 70, render: (v: number) => `第 ${v} 级` },
    { title: '提交时间', dataIndex: 'sbTime', width: 150 },
    {
      title: '状态',
      dataIndex: 'doneAt',
      width: 170,
      render: (v: string | null) => (v ? <Tag color="success">已办 {v}</Tag> : <Tag color="processing">待办</Tag>),
    },
  ];
  if (todos.isError) return <LoadFailure error={todos.error} what="待办明细" />;
  return (
    <Table<TodoRecordRow>
      size="small"
      rowKey="id"
      columns={columns}
      dataSource={todos.data?.records ?? []}
      loading={todos.isFetching}
      locale={{ emptyText: '暂无数据' }}
      scroll={{ x: 1100 }}
      data-testid="stats-drill-table"
      pagination={pagination(page, todos.data?.total ?? 0, setPage, '条')}
    />
  );
}

const drillTitle = (d: Drill) =>
  d.kind === 'records'
    ? `办件明细：${d.nodeName}${d.status ? ` · ${STATE_LABELS[d.status]}` : ''}`
    : `待办明细：${d.title}${d.state ? ` · ${TODO_STATE_LABELS[d.state]}` : ''}`;

/**
 * 数据统计 `/custom/completeCount` (issue 19): each node's records by state (草稿、审核中、已通过、已驳回) in the period,
 * and the to-dos by business, region and enterprise (待办 / 已办); every number opens the records or to-dos behind it.
 */
export default function CompleteCountPage() {
  const initial = usePeriodParam();
  const [period, setPeriod] = useState<Period>(initial);
  const [drill, setDrill] = useState<Drill | null>(null);
  const [entPage, setEntPage] = useState({ curPage: 1, pageSize: 10 });
  const counts = useQuery(completeCountQuery(period));
  const todoList = useQuery(todoListQuery(period));
  const regions = useQuery(todoRegionQuery(period));
  const ents = useQuery(todoEnterpriseQuery({ ...period, ...entPage }));
  const rows = (counts.data?.rows ?? []).filter((r) => r.total > 0);
  const sum = (k: keyof CountRow) => rows.reduce((a, r) => a + Number(r[k]), 0);
  const todoRows = todoList.data ?? [];
  const regionRows = regions.data ?? [];

  const cell = (r: CountRow, status?: (typeof RECORD_STATES)[number]) => {
    const v = status ? r[status] : r.total;
    return v ? (
      <ActionLink
        testId={`stats-count-${r.gnCoding}-${status ?? 'total'}`}
        onClick={() => setDrill({ kind: 'records', gnCoding: r.gnCoding, nodeName: r.nodeName, status })}
      >
        {formatCount(v)}
      </ActionLink>
    ) : (
      <span style={{ color: 'rgba(0,0,0,0.25)' }}>0</span>
    );
  };
  const countColumns: TableColumnsType<CountRow> = [
    { title: '业务系统', dataIndex: 'systemName', width: 180, ellipsis: true },
    { title: '业务节点', dataIndex: 'nodeName', ellipsis: true },
    ...RECORD_STATES.map((s) => ({
      title: STATE_LABELS[s],
      key: s,
      width: 100,
      align: 'right' as const,
      render: (_: unknown, r: CountRow) => cell(r, s),
    })),
    { title: '合计', key: 'total', width: 100, align: 'right', render: (_, r) => cell(r) },
  ];
  type TodoRow = (typeof todoRows)[number];
  const todoCell = (v: number, d: Drill, testId: string) =>
    v ? (
      <ActionLink testId={testId} onClick={() => setDrill(d)}>
        {formatCount(v)}
      </ActionLink>
    ) : (
      <span style={{ color: 'rgba(0,0,0,0.25)' }}>0</span>
    );
  const todoColumns: TableColumnsType<TodoRow> = [
    { title: '业务系统', dataIndex: 'systemName', width: 160, ellipsis: true },
    { title: '业务节点', dataIndex: 'nodeName', ellipsis: true },
    ...(['open', 'done'] as const).map((state) => ({
      title: TODO_STATE_LABELS[state],
      key: state,
      width: 90,
      align: 'right' as const,
      render: (_: unknown, r: TodoRow) =>
        todoCell(
          r[state],
          { kind: 'todos', title: r.nodeName, gnCoding: r.gnCoding, state },
          `stats-todo-${r.gnCoding}-${state}`,
        ),
    })),
    {
      title: '合计',
      key: 'total',
      width: 90,
      align: 'right',
      render: (_, r) =>
        todoCell(r.total, { kind: 'todos', title: r.nodeName, gnCoding: r.gnCoding }, `stats-todo-${r.gnCoding}-total`),
    },
  ];
  type EntRow = NonNullable<typeof ents.data>['records'][number];
  const entColumns: TableColumnsType<EntRow> = [
    { title: '企业', dataIndex: 'enterpriseName', ellipsis: true },
    { title: '地区', dataIndex: 'region', width: 90 },
    ...(['open', 'done', 'total'] as const).map((state) => ({
      title: state === 'total' ? '合计' : TODO_STATE_LABELS[state],
      key: state,
      width: 80,
      align: 'right' as const,
      render: (_: unknown, r: EntRow) =>
        todoCell(
          r[state],
          {
            kind: 'todos',
            title: r.enterpriseName,
            enterpriseId: r.enterpriseId,
            state: state === 'total' ? undefined : state,
          },
          `stats-ent-${r.enterpriseId}-${state}`,
        ),
    })),
  ];

  const failed = counts.error ?? todoList.error ?? regions.error ?? ents.error;
  return (
    <PageFrame section={SECTION} title={TITLE}>
      <StatsNav current="/custom/completeCount" />
      <PeriodBar
        value={period}
        onChange={(p) => {
          setPeriod(p);
          setDrill(null);
          setEntPage({ ...entPage, curPage: 1 });
        }}
      />
      {failed ? (
        <LoadFailure error={failed} what={TITLE} />
      ) : (
        <>
          <Figures
            loading={counts.isLoading || todoList.isLoading}
            items={[
              { title: '办件总数', value: sum('total'), testId: 'stats-complete-total' },
              { title: '审核中', value: sum('pending'), testId: 'stats-complete-pending', color: '#1362fc' },
              { title: '已通过', value: sum('passed'), testId: 'stats-complete-passed', color: '#52c41a' },
              {
                title: '待办',
                value: todoRows.reduce((a, r) => a + r.open, 0),
                testId: 'stats-todo-open',
                color: '#faad14',
                onClick: () => setDrill({ kind: 'todos', title: '全部', state: 'open' }),
              },
            ]}
          />
          <Card size="small" title="办件统计（按系统与节点）" style={{ marginBottom: 16 }}>
            <Table<CountRow>
              size="small"
              rowKey="gnCoding"
              columns={countColumns}
              dataSource={rows}
              loading={counts.isFetching}
              pagination={false}
              locale={{ emptyText: '暂无数据' }}
              data-testid="stats-complete-table"
            />
          </Card>
          <Row gutter={16}>
            <Col xs={24} xl={12}>
              <Card size="small" title="待办统计（按业务）" style={{ marginBottom: 16 }}>
                <Table<TodoRow>
                  size="small"
                  rowKey="gnCoding"
                  columns={todoColumns}
                  dataSource={todoRows}
                  loading={todoList.isFetching}
                  pagination={false}
                  locale={{ emptyText: '暂无数据' }}
                  data-testid="stats-todo-table"
                />
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title="待办统计（按地区）" style={{ marginBottom: 16 }}>
                <Chart
                  type="bar"
                  categories={regionRows.map((r) => r.region)}
                  series={[
                    { name: '待办', values: regionRows.map((r) => r.open) },
                    { name: '已办', values: regionRows.map((r) => r.done) },
                  ]}
                  label="按地区的待办与已办"
                  testId="stats-chart-todo-region"
                  onClick={(i, c) =>
                    setDrill({
                      kind: 'todos',
                      title: regionRows[i]?.region ?? '',
                      region: regionRows[i]?.region,
                      state: c.seriesName === '已办' ? 'done' : 'open',
                    })
                  }
                />
              </Card>
            </Col>
          </Row>
          <Card size="small" title="待办统计（按企业）" style={{ marginBottom: 16 }}>
            <Table<EntRow>
              size="small"
              rowKey="enterpriseId"
              columns={entColumns}
              dataSource={ents.data?.records ?? []}
              loading={ents.isFetching}
              locale={{ emptyText: '暂无数据' }}
              data-testid="stats-ent-table"
              pagination={pagination(entPage, ents.data?.total ?? 0, setEntPage, '家企业')}
            />
          </Card>
          {drill ? (
            <Card
              size="small"
              title={<span data-testid="stats-drill-title">{drillTitle(drill)}</span>}
              extra={
                <Button size="small" onClick={() => setDrill(null)}>
                  收起
                </Button>
              }
            >
              <DrillTable period={period} drill={drill} />
            </Card>
          ) : null}
        </>
      )}
    </PageFrame>
  );
}
