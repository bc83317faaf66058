import {
  perfRequirementText,
  sectionTimelineProblems,
  TENDER_LEGAL,
  TENDER_MESSAGES,
  TENDER_PROJECT_NODE,
  TENDER_SETTINGS_DEFAULTS,
  type TenderProject,
  type TenderSection,
  type TenderSectionInput,
  type TenderSettings,
  tenderSettingsSchema,
} from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { tenderSections } from '../../db/schema';
import { isUniqueViolation } from '../../db/sql';
import { conflict, forbidden, notFound, validationFailed } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { getSetting, putSetting } from '../../platform/settings';
import { ofRecordSide, recordFactsOf } from '../engine/policy';
import { type EngineCaller, engineNode, rowOf } from '../engine/record-access';
import { columnOf } from '../engine/sqlsafe';
import { projects } from './project';
import { findSection, type SectionRow, sectionOr404, sectionsOfProject } from './section.repo';

/**
 * Projects and sections of the five-in-one entry (issue 16). The project is an engine record (read through the
 * record policy: who may not read it is told it does not exist); its sections live in `tender_sections` and are
 * changed by the project's side — its enterprise, or its owner when the owner has none — until the section's bid
 * deadline. Every section is held to the timeline settings (legal minimums by default) on the trading centre's calendar.
 */
export const TENDER_SETTINGS_KEY = 'tender.timeline';
const GL_NAME = '项目进场登记';

