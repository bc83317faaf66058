import {
  CalculatorOutlined,
  EditOutlined,
  FileExcelOutlined,
  FilePdfOutlined,
  RollbackOutlined,
} from '@ant-design/icons';
import { BENCHMARK_RULE_LABELS, EVAL_METHOD_LABELS, EVAL_MSG, type EvalMember, type EvalRoom } from '@ks/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { downloadEvalReport, evalRender } from '../../../api/evaluation';
import { formatMoney } from '../../../lib/format';
import { ReopenDialog, SignReportDialog } from '../dialogs';
import { ConfirmButton, formatSeconds, panelLabel, points, useRoomAction } from '../parts';

type ResultRow = NonNullable<EvalRoom['result']>['rows'][number];
type Benchmark = NonNullable<NonNullable<EvalRoom['result']>['benchmark']>;

const money = (v: number) => formatMoney(v);

/** The benchmark price's working, in words: the prices, those left out, the mean, K and the benchmark. */
export function benchmarkText(b: Benchmark): string[] {
  return [
    `计算方法：${BENCHMARK_RULE_LABELS[b.rule]}`,
    `有效投标报价（由低到高）：${b.prices.map(money).join('、') || '无'}`,
    b.dropped.length ? `去掉最高、最低报价：${b.dropped.map(money).join('、')}` : '未去掉最高、最低报价',
    `算术平均值：${money(b.mean)} 元`,
    `评审系数 K：${b.k.toFixed(2)}`,
    `评标基准价 = ${money(b.mean)} × ${b.k.toFixed(2)} = ${money(b.value)} 元`,
  ];
}

function Qualified({ row }: { row: ResultRow }) {
  if (row.qualified) return <Tag color="success">合格</Tag>;
  return (
    <Space orientation="vertical" size={2}>
      <Tag color="error">不合格</Tag>
      {row.failures.map((f) => (
        <div key={f.itemId} className="eval-failure">
          「{f.name}」{f.fails}/{f.of} 人判定不合格
          {f.reasons.length > 0 && <>：{f.reasons.join('；')}</>}
        </div>
      ))}
    </Space>
  );
}

function ResultTable({ room }: { room: EvalRoom }) {
  const result = room.result!;
  const name = (id: string) => room.bids.find((b) => b.bidId === id)?.enterpriseName ?? id.slice(0, 8);
  const comprehensive = result.method === 'comprehensive';
  return (
    <Table<ResultRow>
      rowKey="bidId"
      size="small"
      bordered
      pagination={false}
      dataSource={result.rows}
      scroll={{ x: 1200 }}
      className="eval-result"
      data-testid="eval-result"
      onRow={(r) =>
        ({ 'data-testid': `eval-result-row-${r.bidId}`, className: r.rank === 1 ? 'eval-row-first' : '' }) as object
      }
      columns={[
        {
          title: '排名',
          dataIndex: 'rank',
          width: 60,
          align: 'center',
          render: (v: number | null) => (v === null ? '—' : <strong data-testid="eval-rank">{v}</strong>),
        },
        { title: '投标人', key: 'name', width: 220, render: (_, r) => name(r.bidId) },
        { title: '资格评审', key: 'qualified', width: 260, render: (_, r) => <Qualified row={r} /> },
        ...(comprehensive
          ? [
              {
                title: '技术分',
                key: 'technical',
                width: 90,
                align: 'right' as const,
                render: (_: unknown, r: ResultRow) => (
                  <span title={r.technical?.dropped.length ? `去掉：${r.technical.dropped.join('、')}` : undefined}>
                    {points(r.technical?.value)}
                  </span>
                ),
              },
              {
                title: '商务分',
                key: 'business',
                width: 90,
                align: 'right' as const,
                render: (_: unknown, r: ResultRow) => points(r.business?.value),
              },
            ]
          : []),
        {
          title: '投标报价（元）',
          dataIndex: 'price',
          width: 150,
          align: 'right',
          render: (v: number) => <span className="eval-num">{money(v)}</span>,
        },
        ...(comprehensive
          ? [
              {
                title: '偏离率',
                dataIndex: 'deviationPct',
                width: 90,
                align: 'right' as const,
                render: (v: number | null) => (v === null ? '—' : `${v > 0 ? '+' : ''}${v.toFixed(2)}%`),
              },
              {
                title: '价格分',
                dataIndex: 'priceScore',
                width: 90,
                align: 'right' as const,
                render: (v: number | null) => points(v),
              },
              {
                title: '总分',
                dataIndex: 'total',
                width: 90,
                align: 'right' as const,
                render: (v: number | null) => <strong>{points(v)}</strong>,
              },
            ]
          : []),
      ]}
    />
  );
}

