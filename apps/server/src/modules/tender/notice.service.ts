import {
  changeNoticeProblem,
  dateIn,
  dateTimeIn,
  daysBetween,
  type FieldOption,
  joinQualLabels,
  NOTICE_FIELD,
  NOTICE_KINDS,
  NOTICE_MESSAGES,
  type NoticeKind,
  perfRequirementText,
  REGIONS,
  type SectionNotices,
  TENDER_NOTICE_NODE,
  type TenderNotice,
  type TenderNoticeInput,
  tenderNoticeInputSchema,
  validationClock,
} from '@ks/contracts';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { tenderSections } from '../../db/schema';
import { conflict, forbidden, notFound, parse, validationFailed } from '../../platform/errors';
import type { Actor } from '../../platform/oplog';
import { writeOpLog } from '../../platform/oplog';
import { escapeHtml, sanitizeRichText } from '../../platform/sanitize';
import { enqueuePush } from '../dex/dex.outbox';
import { nodeAccessor } from '../engine/accessor';
import { onDecision } from '../engine/hooks';
import { dictionaryTree, QUALIFICATION_DICTIONARY } from '../engine/options.service';
import { ofRecordSide, recordFactsOf } from '../engine/policy';
import { type EngineCaller, engineNode, rowOf } from '../engine/record-access';
import { saveRecord } from '../engine/records.service';
import { submitRecord } from '../engine/review.service';
import { insertNotice } from '../portal/notices.repo';
import { projects } from './project';
import { type SectionRow, sectionOr404 } from './section.repo';
import { tenderSettings } from './tender.service';

/**
 * Tender notices and change notices (issue 16). A notice is a record of the engine node 招标公告 (ZBTB_ZBGG), written
 * for one section by the project's side through this module (which holds it to the section's rules before the engine
 * saves it), submitted into the engine's review, and — when the last level passes — published in the same transaction:
 * a portal notice (招标公告 / 变更公告), the section's qualification requirements (a tender notice) or its moved
 * deadline (a change notice). A rule that no longer holds at that moment refuses the decision with the rule's message.
 */
const F = NOTICE_FIELD;
const text = z.string().nullable();
export const noticeRecords = nodeAccessor(TENDER_NOTICE_NODE, {
  [F.section]: text,
  [F.sectionLabel]: text,
  [F.kind]: text,
  [F.title]: text,
  [F.body]: text,
  [F.qualLabels]: text,
  [F.qualItems]: text,
  [F.qualRelation]: text,
  [F.affectsBids]: text,
  [F.newDeadline]: text,
  [F.reason]: text,
});
type NoticeRecord = NonNullable<Awaited<ReturnType<typeof noticeRecords.get>>>;

const GL_NAME = '招标公告';

/** The qualification tree's requirements: each level (leaf) by its value, with its category and rank among its kind. */
export interface QualLevel {
  value: string;
  /** the category the enterprise's certificate names (建筑工程施工总承包) */
  category: string;
  /** the level's own label (二级) */
  level: string;
  /** 0 is the highest level of the category */
  rank: number;
  /** the levels of the category, highest first */
  levels: string[];
}

/** Every level of the qualification tree by value (the dictionary's order ranks the levels, highest first). */
export async function qualificationLevels(db: DbOrTx): Promise<Map<string, QualLevel>> {
  const tree = await dictionaryTree(db as Db, QUALIFICATION_DICTIONARY);
  const out = new Map<string, QualLevel>();
  const walk = (nodes: FieldOption[]) => {
    for (const n of nodes) {
      const kids = n.children ?? [];
      if (kids.length && kids.every((k) => !k.children?.length)) {
        const levels = kids.map((k) => String(k.label));
        kids.forEach((k, rank) => {
          out.set(String(k.value), {
            value: String(k.value),
            category: String(n.value),
            level: String(k.label),
            rank,
            levels,
          });
        });
      } else if (kids.length) walk(kids);
    }
  };
  walk(tree);
  return out;
}

