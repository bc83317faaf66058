import {
  type ApiBody,
  type ApiData,
  CREDIT_NODE,
  type CreditRecord,
  type CreditSubjectKind,
  paths,
} from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call';
import { saveBlob } from '../../api/engine';
import { download, isApiError, reportApiError } from '../../api/request';

/**
 * The credit calls the records workspace makes (spec §7 Credit; shapes in packages/contracts/src/credit-api.ts).
 * Changes are `silent`: their dialogs put field errors on fields and report the rest (applySaveError).
 */

export type { CreditRecord };
export type CreditInfo = ApiData<'creditInfo'>;
export type CreditTree = ApiData<'creditLeftTree'>;
export type CreditTreeGroup = CreditTree['children'][number];
export type CreditTreeLeaf = CreditTreeGroup['children'][number];
export type CreditSubjectRow = ApiData<'creditCommonList'>['records'][number];
export type CreditTopTitles = ApiData<'creditTopTitles'>;
export type CreditSelectTypes = ApiData<'creditAdminSelectType'>;
export type CreditLevelTitles = ApiData<'creditLevelTitles'>;
export type CreditRetrieveResult = ApiData<'creditAutoRetrieve'>;
export type CreditGrade = NonNullable<CreditInfo['grade']>;
export type RecordValues = Omit<ApiBody<'creditRecordAdd'>, 'subjectKind' | 'subjectId'>;

/** One subject's credit: an enterprise (absent id: the caller's own) or a person. */
export interface SubjectRef {
  subjectKind: CreditSubjectKind;
  subjectId?: string;
}

export interface SubjectListFilters {
  subjectKind: CreditSubjectKind;
  keyword?: string;
  level?: string;
  pageNum: number;
  pageSize: number;
}

export interface ManagementFilters {
  subjectKind?: CreditSubjectKind;
  status?: CreditRecord['status'];
  conduct?: CreditRecord['conduct'];
  standardId?: string;
  keyword?: string;
  pageNum: number;
  pageSize: number;
}

export interface RecordListFilters extends SubjectRef {
  status?: CreditRecord['status'];
  conduct?: CreditRecord['conduct'];
  standardId?: string;
  xxGrouping?: string;
  pageNum: number;
  pageSize: number;
}

/** The credit system and node evidence files are uploaded for (the files module binds them to the record). */
export const CREDIT_SYSTEM = 'XYGL';
export const EVIDENCE_TARGET = { gnCoding: CREDIT_NODE, systemCoding: CREDIT_SYSTEM } as const;

export const CREDIT_KEY = ['credit'] as const;

/** A reviewer probe: 403 for enterprise users (they get their own side), shown by nobody. */
export const selectTypesQuery = queryOptions({
  queryKey: [...CREDIT_KEY, 'selectTypes'],
  queryFn: () => call('creditAdminSelectType', { silent: true }),
  retry: false,
  staleTime: 60_000,
});

/** A failure other than 403 is reported the usual way; a 403 the page shows itself. */
const reportUnlessForbidden = (err: unknown) => {
  if (isApiError(err) && err.status !== 403) reportApiError(err);
  throw err;
};

export const topTitlesQuery = queryOptions({
  queryKey: [...CREDIT_KEY, 'topTitles'],
  queryFn: () => call('creditTopTitles', { silent: true }).catch(reportUnlessForbidden),
  retry: false,
});

export const leftTreeQuery = (ref: SubjectRef | null) =>
  queryOptions({
    queryKey: [...CREDIT_KEY, 'tree', ref],
    queryFn: () => call('creditLeftTree', { data: ref ?? {}, silent: true }).catch(reportUnlessForbidden),
    retry: false,
  });

export const infoQuery = (ref: SubjectRef) =>
  queryOptions({
    queryKey: [...CREDIT_KEY, 'info', ref],
    queryFn: () => call('creditInfo', { data: ref, silent: true }).catch(reportUnlessForbidden),
    retry: false,
  });

export const subjectListQuery = (f: SubjectListFilters) =>
  queryOptions({
    queryKey: [...CREDIT_KEY, 'subjects', f],
    queryFn: () => call('creditCommonList', { data: f }),
    placeholderData: keepPreviousData,
    retry: false,
  });

export const managementListQuery = (f: ManagementFilters) =>
  queryOptions({
    queryKey: [...CREDIT_KEY, 'management', f],
    queryFn: () => call('creditManagementList', { data: f }),
    placeholderData: keepPreviousData,
    retry: false,
  });

export const recordListQuery = (f: RecordListFilters) =>
  queryOptions({
    queryKey: [...CREDIT_KEY, 'records', f],
    queryFn: () => call('creditRecordList', { data: f }),
    placeholderData: keepPreviousData,
    retry: false,
  });

export const levelTitlesQuery = queryOptions({
  queryKey: [...CREDIT_KEY, 'levels'],
  queryFn: () => call('creditLevelTitles'),
  retry: false,
});

export const descriptionQuery = queryOptions({
  queryKey: [...CREDIT_KEY, 'description'],
  queryFn: () => call('creditRecordDescription'),
  staleTime: 60_000,
  retry: false,
});

/** The enterprise's persons (its own only), for declaring a person's record. */
export const personOptionsQuery = queryOptions({
  queryKey: [...CREDIT_KEY, 'persons'],
  queryFn: () => call('creditPersonalPullDown', { params: {} }),
  staleTime: 60_000,
  retry: false,
});

// ── changes ─────────────────────────────────────────────────────────────────

export const addRecord = (body: ApiBody<'creditRecordAdd'>) => call('creditRecordAdd', { data: body, silent: true });
export const updateRecord = (body: ApiBody<'creditRecordUpdate'>) =>
  call('creditRecordUpdate', { data: body, silent: true });
export const deleteRecord = (r: CreditRecord) => call('creditRecordDelete', { data: { id: r.id, version: r.version } });
export const submitRecord = (r: CreditRecord) => call('creditRecordSubmit', { data: { id: r.id, version: r.version } });
/** The side withdraws a submission (撤回); a reviewer revokes a passed record with a reason (撤销). */
export const revokeRecord = (r: CreditRecord, reason?: string) =>
  call('creditRecordRevoke', { data: { id: r.id, version: r.version, reason }, silent: reason !== undefined });
export const auditRecord = (r: CreditRecord, d: { pass: boolean; suggestion?: string; score?: number }) =>
  call('creditRecordAudit', { data: { id: r.id, version: r.version, ...d }, silent: true });
export const autoRetrieve = (ref: SubjectRef) => call('creditAutoRetrieve', { data: ref });
export const saveLevelTitles = (body: ApiBody<'creditLevelTitlesSave'>) =>
  call('creditLevelTitlesSave', { data: body, silent: true });

/** The xlsx of grades (one row per subject) or records; enterprise users get their own only. */
export async function exportCredit(body: ApiBody<'creditExport'>): Promise<void> {
  const file = await download({ url: paths.creditExport.path, method: paths.creditExport.method, data: body });
  saveBlob(file, body.type === 'records' ? '信用记录.xlsx' : '信用等级.xlsx');
}

/** Where a stored evidence file downloads from (bearer token). */
export const fileUrl = (fileId: string) => `${paths.fileDownload.path}?fileId=${encodeURIComponent(fileId)}`;