/** Who signed the report, and their dissent. */
function Signatures({ room }: { room: EvalRoom }) {
  const signers = room.members.filter((m) => !m.recused);
  return (
    <Table<EvalMember>
      rowKey="id"
      size="small"
      bordered
      pagination={false}
      dataSource={signers}
      data-testid="eval-signatures"
      columns={[
        { title: '评委', dataIndex: 'name', width: 120 },
        {
          title: '签署',
          key: 'signed',
          width: 200,
          render: (_, m) =>
            m.reportSignedAt ? (
              formatSeconds(m.reportSignedAt)
            ) : (
              <Typography.Text type="secondary">未签署</Typography.Text>
            ),
        },
        {
          title: '意见',
          key: 'dissent',
          render: (_, m) =>
            !m.reportSignedAt ? (
              '—'
            ) : m.dissent ? (
              <Typography.Text type="warning">不同意：{m.dissent}</Typography.Text>
            ) : (
              '同意'
            ),
        },
      ]}
    />
  );
}

/**
 * 评标结果: the ranking with each step's numbers and the benchmark's working; the chair sends a panel back (退回重评)
 * or renders the result (汇总评标结果), members sign the report, and the report is exported.
 */
export function ResultStep({ room }: { room: EvalRoom }) {
  const sectionId = room.section.id;
  const a = room.actions;
  const [dialog, setDialog] = useState<'reopen' | 'sign' | null>(null);
  const render = useRoomAction(sectionId, () => evalRender(sectionId), '评标结果已汇总');
  const exporter = useMutation({
    mutationFn: (format: 'xlsx' | 'pdf') =>
      downloadEvalReport(sectionId, format, `评标报告-${room.section.code}.${format}`),
  });
  const result = room.result;
  const any = a.reopen || a.render || a.sign || a.export;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="eval-step-result">
      {any && (
        <Card size="small" data-testid="eval-result-actions">
          <Space wrap>
            {a.render && (
              <ConfirmButton
                type="primary"
                icon={<CalculatorOutlined />}
                title="按评标办法汇总资格结论、得分、基准价与排名？汇总后评委签署评标报告。"
                onConfirm={() => render.mutateAsync(undefined)}
                loading={render.isPending}
                testId="eval-render"
              >
                汇总评标结果
              </ConfirmButton>
            )}
            {a.reopen && (
              <Button danger icon={<RollbackOutlined />} onClick={() => setDialog('reopen')} data-testid="eval-reopen">
                退回重评
              </Button>
            )}
            {a.sign && (
              <Button type="primary" icon={<EditOutlined />} onClick={() => setDialog('sign')} data-testid="eval-sign">
                签署评标报告
              </Button>
            )}
            {a.export && (
              <>
                <Button
                  icon={<FilePdfOutlined />}
                  loading={exporter.isPending && exporter.variables === 'pdf'}
                  onClick={() => exporter.mutate('pdf')}
                  data-testid="eval-export-pdf"
                >
                  导出 PDF
                </Button>
                <Button
                  icon={<FileExcelOutlined />}
                  loading={exporter.isPending && exporter.variables === 'xlsx'}
                  onClick={() => exporter.mutate('xlsx')}
                  data-testid="eval-export-xlsx"
                >
                  导出 Excel
                </Button>
              </>
            )}
          </Space>
        </Card>
      )}
      <Card
        size="small"
        title="评标结果"
        extra={result ? <Typography.Text>评标办法：{EVAL_METHOD_LABELS[result.method]}</Typography.Text> : null}
      >
        {result ? (
          <Space orientation="vertical" size={12} style={{ width: '100%' }}>
            <ResultTable room={room} />
            {result.benchmark && (
              <Alert
                type="info"
                title="评标基准价计算过程"
                description={benchmarkText(result.benchmark).map((l) => <div key={l}>{l}</div>)}
                data-testid="eval-benchmark"
              />
            )}
          </Space>
        ) : (
          <Empty description={room.status === 'scoring' ? EVAL_MSG.notReporting : '评标结果尚未汇总'} />
        )}
      </Card>
      {result && (
        <Card size="small" title="评标报告签署">
          <Signatures room={room} />
        </Card>
      )}
      <Card size="small" title="退回重评记录">
        <Table
          rowKey={(r) => `${r.at}-${r.memberName}-${r.panel}`}
          size="small"
          bordered
          pagination={false}
          dataSource={room.reopens}
          locale={{ emptyText: '无' }}
          data-testid="eval-reopens"
          columns={[
            { title: '时间', dataIndex: 'at', width: 170, render: (v: string) => formatSeconds(v) },
            { title: '专家', dataIndex: 'memberName', width: 100 },
            { title: '评审组', dataIndex: 'panel', width: 100, render: panelLabel },
            { title: '理由', dataIndex: 'reason' },
            { title: '退回人', dataIndex: 'byName', width: 100 },
          ]}
        />
      </Card>
      <ReopenDialog room={room} open={dialog === 'reopen'} onClose={() => setDialog(null)} />
      <SignReportDialog room={room} open={dialog === 'sign'} onClose={() => setDialog(null)} />
    </Space>
  );
}