const noticeOf = (r: NoticeRecord): TenderNotice => {
  const v = r.values;
  const kind = (NOTICE_KINDS as readonly string[]).includes(v[F.kind] ?? '') ? (v[F.kind] as NoticeKind) : '招标公告';
  const relation = v[F.qualRelation] === '或' ? '或' : '且';
  return {
    id: r.id,
    version: r.version,
    status: r.status,
    sectionId: v[F.section] ?? '',
    kind,
    title: v[F.title] ?? '',
    bodyHtml: v[F.body] ?? '',
    qualLabels: v[F.qualLabels] ?? '',
    qualItems: (v[F.qualItems] ?? '').split(';').filter(Boolean),
    qualRelation: relation,
    affectsBids: v[F.affectsBids] === '是',
    newDeadline: v[F.newDeadline] ?? null,
    reason: v[F.reason] ?? '',
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
};

const sectionRow = (q: DbOrTx, id: string, lock = false) =>
  sectionOr404(q, id, NOTICE_MESSAGES.sectionMissing, lock ? 'update' : undefined);

/** The section's project as the caller may read it (else 404), and whether the caller is of its side. */
async function sideOf(db: Db, c: EngineCaller, projectId: string) {
  const n = await engineNode(db, projects.gnCoding);
  const row = await rowOf(db, c, projects.gnCoding, projectId, n.id);
  return ofRecordSide(c, recordFactsOf(row));
}

async function noticesOf(q: DbOrTx, sectionId: string): Promise<TenderNotice[]> {
  const list = await noticeRecords.list(q, { where: { [F.section]: sectionId }, limit: 200 });
  return list.map(noticeOf);
}

export async function sectionNotices(db: Db, c: EngineCaller, sectionId: string, now: Date): Promise<SectionNotices> {
  const s = await sectionRow(db, sectionId);
  const side = await sideOf(db, c, s.projectId);
  await engineNode(db, TENDER_NOTICE_NODE).catch(() => {
    throw notFound(NOTICE_MESSAGES.noticeNodeNotConfigured);
  });
  return {
    sectionId,
    publishedAt: s.noticePublishedAt?.toISOString() ?? null,
    qualLabels: joinQualLabels(s.qualItems),
    qualRelation: s.qualRelation === '或' ? '或' : '且',
    bidDeadline: s.bidDeadline.toISOString(),
    canEdit: side && s.bidDeadline.getTime() > now.getTime(),
    notices: await noticesOf(db, sectionId),
  };
}

/** The requirements checked against the tree: every value a level of it (else 400). Answers their labels joined. */
async function checkedRequirements(q: DbOrTx, items: readonly string[]): Promise<string> {
  const levels = await qualificationLevels(q);
  const unknown = items.filter((v) => !levels.has(v));
  if (unknown.length) {
    throw validationFailed({ qualItems: [`${NOTICE_MESSAGES.unknownQualification}：${unknown.join('、')}`] });
  }
  if (new Set(items).size !== items.length) throw validationFailed({ qualItems: ['资质要求有重复项'] });
  return joinQualLabels(items);
}

/** The section's state against a notice of this kind (shared by save, submit and the publishing decision). */
function kindProblem(s: SectionRow, kind: NoticeKind, now: Date): string | null {
  if (s.bidDeadline.getTime() <= now.getTime()) return NOTICE_MESSAGES.deadlinePassed;
  if (kind === '招标公告' && s.noticePublishedAt) return NOTICE_MESSAGES.alreadyPublished;
  if (kind === '变更公告' && !s.noticePublishedAt) return NOTICE_MESSAGES.notPublishedYet;
  return null;
}

/** A change notice's deadline rules: later than the current one, and the 15-day rule of the settings. */
async function changeProblems(
  q: DbOrTx,
  s: SectionRow,
  n: Pick<TenderNotice, 'affectsBids' | 'newDeadline'>,
  now: Date,
) {
  const errors: Record<string, string[]> = {};
  if (n.newDeadline && Date.parse(n.newDeadline) <= s.bidDeadline.getTime()) {
    errors.newDeadline = ['新的投标截止时间应晚于原投标截止时间'];
  }
  const settings = await tenderSettings(q as Db);
  const p = changeNoticeProblem(n, s.bidDeadline.toISOString(), now, settings.clarifyDays);
  if (p) errors.newDeadline = [...(errors.newDeadline ?? []), p];
  return errors;
}

/** Saves a draft notice of a section of the caller's side, held to the section's rules, through the engine. */
export async function saveNotice(
  db: Db,
  c: EngineCaller,
  raw: TenderNoticeInput,
  now: Date,
  tz: string,
): Promise<TenderNotice> {
  const input = parse(tenderNoticeInputSchema, raw);
  const s = await sectionRow(db, input.sectionId);
  if (!(await sideOf(db, c, s.projectId))) throw forbidden(NOTICE_MESSAGES.notSide);
  const problem = kindProblem(s, input.kind, now);
  if (problem) throw conflict(problem);
  if (input.id) {
    const old = await noticeRecords.get(db, input.id);
    if (!old || old.values[F.section] !== input.sectionId) throw notFound(NOTICE_MESSAGES.noticeMissing);
    if (!['draft', 'rejected', 'revoked'].includes(old.status)) throw conflict(NOTICE_MESSAGES.notEditable);
  }
  const project = await projects.get(db, s.projectId);
  if (project?.status !== 'passed') throw conflict(NOTICE_MESSAGES.projectNotPassed);
  const qualLabels = await checkedRequirements(db, input.qualItems);
  if (input.kind === '变更公告') {
    const errors = await changeProblems(db, s, input, now);
    if (Object.keys(errors).length) throw validationFailed(errors);
  }
  const saved = await saveRecord(
    db,
    c,
    {
      gnCoding: TENDER_NOTICE_NODE,
      id: input.id,
      version: input.version,
      values: {
        [F.section]: s.id,
        [F.sectionLabel]: `${project?.values.xmbh ?? ''} ${s.code} ${s.name}`.trim(),
        [F.kind]: input.kind,
        [F.title]: input.title,
        [F.body]: sanitizeRichText(input.bodyHtml),
        [F.qualLabels]: qualLabels,
        [F.qualItems]: input.qualItems.join(';'),
        [F.qualRelation]: input.qualRelation,
        [F.affectsBids]: input.kind === '变更公告' ? (input.affectsBids ? '是' : '否') : '',
        [F.newDeadline]: input.newDeadline ? dateTimeIn(new Date(input.newDeadline), tz) : '',
        [F.reason]: input.reason,
      },
    },
    validationClock(now, tz),
  );
  const again = await noticeRecords.get(db, saved.id);
  return noticeOf(again!);
}

/** The stored new deadline (wall-clock text in the platform's zone) as an instant. */
function deadlineOf(stored: string | null, tz: string): string | null {
  if (!stored) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/.exec(stored);
  if (!m) return null;
  // the zone's offset at that wall-clock time, found by formatting the naive UTC guess back in the zone
  const guess = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!);
  const shown = dateTimeIn(new Date(guess), tz);
  const s = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/.exec(shown)!;
  const offset = Date.UTC(+s[1]!, +s[2]! - 1, +s[3]!, +s[4]!, +s[5]!) - guess;
  return new Date(guess - offset).toISOString();
}

