import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  type DownloadRecord,
  type DownloadStatus,
  TENDER_FILE_MESSAGES as M,
  TENDER_DOC_FILE_NODE,
  TENDER_PROJECT_NODE,
  type TenderDoc,
  type TenderDocInput,
  type TenderDocKind,
  type TenderDocs,
} from '@ks/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tenderDocuments } from '../../db/schema';
import { isUniqueViolation } from '../../db/sql';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import type { Storage } from '../../platform/storage';
import type { EngineCaller } from '../engine/record-access';
import { registerFileReader } from '../files/readers';
import * as repo from './files.repo';
import { documentsLocked, downloadProblem, type SectionAccess, saleStartsAt, sectionAccess } from './files-access';
import { projects } from './project';

/**
 * The tender documents of a section (招标文件, issue 16). The project's side saves uploaded files as the section's
 * documents and deletes them until they go on sale; a registered bidder downloads them from the sale's start until
 * the bid deadline, each download streamed here and recorded in the same request; who downloaded stays hidden from the
 * tenderee until opening (counts only), the trading centre sees everything, a bidder its own. Every change is an
 * operation-log row.
 */
export interface TenderFilesDeps {
  db: Db;
  storage: Storage;
  now: () => Date;
  tz: string;
}

export const GL_DOCS = '招标文件';
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

// Outside the recorded download, a document's file is read by whoever may read the project (its side, the centre,
// developers, its reviewers) — never by a bidder, who downloads through the record.
registerFileReader(TENDER_DOC_FILE_NODE, async (db, c, documentId) => {
  const d = await repo.documentById(db, documentId);
  if (!d) return false;
  return (await sectionAccess(db, c, d.d.sectionId)).reader;
});

function docView(
  r: { d: repo.DocumentRow; fileName: string; fileSize: number },
  ops: { delete: boolean; download: boolean },
): TenderDoc {
  return {
    id: r.d.id,
    sectionId: r.d.sectionId,
    kind: r.d.kind as TenderDocKind,
    name: r.d.name,
    fileId: r.d.fileId,
    fileName: r.fileName,
    fileSize: Number(r.fileSize),
    uploadedBy: r.d.uploadedByName,
    createdAt: r.d.createdAt.toISOString(),
    operations: ops,
  };
}

/** The side (else 403: a project the caller cannot read is 404 before that). */
async function sideOf(deps: TenderFilesDeps, c: EngineCaller, sectionId: string): Promise<SectionAccess> {
  const a = await sectionAccess(deps.db, c, sectionId);
  if (!a.side) {
    if (!a.reader && !a.bidder) throw notFound(M.sectionMissing);
    throw forbidden(M.notSide);
  }
  return a;
}

/** The section's documents as the caller may see them (the side, the centre, readers, registered bidders). */
export async function sectionDocuments(deps: TenderFilesDeps, c: EngineCaller, sectionId: string): Promise<TenderDocs> {
  const a = await sectionAccess(deps.db, c, sectionId);
  if (!(a.reader || a.bidder)) throw forbidden(M.notViewer);
  const s = a.section;
  const now = deps.now();
  const locked = documentsLocked(s, now, deps.tz);
  const canEdit = a.side && !locked;
  const bidderProblem = a.bidder ? downloadProblem(s, now, deps.tz) : null;
  const canDownload = a.bidder ? bidderProblem === null : a.side || a.centre;
  const rows = await repo.documentsOf(deps.db, s.id);
  return {
    sectionId: s.id,
    sectionCode: s.code,
    sectionName: s.name,
    docSaleStart: s.docSaleStart,
    docSaleEnd: s.docSaleEnd,
    saleStartsAt: saleStartsAt(s, deps.tz).toISOString(),
    bidDeadline: s.bidDeadline.toISOString(),
    noticePublishedAt: iso(s.noticePublishedAt),
    role: a.side ? 'side' : a.centre ? 'centre' : a.bidder ? 'bidder' : 'reader',
    canEdit,
    editProblem: a.side ? locked : null,
    canDownload,
    downloadProblem: a.bidder ? bidderProblem : null,
    documents: rows.map((r) => docView(r, { delete: canEdit, download: canDownload })),
  };
}

