import { type CreditPublicRow, PAGE_SIZES } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Input, Select, Table, type TableColumnsType, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { FilterBar, LoadError, PageFrame, RefreshButton } from '../../components/admin';
import { publicLevelsQuery, publicListQuery } from './api';
import { type PublicListFilters, parsePublicFilters, publicFiltersToSearch, totalText, validityText } from './query';
import { CREDIT_SECTION, levelColor } from './shared';

export const PUBLIC_LIST_TITLE = '信用等级公示';
export const PUBLIC_NOTE =
  '公示企业名称、统一社会信用代码、信用等级、信用分与有效期；信用记录的证明材料和个人信息不予公示。';
const MATCH_OPTIONS = [
  { value: 'prefix' as const, label: '名称开头' },
  { value: 'contains' as const, label: '名称包含' },
];

/**
 * 信用等级公示 inside the shell (`/credit/creditPublicList`, the sidebar's XYGL_XYDJ, node property creditList): the
 * same public list a visitor sees on the portal, in the back office's dress. Filters and page live in the URL.
 */
export default function PublicListPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = parsePublicFilters(searchParams);
  const list = useQuery(publicListQuery(filters));
  const levels = useQuery(publicLevelsQuery);
  const [keyword, setKeyword] = useState(filters.keyword ?? '');
  useEffect(() => setKeyword(filters.keyword ?? ''), [filters.keyword]);

  const apply = (next: Partial<PublicListFilters>) =>
    setSearchParams(publicFiltersToSearch({ ...filters, ...next, pageNum: next.pageNum ?? 1 }, searchParams));
  const ranks = new Map((levels.data?.levels ?? []).map((l, i) => [l.title, i]));
  const offset = (filters.pageNum - 1) * filters.pageSize;

  const columns: TableColumnsType<CreditPublicRow> = [
    { title: '序号', key: 'no', width: 64, render: (_, __, i) => offset + i + 1 },
    { title: '企业名称', dataIndex: 'name' },
    { title: '统一社会信用代码', dataIndex: 'creditCode', width: 200 },
    {
      title: '信用等级',
      dataIndex: 'level',
      width: 100,
      render: (v: string | null) =>
        v ? (
          <Tag color={levelColor(v, ranks.get(v))} data-testid="public-level">
            {v}
          </Tag>
        ) : (
          <span style={{ color: '#8a93a3' }}>未评定</span>
        ),
    },
    { title: '信用分', dataIndex: 'score', width: 90, align: 'right', render: (v: number | null) => v ?? '—' },
    { title: '评定日期', dataIndex: 'evaluatedOn', width: 120, render: (v: string | null) => v ?? '—' },
    {
      title: '有效期至',
      dataIndex: 'validUntil',
      width: 120,
      render: (v: string | null, r) => validityText(v, r.evaluatedOn),
    },
  ];

  return (
    <PageFrame section={CREDIT_SECTION} title={PUBLIC_LIST_TITLE}>
      <Card data-testid="credit-public-list">
        <Alert type="info" showIcon title={PUBLIC_NOTE} style={{ marginBottom: 16 }} />
        <FilterBar>
          <Select
            value={filters.match}
            options={MATCH_OPTIONS}
            style={{ width: 110 }}
            onChange={(match) => apply({ match })}
            aria-label="名称匹配方式"
            data-testid="public-match"
          />
          <Input.Search
            allowClear
            placeholder="企业名称或统一社会信用代码"
            style={{ width: 300 }}
            maxLength={50}
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            onSearch={(v) => apply({ keyword: v.trim() || undefined })}
            enterButton="搜索"
            data-testid="public-keyword"
          />
          <Select<string>
            allowClear
            placeholder="信用等级"
            style={{ width: 130 }}
            value={filters.level}
            loading={levels.isPending}
            options={(levels.data?.levels ?? []).map((l) => ({ value: l.title, label: l.title }))}
            onChange={(level) => apply({ level: level || undefined })}
            data-testid="public-level-filter"
          />
          <RefreshButton onClick={() => void list.refetch()} query={list} />
        </FilterBar>
        {list.isError && !list.data ? (
          <LoadError error={list.error} what="信用公示名单" />
        ) : (
          <Table<CreditPublicRow>
            rowKey="creditCode"
            size="middle"
            columns={columns}
            dataSource={list.data?.records ?? []}
            loading={list.isFetching}
            scroll={{ x: 860 }}
            locale={{ emptyText: filters.keyword ? '没有名称或信用代码符合条件的企业' : '暂无数据' }}
            data-testid="public-table"
            pagination={{
              current: filters.pageNum,
              pageSize: filters.pageSize,
              total: list.data?.total ?? 0,
              pageSizeOptions: PAGE_SIZES.map(String),
              showSizeChanger: true,
              showQuickJumper: true,
              showTotal: () => `共 ${totalText(list.data?.total ?? 0, list.data?.totalCapped ?? false)} 家企业`,
              onChange: (pageNum, pageSize) =>
                apply({ pageNum: pageSize !== filters.pageSize ? 1 : pageNum, pageSize }),
            }}
          />
        )}
      </Card>
    </PageFrame>
  );
}