/** Submits a notice into the engine's review, after checking the section's rules once more. */
export async function submitNotice(
  db: Db,
  c: EngineCaller,
  input: { id: string; version: number },
  now: Date,
  tz: string,
): Promise<TenderNotice> {
  const r = await noticeRecords.get(db, input.id);
  if (!r) throw notFound(NOTICE_MESSAGES.noticeMissing);
  const n = noticeOf(r);
  const s = await sectionRow(db, n.sectionId);
  if (!(await sideOf(db, c, s.projectId))) throw forbidden(NOTICE_MESSAGES.notSide);
  const problem = kindProblem(s, n.kind, now);
  if (problem) throw conflict(problem);
  const others = await noticesOf(db, n.sectionId);
  if (others.some((o) => o.id !== n.id && o.status === 'pending')) throw conflict(NOTICE_MESSAGES.pendingExists);
  if (n.kind === '变更公告') {
    const errors = await changeProblems(db, s, { ...n, newDeadline: deadlineOf(n.newDeadline, tz) }, now);
    if (Object.keys(errors).length) throw validationFailed(errors);
  }
  await submitRecord(db, c, { gnCoding: TENDER_NOTICE_NODE, id: input.id, version: input.version });
  return noticeOf((await noticeRecords.get(db, input.id))!);
}

