import { randomUUID } from 'node:crypto';
import {
  CLARIFY_FILE_NODE,
  type Clarification,
  type ClarifyInput,
  type ClarifyStatus,
  clarifyDeadlineProblem,
  clarifyInputSchema,
  dateTimeIn,
  TENDER_FILE_MESSAGES as M,
  type SectionClarifications,
  TENDER_PROJECT_NODE,
} from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { tenderClarifications, tenderSections } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound, parse, validationFailed } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import type { EngineCaller } from '../engine/record-access';
import { registerFileReader } from '../files/readers';
import { sendUserMessages } from '../messages/send';
import * as repo from './files.repo';
import { type SectionAccess, sectionAccess } from './files-access';
import { projects } from './project';
import { tenderSettings } from './tender.service';

/**
 * Clarifications and amendments of a section's tender documents (澄清 / 修改, issue 16): the project's side drafts one
 * (title, text, an optional file, whether it may affect the making of bids, a new deadline when needed) and submits
 * it; the trading centre audits it (pass, or reject with an opinion); the side sends a passed one, which tells every
 * registered bidder through the message centre and, with a new deadline, moves the section's deadline. The 15-day rule
 * (招标投标法实施条例第二十一条; the setting clarifyDays, never below the law) is checked on saving (400), again on
 * submitting and sending (409): what holds on Monday may not on Friday. Drafts (and rejected ones) are edited and
 * deleted; only a submitted one not yet decided is revoked. Each step is one transaction with an operation-log row.
 */
export interface ClarifyDeps {
  db: Db;
  now: () => Date;
  tz: string;
}

export const GL_CLARIFY = '招标文件澄清';
const EDITABLE: readonly ClarifyStatus[] = ['draft', 'rejected'];
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

// A clarification's file: whoever may read the project, and — once sent — the bidders registered for the section.
registerFileReader(CLARIFY_FILE_NODE, async (db, c, id) => {
  const r = await repo.clarificationById(db, id);
  if (!r) return false;
  const a = await sectionAccess(db, c, r.sectionId);
  return a.reader || (Boolean(a.bidder) && r.status === 'sent');
});

function view(r: { c: repo.ClarificationRow; fileName: string | null }, a: SectionAccess, now: Date): Clarification {
  const c = r.c;
  const status = c.status as ClarifyStatus;
  const open = a.section.bidDeadline.getTime() > now.getTime();
  const editable = a.side && open && EDITABLE.includes(status);
  return {
    id: c.id,
    sectionId: c.sectionId,
    title: c.title,
    content: c.content,
    fileId: c.fileId,
    fileName: r.fileName,
    affectsBids: c.affectsBids,
    newDeadline: iso(c.newDeadline),
    oldDeadline: iso(c.oldDeadline),
    status,
    opinion: c.opinion,
    createdBy: c.createdByName,
    createdAt: c.createdAt.toISOString(),
    submittedAt: iso(c.submittedAt),
    auditedBy: c.auditedByName,
    auditedAt: iso(c.auditedAt),
    sentBy: c.sentByName,
    sentAt: iso(c.sentAt),
    recipients: c.recipients,
    version: c.version,
    operations: {
      edit: editable,
      delete: editable,
      submit: editable,
      revoke: a.side && status === 'submitted',
      audit: a.centre && status === 'submitted',
      send: a.side && open && status === 'passed',
    },
  };
}

/** The section's clarifications: all of them to its side, the centre and readers; the sent ones to its bidders. */
export async function sectionClarifications(
  deps: ClarifyDeps,
  c: EngineCaller,
  sectionId: string,
): Promise<SectionClarifications> {
  const a = await sectionAccess(deps.db, c, sectionId);
  if (!(a.reader || a.bidder)) throw forbidden(M.notViewer);
  const now = deps.now();
  const rows = await repo.clarificationsOf(deps.db, sectionId, !a.reader);
  const settings = await tenderSettings(deps.db);
  return {
    sectionId,
    bidDeadline: a.section.bidDeadline.toISOString(),
    clarifyDays: settings.clarifyDays,
    canCreate: a.side && a.section.bidDeadline.getTime() > now.getTime(),
    clarifications: rows.map((r) => view(r, a, now)),
  };
}

