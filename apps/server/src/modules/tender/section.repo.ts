import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { tenderSections } from '../../db/schema';
import { notFound } from '../../platform/errors';

/**
 * The one read of a section (标段) by id, for every module of tendering (sections, notices, registration, documents,
 * deposits, sealed bids): optionally locked for the rest of the transaction — 'update' to change it, 'share' to rely
 * on it while others may only read it.
 */
export type SectionRow = typeof tenderSections.$inferSelect;

export async function findSection(q: DbOrTx, id: string, lock?: 'update' | 'share'): Promise<SectionRow | null> {
  const base = q.select().from(tenderSections).where(eq(tenderSections.id, id));
  const [s] = lock ? await base.for(lock) : await base;
  return s ?? null;
}

/** The section, or 404 with the caller's message. */
export async function sectionOr404(
  q: DbOrTx,
  id: string,
  message: string,
  lock?: 'update' | 'share',
): Promise<SectionRow> {
  const s = await findSection(q, id, lock);
  if (!s) throw notFound(message);
  return s;
}

/** A project's sections in code order. */
export async function sectionsOfProject(q: DbOrTx, projectId: string): Promise<SectionRow[]> {
  return q
    .select()
    .from(tenderSections)
    .where(eq(tenderSections.projectId, projectId))
    .orderBy(asc(tenderSections.code));
}