// ── publishing, in the decision's transaction ─────────────────────────────

/** The portal region of a project's place (山西省/太原市/晋源区 → 太原市), 省本级 when it names no city. */
export function regionOf(place: string | null): string {
  const parts = (place ?? '').split(/[/,，\s]+/);
  return parts.find((p) => (REGIONS as readonly string[]).includes(p) && p !== '省本级') ?? '省本级';
}

const para = (s: string) => `<p>${escapeHtml(s)}</p>`;

/** The published body: the notice's text, then what the platform itself guarantees the reader. */
function publishedBody(n: TenderNotice, s: SectionRow, tz: string, deadline: Date): string {
  const parts = [n.bodyHtml];
  if (n.kind === '招标公告') {
    parts.push(
      '<h3>资格要求（平台核验）</h3>',
      para(
        n.qualItems.length
          ? `投标人须具备：${n.qualLabels}（${n.qualRelation === '且' ? '须同时具备全部各项' : '具备其中任一项即可'}；资质等级不低于所列等级）。报名时平台按此自动核验。`
          : '本标段未设资质等级要求。',
      ),
      para(
        perfRequirementText(s)
          ? `业绩要求：${perfRequirementText(s)}（以平台登记并经审核的企业业绩为准，竣工日期计入年限）。报名时平台按此自动核验。`
          : '本标段未设业绩要求。',
      ),
      para(
        `招标文件发售期：${s.docSaleStart} 至 ${s.docSaleEnd}；投标截止（开标）时间：${dateTimeIn(deadline, tz)}（北京时间）。`,
      ),
    );
  } else {
    parts.push('<h3>变更说明</h3>', para(`变更原因：${n.reason}`));
    if (n.newDeadline) parts.push(para(`投标截止（开标）时间变更为：${n.newDeadline}（北京时间）。`));
    if (n.qualItems.length) parts.push(para(`资格要求变更为：${n.qualLabels}（${n.qualRelation}）。`));
  }
  return sanitizeRichText(parts.join(''));
}

