import {
  appNow,
  criteriaProblems,
  defaultCriteria,
  EVAL_CLARIFY_FILE_NODE,
  EVAL_CLARIFY_MAX_DAYS,
  EVAL_CLARIFY_MIN_MINUTES,
  EVAL_MSG,
  EVAL_PANEL_LABELS,
  type EvalAnomaly,
  type EvalClarifyAsk,
  type EvalCriteria,
  type EvalDeclare,
  type EvalMember,
  type EvalMethod,
  type EvalPanel,
  type EvalPrincipal,
  type EvalResult,
  type EvalRoom,
  type EvalSave,
  type EvalSection,
  type EvalStatus,
  evaluate,
  MONITOR_VERDICT_LABELS,
  type MonitorVerdict,
  median,
  needsReason,
  specialtyCategory,
  type TradeOverview,
} from '@ks/contracts';
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import {
  bidEvaluationMembers,
  bidEvaluationPanels,
  bidEvaluationReopens,
  bidEvaluationScores,
  bidEvaluations,
  bidFiles,
  bidOpeningBids,
  bidOpenings,
  enterprises,
  expertExtractionMembers,
  expertExtractions,
  tenderSections,
  users,
} from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { publishEvent } from '../../platform/live';
import { writeOpLog } from '../../platform/oplog';
import { registerFileReader } from '../files/readers';
import { appendEvent, ledgerActor, sectionEntries } from '../ledger/ledger';
import { sendUserMessages } from '../messages/send';
import { publishedFindings } from '../monitor/monitor.repo';
import { projects } from '../tender/project';
import { type SectionRow, sectionOr404 } from '../tender/section.repo';
import { sectionForReader } from '../tender/tender.service';
import * as clarify from './evaluation.clarify';
import type { EvalCaller, EvalDeps } from './evaluation.deps';
import { evalEventText } from './evaluation.events';
import { tradeOverviewOf } from './evaluation.overview';
import * as results from './evaluation.results';

/**
 * Bid evaluation (评标, issue 17). See contracts/evaluation.ts for the flow and evaluation-rules.ts for the arithmetic.
 * Who the caller is comes from the section: its host (the project's side, or an administrator), a member of its
 * committee (by account), or a viewer (the centre, the project's reviewers and supervisors); an enterprise that bid
 * in the section, and anyone else, gets 404. Every change is one transaction with an entry of the tamper-evident log,
 * an operation-log row and a live `evaluation` event.
 */
export type { EvalCaller, EvalDeps } from './evaluation.deps';

type Role = 'host' | 'member' | 'viewer';
type EvalRow = typeof bidEvaluations.$inferSelect;
type MemberRow = typeof bidEvaluationMembers.$inferSelect;
type PanelRow = typeof bidEvaluationPanels.$inferSelect;

const GL_NAME = '评标';

interface Place {
  section: SectionRow;
  role: Role;
  projectName: string;
  member: MemberRow | null;
}

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

async function placeOf(db: Db, c: EvalCaller, sectionId: string): Promise<Place> {
  if (!isUuid(sectionId)) throw notFound(EVAL_MSG.sectionMissing);
  const section = await sectionOr404(db, sectionId, EVAL_MSG.sectionMissing);
  const project = await projects.get(db, section.projectId);
  const projectName = String(project?.values.xmmc ?? '');
  const [member] = await db
    .select()
    .from(bidEvaluationMembers)
    .where(and(eq(bidEvaluationMembers.sectionId, sectionId), eq(bidEvaluationMembers.userId, c.id)));
  let reader: { side: boolean } | null = null;
  try {
    reader = await sectionForReader(db, c, sectionId);
  } catch (e) {
    if (!(e instanceof AppError) || (e.httpStatus !== 404 && e.httpStatus !== 403)) throw e;
  }
  if (reader?.side || c.loginRoleType === 'M') return { section, role: 'host', projectName, member: null };
  if (member) return { section, role: 'member', projectName, member };
  if (reader && c.enterpriseId) {
    // an enterprise that bid in the section never looks into its evaluation
    const [bid] = await db
      .select({ id: bidFiles.id })
      .from(bidFiles)
      .where(and(eq(bidFiles.sectionId, sectionId), eq(bidFiles.enterpriseId, c.enterpriseId)))
      .limit(1);
    if (bid) throw notFound(EVAL_MSG.sectionMissing);
  }
  if (reader) return { section, role: 'viewer', projectName, member: null };
  throw notFound(EVAL_MSG.sectionMissing);
}

const evaluationOf = async (q: DbOrTx, sectionId: string, lock = false) => {
  const base = q.select().from(bidEvaluations).where(eq(bidEvaluations.sectionId, sectionId));
  const [e] = lock ? await base.for('update') : await base;
  return e ?? null;
};

const membersOf = (q: DbOrTx, sectionId: string) =>
  q
    .select()
    .from(bidEvaluationMembers)
    .where(eq(bidEvaluationMembers.sectionId, sectionId))
    .orderBy(asc(bidEvaluationMembers.name), asc(bidEvaluationMembers.id));

async function panelsOf(q: DbOrTx, memberIds: string[]): Promise<PanelRow[]> {
  if (!memberIds.length) return [];
  return q.select().from(bidEvaluationPanels).where(inArray(bidEvaluationPanels.memberId, memberIds));
}

/** The bids under evaluation: those read out in the opening hall, in the reading order. */
async function bidsOf(q: DbOrTx, sectionId: string) {
  return q
    .select({
      bidId: bidOpeningBids.bidId,
      enterpriseId: bidOpeningBids.enterpriseId,
      enterpriseName: enterprises.name,
      price: bidOpeningBids.price,
      durationDays: bidOpeningBids.durationDays,
      quality: bidOpeningBids.quality,
      manager: bidOpeningBids.manager,
      readOrder: bidOpeningBids.readOrder,
      fileName: bidFiles.fileName,
      plainStorageKey: bidOpeningBids.plainStorageKey,
    })
    .from(bidOpeningBids)
    .innerJoin(enterprises, eq(enterprises.id, bidOpeningBids.enterpriseId))
    .innerJoin(bidFiles, eq(bidFiles.id, bidOpeningBids.bidId))
    .where(and(eq(bidOpeningBids.sectionId, sectionId), isNotNull(bidOpeningBids.readAt)))
    .orderBy(asc(bidOpeningBids.readOrder));
}

const criteriaOf = (e: EvalRow) => e.criteria as EvalCriteria;

/** The panels the method uses: qualification always; technical and business when it has items for them. */
export function usedPanels(c: EvalCriteria): EvalPanel[] {
  const out: EvalPanel[] = ['ZS'];
  if (c.technical.length) out.push('JS');
  if (c.business.length) out.push('SW');
  return out;
}

const itemsOf = (c: EvalCriteria, p: EvalPanel) =>
  p === 'ZS'
    ? c.qualification.map((q) => ({ id: q.id, name: q.name, max: null as number | null }))
    : (p === 'JS' ? c.technical : c.business).map((i) => ({ id: i.id, name: i.name, max: i.max as number | null }));

const memberPanels = (m: MemberRow, c: EvalCriteria): EvalPanel[] =>
  (m.panels as EvalPanel[]).filter((p) => usedPanels(c).includes(p));

const announce = (tx: Tx, sectionId: string) => publishEvent(tx, { everyone: true }, 'evaluation', { sectionId });

async function logStep(
  tx: Tx,
  c: EvalCaller,
  place: Place,
  kind: string,
  payload: Record<string, unknown>,
  logbook: string,
  at: Date,
) {
  await appendEvent(tx, { kind, sectionId: place.section.id, actor: ledgerActor(c.actor), payload, at });
  await writeOpLog(tx, c.actor, {
    glName: GL_NAME,
    recordId: place.section.id,
    logbook: `${logbook}（标段 ${place.section.code} ${place.section.name}）`,
  });
  await announce(tx, place.section.id);
}

function requireHost(place: Place) {
  if (place.role !== 'host') throw forbidden(EVAL_MSG.notHost);
}

