import { asc, eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { displayGroups } from '../../db/schema';

/** Database access of display groups (the headings menus of a system are grouped under). */

export type GroupRow = typeof displayGroups.$inferSelect;

export async function findGroup(db: DbOrTx, id: string): Promise<GroupRow | undefined> {
  const [g] = await db.select().from(displayGroups).where(eq(displayGroups.id, id));
  return g;
}

export function groupsOfSystem(db: DbOrTx, systemId: string): Promise<GroupRow[]> {
  return db
    .select()
    .from(displayGroups)
    .where(eq(displayGroups.systemId, systemId))
    .orderBy(asc(displayGroups.sort), asc(displayGroups.name));
}

export async function insertGroup(
  tx: Tx,
  values: { systemId: string; name: string; icon: string | null; sort: number },
): Promise<GroupRow> {
  const [g] = await tx.insert(displayGroups).values(values).returning();
  return g!;
}

export async function updateGroup(
  tx: Tx,
  id: string,
  set: { name: string; icon: string | null; sort: number },
): Promise<GroupRow> {
  const [u] = await tx.update(displayGroups).set(set).where(eq(displayGroups.id, id)).returning();
  return u!;
}

export async function deleteGroup(tx: Tx, id: string): Promise<void> {
  await tx.delete(displayGroups).where(eq(displayGroups.id, id));
}
