import {
  dateIn,
  joinQualLabels,
  type OpenSection,
  perfRequirementText,
  type QualificationCheck,
  type QualificationLine,
  type QualRelation,
  REGISTRATION_MESSAGES,
  type Registration,
  type RegistrationInput,
} from '@ks/contracts';
import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { enterprises, performances, qualifications, tenderRegistrations, tenderSections } from '../../db/schema';
import { isUniqueViolation } from '../../db/sql';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { ofRecordSide, recordFactsOf } from '../engine/policy';
import { type EngineCaller, engineNode, rowOf } from '../engine/record-access';
import { qualificationLevels } from './notice.service';
import { projects } from './project';
import { findSection, type SectionRow, sectionOr404 } from './section.repo';

/**
 * Registrations (报名) for sections (issue 16): an enterprise registers for a section whose tender notice is published,
 * before the bid deadline, when its valid qualifications meet the notice's requirements — a held level at least the
 * required one, in the same category; 且: every requirement, 或: any one. Who registered stays hidden until opening:
 * other bidders and the tenderee see counts only; the trading centre sees names. Other modules ask `registrationOf`
 * whether an enterprise is a registered bidder of a section (sealed bids, deposits and guarantee letters).
 */
export async function registrationOf(q: DbOrTx, sectionId: string, enterpriseId: string) {
  const [r] = await q
    .select()
    .from(tenderRegistrations)
    .where(and(eq(tenderRegistrations.sectionId, sectionId), eq(tenderRegistrations.enterpriseId, enterpriseId)));
  return r ?? null;
}

const GL_NAME = '投标报名';

/** A section's performance requirement (业绩要求; `count` 0: none). */
export interface PerfRequirement {
  perfCount: number;
  perfMinAmount: number;
  perfYears: number;
}
const NO_PERF: PerfRequirement = { perfCount: 0, perfMinAmount: 0, perfYears: 3 };

/** `today` (YYYY-MM-DD) moved back `years` whole years (29 February becomes 28 February). */
export function yearsBefore(today: string, years: number): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const back = new Date(Date.UTC(y - years, m - 1, d));
  if (back.getUTCMonth() !== m - 1) back.setUTCDate(0);
  return back.toISOString().slice(0, 10);
}

/**
 * The enterprise's reviewed performances (企业业绩, passed in the engine) against the section's requirement: completed
 * on or after the day `perfYears` years before `today` (and not in the future), each of at least `perfMinAmount` yuan.
 * Counted in SQL; the line names up to three of the projects that count.
 */
async function checkPerformance(
  q: DbOrTx,
  enterpriseId: string,
  perf: PerfRequirement,
  today: string,
): Promise<QualificationLine> {
  const requirement = `业绩要求：${perfRequirementText(perf)}`;
  const since = yearsBefore(today, perf.perfYears);
  const where = and(
    eq(performances.ownerKind, 'enterprise'),
    eq(performances.ownerId, enterpriseId),
    gte(performances.completedAt, since),
    lte(performances.completedAt, today),
    gte(performances.amount, perf.perfMinAmount.toFixed(2)),
  );
  const [{ n } = { n: 0 }] = await q.select({ n: count() }).from(performances).where(where);
  const names = await q
    .select({ name: performances.projectName })
    .from(performances)
    .where(where)
    .orderBy(desc(performances.completedAt), asc(performances.projectName))
    .limit(3);
  const held = n > 0 ? `符合要求的业绩 ${n} 项：${names.map((x) => x.name).join('、')}${n > 3 ? ' 等' : ''}` : null;
  const ok = n >= perf.perfCount;
  return {
    requirement,
    held,
    certNo: null,
    ok,
    reason: ok ? null : `符合要求的业绩 ${n} 项，少于要求的 ${perf.perfCount} 项`,
  };
}

/**
 * The enterprise's qualifications against the requirements, line by line (certificates lapsed by `today` do not
 * count), and, when the section asks for it, its performance as a further line that must hold whatever the relation
 * of the qualifications (且 / 或 combine the qualification lines only).
 */