function requireMember(place: Place): MemberRow {
  if (place.role !== 'member' || !place.member) throw forbidden(EVAL_MSG.notMember);
  return place.member;
}

/** A member fit to act: declared without conflict. Re-read under the evaluation's lock. */
async function activeMember(tx: DbOrTx, memberId: string): Promise<MemberRow> {
  const [m] = await tx.select().from(bidEvaluationMembers).where(eq(bidEvaluationMembers.id, memberId));
  if (!m) throw forbidden(EVAL_MSG.notMember);
  if (!m.declaredAt) throw conflict(EVAL_MSG.mustDeclare);
  if (m.conflict) throw forbidden(EVAL_MSG.recused);
  return m;
}

async function requireEvaluation(tx: DbOrTx, sectionId: string, lock = true): Promise<EvalRow> {
  const e = await evaluationOf(tx, sectionId, lock);
  if (!e) throw conflict(EVAL_MSG.notBegun);
  return e;
}

// ── reading ─────────────────────────────────────────────────────────────────

export async function room(deps: EvalDeps, c: EvalCaller, sectionId: string): Promise<EvalRoom> {
  return roomOf(deps, await placeOf(deps.db, c, sectionId));
}

function toMember(m: MemberRow, panels: PanelRow[], e: EvalRow | null, votes: number): EvalMember {
  const of = (p: EvalPanel) => panels.find((x) => x.memberId === m.id && x.panel === p);
  return {
    id: m.id,
    name: m.name,
    specialty: m.specialty,
    employer: m.employer,
    panels: (e ? memberPanels(m, criteriaOf(e)) : (m.panels as EvalPanel[])) as EvalPanel[],
    hasAccount: m.userId !== null,
    declaredAt: m.declaredAt?.toISOString() ?? null,
    recused: m.conflict !== null,
    conflict: m.conflict,
    signins: {
      ZS: of('ZS')?.signedAt.toISOString() ?? null,
      JS: of('JS')?.signedAt.toISOString() ?? null,
      SW: of('SW')?.signedAt.toISOString() ?? null,
    },
    submitted: {
      ZS: of('ZS')?.submittedAt?.toISOString() ?? null,
      JS: of('JS')?.submittedAt?.toISOString() ?? null,
      SW: of('SW')?.submittedAt?.toISOString() ?? null,
    },
    chair: e?.chairMemberId === m.id,
    votes,
    reportSignedAt: m.reportSignedAt?.toISOString() ?? null,
    dissent: m.dissent,
  };
}

const scoreOut = (s: typeof bidEvaluationScores.$inferSelect) => ({
  bidId: s.bidId,
  itemId: s.itemId,
  score: s.score === null ? null : Number(s.score),
  pass: s.pass === null ? null : s.pass === 'Y',
  reason: s.reason,
});

async function roomOf(deps: EvalDeps, place: Place): Promise<EvalRoom> {
  const { db } = deps;
  const { section, role } = place;
  const [opening] = await db.select().from(bidOpenings).where(eq(bidOpenings.sectionId, section.id));
  const openingClosed = opening?.status === 'closed';
  const e = await evaluationOf(db, section.id);
  const status: EvalStatus = e ? (e.status as EvalStatus) : 'none';
  const criteria = e ? criteriaOf(e) : null;
  const memberRows = e ? await membersOf(db, section.id) : [];
  const panelRows = await panelsOf(
    db,
    memberRows.map((m) => m.id),
  );
  const votes = new Map<string, number>();
  for (const m of memberRows) if (m.voteFor && !m.conflict) votes.set(m.voteFor, (votes.get(m.voteFor) ?? 0) + 1);
  const members = memberRows.map((m) => toMember(m, panelRows, e, votes.get(m.id) ?? 0));
  const meRow = place.member ? memberRows.find((m) => m.id === place.member?.id) : undefined;
  const me = meRow ? (members.find((m) => m.id === meRow.id) ?? null) : null;
  const [extraction] = e
    ? await db
        .select({ id: expertExtractions.id, code: expertExtractions.code, at: expertExtractions.evaluationStartAt })
        .from(expertExtractions)
        .where(eq(expertExtractions.id, e.extractionId))
    : [];

  const meActive = Boolean(me?.declaredAt && !me.recused);
  const meSigned = Boolean(me && (me.signins.ZS || me.signins.JS || me.signins.SW));
  const seesBids = role !== 'member' ? openingClosed : meActive && meSigned;
  const bidRows = seesBids ? await bidsOf(db, section.id) : [];
  const bids = bidRows.map((b) => ({
    bidId: b.bidId,
    enterpriseName: b.enterpriseName,
    price: Number(b.price),
    durationDays: b.durationDays,
    quality: b.quality,
    manager: b.manager,
    readOrder: b.readOrder ?? 0,
    fileName: b.fileName,
  }));

  const myScores =
    me && seesBids
      ? (await db.select().from(bidEvaluationScores).where(eq(bidEvaluationScores.memberId, me.id))).map(scoreOut)
      : [];
  const submittedSet = new Set(panelRows.filter((p) => p.submittedAt).map((p) => `${p.memberId}|${p.panel}`));
  const everyScore = e
    ? await db.select().from(bidEvaluationScores).where(eq(bidEvaluationScores.sectionId, section.id))
    : [];
  const rendered = status === 'reporting' || status === 'done';
  const allScores = everyScore
    .filter((s) => (role !== 'member' || rendered) && submittedSet.has(`${s.memberId}|${s.panel}`))
    .map((s) => ({ ...scoreOut(s), memberId: s.memberId, panel: s.panel as EvalPanel }));

  const reopenRows = e
    ? await db
        .select()
        .from(bidEvaluationReopens)
        .where(eq(bidEvaluationReopens.sectionId, section.id))
        .orderBy(asc(bidEvaluationReopens.at))
    : [];
  const nameOf = new Map(memberRows.map((m) => [m.id, m.name]));
  const reopens = reopenRows.map((r) => ({
    memberName: nameOf.get(r.memberId) ?? '',
    panel: r.panel as EvalPanel,
    reason: r.reason,
    at: r.at.toISOString(),
    byName: r.byName,
  }));

  const anomalies =
    role === 'member' || !e || !criteria
      ? []
      : anomaliesOf(deps, criteria, extraction?.at ?? null, memberRows, panelRows, everyScore, reopenRows, bidRows);

  const entries = (await sectionEntries(db, section.id)).filter((x) => x.kind.startsWith('evaluation.'));
  const events = entries.map((x) => ({
    seq: Number(x.seq),
    at: x.at.toISOString(),
    kind: x.kind,
    actorName: x.actorName,
    text: evalEventText(x.kind, JSON.parse(x.payload) as Record<string, unknown>),
    hash: x.hash,
  }));

  const isHost = role === 'host';
  const outcome = await results.outcomeOf(db, e, deps.now());
  const after = results.outcomeActions(isHost, outcome, deps.now());
  const late = latePublicity(deps, outcome);
  if (late && role !== 'member') anomalies.push(late);
  if (role !== 'member') anomalies.push(...principalAnomalies(entries));
  const isChair = Boolean(me && e?.chairMemberId === me.id);
  const used = criteria ? usedPanels(criteria) : [];
  const myPanels = me ? me.panels.filter((p) => used.includes(p)) : [];
  const open = status === 'signing' || status === 'scoring';
  const active = members.filter((m) => !m.recused);
  const allSubmitted =
    active.length > 0 && active.every((m) => m.panels.filter((p) => used.includes(p)).every((p) => m.submitted[p]));
  return {
    section: { id: section.id, code: section.code, name: section.name, projectName: place.projectName },
    status,
    role,
    now: deps.now().toISOString(),
    openingClosed,
    drawnK: drawnKOf(opening),
    extraction: extraction ? { id: extraction.id, code: extraction.code, evaluationStartAt: extraction.at } : null,
    criteria,
    members,
    me,
    bids,
    myScores,
    allScores,
    result: (e?.result as EvalResult | null) ?? null,
    reopens,
    clarifications: e && seesBids ? await clarify.clarificationsOf(db, section.id, deps.now()) : [],
    anomalies,
    outcome,
    supervision: (await publishedFindings(db, section.id)).map((f) => ({
      id: f.id,
      verdictLabel: MONITOR_VERDICT_LABELS[f.verdict as MonitorVerdict] ?? f.verdict,
      rectify: f.verdict === 'rectify',
      anomalyText: f.anomalyText,
      opinion: f.opinion,
      byName: f.byName,
      publishedAt: f.publishedAt!.toISOString(),
    })),
    events,
    actions: {
      begin: isHost && status === 'none' && openingClosed,
      method: isHost && open && everyScore.length === 0,
      declare: Boolean(me && !me.declaredAt && open),
      signIn: meActive && open ? myPanels.filter((p) => !me?.signins[p]) : [],
      vote: meActive && meSigned && status === 'signing',
      score: meActive && status === 'scoring' ? myPanels.filter((p) => me?.signins[p] && !me.submitted[p]) : [],
      reopen: isChair && status === 'scoring',
      clarify: isChair && status === 'scoring',
      principal: isHost && open && members.some((m) => !m.recused && (m.signins.ZS || m.signins.JS || m.signins.SW)),
      render: isChair && status === 'scoring' && allSubmitted,
      sign: meActive && status === 'reporting' && !me?.reportSignedAt,
      export: rendered,
      ...after,
    },
  };
}

