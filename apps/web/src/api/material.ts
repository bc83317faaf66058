import type { ApiBody, MaterialHistoryListQuery, MaterialPriceListQuery } from '@ks/contracts';
import { paths } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { saveBlob } from './engine';
import { download } from './request';

/**
 * 材料信息价 (issue 19): the public reads (no token: a visitor's or an expired session never gets in the way) and the
 * administrators' periods, import, publication and template. Changes are `silent`: the page shows the server's
 * message (an import's bad rows in a table).
 */
export const MATERIAL_KEY = ['material'] as const;
const pub = { isToken: false } as const;

export const materialPeriodsQuery = (city?: string) =>
  queryOptions({
    queryKey: [...MATERIAL_KEY, 'periods', city ?? ''],
    queryFn: () => call('materialPricePeriods', { params: city ? { city } : {}, ...pub }),
    staleTime: 60_000,
  });

export const materialCitiesQuery = () =>
  queryOptions({
    queryKey: [...MATERIAL_KEY, 'cities'],
    queryFn: () => call('materialHistoryCities', { data: {}, ...pub }),
    staleTime: 60_000,
  });

type Scope = { city: string; period?: string };
export const materialClassesQuery = (s: Scope) =>
  queryOptions({
    queryKey: [...MATERIAL_KEY, 'classes', s],
    queryFn: () => call('materialPriceClassifications', { data: s, ...pub }),
    enabled: !!s.city,
    staleTime: 60_000,
  });
export const materialCountiesQuery = (s: Scope) =>
  queryOptions({
    queryKey: [...MATERIAL_KEY, 'counties', s],
    queryFn: () => call('materialPriceCounties', { data: s, ...pub }),
    enabled: !!s.city,
    staleTime: 60_000,
  });
export const materialGroupsQuery = (s: Scope & { classification?: string }) =>
  queryOptions({
    queryKey: [...MATERIAL_KEY, 'groups', s],
    queryFn: () => call('materialPriceGroups', { data: s, ...pub }),
    enabled: !!s.city,
    staleTime: 60_000,
  });

export const materialInfoQuery = (q: MaterialPriceListQuery) =>
  queryOptions({
    queryKey: [...MATERIAL_KEY, 'info', q],
    queryFn: () => call('materialPriceInfo', { data: q, ...pub }),
    enabled: !!q.city,
    placeholderData: keepPreviousData,
  });

export const materialHistoryInfoQuery = (q: MaterialHistoryListQuery) =>
  queryOptions({
    queryKey: [...MATERIAL_KEY, 'history-info', q],
    queryFn: () => call('materialHistoryInfo', { data: q, ...pub }),
    enabled: !!q.city,
    placeholderData: keepPreviousData,
  });

export const materialTrendQuery = (m: ApiBody<'materialHistory'> | null) =>
  queryOptions({
    queryKey: [...MATERIAL_KEY, 'trend', m],
    queryFn: () => call('materialHistory', { data: m!, ...pub }),
    enabled: m !== null,
  });

// --- administration -----------------------------------------------------------------------------------------------

export const materialAdminPeriodsQuery = (q: {
  status?: 'draft' | 'published' | 'withdrawn';
  city?: string;
  pageNum: number;
  pageSize: number;
}) =>
  queryOptions({
    queryKey: [...MATERIAL_KEY, 'admin-periods', q],
    queryFn: () => call('materialAdminPeriods', { params: q }),
    placeholderData: keepPreviousData,
  });

export const materialAdminRowsQuery = (q: ApiBody<'materialAdminRows'> | null) =>
  queryOptions({
    queryKey: [...MATERIAL_KEY, 'admin-rows', q],
    queryFn: () => call('materialAdminRows', { data: q! }),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });

/** Import a period (fields before the file: the server checks them before it reads the bytes). */
export function importMaterialPeriod(period: string, city: string, file: File) {
  const fd = new FormData();
  fd.append('period', period);
  fd.append('city', city);
  fd.append('file', file, file.name);
  return call('materialImport', { data: fd, silent: true, timeout: 300_000 });
}
export const publishMaterialPeriod = (id: string) => call('materialPublish', { data: { id } });
export const withdrawMaterialPeriod = (id: string) => call('materialWithdraw', { data: { id } });
export const deleteMaterialPeriod = (id: string) => call('materialDelete', { data: { id } });

export async function downloadMaterialTemplate() {
  saveBlob(await download({ url: paths.materialTemplate.path, method: 'GET' }), '材料信息价导入模板.xlsx');
}
