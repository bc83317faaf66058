import { type AuditLevel, requiredAnnexMessage } from '@ks/contracts';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { recordAudits, roles as rolesTable, todos, userRoles, users } from '../../db/schema';
import { badRequest, conflict } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { requireFunction } from '../../platform/permissions';
import { missingRequiredAnnexes } from '../files/files.repo';
import { type DecisionEvent, hasDecisionHooks, runDecisionHooks } from './hooks';
import { levelReviewers, nextNoReviewerMessage, noReviewerMessage, recordFactsOf } from './policy';
import { type EngineCaller, policyContext, recordFor, rowsOf, toRecord } from './records.service';
import { fieldsOf, nodeForEngine } from './schema.service';
import { ident, tableOf } from './sqlsafe';

/**
 * The review workflow of engine records (issue 5): draft → submit → the node's audit levels in order (each level
 * decides single / any / all) → passed, or rejected with a suggestion → resubmit. Every step locks the record row and
 * checks its status and version, so two reviewers can never both decide: the second gets 409. Each step closes the
 * to-dos it settles and opens those of the next reviewers, and appends to the record's audit history.
 */

export const REJECT_NEEDS_SUGGESTION = '请填写审核建议';
type Row = Record<string, unknown>;

async function setRow(tx: Db, gnCoding: string, id: string, set: { status: string; level: number; round?: number }) {
  await tx.execute(
    sql`update ${ident(tableOf(gnCoding))} set "status" = ${set.status}, "audit_level" = ${set.level}, ${
      set.round === undefined ? sql`` : sql`"round" = ${set.round},`
    } "version" = "version" + 1, "updated_at" = now() where "id" = ${id}`,
  );
}

export function businessNameOf(n: { title: string; fields: unknown }, row: Row): string {
  const first = fieldsOf(n).find((f) => f.type === 'text' && row[`f_${f.code}`]);
  return first ? `${n.title}：${String(row[`f_${first.code}`])}`.slice(0, 200) : n.title;
}

async function openTodos(
  tx: Db,
  n: { id: string; systemId: string; title: string; fields: unknown },
  row: Row,
  level: AuditLevel,
  submitterName: string,
  at: Date,
) {
  const values = [
    ...level.reviewerRoles.map((code) => ({ assigneeType: 'role', assigneeId: code })),
    ...level.reviewerUserIds.map((id) => ({ assigneeType: 'user', assigneeId: id })),
  ].map((a) => ({
    ...a,
    nodeId: n.id,
    systemId: n.systemId,
    recordId: String(row.id),
    level: level.level,
    businessName: businessNameOf(n, row),
    submitterName,
    sbTime: at,
  }));
  if (values.length) await tx.insert(todos).values(values);
}

async function closeTodos(tx: Db, nodeId: string, recordId: string, at: Date, only?: { type: string; id: string }) {
  await tx
    .update(todos)
    .set({ doneAt: at })
    .where(
      and(
        eq(todos.nodeId, nodeId),
        eq(todos.recordId, recordId),
        isNull(todos.doneAt),
        only ? and(eq(todos.assigneeType, only.type), eq(todos.assigneeId, only.id)) : sql`true`,
      ),
    );
}

/**
 * Runs the node's domain hooks (hooks.ts) for a decision, in its transaction, with the record as the decision left it
 * (read back only when the node has hooks).
 */
async function decided(
  tx: Tx,
  n: { id: string; gnCoding: string; title: string; fields: unknown },
  id: string,
  c: EngineCaller,
  outcome: 'passed' | 'rejected',
  e: Pick<DecisionEvent, 'level' | 'final' | 'opinion'>,
) {
  if (!hasDecisionHooks(n.gnCoding)) return;
  const [row] = rowsOf(await tx.execute(sql`select * from ${ident(tableOf(n.gnCoding))} where "id" = ${id}`));
  if (!row) throw new Error(`record ${id} vanished inside its decision`);
  const r = toRecord(row, fieldsOf(n), []);
  await runDecisionHooks(outcome, {
    ...e,
    tx,
    node: { id: n.id, gnCoding: n.gnCoding, title: n.title },
    record: {
      id: r.id,
      status: r.status,
      version: r.version,
      round: Number(row.round),
      auditLevel: Number(row.audit_level),
      ownerId: r.ownerId,
      enterpriseId: row.enterprise_id === null ? null : String(row.enterprise_id),
      values: r.values,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    },
    decider: { id: c.id, userName: c.actor.userName, loginRoleType: c.loginRoleType, enterpriseId: c.enterpriseId },
  });
}