function latePublicity(deps: EvalDeps, outcome: EvalRoom['outcome']): EvalAnomaly | null {
  if (!outcome?.publicity?.late) return null;
  return {
    key: 'latePublicity',
    kind: 'latePublicity',
    at: outcome.publicity.start,
    text: `中标候选人公示晚于收到评标报告后的公示期限（应不晚于 ${appNow(new Date(outcome.publishBy!), deps.tz)}）`,
  };
}

/**
 * The anomalies of a section's evaluation that supervisors are alerted to (the room's list, read by the supervision
 * console): each with a key that names it for as long as it stands (a finding of the console refers to it).
 */
export async function anomaliesFor(deps: EvalDeps, sectionId: string): Promise<EvalAnomaly[]> {
  const { db } = deps;
  const e = await evaluationOf(db, sectionId);
  if (!e) return [];
  const memberRows = await membersOf(db, sectionId);
  const panelRows = await panelsOf(
    db,
    memberRows.map((m) => m.id),
  );
  const [extraction] = await db
    .select({ at: expertExtractions.evaluationStartAt })
    .from(expertExtractions)
    .where(eq(expertExtractions.id, e.extractionId));
  const everyScore = await db.select().from(bidEvaluationScores).where(eq(bidEvaluationScores.sectionId, sectionId));
  const reopenRows = await db
    .select()
    .from(bidEvaluationReopens)
    .where(eq(bidEvaluationReopens.sectionId, sectionId))
    .orderBy(asc(bidEvaluationReopens.at));
  const out = anomaliesOf(
    deps,
    criteriaOf(e),
    extraction?.at ?? null,
    memberRows,
    panelRows,
    everyScore,
    reopenRows,
    await bidsOf(db, sectionId),
  );
  const late = latePublicity(deps, await results.outcomeOf(db, e, deps.now()));
  if (late) out.push(late);
  out.push(...principalAnomalies(await sectionEntries(db, sectionId)));
  return out;
}

/** The chair named or replaced by the host (update-principal) rather than elected by the committee. */
function principalAnomalies(
  entries: { kind: string; seq: number | bigint; at: Date; actorName: string; payload: string }[],
) {
  const out: EvalAnomaly[] = [];
  for (const x of entries) {
    if (x.kind !== 'evaluation.principal') continue;
    const p = JSON.parse(x.payload) as { name?: string; previous?: string | null; reason?: string };
    out.push({
      key: `principal:${x.seq}`,
      kind: 'principal',
      at: x.at.toISOString(),
      text: p.previous
        ? `${x.actorName} 将评标委员会负责人由 ${p.previous} 更换为 ${p.name ?? ''}，理由：${p.reason ?? ''}`
        : `${x.actorName} 指定 ${p.name ?? ''} 为评标委员会负责人，理由：${p.reason ?? ''}`,
    });
  }
  return out;
}

function anomaliesOf(
  deps: EvalDeps,
  criteria: EvalCriteria,
  evaluationStartAt: string | null,
  memberRows: MemberRow[],
  panelRows: PanelRow[],
  scores: (typeof bidEvaluationScores.$inferSelect)[],
  reopens: (typeof bidEvaluationReopens.$inferSelect)[],
  bids: { bidId: string; enterpriseName: string }[],
): EvalAnomaly[] {
  const out: EvalAnomaly[] = [];
  const nameOf = new Map(memberRows.map((m) => [m.id, m.name]));
  const bidName = new Map(bids.map((b) => [b.bidId, b.enterpriseName]));
  for (const m of memberRows) {
    if (m.conflict)
      out.push({
        key: `recused:${m.id}`,
        kind: 'recused',
        at: m.declaredAt?.toISOString() ?? null,
        text: `${m.name} 申请回避：${m.conflict}`,
      });
  }
  if (evaluationStartAt) {
    for (const p of panelRows) {
      if (appNow(p.signedAt, deps.tz) > evaluationStartAt) {
        out.push({
          key: `lateSignin:${p.memberId}:${p.panel}`,
          kind: 'lateSignin',
          at: p.signedAt.toISOString(),
          text: `${nameOf.get(p.memberId) ?? ''} 于 ${appNow(p.signedAt, deps.tz)} 签到${EVAL_PANEL_LABELS[p.panel as EvalPanel]}，晚于评标开始时间 ${evaluationStartAt}`,
        });
      }
    }
  }
  for (const r of reopens) {
    out.push({
      key: `reopened:${r.id}`,
      kind: 'reopened',
      at: r.at.toISOString(),
      text: `组长 ${r.byName} 退回 ${nameOf.get(r.memberId) ?? ''} 的${EVAL_PANEL_LABELS[r.panel as EvalPanel]}评分：${r.reason}`,
    });
  }
  // submitted scores that now lie far from the median of the submitted scores of their cell, with no reason
  const submitted = new Set(panelRows.filter((p) => p.submittedAt).map((p) => `${p.memberId}|${p.panel}`));
  const cells = new Map<string, (typeof scores)[number][]>();
  for (const s of scores) {
    if (s.score === null || !submitted.has(`${s.memberId}|${s.panel}`)) continue;
    const k = `${s.bidId}|${s.itemId}`;
    const list = cells.get(k) ?? [];
    list.push(s);
    cells.set(k, list);
  }
  const maxOf = new Map([...criteria.technical, ...criteria.business].map((i) => [i.id, i]));
  for (const list of cells.values()) {
    const values = list.map((s) => Number(s.score));
    for (const s of list) {
      const item = maxOf.get(s.itemId);
      if (!item || s.reason.trim()) continue;
      if (needsReason(Number(s.score), values, item.max, criteria.deviation)) {
        out.push({
          key: `noReason:${s.memberId}:${s.bidId}:${s.itemId}`,
          kind: 'noReason',
          at: s.updatedAt.toISOString(),
          text: `${nameOf.get(s.memberId) ?? ''} 对 ${bidName.get(s.bidId) ?? ''}「${item.name}」评 ${Number(s.score)} 分，偏离中位数 ${median(values)} 分且未写理由`,
        });
      }
    }
  }
  return out;
}

