import type { DexPushPage, DexPushQuery, DexPushRow, Page } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';

/** 数据交换 (issue 19): the push records, one push's attempts, re-sending a failed push. */
export const DEX_KEY = ['dex'] as const;
export type DexPushFilters = DexPushQuery;

/**
 * The list re-reads every few seconds: the runner works in the background. Its page also says whether an upstream
 * is configured (`configuredOf`).
 */
export const dexPushListQuery = (f: DexPushFilters) =>
  queryOptions({
    queryKey: [...DEX_KEY, 'pushes', f],
    queryFn: (): Promise<Page<DexPushRow>> => call('dexPushList', { data: f }),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });

export const dexPushDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...DEX_KEY, 'push', id],
    queryFn: () => call('dexPushDetail', { data: { id } }),
    enabled: id.length > 0,
    refetchInterval: 5000,
  });

export const resendPush = (id: string) => call('dexPushResend', { data: { id } });

/** Whether the answered page says an upstream is configured (true until the first answer). */
export const configuredOf = (page: Page<DexPushRow> | undefined) =>
  (page as DexPushPage | undefined)?.configured ?? true;