export async function submitRecord(db: Db, c: EngineCaller, input: { gnCoding: string; id: string; version: number }) {
  await requireFunction(db, c, input.gnCoding, 'submit');
  const n = await nodeForEngine(db, input.gnCoding);
  const ctx = await policyContext(db, c, n.gnCoding);
  const { levels } = ctx;
  const at = new Date();
  await db.transaction(async (tx) => {
    const { row } = await recordFor(tx, c, n, input.id, 'submit', ctx, true, input.version);
    const missing = await missingRequiredAnnexes(tx, n, input.id);
    if (missing.length) throw badRequest(requiredAnnexMessage(missing.join('、')));
    const round = Number(row.round) + 1;
    const first = levels[0];
    // a submission nobody could decide would vanish: the first level needs a reviewer other than the applicant
    if (first && !(await hasReviewer(tx, first, row, c.id))) throw conflict(noReviewerMessage(first.name));
    await setRow(tx, n.gnCoding, input.id, { status: first ? 'pending' : 'passed', level: first ? 1 : 0, round });
    await tx.insert(recordAudits).values({
      nodeId: n.id,
      recordId: input.id,
      level: 0,
      action: 'submit',
      userId: c.id,
      userName: c.actor.userName,
      round,
    });
    if (first) await openTodos(tx, n, row, first, c.actor.userName, at);
    // a node without review levels passes the record at once: for its domain, that is the final pass
    else await decided(tx, n, input.id, c, 'passed', { level: null, final: true, opinion: null });
    await writeOpLog(tx, c.actor, {
      glName: n.title,
      gnCoding: n.gnCoding,
      recordId: input.id,
      logbook: first ? `提交审核（第 ${round} 次），待${first.name}` : '提交（无需审核，已通过）',
    });
  });
}

/** Has the level an active reviewer who is not of the record's side (nor its submitter)? */
async function hasReviewer(tx: Db, level: AuditLevel, row: Row, submitterId: string | null): Promise<boolean> {
  const facts = recordFactsOf(row);
  const found = await levelReviewers(tx, level, { ...facts, submitterId }, 1);
  return found.length > 0;
}

export async function revokeRecord(db: Db, c: EngineCaller, input: { gnCoding: string; id: string; version: number }) {
  await requireFunction(db, c, input.gnCoding, 'revoke');
  const n = await nodeForEngine(db, input.gnCoding);
  const ctx = await policyContext(db, c, n.gnCoding);
  const at = new Date();
  await db.transaction(async (tx) => {
    // the record's side, while pending and nobody has decided this round (the record policy)
    const { row } = await recordFor(tx, c, n, input.id, 'revoke', ctx, true, input.version);
    await setRow(tx, n.gnCoding, input.id, { status: 'draft', level: 0 });
    await tx.insert(recordAudits).values({
      nodeId: n.id,
      recordId: input.id,
      level: 0,
      action: 'revoke',
      userId: c.id,
      userName: c.actor.userName,
      round: Number(row.round),
    });
    await closeTodos(tx, n.id, input.id, at);
    await writeOpLog(tx, c.actor, { glName: n.title, gnCoding: n.gnCoding, recordId: input.id, logbook: '撤回提交' });
  });
}

/** Has every reviewer an `all` level names passed in this round (each named user, and one holder of each role)? */
async function allPassed(tx: Db, level: AuditLevel, passers: string[]): Promise<boolean> {
  if (!level.reviewerUserIds.every((u) => passers.includes(u))) return false;
  if (!level.reviewerRoles.length) return true;
  if (!passers.length) return false;
  const held = await tx
    .select({ code: rolesTable.code, userId: userRoles.userId })
    .from(userRoles)
    .innerJoin(rolesTable, eq(rolesTable.id, userRoles.roleId))
    .where(inArray(userRoles.userId, passers));
  const types = await tx.select({ id: users.id, t: users.loginRoleType }).from(users).where(inArray(users.id, passers));
  const builtin = (t: string) => (t === 'M' ? 'admin' : t === 'D' ? 'developer' : 'user');
  return level.reviewerRoles.every((r) => held.some((h) => h.code === r) || types.some((u) => builtin(u.t) === r));
}