/** The side of the section (else 403, or 404 for a project the caller may not read). */
async function sideOf(deps: ClarifyDeps, c: EngineCaller, sectionId: string): Promise<SectionAccess> {
  const a = await sectionAccess(deps.db, c, sectionId);
  if (!a.side) {
    if (!a.reader && !a.bidder) throw notFound(M.sectionMissing);
    throw forbidden(M.notSideClarify);
  }
  return a;
}

/** The deadline rules against the section as it is: later than its deadline, and the 15-day rule at `at`. */
async function deadlineProblems(
  db: Db | Tx,
  s: repo.SectionRow,
  v: { affectsBids: boolean; newDeadline: string | null },
  at: Date,
): Promise<string[]> {
  const out: string[] = [];
  if (v.newDeadline && Date.parse(v.newDeadline) <= s.bidDeadline.getTime()) out.push(M.laterDeadline);
  const settings = await tenderSettings(db as Db);
  const p = clarifyDeadlineProblem(v, s.bidDeadline.toISOString(), at, settings.clarifyDays);
  if (p) out.push(p);
  return out;
}

async function lockedOf(tx: Tx, id: string, version: number | undefined) {
  const r = await repo.clarificationById(tx, id, true);
  if (!r) throw notFound(M.clarificationMissing);
  if (version !== undefined && version !== r.version) throw conflict(M.stale);
  return r;
}

async function answer(deps: ClarifyDeps, c: EngineCaller, id: string): Promise<Clarification> {
  const r = await repo.clarificationView(deps.db, id);
  if (!r) throw notFound(M.clarificationMissing);
  return view(r, await sectionAccess(deps.db, c, r.c.sectionId), deps.now());
}

/** Saves a draft (new, or a draft / rejected one changed) of a section of the caller's side. */
export async function saveClarification(deps: ClarifyDeps, c: EngineCaller, raw: ClarifyInput): Promise<Clarification> {
  const input = parse(clarifyInputSchema, raw);
  const a = await sideOf(deps, c, input.sectionId);
  const now = deps.now();
  if (a.section.bidDeadline.getTime() <= now.getTime()) throw conflict(M.deadlinePassed);
  const problems = await deadlineProblems(deps.db, a.section, input, now);
  if (problems.length) throw validationFailed({ newDeadline: problems });
  const id = input.id ?? randomUUID();
  await deps.db.transaction(async (tx) => {
    const values = {
      title: input.title,
      content: input.content,
      fileId: input.fileId,
      affectsBids: input.affectsBids,
      newDeadline: input.newDeadline ? new Date(input.newDeadline) : null,
      updatedAt: now,
    };
    let oldFile: string | null = null;
    if (input.id) {
      const old = await lockedOf(tx, input.id, input.version);
      if (old.sectionId !== input.sectionId) throw notFound(M.clarificationMissing);
      if (!EDITABLE.includes(old.status as ClarifyStatus)) throw conflict(M.notDraft);
      oldFile = old.fileId;
      await tx
        .update(tenderClarifications)
        .set({ ...values, status: 'draft', version: old.version + 1 })
        .where(and(eq(tenderClarifications.id, old.id), eq(tenderClarifications.version, old.version)));
    } else {
      await tx.insert(tenderClarifications).values({
        id,
        sectionId: a.section.id,
        ...values,
        createdBy: c.id,
        createdByName: c.actor.userName,
        createdAt: now,
      });
    }
    if (input.fileId && input.fileId !== oldFile) {
      const bound = await repo.bindFile(tx, CLARIFY_FILE_NODE, input.fileId, id, {
        userId: c.id,
        enterpriseId: c.enterpriseId,
      });
      if (!bound) throw badRequest(M.fileMissing);
    }
    if (oldFile && oldFile !== input.fileId) await repo.unbindFile(tx, CLARIFY_FILE_NODE, oldFile, id);
    await writeOpLog(tx, c.actor, {
      glName: GL_CLARIFY,
      recordId: id,
      logbook: `${input.id ? '修改' : '新建'}标段 ${a.section.code} ${a.section.name} 的澄清或修改《${input.title}》${input.affectsBids ? '（影响投标文件编制）' : ''}${input.newDeadline ? `，拟顺延投标截止时间至 ${dateTimeIn(new Date(input.newDeadline), deps.tz)}` : ''}`,
    });
  });
  return answer(deps, c, id);
}

