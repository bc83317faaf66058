import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  Breadcrumb,
  ChipGroup,
  Empty,
  ErrorState,
  GradeTag,
  KeywordForm,
  Pagination,
  PortalFrame,
  SkeletonLines,
} from '../portal';
import { publicLevelsQuery, publicListQuery } from './api';
import { type PublicListFilters, parsePublicFilters, publicFiltersToSearch, totalText, validityText } from './query';
import './credit-public.css';

export const PORTAL_TITLE = '信用公示';
export const PORTAL_NOTE =
  '公示企业的信用等级、信用分与有效期，等级由平台按信用评价标准根据审核通过的良好、不良行为记录评定；信用记录的证明材料和个人信息不予公示。';

const COLUMNS = ['企业名称', '统一社会信用代码', '信用等级', '信用分', '评定日期', '有效期至'] as const;

/**
 * 信用公示 `/credit/creditPublicList` for visitors (no sign-in), in the light portal frame (no UI kit): search by the start
 * of a name (or any part) or by an 18-character credit code, filter by the levels administrators set, page. Each row is
 * a name, code, level, score and how long the grade holds — the server answers nothing else. On a phone the rows become
 * cards.
 */
export default function PublicPortalPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = parsePublicFilters(searchParams);
  const { data, isPending, isError, isFetching, refetch } = useQuery(publicListQuery(filters));
  const levels = useQuery(publicLevelsQuery);
  const [keyword, setKeyword] = useState(filters.keyword ?? '');
  useEffect(() => setKeyword(filters.keyword ?? ''), [filters.keyword]);

  const apply = (next: Partial<PublicListFilters>) =>
    setSearchParams(publicFiltersToSearch({ ...filters, ...next, pageNum: next.pageNum ?? 1 }));
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    apply({ keyword: keyword.trim() || undefined });
  };
  const reset = () => {
    setKeyword('');
    apply({ keyword: undefined, level: undefined, match: 'prefix' });
  };
  const levelOptions = (levels.data?.levels ?? []).map((l) => ({
    value: l.title,
    label: l.maxScore === null ? `${l.title}（≥${l.minScore}）` : `${l.title}（${l.minScore}–${l.maxScore}）`,
  }));

  return (
    <PortalFrame>
      <div className="kp-container kp-page">
        <Breadcrumb items={[{ label: '首页', to: '/' }, { label: PORTAL_TITLE }]} />
        <section className="kp-card kp-filters" aria-label="查询条件" data-testid="public-filters">
          <KeywordForm
            className="kp-filter-row kp-keyword"
            label="企业查询："
            placeholder="企业名称或统一社会信用代码"
            value={keyword}
            onChange={setKeyword}
            onSubmit={onSearch}
            onReset={reset}
          />
          <fieldset className="kp-filter-row kp-fieldset" aria-label="名称匹配" data-testid="public-match">
            <span className="kp-filter-label" aria-hidden>
              名称匹配：
            </span>
            <div className="kp-chips">
              {(
                [
                  ['prefix', '名称开头'],
                  ['contains', '名称包含'],
                ] as const
              ).map(([value, label]) => (
                <button
                  key={value}
                  type="button"
                  className={filters.match === value ? 'kp-chip is-active' : 'kp-chip'}
                  aria-pressed={filters.match === value}
                  onClick={() => apply({ match: value, keyword: keyword.trim() || undefined })}
                >
                  {label}
                </button>
              ))}
            </div>
          </fieldset>
          <ChipGroup
            label="信用等级"
            testId="public-level-filter"
            options={levelOptions}
            value={filters.level}
            onChange={(level) => apply({ level })}
          />
        </section>
        <div className="kp-card kp-list-card" data-testid="credit-public-portal">
          <div className="kp-list-head">
            <h1 className="kp-card-title">{PORTAL_TITLE}</h1>
            {data ? (
              <span className="kp-muted">
                共 <strong data-testid="public-total">{totalText(data.total, data.totalCapped)}</strong> 家企业
              </span>
            ) : null}
          </div>
          <p className="kp-muted kp-credit-note">{PORTAL_NOTE}</p>
          {isPending ? (
            <SkeletonLines rows={10} testId="public-skeleton" />
          ) : isError ? (
            <ErrorState onRetry={() => void refetch()} />
          ) : data.records.length === 0 ? (
            <Empty text={filters.keyword ? '没有名称或信用代码符合条件的企业' : '暂无数据'} />
          ) : (
            <div className="kp-table-wrap">
              <table
                className={isFetching ? 'kp-table kp-credit-table is-stale' : 'kp-table kp-credit-table'}
                data-testid="public-table"
              >
                <thead>
                  <tr>
                    {COLUMNS.map((c) => (
                      <th key={c} scope="col">
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.records.map((r) => (
                    <tr key={r.creditCode} data-testid="public-row">
                      <td className="kp-credit-name" data-label="企业名称">
                        {r.name}
                      </td>
                      <td data-label="统一社会信用代码" className="kp-credit-code">
                        {r.creditCode}
                      </td>
                      <td data-label="信用等级">
                        {r.level ? <GradeTag grade={r.level} /> : <span className="kp-muted">未评定</span>}
                      </td>
                      <td data-label="信用分">{r.score ?? '—'}</td>
                      <td data-label="评定日期">{r.evaluatedOn ?? '—'}</td>
                      <td data-label="有效期至">{validityText(r.validUntil, r.evaluatedOn)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {data && data.total > 0 ? (
            <Pagination
              total={data.total}
              totalLabel={totalText(data.total, data.totalCapped)}
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
