import type { AssignableUser, AuditLevel } from '@ks/contracts';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { enterprises, roles, todos, userRoles, users } from '../../db/schema';
import { conflict, forbidden, validationFailed } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { canCall, requireNode } from '../../platform/permissions';
import { auditConfig } from '../shell/settings.service';
import { type EngineCaller, engineNode, rowOf, rowsOf } from './records.service';
import { businessNameOf } from './review.service';
import { ident, tableOf } from './sqlsafe';

/**
 * 任务指派 (screen 15): an administrator, or a holder of the node's 指派 (assign) function, hands the open to-do of a
 * pending record's current audit level to one reviewer of that level. Only that reviewer may then decide the level.
 * Levels decided by all their reviewers (会签) are not assigned.
 */

/** At most this many candidates are listed (a built-in role such as `user` may hold many accounts). */
export const MAX_CANDIDATES = 200;
const BUILTIN_TYPES: Record<string, string> = { admin: 'M', developer: 'D', user: 'U' };

async function requireAssign(db: Db, c: EngineCaller, gnCoding: string) {
  const ref = await requireNode(db, c, gnCoding);
  if (!(await canCall(db, c, ref, 'assign'))) throw forbidden();
  return ref;
}

/** Active accounts that may decide this level: its named users and the holders of its roles. */
async function candidates(db: Db, level: AuditLevel): Promise<AssignableUser[]> {
  const roleHolders = level.reviewerRoles.length
    ? db
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
  const rows = await db
    .select({ id: users.id, userName: users.userName, orgName: enterprises.name })
    .from(users)
    .leftJoin(enterprises, eq(enterprises.id, users.enterpriseId))
    .where(and(eq(users.status, 'active'), or(...who)))
    .orderBy(asc(users.userName), asc(users.id))
    .limit(MAX_CANDIDATES);
  return rows.map((r) =>
    r.orgName ? { id: r.id, userName: r.userName, orgName: r.orgName } : { id: r.id, userName: r.userName },
  );
}

async function currentLevel(db: Db, gnCoding: string, row: Record<string, unknown>) {
  if (row.status !== 'pending') throw conflict('记录不在审核中，不能指派');
  const { levels } = await auditConfig(db, gnCoding);
  const level = levels.find((l) => l.level === Number(row.audit_level));
  if (!level) throw conflict('审核级别已变更，请刷新后重试');
  return level;
}

export async function assignableList(db: Db, c: EngineCaller, gnCoding: string, id: string) {
  await requireAssign(db, c, gnCoding);
  const n = await engineNode(db, gnCoding);
  const row = await rowOf(db, c, n.gnCoding, id, n.id);
  return candidates(db, await currentLevel(db, n.gnCoding, row));
}

export async function assignRecord(
  db: Db,
  c: EngineCaller,
  input: { gnCoding: string; id: string; version: number; userId: string },
) {
  await requireAssign(db, c, input.gnCoding);
  const n = await engineNode(db, input.gnCoding);
  await rowOf(db, c, n.gnCoding, input.id, n.id);
  const table = ident(tableOf(n.gnCoding));
  await db.transaction(async (tx) => {
    const [row] = rowsOf(await tx.execute(sql`select * from ${table} where "id" = ${input.id} for update`));
    if (!row || Number(row.version) !== input.version) throw conflict('记录已被处理，请刷新后重试');
    const level = await currentLevel(tx as unknown as Db, n.gnCoding, row);
    if (level.way === 'all') throw conflict('会签级别须由全部审核人审核，不能指派');
    const target = (await candidates(tx as unknown as Db, level)).find((u) => u.id === input.userId);
    if (!target) throw validationFailed({ userId: ['该人员不能承接当前审核级别'] });
    const open = await tx
      .update(todos)
      .set({ doneAt: new Date() })
      .where(
        and(eq(todos.nodeId, n.id), eq(todos.recordId, input.id), eq(todos.level, level.level), isNull(todos.doneAt)),
      )
      .returning();
    await tx.insert(todos).values({
      nodeId: n.id,
      systemId: n.systemId,
      recordId: input.id,
      level: level.level,
      assigneeType: 'user',
      assigneeId: target.id,
      businessName: open[0]?.businessName ?? businessNameOf(n, row),
      submitterName: open[0]?.submitterName ?? '',
      sbTime: open[0]?.sbTime ?? new Date(),
    });
    await tx.execute(sql`update ${table} set "version" = "version" + 1, "updated_at" = now() where "id" = ${input.id}`);
    await writeOpLog(tx, c.actor, {
      glName: n.title,
      gnCoding: n.gnCoding,
      recordId: input.id,
      logbook: `任务指派：${level.name}指派给 ${target.userName}${target.orgName ? `（${target.orgName}）` : ''}`,
    });
  });
}
