import type { ApiBody, ExtractionStatus } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';

/** Expert extraction (专家抽取, issue 16). */

export const EXPERTS_KEY = ['expertExtraction'] as const;

export interface ExtractionFilters {
  keyword?: string;
  status?: ExtractionStatus;
  pageNum: number;
  pageSize: number;
}

export const extractionListQuery = (f: ExtractionFilters) =>
  queryOptions({
    queryKey: [...EXPERTS_KEY, 'list', f],
    queryFn: () => call('extractionList', { data: { keyword: f.keyword ?? '', ...f } }),
    placeholderData: keepPreviousData,
  });

export const extractionDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...EXPERTS_KEY, 'detail', id],
    queryFn: () => call('extractionDetail', { params: { id } }),
    enabled: id.length > 0,
  });

export const extractionOptionsQuery = queryOptions({
  queryKey: [...EXPERTS_KEY, 'options'],
  queryFn: () => call('extractionOptions'),
  staleTime: 30_000,
});

/** Public: a stale token does not stop it (the server treats it as anonymous). */
export const extractionVerifyQuery = (id: string) =>
  queryOptions({
    queryKey: [...EXPERTS_KEY, 'verify', id],
    queryFn: () => call('extractionVerify', { params: { id } }),
    enabled: id.length > 0,
  });

/** Silent: the form shows the refusal itself (FormDialog). */
export const createExtraction = (body: ApiBody<'extractionCreate'>) =>
  call('extractionCreate', { data: body, silent: true });
export const deleteExtraction = (id: string) => call('extractionDelete', { data: { id } });
export const commitExtraction = (id: string) => call('extractionCommit', { data: { id } });
export const drawExtraction = (id: string) => call('extractionDraw', { data: { id } });
export const answerMember = (body: ApiBody<'extractionAnswer'>) => call('extractionAnswer', { data: body });
export const finalizeExtraction = (id: string) => call('extractionFinalize', { data: { id } });
export const publishExtraction = (id: string) => call('extractionPublish', { data: { id } });
