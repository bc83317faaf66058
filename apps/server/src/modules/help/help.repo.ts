import { and, asc, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from '../../db/client';
import { businessSystems, files, helpFaqs, helpFiles, helpGroups, menuNodes } from '../../db/schema';

/** Queries of help groups, help files and FAQ (screen 10). */

export type GroupRow = typeof helpGroups.$inferSelect;
export type FaqRow = typeof helpFaqs.$inferSelect;
export interface FileOfGroup {
  id: string;
  groupId: string;
  fileId: string;
  kind: string;
  fileName: string;
  sort: number;
}

/** Rows of a system: where `gnCoding` is given, the node's own and the system-wide ones (node first); else all. */
const place = (
  t: { systemCoding: PgColumn; gnCoding: PgColumn },
  systemCoding: string,
  gnCoding: string | undefined,
  everyNode: boolean,
) =>
  and(
    eq(t.systemCoding, systemCoding),
    everyNode ? undefined : gnCoding ? or(eq(t.gnCoding, gnCoding), isNull(t.gnCoding)) : isNull(t.gnCoding),
  );

export async function groupsOf(db: DbOrTx, systemCoding: string, gnCoding: string | undefined, everyNode = false) {
  return db
    .select()
    .from(helpGroups)
    .where(place(helpGroups, systemCoding, gnCoding, everyNode))
    .orderBy(
      sql`${helpGroups.gnCoding} is null`,
      asc(helpGroups.gnCoding),
      asc(helpGroups.sort),
      asc(helpGroups.createdAt),
    );
}

export async function filesOfGroups(db: DbOrTx, groupIds: string[]): Promise<FileOfGroup[]> {
  if (!groupIds.length) return [];
  return db
    .select({
      id: helpFiles.id,
      groupId: helpFiles.groupId,
      fileId: helpFiles.fileId,
      kind: helpFiles.kind,
      fileName: files.fileName,
      sort: helpFiles.sort,
    })
    .from(helpFiles)
    .innerJoin(files, eq(files.id, helpFiles.fileId))
    .where(sql`${helpFiles.groupId} in ${groupIds}`)
    .orderBy(asc(helpFiles.sort), asc(helpFiles.createdAt));
}

export async function faqsOf(db: DbOrTx, systemCoding: string, gnCoding: string | undefined, everyNode = false) {
  return db
    .select()
    .from(helpFaqs)
    .where(place(helpFaqs, systemCoding, gnCoding, everyNode))
    .orderBy(sql`${helpFaqs.gnCoding} is null`, asc(helpFaqs.gnCoding), asc(helpFaqs.sort), asc(helpFaqs.createdAt));
}

/** Does the system exist, and (when named) is the node one of its nodes? */
export async function placeExists(db: DbOrTx, systemCoding: string, gnCoding: string | undefined) {
  const [s] = await db
    .select({ id: businessSystems.id })
    .from(businessSystems)
    .where(eq(businessSystems.gnCoding, systemCoding));
  if (!s) return { system: false, node: false };
  if (!gnCoding) return { system: true, node: true };
  const [n] = await db
    .select({ id: menuNodes.id })
    .from(menuNodes)
    .where(and(eq(menuNodes.systemId, s.id), eq(menuNodes.gnCoding, gnCoding)));
  return { system: true, node: Boolean(n) };
}

export async function groupById(db: DbOrTx, id: string) {
  const [g] = await db.select().from(helpGroups).where(eq(helpGroups.id, id));
  return g;
}

export async function insertGroup(tx: Tx, row: typeof helpGroups.$inferInsert) {
  const [g] = await tx.insert(helpGroups).values(row).returning();
  return g!;
}

export async function updateGroup(tx: Tx, id: string, set: Partial<typeof helpGroups.$inferInsert>) {
  const [g] = await tx
    .update(helpGroups)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(helpGroups.id, id))
    .returning();
  return g;
}

