import { instantOfWallClock, TENDER_FILE_MESSAGES as M } from '@ks/contracts';
import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import { ofRecordSide, recordFactsOf } from '../engine/policy';
import { type EngineCaller, engineNode, rowOf } from '../engine/record-access';
import * as repo from './files.repo';
import { projects } from './project';
import { registrationOf } from './registration.service';

/**
 * Who the caller is to a section, for its tender documents and clarifications: of its project's side (the record's
 * enterprise, or its owner without one — as section and notice changes decide it), the trading centre (M), a reader
 * of the project (developers, its reviewers), and/or a bidder whose enterprise registered for it.
 */
export interface SectionAccess {
  section: repo.SectionRow;
  side: boolean;
  centre: boolean;
  /** may read the project record (the side, the centre, developers, its reviewers) */
  reader: boolean;
  /** the caller's enterprise, when it registered for the section */
  bidder: string | null;
}

export async function sectionAccess(db: Db, c: EngineCaller, sectionId: string): Promise<SectionAccess> {
  const section = await repo.sectionById(db, sectionId);
  if (!section) throw notFound(M.sectionMissing);
  let row: Record<string, unknown> | null = null;
  try {
    const n = await engineNode(db, projects.gnCoding);
    row = await rowOf(db, c, projects.gnCoding, section.projectId, n.id);
  } catch {
    row = null;
  }
  const side = row ? ofRecordSide(c, recordFactsOf(row)) : false;
  const bidder =
    c.loginRoleType === 'U' && c.enterpriseId && (await registrationOf(db, section.id, c.enterpriseId))
      ? c.enterpriseId
      : null;
  return { section, side, centre: c.loginRoleType === 'M', reader: row !== null, bidder };
}

/** The instant the documents go on sale: the start of the sale's first day on the centre's calendar. */
export const saleStartsAt = (s: repo.SectionRow, tz: string): Date => instantOfWallClock(`${s.docSaleStart} 00:00`, tz);

/**
 * Why the section's documents can no longer be added or deleted, or null: after the deadline, or once they are on
 * sale (the notice published and the sale started) — from then on they change only by a clarification.
 */
export function documentsLocked(s: repo.SectionRow, now: Date, tz: string): string | null {
  if (s.bidDeadline.getTime() <= now.getTime()) return M.deadlinePassed;
  if (s.noticePublishedAt && now.getTime() >= saleStartsAt(s, tz).getTime()) return M.locked;
  return null;
}

/** Why a registered bidder cannot download now, or null: before the sale starts, or from the bid deadline on. */
export function downloadProblem(s: repo.SectionRow, now: Date, tz: string): string | null {
  if (!s.noticePublishedAt) return M.notPublished;
  if (now.getTime() < saleStartsAt(s, tz).getTime()) return M.notOnSale;
  if (now.getTime() >= s.bidDeadline.getTime()) return M.downloadClosed;
  return null;
}