/** The sections whose evaluation the caller organises, sits on or watches: those whose opening closed. */
export async function sectionList(deps: EvalDeps, c: EvalCaller): Promise<EvalSection[]> {
  const rows = await deps.db
    .select({ s: tenderSections })
    .from(bidOpenings)
    .innerJoin(tenderSections, eq(tenderSections.id, bidOpenings.sectionId))
    .where(eq(bidOpenings.status, 'closed'))
    .orderBy(sql`${bidOpenings.closedAt} desc nulls last`)
    .limit(300);
  const out: EvalSection[] = [];
  for (const { s } of rows) {
    let place: Place;
    try {
      place = await placeOf(deps.db, c, s.id);
    } catch (e) {
      if (e instanceof AppError && e.httpStatus === 404) continue;
      throw e;
    }
    const e = await evaluationOf(deps.db, s.id);
    const members = e ? await membersOf(deps.db, s.id) : [];
    const active = members.filter((m) => !m.conflict);
    const panels = await panelsOf(
      deps.db,
      active.map((m) => m.id),
    );
    const used = e ? usedPanels(criteriaOf(e)) : [];
    const submitted = active.filter((m) =>
      memberPanels(m, criteriaOf(e!)).every((p) =>
        panels.some((x) => x.memberId === m.id && x.panel === p && x.submittedAt),
      ),
    ).length;
    let winner: string | null = null;
    const result = e?.result as (EvalResult & { names?: Record<string, string> }) | null;
    if (result) {
      const first = result.rows.find((r) => r.rank === 1);
      winner = first ? (result.names?.[first.bidId] ?? null) : null;
    }
    out.push({
      id: s.id,
      code: s.code,
      name: s.name,
      projectName: place.projectName,
      status: e ? (e.status as EvalStatus) : 'none',
      role: place.role,
      members: used.length ? active.length : 0,
      submitted,
      winner,
      published: Boolean(e?.publicityNoticeId),
      awarded: Boolean(e?.awardBidId),
    });
  }
  return out;
}

/** How an extraction drawn for the section names it (the project's number and the section's code). */
async function sectionRef(q: DbOrTx, section: SectionRow): Promise<string> {
  const project = await projects.get(q, section.projectId);
  return `${project?.values.xmbh ?? ''} ${section.code}`.trim();
}

/** Confirmed extractions (confirmed or published) drawn for the section, newest first: the committees it may sit. */
export async function extractionOptions(deps: EvalDeps, c: EvalCaller, sectionId: string) {
  const place = await placeOf(deps.db, c, sectionId);
  requireHost(place);
  const rows = await deps.db
    .select({
      id: expertExtractions.id,
      code: expertExtractions.code,
      projectName: expertExtractions.projectName,
      sectionName: expertExtractions.sectionName,
      evaluationStartAt: expertExtractions.evaluationStartAt,
      members: sql<number>`(select count(*)::int from ${expertExtractionMembers} m where m.extraction_id = ${expertExtractions.id} and m.answer = 'confirmed')`,
    })
    .from(expertExtractions)
    .where(
      and(
        inArray(expertExtractions.status, ['confirmed', 'published']),
        eq(expertExtractions.projectRef, await sectionRef(deps.db, place.section)),
      ),
    )
    .orderBy(sql`${expertExtractions.createdAt} desc`)
    .limit(100);
  return rows.map((r) => ({ ...r, members: Number(r.members) }));
}

// ── the steps ───────────────────────────────────────────────────────────────

/** The default panels of an expert: qualification; technical or business by the specialty's category. */
function defaultPanels(specialty: string, hasTechnical: boolean, hasEconomic: boolean): EvalPanel[] {
  const cat = specialtyCategory(specialty);
  const out: EvalPanel[] = ['ZS'];
  if (cat === 'technical' || !hasTechnical) out.push('JS');
  if (cat === 'economic' || !hasEconomic) out.push('SW');
  return out;
}

export async function begin(
  deps: EvalDeps,
  c: EvalCaller,
  input: { sectionId: string; extractionId: string; method?: EvalMethod },
): Promise<EvalRoom> {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireHost(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await sectionOr404(tx, place.section.id, EVAL_MSG.sectionMissing, 'update');
    const [opening] = await tx.select().from(bidOpenings).where(eq(bidOpenings.sectionId, place.section.id));
    if (opening?.status !== 'closed') throw conflict(EVAL_MSG.notClosed);
    if (await evaluationOf(tx, place.section.id)) throw conflict(EVAL_MSG.alreadyBegun);
    const [x] = await tx.select().from(expertExtractions).where(eq(expertExtractions.id, input.extractionId));
    if (!x) throw notFound(EVAL_MSG.extractionMissing);
    if (x.status !== 'confirmed' && x.status !== 'published') throw conflict(EVAL_MSG.extractionNotConfirmed);
    if (x.projectRef !== (await sectionRef(tx, place.section))) throw conflict(EVAL_MSG.extractionOtherSection);
    const drawn = await tx
      .select()
      .from(expertExtractionMembers)
      .where(and(eq(expertExtractionMembers.extractionId, x.id), eq(expertExtractionMembers.answer, 'confirmed')))
      .orderBy(asc(expertExtractionMembers.line), asc(expertExtractionMembers.seq));
    if (!drawn.length) throw conflict(EVAL_MSG.noMembers);
    const phones = drawn.map((m) => m.phone).filter(Boolean);
    const accounts = phones.length
      ? await tx
          .select({ id: users.id, phone: users.phone })
          .from(users)
          .where(and(inArray(users.phone, phones), isNotNull(users.phoneVerifiedAt)))
      : [];
    const byPhone = new Map<string, string>();
    for (const a of accounts) if (a.phone && !byPhone.has(a.phone)) byPhone.set(a.phone, a.id);
    const criteria = withDrawnK(defaultCriteria(input.method ?? 'comprehensive'), drawnKOf(opening));
    const hasTechnical = drawn.some((m) => specialtyCategory(m.specialty) === 'technical');
    const hasEconomic = drawn.some((m) => specialtyCategory(m.specialty) === 'economic');
    await tx.insert(bidEvaluations).values({
      sectionId: place.section.id,
      extractionId: x.id,
      status: 'signing',
      criteria,
      hostId: c.id,
      startedAt: now,
    });
    const inserted = await tx
      .insert(bidEvaluationMembers)
      .values(
        drawn.map((m) => ({
          sectionId: place.section.id,
          expertId: m.expertId,
          userId: byPhone.get(m.phone) ?? null,
          name: m.name,
          specialty: m.specialty,
          employer: m.employer,
          panels: defaultPanels(m.specialty, hasTechnical, hasEconomic),
        })),
      )
      .returning();
    await logStep(
      tx,
      c,
      place,
      'evaluation.begun',
      {
        extractionId: x.id,
        extractionCode: x.code,
        method: criteria.method,
        members: inserted.map((m) => ({ memberId: m.id, name: m.name, specialty: m.specialty, panels: m.panels })),
      },
      `开始评标，评标委员会 ${inserted.length} 人（抽取 ${x.code}）`,
      now,
    );
  });
  return room(deps, c, place.section.id);
}

export async function setMethod(
  deps: EvalDeps,
  c: EvalCaller,
  input: { sectionId: string; criteria: EvalCriteria },
): Promise<EvalRoom> {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireHost(place);
  const problems = criteriaProblems(input.criteria);
  if (problems.length) throw badRequest(problems.join('；'), { problems });
  await deps.db.transaction(async (tx) => {
    const e = await requireEvaluation(tx, place.section.id);
    if (e.status !== 'signing' && e.status !== 'scoring') throw conflict(EVAL_MSG.methodLocked);
    const [any] = await tx
      .select({ m: bidEvaluationScores.memberId })
      .from(bidEvaluationScores)
      .where(eq(bidEvaluationScores.sectionId, e.sectionId))
      .limit(1);
    if (any) throw conflict(EVAL_MSG.methodLocked);
    const [opening] = await tx.select().from(bidOpenings).where(eq(bidOpenings.sectionId, e.sectionId));
    const k = drawnKOf(opening);
    if (k !== null && input.criteria.price.k !== k) throw badRequest(EVAL_MSG.kDrawn(k));
    await tx.update(bidEvaluations).set({ criteria: input.criteria }).where(eq(bidEvaluations.sectionId, e.sectionId));
    await logStep(tx, c, place, 'evaluation.method', { criteria: input.criteria }, '设置评标办法', deps.now());
  });
  return room(deps, c, place.section.id);
}

/** 评审系数 K drawn in the opening hall, if it was. */
function drawnKOf(opening: typeof bidOpenings.$inferSelect | undefined): number | null {
  return opening?.kValue != null ? Number(opening.kValue) : null;
}

