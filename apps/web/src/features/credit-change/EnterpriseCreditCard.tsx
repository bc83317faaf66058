import { CREDIT_CONDUCT_LABELS, type CreditRecord, RFC_AREAS, RFC_SYSTEM } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { enterpriseCreditQuery, passedRecordsQuery } from '../../api/rfc';
import { formatDateTime } from '../../lib/format';
import { ChangeDialog } from './ChangeDialog';

const PAGE_SIZE = 10;

export interface EnterpriseCreditCardProps {
  /** the enterprise (administrators); absent: the signed-in user's own */
  enterpriseId?: string;
  /** the enterprise may open a change round on a record (变更); administrators see the rounds (变更记录) */
  mayChange: boolean;
}

/**
 * The credit data of an enterprise as a change round changes it: its grade (score, level, how long it holds) and its
 * passed records, each with 变更 (the change dialog on that record, screen 1) — the enterprise never edits its credit
 * data directly; a passed round writes the new values and regrades it.
 */
export function EnterpriseCreditCard({ enterpriseId, mayChange }: EnterpriseCreditCardProps) {
  const [pageNum, setPageNum] = useState(1);
  const [opened, setOpened] = useState<CreditRecord | null>(null);
  const info = useQuery(enterpriseCreditQuery(enterpriseId));
  const records = useQuery(passedRecordsQuery(enterpriseId, pageNum, PAGE_SIZE));

  const grade = info.data?.grade ?? null;
  const error = info.error ?? records.error;
  return (
    <Card size="small" title="信用信息" style={{ marginTop: 16 }} data-testid="credit-card">
      {info.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : error ? (
        <Alert
          type="warning"
          showIcon
          title={`信用信息加载失败：${error.message}`}
          action={
            <Button
              size="small"
              onClick={() => {
                void info.refetch();
                void records.refetch();
              }}
            >
              重试
            </Button>
          }
        />
      ) : (
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, xxl: 4 }}
          style={{ marginBottom: 12 }}
          items={[
            {
              key: 'level',
              label: '信用等级',
              children: grade ? (
                <Tag color="blue" data-testid="credit-level">
                  {grade.level}
                </Tag>
              ) : (
                '未评定'
              ),
            },
            {
              key: 'score',
              label: '信用分',
              children: <span data-testid="credit-score">{grade ? grade.score : '—'}</span>,
            },
            {
              key: 'points',
              label: '加分 / 扣分',
              children: grade ? `+${grade.goodPoints} / -${grade.badPoints}（基础分 ${grade.baseScore}）` : '—',
            },
            {
              key: 'valid',
              label: '评定时间',
              children: grade ? (
                <span>
                  {formatDateTime(grade.computedAt)}
                  {grade.validUntil ? (
                    <Typography.Text type="secondary">（有效至 {grade.validUntil}）</Typography.Text>
                  ) : null}
                </span>
              ) : (
                '—'
              ),
            },
          ]}
        />
      )}
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        已通过的信用记录如需更正，请点击「变更」发起变更，经审核通过后自动更新记录并重新评定信用等级。
      </Typography.Paragraph>
      <Table<CreditRecord>
        size="small"
        rowKey="id"
        loading={records.isFetching}
        dataSource={records.data?.records ?? []}
        data-testid="credit-records"
        onRow={(r) => ({ 'data-testid': 'credit-record-row', 'data-id': r.id }) as HTMLAttributes<HTMLElement>}
        locale={{ emptyText: '暂无已通过的信用记录' }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: records.data?.total ?? 0,
          showTotal: (t) => `共 ${t} 条`,
          onChange: setPageNum,
          size: 'small',
        }}
        scroll={{ x: 900 }}
        columns={[
          { title: '信用标准', dataIndex: 'standardName', ellipsis: true },
          { title: '信用分组', dataIndex: 'xxGrouping', width: 120 },
          {
            title: '类别',
            dataIndex: 'conduct',
            width: 90,
            render: (c: CreditRecord['conduct']) => (
              <Tag color={c === 'good' ? 'green' : 'red'}>{CREDIT_CONDUCT_LABELS[c]}</Tag>
            ),
          },
          {
            title: '分值',
            dataIndex: 'score',
            width: 80,
            render: (s: number, r) => (
              <span data-testid="credit-record-score">{`${r.conduct === 'good' ? '+' : '-'}${s}`}</span>
            ),
          },
          {
            title: '有效期',
            key: 'validity',
            width: 200,
            render: (_, r) => <span data-testid="credit-record-validity">{`${r.startTime} 至 ${r.endTime}`}</span>,
          },
          {
            title: '计分',
            dataIndex: 'counting',
            width: 80,
            render: (c: boolean) => (c ? <Tag color="success">计分中</Tag> : <Tag>不计分</Tag>),
          },
          {
            title: '操作',
            key: 'ops',
            width: 100,
            fixed: 'right',
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setOpened(r)} data-testid="credit-record-change">
                  {mayChange ? '变更' : '变更记录'}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <ChangeDialog
        gnCoding={RFC_AREAS.creditRecord}
        systemCoding={RFC_SYSTEM}
        businessId={opened?.id ?? ''}
        open={opened !== null}
        change={mayChange}
        onClose={() => setOpened(null)}
      />
    </Card>
  );
}
