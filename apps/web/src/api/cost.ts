import type { ApiBody, CostDirectoriesQuery } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { UPLOAD_REQUEST_TIMEOUT_MS } from './files';

/**
 * 造价文件检测 (issue 18): the sections with bids, one section's files and detection, the findings, a file's cost
 * tree; uploads and starting a detection. Pages re-read on the live `cost` event and, while a detection runs, every
 * few seconds.
 */
export const COST_KEY = ['cost'] as const;
export type CostFilters = CostDirectoriesQuery;

export const costDirectoriesQuery = (f: CostFilters) =>
  queryOptions({
    queryKey: [...COST_KEY, 'directories', f],
    queryFn: () => call('costDirectories', { data: f }),
    placeholderData: keepPreviousData,
  });

export const costStatusQuery = (sectionId: string, running = false) =>
  queryOptions({
    queryKey: [...COST_KEY, 'status', sectionId],
    queryFn: () => call('costStatus', { data: { sectionId } }),
    enabled: sectionId.length > 0,
    refetchInterval: running ? 2000 : false,
  });

export const costAchievementQuery = (sectionId: string, enabled: boolean) =>
  queryOptions({
    queryKey: [...COST_KEY, 'achievement', sectionId],
    queryFn: () => call('costAchievement', { data: { sectionId } }),
    enabled: enabled && sectionId.length > 0,
  });

export const costScoreQuery = (sectionId: string, enabled: boolean) =>
  queryOptions({
    queryKey: [...COST_KEY, 'score', sectionId],
    queryFn: () => call('costScore', { data: { sectionId } }),
    enabled: enabled && sectionId.length > 0,
  });

export const costParseDataQuery = (id: string) =>
  queryOptions({
    queryKey: [...COST_KEY, 'file', id],
    queryFn: () => call('costParseData', { data: { id } }),
    enabled: id.length > 0,
  });

export const startCostDetection = (sectionId: string) => call('costDetection', { data: { sectionId } });

/** A bidder's cost file (fields before the file: the server checks them before it reads the bytes). */
export function uploadCostFile(sectionId: string, enterpriseId: string, file: File) {
  const fd = new FormData();
  fd.append('sectionId', sectionId);
  fd.append('enterpriseId', enterpriseId);
  fd.append('file', file, file.name);
  return call('costUpload', { data: fd, silent: true, timeout: UPLOAD_REQUEST_TIMEOUT_MS });
}

export const costSettingsQuery = () =>
  queryOptions({ queryKey: [...COST_KEY, 'settings'], queryFn: () => call('costSettings') });
/** Silent: the dialog shows a refusal itself. */
export const saveCostSettings = (body: ApiBody<'costSettingsSave'>) =>
  call('costSettingsSave', { data: body, silent: true });

/** The permitted summary (an administrator's preview, or the published one a bidder reads); silent: the page shows it. */
export const costPublicityQuery = (sectionId: string, enabled = true) =>
  queryOptions({
    queryKey: [...COST_KEY, 'publicity', sectionId],
    queryFn: () => call('costPublicitySummary', { data: { sectionId }, silent: true }),
    enabled: enabled && sectionId.length > 0,
    retry: false,
  });
export const publishCostResults = (sectionId: string, publish: boolean) =>
  call('costPublicity', { data: { sectionId, publish } });
