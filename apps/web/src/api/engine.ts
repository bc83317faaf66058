import type {
  ApiBody,
  AssignableUser,
  AuditFlowStep,
  EngineRecord,
  FieldOption,
  FilterFieldsResult,
  FormDetailsResult,
  NodeFields,
  OpLogEntry,
  RecordDetail,
  RecordPage,
} from '@ks/contracts';
import { paths } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { type DownloadResult, download } from './request';

/**
 * The schema engine's client (spec §7 Common): a node's fields and form, its records (list, detail, save, delete),
 * the review workflow (submit, audit, revoke, assign), the operation log, filter definitions, buttons and export.
 * Reads are query option factories; writes are plain functions. Writes are `silent`: the pages handle a 409 (someone
 * else changed or decided the record) themselves and report everything else with reportApiError.
 * Every shape is the contract's (packages/contracts/src/engine-api.ts), through the typed `call`.
 */

export type { AssignableUser, AuditFlowStep, EngineRecord, NodeFields, RecordDetail, RecordPage };

/** Record states of the review workflow (§4). */
export type RecordStatus = 'draft' | 'pending' | 'passed' | 'rejected';

/** info/v1/form/details: the form of a new record (no id: defaults, version and status null) or of an existing one. */
export type FormDetails = FormDetailsResult;

/** §3 filter definition (array/filter/directory/filter-fields). */
export type FilterDefinitionDto = FilterFieldsResult;

export type OpLogEntryDto = OpLogEntry;

/** An entry of a filter group; a tree filter's entries may carry a badge count and a score (loose FieldOption keys). */
export type FilterEntryDto = FieldOption & { badge?: number | null; score?: number | string | null };

/** What a list asks for: the page, the normalised search (§5) and whereStr conditions (filter tags, tree). */
export interface RecordListBody {
  gnCoding: string;
  pageNum: number;
  pageSize: number;
  search?: Record<string, string>;
  whereStr?: string;
  sortField?: string;
  order?: string;
}

export type RecordExportBody = Omit<RecordListBody, 'pageNum' | 'pageSize'>;

// ── reads ───────────────────────────────────────────────────────────────────

export const ENGINE_KEY = ['engine'] as const;
export const recordsKey = (gnCoding: string) => [...ENGINE_KEY, 'records', gnCoding] as const;
export const recordKey = (gnCoding: string, id: string) => [...ENGINE_KEY, 'record', gnCoding, id] as const;

export const nodeFieldsQuery = (gnCoding: string, systemCoding: string) =>
  queryOptions({
    queryKey: [...ENGINE_KEY, 'fields', gnCoding],
    queryFn: () => call('arrayFields', { data: { gnCoding, systemCoding } }),
    staleTime: 60_000,
  });

export const fetchRecords = (body: RecordListBody) => call('recordList', { data: body });

export const recordListQuery = (body: RecordListBody) =>
  queryOptions({
    queryKey: [...recordsKey(body.gnCoding), 'page', body],
    queryFn: () => fetchRecords(body),
    placeholderData: keepPreviousData,
  });

export const recordDetailQuery = (gnCoding: string, id: string) =>
  queryOptions({
    queryKey: recordKey(gnCoding, id),
    queryFn: () => call('recordDetail', { data: { gnCoding, id } }),
  });

export const recordLogsQuery = (gnCoding: string, id: string) =>
  queryOptions({
    queryKey: [...recordKey(gnCoding, id), 'logs'],
    // silent: the log view shows a failure itself (§8: server message or 请求失败)
    queryFn: () => call('recordLogs', { data: { gnCoding, id }, silent: true }),
    retry: false,
  });

export const formDetailsQuery = (gnCoding: string, systemCoding: string, id?: string | null) =>
  queryOptions({
    queryKey: [...ENGINE_KEY, 'form', gnCoding, id ?? 'new'],
    queryFn: () => call('formDetails', { data: id ? { gnCoding, systemCoding, id } : { gnCoding, systemCoding } }),
    // a form starts from what is stored now
    staleTime: 0,
    gcTime: 0,
  });

export const filterFieldsQuery = (gnCoding: string, systemCoding: string) =>
  queryOptions({
    queryKey: [...ENGINE_KEY, 'filters', gnCoding],
    // silent: a list without filter definitions still works (the filter card is then left out)
    queryFn: () => call('filterFields', { data: { gnCoding, systemCoding }, silent: true }),
    staleTime: 60_000,
    retry: false,
  });

export const assignableListQuery = (gnCoding: string, id: string) =>
  queryOptions({
    queryKey: [...recordKey(gnCoding, id), 'assignable'],
    queryFn: () => call('assignableList', { data: { gnCoding, id } }),
  });

/** The table (toolbar and row) or form buttons the caller may press on a node. */
export const nodeButtonsQuery = (gnCoding: string, systemCoding: string, kind: 'table' | 'form') =>
  queryOptions({
    queryKey: [...ENGINE_KEY, 'buttons', kind, gnCoding],
    queryFn: () => call(kind === 'table' ? 'tableButtons' : 'formButtons', { data: { gnCoding, systemCoding } }),
    staleTime: 60_000,
  });

// ── writes ──────────────────────────────────────────────────────────────────

export type SaveRecordBody = ApiBody<'recordSave'>;

export const saveRecord = (body: SaveRecordBody) => call('recordSave', { data: body, silent: true });

export type RecordStep = ApiBody<'recordSubmit'>;

export const deleteRecord = (body: { gnCoding: string; id: string }) =>
  call('recordDelete', { data: body, silent: true });
export const submitRecord = (body: RecordStep) => call('recordSubmit', { data: body, silent: true });
export const revokeRecord = (body: RecordStep) => call('recordRevoke', { data: body, silent: true });
export const auditRecord = (body: RecordStep & { pass: boolean; suggestion?: string }) =>
  call('recordAudit', { data: body, silent: true });
export const assignRecord = (body: RecordStep & { userId: string }) =>
  call('recordAssign', { data: body, silent: true });

/** The xlsx of every record matching the current filter (60 s download client). */
export const exportRecords = (body: RecordExportBody): Promise<DownloadResult> =>
  download({ url: paths.recordExport.path, method: paths.recordExport.method, data: body });

/** Hands a downloaded blob to the browser as a file. */
export function saveBlob(result: DownloadResult, fallbackName: string): void {
  const url = URL.createObjectURL(result.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = result.fileName || fallbackName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
