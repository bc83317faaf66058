import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { businessSystems, menuNodes, nodeDataVersions, todos } from '../../db/schema';

/** The SQL of to-dos as their reviewers see them: open ones of a user or of one of their roles. */

const mine = (userId: string, roleCodes: readonly string[]) =>
  and(
    isNull(todos.doneAt),
    or(
      and(eq(todos.assigneeType, 'user'), eq(todos.assigneeId, userId)),
      and(eq(todos.assigneeType, 'role'), inArray(todos.assigneeId, [...roleCodes])),
    ),
  );

/**
 * What every node's data version is now, as one text: it moves with every to-do written (and every record), since a
 * row trigger on todos bumps its node's `v` (migration 0009) — counts read while it had a value still hold while it has.
 */
export async function todosVersion(q: DbOrTx): Promise<string> {
  const [r] = await q
    .select({
      v: sql<string>`coalesce(md5(string_agg(${nodeDataVersions.nodeId}::text || ':' || ${nodeDataVersions.v}, ',' order by ${nodeDataVersions.nodeId})), '')`,
    })
    .from(nodeDataVersions);
  return r?.v ?? '';
}

/** How many records each node (in its system) has open to-dos of the user for: one record counts once per node. */
export function openTodoCounts(q: DbOrTx, userId: string, roleCodes: readonly string[]) {
  return q
    .select({
      systemId: todos.systemId,
      nodeId: todos.nodeId,
      n: sql<number>`count(distinct ${todos.recordId})::int`,
    })
    .from(todos)
    .where(mine(userId, roleCodes))
    .groupBy(todos.systemId, todos.nodeId);
}

/** A page of the user's open to-dos, one row per record, newest submission first; and how many records in all. */
export async function openTodoPage(
  q: DbOrTx,
  userId: string,
  roleCodes: readonly string[],
  p: { systemCoding?: string; offset: number; limit: number },
) {
  const where = and(mine(userId, roleCodes), p.systemCoding ? eq(businessSystems.gnCoding, p.systemCoding) : sql`true`);
  const grouped = q
    .select({
      id: sql<string>`min(${todos.id}::text)`.as('id'),
      gnName: menuNodes.title,
      gnCoding: menuNodes.gnCoding,
      nodeProperties: menuNodes.nodeProperties,
      systemCoding: sql<string>`${businessSystems.gnCoding}`.as('system_coding'),
      recordId: todos.recordId,
      level: sql<number>`max(${todos.level})::int`.as('level'),
      sbTime: sql<Date>`max(${todos.sbTime})`.as('sb_time'),
      businessName: sql<string>`max(${todos.businessName})`.as('business_name'),
      userName: sql<string>`max(${todos.submitterName})`.as('user_name'),
    })
    .from(todos)
    .innerJoin(menuNodes, eq(menuNodes.id, todos.nodeId))
    .innerJoin(businessSystems, eq(businessSystems.id, todos.systemId))
    .where(where)
    .groupBy(menuNodes.id, businessSystems.id, todos.recordId)
    .as('g');
  const [total] = await q.select({ n: sql<number>`count(*)::int` }).from(grouped);
  const records = await q.select().from(grouped).orderBy(desc(grouped.sbTime)).limit(p.limit).offset(p.offset);
  return { records, total: Number(total?.n ?? 0) };
}
