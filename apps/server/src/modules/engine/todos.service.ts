import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { businessSystems, menuNodes, todos } from '../../db/schema';
import { type Caller, roleCodesOf } from '../../platform/permissions';

/** Open to-dos of a caller: assigned to them, or to one of their roles. One record counts once per node. */
async function mineCondition(db: Db, c: Caller) {
  const roleCodes = await roleCodesOf(db, c);
  return and(
    isNull(todos.doneAt),
    or(
      and(eq(todos.assigneeType, 'user'), eq(todos.assigneeId, c.id)),
      and(eq(todos.assigneeType, 'role'), inArray(todos.assigneeId, roleCodes)),
    ),
  );
}

export async function todoCounts(db: Db, c: Caller) {
  const rows = await db
    .select({
      systemId: todos.systemId,
      nodeId: todos.nodeId,
      n: sql<number>`count(distinct ${todos.recordId})::int`,
    })
    .from(todos)
    .where(await mineCondition(db, c))
    .groupBy(todos.systemId, todos.nodeId);
  const bySystem = new Map<string, number>();
  const byNode = new Map<string, number>();
  for (const r of rows) {
    bySystem.set(r.systemId, (bySystem.get(r.systemId) ?? 0) + Number(r.n));
    byNode.set(r.nodeId, Number(r.n));
  }
  return { bySystem, byNode };
}

/** §3 to-do record: id, gnName, sbTime, businessName, userName (plus where it leads). One row per record. */
export async function todoList(db: Db, c: Caller, q: { systemCoding?: string; curPage: number; pageSize: number }) {
  const where = and(
    await mineCondition(db, c),
    q.systemCoding ? eq(businessSystems.gnCoding, q.systemCoding) : sql`true`,
  );
  const grouped = db
    .select({
      id: sql<string>`min(${todos.id}::text)`.as('id'),
      gnName: menuNodes.title,
      gnCoding: menuNodes.gnCoding,
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
  const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(grouped);
  const records = await db
    .select()
    .from(grouped)
    .orderBy(desc(grouped.sbTime))
    .limit(q.pageSize)
    .offset((q.curPage - 1) * q.pageSize);
  return {
    records: records.map((r) => ({ ...r, level: Number(r.level), sbTime: new Date(r.sbTime).toISOString() })),
    total: Number(total?.n ?? 0),
  };
}