const sectionOf = (r: SectionRow): TenderSection => ({
  id: r.id,
  projectId: r.projectId,
  code: r.code,
  name: r.name,
  estimate: Number(r.estimate),
  deposit: Number(r.deposit),
  docSaleStart: r.docSaleStart,
  docSaleEnd: r.docSaleEnd,
  bidDeadline: r.bidDeadline.toISOString(),
  perfCount: r.perfCount,
  perfMinAmount: Number(r.perfMinAmount),
  perfYears: r.perfYears,
  version: r.version,
  createdBy: r.createdBy,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** The stored settings; what no longer fits (a law made stricter since) falls back to the legal values. */
export async function tenderSettings(db: Db): Promise<TenderSettings> {
  const raw = await getSetting(db, TENDER_SETTINGS_KEY);
  if (!raw) return { ...TENDER_SETTINGS_DEFAULTS };
  try {
    const parsed = tenderSettingsSchema.safeParse({ ...TENDER_SETTINGS_DEFAULTS, ...JSON.parse(raw) });
    return parsed.success ? parsed.data : { ...TENDER_SETTINGS_DEFAULTS };
  } catch {
    return { ...TENDER_SETTINGS_DEFAULTS };
  }
}

export async function saveTenderSettings(db: Db, c: EngineCaller, s: TenderSettings): Promise<TenderSettings> {
  await db.transaction(async (tx) => {
    await putSetting(tx, TENDER_SETTINGS_KEY, JSON.stringify(s));
    await writeOpLog(tx, c.actor, {
      glName: '交易时限设置',
      logbook: `修改交易时限设置：招标文件发售不少于 ${s.docSaleDays} 日，发出至投标截止不少于 ${s.issueToDeadlineDays} 日，投标保证金不超过估算价的 ${s.depositMaxPercent}%，影响投标的澄清或修改距截止不少于 ${s.clarifyDays} 日，收到评标报告 ${s.publicityWithinDays} 日内公示中标候选人、公示期不少于 ${s.publicityDays} 日，评审系数 K 备选值 ${s.kCandidates.map((k) => k.toFixed(2)).join('、')}`,
    });
  });
  return s;
}

/** The legal values (and, where the law sets none — the K candidates — the defaults). */
export const tenderLegal = (): TenderSettings => ({ ...TENDER_SETTINGS_DEFAULTS, ...TENDER_LEGAL });

/** The project record the caller may read (else 404), and whether the caller is of its side. */
async function projectFor(db: Db, c: EngineCaller, id: string) {
  const n = await engineNode(db, TENDER_PROJECT_NODE).catch(() => {
    throw notFound(TENDER_MESSAGES.nodeNotConfigured);
  });
  const row = await rowOf(db, c, TENDER_PROJECT_NODE, id, n.id);
  return { row, side: ofRecordSide(c, recordFactsOf(row)) };
}

const sectionsOf = async (q: DbOrTx, projectId: string) => (await sectionsOfProject(q, projectId)).map(sectionOf);

export async function tenderProject(db: Db, c: EngineCaller, id: string): Promise<TenderProject> {
  const { side } = await projectFor(db, c, id);
  const record = await projects.get(db, id);
  if (!record) throw notFound(TENDER_MESSAGES.projectMissing);
  return {
    id: record.id,
    status: record.status,
    values: record.values,
    canEdit: side,
    sections: await sectionsOf(db, id),
  };
}

/** The project, when the caller may read it (its side, the centre, developers, its reviewers and supervisors), else 404. */
export async function projectForReader(db: Db, c: EngineCaller, projectId: string): Promise<{ side: boolean }> {
  return { side: (await projectFor(db, c, projectId)).side };
}

/**
 * A section whose project the caller may read — its side, the centre, developers, the project's reviewers and its
 * supervisors (监督查看) — else 404; with whether the caller is of the project's side.
 */
export async function sectionForReader(
  db: Db,
  c: EngineCaller,
  sectionId: string,
): Promise<{ section: TenderSection; side: boolean }> {
  const { row, side } = await sectionRowForReader(db, c, sectionId);
  return { section: sectionOf(row), side };
}

/** sectionForReader's stored row, with the project's name (a module's hall or room, read once per request). */
export async function sectionRowForReader(
  db: Db,
  c: EngineCaller,
  sectionId: string,
): Promise<{ row: SectionRow; side: boolean; projectName: string }> {
  const s = await sectionOr404(db, sectionId, TENDER_MESSAGES.sectionMissing);
  const { row, side } = await projectFor(db, c, s.projectId);
  return { row: s, side, projectName: String(row[columnOf('xmmc')] ?? '') };
}

/**
 * The section another module acts for (a venue booking for its opening): it exists, and the caller is of its
 * project's side or an administrator (else 404 for a project they may not read, 403 for one they may only read).
 */
export async function sectionForCaller(db: Db, c: EngineCaller, sectionId: string): Promise<TenderSection> {
  const s = await sectionOr404(db, sectionId, TENDER_MESSAGES.sectionMissing);
  const { side } = await projectFor(db, c, s.projectId);
  if (!side && c.loginRoleType !== 'M') throw forbidden('只有项目的招标人或招标代理可以为该标段办理');
  return sectionOf(s);
}

/** Creates or changes a section of a project of the caller's side, held to the timeline settings. */
export async function saveSection(
  db: Db,
  c: EngineCaller,
  input: TenderSectionInput,
  now: Date,
  tz: string,
): Promise<TenderSection> {
  const { side } = await projectFor(db, c, input.projectId);
  if (!side) throw forbidden('只有项目的招标人或招标代理可以维护标段');
  if (Date.parse(input.bidDeadline) <= now.getTime()) {
    throw validationFailed({ bidDeadline: [TENDER_MESSAGES.deadlineInPast] });
  }
  const problems = sectionTimelineProblems(input, await tenderSettings(db), tz);
  if (problems.length) {
    const fieldErrors: Record<string, string[]> = {};
    for (const p of problems) fieldErrors[p.field] = [...(fieldErrors[p.field] ?? []), p.message];
    throw validationFailed(fieldErrors);
  }
  const values = {
    code: input.code,
    name: input.name,
    estimate: input.estimate,
    deposit: input.deposit,
    docSaleStart: input.docSaleStart,
    docSaleEnd: input.docSaleEnd,
    bidDeadline: new Date(input.bidDeadline),
    perfCount: input.perfCount ?? 0,
    perfMinAmount: input.perfCount ? (input.perfMinAmount ?? 0) : 0,
    perfYears: input.perfYears ?? 3,
  };
  const perf = perfRequirementText(values);
  try {
    return await db.transaction(async (tx) => {
      let row: SectionRow;
      if (input.id) {
        const old = await findSection(tx, input.id, 'update');
        if (!old || old.projectId !== input.projectId) throw notFound(TENDER_MESSAGES.sectionMissing);
        if (old.bidDeadline.getTime() <= now.getTime()) throw conflict(TENDER_MESSAGES.deadlinePassed);
        if (input.version !== undefined && input.version !== old.version) throw conflict(TENDER_MESSAGES.sectionStale);
        [row] = (await tx
          .update(tenderSections)
          .set({ ...values, version: old.version + 1, updatedAt: now })
          .where(and(eq(tenderSections.id, old.id), eq(tenderSections.version, old.version)))
          .returning()) as [SectionRow];
      } else {
        [row] = (await tx
          .insert(tenderSections)
          .values({ ...values, projectId: input.projectId, createdBy: c.id, createdAt: now, updatedAt: now })
          .returning()) as [SectionRow];
      }
      await writeOpLog(tx, c.actor, {
        glName: GL_NAME,
        gnCoding: TENDER_PROJECT_NODE,
        recordId: input.projectId,
        logbook: `${input.id ? '修改' : '新增'}标段 ${row.code} ${row.name}：估算价 ${Number(row.estimate).toFixed(2)} 元，保证金 ${Number(row.deposit).toFixed(2)} 元，发售 ${row.docSaleStart} 至 ${row.docSaleEnd}，投标截止 ${row.bidDeadline.toISOString()}，业绩要求：${perf ?? '无'}`,
      });
      return sectionOf(row);
    });
  } catch (e) {
    if (isUniqueViolation(e, 'tender_sections_project_code_uq')) {
      throw validationFailed({ code: [TENDER_MESSAGES.sectionCodeTaken] });
    }
    throw e;
  }
}

export async function deleteSection(db: Db, c: EngineCaller, id: string, now: Date): Promise<void> {
  const s = await sectionOr404(db, id, TENDER_MESSAGES.sectionMissing);
  // a section of a project the caller may not read does not exist for them (rowOf: 404)
  const { side } = await projectFor(db, c, s.projectId);
  if (!side) throw forbidden('只有项目的招标人或招标代理可以维护标段');
  await db.transaction(async (tx) => {
    const locked = await sectionOr404(tx, id, TENDER_MESSAGES.sectionMissing, 'update');
    if (locked.bidDeadline.getTime() <= now.getTime()) throw conflict(TENDER_MESSAGES.deadlinePassed);
    await tx.delete(tenderSections).where(eq(tenderSections.id, id));
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      gnCoding: TENDER_PROJECT_NODE,
      recordId: s.projectId,
      logbook: `删除标段 ${locked.code} ${locked.name}`,
    });
  });
}