async function publish(tx: Tx, noticeId: string, decider: Actor, now: Date, tz: string): Promise<void> {
  const r = await noticeRecords.get(tx, noticeId);
  if (!r) return;
  const n = noticeOf(r);
  const s = await sectionRow(tx, n.sectionId, true);
  const problem = kindProblem(s, n.kind, now);
  if (problem) throw conflict(`不能发布：${problem}`);
  const settings = await tenderSettings(tx as unknown as Db);
  const today = dateIn(now, tz);
  let deadline = s.bidDeadline;
  const patch: Partial<typeof tenderSections.$inferInsert> = { version: s.version + 1, updatedAt: now };
  if (n.kind === '招标公告') {
    // the documents are issued from the later of the sale's start and today: both minimums count from there
    const issued = s.docSaleStart > today ? s.docSaleStart : today;
    const saleDays = daysBetween(issued, s.docSaleEnd) + 1;
    if (saleDays < settings.docSaleDays) {
      throw conflict(
        `不能发布：招标文件发售期不得少于 ${settings.docSaleDays} 日（招标投标法实施条例第十六条），自今日起仅余 ${saleDays} 日，请先调整标段的发售期`,
      );
    }
    const issueDays = daysBetween(issued, dateIn(s.bidDeadline, tz));
    if (issueDays < settings.issueToDeadlineDays) {
      throw conflict(
        `不能发布：自招标文件开始发出之日起至投标截止之日止不得少于 ${settings.issueToDeadlineDays} 日（招标投标法第二十四条），自今日起仅余 ${issueDays} 日，请先调整标段的投标截止时间`,
      );
    }
    Object.assign(patch, {
      qualItems: n.qualItems,
      qualRelation: n.qualRelation,
      noticeId: n.id,
      noticePublishedAt: now,
    });
  } else {
    const moved = deadlineOf(n.newDeadline, tz);
    const p = changeNoticeProblem(
      { affectsBids: n.affectsBids, newDeadline: moved },
      s.bidDeadline.toISOString(),
      now,
      settings.clarifyDays,
    );
    if (p) throw conflict(`不能发布：${p}`);
    if (moved) {
      if (Date.parse(moved) <= s.bidDeadline.getTime())
        throw conflict('不能发布：新的投标截止时间应晚于原投标截止时间');
      deadline = new Date(moved);
      patch.bidDeadline = deadline;
    }
    if (n.qualItems.length) Object.assign(patch, { qualItems: n.qualItems, qualRelation: n.qualRelation });
  }
  await tx.update(tenderSections).set(patch).where(eq(tenderSections.id, s.id));
  const project = await projects.get(tx, s.projectId);
  const pv = project?.values;
  const portal = await insertNotice(tx, {
    title: n.title,
    category: n.kind,
    tradeType: '工程建设',
    region: regionOf(pv?.xmszd ?? null),
    projectCode: pv?.xmbh ?? null,
    projectName: pv?.xmmc ?? null,
    sectionName: `${s.code} ${s.name}`,
    tenderer: pv?.zbr ?? null,
    amount: s.estimate.toFixed(2),
    bodyHtml: publishedBody(n, s, tz, deadline),
    attachments: [],
    status: 'published',
    publishedAt: now,
    createdBy: decider.userId,
  });
  // 交易推送 (issue 19): the published notice goes to the upstream platform's outbox in this same transaction
  await enqueuePush(tx, {
    businessKey: `notice:${portal.id}`,
    kind: 'notice',
    title: n.title,
    payload: {
      noticeId: portal.id,
      category: n.kind,
      title: n.title,
      projectCode: pv?.xmbh ?? null,
      projectName: pv?.xmmc ?? null,
      sectionCode: s.code,
      sectionName: s.name,
      tenderer: pv?.zbr ?? null,
      amount: s.estimate.toFixed(2),
      bidDeadline: deadline.toISOString(),
      publishedAt: now.toISOString(),
    },
  });
  await writeOpLog(tx, decider, {
    glName: GL_NAME,
    gnCoding: TENDER_NOTICE_NODE,
    recordId: n.id,
    logbook: `审核通过，发布${n.kind}《${n.title}》到门户交易信息（公告 ${portal.id}）${
      n.kind === '变更公告' && patch.bidDeadline ? `，投标截止时间顺延至 ${dateTimeIn(deadline, tz)}` : ''
    }${n.qualItems.length ? `，资格要求：${n.qualLabels}（${n.qualRelation}）` : ''}`,
  });
}

let clock: () => Date = () => new Date();
let zone = 'Asia/Shanghai';
let registered = false;

/**
 * Runs `fn` with the publishing hook on the clock `now` and restores the previous clock after: the demo seed publishes
 * its notices at the seed's own time, whatever clock an earlier app of the same process (a test worker) left behind.
 */
export async function withNoticeClock<T>(now: () => Date, fn: () => Promise<T>): Promise<T> {
  registerNoticeHooks();
  const before = clock;
  clock = now;
  try {
    return await fn();
  } finally {
    clock = before;
  }
}

/**
 * Registers the publishing hook once per process (apps built in tests share it; the latest app's clock and zone are
 * used). Without arguments it only makes sure the hook is there (the demo seed, which may run before any app).
 */
export function registerNoticeHooks(now?: () => Date, tz?: string) {
  if (now) clock = now;
  if (tz) zone = tz;
  if (registered) return;
  registered = true;
  onDecision(TENDER_NOTICE_NODE, {
    name: 'tender-notice-publish',
    async passed(e) {
      if (!e.final) return;
      await publish(
        e.tx,
        e.record.id,
        {
          userId: e.decider.id,
          userName: e.decider.userName,
          loginRoleType: e.decider.loginRoleType as Actor['loginRoleType'],
        },
        clock(),
        zone,
      );
    },
  });
}
