import {
  AGENCY_TYPE,
  CREDIT_GRADES,
  MARKET_KIND_LABELS,
  MARKET_KINDS,
  type MarketEntity,
  type MarketKind,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { creditLevelsQuery, enterpriseTypesQuery, marketListQuery, practiceAreasQuery } from './api';
import { PortalFrame } from './PortalFrame';
import { type MarketFilters, marketFiltersToSearch, parseMarketFilters } from './query';
import { Breadcrumb, ChipGroup, Empty, ErrorState, GradeTag, KeywordForm, Pagination, SkeletonLines, Tabs } from './ui';

export function detailLink(kind: MarketKind, id: string): string {
  return `/market-details?kind=${kind}&id=${encodeURIComponent(id)}`;
}

interface Column {
  title: string;
  render: (e: MarketEntity) => ReactNode;
  className?: string;
}

function columnsFor(kind: MarketKind): Column[] {
  const name: Column = {
    title: kind === 'practitioner' ? '姓名' : kind === 'agency' ? '机构名称' : '企业名称',
    className: 'kp-col-name',
    render: (e) => (
      <Link to={detailLink(kind, e.id)} data-testid="market-name">
        {e.name}
      </Link>
    ),
  };
  const grade: Column = { title: '信用等级', render: (e) => <GradeTag grade={e.creditGrade} /> };
  const region: Column = { title: '所在地区', render: (e) => e.region || '—' };
  if (kind === 'practitioner') {
    return [
      name,
      { title: '证书编号', render: (e) => e.code },
      { title: '执业领域', render: (e) => e.type || '—' },
      { title: '所在企业', render: (e) => e.enterpriseName || '—' },
      grade,
    ];
  }
  return [
    name,
    { title: '统一社会信用代码', render: (e) => e.code },
    { title: kind === 'agency' ? '机构类型' : '企业类型', render: (e) => e.type || '—' },
    region,
    grade,
  ];
}

function Filters({ filters, apply }: { filters: MarketFilters; apply: (next: Partial<MarketFilters>) => void }) {
  const [keyword, setKeyword] = useState(filters.keyword ?? '');
  useEffect(() => setKeyword(filters.keyword ?? ''), [filters.keyword]);
  const types = useQuery({ ...enterpriseTypesQuery, enabled: filters.kind === 'enterprise' });
  const areas = useQuery({ ...practiceAreasQuery, enabled: filters.kind === 'practitioner' });
  // the level titles administrators set (AAA … C until they rename them)
  const levels = useQuery(creditLevelsQuery);
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    apply({ keyword: keyword.trim() || undefined });
  };
  const reset = () => {
    setKeyword('');
    apply({ enterpriseType: undefined, practiceArea: undefined, creditGrade: undefined, keyword: undefined });
  };
  return (
    <section className="kp-card kp-filters" aria-label="筛选条件" data-testid="market-filters">
      {filters.kind === 'enterprise' ? (
        <ChipGroup
          label="企业类型"
          testId="filter-enterprise-type"
          options={(types.data ?? []).filter((o) => o.value !== AGENCY_TYPE)}
          value={filters.enterpriseType}
          onChange={(enterpriseType) => apply({ enterpriseType })}
        />
      ) : null}
      {filters.kind === 'practitioner' ? (
        <ChipGroup
          label="执业领域"
          testId="filter-practice-area"
          options={areas.data ?? []}
          value={filters.practiceArea}
          onChange={(practiceArea) => apply({ practiceArea })}
        />
      ) : null}
      <ChipGroup
        label="信用等级"
        testId="filter-credit-grade"
        options={levels.data?.levels.map((l) => l.title) ?? CREDIT_GRADES}
        value={filters.creditGrade}
        onChange={(creditGrade) => apply({ creditGrade })}
      />
      <KeywordForm
        className="kp-filter-row kp-keyword"
        label="关键字："
        placeholder={filters.kind === 'practitioner' ? '姓名' : '名称或统一社会信用代码'}
        value={keyword}
        onChange={setKeyword}
        onSubmit={onSearch}
        onReset={reset}
      />
    </section>
  );
}

/** 市场主体列表 `/market-list?kind=enterprise|agency|practitioner&…`: filters and page live in the URL query. */
export default function MarketListPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = parseMarketFilters(searchParams);
  const { data, isPending, isError, isFetching, refetch } = useQuery(marketListQuery(filters));
  const label = MARKET_KIND_LABELS[filters.kind];
  const columns = columnsFor(filters.kind);

  const apply = (next: Partial<MarketFilters>) => {
    setSearchParams(marketFiltersToSearch({ ...filters, ...next, pageNum: next.pageNum ?? 1 }));
  };
  const switchKind = (kind: MarketKind) => {
    // the type filters belong to one kind; grade and keyword carry over
    setSearchParams(
      marketFiltersToSearch({
        kind,
        creditGrade: filters.creditGrade,
        keyword: filters.keyword,
        pageNum: 1,
        pageSize: filters.pageSize,
      }),
    );
  };

  return (
    <PortalFrame>
      <div className="kp-container kp-page">
        <Breadcrumb items={[{ label: '首页', to: '/' }, { label: '市场主体', to: '/market' }, { label }]} />
        <div className="kp-card kp-kind-tabs">
          <Tabs
            label="主体类别"
            testId="market-kind-tabs"
            items={MARKET_KINDS.map((k) => ({ key: k, label: MARKET_KIND_LABELS[k] }))}
            active={filters.kind}
            onChange={switchKind}
          />
        </div>
        <Filters key={filters.kind} filters={filters} apply={apply} />
        <div className="kp-card kp-list-card">
          <div className="kp-list-head">
            <h1 className="kp-card-title">{label}</h1>
            {data ? (
              <span className="kp-muted">
                共 <strong data-testid="market-total">{data.total}</strong> 条
              </span>
            ) : null}
          </div>
          {isPending ? (
            <SkeletonLines rows={10} testId="market-skeleton" />
          ) : isError ? (
            <ErrorState onRetry={() => void refetch()} />
          ) : data.records.length === 0 ? (
            <Empty />
          ) : (
            <div className="kp-table-wrap">
              <table className={isFetching ? 'kp-table is-stale' : 'kp-table'} data-testid="market-table">
                <thead>
                  <tr>
                    {columns.map((c) => (
                      <th key={c.title} scope="col">
                        {c.title}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.records.map((e) => (
                    <tr key={e.id} data-testid="market-row">
                      {columns.map((c) => (
                        <td key={c.title} className={c.className}>
                          {c.render(e)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {data && data.total > 0 ? (
            <Pagination
              total={data.total}
              pageNum={filters.pageNum}
              pageSize={filters.pageSize}
              onChange={(pageNum, pageSize) => apply({ pageNum, pageSize })}
            />
          ) : null}
        </div>
      </div>
    </PortalFrame>
  );
}
