import { and, asc, count, eq, inArray, max, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { businessSystems, menuNodes } from '../../db/schema';

/** Database access of business systems (the top level of the configurable shell). */

export type SystemRow = typeof businessSystems.$inferSelect;

export async function findSystemByCoding(db: DbOrTx, gnCoding: string): Promise<SystemRow | undefined> {
  const [s] = await db.select().from(businessSystems).where(eq(businessSystems.gnCoding, gnCoding));
  return s;
}

export async function findSystemById(db: DbOrTx, id: string): Promise<SystemRow | undefined> {
  const [s] = await db.select().from(businessSystems).where(eq(businessSystems.id, id));
  return s;
}

/** Is a code taken by a system or a node (the one code space; case-insensitive)? */
export async function codeTaken(db: DbOrTx, code: string): Promise<boolean> {
  const lower = code.toLowerCase();
  const [s] = await db
    .select({ id: businessSystems.id })
    .from(businessSystems)
    .where(sql`lower(${businessSystems.gnCoding}) = ${lower}`);
  if (s) return true;
  const [n] = await db.select({ id: menuNodes.id }).from(menuNodes).where(sql`lower(${menuNodes.gnCoding}) = ${lower}`);
  return Boolean(n);
}

/** A new system, last in the order. */
export async function insertSystem(
  tx: Tx,
  values: { systemName: string; title: string; gnCoding: string },
): Promise<SystemRow> {
  const [last] = await tx.select({ m: max(businessSystems.sort) }).from(businessSystems);
  const [s] = await tx
    .insert(businessSystems)
    .values({ ...values, levels: 0, sort: (last?.m ?? 0) + 1 })
    .returning();
  return s!;
}

export async function updateSystem(
  tx: Tx,
  id: string,
  set: { systemName: string; title: string; enabled: boolean },
): Promise<SystemRow> {
  const [u] = await tx.update(businessSystems).set(set).where(eq(businessSystems.id, id)).returning();
  return u!;
}

export async function deleteSystem(tx: Tx, id: string): Promise<void> {
  await tx.delete(businessSystems).where(eq(businessSystems.id, id));
}

/** Every system with how many menus it has, in the configured order. */
export async function systemsWithMenuCounts(db: DbOrTx): Promise<{ system: SystemRow; menuCount: number }[]> {
  const rows = await db
    .select({ s: businessSystems, n: count(menuNodes.id) })
    .from(businessSystems)
    .leftJoin(menuNodes, eq(menuNodes.systemId, businessSystems.id))
    .groupBy(businessSystems.id)
    .orderBy(asc(businessSystems.sort), asc(businessSystems.createdAt));
  return rows.map((r) => ({ system: r.s, menuCount: Number(r.n) }));
}

export async function menuCountOf(db: DbOrTx, systemId: string): Promise<number> {
  const [c] = await db.select({ n: count() }).from(menuNodes).where(eq(menuNodes.systemId, systemId));
  return Number(c?.n ?? 0);
}

export function enabledSystems(db: DbOrTx): Promise<SystemRow[]> {
  return db
    .select()
    .from(businessSystems)
    .where(eq(businessSystems.enabled, true))
    .orderBy(asc(businessSystems.sort), asc(businessSystems.createdAt));
}

/** The systems of those of these nodes that show in the sidebar and are not disabled. */
export async function systemsOfShownNodes(db: DbOrTx, nodeIds: string[]): Promise<Set<string>> {
  if (!nodeIds.length) return new Set();
  const rows = await db
    .select({ systemId: menuNodes.systemId })
    .from(menuNodes)
    .where(and(inArray(menuNodes.id, nodeIds), eq(menuNodes.itShows, '是'), eq(menuNodes.disabled, false)));
  return new Set(rows.map((r) => r.systemId));
}

/** One mover at a time per system (until `tx` ends), so concurrent reorderings cannot interleave. */
export async function lockSystem(tx: Tx, id: string): Promise<void> {
  await tx.execute(sql`select id from business_systems where id = ${id} for update`);
}
