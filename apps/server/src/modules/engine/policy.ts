import type { AuditLevel, Operation } from '@ks/contracts';
import { and, asc, eq, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { enterprises, recordAudits, roles, todos, userRoles, users } from '../../db/schema';
import { type AppError, conflict, forbidden, notFound } from '../../platform/errors';
import { rowsOf } from './record-row';

/**
 * The record policy of the schema engine: for a caller and a record, may they read, edit, delete, submit, revoke,
 * decide (审核) or assign (指派) it — and if not, which answer (404 / 403 / 409) with which message. The same verdict
 * builds each record's `operations` (the buttons the web shows) and is enforced by every call that acts on a record
 * (records.service, review.service, assign.service, the files of engine records). Nothing else decides it.
 *
 * Two sides, never both for one caller and one record:
 * - the record's side — its owner, or the owner's enterprise (for someone with an enterprise: the record's enterprise
 *   is theirs) — edits and deletes drafts, submits, resubmits after 驳回 and revokes while nobody has decided;
 * - the reviewers — whoever holds an open to-do of the current level (after 任务指派: only the assignee), configured as
 *   a reviewer of that level — decide. Nobody decides a record of their own side or one whose current round they
 *   submitted. Administrators and developers read every record; administrators decide when they are reviewers of
 *   the level and assign (with the 指派 function, which administrators always hold), but they do not edit, resubmit,
 *   revoke or delete an enterprise's record.
 * Reading: everyone of the record's side, administrators and developers, anyone given a to-do of the record (of
 * theirs or of one of their roles, open or done), and whoever holds the node's 监督查看 function (SUPERVISE_FUNCTION:
 * a supervision office reads every record of the node and acts on none). `scopeSql` / `scopeBranches` in records.service are the same rule
 * in SQL (the list); policy.test holds the two to the same answers.
 * A caller who may not read a record is told it does not exist (404), so ids cannot be probed; one who may read it
 * but is of the wrong side gets 403; the right side at the wrong moment (status, version, a decision already made) 409.
 */

export type RecordAction = 'read' | 'edit' | 'delete' | 'submit' | 'revoke' | 'decide' | 'assign';
export const RECORD_ACTIONS: readonly RecordAction[] = [
  'read',
  'edit',
  'delete',
  'submit',
  'revoke',
  'decide',
  'assign',
];

export interface PolicyCaller {
  id: string;
  loginRoleType: string;
  enterpriseId: string | null;
}

/** The record's own columns the policy reads. */
export interface RecordFacts {
  status: string;
  version: number;
  ownerId: string;
  enterpriseId: string | null;
}

/** What the review workflow says about the caller and the record (see reviewFactsOf). */
export interface ReviewFacts {
  /** the caller or one of their roles was given a to-do of the record, open or done */
  asked: boolean;
  /** who submitted the record's current round (null: never submitted) */
  submitterId: string | null;
  /** someone passed or rejected in the current round */
  decidedThisRound: boolean;
  /** the current level as configured (null: not pending, or the level no longer exists) */
  level: AuditLevel | null;
  /** the caller is a reviewer of the current level by its configuration (a named user or a role of theirs) */
  reviewerOfLevel: boolean;
  /** the caller or one of their roles holds an open to-do of the current level */
  holdsOpenTodo: boolean;
  /** the current level has open to-dos, none of them the caller's (任务指派 gave it to someone else) */
  heldByOthers: boolean;
  /** the caller already passed the current level in this round (会签) */
  passedThisRound: boolean;
  /** the caller holds the node's 监督查看 function: reads every record of the node, acts on none */
  supervises: boolean;
}

export const NO_REVIEW: ReviewFacts = {
  asked: false,
  submitterId: null,
  decidedThisRound: false,
  level: null,
  reviewerOfLevel: false,
  holdsOpenTodo: false,
  heldByOthers: false,
  passedThisRound: false,
  supervises: false,
};

export const POLICY_MESSAGES = {
  notFound: '记录不存在',
  notSide: '只有申请方可以办理该记录',
  adminNotSide: '管理员不能代替申请方修改、提交、撤回或删除记录',
  notEditable: '记录已被修改或已提交，请刷新后重试',
  onlyDraft: '只能删除草稿',
  notPending: '记录已被处理，请刷新后重试',
  decidedAlready: '审核已开始，不能撤回',
  decisionStale: '该记录已被处理，请刷新后重试',
  levelChanged: '审核级别已变更，请刷新后重试',
  ownRecord: '不能审核本人或本企业提交的记录',
  notReviewer: '您不是该级审核人',
  passedAlready: '您已审核过该记录',
  assignedElsewhere: '该审核任务已指派给他人',
  applicantAssigns: '申请方不能指派审核人',
  notUnderReview: '记录不在审核中，不能指派',
  allCannotAssign: '会签级别须由全部审核人审核，不能指派',
  supervisorReads: '监督人员只能查看记录，不能办理',
} as const;

export type Verdict = { ok: true } | { ok: false; status: 403 | 404 | 409; message: string };
const OK: Verdict = { ok: true };
const no = (status: 403 | 404 | 409, message: string): Verdict => ({ ok: false, status, message });

export const seesAllRecords = (c: Pick<PolicyCaller, 'loginRoleType'>) =>
  c.loginRoleType === 'M' || c.loginRoleType === 'D';

/** Is the caller of the record's side: its enterprise (when they have one), else its owner? */
export function ofRecordSide(c: PolicyCaller, r: RecordFacts): boolean {
  return c.enterpriseId ? r.enterpriseId === c.enterpriseId : r.ownerId === c.id;
}

const editable = (status: string) => status === 'draft' || status === 'rejected';

/**
 * The verdict on one action (the caller's function grant on the node is checked by the route before this). The order
 * of the answers: not readable (404), the wrong side (403), the wrong moment — status, or a `version` the caller
 * started from that is no longer the record's (409) — then, for decisions, the level's reviewers (403).
 */
export function judge(
  c: PolicyCaller,
  r: RecordFacts,
  review: ReviewFacts,
  action: RecordAction,
  version?: number,
): Verdict {
  const side = ofRecordSide(c, r);
  if (!(side || seesAllRecords(c) || review.asked || review.supervises)) return no(404, POLICY_MESSAGES.notFound);
  // someone who reads the record only as its node's supervisor acts on nothing
  if (action !== 'read' && !(side || seesAllRecords(c) || review.asked))
    return no(403, POLICY_MESSAGES.supervisorReads);
  const notSide = () => no(403, c.loginRoleType === 'M' ? POLICY_MESSAGES.adminNotSide : POLICY_MESSAGES.notSide);
  const stale = version !== undefined && version !== r.version;
  switch (action) {
    case 'read':
      return OK;
    case 'edit':
    case 'submit':
      if (!side) return notSide();
      return editable(r.status) && !stale ? OK : no(409, POLICY_MESSAGES.notEditable);
    case 'delete':
      if (!side) return notSide();
      return r.status === 'draft' && !stale ? OK : no(409, POLICY_MESSAGES.onlyDraft);
    case 'revoke':
      if (!side) return notSide();
      if (r.status !== 'pending' || stale) return no(409, POLICY_MESSAGES.notPending);
      return review.decidedThisRound ? no(409, POLICY_MESSAGES.decidedAlready) : OK;
    case 'decide':
      // nobody decides a record of their own side, or one whose current round they submitted
      if (side || r.ownerId === c.id || review.submitterId === c.id) return no(403, POLICY_MESSAGES.ownRecord);
      if (r.status !== 'pending' || stale) return no(409, POLICY_MESSAGES.decisionStale);
      if (!review.level) return no(409, POLICY_MESSAGES.levelChanged);
      if (!review.reviewerOfLevel) return no(403, POLICY_MESSAGES.notReviewer);
      if (review.passedThisRound) return no(409, POLICY_MESSAGES.passedAlready);
      if (review.holdsOpenTodo) return OK;
      return no(403, review.heldByOthers ? POLICY_MESSAGES.assignedElsewhere : POLICY_MESSAGES.notReviewer);
    case 'assign':
      if (side || r.ownerId === c.id || review.submitterId === c.id) return no(403, POLICY_MESSAGES.applicantAssigns);
      if (r.status !== 'pending') return no(409, POLICY_MESSAGES.notUnderReview);
      if (stale) return no(409, POLICY_MESSAGES.notPending);
      if (!review.level) return no(409, POLICY_MESSAGES.levelChanged);
      return review.level.way === 'all' ? no(409, POLICY_MESSAGES.allCannotAssign) : OK;
  }
}

/** The verdict as the error to throw, or nothing when allowed. */
export function verdictError(v: Verdict): AppError | null {
  if (v.ok) return null;
  return v.status === 404 ? notFound(v.message) : v.status === 403 ? forbidden(v.message) : conflict(v.message);
}

/** Throws unless the caller may take the action (on the record at `version`, when given). */
export function enforce(
  c: PolicyCaller,
  r: RecordFacts,
  review: ReviewFacts,
  action: RecordAction,
  version?: number,
): void {
  const e = verdictError(judge(c, r, review, action, version));
  if (e) throw e;
}

/** Which policy action a row button stands for (null: the button only needs the record to be readable). */
const ACTION_OF_BUTTON: Record<string, RecordAction | undefined> = {
  edit: 'edit',
  delete: 'delete',
  submit: 'submit',
  revoke: 'revoke',
  audit: 'decide',
  assign: 'assign',
};
/** Toolbar buttons, never on a row. */
const TOOLBAR = new Set(['add', 'export', 'import']);

/** A record's operations: the granted row buttons whose action the policy allows now. */
export function operationsOf(
  granted: readonly Operation[],
  c: PolicyCaller,
  r: RecordFacts,
  review: ReviewFacts,
): Operation[] {
  return granted.filter((op) => {
    if (TOOLBAR.has(op.code)) return false;
    const action = ACTION_OF_BUTTON[op.code] ?? 'read';
    return judge(c, r, review, action).ok;
  });
}

/** A row of a node table (its system columns) as RecordFacts. */
export const recordFactsOf = (row: Record<string, unknown>): RecordFacts => ({
  status: String(row.status),
  version: Number(row.version),
  ownerId: String(row.owner_id),
  enterpriseId: row.enterprise_id === null || row.enterprise_id === undefined ? null : String(row.enterprise_id),
});

/** What the policy needs beyond the record: the caller's role codes, the node's levels, the 监督查看 grant. */
export interface PolicyContext {
  roleCodes: readonly string[];
  levels: readonly AuditLevel[];
  /** the caller holds the node's 监督查看 function (absent: no) */
  supervises?: boolean;
}

/** Is the caller a reviewer of the level by its configuration? */
export const reviewerOf = (level: AuditLevel, userId: string, roleCodes: readonly string[]) =>
  level.reviewerUserIds.includes(userId) || level.reviewerRoles.some((r) => roleCodes.includes(r));

/**
 * The review facts of the caller for rows of a node's table (id, status, audit_level, round): two reads at most —
 * the caller's to-dos of these records, and the current round's submissions and decisions of the pending ones. Reads
 * through `q` (inside a transaction, the transaction), `roleCodes` and `levels` read before it.
 */
export async function reviewFactsOf(
  q: Db,
  c: PolicyCaller,
  nodeId: string,
  rows: readonly Record<string, unknown>[],
  ctx: PolicyContext,
): Promise<Map<string, ReviewFacts>> {
  const out = new Map<string, ReviewFacts>();
  const ids = rows.filter((r) => r.id !== null && r.id !== undefined).map((r) => String(r.id));
  if (!ids.length) return out;
  const pending = rows.filter((r) => r.status === 'pending' && r.id != null);
  const roleCodes = [...ctx.roleCodes];
  const mine = or(
    and(eq(todos.assigneeType, 'user'), eq(todos.assigneeId, c.id)),
    roleCodes.length ? and(eq(todos.assigneeType, 'role'), inArray(todos.assigneeId, roleCodes)) : sql`false`,
  );
  const pendingIds = pending.map((r) => String(r.id));
  // one read: the caller's to-dos of these records and every open to-do of the pending ones (who holds the current
  // level); and the current submissions and decisions of the pending ones, in their order
  const todoWhere = and(
    eq(todos.nodeId, nodeId),
    inArray(todos.recordId, ids),
    pendingIds.length ? or(mine, and(isNull(todos.doneAt), inArray(todos.recordId, pendingIds))) : mine,
  );
  const auditWhere = pendingIds.length
    ? and(
        eq(recordAudits.nodeId, nodeId),
        inArray(recordAudits.recordId, pendingIds),
        ne(recordAudits.action, 'revoke'),
      )
    : sql`false`;
  const [read] = rowsOf(
    await q.execute(sql`select
      coalesce((select json_agg(json_build_object('recordId', ${todos.recordId}, 'level', ${todos.level},
        'open', ${todos.doneAt} is null, 'mine', coalesce(${mine}, false)))
        from ${todos} where ${todoWhere}), '[]'::json) as "todos",
      coalesce((select json_agg(json_build_object('recordId', ${recordAudits.recordId}, 'level', ${recordAudits.level},
        'round', ${recordAudits.round}, 'action', ${recordAudits.action}, 'userId', ${recordAudits.userId})
        order by ${recordAudits.id})
        from ${recordAudits} where ${auditWhere}), '[]'::json) as "audits"`),
  );
  const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
  const todoRows = json<{ recordId: string; level: number; open: boolean; mine: boolean }[]>(read?.todos ?? '[]');
  const audits = json<{ recordId: string; level: number; round: number; action: string; userId: string }[]>(
    read?.audits ?? '[]',
  );
  for (const row of rows) {
    if (row.id === null || row.id === undefined) continue;
    const id = String(row.id);
    const facts: ReviewFacts = { ...NO_REVIEW, supervises: ctx.supervises === true };
    const own = todoRows.filter((t) => t.recordId === id);
    facts.asked = own.some((t) => t.mine);
    if (row.status === 'pending') {
      const levelNo = Number(row.audit_level);
      const round = Number(row.round);
      const level = ctx.levels.find((l) => l.level === levelNo) ?? null;
      facts.level = level;
      facts.reviewerOfLevel = level ? reviewerOf(level, c.id, roleCodes) : false;
      const open = own.filter((t) => t.open && t.level === levelNo);
      facts.holdsOpenTodo = open.some((t) => t.mine);
      facts.heldByOthers = open.length > 0 && !facts.holdsOpenTodo;
      const thisRound = audits.filter((a) => a.recordId === id && a.round === round);
      facts.submitterId = thisRound.filter((a) => a.action === 'submit').at(-1)?.userId ?? null;
      facts.decidedThisRound = thisRound.some((a) => a.action === 'pass' || a.action === 'reject');
      facts.passedThisRound = thisRound.some((a) => a.action === 'pass' && a.level === levelNo && a.userId === c.id);
    }
    out.set(id, facts);
  }
  return out;
}

/** The review facts of one row (see reviewFactsOf). */
export async function reviewFactsOfRow(
  q: Db,
  c: PolicyCaller,
  nodeId: string,
  row: Record<string, unknown>,
  ctx: PolicyContext,
): Promise<ReviewFacts> {
  return (
    (await reviewFactsOf(q, c, nodeId, [row], ctx)).get(String(row.id)) ?? {
      ...NO_REVIEW,
      supervises: ctx.supervises === true,
    }
  );
}

// ── reviewers of a level ────────────────────────────────────────────────────

/** Built-in roles hold every account of their login type. */
export const BUILTIN_TYPES: Record<string, string> = { admin: 'M', developer: 'D', user: 'U' };

/**
 * Active accounts that may decide a level of a record: its named users and the holders of its roles (a built-in role
 * by login type), less the record's side (its owner, its enterprise's staff, the current round's submitter), who
 * never decide it. `limit` bounds the answer (a built-in role such as `user` may hold many accounts).
 */
export async function levelReviewers(
  q: Db,
  level: AuditLevel,
  record: { ownerId: string; enterpriseId: string | null; submitterId?: string | null } | null,
  limit: number,
): Promise<{ id: string; userName: string; orgName: string | null }[]> {
  const roleHolders = level.reviewerRoles.length
    ? q
        .select({ id: userRoles.userId })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(inArray(roles.code, level.reviewerRoles))
    : null;
  const types = level.reviewerRoles.map((r) => BUILTIN_TYPES[r]).filter((t): t is string => !!t);
  const who = [
    level.reviewerUserIds.length ? inArray(users.id, level.reviewerUserIds) : undefined,
    roleHolders ? inArray(users.id, roleHolders) : undefined,
    types.length ? inArray(users.loginRoleType, types) : undefined,
  ].filter((x) => x !== undefined);
  if (!who.length) return [];
  const exclude: SQL[] = [];
  if (record) {
    exclude.push(ne(users.id, record.ownerId));
    if (record.submitterId) exclude.push(ne(users.id, record.submitterId));
    if (record.enterpriseId) exclude.push(sql`${users.enterpriseId} is distinct from ${record.enterpriseId}::uuid`);
  }
  return q
    .select({ id: users.id, userName: users.userName, orgName: enterprises.name })
    .from(users)
    .leftJoin(enterprises, eq(enterprises.id, users.enterpriseId))
    .where(and(eq(users.status, 'active'), or(...who), ...exclude))
    .orderBy(asc(users.userName), asc(users.id))
    .limit(limit);
}

/** The message of a level nobody can decide. */
export const noReviewerMessage = (levelName: string) =>
  `「${levelName}」暂无可审核的人员，请联系管理员在「审核级别」中配置审核人后再提交`;
export const nextNoReviewerMessage = (levelName: string) =>
  `下一级「${levelName}」暂无可审核的人员，不能通过，请联系管理员在「审核级别」中配置审核人`;