/** Deletes a group (its help-file rows go with it); answers the file ids it held. */
export async function deleteGroup(tx: Tx, id: string): Promise<string[] | null> {
  const held = await tx.select({ fileId: helpFiles.fileId }).from(helpFiles).where(eq(helpFiles.groupId, id));
  const gone = await tx.delete(helpGroups).where(eq(helpGroups.id, id)).returning({ id: helpGroups.id });
  return gone.length ? held.map((h) => h.fileId) : null;
}

export async function helpFileById(db: DbOrTx, id: string) {
  const [f] = await db.select().from(helpFiles).where(eq(helpFiles.id, id));
  return f;
}

export async function fileRow(db: DbOrTx, id: string) {
  const [f] = await db.select().from(files).where(eq(files.id, id));
  return f;
}

export async function isHelpFileBound(db: DbOrTx, fileId: string) {
  const [f] = await db.select({ id: helpFiles.id }).from(helpFiles).where(eq(helpFiles.fileId, fileId));
  return Boolean(f);
}

export async function nextFileSort(tx: Tx, groupId: string) {
  const [r] = await tx
    .select({ n: sql<number>`coalesce(max(${helpFiles.sort}), 0)::int + 1` })
    .from(helpFiles)
    .where(eq(helpFiles.groupId, groupId));
  return r?.n ?? 1;
}

export async function insertHelpFile(tx: Tx, row: typeof helpFiles.$inferInsert) {
  const [f] = await tx.insert(helpFiles).values(row).returning();
  return f!;
}

export async function deleteHelpFile(tx: Tx, id: string) {
  const [f] = await tx.delete(helpFiles).where(eq(helpFiles.id, id)).returning();
  return f;
}

/** Binds a stored file to its help-file row (the files module's node code and record id), or unbinds it. */
export async function bindFile(tx: Tx, fileId: string, bound: { gnCoding: string; recordId: string } | null) {
  await tx
    .update(files)
    .set({ gnCoding: bound?.gnCoding ?? null, recordId: bound?.recordId ?? null })
    .where(eq(files.id, fileId));
}

export async function faqById(db: DbOrTx, id: string) {
  const [f] = await db.select().from(helpFaqs).where(eq(helpFaqs.id, id));
  return f;
}

export async function insertFaq(tx: Tx, row: Omit<typeof helpFaqs.$inferInsert, 'searchText'>) {
  const [f] = await tx.insert(helpFaqs).values(row).returning();
  return f!;
}

export async function updateFaq(tx: Tx, id: string, set: Partial<Omit<typeof helpFaqs.$inferInsert, 'searchText'>>) {
  const [f] = await tx
    .update(helpFaqs)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(helpFaqs.id, id))
    .returning();
  return f;
}

export async function deleteFaq(tx: Tx, id: string) {
  const [f] = await tx.delete(helpFaqs).where(eq(helpFaqs.id, id)).returning();
  return f;
}

/**
 * The FAQ entries nearest to a question: pg_trgm word similarity of the question against each entry's question and
 * answer (`<%` uses the trigram GIN index, with the threshold set for this transaction), best first.
 */
export async function nearestFaqs(tx: Tx, question: string, limit: number, threshold: number) {
  await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(threshold)}, true)`);
  const score = sql<number>`greatest(word_similarity(${question}, ${helpFaqs.searchText}), similarity(${question}, ${helpFaqs.question}))`;
  return tx
    .select({
      id: helpFaqs.id,
      question: helpFaqs.question,
      answer: helpFaqs.answer,
      systemCoding: helpFaqs.systemCoding,
      gnCoding: helpFaqs.gnCoding,
      score: sql<number>`${score}::float8`,
    })
    .from(helpFaqs)
    .where(sql`${question} <% ${helpFaqs.searchText}`)
    .orderBy(desc(score), asc(helpFaqs.sort), asc(helpFaqs.id))
    .limit(limit);
}
