import {
  type HomeOverview,
  type MarketDetail,
  type MarketEntity,
  type MarketKind,
  type NoticeDetail,
  type NoticeSummary,
  type Option,
  paths,
} from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type Params, request } from '../../api/request';
import type { MarketFilters, NoticeFilters } from './query';

/** A page of records as every list endpoint answers it. */
export interface Page<T> {
  records: T[];
  total: number;
}

// The portal is public: no token is sent, so an expired session of a signed-in visitor never gets in the way.

/** Home page data. Silent: `/` counts as the sign-in page for the request client, so the page shows failures itself. */
export const homeOverviewQuery = queryOptions({
  queryKey: ['portal', 'overview'],
  queryFn: () =>
    request<HomeOverview>({
      url: paths.homeOverview.path,
      method: paths.homeOverview.method,
      isToken: false,
      silent: true,
    }),
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
    queryFn: () =>
      request<Page<NoticeSummary>>({
        url: paths.noticeList.path,
        method: paths.noticeList.method,
        params: noticeListParams(f),
        isToken: false,
      }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** Silent: an unknown or withdrawn notice (404) is shown as a friendly not-found state, not a dialog. */
export const noticeDetailQuery = (id: string) =>
  queryOptions({
    queryKey: ['portal', 'notice', id],
    queryFn: () =>
      request<NoticeDetail>({
        url: paths.noticeDetail.path,
        method: paths.noticeDetail.method,
        params: { id },
        isToken: false,
        silent: true,
      }),
    staleTime: 30_000,
  });

export const enterpriseTypesQuery = queryOptions({
  queryKey: ['portal', 'enterpriseTypes'],
  queryFn: () =>
    request<Option[]>({ url: paths.enterpriseTypes.path, method: paths.enterpriseTypes.method, isToken: false }),
  staleTime: Number.POSITIVE_INFINITY,
});

export const practiceAreasQuery = queryOptions({
  queryKey: ['portal', 'practiceAreas'],
  queryFn: () =>
    request<Option[]>({ url: paths.practiceAreas.path, method: paths.practiceAreas.method, isToken: false }),
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
    queryFn: () =>
      request<Page<MarketEntity>>({
        url: paths.marketList.path,
        method: paths.marketList.method,
        params: marketListParams(f),
        isToken: false,
      }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** Silent for the same reason as the notice detail. */
export const marketDetailQuery = (kind: MarketKind, id: string) =>
  queryOptions({
    queryKey: ['portal', 'marketDetail', kind, id],
    queryFn: () =>
      request<MarketDetail>({
        url: paths.marketDetail.path,
        method: paths.marketDetail.method,
        params: { kind, id },
        isToken: false,
        silent: true,
      }),
    staleTime: 30_000,
  });
