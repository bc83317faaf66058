import { EditOutlined } from '@ant-design/icons';
import {
  BENCHMARK_RULE_LABELS,
  EVAL_METHOD_LABELS,
  EVAL_MSG,
  type EvalCriteria,
  type EvalRoom,
  round2,
  type ScoreItem,
} from '@ks/contracts';
import { Alert, Button, Card, Descriptions, Empty, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { MethodForm } from './MethodForm';

export type MethodPart = 'qualification' | 'technical' | 'business';

const TITLES: Record<MethodPart, string> = {
  qualification: '评标办法（资格评审）',
  technical: '技术评分标准',
  business: '商务评分标准与价格分',
};

function ScoreItems({ items, testId }: { items: ScoreItem[]; testId: string }) {
  const total = round2(items.reduce((a, b) => a + b.max, 0));
  return (
    <Table<ScoreItem>
      rowKey="id"
      size="small"
      bordered
      pagination={false}
      dataSource={items}
      data-testid={testId}
      locale={{ emptyText: '未设置评分因素' }}
      columns={[
        { title: '编号', dataIndex: 'id', width: 80 },
        { title: '评审因素', dataIndex: 'name' },
        { title: '分值', dataIndex: 'max', width: 90, align: 'right', render: (v: number) => v.toFixed(2) },
      ]}
      summary={() => (
        <Table.Summary.Row>
          <Table.Summary.Cell index={0} colSpan={2}>
            合计
          </Table.Summary.Cell>
          <Table.Summary.Cell index={1} align="right">
            {total.toFixed(2)}
          </Table.Summary.Cell>
        </Table.Summary.Row>
      )}
    />
  );
}

/** The price formula of the comprehensive method, in words. */
export function PriceFormula({ criteria }: { criteria: EvalCriteria }) {
  const p = criteria.price;
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, md: 2 }}
      data-testid="eval-price-formula"
      items={[
        { key: 'max', label: '价格分满分', children: `${p.max} 分` },
        { key: 'benchmark', label: '评标基准价', children: `${BENCHMARK_RULE_LABELS[p.benchmark]} × K` },
        { key: 'k', label: '评审系数 K', children: p.k.toFixed(2) },
        {
          key: 'above',
          label: '高于基准价',
          children: `每高 1% 扣 ${p.abovePerPct} 分`,
        },
        {
          key: 'below',
          label: '低于基准价',
          children: `每低 1% 扣 ${p.belowPerPct} 分`,
        },
        { key: 'floor', label: '最低', children: '扣至 0 分为止' },
        {
          key: 'deviation',
          label: '评分偏离阈值',
          children: `偏离评标委员会中位数超过因素满分的 ${round2(criteria.deviation * 100)}% 须写书面理由`,
        },
      ]}
    />
  );
}

/**
 * 评标办法（资格） / 技术评分标准 / 商务与价格分: one part of the evaluation method; the host edits the whole method
 * (before any score) from any of them.
 */
export function MethodStep({ room, part }: { room: EvalRoom; part: MethodPart }) {
  const [editing, setEditing] = useState(false);
  const c = room.criteria;
  const lowest = c?.method === 'lowest';
  return (
    <Card
      size="small"
      title={TITLES[part]}
      data-testid={`eval-step-method-${part}`}
      extra={
        room.actions.method ? (
          <Button
            type="primary"
            icon={<EditOutlined />}
            onClick={() => setEditing(true)}
            data-testid="eval-method-edit"
          >
            {c ? '修改评标办法' : '设置评标办法'}
          </Button>
        ) : null
      }
    >
      {!c ? (
        <Empty description="评标办法尚未设置" />
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Typography.Text data-testid="eval-method-name">
            评标办法：<strong>{EVAL_METHOD_LABELS[c.method]}</strong>
          </Typography.Text>
          {!room.actions.method && room.status === 'scoring' && (
            <Typography.Text type="secondary">{EVAL_MSG.methodLocked}</Typography.Text>
          )}
          {part === 'qualification' && (
            <Table
              rowKey="id"
              size="small"
              bordered
              pagination={false}
              dataSource={c.qualification}
              data-testid="eval-method-view-qualification"
              locale={{ emptyText: '未设置资格评审因素' }}
              columns={[
                { title: '编号', dataIndex: 'id', width: 80 },
                { title: '资格评审因素', dataIndex: 'name' },
                { title: '评审方式', key: 'how', width: 140, render: () => '合格 / 不合格' },
              ]}
            />
          )}
          {part !== 'qualification' && lowest && (
            <Alert
              type="info"
              showIcon
              title="经评审的最低投标价法：通过资格评审的投标人按投标报价由低到高排序，不设技术、商务打分因素。"
            />
          )}
          {part === 'technical' && !lowest && <ScoreItems items={c.technical} testId="eval-method-view-technical" />}
          {part === 'business' && !lowest && (
            <>
              <ScoreItems items={c.business} testId="eval-method-view-business" />
              <PriceFormula criteria={c} />
            </>
          )}
        </Space>
      )}
      {room.actions.method && <MethodForm room={room} open={editing} onClose={() => setEditing(false)} />}
    </Card>
  );
}
