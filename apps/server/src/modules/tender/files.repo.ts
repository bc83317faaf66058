import type { CLARIFY_FILE_NODE, TENDER_DOC_FILE_NODE } from '@ks/contracts';
import { and, asc, count, countDistinct, desc, eq, isNull, or, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import {
  enterprises,
  files,
  tenderClarifications,
  tenderDocumentDownloads,
  tenderDocuments,
  tenderRegistrations,
  tenderSections,
  users,
} from '../../db/schema';
import { findSection } from './section.repo';

/** Reads and writes of tender documents, their downloads and clarifications (parameterised through drizzle only). */

export type { SectionRow } from './section.repo';
export type DocumentRow = typeof tenderDocuments.$inferSelect;
export type ClarificationRow = typeof tenderClarifications.$inferSelect;

export const sectionById = (q: DbOrTx, id: string, lock = false) => findSection(q, id, lock ? 'update' : undefined);

/** A section's documents with their files, oldest first. */
export async function documentsOf(q: DbOrTx, sectionId: string) {
  return q
    .select({ d: tenderDocuments, fileName: files.fileName, fileSize: files.fileSize })
    .from(tenderDocuments)
    .innerJoin(files, eq(files.id, tenderDocuments.fileId))
    .where(eq(tenderDocuments.sectionId, sectionId))
    .orderBy(asc(tenderDocuments.createdAt), asc(tenderDocuments.id));
}

export async function documentById(q: DbOrTx, id: string) {
  const [r] = await q
    .select({ d: tenderDocuments, f: files })
    .from(tenderDocuments)
    .innerJoin(files, eq(files.id, tenderDocuments.fileId))
    .where(eq(tenderDocuments.id, id));
  return r ?? null;
}

/**
 * Binds an uploaded file of the caller's side (their upload, or their enterprise's) that nothing holds yet to a record
 * of this module: the files module's reader of `node` then decides who reads it. Answers whether it was bound.
 */
export async function bindFile(
  tx: Tx,
  node: typeof TENDER_DOC_FILE_NODE | typeof CLARIFY_FILE_NODE,
  fileId: string,
  recordId: string,
  side: { userId: string; enterpriseId: string | null },
): Promise<boolean> {
  const rows = await tx
    .update(files)
    .set({ gnCoding: node, recordId })
    .where(
      and(
        eq(files.id, fileId),
        side.enterpriseId
          ? or(eq(files.ownerId, side.userId), eq(files.enterpriseId, side.enterpriseId))
          : eq(files.ownerId, side.userId),
        or(isNull(files.gnCoding), eq(files.gnCoding, node)),
        or(isNull(files.recordId), eq(files.recordId, recordId)),
      ),
    )
    .returning({ id: files.id });
  return rows.length === 1;
}

/** Unbinds a file from a record: an upload nobody holds, which the files module sweeps later. */
export async function unbindFile(tx: Tx, node: string, fileId: string, recordId: string) {
  await tx
    .update(files)
    .set({ recordId: null })
    .where(and(eq(files.id, fileId), eq(files.gnCoding, node), eq(files.recordId, recordId)));
}

export async function downloadCountOf(q: DbOrTx, documentId: string): Promise<number> {
  const [r] = await q
    .select({ n: count() })
    .from(tenderDocumentDownloads)
    .where(eq(tenderDocumentDownloads.documentId, documentId));
  return Number(r?.n ?? 0);
}

/** Per document of the section: downloads and distinct enterprises (of one enterprise only, when given). */
export async function downloadCounts(q: DbOrTx, sectionId: string, enterpriseId?: string) {
  const where = and(
    eq(tenderDocumentDownloads.sectionId, sectionId),
    enterpriseId ? eq(tenderDocumentDownloads.enterpriseId, enterpriseId) : undefined,
  );
  const perDoc = await q
    .select({
      documentId: tenderDocumentDownloads.documentId,
      downloads: count(),
      enterprises: countDistinct(tenderDocumentDownloads.enterpriseId),
    })
    .from(tenderDocumentDownloads)
    .where(where)
    .groupBy(tenderDocumentDownloads.documentId);
  const [total] = await q
    .select({ downloads: count(), enterprises: countDistinct(tenderDocumentDownloads.enterpriseId) })
    .from(tenderDocumentDownloads)
    .where(where);
  return {
    perDoc: new Map(
      perDoc.map((r) => [r.documentId, { downloads: Number(r.downloads), enterprises: Number(r.enterprises) }]),
    ),
    downloads: Number(total?.downloads ?? 0),
    enterprises: Number(total?.enterprises ?? 0),
  };
}

/** Download records with their document, section and enterprise, newest first; `where` narrows them. */
export async function downloadRows(q: DbOrTx, where: SQL | undefined, limit: number, offset = 0) {
  return q
    .select({
      r: tenderDocumentDownloads,
      documentName: tenderDocuments.name,
      kind: tenderDocuments.kind,
      fileName: files.fileName,
      section: {
        id: tenderSections.id,
        code: tenderSections.code,
        name: tenderSections.name,
        projectId: tenderSections.projectId,
      },
      enterpriseName: enterprises.name,
    })
    .from(tenderDocumentDownloads)
    .innerJoin(tenderDocuments, eq(tenderDocuments.id, tenderDocumentDownloads.documentId))
    .innerJoin(files, eq(files.id, tenderDocuments.fileId))
    .innerJoin(tenderSections, eq(tenderSections.id, tenderDocumentDownloads.sectionId))
    .innerJoin(enterprises, eq(enterprises.id, tenderDocumentDownloads.enterpriseId))
    .where(where)
    .orderBy(desc(tenderDocumentDownloads.downloadedAt), desc(tenderDocumentDownloads.id))
    .limit(limit)
    .offset(offset);
}
export type DownloadListRow = Awaited<ReturnType<typeof downloadRows>>[number];

export const downloadsWhere = (opts: { sectionId?: string; enterpriseId?: string }) =>
  and(
    opts.sectionId ? eq(tenderDocumentDownloads.sectionId, opts.sectionId) : undefined,
    opts.enterpriseId ? eq(tenderDocumentDownloads.enterpriseId, opts.enterpriseId) : undefined,
  );

export async function downloadTotal(q: DbOrTx, where: SQL | undefined): Promise<number> {
  const [r] = await q.select({ n: count() }).from(tenderDocumentDownloads).where(where);
  return Number(r?.n ?? 0);
}

export async function insertDownload(tx: Tx, v: typeof tenderDocumentDownloads.$inferInsert) {
  const [r] = await tx.insert(tenderDocumentDownloads).values(v).returning();
  return r!;
}

// ── clarifications ─────────────────────────────────────────────────────────

export async function clarificationsOf(q: DbOrTx, sectionId: string, onlySent = false) {
  return q
    .select({ c: tenderClarifications, fileName: files.fileName })
    .from(tenderClarifications)
    .leftJoin(files, eq(files.id, tenderClarifications.fileId))
    .where(
      and(
        eq(tenderClarifications.sectionId, sectionId),
        onlySent ? eq(tenderClarifications.status, 'sent') : undefined,
      ),
    )
    .orderBy(desc(tenderClarifications.createdAt), desc(tenderClarifications.id));
}

/** The section's clarifications that carry a file, with the file's name and size. */
export async function clarificationFilesOf(q: DbOrTx, sectionId: string) {
  return q
    .select({ c: tenderClarifications, fileId: files.id, fileName: files.fileName, fileSize: files.fileSize })
    .from(tenderClarifications)
    .innerJoin(files, eq(files.id, tenderClarifications.fileId))
    .where(eq(tenderClarifications.sectionId, sectionId))
    .orderBy(asc(tenderClarifications.createdAt), asc(tenderClarifications.id));
}

export async function clarificationById(q: DbOrTx, id: string, lock = false): Promise<ClarificationRow | null> {
  const base = q.select().from(tenderClarifications).where(eq(tenderClarifications.id, id));
  const [r] = lock ? await base.for('update') : await base;
  return r ?? null;
}

export async function clarificationView(q: DbOrTx, id: string) {
  const [r] = await q
    .select({ c: tenderClarifications, fileName: files.fileName })
    .from(tenderClarifications)
    .leftJoin(files, eq(files.id, tenderClarifications.fileId))
    .where(eq(tenderClarifications.id, id));
  return r ?? null;
}

/** The active accounts of every enterprise registered for the section (who a sent clarification tells). */
export async function registeredAccounts(q: DbOrTx, sectionId: string) {
  return q
    .select({ userId: users.id, enterpriseId: users.enterpriseId })
    .from(tenderRegistrations)
    .innerJoin(users, eq(users.enterpriseId, tenderRegistrations.enterpriseId))
    .where(and(eq(tenderRegistrations.sectionId, sectionId), eq(users.status, 'active')))
    .orderBy(asc(users.createdAt));
}

export async function registeredEnterpriseCount(q: DbOrTx, sectionId: string): Promise<number> {
  const [r] = await q
    .select({ n: count() })
    .from(tenderRegistrations)
    .where(eq(tenderRegistrations.sectionId, sectionId));
  return Number(r?.n ?? 0);
}