export async function checkQualifications(
  q: DbOrTx,
  enterpriseId: string,
  items: readonly string[],
  relation: QualRelation,
  today: string,
  perf: PerfRequirement = NO_PERF,
): Promise<QualificationCheck> {
  const perfLine = perf.perfCount > 0 ? await checkPerformance(q, enterpriseId, perf, today) : null;
  if (items.length === 0) {
    if (!perfLine) return { ok: true, relation, lines: [], summary: '招标公告未设资质等级要求' };
    return {
      ok: perfLine.ok,
      relation,
      lines: [perfLine],
      summary: perfLine.ok
        ? '业绩符合要求'
        : `${REGISTRATION_MESSAGES.qualificationFailed}：${perfLine.requirement}（${perfLine.reason}）`,
    };
  }
  const levels = await qualificationLevels(q);
  const held = await q
    .select()
    .from(qualifications)
    .where(and(eq(qualifications.ownerKind, 'enterprise'), eq(qualifications.ownerId, enterpriseId)));
  const lines: QualificationLine[] = items.map((requirement) => {
    const need = levels.get(requirement);
    if (!need) {
      return { requirement, held: null, certNo: null, ok: false, reason: '该资质已不在资质目录中，请联系招标人' };
    }
    const same = held.filter((h) => h.name === need.category);
    const valid = same.filter((h) => !h.validUntil || h.validUntil >= today);
    const ranked = valid
      .map((h) => ({ h, rank: need.levels.indexOf(h.level) }))
      .filter((x) => x.rank >= 0)
      .sort((a, b) => a.rank - b.rank);
    const best = ranked[0];
    if (best && best.rank <= need.rank) {
      return {
        requirement,
        held: `${best.h.name}${best.h.level}`,
        certNo: best.h.certNo,
        ok: true,
        reason: null,
      };
    }
    const reason = best
      ? `持有 ${best.h.name}${best.h.level}，低于要求的${need.level}`
      : same.length
        ? `${need.category}资质证书已过有效期`
        : `未持有${need.category}资质`;
    return {
      requirement,
      held: best ? `${best.h.name}${best.h.level}` : null,
      certNo: best?.h.certNo ?? null,
      ok: false,
      reason,
    };
  });
  const qualOk = relation === '且' ? lines.every((l) => l.ok) : lines.some((l) => l.ok);
  const ok = qualOk && (perfLine?.ok ?? true);
  // the failures that decide: every failed qualification when they do not hold, and the performance when it fails
  const failed = [...(qualOk ? [] : lines.filter((l) => !l.ok)), ...(perfLine && !perfLine.ok ? [perfLine] : [])];
  const summary = ok
    ? `资质符合要求（${relation === '且' ? '须全部具备' : '具备任一项即可'}）${perfLine ? '，业绩符合要求' : ''}`
    : `${REGISTRATION_MESSAGES.qualificationFailed}：${failed.map((l) => `${l.requirement}（${l.reason}）`).join('；')}`;
  return { ok, relation, lines: perfLine ? [...lines, perfLine] : lines, summary };
}

const sectionRow = (q: DbOrTx, id: string) => sectionOr404(q, id, '标段不存在或已删除');

const relationOf = (s: SectionRow): QualRelation => (s.qualRelation === '或' ? '或' : '且');

/** Is the enterprise the project's own side (the agency or tenderee that entered it, or the tenderee it names)? */
async function isProjectSide(db: Db, c: EngineCaller, projectId: string): Promise<boolean> {
  const p = await projects.get(db, projectId);
  if (!p) throw notFound('项目不存在或已删除');
  if (ofRecordSide(c, { status: p.status, version: p.version, ownerId: p.ownerId, enterpriseId: p.enterpriseId }))
    return true;
  if (!c.enterpriseId || !p.values.zbrdm) return false;
  const [e] = await db
    .select({ code: enterprises.creditCode })
    .from(enterprises)
    .where(eq(enterprises.id, c.enterpriseId));
  return e?.code === p.values.zbrdm;
}

