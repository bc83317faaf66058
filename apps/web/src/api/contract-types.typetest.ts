/**
 * Type-level tests, run by the web's type check (`node scripts/typecheck.mjs`), never by vitest: nothing here runs.
 *
 * 1. The web's API types ARE the contracts' (packages/contracts): no hand-written copy can creep back in unnoticed.
 * 2. The shapes the engine pages and the shell are written against are pinned field by field. Any change to one of
 *    these contract types (a field added, removed, renamed, retyped or made optional) fails the type check here, so
 *    whoever changes the contract updates the web in the same change: this file, and the pages that read the field.
 */
import type { ApiData, Operation, UserInfo } from '@ks/contracts';
import type { CurrentUser, checkLogin } from './auth';
import type {
  AuditFlowStep,
  EngineRecord,
  FormDetails,
  fetchRecords,
  NodeFields,
  RecordDetail,
  RecordPage,
  saveRecord,
  submitRecord,
} from './engine';

/** true when A and B are the same type (optional and readonly modifiers included), false otherwise. */
export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Answer<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

// ── 1. the web's types are the registry's ───────────────────────────────────

export const typeChecks = {
  recordPage: true satisfies Equals<RecordPage, ApiData<'recordList'>>,
  engineRecord: true satisfies Equals<EngineRecord, ApiData<'recordList'>['records'][number]>,
  recordDetail: true satisfies Equals<RecordDetail, ApiData<'recordDetail'>>,
  nodeFields: true satisfies Equals<NodeFields, ApiData<'arrayFields'>>,
  formDetails: true satisfies Equals<FormDetails, ApiData<'formDetails'>>,
  currentUser: true satisfies Equals<CurrentUser, ApiData<'checkLogin'>>,
  // the client functions answer what the registry says the endpoint answers
  fetchRecords: true satisfies Equals<Answer<typeof fetchRecords>, RecordPage>,
  saveRecord: true satisfies Equals<Answer<typeof saveRecord>, ApiData<'recordSave'>>,
  submitRecord: true satisfies Equals<Answer<typeof submitRecord>, RecordDetail>,
  checkLogin: true satisfies Equals<Answer<typeof checkLogin>, CurrentUser>,

  // ── 2. the shapes the web is written against ──────────────────────────────
  engineRecordShape: true satisfies Equals<
    EngineRecord,
    {
      id: string;
      status: string;
      version: number;
      ownerId: string;
      createdAt: string;
      updatedAt: string;
      auditLevel?: number | undefined;
      values: Record<string, unknown>;
      operations: { code: string; name: string; color: string; show: boolean }[];
    }
  >,
  recordPageShape: true satisfies Equals<
    RecordPage,
    { records: EngineRecord[]; total: number; totalCapped?: boolean | undefined }
  >,
  auditFlowStepShape: true satisfies Equals<
    AuditFlowStep,
    { level: number; action: string; suggestion: string | null; userName: string; round: number; time: string }
  >,
  recordDetailShape: true satisfies Equals<
    RecordDetail,
    Omit<EngineRecord, 'auditLevel'> & { auditLevel: number; auditFlow: AuditFlowStep[] } extends infer D
      ? { [K in keyof D]: D[K] }
      : never
  >,
  operationShape: true satisfies Equals<Operation, { code: string; name: string; color: string; show: boolean }>,
  currentUserShape: true satisfies Equals<CurrentUser, { userInfo: UserInfo; roles: string[] }>,
};
