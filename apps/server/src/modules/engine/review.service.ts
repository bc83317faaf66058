import { type AuditLevel, requiredAnnexMessage } from '@ks/contracts';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recordAudits, roles as rolesTable, todos, userRoles, users } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { type Caller, requireFunction, roleCodesOf } from '../../platform/permissions';
import { missingRequiredAnnexes } from '../files/files.repo';
import { auditConfig } from '../shell/settings.service';
import type { EngineCaller } from './records.service';
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
const rowsOf = (res: unknown) => (res as { rows: Row[] }).rows;

async function lockedRow(tx: Db, gnCoding: string, id: string): Promise<Row> {
  const [row] = rowsOf(await tx.execute(sql`select * from ${ident(tableOf(gnCoding))} where "id" = ${id} for update`));
  if (!row) throw notFound('记录不存在');
  return row;
}

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

export async function submitRecord(db: Db, c: EngineCaller, input: { gnCoding: string; id: string; version: number }) {
  await requireFunction(db, c, input.gnCoding, 'submit');
  const n = await nodeForEngine(db, input.gnCoding);
  const { levels } = await auditConfig(db, input.gnCoding);
  const at = new Date();
  await db.transaction(async (tx) => {
    const row = await lockedRow(tx, n.gnCoding, input.id);
    const mine = c.enterpriseId ? row.enterprise_id === c.enterpriseId : row.owner_id === c.id;
    if (!mine && c.loginRoleType !== 'M') throw notFound('记录不存在');
    if (!['draft', 'rejected'].includes(String(row.status)) || Number(row.version) !== input.version) {
      throw conflict('记录已被修改或已提交，请刷新后重试');
    }
    const missing = await missingRequiredAnnexes(tx, n, input.id);
    if (missing.length) throw badRequest(requiredAnnexMessage(missing.join('、')));
    const round = Number(row.round) + 1;
    const first = levels[0];
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
    await writeOpLog(tx, c.actor, {
      glName: n.title,
      gnCoding: n.gnCoding,
      recordId: input.id,
      logbook: first ? `提交审核（第 ${round} 次），待${first.name}` : '提交（无需审核，已通过）',
    });
  });
}

export async function revokeRecord(db: Db, c: EngineCaller, input: { gnCoding: string; id: string; version: number }) {
  await requireFunction(db, c, input.gnCoding, 'revoke');
  const n = await nodeForEngine(db, input.gnCoding);
  const at = new Date();
  await db.transaction(async (tx) => {
    const row = await lockedRow(tx, n.gnCoding, input.id);
    const mine = c.enterpriseId ? row.enterprise_id === c.enterpriseId : row.owner_id === c.id;
    if (!mine) throw notFound('记录不存在');
    if (row.status !== 'pending' || Number(row.version) !== input.version) throw conflict('记录已被处理，请刷新后重试');
    const decided = await tx
      .select({ id: recordAudits.id })
      .from(recordAudits)
      .where(
        and(
          eq(recordAudits.nodeId, n.id),
          eq(recordAudits.recordId, input.id),
          eq(recordAudits.round, Number(row.round)),
          inArray(recordAudits.action, ['pass', 'reject']),
        ),
      )
      .limit(1);
    if (decided.length) throw conflict('审核已开始，不能撤回');
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
  const { levels } = await auditConfig(db, input.gnCoding);
  const at = new Date();
  const roleCodes = await roleCodesOf(db, c);
  await db.transaction(async (tx) => {
    const row = await lockedRow(tx, n.gnCoding, input.id);
    if (row.status !== 'pending' || Number(row.version) !== input.version) {
      throw conflict('该记录已被处理，请刷新后重试');
    }
    const levelNo = Number(row.audit_level);
    const level = levels.find((l) => l.level === levelNo);
    if (!level) throw conflict('审核级别已变更，请刷新后重试');
    const reviewer = level.reviewerUserIds.includes(c.id) || level.reviewerRoles.some((r) => roleCodes.includes(r));
    if (!reviewer) throw forbidden('您不是该级审核人');
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
    if (earlier.some((e) => e.userId === c.id)) throw conflict('您已审核过该记录');
    // a level whose task was assigned (任务指派) to someone else is theirs: only holders of an open to-do decide it
    const open = await tx
      .select({ type: todos.assigneeType, id: todos.assigneeId })
      .from(todos)
      .where(and(eq(todos.nodeId, n.id), eq(todos.recordId, input.id), eq(todos.level, levelNo), isNull(todos.doneAt)));
    const holds = (t: { type: string; id: string }) =>
      (t.type === 'user' && t.id === c.id) || (t.type === 'role' && roleCodes.includes(t.id));
    if (open.length && !open.some(holds)) throw forbidden('该审核任务已指派给他人');
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
        await closeTodos(tx, n.id, input.id, at);
        const next = levels.find((l) => l.level === levelNo + 1);
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
      }
    }
    await writeOpLog(tx, c.actor, { glName: n.title, gnCoding: n.gnCoding, recordId: input.id, logbook: outcome });
  });
}

/**
 * Of these rows of a node's table, the ids of the records the caller may decide now (the 审核 operation): pending, with
 * an open to-do of the current level held by the caller or one of their roles (after 任务指派 only the assignee's), and
 * not passed by the caller already in this round (会签). auditRecord checks all of it again when the decision comes.
 */
export async function decidableIds(db: Db, c: Caller, nodeId: string, rows: readonly Row[]): Promise<Set<string>> {
  const pending = new Map(
    rows.filter((r) => r.status === 'pending' && r.id != null).map((r) => [String(r.id), r] as const),
  );
  if (!pending.size) return new Set();
  const roleCodes = await roleCodesOf(db, c);
  const held = await db
    .select({ recordId: todos.recordId, level: todos.level })
    .from(todos)
    .where(
      and(
        eq(todos.nodeId, nodeId),
        inArray(todos.recordId, [...pending.keys()]),
        isNull(todos.doneAt),
        or(
          and(eq(todos.assigneeType, 'user'), eq(todos.assigneeId, c.id)),
          and(eq(todos.assigneeType, 'role'), inArray(todos.assigneeId, roleCodes)),
        ),
      ),
    );
  const current = held.filter((t) => Number(pending.get(t.recordId)?.audit_level) === t.level).map((t) => t.recordId);
  if (!current.length) return new Set();
  const passed = await db
    .select({ recordId: recordAudits.recordId, level: recordAudits.level, round: recordAudits.round })
    .from(recordAudits)
    .where(
      and(
        eq(recordAudits.nodeId, nodeId),
        inArray(recordAudits.recordId, current),
        eq(recordAudits.userId, c.id),
        eq(recordAudits.action, 'pass'),
      ),
    );
  const done = (id: string) => {
    const row = pending.get(id)!;
    return passed.some(
      (p) => p.recordId === id && p.level === Number(row.audit_level) && p.round === Number(row.round),
    );
  };
  return new Set(current.filter((id) => !done(id)));
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