function enterpriseOf(c: EngineCaller): string {
  if (c.loginRoleType !== 'U' || !c.enterpriseId) throw forbidden(REGISTRATION_MESSAGES.notEnterprise);
  return c.enterpriseId;
}

function openProblem(s: SectionRow, now: Date): string | null {
  if (!s.noticePublishedAt) return REGISTRATION_MESSAGES.notPublished;
  if (s.bidDeadline.getTime() <= now.getTime()) return REGISTRATION_MESSAGES.deadlinePassed;
  return null;
}

/** Sections open for registration, newest notice first, with the caller's own registration time. */
export async function openSections(db: Db, c: EngineCaller, now: Date): Promise<OpenSection[]> {
  const rows = await db
    .select()
    .from(tenderSections)
    .where(and(isNotNull(tenderSections.noticePublishedAt), gt(tenderSections.bidDeadline, now)))
    .orderBy(asc(tenderSections.bidDeadline))
    .limit(500);
  if (rows.length === 0) return [];
  const mine = c.enterpriseId
    ? await db
        .select()
        .from(tenderRegistrations)
        .where(
          and(
            eq(tenderRegistrations.enterpriseId, c.enterpriseId),
            inArray(
              tenderRegistrations.sectionId,
              rows.map((r) => r.id),
            ),
          ),
        )
    : [];
  const at = new Map(mine.map((m) => [m.sectionId, m.registeredAt.toISOString()]));
  const out: OpenSection[] = [];
  for (const s of rows) {
    const p = await projects.get(db, s.projectId);
    if (!p) continue;
    out.push({
      sectionId: s.id,
      projectName: p.values.xmmc ?? '',
      projectCode: p.values.xmbh ?? '',
      tenderee: p.values.zbr ?? '',
      sectionCode: s.code,
      sectionName: s.name,
      estimate: Number(s.estimate),
      deposit: Number(s.deposit),
      docSaleStart: s.docSaleStart,
      docSaleEnd: s.docSaleEnd,
      bidDeadline: s.bidDeadline.toISOString(),
      publishedAt: s.noticePublishedAt!.toISOString(),
      qualLabels: joinQualLabels(s.qualItems),
      qualRelation: relationOf(s),
      perfRequirement: perfRequirementText(s),
      registeredAt: at.get(s.id) ?? null,
    });
  }
  return out.sort((a, b) => b.publishedAt.localeCompare(a.publishedAt));
}

/** The caller's enterprise against a published section's requirements (what 报名 will decide). */
export async function checkFor(
  db: Db,
  c: EngineCaller,
  sectionId: string,
  now: Date,
  tz: string,
): Promise<QualificationCheck> {
  const enterpriseId = enterpriseOf(c);
  const s = await sectionRow(db, sectionId);
  if (!s.noticePublishedAt) throw conflict(REGISTRATION_MESSAGES.notPublished);
  return checkQualifications(db, enterpriseId, s.qualItems, relationOf(s), dateIn(now, tz), s);
}

const registrationView = (r: typeof tenderRegistrations.$inferSelect, enterpriseName: string): Registration => ({
  id: r.id,
  sectionId: r.sectionId,
  enterpriseId: r.enterpriseId,
  enterpriseName,
  contact: r.contact,
  phone: r.phone,
  matched: r.matched,
  registeredAt: r.registeredAt.toISOString(),
});