export async function auditRecord(
  db: Db,
  c: EngineCaller,
  input: { gnCoding: string; id: string; version: number; pass: boolean; suggestion?: string },
) {
  await requireFunction(db, c, input.gnCoding, 'audit');
  const suggestion = input.suggestion?.trim() ?? '';
  if (!input.pass && !suggestion)
    throw badRequest(REJECT_NEEDS_SUGGESTION, { fieldErrors: { suggestion: [REJECT_NEEDS_SUGGESTION] } });
  const n = await nodeForEngine(db, input.gnCoding);
  const ctx = await policyContext(db, c, n.gnCoding);
  const { levels } = ctx;
  const at = new Date();
  await db.transaction(async (tx) => {
    // a reviewer of the current level holding its open to-do, not of the record's side, not passed already (policy)
    const { row, review } = await recordFor(tx, c, n, input.id, 'decide', ctx, true, input.version);
    const level = review.level!;
    const levelNo = level.level;
    const round = Number(row.round);
    const earlier = await tx
      .select({ userId: recordAudits.userId })
      .from(recordAudits)
      .where(
        and(
          eq(recordAudits.nodeId, n.id),
          eq(recordAudits.recordId, input.id),
          eq(recordAudits.round, round),
          eq(recordAudits.level, levelNo),
          eq(recordAudits.action, 'pass'),
        ),
      );
    await tx.insert(recordAudits).values({
      nodeId: n.id,
      recordId: input.id,
      level: levelNo,
      action: input.pass ? 'pass' : 'reject',
      suggestion: suggestion || null,
      userId: c.id,
      userName: c.actor.userName,
      round,
    });
    let outcome: string;
    if (!input.pass) {
      await setRow(tx, n.gnCoding, input.id, { status: 'rejected', level: 0 });
      await closeTodos(tx, n.id, input.id, at);
      await decided(tx, n, input.id, c, 'rejected', { level, final: true, opinion: suggestion });
      outcome = `驳回：${suggestion}`;
    } else {
      const passers = [...earlier.map((e) => String(e.userId)), c.id];
      const settled = level.way !== 'all' || (await allPassed(tx, level, passers));
      if (!settled) {
        // 会签: this reviewer's part is done; the level waits for the others
        await tx.execute(
          sql`update ${ident(tableOf(n.gnCoding))} set "version" = "version" + 1 where "id" = ${input.id}`,
        );
        await closeTodos(tx, n.id, input.id, at, { type: 'user', id: c.id });
        outcome = `${level.name}通过（会签，等待其他审核人）`;
      } else {
        const next = levels.find((l) => l.level === levelNo + 1);
        // passing into a level nobody could decide would strand the record: refused, nothing written
        if (next && !(await hasReviewer(tx, next, row, review.submitterId))) {
          throw conflict(nextNoReviewerMessage(next.name));
        }
        await closeTodos(tx, n.id, input.id, at);
        if (next) {
          await setRow(tx, n.gnCoding, input.id, { status: 'pending', level: next.level });
          const [owner] = await tx
            .select({ name: users.userName })
            .from(users)
            .where(eq(users.id, String(row.owner_id)));
          await openTodos(tx, n, row, next, owner?.name ?? '', at);
          outcome = `${level.name}通过，待${next.name}`;
        } else {
          await setRow(tx, n.gnCoding, input.id, { status: 'passed', level: 0 });
          outcome = `${level.name}通过，审核完成`;
        }
        await decided(tx, n, input.id, c, 'passed', { level, final: !next, opinion: suggestion || null });
      }
    }
    await writeOpLog(tx, c.actor, { glName: n.title, gnCoding: n.gnCoding, recordId: input.id, logbook: outcome });
  });
}

/** The record's review history, oldest first (the auditFlow column). */
export async function auditFlow(db: Db, nodeId: string, recordId: string) {
  const rows = await db
    .select()
    .from(recordAudits)
    .where(and(eq(recordAudits.nodeId, nodeId), eq(recordAudits.recordId, recordId)))
    .orderBy(asc(recordAudits.id));
  return rows.map((r) => ({
    level: r.level,
    action: r.action,
    suggestion: r.suggestion,
    userName: r.userName,
    round: r.round,
    time: r.createdAt.toISOString(),
  }));
}