/** The method with the hall's K (the benchmark price's coefficient is not the host's to choose once it was drawn). */
function withDrawnK(c: EvalCriteria, k: number | null): EvalCriteria {
  return k === null ? c : { ...c, price: { ...c.price, k } };
}

export async function declare(deps: EvalDeps, c: EvalCaller, input: EvalDeclare): Promise<EvalRoom> {
  const place = await placeOf(deps.db, c, input.sectionId);
  const member = requireMember(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const e = await requireEvaluation(tx, place.section.id);
    if (e.status !== 'signing' && e.status !== 'scoring') throw conflict(EVAL_MSG.notScoring);
    const conflictText = input.conflict ? input.text : null;
    const done = await tx
      .update(bidEvaluationMembers)
      .set({ declaredAt: now, conflict: conflictText })
      .where(and(eq(bidEvaluationMembers.id, member.id), sql`${bidEvaluationMembers.declaredAt} is null`))
      .returning();
    if (!done.length) throw conflict(EVAL_MSG.alreadyDeclared);
    await logStep(
      tx,
      c,
      place,
      'evaluation.declared',
      { memberId: member.id, name: member.name, conflict: input.conflict, text: conflictText },
      input.conflict ? `评委 ${member.name} 申请回避` : `评委 ${member.name} 签署回避声明：无应当回避的情形`,
      now,
    );
  });
  return room(deps, c, place.section.id);
}

export async function signIn(
  deps: EvalDeps,
  c: EvalCaller,
  input: { sectionId: string; panel: EvalPanel },
): Promise<EvalRoom> {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireMember(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const e = await requireEvaluation(tx, place.section.id);
    if (e.status !== 'signing' && e.status !== 'scoring') throw conflict(EVAL_MSG.notScoring);
    const m = await activeMember(tx, place.member!.id);
    if (!memberPanels(m, criteriaOf(e)).includes(input.panel)) throw forbidden(EVAL_MSG.notInPanel(input.panel));
    const inserted = await tx
      .insert(bidEvaluationPanels)
      .values({ memberId: m.id, panel: input.panel, signedAt: now })
      .onConflictDoNothing()
      .returning();
    if (!inserted.length) throw conflict(EVAL_MSG.alreadySignedIn);
    const [x] = await tx
      .select({ at: expertExtractions.evaluationStartAt })
      .from(expertExtractions)
      .where(eq(expertExtractions.id, e.extractionId));
    const late = Boolean(x && appNow(now, deps.tz) > x.at);
    await logStep(
      tx,
      c,
      place,
      'evaluation.signin',
      { memberId: m.id, name: m.name, panel: input.panel, late },
      `评委 ${m.name} 签到${EVAL_PANEL_LABELS[input.panel]}${late ? '（迟到）' : ''}`,
      now,
    );
  });
  return room(deps, c, place.section.id);
}

export async function vote(
  deps: EvalDeps,
  c: EvalCaller,
  input: { sectionId: string; memberId: string },
): Promise<EvalRoom> {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireMember(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const e = await requireEvaluation(tx, place.section.id);
    if (e.status !== 'signing') throw conflict(EVAL_MSG.chairElected);
    const voter = await activeMember(tx, place.member!.id);
    const [signed] = await tx.select().from(bidEvaluationPanels).where(eq(bidEvaluationPanels.memberId, voter.id));
    if (!signed) throw conflict(EVAL_MSG.notSignedIn('ZS'));
    const members = await membersOf(tx, e.sectionId);
    const target = members.find((m) => m.id === input.memberId);
    if (!target || target.conflict) throw badRequest(EVAL_MSG.memberMissing);
    await tx.update(bidEvaluationMembers).set({ voteFor: target.id }).where(eq(bidEvaluationMembers.id, voter.id));
    const active = members.filter((m) => !m.conflict);
    const votes = active.filter((m) => (m.id === voter.id ? target.id : m.voteFor) === target.id).length;
    await logStep(
      tx,
      c,
      place,
      'evaluation.vote',
      { memberId: voter.id, name: voter.name, forId: target.id, forName: target.name },
      `评委 ${voter.name} 推选 ${target.name} 为组长`,
      now,
    );
    if (votes * 2 > active.length) {
      await tx
        .update(bidEvaluations)
        .set({ status: 'scoring', chairMemberId: target.id })
        .where(eq(bidEvaluations.sectionId, e.sectionId));
      await appendEvent(tx, {
        kind: 'evaluation.chair',
        sectionId: e.sectionId,
        actor: ledgerActor(c.actor),
        payload: { memberId: target.id, name: target.name, votes, of: active.length },
        at: now,
      });
    }
  });
  return room(deps, c, place.section.id);
}

/**
 * 确定 / 更换评标委员会负责人: the host names a signed-in, active member chair (while the members sign in: the election
 * ends there and scoring opens) or replaces the chair while scoring, with a reason; the members' votes stay on record.
 */
export async function updatePrincipal(deps: EvalDeps, c: EvalCaller, input: EvalPrincipal): Promise<EvalRoom> {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireHost(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const e = await requireEvaluation(tx, place.section.id);
    if (e.status !== 'signing' && e.status !== 'scoring') throw conflict(EVAL_MSG.principalNotOpen);
    const members = await membersOf(tx, e.sectionId);
    const target = members.find((m) => m.id === input.memberId);
    if (!target || target.conflict || !target.declaredAt) throw badRequest(EVAL_MSG.memberMissing);
    if (e.chairMemberId === target.id) throw conflict(EVAL_MSG.alreadyPrincipal);
    const [signed] = await tx.select().from(bidEvaluationPanels).where(eq(bidEvaluationPanels.memberId, target.id));
    if (!signed) throw conflict(EVAL_MSG.principalNotSignedIn);
    const previous = members.find((m) => m.id === e.chairMemberId) ?? null;
    await tx
      .update(bidEvaluations)
      .set({ status: 'scoring', chairMemberId: target.id })
      .where(eq(bidEvaluations.sectionId, e.sectionId));
    await logStep(
      tx,
      c,
      place,
      'evaluation.principal',
      { memberId: target.id, name: target.name, previous: previous?.name ?? null, reason: input.reason },
      previous
        ? `更换评标委员会负责人：${previous.name} → ${target.name}，理由：${input.reason}`
        : `招标人确定 ${target.name} 为评标委员会负责人，理由：${input.reason}`,
      now,
    );
  });
  return room(deps, c, place.section.id);
}

/** The member's panel open for scoring (signed in, not submitted), under the evaluation's lock. */
async function scoringPanel(tx: Tx, place: Place, panel: EvalPanel) {
  const e = await requireEvaluation(tx, place.section.id);
  if (e.status !== 'scoring') throw conflict(e.status === 'signing' ? EVAL_MSG.noChair : EVAL_MSG.notScoring);
  const m = await activeMember(tx, place.member!.id);
  const criteria = criteriaOf(e);
  if (!memberPanels(m, criteria).includes(panel)) throw forbidden(EVAL_MSG.notInPanel(panel));
  const [p] = await tx
    .select()
    .from(bidEvaluationPanels)
    .where(and(eq(bidEvaluationPanels.memberId, m.id), eq(bidEvaluationPanels.panel, panel)))
    .for('update');
  if (!p) throw forbidden(EVAL_MSG.notSignedIn(panel));
  if (p.submittedAt) throw conflict(EVAL_MSG.locked(panel));
  return { e, m, criteria };
}

const twoDecimals = (v: number) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;

