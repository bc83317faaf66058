import type { ApiData, ApiQuery, Page, PersonRow, PriceLimitRow } from '@ks/contracts';
import { paths } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { saveBlob } from './engine';
import { download } from './request';

/**
 * 公共数据 (issue 19, /demoPublicPage/*): published transactions, control prices, the market's people, the market
 * indicators and the monitoring report (and its PDF). The same for every signed-in user.
 */
export const PUBLIC_DATA_KEY = ['publicdata'] as const;

export type TxnFilters = ApiQuery<'publicDetailsList'> & { pageNum: number; pageSize: number };
export type PriceLimitFilters = ApiQuery<'publicPriceLimits'> & { pageNum: number; pageSize: number };
export type PersonFilters = ApiQuery<'publicPersons'> & { pageNum: number; pageSize: number };
export type IndicatorFilters = ApiQuery<'publicIndicators'>;
export type ReportFilters = ApiQuery<'publicReport'>;

const q = <N extends Parameters<typeof call>[0]>(name: N, params: unknown, enabled = true) =>
  queryOptions({
    queryKey: [...PUBLIC_DATA_KEY, name, params],
    queryFn: () => call(name, { params: params as never }),
    placeholderData: keepPreviousData,
    enabled,
  });

export const txnListQuery = (f: TxnFilters) => q('publicDetailsList', f);
export const txnDetailQuery = (id: string) => q('publicDetails', { id });
/** The page of the server-paged list; its sum of the filter's control prices through `limitAmountOf`. */
export const priceLimitQuery = (f: PriceLimitFilters) =>
  queryOptions({
    queryKey: [...PUBLIC_DATA_KEY, 'publicPriceLimits', f],
    queryFn: (): Promise<Page<PriceLimitRow>> => call('publicPriceLimits', { params: f }),
    placeholderData: keepPreviousData,
  });
export const limitAmountOf = (page: Page<PriceLimitRow> | undefined) =>
  (page as ApiData<'publicPriceLimits'> | undefined)?.amount ?? 0;

/** The page of the server-paged list; the practice areas to filter by through `practiceAreasOf`. */
export const personListQuery = (f: PersonFilters) =>
  queryOptions({
    queryKey: [...PUBLIC_DATA_KEY, 'publicPersons', f],
    queryFn: (): Promise<Page<PersonRow>> => call('publicPersons', { params: f }),
    placeholderData: keepPreviousData,
  });
export const practiceAreasOf = (page: Page<PersonRow> | undefined) =>
  (page as ApiData<'publicPersons'> | undefined)?.practiceAreas ?? [];
export const personQuery = (id: string) => q('publicPerson', { id }, id.length > 0);
export const indicatorsQuery = (f: IndicatorFilters) => q('publicIndicators', f);
export const reportQuery = (f: ReportFilters) => q('publicReport', f);

/** The monitoring report as a PDF, handed to the browser as a download. */
export async function downloadReportPdf(f: ReportFilters, fallbackName: string): Promise<void> {
  const params = new URLSearchParams({ period: f.period });
  if (f.region) params.set('region', f.region);
  const result = await download({
    url: `${paths.publicReportPdf.path}?${params}`,
    method: paths.publicReportPdf.method,
  });
  saveBlob(result, fallbackName);
}
