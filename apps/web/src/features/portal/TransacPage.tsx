import { NOTICE_CATEGORIES, REGIONS, TRADE_TYPES } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatDate } from '../../lib/format';
import { noticeListQuery } from './api';
import { PortalFrame } from './PortalFrame';
import { isValidDate, type NoticeFilters, noticeFiltersToSearch, parseNoticeFilters } from './query';
import { Breadcrumb, ChipGroup, Empty, ErrorState, KeywordForm, Pagination, SkeletonLines, Tag } from './ui';

function Filters({ filters, apply }: { filters: NoticeFilters; apply: (next: Partial<NoticeFilters>) => void }) {
  const [keyword, setKeyword] = useState(filters.keyword ?? '');
  const [dateError, setDateError] = useState<string | null>(null);
  // the URL is the truth: back/forward and links refill the box
  useEffect(() => setKeyword(filters.keyword ?? ''), [filters.keyword]);

  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    apply({ keyword: keyword.trim() || undefined });
  };
  const onDate = (which: 'startDate' | 'endDate', value: string) => {
    const v = isValidDate(value) ? value : undefined;
    const start = which === 'startDate' ? v : filters.startDate;
    const end = which === 'endDate' ? v : filters.endDate;
    if (start && end && start > end) {
      setDateError('结束日期不能早于开始日期');
      return;
    }
    setDateError(null);
    apply({ [which]: v });
  };
  const reset = () => {
    setKeyword('');
    setDateError(null);
    apply({
      category: undefined,
      tradeType: undefined,
      region: undefined,
      startDate: undefined,
      endDate: undefined,
      keyword: undefined,
    });
  };

  return (
    <section className="kp-card kp-filters" aria-label="筛选条件" data-testid="notice-filters">
      <ChipGroup
        label="公告类别"
        testId="filter-category"
        options={NOTICE_CATEGORIES}
        value={filters.category}
        onChange={(category) => apply({ category })}
      />
      <ChipGroup
        label="交易类型"
        testId="filter-trade-type"
        options={TRADE_TYPES}
        value={filters.tradeType}
        onChange={(tradeType) => apply({ tradeType })}
      />
      <div className="kp-filter-row kp-filter-inline">
        <label className="kp-field">
          <span className="kp-filter-label">所在地区：</span>
          <select
            className="kp-select"
            data-testid="filter-region"
            value={filters.region ?? ''}
            onChange={(e) => apply({ region: e.target.value || undefined })}
          >
            <option value="">全部地区</option>
            {REGIONS.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <div className="kp-field">
          <span className="kp-filter-label">发布日期：</span>
          <input
            type="date"
            className="kp-input kp-date"
            aria-label="开始日期"
            data-testid="filter-start-date"
            value={filters.startDate ?? ''}
            max={filters.endDate}
            onChange={(e) => onDate('startDate', e.target.value)}
          />
          <span className="kp-muted">至</span>
          <input
            type="date"
            className="kp-input kp-date"
            aria-label="结束日期"
            data-testid="filter-end-date"
            value={filters.endDate ?? ''}
            min={filters.startDate}
            onChange={(e) => onDate('endDate', e.target.value)}
          />
          {dateError ? (
            <span className="kp-field-error" role="alert">
              {dateError}
            </span>
          ) : null}
        </div>
        <KeywordForm
          className="kp-field kp-keyword"
          placeholder="公告标题关键字"
          value={keyword}
          onChange={setKeyword}
          onSubmit={onSearch}
          onReset={reset}
        />
      </div>
    </section>
  );
}

/** 交易信息 `/transac`: filterable, paginated notice list; filters and page live in the URL query. */
export default function TransacPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = parseNoticeFilters(searchParams);
  const { data, isPending, isError, isFetching, refetch } = useQuery(noticeListQuery(filters));
  const listRef = useRef<HTMLDivElement>(null);

  /** Any filter change starts again at page 1; a page change keeps the filters. */
  const apply = (next: Partial<NoticeFilters>) => {
    setSearchParams(noticeFiltersToSearch({ ...filters, ...next, pageNum: next.pageNum ?? 1 }));
  };
  const changePage = (pageNum: number, pageSize: number) => {
    apply({ pageNum, pageSize });
    const top = listRef.current?.getBoundingClientRect().top;
    if (top !== undefined && top < 0) listRef.current?.scrollIntoView?.({ block: 'start' });
  };

  return (
    <PortalFrame>
      <div className="kp-container kp-page">
        <Breadcrumb items={[{ label: '首页', to: '/' }, { label: '交易信息' }]} />
        <Filters filters={filters} apply={apply} />
        <div className="kp-card kp-list-card" ref={listRef}>
          <div className="kp-list-head">
            <h1 className="kp-card-title">交易信息</h1>
            {data ? (
              <span className="kp-muted">
                共 <strong data-testid="notice-total">{data.total}</strong> 条
              </span>
            ) : null}
          </div>
          {isPending ? (
            <SkeletonLines rows={10} testId="notice-skeleton" />
          ) : isError ? (
            <ErrorState onRetry={() => void refetch()} />
          ) : data.records.length === 0 ? (
            <Empty />
          ) : (
            <ul
              className={isFetching ? 'kp-rows is-stale' : 'kp-rows'}
              data-testid="notice-list"
              aria-busy={isFetching}
            >
              {data.records.map((n) => (
                <li key={n.id} className="kp-row" data-testid="notice-row">
                  <div className="kp-row-main">
                    <Link
                      to={`/transac-news?id=${encodeURIComponent(n.id)}`}
                      className="kp-row-title"
                      data-testid="notice-title"
                    >
                      {n.title}
                    </Link>
                    <div className="kp-row-meta">
                      <Tag>{n.category}</Tag>
                      <Tag tone="green">{n.tradeType}</Tag>
                      <Tag tone="gray">{n.region}</Tag>
                      {n.projectCode ? <span className="kp-muted">项目编号：{n.projectCode}</span> : null}
                    </div>
                  </div>
                  <time className="kp-row-date" dateTime={n.publishedAt ?? undefined}>
                    {formatDate(n.publishedAt)}
                  </time>
                </li>
              ))}
            </ul>
          )}
          {data && data.total > 0 ? (
            <Pagination
              total={data.total}
              pageNum={filters.pageNum}
              pageSize={filters.pageSize}
              onChange={changePage}
            />
          ) : null}
        </div>
      </div>
    </PortalFrame>
  );
}