export async function save(deps: EvalDeps, c: EvalCaller, input: EvalSave): Promise<EvalRoom> {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireMember(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { m, criteria } = await scoringPanel(tx, place, input.panel);
    const items = new Map(itemsOf(criteria, input.panel).map((i) => [i.id, i]));
    const bidIds = new Set((await bidsOf(tx, place.section.id)).map((b) => b.bidId));
    const rows: (typeof bidEvaluationScores.$inferInsert)[] = [];
    const clear: { bidId: string; itemId: string }[] = [];
    for (const s of input.scores) {
      if (!bidIds.has(s.bidId)) throw badRequest(EVAL_MSG.bidMissing);
      const item = items.get(s.itemId);
      if (!item) throw forbidden(EVAL_MSG.itemMissing(s.itemId));
      const reason = s.reason?.trim() ?? '';
      if (input.panel === 'ZS') {
        if (s.pass === null || s.pass === undefined) {
          clear.push(s);
          continue;
        }
        rows.push({ ...base(), pass: s.pass ? 'Y' : 'N', score: null, reason });
      } else {
        if (s.score === null || s.score === undefined) {
          clear.push(s);
          continue;
        }
        if (!(s.score >= 0 && s.score <= (item.max ?? 0) && twoDecimals(s.score))) {
          throw badRequest(EVAL_MSG.scoreRange(item.name, item.max ?? 0));
        }
        rows.push({ ...base(), score: s.score, pass: null, reason });
      }
      function base() {
        return {
          memberId: m.id,
          bidId: s.bidId,
          itemId: s.itemId,
          sectionId: place.section.id,
          panel: input.panel,
          updatedAt: now,
        };
      }
    }
    if (rows.length) {
      await tx
        .insert(bidEvaluationScores)
        .values(rows)
        .onConflictDoUpdate({
          target: [bidEvaluationScores.memberId, bidEvaluationScores.bidId, bidEvaluationScores.itemId],
          set: {
            score: sql`excluded.score`,
            pass: sql`excluded.pass`,
            reason: sql`excluded.reason`,
            updatedAt: sql`excluded.created_at`,
          },
        });
    }
    for (const x of clear) {
      await tx
        .delete(bidEvaluationScores)
        .where(
          and(
            eq(bidEvaluationScores.memberId, m.id),
            eq(bidEvaluationScores.bidId, x.bidId),
            eq(bidEvaluationScores.itemId, x.itemId),
          ),
        );
    }
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: place.section.id,
      logbook: `评委 ${m.name} 保存${EVAL_PANEL_LABELS[input.panel]}评分 ${rows.length} 项（标段 ${place.section.code}）`,
    });
  });
  return room(deps, c, place.section.id);
}

export async function submit(
  deps: EvalDeps,
  c: EvalCaller,
  input: { sectionId: string; panel: EvalPanel },
): Promise<EvalRoom> {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireMember(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { e, m, criteria } = await scoringPanel(tx, place, input.panel);
    const items = itemsOf(criteria, input.panel);
    const bids = await bidsOf(tx, place.section.id);
    const all = await tx
      .select()
      .from(bidEvaluationScores)
      .where(and(eq(bidEvaluationScores.sectionId, e.sectionId), eq(bidEvaluationScores.panel, input.panel)));
    const mine = new Map(all.filter((s) => s.memberId === m.id).map((s) => [`${s.bidId}|${s.itemId}`, s]));
    const count = bids.reduce((n, b) => n + items.filter((i) => !mine.has(`${b.bidId}|${i.id}`)).length, 0);
    if (count > 0) throw badRequest(EVAL_MSG.incomplete(count));
    if (input.panel === 'ZS') {
      for (const b of bids) {
        for (const i of items) {
          const s = mine.get(`${b.bidId}|${i.id}`)!;
          if (s.pass === 'N' && !s.reason.trim()) throw badRequest(EVAL_MSG.failNeedsReason(b.enterpriseName, i.name));
        }
      }
    } else {
      const submittedMembers = new Set(
        (
          await tx
            .select({ id: bidEvaluationPanels.memberId })
            .from(bidEvaluationPanels)
            .innerJoin(bidEvaluationMembers, eq(bidEvaluationMembers.id, bidEvaluationPanels.memberId))
            .where(
              and(
                eq(bidEvaluationMembers.sectionId, e.sectionId),
                eq(bidEvaluationPanels.panel, input.panel),
                isNotNull(bidEvaluationPanels.submittedAt),
              ),
            )
        ).map((r) => r.id),
      );
      const cells: {
        bidId: string;
        enterpriseName: string;
        itemId: string;
        itemName: string;
        score: number;
        median: number;
      }[] = [];
      for (const b of bids) {
        for (const i of items) {
          const own = mine.get(`${b.bidId}|${i.id}`)!;
          const values = all
            .filter(
              (s) =>
                s.bidId === b.bidId && s.itemId === i.id && (s.memberId === m.id || submittedMembers.has(s.memberId)),
            )
            .map((s) => Number(s.score));
          if (!own.reason.trim() && needsReason(Number(own.score), values, i.max ?? 0, criteria.deviation)) {
            cells.push({
              bidId: b.bidId,
              enterpriseName: b.enterpriseName,
              itemId: i.id,
              itemName: i.name,
              score: Number(own.score),
              median: median(values),
            });
          }
        }
      }
      if (cells.length) {
        const list = cells.map(
          (x) => `${x.enterpriseName}「${x.itemName}」：您评 ${x.score} 分，中位数 ${x.median} 分`,
        );
        throw badRequest(`${EVAL_MSG.deviation}：${list.join('；')}`, { cells });
      }
    }
    await tx
      .update(bidEvaluationPanels)
      .set({ submittedAt: now })
      .where(and(eq(bidEvaluationPanels.memberId, m.id), eq(bidEvaluationPanels.panel, input.panel)));
    const scores = [...mine.values()]
      .sort((a, b) => a.bidId.localeCompare(b.bidId) || a.itemId.localeCompare(b.itemId))
      .map((s) => ({
        bidId: s.bidId,
        itemId: s.itemId,
        ...(s.pass !== null ? { pass: s.pass === 'Y' } : { score: Number(s.score) }),
        ...(s.reason ? { reason: s.reason } : {}),
      }));
    await logStep(
      tx,
      c,
      place,
      'evaluation.submitted',
      { memberId: m.id, name: m.name, panel: input.panel, scores },
      `评委 ${m.name} 提交${EVAL_PANEL_LABELS[input.panel]}评审结果`,
      now,
    );
  });
  return room(deps, c, place.section.id);
}

async function requireChair(tx: Tx, place: Place): Promise<{ e: EvalRow; chair: MemberRow }> {
  const e = await requireEvaluation(tx, place.section.id);
  if (!place.member || e.chairMemberId !== place.member.id) throw forbidden(EVAL_MSG.notChair);
  return { e, chair: place.member };
}

export async function reopen(
  deps: EvalDeps,
  c: EvalCaller,
  input: { sectionId: string; memberId: string; panel: EvalPanel; reason: string },
): Promise<EvalRoom> {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireMember(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { e, chair } = await requireChair(tx, place);
    if (e.status !== 'scoring') throw conflict(EVAL_MSG.notScoring);
    const [target] = await tx
      .select()
      .from(bidEvaluationMembers)
      .where(and(eq(bidEvaluationMembers.id, input.memberId), eq(bidEvaluationMembers.sectionId, e.sectionId)));
    if (!target) throw badRequest(EVAL_MSG.memberMissing);
    const done = await tx
      .update(bidEvaluationPanels)
      .set({ submittedAt: null, reopened: sql`${bidEvaluationPanels.reopened} + 1` })
      .where(
        and(
          eq(bidEvaluationPanels.memberId, target.id),
          eq(bidEvaluationPanels.panel, input.panel),
          isNotNull(bidEvaluationPanels.submittedAt),
        ),
      )
      .returning();
    if (!done.length) throw conflict(EVAL_MSG.notSubmitted);
    await tx.insert(bidEvaluationReopens).values({
      sectionId: e.sectionId,
      memberId: target.id,
      panel: input.panel,
      reason: input.reason,
      byUserId: c.id,
      byName: chair.name,
      at: now,
    });
    await logStep(
      tx,
      c,
      place,
      'evaluation.reopened',
      { memberId: target.id, name: target.name, panel: input.panel, reason: input.reason, chair: chair.name },
      `组长 ${chair.name} 退回 ${target.name} 的${EVAL_PANEL_LABELS[input.panel]}评分：${input.reason}`,
      now,
    );
  });
  return room(deps, c, place.section.id);
}

// ── 评标澄清 ─────────────────────────────────────────────────────────────────

const MINUTE = 60_000;

