import {
  DEFAULT_PAGE_SIZE,
  type PublicTxn,
  TRADE_TYPES,
  TXN_STATUS_LABELS,
  TXN_STATUSES,
  type TxnStatus,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Space, Spin, type TableColumnsType, Timeline, Typography } from 'antd';
import { PUBLIC_DATA_KEY, type TxnFilters, txnDetailQuery, txnListQuery } from '../../api/publicdata';
import {
  FilterBar,
  ListCard,
  LoadFailure,
  PageFrame,
  SelectFilter,
  ServerTable,
  useServerList,
} from '../../components/admin';
import { Definitions, NoticeLink, PublicNav, pct, SECTION, TxnFilterFields, TxnStatusTag, yuan } from './common';

const TITLE = '交易明细';

/** One 交易's published notices, oldest first, and this platform's opening of it. */
function TxnDetail({ id }: { id: string }) {
  const q = useQuery(txnDetailQuery(id));
  if (q.isError && !q.data) return <LoadFailure error={q.error} what="交易详情" />;
  if (!q.data) return <Spin size="small" />;
  const { notices, opening } = q.data;
  return (
    <div style={{ padding: '4px 8px' }} data-testid={`publicdata-detail-${id}`}>
      <Timeline
        items={notices.map((n) => ({
          children: (
            <Space size={8} wrap>
              <Typography.Text type="secondary">{n.publishedAt}</Typography.Text>
              <Typography.Text strong>{n.category}</Typography.Text>
              <NoticeLink id={n.id} testId={`publicdata-notice-${n.id}`}>
                {n.title}
              </NoticeLink>
              {n.amount !== null ? <Typography.Text>{yuan(n.amount)} 元</Typography.Text> : null}
            </Space>
          ),
        }))}
      />
      {opening ? (
        <Descriptions size="small" column={3} bordered title="本平台开标情况" style={{ maxWidth: 900 }}>
          <Descriptions.Item label="开标状态">{opening.statusLabel}</Descriptions.Item>
          <Descriptions.Item label="时间">{opening.at}</Descriptions.Item>
          <Descriptions.Item label="有效投标人">{opening.bidders} 家</Descriptions.Item>
          {opening.failureReason ? (
            <Descriptions.Item label="流标原因" span={3}>
              {opening.failureReason}
            </Descriptions.Item>
          ) : null}
        </Descriptions>
      ) : null}
    </div>
  );
}

/**
 * 交易明细 `/demoPublicPage/detailsList` (issue 19): every published 交易 — a section or lot whose tender notice is on
 * the portal — with its control price, where it stands, its price and discount and, when it was opened in this
 * platform's hall, its bidders. A row opens its notices (each links to the portal); the title opens the latest one.
 */
export default function DetailsListPage() {
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as TxnFilters,
    query: txnListQuery,
    refreshKey: PUBLIC_DATA_KEY,
  });
  const columns: TableColumnsType<PublicTxn> = [
    { title: '项目编号', dataIndex: 'projectCode', width: 160, render: (v: string | null) => v ?? '—' },
    {
      title: '项目名称（标段）',
      key: 'name',
      width: 300,
      ellipsis: true,
      render: (_, r) => (
        <NoticeLink id={r.latestNoticeId} testId={`publicdata-row-notice-${r.id}`}>
          {r.projectName ?? r.title}
          {r.sectionName ? `（${r.sectionName}）` : ''}
        </NoticeLink>
      ),
    },
    { title: '交易类型', dataIndex: 'tradeType', width: 90 },
    { title: '地区', dataIndex: 'region', width: 80 },
    {
      title: '控制价/起始价（元）',
      dataIndex: 'controlPrice',
      width: 160,
      align: 'right',
      render: (v: number | null) => yuan(v),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 130,
      render: (s: TxnStatus, r) => (
        <span data-testid={`publicdata-status-${r.id}`}>
          <TxnStatusTag status={s} />
        </span>
      ),
    },
    { title: '成交价（元）', dataIndex: 'winPrice', width: 150, align: 'right', render: (v: number | null) => yuan(v) },
    { title: '下浮率', dataIndex: 'discountRate', width: 90, align: 'right', render: (v: number | null) => pct(v) },
    {
      title: '投标人',
      dataIndex: 'bidders',
      width: 80,
      align: 'right',
      render: (v: number | null) => (v === null ? '—' : `${v} 家`),
    },
    { title: '发布日期', dataIndex: 'publishedAt', width: 110 },
    { title: '办结日期', dataIndex: 'concludedAt', width: 110, render: (v: string | null) => v ?? '—' },
    { title: '招标人', dataIndex: 'tenderer', width: 200, ellipsis: true, render: (v: string | null) => v ?? '—' },
  ];
  return (
    <PageFrame section={SECTION} title={TITLE} nav={<PublicNav current="/demoPublicPage/detailsList" />}>
      <ListCard title="已发布的交易" view={view} testId="publicdata-details">
        <FilterBar>
          <TxnFilterFields
            filters={view.filters}
            setFilter={view.setFilter}
            tradeTypes={TRADE_TYPES}
            testId="publicdata"
          >
            <SelectFilter<TxnStatus>
              placeholder="状态"
              value={view.filters.status}
              onChange={(status) => view.setFilter({ status })}
              options={TXN_STATUSES.map((s) => ({ value: s, label: TXN_STATUS_LABELS[s] }))}
              width={150}
              testId="publicdata-status"
            />
          </TxnFilterFields>
        </FilterBar>
        {view.failed ? (
          <LoadFailure error={view.list.error!} what={TITLE} />
        ) : (
          <ServerTable<PublicTxn, TxnFilters>
            view={view}
            columns={columns}
            scrollX={1710}
            unit="宗"
            testId="publicdata-details-table"
            expandable={{
              expandedRowRender: (r) => <TxnDetail id={r.id} />,
              rowExpandable: () => true,
            }}
          />
        )}
        <Definitions />
      </ListCard>
    </PageFrame>
  );
}
