import { type ApiBody, type MonitorListQuery, paths } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { saveBlob } from './engine';
import { download } from './request';

/**
 * 监督台 (issue 17): the supervision console's list, one section's supervision, and its steps (assign, revoke, audit).
 * Every step answers the section's view as it is now; the console re-reads on the live events `monitor`,
 * `evaluation` and `opening`.
 */
export const MONITOR_KEY = ['monitor'] as const;

export type MonitorFilters = MonitorListQuery;

export const monitorListQuery = (f: MonitorFilters) =>
  queryOptions({
    queryKey: [...MONITOR_KEY, 'list', f],
    queryFn: () => call('monitorList', { data: f }),
    placeholderData: keepPreviousData,
  });

export const monitorViewKey = (sectionId: string) => [...MONITOR_KEY, 'view', sectionId] as const;
export const monitorViewQuery = (sectionId: string) =>
  queryOptions({
    queryKey: monitorViewKey(sectionId),
    queryFn: () => call('monitorView', { data: { sectionId } }),
    enabled: sectionId.length > 0,
  });

/** Silent: the dialogs show a refusal themselves. */
export const monitorAssign = (body: ApiBody<'monitorAssign'>) => call('monitorAssign', { data: body, silent: true });
export const monitorRevoke = (body: ApiBody<'monitorRevoke'>) => call('monitorRevoke', { data: body, silent: true });
export const monitorAudit = (body: ApiBody<'monitorAudit'>) => call('monitorAudit', { data: body, silent: true });
export const monitorPublish = (sectionId: string, id: string) => call('monitorPublish', { data: { sectionId, id } });

/** The filtered console as xlsx, handed to the browser as a download. */
export async function downloadMonitor(f: Omit<MonitorFilters, 'pageNum' | 'pageSize'>) {
  const q = new URLSearchParams();
  if (f.stage) q.set('stage', f.stage);
  if (f.keyWord) q.set('keyWord', f.keyWord);
  if (f.mine) q.set('mine', 'true');
  if (f.pending) q.set('pending', 'true');
  const result = await download({ url: `${paths.monitorExport.path}?${q}`, method: paths.monitorExport.method });
  saveBlob(result, '监督台.xlsx');
}