// An answer's files: the host, the committee and the viewers of the section (as its room), and the answering
// enterprise itself (the files module lets the uploader's enterprise read them anyway).
registerFileReader(EVAL_CLARIFY_FILE_NODE, async (db, c, id) => {
  const r = await clarify.clarificationById(db, id);
  if (!r) return false;
  await placeOf(db, c, r.sectionId);
  return true;
});

/** The chair asks a bidder, on the committee's behalf, to clarify its bid in writing before a deadline. */
export async function askClarification(deps: EvalDeps, c: EvalCaller, input: EvalClarifyAsk): Promise<EvalRoom> {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireMember(place);
  const now = deps.now();
  const deadline = new Date(input.deadline);
  if (
    deadline.getTime() < now.getTime() + EVAL_CLARIFY_MIN_MINUTES * MINUTE ||
    deadline.getTime() > now.getTime() + EVAL_CLARIFY_MAX_DAYS * 1440 * MINUTE
  ) {
    throw badRequest(EVAL_MSG.clarifyDeadline);
  }
  await deps.db.transaction(async (tx) => {
    const { e, chair } = await requireChair(tx, place);
    if (e.status !== 'scoring') throw conflict(EVAL_MSG.clarifyNotOpen);
    const bid = (await bidsOf(tx, e.sectionId)).find((b) => b.bidId === input.bidId);
    if (!bid) throw badRequest(EVAL_MSG.bidMissing);
    const id = await clarify.insertClarification(tx, {
      sectionId: e.sectionId,
      bidId: bid.bidId,
      question: input.question,
      deadline,
      askedByMemberId: chair.id,
      at: now,
    });
    const deadlineText = appNow(deadline, deps.tz);
    const accounts = await clarify.enterpriseAccounts(tx, bid.enterpriseId);
    await sendUserMessages(
      tx,
      accounts.map((u) => ({
        userId: u.userId,
        kind: 'admin' as const,
        title: `评标委员会要求澄清：${place.section.code} ${place.section.name}`,
        body: `${place.projectName} ${place.section.code} ${place.section.name} 的评标委员会要求贵单位对投标文件作出书面澄清，请于 ${deadlineText}（北京时间）前在开标大厅的「评标澄清」中答复：${input.question}`,
        link: `/bid/bidMeet?sectionId=${place.section.id}`,
        createdAt: now,
      })),
    );
    await logStep(
      tx,
      c,
      place,
      'evaluation.clarify_asked',
      {
        clarificationId: id,
        bidId: bid.bidId,
        enterpriseName: bid.enterpriseName,
        question: input.question,
        deadline: deadline.toISOString(),
        deadlineText,
        chair: chair.name,
      },
      `组长 ${chair.name} 要求${bid.enterpriseName}澄清投标文件`,
      now,
    );
  });
  return room(deps, c, place.section.id);
}

/** The chair withdraws a question not yet answered, with a reason. */
export async function revokeClarification(
  deps: EvalDeps,
  c: EvalCaller,
  input: { id: string; reason: string },
): Promise<EvalRoom> {
  const found = await clarify.clarificationById(deps.db, input.id);
  if (!found) throw notFound(EVAL_MSG.clarifyMissing);
  const place = await placeOf(deps.db, c, found.sectionId).catch((e) => {
    throw results.isNotFound(e) ? notFound(EVAL_MSG.clarifyMissing) : e;
  });
  requireMember(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { chair } = await requireChair(tx, place);
    const r = await clarify.clarificationById(tx, input.id, true);
    if (!r || r.answeredAt || r.revokedAt) throw conflict(EVAL_MSG.clarifyDone);
    await clarify.revokeClarification(tx, r.id, input.reason, now);
    const enterpriseName = await clarify.enterpriseNameOfBid(tx, r.bidId);
    await logStep(
      tx,
      c,
      place,
      'evaluation.clarify_revoked',
      { clarificationId: r.id, enterpriseName, reason: input.reason, chair: chair.name },
      `组长 ${chair.name} 撤回对${enterpriseName}的澄清要求：${input.reason}`,
      now,
    );
  });
  return room(deps, c, place.section.id);
}

/** The bidder answers once, in writing (text and its own uploaded files), before the deadline. */
export async function answerClarification(
  deps: EvalDeps,
  c: EvalCaller,
  input: { id: string; answer: string; fileIds: string[] },
) {
  const found = await clarify.clarificationById(deps.db, input.id);
  if (!found) throw notFound(EVAL_MSG.clarifyMissing);
  const owner = await clarify.enterpriseOfBid(deps.db, found.bidId);
  // anyone but the asked enterprise: as if there were no such question
  if (!c.enterpriseId || owner !== c.enterpriseId) throw notFound(EVAL_MSG.clarifyMissing);
  const section = await sectionOr404(deps.db, found.sectionId, EVAL_MSG.sectionMissing);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const r = await clarify.clarificationById(tx, input.id, true);
    if (!r || r.answeredAt || r.revokedAt) throw conflict(EVAL_MSG.clarifyDone);
    if (r.deadline.getTime() <= now.getTime()) throw conflict(EVAL_MSG.clarifyClosed);
    await clarify.answerClarification(tx, r.id, { answer: input.answer, by: c.id, at: now });
    const bound = await clarify.bindAnswerFiles(tx, input.fileIds, r.id, {
      userId: c.id,
      enterpriseId: c.enterpriseId!,
    });
    if (bound !== input.fileIds.length) throw badRequest(EVAL_MSG.clarifyFileMissing);
    const enterpriseName = await clarify.enterpriseNameOfBid(tx, r.bidId);
    await appendEvent(tx, {
      kind: 'evaluation.clarify_answered',
      sectionId: section.id,
      actor: ledgerActor(c.actor),
      payload: { clarificationId: r.id, enterpriseName, answer: input.answer, files: input.fileIds },
      at: now,
    });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: section.id,
      logbook: `答复评标委员会的澄清要求（标段 ${section.code} ${section.name}）`,
    });
    await announce(tx, section.id);
  });
  return results.bidderOutcome(deps, c, section.id);
}

/** 汇总: the chair, once every active member submitted every panel of theirs the method uses. */
export async function render(deps: EvalDeps, c: EvalCaller, sectionId: string): Promise<EvalRoom> {
  const place = await placeOf(deps.db, c, sectionId);
  requireMember(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { e } = await requireChair(tx, place);
    if (e.status !== 'scoring') throw conflict(EVAL_MSG.notScoring);
    const criteria = criteriaOf(e);
    const members = (await membersOf(tx, e.sectionId)).filter((m) => !m.conflict);
    const panels = await panelsOf(
      tx,
      members.map((m) => m.id),
    );
    const pending = members.some((m) =>
      memberPanels(m, criteria).some((p) => !panels.find((x) => x.memberId === m.id && x.panel === p)?.submittedAt),
    );
    if (pending) throw conflict(EVAL_MSG.notAllSubmitted);
    const bids = await bidsOf(tx, e.sectionId);
    const scores = await tx.select().from(bidEvaluationScores).where(eq(bidEvaluationScores.sectionId, e.sectionId));
    const result = evaluate(
      criteria,
      bids.map((b) => ({ bidId: b.bidId, price: Number(b.price), readOrder: b.readOrder ?? 0 })),
      members.map((m) => ({ id: m.id, panels: memberPanels(m, criteria) })),
      scores.map((s) => ({
        memberId: s.memberId,
        bidId: s.bidId,
        itemId: s.itemId,
        score: s.score === null ? null : Number(s.score),
        pass: s.pass === null ? null : s.pass === 'Y',
        reason: s.reason,
      })),
    );
    const names = Object.fromEntries(bids.map((b) => [b.bidId, b.enterpriseName]));
    await tx
      .update(bidEvaluations)
      .set({ status: 'reporting', result: { ...result, names }, renderedAt: now })
      .where(eq(bidEvaluations.sectionId, e.sectionId));
    await logStep(
      tx,
      c,
      place,
      'evaluation.rendered',
      {
        method: result.method,
        benchmark: result.benchmark?.value ?? null,
        ranking: result.rows.map((r) => ({
          bidId: r.bidId,
          enterpriseName: names[r.bidId],
          rank: r.rank,
          total: r.total,
          qualified: r.qualified,
        })),
      },
      '汇总评标结果',
      now,
    );
  });
  return room(deps, c, place.section.id);
}

