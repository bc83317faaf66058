import { DEFAULT_PAGE_SIZE, LIMIT_PRICE_TRADE_TYPES, type PriceLimitRow } from '@ks/contracts';
import { Alert, type TableColumnsType, Tag } from 'antd';
import { limitAmountOf, type PriceLimitFilters, PUBLIC_DATA_KEY, priceLimitQuery } from '../../api/publicdata';
import { FilterBar, ListCard, LoadFailure, PageFrame, ServerTable, useServerList } from '../../components/admin';
import { formatCount } from '../../lib/format';
import { NoticeLink, PublicNav, SECTION, TxnFilterFields, wan, yuan } from './common';

const TITLE = '控制价公示';

/**
 * 控制价公示 `/demoPublicPage/priceLimitDetails` (issue 19): the 最高投标限价 (最高限价 of purchases) of every published
 * works and purchase section — project, section, trade type, region, publication date — and the filter's sum. Each row
 * links to the notice that published it.
 */
export default function PriceLimitPage() {
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as PriceLimitFilters,
    query: priceLimitQuery,
    refreshKey: PUBLIC_DATA_KEY,
  });
  const amount = limitAmountOf(view.list.data);
  const columns: TableColumnsType<PriceLimitRow> = [
    { title: '项目编号', dataIndex: 'projectCode', width: 160, render: (v: string | null) => v ?? '—' },
    {
      title: '项目名称',
      dataIndex: 'projectName',
      width: 260,
      ellipsis: true,
      render: (v: string | null, r) => (
        <NoticeLink id={r.id} testId={`publicdata-limit-notice-${r.id}`}>
          {v ?? '—'}
        </NoticeLink>
      ),
    },
    {
      title: '标段（包）',
      dataIndex: 'sectionName',
      width: 140,
      ellipsis: true,
      render: (v: string | null) => v ?? '—',
    },
    {
      title: '最高投标限价（元）',
      dataIndex: 'controlPrice',
      width: 160,
      align: 'right',
      render: (v: number) => <strong>{yuan(v)}</strong>,
    },
    { title: '万元', dataIndex: 'controlPrice', key: 'wan', width: 100, align: 'right', render: (v: number) => wan(v) },
    { title: '交易类型', dataIndex: 'tradeType', width: 90 },
    { title: '地区', dataIndex: 'region', width: 80 },
    { title: '发布日期', dataIndex: 'publishedAt', width: 110 },
    { title: '公告类型', dataIndex: 'category', width: 110 },
    { title: '招标人', dataIndex: 'tenderer', width: 200, ellipsis: true, render: (v: string | null) => v ?? '—' },
    {
      title: '来源',
      dataIndex: 'onPlatform',
      width: 100,
      render: (v: boolean) => (v ? <Tag color="blue">本平台标段</Tag> : <Tag>门户公告</Tag>),
    },
  ];
  return (
    <PageFrame section={SECTION} title={TITLE} nav={<PublicNav current="/demoPublicPage/priceLimitDetails" />}>
      <ListCard title="已发布标段的最高投标限价" view={view} testId="publicdata-price-limit">
        <FilterBar>
          <TxnFilterFields
            filters={view.filters}
            setFilter={view.setFilter}
            tradeTypes={LIMIT_PRICE_TRADE_TYPES}
            testId="publicdata-limit"
          />
        </FilterBar>
        {view.failed ? (
          <LoadFailure error={view.list.error!} what={TITLE} />
        ) : (
          <>
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 12 }}
              data-testid="publicdata-limit-sum"
              title={`共 ${formatCount(view.total)} 个标段，最高投标限价合计 ${wan(amount)} 万元（${yuan(amount)} 元）`}
            />
            <ServerTable<PriceLimitRow, PriceLimitFilters>
              view={view}
              columns={columns}
              scrollX={1510}
              unit="个标段"
              testId="publicdata-price-limit-table"
            />
          </>
        )}
      </ListCard>
    </PageFrame>
  );
}
