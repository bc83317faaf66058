import { DEPOSIT_STATUS_LABELS } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Table, Tag } from 'antd';
import { sectionDepositsQuery } from './api';
import { when, yuan } from './format';

/**
 * The deposits of one section (保证金): counts by state for whoever may look — the project's side sees counts only,
 * never who registered — and, for the trading centre, every bidder's deposit.
 */
export function SectionDepositPanel({ sectionId }: { sectionId: string }) {
  const q = useQuery(sectionDepositsQuery(sectionId));
  if (q.isError)
    return <Alert type="info" showIcon message={q.error instanceof Error ? q.error.message : '无法读取保证金情况'} />;
  const s = q.data;
  if (!s) return null;
  const c = s.counts;
  return (
    <div data-testid={`section-deposits-${sectionId}`}>
      <Descriptions size="small" column={4} bordered>
        <Descriptions.Item label="保证金（元）">{yuan(s.amount)}</Descriptions.Item>
        <Descriptions.Item label="缴纳截止">{when(s.dueAt)}</Descriptions.Item>
        <Descriptions.Item label="报名单位数">{c.registered}</Descriptions.Item>
        <Descriptions.Item label="已担保">{c.secured}</Descriptions.Item>
        <Descriptions.Item label="未缴纳">{c.unpaid}</Descriptions.Item>
        <Descriptions.Item label="已缴纳待确认">{c.paid}</Descriptions.Item>
        <Descriptions.Item label="已到账">{c.received}</Descriptions.Item>
        <Descriptions.Item label="保函替代">{c.guaranteed}</Descriptions.Item>
        {c.refunded ? <Descriptions.Item label="已退还">{c.refunded}</Descriptions.Item> : null}
        {s.delayReason ? <Descriptions.Item label="延期原因">{s.delayReason}</Descriptions.Item> : null}
      </Descriptions>
      {s.records.length ? (
        <Table
          style={{ marginTop: 8 }}
          size="small"
          pagination={false}
          rowKey={(d) => d.enterpriseId}
          dataSource={s.records}
          columns={[
            { title: '投标人', dataIndex: 'enterpriseName' },
            {
              title: '状态',
              key: 'status',
              render: (_: unknown, d) => (
                <Tag>{d.securedBy === 'guarantee' ? '保函替代' : DEPOSIT_STATUS_LABELS[d.status]}</Tag>
              ),
            },
            { title: '缴纳时间', key: 'paid', render: (_: unknown, d) => when(d.paidAt) },
            { title: '到账时间', key: 'recv', render: (_: unknown, d) => when(d.receivedAt) },
          ]}
        />
      ) : null}
    </div>
  );
}
