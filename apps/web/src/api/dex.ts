import type { DexPushPage, DexPushQuery, DexPushRow, DexRegPage, DexRegQuery, DexRegRow, Page } from '@ks/contracts';
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

// ── 监管审核: registrations pulled from the upstream, the sync job, decisions ─────────────────────────────────────

export type DexRegFilters = DexRegQuery;

/** The pulled registrations (re-read on the live `dex` event and when a sync finishes). */
export const dexRegListQuery = (f: DexRegFilters) =>
  queryOptions({
    queryKey: [...DEX_KEY, 'registrations', f],
    queryFn: (): Promise<Page<DexRegRow>> => call('dexSyncList', { data: f }),
    placeholderData: keepPreviousData,
  });

/** The latest sync; read every second while it waits or runs. */
export const dexSyncJobQuery = (active: boolean) =>
  queryOptions({
    queryKey: [...DEX_KEY, 'sync-job'],
    queryFn: () => call('dexSyncJob'),
    refetchInterval: active ? 1000 : false,
  });

export const dexRegDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...DEX_KEY, 'registration', id],
    queryFn: () => call('dexRegDetail', { data: { id } }),
    enabled: id.length > 0,
  });

export const startDexSync = (full: boolean) => call('dexSync', { data: { full } });
export const approveRegistration = (r: Pick<DexRegRow, 'id' | 'version'>) =>
  call('dexRegApprove', { data: { id: r.id, version: r.version } });
/** Silent: the reason dialog shows a refusal itself. */
export const rejectRegistration = (r: Pick<DexRegRow, 'id' | 'version'>, reason: string) =>
  call('dexRegReject', { data: { id: r.id, version: r.version, reason }, silent: true });

/** Whether the answered page says an upstream is configured (true until the first answer). */
export const regConfiguredOf = (page: Page<DexRegRow> | undefined) =>
  (page as DexRegPage | undefined)?.configured ?? true;