/** One step of the flow on a clarification: checked and written under its row lock, with a log row. */
async function step(
  deps: ClarifyDeps,
  c: EngineCaller,
  body: { id: string; version?: number },
  who: 'side' | 'centre',
  run: (tx: Tx, r: repo.ClarificationRow, s: repo.SectionRow, now: Date) => Promise<string>,
): Promise<Clarification> {
  const first = await repo.clarificationById(deps.db, body.id);
  if (!first) throw notFound(M.clarificationMissing);
  if (who === 'side') await sideOf(deps, c, first.sectionId);
  else if (c.loginRoleType !== 'M') throw forbidden(M.centreOnly);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const r = await lockedOf(tx, body.id, body.version);
    const s = await repo.sectionById(tx, r.sectionId, true);
    if (!s) throw notFound(M.sectionMissing);
    const logbook = await run(tx, r, s, now);
    await writeOpLog(tx, c.actor, { glName: GL_CLARIFY, recordId: r.id, logbook });
  });
  return answer(deps, c, body.id);
}

const label = (s: repo.SectionRow, r: repo.ClarificationRow) => `标段 ${s.code} ${s.name} 的澄清或修改《${r.title}》`;

export async function submitClarification(deps: ClarifyDeps, c: EngineCaller, body: { id: string; version?: number }) {
  return step(deps, c, body, 'side', async (tx, r, s, now) => {
    if (!EDITABLE.includes(r.status as ClarifyStatus)) throw conflict(M.notDraft);
    if (s.bidDeadline.getTime() <= now.getTime()) throw conflict(M.deadlinePassed);
    const problems = await deadlineProblems(
      tx,
      s,
      { affectsBids: r.affectsBids, newDeadline: iso(r.newDeadline) },
      now,
    );
    if (problems.length) throw conflict(`不能提交：${problems.join('；')}`);
    await tx
      .update(tenderClarifications)
      .set({ status: 'submitted', submittedAt: now, version: r.version + 1, updatedAt: now })
      .where(eq(tenderClarifications.id, r.id));
    return `提交${label(s, r)}，待交易中心审核`;
  });
}

export async function revokeClarification(deps: ClarifyDeps, c: EngineCaller, body: { id: string; version?: number }) {
  return step(deps, c, body, 'side', async (tx, r, s, now) => {
    if (r.status !== 'submitted') throw conflict(M.notSubmitted);
    await tx
      .update(tenderClarifications)
      .set({ status: 'draft', submittedAt: null, version: r.version + 1, updatedAt: now })
      .where(and(eq(tenderClarifications.id, r.id), eq(tenderClarifications.status, 'submitted')));
    return `撤回${label(s, r)}（回到草稿）`;
  });
}

export async function auditClarification(
  deps: ClarifyDeps,
  c: EngineCaller,
  body: { id: string; version?: number; pass: boolean; opinion: string },
) {
  return step(deps, c, body, 'centre', async (tx, r, s, now) => {
    if (r.status !== 'submitted') throw conflict(M.notSubmitted);
    if (!body.pass && !body.opinion) throw validationFailed({ opinion: [M.opinionRequired] });
    await tx
      .update(tenderClarifications)
      .set({
        status: body.pass ? 'passed' : 'rejected',
        opinion: body.opinion || null,
        auditedBy: c.id,
        auditedByName: c.actor.userName,
        auditedAt: now,
        version: r.version + 1,
        updatedAt: now,
      })
      .where(and(eq(tenderClarifications.id, r.id), eq(tenderClarifications.status, 'submitted')));
    return `审核${label(s, r)}：${body.pass ? '通过' : '驳回'}${body.opinion ? `（${body.opinion}）` : ''}`;
  });
}

