import { and, asc, count, eq, inArray, isNull, max } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { menuNodes, nodeFunctions } from '../../db/schema';

/** Database access of menu nodes and their functions (buttons). */

export type NodeRow = typeof menuNodes.$inferSelect;
export type NewNodeRow = typeof menuNodes.$inferInsert;
export type FunctionRow = typeof nodeFunctions.$inferSelect;

export async function findNodeById(db: DbOrTx, id: string): Promise<NodeRow | undefined> {
  const [n] = await db.select().from(menuNodes).where(eq(menuNodes.id, id));
  return n;
}

export async function findNodeByCoding(db: DbOrTx, gnCoding: string): Promise<NodeRow | undefined> {
  const [n] = await db.select().from(menuNodes).where(eq(menuNodes.gnCoding, gnCoding));
  return n;
}

/** Every node of a system in tree order (sort, then creation). */
export function nodesOfSystem(db: DbOrTx, systemId: string): Promise<NodeRow[]> {
  return db
    .select()
    .from(menuNodes)
    .where(eq(menuNodes.systemId, systemId))
    .orderBy(asc(menuNodes.sort), asc(menuNodes.createdAt));
}

/** A new node, last among its siblings. */
export async function insertNode(tx: Tx, values: Omit<NewNodeRow, 'sort'>): Promise<NodeRow> {
  const [last] = await tx
    .select({ m: max(menuNodes.sort) })
    .from(menuNodes)
    .where(
      and(
        eq(menuNodes.systemId, values.systemId),
        values.parentId ? eq(menuNodes.parentId, values.parentId) : isNull(menuNodes.parentId),
      ),
    );
  const sort = last?.m === null || last?.m === undefined ? 0 : last.m + 1;
  const [n] = await tx
    .insert(menuNodes)
    .values({ ...values, sort })
    .returning();
  return n!;
}

/** Changes a node (its `updatedAt` too). */
export async function updateNode(tx: Tx, id: string, set: Partial<NewNodeRow>): Promise<NodeRow> {
  const [u] = await tx
    .update(menuNodes)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(menuNodes.id, id))
    .returning();
  return u!;
}

/** Puts a node at `sort` among its siblings; `parentId` given: under that parent (a move, which touches the node). */
export async function placeNode(tx: Tx, id: string, sort: number, parentId?: string | null): Promise<void> {
  await tx
    .update(menuNodes)
    .set(parentId === undefined ? { sort } : { parentId, sort, updatedAt: new Date() })
    .where(eq(menuNodes.id, id));
}

export async function deleteNode(tx: Tx, id: string): Promise<void> {
  await tx.delete(menuNodes).where(eq(menuNodes.id, id));
}

export async function childCountOf(db: DbOrTx, id: string): Promise<number> {
  const [c] = await db.select({ n: count() }).from(menuNodes).where(eq(menuNodes.parentId, id));
  return Number(c?.n ?? 0);
}

/** Menus of a system that name a display group get a new name for it (null: none). */
export async function renameGroupInMenus(tx: Tx, systemId: string, from: string, to: string | null): Promise<void> {
  await tx
    .update(menuNodes)
    .set({ groupName: to })
    .where(and(eq(menuNodes.systemId, systemId), eq(menuNodes.groupName, from)));
}

// ── functions ───────────────────────────────────────────────────────────────

/** The functions of these nodes, in their order. */
export async function functionsOfNodes(db: DbOrTx, nodeIds: string[]): Promise<FunctionRow[]> {
  if (!nodeIds.length) return [];
  return db.select().from(nodeFunctions).where(inArray(nodeFunctions.nodeId, nodeIds)).orderBy(asc(nodeFunctions.sort));
}

/** A node's functions become `functions`, in that order. */
export async function replaceFunctions(
  tx: Tx,
  nodeId: string,
  functions: { code: string; name: string; color: string; show: boolean; kind: string }[],
): Promise<void> {
  await tx.delete(nodeFunctions).where(eq(nodeFunctions.nodeId, nodeId));
  if (functions.length) {
    await tx.insert(nodeFunctions).values(functions.map((f, i) => ({ ...f, nodeId, sort: i })));
  }
}

/** The nodes of a system that have functions, with how many, in menu order. */
export async function nodesWithFunctions(db: DbOrTx, systemId: string) {
  const rows = await db
    .select({ gnCoding: menuNodes.gnCoding, title: menuNodes.title, n: count(nodeFunctions.id) })
    .from(menuNodes)
    .innerJoin(nodeFunctions, eq(nodeFunctions.nodeId, menuNodes.id))
    .where(eq(menuNodes.systemId, systemId))
    .groupBy(menuNodes.id)
    .orderBy(asc(menuNodes.sort));
  return rows.map((r) => ({ gnCoding: r.gnCoding, title: r.title, count: Number(r.n) }));
}