export async function register(
  db: Db,
  c: EngineCaller,
  input: RegistrationInput,
  now: Date,
  tz: string,
): Promise<Registration> {
  const enterpriseId = enterpriseOf(c);
  const s = await sectionRow(db, input.sectionId);
  const problem = openProblem(s, now);
  if (problem) throw conflict(problem);
  if (await isProjectSide(db, c, s.projectId)) throw forbidden(REGISTRATION_MESSAGES.sideCannot);
  if (await registrationOf(db, s.id, enterpriseId)) throw conflict(REGISTRATION_MESSAGES.already);
  const check = await checkQualifications(db, enterpriseId, s.qualItems, relationOf(s), dateIn(now, tz), s);
  if (!check.ok) throw badRequest(check.summary, check);
  const [ent] = await db.select({ name: enterprises.name }).from(enterprises).where(eq(enterprises.id, enterpriseId));
  try {
    return await db.transaction(async (tx) => {
      // the section as it is now: a deadline moved or passed meanwhile decides
      const locked = await findSection(tx, s.id, 'share');
      const late = locked ? openProblem(locked, now) : '标段不存在或已删除';
      if (late) throw conflict(late);
      const [row] = await tx
        .insert(tenderRegistrations)
        .values({
          sectionId: s.id,
          enterpriseId,
          userId: c.id,
          contact: input.contact,
          phone: input.phone,
          matched: check.lines
            .filter((l) => l.ok)
            .map((l) => ({ requirement: l.requirement, held: l.held ?? '', certNo: l.certNo ?? '' })),
          registeredAt: now,
        })
        .returning();
      await writeOpLog(tx, c.actor, {
        glName: GL_NAME,
        recordId: s.id,
        logbook: `${ent?.name ?? '企业'}报名标段 ${s.code} ${s.name}，资质核验：${check.summary}`,
      });
      return registrationView(row!, ent?.name ?? '');
    });
  } catch (e) {
    if (isUniqueViolation(e, 'tender_registrations_section_ent_uq')) throw conflict(REGISTRATION_MESSAGES.already);
    throw e;
  }
}

/** How many registered (anyone signed in may know the count; never the names before opening). */
export async function registrationQuantity(db: Db, sectionId: string): Promise<number> {
  await sectionRow(db, sectionId);
  const [r] = await db
    .select({ n: count() })
    .from(tenderRegistrations)
    .where(eq(tenderRegistrations.sectionId, sectionId));
  return Number(r?.n ?? 0);
}

/**
 * Who registered: the trading centre (administrators) at any time; the project's side once the bid deadline (the
 * opening) has come; nobody else — other bidders and the tenderee before opening are refused with the reason.
 */
export async function registrationList(db: Db, c: EngineCaller, sectionId: string, now: Date): Promise<Registration[]> {
  const s = await sectionRow(db, sectionId);
  if (c.loginRoleType !== 'M') {
    const opened = s.bidDeadline.getTime() <= now.getTime();
    const n = await engineNode(db, projects.gnCoding);
    const row = await rowOf(db, c, projects.gnCoding, s.projectId, n.id).catch(() => null);
    const side = row ? ofRecordSide(c, recordFactsOf(row)) : false;
    if (!side || !opened) throw forbidden(REGISTRATION_MESSAGES.hidden);
  }
  const rows = await db
    .select({ r: tenderRegistrations, name: enterprises.name })
    .from(tenderRegistrations)
    .innerJoin(enterprises, eq(enterprises.id, tenderRegistrations.enterpriseId))
    .where(eq(tenderRegistrations.sectionId, sectionId))
    .orderBy(asc(tenderRegistrations.registeredAt));
  return rows.map(({ r, name }) => registrationView(r, name));
}

/**
 * Whose employees may not sit on a section's evaluation committee (DOMAIN.md "Evaluation"): the tenderee, its agency
 * and every enterprise registered for the section — read here, for the expert extraction, by the trading centre only.
 */
export async function sectionAvoidance(db: DbOrTx, sectionId: string) {
  const s = await sectionRow(db, sectionId);
  const p = await projects.get(db, s.projectId);
  const bidders = await db
    .select({ name: enterprises.name })
    .from(tenderRegistrations)
    .innerJoin(enterprises, eq(enterprises.id, tenderRegistrations.enterpriseId))
    .where(eq(tenderRegistrations.sectionId, sectionId))
    .orderBy(asc(tenderRegistrations.registeredAt));
  const side = [p?.values.zbr, p?.values.dljg].filter((x): x is string => Boolean(x?.trim()));
  return {
    projectName: p?.values.xmmc ?? '',
    sectionName: `${s.code} ${s.name}`,
    projectRef: `${p?.values.xmbh ?? ''} ${s.code}`.trim(),
    bidDeadline: s.bidDeadline,
    side,
    bidders: bidders.map((b) => b.name),
  };
}
