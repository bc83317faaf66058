import { EXTRACTION_NODE } from '@ks/contracts';
import { and, asc, count, desc, eq, ilike, like, max, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { expertExtractionMembers, expertExtractions, operationLogs } from '../../db/schema';
import { likePattern } from '../../db/sql';

/** Queries of expert extraction. */

export type ExtractionRow = typeof expertExtractions.$inferSelect;
export type MemberRow = typeof expertExtractionMembers.$inferSelect;
export type NewMember = typeof expertExtractionMembers.$inferInsert;

export async function extractionById(q: DbOrTx, id: string, lock = false): Promise<ExtractionRow | null> {
  const base = q.select().from(expertExtractions).where(eq(expertExtractions.id, id));
  const [row] = lock ? await base.for('update') : await base;
  return row ?? null;
}

export function membersOf(q: DbOrTx, extractionId: string): Promise<MemberRow[]> {
  return q
    .select()
    .from(expertExtractionMembers)
    .where(eq(expertExtractionMembers.extractionId, extractionId))
    .orderBy(asc(expertExtractionMembers.line), asc(expertExtractionMembers.seq));
}

export async function listExtractions(
  q: DbOrTx,
  opts: { keyword: string; status?: string; limit: number; offset: number },
): Promise<{ rows: ExtractionRow[]; total: number }> {
  const conds: (SQL | undefined)[] = [];
  if (opts.keyword) {
    const p = likePattern(opts.keyword);
    conds.push(
      or(
        ilike(expertExtractions.projectName, p),
        ilike(expertExtractions.sectionName, p),
        like(expertExtractions.code, p),
        // a five-in-one section's number (SXGC-2026-1102 BD-01): its 专家抽取 tab lists by it
        like(expertExtractions.projectRef, p),
      ),
    );
  }
  if (opts.status) conds.push(eq(expertExtractions.status, opts.status));
  const where = and(...conds);
  const rows = await q
    .select()
    .from(expertExtractions)
    .where(where)
    .orderBy(desc(expertExtractions.createdAt), desc(expertExtractions.id))
    .limit(opts.limit)
    .offset(opts.offset);
  const [t] = await q.select({ n: count() }).from(expertExtractions).where(where);
  return { rows, total: Number(t?.n ?? 0) };
}

/** The next code of the day (CQ20261127-0001), under a transaction-scoped lock so two creations never share one. */
export async function nextCode(tx: Tx, day: string): Promise<string> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('ks.experts.code'))`);
  const prefix = `CQ${day.replace(/-/g, '')}-`;
  // the highest number of the day, not the count: a deleted draft's number is never given again
  const [r] = await tx
    .select({ last: max(expertExtractions.code) })
    .from(expertExtractions)
    .where(like(expertExtractions.code, `${prefix}%`));
  const n = r?.last ? Number(r.last.slice(prefix.length)) : 0;
  return `${prefix}${String((Number.isFinite(n) ? n : 0) + 1).padStart(4, '0')}`;
}

export async function insertExtraction(tx: Tx, values: typeof expertExtractions.$inferInsert): Promise<ExtractionRow> {
  const [row] = await tx.insert(expertExtractions).values(values).returning();
  return row!;
}

/** Sets the fields of the extraction only while it is in `from` (null: nothing matched). */
export async function updateExtraction(
  tx: Tx,
  id: string,
  from: string,
  set: Partial<typeof expertExtractions.$inferInsert>,
): Promise<ExtractionRow | null> {
  const [row] = await tx
    .update(expertExtractions)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(expertExtractions.id, id), eq(expertExtractions.status, from)))
    .returning();
  return row ?? null;
}

export async function deleteDraft(tx: Tx, id: string): Promise<boolean> {
  const rows = await tx
    .delete(expertExtractions)
    .where(
      and(eq(expertExtractions.id, id), eq(expertExtractions.status, 'draft'), sql`${expertExtractions.seed} is null`),
    )
    .returning({ id: expertExtractions.id });
  return rows.length > 0;
}

export async function insertMembers(tx: Tx, rows: NewMember[]): Promise<void> {
  if (rows.length) await tx.insert(expertExtractionMembers).values(rows);
}

export async function answerMember(
  tx: Tx,
  memberId: string,
  set: { answer: 'confirmed' | 'declined'; note: string; answeredAt: Date; answeredBy: string },
): Promise<MemberRow | null> {
  const [row] = await tx
    .update(expertExtractionMembers)
    .set(set)
    .where(and(eq(expertExtractionMembers.id, memberId), eq(expertExtractionMembers.answer, 'pending')))
    .returning();
  return row ?? null;
}

export function logOf(q: DbOrTx, extractionId: string) {
  return q
    .select({ time: operationLogs.czTime, who: operationLogs.czrName, logbook: operationLogs.logbook })
    .from(operationLogs)
    .where(and(eq(operationLogs.gnCoding, EXTRACTION_NODE), eq(operationLogs.recordId, extractionId)))
    .orderBy(asc(operationLogs.czTime), asc(operationLogs.id));
}
