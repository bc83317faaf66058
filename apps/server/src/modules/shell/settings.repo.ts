import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import {
  auditLevels,
  businessSystems,
  headerMenus,
  menuNodes,
  noticeJumps,
  styleTemplates,
  userThemes,
} from '../../db/schema';

/** Database access of the shell's settings: header menus, themes, audit levels, notice jumps, style templates. */

export type AuditLevelRow = typeof auditLevels.$inferSelect;
export type NoticeJumpRow = typeof noticeJumps.$inferSelect;
export type StyleTemplateRow = typeof styleTemplates.$inferSelect;

export function enabledHeaderMenus(db: DbOrTx) {
  return db.select().from(headerMenus).where(eq(headerMenus.enabled, true)).orderBy(asc(headerMenus.sort));
}

/** The theme a user saved (any JSON; the service checks it), if any. */
export async function savedTheme(db: DbOrTx, userId: string): Promise<unknown> {
  const [row] = await db.select().from(userThemes).where(eq(userThemes.userId, userId));
  return row?.theme;
}

export async function upsertTheme(tx: Tx, userId: string, theme: object): Promise<void> {
  await tx
    .insert(userThemes)
    .values({ userId, theme })
    .onConflictDoUpdate({ target: userThemes.userId, set: { theme, updatedAt: new Date() } });
}

// ── audit levels ────────────────────────────────────────────────────────────

export function auditLevelsOf(db: DbOrTx, nodeId: string): Promise<AuditLevelRow[]> {
  return db.select().from(auditLevels).where(eq(auditLevels.nodeId, nodeId)).orderBy(asc(auditLevels.level));
}

export async function replaceAuditLevels(
  tx: Tx,
  nodeId: string,
  levels: Omit<typeof auditLevels.$inferInsert, 'nodeId'>[],
): Promise<void> {
  await tx.delete(auditLevels).where(eq(auditLevels.nodeId, nodeId));
  if (levels.length) await tx.insert(auditLevels).values(levels.map((l) => ({ ...l, nodeId })));
}

export async function setAuditWay(tx: Tx, nodeId: string, level: number, way: string): Promise<void> {
  await tx
    .update(auditLevels)
    .set({ way })
    .where(and(eq(auditLevels.nodeId, nodeId), eq(auditLevels.level, level)));
}

// ── notice jumps ────────────────────────────────────────────────────────────

/** Every notice jump with its node and the node's system, oldest first. */
export function noticeJumpsWithNodes(db: DbOrTx) {
  return db
    .select({ j: noticeJumps, n: menuNodes, s: businessSystems })
    .from(noticeJumps)
    .innerJoin(menuNodes, eq(menuNodes.id, noticeJumps.nodeId))
    .innerJoin(businessSystems, eq(businessSystems.id, menuNodes.systemId))
    .orderBy(asc(noticeJumps.createdAt));
}

export async function findNoticeJump(db: DbOrTx, id: string): Promise<NoticeJumpRow | undefined> {
  const [j] = await db.select().from(noticeJumps).where(eq(noticeJumps.id, id));
  return j;
}

type NoticeJumpValues = { name: string; msgType: string; nodeId: string; enabled: boolean };

export async function insertNoticeJump(tx: Tx, values: NoticeJumpValues): Promise<NoticeJumpRow> {
  const [c] = await tx.insert(noticeJumps).values(values).returning();
  return c!;
}

/** The jump changed, or undefined when there is none of that id. */
export async function updateNoticeJump(
  tx: Tx,
  id: string,
  values: NoticeJumpValues,
): Promise<NoticeJumpRow | undefined> {
  const [u] = await tx.update(noticeJumps).set(values).where(eq(noticeJumps.id, id)).returning();
  return u;
}

export async function deleteNoticeJump(tx: Tx, id: string): Promise<void> {
  await tx.delete(noticeJumps).where(eq(noticeJumps.id, id));
}

// ── style templates ─────────────────────────────────────────────────────────

export function styleTemplateRows(db: DbOrTx): Promise<StyleTemplateRow[]> {
  return db.select().from(styleTemplates).orderBy(asc(styleTemplates.createdAt));
}

export async function findStyleTemplate(db: DbOrTx, id: string): Promise<StyleTemplateRow | undefined> {
  const [t] = await db.select().from(styleTemplates).where(eq(styleTemplates.id, id));
  return t;
}

export async function insertStyleTemplate(
  tx: Tx,
  values: typeof styleTemplates.$inferInsert,
): Promise<StyleTemplateRow> {
  const [t] = await tx.insert(styleTemplates).values(values).returning();
  return t!;
}

export async function deleteStyleTemplate(tx: Tx, id: string): Promise<void> {
  await tx.delete(styleTemplates).where(eq(styleTemplates.id, id));
}