/** Saves an uploaded file of the side as a document of the section, until the documents go on sale. */
export async function saveDocument(deps: TenderFilesDeps, c: EngineCaller, input: TenderDocInput): Promise<TenderDoc> {
  const a = await sideOf(deps, c, input.sectionId);
  const now = deps.now();
  const id = randomUUID();
  try {
    await deps.db.transaction(async (tx) => {
      // the section as it is now (a notice published meanwhile decides)
      const s = await repo.sectionById(tx, a.section.id, true);
      if (!s) throw notFound(M.sectionMissing);
      const locked = documentsLocked(s, now, deps.tz);
      if (locked) throw conflict(locked);
      if (
        !(await repo.bindFile(tx, TENDER_DOC_FILE_NODE, input.fileId, id, {
          userId: c.id,
          enterpriseId: c.enterpriseId,
        }))
      )
        throw badRequest(M.fileMissing);
      await tx.insert(tenderDocuments).values({
        id,
        sectionId: s.id,
        fileId: input.fileId,
        kind: input.kind,
        name: input.name,
        uploadedBy: c.id,
        uploadedByName: c.actor.userName,
        createdAt: now,
      });
      await writeOpLog(tx, c.actor, {
        glName: GL_DOCS,
        gnCoding: TENDER_PROJECT_NODE,
        recordId: s.projectId,
        logbook: `标段 ${s.code} ${s.name} 上传${input.kind}「${input.name}」`,
      });
    });
  } catch (e) {
    if (isUniqueViolation(e, 'tender_documents_file_uq')) throw badRequest(M.fileMissing);
    throw e;
  }
  const r = await repo.documentById(deps.db, id);
  return docView({ d: r!.d, fileName: r!.f.fileName, fileSize: r!.f.fileSize }, { delete: true, download: true });
}

/** Deletes a document of the side's section while the documents are not on sale (never a downloaded one). */
export async function deleteDocument(deps: TenderFilesDeps, c: EngineCaller, id: string): Promise<void> {
  const d = await repo.documentById(deps.db, id);
  if (!d) throw notFound(M.documentMissing);
  await sideOf(deps, c, d.d.sectionId);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const s = await repo.sectionById(tx, d.d.sectionId, true);
    if (!s) throw notFound(M.sectionMissing);
    const locked = documentsLocked(s, now, deps.tz);
    if (locked) throw conflict(locked);
    if ((await repo.downloadCountOf(tx, id)) > 0)
      throw conflict('该招标文件已有投标人下载，不能删除，请以澄清或修改说明');
    const gone = await tx
      .delete(tenderDocuments)
      .where(eq(tenderDocuments.id, id))
      .returning({ id: tenderDocuments.id });
    if (!gone.length) throw notFound(M.documentMissing);
    await repo.unbindFile(tx, TENDER_DOC_FILE_NODE, d.d.fileId, id);
    await writeOpLog(tx, c.actor, {
      glName: GL_DOCS,
      gnCoding: TENDER_PROJECT_NODE,
      recordId: s.projectId,
      logbook: `标段 ${s.code} ${s.name} 删除${d.d.kind}「${d.d.name}」（${d.f.fileName}）`,
    });
  });
}

export interface OpenedDownload {
  fileName: string;
  fileSize: number;
  body: Readable;
}

/**
 * Opens a document for download. A registered bidder, from the sale's start until the deadline: the download is
 * recorded (document, user, enterprise, time, address) in this request, after the stored bytes were found. The side
 * and the centre read it too (an operation-log row, not a bidder's download). Anyone else: refused with the reason.
 */
export async function openDownload(
  deps: TenderFilesDeps,
  c: EngineCaller,
  id: string,
  ip: string | null,
): Promise<OpenedDownload> {
  const d = await repo.documentById(deps.db, id);
  if (!d) throw notFound(M.documentMissing);
  const a = await sectionAccess(deps.db, c, d.d.sectionId);
  const now = deps.now();
  const s = a.section;
  if (!a.bidder && !a.side && !a.centre) {
    if (c.loginRoleType === 'U' && c.enterpriseId) throw forbidden(M.notRegistered);
    throw forbidden(M.notBidder);
  }
  if (a.bidder && !a.side) {
    const problem = downloadProblem(s, now, deps.tz);
    if (problem) throw conflict(problem);
  }
  const body = await deps.storage.get(d.f.storageKey);
  try {
    await deps.db.transaction(async (tx) => {
      if (a.bidder && !a.side) {
        // the deadline as it is at this moment (a clarification may just have moved it)
        const locked = await repo.sectionById(tx, s.id);
        const late = locked ? downloadProblem(locked, now, deps.tz) : M.sectionMissing;
        if (late) throw conflict(late);
        await repo.insertDownload(tx, {
          documentId: d.d.id,
          sectionId: s.id,
          userId: c.id,
          userName: c.actor.userName,
          enterpriseId: a.bidder,
          ip,
          downloadedAt: now,
        });
      }
      await writeOpLog(
        tx,
        { ...c.actor, ip },
        {
          glName: GL_DOCS,
          gnCoding: TENDER_PROJECT_NODE,
          recordId: s.projectId,
          logbook: `下载标段 ${s.code} ${s.name} 的${d.d.kind}「${d.d.name}」（${d.f.fileName}）${a.bidder && !a.side ? '' : '（项目方或交易中心查阅，不计入投标人下载记录）'}`,
        },
      );
    });
  } catch (e) {
    body.destroy();
    throw e;
  }
  return { fileName: d.f.fileName, fileSize: Number(d.f.fileSize), body };
}