export async function signReport(
  deps: EvalDeps,
  c: EvalCaller,
  input: { sectionId: string; agree: boolean; dissent?: string },
): Promise<EvalRoom> {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireMember(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const e = await requireEvaluation(tx, place.section.id);
    if (e.status !== 'reporting') throw conflict(EVAL_MSG.notReporting);
    const m = await activeMember(tx, place.member!.id);
    const dissent = input.agree ? null : (input.dissent ?? '');
    const done = await tx
      .update(bidEvaluationMembers)
      .set({ reportSignedAt: now, dissent })
      .where(and(eq(bidEvaluationMembers.id, m.id), sql`${bidEvaluationMembers.reportSignedAt} is null`))
      .returning();
    if (!done.length) throw conflict(EVAL_MSG.alreadySigned);
    await logStep(
      tx,
      c,
      place,
      'evaluation.report_signed',
      { memberId: m.id, name: m.name, agree: input.agree, dissent },
      input.agree ? `评委 ${m.name} 签署评标报告` : `评委 ${m.name} 签署评标报告并保留不同意见`,
      now,
    );
    const left = (await membersOf(tx, e.sectionId)).filter((x) => !x.conflict && !x.reportSignedAt);
    if (!left.length) {
      await tx
        .update(bidEvaluations)
        .set({ status: 'done', doneAt: now })
        .where(eq(bidEvaluations.sectionId, e.sectionId));
      const r = e.result as EvalResult & { names: Record<string, string> };
      await appendEvent(tx, {
        kind: 'evaluation.done',
        sectionId: e.sectionId,
        actor: ledgerActor(c.actor),
        payload: {
          candidates: r.rows
            .filter((x) => x.rank !== null && x.rank <= 3)
            .map((x) => ({ rank: x.rank, bidId: x.bidId, enterpriseName: r.names[x.bidId] ?? '' })),
        },
        at: now,
      });
    }
  });
  return room(deps, c, place.section.id);
}

/** The room for the report (export): anyone who may see the room once the result is rendered. */
export async function reportRoom(deps: EvalDeps, c: EvalCaller, sectionId: string) {
  const place = await placeOf(deps.db, c, sectionId);
  const r = await roomOf(deps, place);
  if (!r.actions.export) throw conflict(EVAL_MSG.notReporting);
  // the report lists every member's scores, whoever asks
  const scores = await deps.db.select().from(bidEvaluationScores).where(eq(bidEvaluationScores.sectionId, sectionId));
  return {
    room: r,
    scores: scores.map((s) => ({ ...scoreOut(s), memberId: s.memberId, panel: s.panel as EvalPanel })),
  };
}

/** A bid's decrypted file for reading: a member who declared and signed in, the host, or a viewer. */
export async function document(deps: EvalDeps, c: EvalCaller, q: { sectionId: string; bidId: string }) {
  const place = await placeOf(deps.db, c, q.sectionId);
  const r = await roomOf(deps, place);
  const bid = r.bids.find((b) => b.bidId === q.bidId);
  if (!bid) {
    if (place.role === 'member' && (!r.me?.declaredAt || r.me.recused)) throw forbidden(EVAL_MSG.mustDeclare);
    throw notFound(EVAL_MSG.bidMissing);
  }
  const [row] = await deps.db
    .select({ key: bidOpeningBids.plainStorageKey })
    .from(bidOpeningBids)
    .where(eq(bidOpeningBids.bidId, q.bidId));
  if (!row?.key) throw notFound(EVAL_MSG.bidMissing);
  await writeOpLog(deps.db, c.actor, {
    glName: GL_NAME,
    recordId: q.sectionId,
    logbook: `查阅投标文件：${bid.enterpriseName}（标段 ${place.section.code}）`,
  });
  return { fileName: bid.fileName, stream: await deps.storage.get(row.key) };
}

// ── after the evaluation ────────────────────────────────────────────────────

export async function publish(deps: EvalDeps, c: EvalCaller, input: { sectionId: string; days?: number }) {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireHost(place);
  await results.publish(deps, c, place.section, input.days);
  return room(deps, c, place.section.id);
}

export async function answerObjection(deps: EvalDeps, c: EvalCaller, input: { id: string; answer: string }) {
  if (!isUuid(input.id)) throw notFound(EVAL_MSG.objectionMissing);
  const sectionId = await results.answerObjection(deps, c, input, async (id) => {
    const place = await placeOf(deps.db, c, id).catch((e) => {
      throw results.isNotFound(e) ? notFound(EVAL_MSG.objectionMissing) : e;
    });
    requireHost(place);
    return place.section;
  });
  return room(deps, c, sectionId);
}

export async function award(deps: EvalDeps, c: EvalCaller, sectionId: string) {
  const place = await placeOf(deps.db, c, sectionId);
  requireHost(place);
  await results.award(deps, c, place.section);
  return room(deps, c, place.section.id);
}

export const bidderOutcome = results.bidderOutcome;
export const object = results.object;

/** 中标通知书: the host, viewers, and the winner's enterprise. */
export async function awardNotice(deps: EvalDeps, c: EvalCaller, sectionId: string) {
  let outcome: EvalRoom['outcome'] = null;
  try {
    outcome = (await room(deps, c, sectionId)).outcome;
  } catch (e) {
    if (!results.isNotFound(e)) throw e;
    // not host, member or viewer: a bidder — the winner's enterprise only
    const mine = await results.bidderOutcome(deps, c, sectionId);
    if (!mine.award) throw conflict(EVAL_MSG.notAwarded);
    if (!mine.actions.awardNotice) throw forbidden();
    outcome = await results.outcomeOf(deps.db, await evaluationOf(deps.db, sectionId), deps.now());
  }
  if (!outcome?.award) throw conflict(EVAL_MSG.notAwarded);
  const section = await sectionOr404(deps.db, sectionId, EVAL_MSG.sectionMissing);
  const project = await projects.get(deps.db, section.projectId);
  const head = {
    id: section.id,
    code: section.code,
    name: section.name,
    projectName: String(project?.values.xmmc ?? ''),
  };
  return {
    name: `中标通知书-${section.code}.pdf`,
    pdf: results.awardNoticePdf({ section: head }, outcome, project?.values, deps.tz),
  };
}

/** /ks/trade/buttons: the section's stage and the caller's buttons. */
/**
 * 标段交易进度: the section's stages for whoever may look into it — its host, members and viewers, and an enterprise
 * that bid in it; anyone else 404.
 */
export async function tradeOverview(deps: EvalDeps, c: EvalCaller, sectionId: string): Promise<TradeOverview> {
  let section: SectionRow;
  try {
    section = (await placeOf(deps.db, c, sectionId)).section;
  } catch (e) {
    if (!results.isNotFound(e) || !isUuid(sectionId)) throw e;
    if (!(await results.bidderOf(deps.db, sectionId, c.enterpriseId))) throw e;
    section = await sectionOr404(deps.db, sectionId, EVAL_MSG.sectionMissing);
  }
  return tradeOverviewOf(deps.db, section, deps.now(), deps.tz);
}

export async function buttons(deps: EvalDeps, c: EvalCaller, sectionId: string) {
  try {
    const place = await placeOf(deps.db, c, sectionId);
    const r = await roomOf(deps, place);
    return results.buttonsOf(place.role, await results.openingStatusOf(deps.db, sectionId), r, null);
  } catch (e) {
    if (!results.isNotFound(e)) throw e;
  }
  const mine = await results.bidderOutcome(deps, c, sectionId);
  const e = await evaluationOf(deps.db, sectionId);
  const stageRoom = e
    ? { status: e.status as EvalStatus, actions: {} as EvalRoom['actions'], outcome: mine.publicity ? mine : null }
    : null;
  return results.buttonsOf('bidder', await results.openingStatusOf(deps.db, sectionId), stageRoom, mine.actions);
}
