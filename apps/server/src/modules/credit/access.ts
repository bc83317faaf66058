import { CREDIT_MESSAGES, CREDIT_NODE, type CreditSubjectKind } from '@ks/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { badRequest, forbidden, notFound } from '../../platform/errors';
import type { Actor } from '../../platform/oplog';
import { canCall, findNode, type RequestMemo, requestMemo } from '../../platform/permissions';
import type { AuthContext } from '../auth/auth.service';
import { type SubjectRow, subjectOf } from './credit.repo';

/**
 * Who may do what with credit (spec §6, ARCHITECTURE "Security"): an enterprise user declares, edits, submits and
 * withdraws the records of their own enterprise and of its persons, and reads only those — any other subject or record
 * answers 404, so ids cannot be probed. Reviewers (administrators, and users granted the 审核 function of the credit
 * node) read every subject and decide records of other enterprises; developers read everything and change nothing.
 */
export interface CreditCaller {
  id: string;
  loginRoleType: string;
  enterpriseId: string | null;
  actor: Actor;
  memo: RequestMemo;
  /** may review credit records (computed once per request) */
  reviewer?: Promise<boolean>;
}

export const callerOf = (auth: AuthContext): CreditCaller => ({
  id: auth.user.id,
  loginRoleType: auth.user.loginRoleType,
  enterpriseId: auth.user.enterpriseId ?? null,
  actor: auth.actor,
  memo: requestMemo(auth),
});

export const isAdmin = (c: CreditCaller) => c.loginRoleType === 'M';
export const isDeveloper = (c: CreditCaller) => c.loginRoleType === 'D';

/** Administrators, and ordinary users granted 审核 on the credit node. */
export function isReviewer(db: DbOrTx, c: CreditCaller): Promise<boolean> {
  c.reviewer ??= (async () => {
    if (isAdmin(c)) return true;
    if (c.loginRoleType !== 'U') return false;
    const node = await findNode(db as Db, CREDIT_NODE);
    return node ? canCall(db as Db, c, node, 'audit') : false;
  })();
  return c.reviewer;
}

/** Reviewers and developers read every subject; enterprise users only their own side. */
export async function readsAll(db: DbOrTx, c: CreditCaller): Promise<boolean> {
  return isDeveloper(c) || (await isReviewer(db, c));
}

export async function requireReader(db: Db, c: CreditCaller): Promise<void> {
  if (!(await readsAll(db, c))) throw forbidden();
}

/** The caller's own side, for declaring and editing; administrators and developers have none. */
export function requireSide(c: CreditCaller): string {
  if (c.loginRoleType !== 'U') throw forbidden('管理员和开发者不能代企业申报或修改信用记录');
  if (!c.enterpriseId) throw forbidden(CREDIT_MESSAGES.noEnterprise);
  return c.enterpriseId;
}

/**
 * The subject a call names (an enterprise by default the caller's own), when the caller may read it: another
 * enterprise's subject answers 404 to an enterprise user.
 */
export async function resolveSubject(
  db: Db,
  c: CreditCaller,
  ref: { subjectKind?: CreditSubjectKind; subjectId?: string },
): Promise<SubjectRow> {
  const kind = ref.subjectKind ?? 'enterprise';
  let id = ref.subjectId;
  if (!id) {
    if (kind === 'enterprise' && c.enterpriseId) id = c.enterpriseId;
    else throw badRequest(kind === 'person' ? '请选择人员' : '请选择企业');
  }
  const subject = await subjectOf(db, kind, id);
  if (!subject) throw notFound('信用主体不存在');
  if (subject.enterpriseId !== c.enterpriseId && !(await readsAll(db, c))) throw notFound('信用主体不存在');
  return subject;
}

/** A record the caller may read (its side, reviewers, developers); 404 otherwise. */
export async function requireReadable(db: DbOrTx, c: CreditCaller, record: { enterpriseId: string } | undefined) {
  if (!record) throw notFound('记录不存在');
  if (record.enterpriseId !== c.enterpriseId && !(await readsAll(db, c))) throw notFound('记录不存在');
}