async function projectLabels(db: Db, projectIds: string[]) {
  const out = new Map<string, string>();
  for (const id of new Set(projectIds)) {
    const p = await projects.get(db, id);
    out.set(id, p?.values.xmbh ?? '');
  }
  return out;
}

async function recordViews(db: Db, rows: repo.DownloadListRow[]): Promise<DownloadRecord[]> {
  const codes = await projectLabels(
    db,
    rows.map((r) => r.section.projectId),
  );
  return rows.map((r) => ({
    id: r.r.id,
    sectionId: r.section.id,
    sectionLabel: `${codes.get(r.section.projectId) ?? ''} ${r.section.code} ${r.section.name}`.trim(),
    documentId: r.r.documentId,
    documentName: r.documentName,
    kind: r.kind as TenderDocKind,
    fileName: r.fileName,
    userName: r.r.userName,
    enterpriseName: r.enterpriseName,
    ip: r.r.ip,
    downloadedAt: r.r.downloadedAt.toISOString(),
  }));
}

/**
 * Who downloaded which document: the centre everything; the project's side (and other readers of the project) counts
 * only until opening (the bid deadline), everything after; a bidder its own enterprise's records. Anyone else: 403.
 */
export async function downloadStatus(
  deps: TenderFilesDeps,
  c: EngineCaller,
  sectionId: string,
): Promise<DownloadStatus> {
  const a = await sectionAccess(deps.db, c, sectionId);
  const s = a.section;
  const opened = s.bidDeadline.getTime() <= deps.now().getTime();
  let visibility: DownloadStatus['visibility'];
  if (a.centre) visibility = 'full';
  else if (a.side || a.reader) visibility = opened && a.side ? 'full' : 'counts';
  else if (a.bidder) visibility = 'own';
  else throw forbidden(M.notViewer);
  const own = visibility === 'own' ? (a.bidder ?? undefined) : undefined;
  const counts = await repo.downloadCounts(deps.db, s.id, own);
  const docs = await repo.documentsOf(deps.db, s.id);
  const records =
    visibility === 'counts'
      ? []
      : await recordViews(
          deps.db,
          await repo.downloadRows(deps.db, repo.downloadsWhere({ sectionId: s.id, enterpriseId: own }), 1000),
        );
  return {
    sectionId: s.id,
    visibility,
    note: visibility === 'counts' ? M.hiddenBeforeOpening : null,
    opened,
    documents: docs.map((r) => ({
      documentId: r.d.id,
      name: r.d.name,
      kind: r.d.kind as TenderDocKind,
      downloads: counts.perDoc.get(r.d.id)?.downloads ?? 0,
      enterprises: counts.perDoc.get(r.d.id)?.enterprises ?? 0,
    })),
    totalDownloads: counts.downloads,
    totalEnterprises: counts.enterprises,
    records,
  };
}

/** The centre's pages of download records, newest first, of one section or all. */
export async function downloadRecords(
  deps: TenderFilesDeps,
  c: EngineCaller,
  q: { sectionId?: string; page: number; pageSize: number },
): Promise<{ records: DownloadRecord[]; total: number }> {
  if (c.loginRoleType !== 'M') throw forbidden('只有交易中心可以查看全部下载记录');
  if (q.sectionId && !(await repo.sectionById(deps.db, q.sectionId))) throw notFound(M.sectionMissing);
  const where = repo.downloadsWhere({ sectionId: q.sectionId });
  const [rows, total] = await Promise.all([
    repo.downloadRows(deps.db, where, q.pageSize, (q.page - 1) * q.pageSize),
    repo.downloadTotal(deps.db, where),
  ]);
  return { records: await recordViews(deps.db, rows), total };
}