/**
 * Sends a passed clarification: the 15-day rule once more at this moment (409 naming it), the section's deadline moved
 * to the new one (the old one kept on the clarification, a log row on the project), and a message to every active
 * account of every registered bidder — all in one transaction.
 */
export async function sendClarification(deps: ClarifyDeps, c: EngineCaller, body: { id: string; version?: number }) {
  return step(deps, c, body, 'side', async (tx, r, s, now) => {
    if (r.status === 'sent') throw conflict(M.alreadySent);
    if (r.status !== 'passed') throw conflict(M.notPassed);
    if (s.bidDeadline.getTime() <= now.getTime()) throw conflict(M.deadlinePassed);
    const problems = await deadlineProblems(
      tx,
      s,
      { affectsBids: r.affectsBids, newDeadline: iso(r.newDeadline) },
      now,
    );
    if (problems.length) throw conflict(`不能发出：${problems.join('；')}`);
    const project = await projects.get(tx, s.projectId);
    const projectName = project?.values.xmmc ?? '';
    let moved = '';
    if (r.newDeadline) {
      await tx
        .update(tenderSections)
        .set({ bidDeadline: r.newDeadline, version: s.version + 1, updatedAt: now })
        .where(eq(tenderSections.id, s.id));
      moved = `投标截止（开标）时间由 ${dateTimeIn(s.bidDeadline, deps.tz)} 顺延至 ${dateTimeIn(r.newDeadline, deps.tz)}`;
      await writeOpLog(tx, c.actor, {
        glName: '项目进场登记',
        gnCoding: TENDER_PROJECT_NODE,
        recordId: s.projectId,
        logbook: `标段 ${s.code} ${s.name} 因澄清或修改《${r.title}》${moved}`,
      });
    }
    const accounts = await repo.registeredAccounts(tx, s.id);
    await sendUserMessages(
      tx,
      accounts.map((u) => ({
        userId: u.userId,
        kind: 'admin' as const,
        title: `招标文件澄清或修改：${r.title}`,
        body: `${projectName} ${s.code} ${s.name}：${r.content}${r.affectsBids ? '（本澄清或修改可能影响投标文件编制，请据此调整投标文件）' : ''}${moved ? `。${moved}（北京时间）` : ''}`,
        link: '/fiveInOne/registration',
        createdAt: now,
      })),
    );
    await tx
      .update(tenderClarifications)
      .set({
        status: 'sent',
        sentAt: now,
        sentBy: c.id,
        sentByName: c.actor.userName,
        oldDeadline: r.newDeadline ? s.bidDeadline : null,
        recipients: accounts.length,
        version: r.version + 1,
        updatedAt: now,
      })
      .where(and(eq(tenderClarifications.id, r.id), eq(tenderClarifications.status, 'passed')));
    return `发出${label(s, r)}，已通知 ${new Set(accounts.map((u) => u.enterpriseId)).size} 家报名单位的 ${accounts.length} 个账号${moved ? `；${moved}` : ''}`;
  });
}

export async function deleteClarification(deps: ClarifyDeps, c: EngineCaller, body: { id: string; version?: number }) {
  const first = await repo.clarificationById(deps.db, body.id);
  if (!first) throw notFound(M.clarificationMissing);
  await sideOf(deps, c, first.sectionId);
  await deps.db.transaction(async (tx) => {
    const r = await lockedOf(tx, body.id, body.version);
    if (!EDITABLE.includes(r.status as ClarifyStatus)) throw conflict(M.notDraft);
    const s = await repo.sectionById(tx, r.sectionId);
    await tx.delete(tenderClarifications).where(eq(tenderClarifications.id, r.id));
    if (r.fileId) await repo.unbindFile(tx, CLARIFY_FILE_NODE, r.fileId, r.id);
    await writeOpLog(tx, c.actor, { glName: GL_CLARIFY, recordId: r.id, logbook: `删除${label(s!, r)}` });
  });
}
