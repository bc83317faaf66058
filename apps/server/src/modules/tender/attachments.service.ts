import {
  TENDER_ATTACHMENT_MESSAGES as AM,
  type ClarifyStatus,
  TENDER_FILE_MESSAGES as M,
  type ProjectSectionFiles,
  type SectionAttachment,
  type SectionAttachments,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { forbidden, notFound } from '../../platform/errors';
import type { EngineCaller } from '../engine/record-access';
import * as repo from './files.repo';
import { sectionAccess } from './files-access';
import { sectionsOfProject } from './section.repo';
import { projectForReader } from './tender.service';

/**
 * 标段附件 (bd/attachments) and 项目标段文件 (bd-files), issue 16: every file attached to a section — its tender
 * documents with the bidders' recorded downloads, and its clarifications' files with their status — in one place, for
 * whoever may read the project (its side, the centre, developers, its reviewers and its supervisors). Read-only: the
 * files are read through the files module, whose readers of documents and clarifications let the same people in.
 * A bidder, who may not read the project, downloads documents through the recorded download of the 招标文件 tab.
 */

const CLARIFICATION_KIND = '澄清文件';

async function attachmentsOf(db: Db, section: { id: string; code: string; name: string }): Promise<SectionAttachments> {
  const [docs, counts, clarifications] = await Promise.all([
    repo.documentsOf(db, section.id),
    repo.downloadCounts(db, section.id),
    repo.clarificationFilesOf(db, section.id),
  ]);
  const attachments: SectionAttachment[] = [
    ...docs.map((r) => ({
      source: 'document' as const,
      id: r.d.id,
      kind: r.d.kind,
      name: r.d.name,
      fileId: r.d.fileId,
      fileName: r.fileName,
      fileSize: Number(r.fileSize),
      by: r.d.uploadedByName,
      at: r.d.createdAt.toISOString(),
      status: null,
      downloads: counts.perDoc.get(r.d.id)?.downloads ?? 0,
    })),
    ...clarifications.map((r) => ({
      source: 'clarification' as const,
      id: r.c.id,
      kind: CLARIFICATION_KIND,
      name: r.c.title,
      fileId: r.fileId,
      fileName: r.fileName,
      fileSize: Number(r.fileSize),
      by: r.c.createdByName,
      at: (r.c.sentAt ?? r.c.createdAt).toISOString(),
      status: r.c.status as ClarifyStatus,
      downloads: null,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  return { sectionId: section.id, sectionCode: section.code, sectionName: section.name, attachments };
}

/** One section's attachments: readers of the project; a registered bidder 403, anyone else 404. */
export async function sectionAttachments(db: Db, c: EngineCaller, sectionId: string): Promise<SectionAttachments> {
  const a = await sectionAccess(db, c, sectionId);
  if (!a.reader) {
    if (a.bidder) throw forbidden(AM.notReader);
    throw notFound(M.sectionMissing);
  }
  return attachmentsOf(db, a.section);
}

/** The attachments of every section of a project the caller may read (else 404), in section-code order. */
export async function projectFiles(db: Db, c: EngineCaller, projectId: string): Promise<ProjectSectionFiles> {
  await projectForReader(db, c, projectId);
  const sections = await sectionsOfProject(db, projectId);
  return { projectId, sections: await Promise.all(sections.map((s) => attachmentsOf(db, s))) };
}
