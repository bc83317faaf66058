import type { MarketKind } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call';
import type { Params } from '../../api/request';
import type { MarketFilters, NoticeFilters } from './query';

// The portal is public: no token is sent, so an expired session of a signed-in visitor never gets in the way.

/** Home page data. Silent: `/` counts as the sign-in page for the request client, so the page shows failures itself. */
export const homeOverviewQuery = queryOptions({
  queryKey: ['portal', 'overview'],
  queryFn: () => call('homeOverview', { isToken: false, silent: true }),
  staleTime: 60_000,
});

export function noticeListParams(f: NoticeFilters): Params {
  return {
    category: f.category,
    tradeType: f.tradeType,
    region: f.region,
    startDate: f.startDate,
    endDate: f.endDate,
    keyword: f.keyword,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}

export const noticeListQuery = (f: NoticeFilters) =>
  queryOptions({
    queryKey: ['portal', 'notices', noticeListParams(f)],
    queryFn: () => call('noticeList', { params: noticeListParams(f), isToken: false }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** Silent: an unknown or withdrawn notice (404) is shown as a friendly not-found state, not a dialog. */
export const noticeDetailQuery = (id: string) =>
  queryOptions({
    queryKey: ['portal', 'notice', id],
    queryFn: () => call('noticeDetail', { params: { id }, isToken: false, silent: true }),
    staleTime: 30_000,
  });

export const enterpriseTypesQuery = queryOptions({
  queryKey: ['portal', 'enterpriseTypes'],
  queryFn: () => call('enterpriseTypes', { isToken: false }),
  staleTime: Number.POSITIVE_INFINITY,
});

export const practiceAreasQuery = queryOptions({
  queryKey: ['portal', 'practiceAreas'],
  queryFn: () => call('practiceAreas', { isToken: false }),
  staleTime: Number.POSITIVE_INFINITY,
});

export function marketListParams(f: MarketFilters): Params {
  return {
    kind: f.kind,
    enterpriseType: f.kind === 'enterprise' ? f.enterpriseType : undefined,
    practiceArea: f.kind === 'practitioner' ? f.practiceArea : undefined,
    creditGrade: f.creditGrade,
    keyword: f.keyword,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}

export const marketListQuery = (f: MarketFilters) =>
  queryOptions({
    queryKey: ['portal', 'market', marketListParams(f)],
    queryFn: () => call('marketList', { params: marketListParams(f), isToken: false }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** Silent for the same reason as the notice detail. */
export const marketDetailQuery = (kind: MarketKind, id: string) =>
  queryOptions({
    queryKey: ['portal', 'marketDetail', kind, id],
    queryFn: () => call('marketDetail', { params: { kind, id }, isToken: false, silent: true }),
    staleTime: 30_000,
  });

/** The credit levels administrators set (titles, highest first), for the level filters of the public pages. */
export const creditLevelsQuery = queryOptions({
  queryKey: ['credit-public', 'levels'],
  queryFn: () => call('creditPublicLevels', { isToken: false }),
  staleTime: 5 * 60_000,
});
