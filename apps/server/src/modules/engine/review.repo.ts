import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { recordAudits, roles, todos, userRoles, users } from '../../db/schema';
import { BUILTIN_ROLE_BY_TYPE } from '../../platform/permissions';
import { announceTodos } from './todo-events';

/**
 * The SQL of the review workflow: a record's audit history (record_audits) and its reviewers' to-dos (todos). The
 * record's own review columns (status, level, round) are records.repo's.
 */

export type NewTodo = typeof todos.$inferInsert;
export type NewAudit = typeof recordAudits.$inferInsert;

/** Opens to-dos and tells their assignees (in the same transaction). */
export async function insertTodos(q: DbOrTx, values: readonly NewTodo[]) {
  if (!values.length) return;
  await q.insert(todos).values([...values]);
  await announceTodos(q, values);
}

/**
 * Closes the record's open to-dos at `at`: all of them, those of one level, or one assignee's (`only`); tells their
 * assignees; answers the to-dos it closed.
 */
export async function closeTodos(
  q: DbOrTx,
  nodeId: string,
  recordId: string,
  at: Date,
  only: { level?: number; assignee?: { type: string; id: string } } = {},
) {
  const closed = await q
    .update(todos)
    .set({ doneAt: at })
    .where(
      and(
        eq(todos.nodeId, nodeId),
        eq(todos.recordId, recordId),
        isNull(todos.doneAt),
        only.level === undefined ? sql`true` : eq(todos.level, only.level),
        only.assignee
          ? and(eq(todos.assigneeType, only.assignee.type), eq(todos.assigneeId, only.assignee.id))
          : sql`true`,
      ),
    )
    .returning();
  await announceTodos(q, closed);
  return closed;
}

export async function insertAudit(q: DbOrTx, audit: NewAudit) {
  await q.insert(recordAudits).values(audit);
}

/** Who passed the record's level `level` in round `round` so far. */
export async function passersOf(q: DbOrTx, nodeId: string, recordId: string, round: number, level: number) {
  const rows = await q
    .select({ userId: recordAudits.userId })
    .from(recordAudits)
    .where(
      and(
        eq(recordAudits.nodeId, nodeId),
        eq(recordAudits.recordId, recordId),
        eq(recordAudits.round, round),
        eq(recordAudits.level, level),
        eq(recordAudits.action, 'pass'),
      ),
    );
  return rows.map((r) => String(r.userId));
}

/** The role codes these users hold — assigned, and the built-in one of their sign-in role type. */
export async function rolesHeldBy(q: DbOrTx, userIds: readonly string[]) {
  if (!userIds.length) return [];
  const ids = [...userIds];
  const held = await q
    .select({ code: roles.code, userId: userRoles.userId })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(inArray(userRoles.userId, ids));
  const types = await q.select({ id: users.id, t: users.loginRoleType }).from(users).where(inArray(users.id, ids));
  return [
    ...held.map((h) => ({ userId: h.userId, code: h.code })),
    ...types.map((u) => ({ userId: u.id, code: BUILTIN_ROLE_BY_TYPE[u.t] ?? 'user' })),
  ];
}

export async function userNameOf(q: DbOrTx, userId: string): Promise<string | null> {
  const [u] = await q.select({ name: users.userName }).from(users).where(eq(users.id, userId));
  return u?.name ?? null;
}

/** The record's audit history, oldest first. */
export function auditRows(q: DbOrTx, nodeId: string, recordId: string) {
  return q
    .select()
    .from(recordAudits)
    .where(and(eq(recordAudits.nodeId, nodeId), eq(recordAudits.recordId, recordId)))
    .orderBy(asc(recordAudits.id));
}
