import type {
  AssignableUser,
  FieldDef,
  FieldOption,
  FieldValues,
  FilterFieldsResult,
  FormDetailsResult,
  Operation,
  UniqueKey,
} from '@ks/contracts';
import { paths } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type DownloadResult, download, type Params, request } from './request';

/**
 * The schema engine's client (spec §7 Common): a node's fields and form, its records (list, detail, save, delete),
 * the review workflow (submit, audit, revoke, assign), the operation log, filter definitions, buttons and export.
 * Reads are query option factories; writes are plain functions. Writes are `silent`: the pages handle a 409 (someone
 * else changed or decided the record) themselves and report everything else with reportApiError.
 */

type PathName = keyof typeof paths;

function call<T>(name: PathName, options: { params?: Params; data?: unknown; silent?: boolean } = {}): Promise<T> {
  return request<T>({ url: paths[name].path, method: paths[name].method, ...options });
}

// ── shapes (mirror packages/contracts/src/engine-api.ts; the web imports no zod) ────────────────────────────────

/** Record states of the review workflow (§4). */
export type RecordStatus = 'draft' | 'pending' | 'passed' | 'rejected';

export interface EngineRecord {
  id: string;
  status: RecordStatus | string;
  version: number;
  ownerId: string;
  createdAt: string;
  updatedAt: string;
  values: FieldValues;
  /** the level now under review (0 when none) */
  auditLevel?: number;
  /** the row buttons the caller may press on this record, by its status */
  operations: Operation[];
  /** present when the server includes the audit history in a list row */
  auditFlow?: AuditFlowStep[];
}

/** One step of a record's audit history. */
export interface AuditFlowStep {
  level: number;
  /** submit | pass | reject | revoke */
  action: string;
  suggestion: string | null;
  userName: string;
  round: number;
  time: string;
}

export interface RecordDetail extends EngineRecord {
  auditLevel: number;
  auditFlow: AuditFlowStep[];
}

export interface RecordPage {
  records: EngineRecord[];
  total: number;
  /** the server counted up to `total` and more match (shown as 共 n+ 条) */
  totalCapped?: boolean;
}

export interface NodeFields {
  fields: FieldDef[];
  version: number;
  /** the node's uniqueness constraints (absent from servers before them) */
  uniqueKeys?: UniqueKey[];
}

/** info/v1/form/details: the form of a new record (no id: defaults, version and status null) or of an existing one. */
export type FormDetails = FormDetailsResult;

export type FilterEntryDto = FieldOption & { badge?: number | null; score?: number | string | null };

/** §3 filter definition (array/filter/directory/filter-fields). */
export type FilterDefinitionDto = FilterFieldsResult;

export type { AssignableUser };

export interface OpLogEntryDto {
  glName: string;
  czrClassification: string;
  czrName: string;
  logbook: string;
  failInfo: string | null;
  czTime: string;
}

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
    queryFn: () => call<NodeFields>('arrayFields', { data: { gnCoding, systemCoding } }),
    staleTime: 60_000,
  });

export const fetchRecords = (body: RecordListBody) => call<RecordPage>('recordList', { data: body });

export const recordListQuery = (body: RecordListBody) =>
  queryOptions({
    queryKey: [...recordsKey(body.gnCoding), 'page', body],
    queryFn: () => fetchRecords(body),
    placeholderData: keepPreviousData,
  });

export const recordDetailQuery = (gnCoding: string, id: string) =>
  queryOptions({
    queryKey: recordKey(gnCoding, id),
    queryFn: () => call<RecordDetail>('recordDetail', { data: { gnCoding, id } }),
  });

export const recordLogsQuery = (gnCoding: string, id: string) =>
  queryOptions({
    queryKey: [...recordKey(gnCoding, id), 'logs'],
    // silent: the log view shows a failure itself (§8: server message or 请求失败)
    queryFn: () => call<OpLogEntryDto[]>('recordLogs', { data: { gnCoding, id }, silent: true }),
    retry: false,
  });

export const formDetailsQuery = (gnCoding: string, systemCoding: string, id?: string | null) =>
  queryOptions({
    queryKey: [...ENGINE_KEY, 'form', gnCoding, id ?? 'new'],
    queryFn: () =>
      call<FormDetails>('formDetails', { data: id ? { gnCoding, systemCoding, id } : { gnCoding, systemCoding } }),
    // a form starts from what is stored now
    staleTime: 0,
    gcTime: 0,
  });

export const filterFieldsQuery = (gnCoding: string, systemCoding: string) =>
  queryOptions({
    queryKey: [...ENGINE_KEY, 'filters', gnCoding],
    // silent: a list without filter definitions still works (the filter card is then left out)
    queryFn: () => call<FilterDefinitionDto | null>('filterFields', { data: { gnCoding, systemCoding }, silent: true }),
    staleTime: 60_000,
    retry: false,
  });

export const assignableListQuery = (gnCoding: string, id: string) =>
  queryOptions({
    queryKey: [...recordKey(gnCoding, id), 'assignable'],
    queryFn: () => call<AssignableUser[]>('assignableList', { data: { gnCoding, id } }),
  });

/** The table (toolbar and row) or form buttons the caller may press on a node. */
export const nodeButtonsQuery = (gnCoding: string, systemCoding: string, kind: 'table' | 'form') =>
  queryOptions({
    queryKey: [...ENGINE_KEY, 'buttons', kind, gnCoding],
    queryFn: () =>
      call<Operation[]>(kind === 'table' ? 'tableButtons' : 'formButtons', { data: { gnCoding, systemCoding } }),
    staleTime: 60_000,
  });

// ── writes ──────────────────────────────────────────────────────────────────

export interface SaveRecordBody {
  gnCoding: string;
  id?: string;
  version?: number;
  values: FieldValues;
}

export const saveRecord = (body: SaveRecordBody) => call<EngineRecord>('recordSave', { data: body, silent: true });

export interface RecordStep {
  gnCoding: string;
  id: string;
  version: number;
}

export const deleteRecord = (body: { gnCoding: string; id: string }) =>
  call<null>('recordDelete', { data: body, silent: true });
export const submitRecord = (body: RecordStep) => call<RecordDetail>('recordSubmit', { data: body, silent: true });
export const revokeRecord = (body: RecordStep) => call<RecordDetail>('recordRevoke', { data: body, silent: true });
export const auditRecord = (body: RecordStep & { pass: boolean; suggestion?: string }) =>
  call<RecordDetail>('recordAudit', { data: body, silent: true });
export const assignRecord = (body: RecordStep & { userId: string }) =>
  call<unknown>('recordAssign', { data: body, silent: true });

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
