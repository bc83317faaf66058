import type {
  RfcAuditRequest,
  RfcChangeFieldsRequest,
  RfcChangeRecord,
  RfcChangeRecordsRequest,
  RfcSaveRequest,
  RfcSubmitRequest,
} from '@ks/contracts';
import { paths } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';

/**
 * The credit change rounds client (spec §7 Credit change, screen 1; shapes in packages/contracts/src/credit-change.ts):
 * the rounds of a business record, the change types, the before/after fields, save, submit, review, the contacts and
 * the template. Steps are `silent`: the change dialog says what went wrong itself (a 409 reloads the rounds).
 */

export type { RfcChangeRecord };

export const RFC_KEY = ['rfc'] as const;
export const rfcRoundsKey = (gnCoding: string, businessId: string) =>
  [...RFC_KEY, 'rounds', gnCoding, businessId] as const;

/** The rounds of one business record, first round first; with `change` a round the caller may start comes last. */
export const rfcRoundsQuery = (body: RfcChangeRecordsRequest) =>
  queryOptions({
    queryKey: [...rfcRoundsKey(body.gnCoding, body.businessId), body.change ?? false, body.systemCoding ?? ''],
    queryFn: () => call('rfcChangeRecords', { data: body, silent: true }),
    retry: false,
  });

/** The change types of an area (the cascader). */
export const rfcTypesQuery = (gnCoding: string, systemCoding: string) =>
  queryOptions({
    queryKey: [...RFC_KEY, 'types', gnCoding, systemCoding],
    queryFn: () => call('rfcChangeTypes', { data: { gnCoding, systemCoding }, silent: true }),
    staleTime: 5 * 60_000,
    retry: false,
  });

/** The before/after form of a business record for a change type (and the values of a round). */
export const rfcFieldsQuery = (body: RfcChangeFieldsRequest) =>
  queryOptions({
    queryKey: [
      ...RFC_KEY,
      'fields',
      body.gnCoding,
      body.id,
      body.changeTypeCode ?? '',
      body.changeId ?? '',
      body.systemCoding ?? '',
    ],
    queryFn: () => call('rfcChangeFields', { data: body, silent: true }),
    retry: false,
  });

/** The enterprise's people, for the contact-person change. */
export const rfcContactsQuery = (enterpriseId: string, qyType?: string | null) =>
  queryOptions({
    queryKey: [...RFC_KEY, 'contacts', enterpriseId, qyType ?? ''],
    queryFn: () => call('rfcContacts', { data: { id: enterpriseId, qyType: qyType ?? null }, silent: true }),
    staleTime: 60_000,
    retry: false,
  });

export const saveChange = (body: RfcSaveRequest) => call('rfcSaveChangeData', { data: body, silent: true });
export const submitChange = (body: RfcSubmitRequest) => call('rfcChangeSubmit', { data: body, silent: true });
export const auditChange = (body: RfcAuditRequest) => call('rfcChangeAudit', { data: body, silent: true });

/** The public address of the change application template of a change type. */
export function rfcTemplateUrl(gnCoding: string, changeTypeCode?: string | null): string {
  const q = new URLSearchParams({ gnCoding });
  if (changeTypeCode) q.set('changeTypeCode', changeTypeCode);
  return `${paths.rfcTemplate.path}?${q.toString()}`;
}

// ── the credit data a change round changes (the enterprise's grade and its passed records) ────────────────────────

/** An enterprise's grade (its own without `subjectId`). Under RFC_KEY: a passed round refreshes it. */
export const enterpriseCreditQuery = (subjectId?: string) =>
  queryOptions({
    queryKey: [...RFC_KEY, 'credit', 'info', subjectId ?? 'own'],
    queryFn: () => call('creditInfo', { data: { subjectKind: 'enterprise', subjectId }, silent: true }),
    retry: false,
  });

/** An enterprise's passed credit records, the ones a change round may be opened on. */
export const passedRecordsQuery = (subjectId: string | undefined, pageNum: number, pageSize: number) =>
  queryOptions({
    queryKey: [...RFC_KEY, 'credit', 'records', subjectId ?? 'own', pageNum, pageSize],
    queryFn: () =>
      call('creditRecordList', {
        data: { subjectKind: 'enterprise', subjectId, status: 'passed', pageNum, pageSize },
        silent: true,
      }),
    placeholderData: (prev) => prev,
    retry: false,
  });
