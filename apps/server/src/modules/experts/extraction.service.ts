import { createHash, randomBytes } from 'node:crypto';
import {
  appNow,
  appToday,
  committeeProblems,
  committeeTotals,
  DEFAULT_RECENT_DAYS,
  type DrawConditions,
  dateTimeIn,
  EXPERT_RECENT_DAYS_SETTING,
  EXPERT_SPECIALTIES,
  EXTRACTION_NODE,
  type ExtractionConditions,
  type ExtractionCreate,
  type ExtractionDetail,
  type ExtractionStatus,
  type ExtractionSummary,
  type ExtractionVerify,
  eligibility,
  extractionStatusLabel,
  EXTRACTION_MESSAGES as M,
  memberAnswerLabel,
  type PoolSnapshot,
  runDraw,
  SHANXI_CITIES,
  snapshotText,
  specialtyCategory,
  verifyDraw,
} from '@ks/contracts';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { type Caller, isAdmin, requireNode } from '../../platform/permissions';
import { getSetting } from '../../platform/settings';
import { appendEvent, ledgerActor } from '../ledger/ledger';
import { sectionAvoidance } from '../tender/registration.service';
import * as repo from './experts.repo';
import { allExperts, poolReady, poolSnapshotOf, zjk } from './pool';

/**
 * Expert extraction (issue 16). The extraction administrator (a platform administrator, M) creates an extraction with
 * its conditions, commits a seed — the server draws 32 random bytes, takes the pool snapshot and publishes and logs
 * SHA-256(seed) and the snapshot's hash before anything is drawn —, draws, records each expert's answer on the phone (a
 * decline draws the next expert of the same line from the same seed chain), confirms the list and, once evaluation
 * starts, publishes it. Developers and users granted 抽取项目 read the records; names, phones and the seed stay with
 * the extraction administrator until the list is confirmed and evaluation has started. Every step writes an
 * operation-log row on the extraction (glName 抽取项目, gnCoding ZJCQ_CQXM) inside its transaction.
 */

export interface ExpertsCaller extends Caller {
  actor: Actor;
}

const GL = '抽取项目';
const at = (d: Date | null | undefined) => (d ? dateTimeIn(d) : null);

/** The step's operation-log row, and its entry in the tamper-evident log of opening and evaluation (modules/ledger). */
async function log(tx: Tx, actor: Actor, id: string, logbook: string, at: Date = new Date()) {
  await writeOpLog(tx, actor, { glName: GL, gnCoding: EXTRACTION_NODE, recordId: id, logbook });
  await appendEvent(tx, {
    kind: 'experts.extraction',
    actor: ledgerActor(actor),
    payload: { extractionId: id, step: logbook },
    at,
  });
}

function requireManager(c: ExpertsCaller) {
  if (!isAdmin(c)) throw forbidden(M.onlyAdmin);
}

/** Administrators, developers and users granted the 抽取项目 node read extractions (403 otherwise). */
async function requireReader(db: Db, c: ExpertsCaller) {
  if (isAdmin(c)) return;
  await requireNode(db, c, EXTRACTION_NODE);
}

/** The list is public once confirmed and evaluation has started. */
function isPublic(row: repo.ExtractionRow, now: Date) {
  return (row.status === 'confirmed' || row.status === 'published') && appNow(now) >= row.evaluationStartAt;
}
const namesVisibleTo = (c: ExpertsCaller | null, row: repo.ExtractionRow, now: Date) =>
  (c !== null && isAdmin(c)) || isPublic(row, now);
/** The seed is shown to the extraction administrator once the list is final, to everybody once it is public. */
const seedVisibleTo = (c: ExpertsCaller | null, row: repo.ExtractionRow, now: Date) =>
  row.seed !== null &&
  ((c !== null && isAdmin(c) && (row.status === 'confirmed' || row.status === 'published')) || isPublic(row, now));

const conditionsOf = (row: repo.ExtractionRow) => row.conditions as ExtractionConditions;

export async function recentDaysDefault(db: DbOrTx): Promise<number> {
  const s = await getSetting(db as Db, EXPERT_RECENT_DAYS_SETTING);
  const v = s === null ? Number.NaN : Number(s);
  return Number.isInteger(v) && v >= 0 ? v : DEFAULT_RECENT_DAYS;
}

function summaryOf(row: repo.ExtractionRow): ExtractionSummary {
  const t = committeeTotals(conditionsOf(row));
  return {
    id: row.id,
    code: row.code,
    projectName: row.projectName,
    sectionName: row.sectionName,
    projectRef: row.projectRef,
    openingAt: row.openingAt,
    evaluationStartAt: row.evaluationStartAt,
    status: row.status as ExtractionStatus,
    statusLabel: extractionStatusLabel(row.status),
    committeeSize: t.total,
    expertCount: t.experts,
    seedHash: row.seedHash,
    createdBy: row.createdByName,
    createdAt: dateTimeIn(row.createdAt),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// reads

export async function options(db: Db, c: ExpertsCaller) {
  await requireReader(db, c);
  const experts = await allExperts(db);
  const available = new Map<string, number>();
  const total = new Map<string, number>();
  for (const e of experts) {
    const s = e.values.zy ?? '';
    total.set(s, (total.get(s) ?? 0) + 1);
    if (e.values.zt === '在库') available.set(s, (available.get(s) ?? 0) + 1);
  }
  return {
    specialties: EXPERT_SPECIALTIES.map((s) => ({
      value: s.value,
      category: s.category,
      available: available.get(s.value) ?? 0,
      total: total.get(s.value) ?? 0,
    })),
    regions: [...SHANXI_CITIES],
    recentDays: await recentDaysDefault(db),
    poolSize: experts.length,
    // names of the pool only for the extraction administrator (the avoid-by-name picker)
    experts: isAdmin(c)
      ? experts
          .map((e) => ({
            id: e.id,
            name: e.values.xm ?? '',
            employer: e.values.dw ?? '',
            specialty: e.values.zy ?? '',
          }))
          .sort((a, b) => a.name.localeCompare(b.name, 'zh-CN'))
      : [],
  };
}

export async function list(
  db: Db,
  c: ExpertsCaller,
  q: { keyword: string; status?: string; pageNum: number; pageSize: number },
) {
  await requireReader(db, c);
  const { rows, total } = await repo.listExtractions(db, {
    keyword: q.keyword,
    status: q.status,
    limit: q.pageSize,
    offset: (q.pageNum - 1) * q.pageSize,
  });
  return { records: rows.map(summaryOf), total };
}

async function detailOf(db: DbOrTx, c: ExpertsCaller, row: repo.ExtractionRow, now: Date): Promise<ExtractionDetail> {
  const members = await repo.membersOf(db, row.id);
  const names = namesVisibleTo(c, row, now);
  const cond = conditionsOf(row);
  const eligible = (row.eligible as number[] | null) ?? null;
  const lines = cond.lines.map((l, i) => {
    const ms = members.filter((m) => m.line === i);
    const confirmed = ms.filter((m) => m.answer === 'confirmed').length;
    const pending = ms.filter((m) => m.answer === 'pending').length;
    const declined = ms.filter((m) => m.answer === 'declined').length;
    return {
      specialty: l.specialty,
      category: specialtyCategory(l.specialty) ?? '',
      count: l.count,
      confirmed,
      pending,
      declined,
      eligible: eligible?.[i] ?? null,
      exhausted: eligible !== null && ms.length >= (eligible[i] ?? 0) && confirmed + pending < l.count,
    };
  });
  const canFinalize =
    row.status === 'drawn' && lines.every((l) => l.confirmed === l.count && l.pending === 0) && isAdmin(c);
  let avoidedExperts: { id: string; name: string | null }[] = cond.avoidExpertIds.map((id) => ({ id, name: null }));
  if (names && cond.avoidExpertIds.length && (await poolReady(db))) {
    avoidedExperts = await Promise.all(
      cond.avoidExpertIds.map(async (id) => ({ id, name: (await zjk.get(db, id))?.values.xm ?? null })),
    );
  }
  const log = isAdmin(c) ? await repo.logOf(db, row.id) : [];
  return {
    ...summaryOf(row),
    location: row.location,
    conditions: cond,
    committedAt: at(row.committedAt),
    poolHash: row.poolHash,
    poolSize: row.poolSize,
    snapshotAt: row.poolSnapshot ? dateTimeIn((row.poolSnapshot as PoolSnapshot).takenAt) : null,
    drawnAt: at(row.drawnAt),
    confirmedAt: at(row.confirmedAt),
    publishedAt: at(row.publishedAt),
    seed: seedVisibleTo(c, row, now) ? row.seed : null,
    namesVisible: names,
    canManage: isAdmin(c),
    lines,
    members: members.map((m) => ({
      id: m.id,
      line: m.line,
      seq: m.seq,
      specialty: m.specialty,
      expertId: names ? m.expertId : null,
      name: names ? m.name : null,
      gender: names ? m.gender : null,
      phone: names ? m.phone : null,
      employer: names ? m.employer : null,
      title: names ? m.title : null,
      region: names ? m.region : null,
      answer: m.answer as 'pending' | 'confirmed' | 'declined',
      answerLabel: memberAnswerLabel(m.answer),
      note: names ? m.note : '',
      answeredAt: at(m.answeredAt),
      answeredBy: m.answeredBy,
      drawnAt: dateTimeIn(m.drawnAt),
      replacement: m.replacement,
    })),
    canFinalize,
    canPublish: isAdmin(c) && row.status === 'confirmed' && appNow(now) >= row.evaluationStartAt,
    avoidedExperts,
    log: log.map((l) => ({ time: dateTimeIn(l.time), who: l.who, logbook: l.logbook })),
  };
}

async function found(q: DbOrTx, id: string, lock = false) {
  const row = await repo.extractionById(q, id, lock);
  if (!row) throw notFound(M.notFound);
  return row;
}

export async function detail(db: Db, c: ExpertsCaller, id: string, now: Date) {
  await requireReader(db, c);
  return detailOf(db, c, await found(db, id), now);
}

// ---------------------------------------------------------------------------------------------------------------
// changes (the extraction administrator)

function conditionsSummary(cond: ExtractionConditions) {
  const t = committeeTotals(cond);
  const parts = [
    `评标委员会 ${t.total} 人（招标人代表 ${cond.tendereeReps} 人，专家 ${t.experts} 人：${cond.lines.map((l) => `${l.specialty}×${l.count}`).join('、')}）`,
    `地区：${cond.regions.length ? cond.regions.join('、') : '不限'}`,
  ];
  if (cond.avoidEmployers.length) parts.push(`回避单位：${cond.avoidEmployers.join('、')}`);
  if (cond.avoidExpertIds.length) parts.push(`回避专家 ${cond.avoidExpertIds.length} 人`);
  parts.push(`近 ${cond.recentDays} 天内被抽中的专家回避`);
  return parts.join('；');
}

export async function create(db: Db, c: ExpertsCaller, body: ExtractionCreate, now: Date) {
  requireManager(c);
  // a committee for a five-in-one section avoids its tenderee, its agency and its registered bidders, whatever was sent
  const section = body.sectionId ? await sectionAvoidance(db, body.sectionId) : null;
  const cond: ExtractionConditions = {
    ...body.conditions,
    avoidEmployers: [
      ...new Set(
        [...body.conditions.avoidEmployers, ...(section ? [...section.side, ...section.bidders] : [])]
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ],
    avoidExpertIds: [...new Set(body.conditions.avoidExpertIds)],
    regions: [...new Set(body.conditions.regions)],
  };
  const problems = committeeProblems(cond);
  if (problems.length) throw badRequest(problems.join('；'));
  if (body.evaluationStartAt < body.openingAt) throw badRequest(M.evaluationBeforeOpening);
  return db.transaction(async (tx) => {
    if (cond.avoidExpertIds.length && !(await poolReady(tx))) throw badRequest(M.expertNotInPool);
    for (const id of cond.avoidExpertIds) {
      if (!(await zjk.get(tx, id))) throw badRequest(M.expertNotInPool);
    }
    const row = await repo.insertExtraction(tx, {
      code: await repo.nextCode(tx, appToday(now)),
      projectName: body.projectName,
      sectionName: body.sectionName,
      projectRef: body.projectRef || section?.projectRef || '',
      location: body.location,
      openingAt: body.openingAt,
      evaluationStartAt: body.evaluationStartAt,
      conditions: cond,
      createdBy: c.id,
      createdByName: c.actor.userName,
    });
    await log(
      tx,
      c.actor,
      row.id,
      `新建抽取 ${row.code}：${row.projectName} ${row.sectionName}；${conditionsSummary(cond)}${
        section ? `；自动回避招标人、招标代理及 ${section.bidders.length} 家报名单位` : ''
      }`,
    );
    return detailOf(tx, c, row, now);
  });
}

export async function remove(db: Db, c: ExpertsCaller, id: string) {
  requireManager(c);
  await db.transaction(async (tx) => {
    const row = await found(tx, id, true);
    if (row.seed !== null) throw conflict(M.committedAlready);
    if (!(await repo.deleteDraft(tx, id))) throw conflict(M.notDraft);
    await log(tx, c.actor, id, `删除抽取草稿 ${row.code}`);
  });
}

const hex = (b: Buffer) => b.toString('hex');
const sha256HexNode = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/**
 * Commits the seed: 32 random bytes from the operating system, the pool snapshot (sorted by id, with when each expert
 * was last drawn), SHA-256 of the seed and of the snapshot's canonical text — stored and logged before any draw. A
 * line without enough eligible experts is refused first (no seed is made).
 */
export async function commit(db: Db, c: ExpertsCaller, id: string, now: Date) {
  requireManager(c);
  return db.transaction(async (tx) => {
    const row = await found(tx, id, true);
    if (row.status !== 'draft') throw conflict(M.drawnAlready);
    if (row.seed !== null) throw conflict(M.committedAlready);
    const cond = conditionsOf(row);
    const { snapshot } = await poolSnapshotOf(tx, now);
    const check = eligibility(snapshot.takenAt, cond);
    for (const line of cond.lines) {
      const have = snapshot.experts.filter((e) => check(e, line.specialty) === null).length;
      if (have === 0) throw badRequest(M.poolEmpty(line.specialty));
      if (have < line.count) throw badRequest(M.shortfall(line.specialty, line.count, have));
    }
    const seed = randomBytes(32);
    const seedHash = sha256HexNode(seed);
    const poolHash = sha256HexNode(snapshotText(snapshot));
    const updated = await repo.updateExtraction(tx, id, 'draft', {
      seed: hex(seed),
      seedHash,
      committedAt: now,
      poolHash,
      poolSnapshot: snapshot,
      poolSize: snapshot.experts.length,
    });
    if (!updated) throw conflict(M.drawnAlready);
    await log(
      tx,
      c.actor,
      id,
      `提交种子承诺：SHA-256(种子) = ${seedHash}；专家库快照 ${snapshot.experts.length} 人，快照哈希 ${poolHash}`,
    );
    return detailOf(tx, c, updated, now);
  });
}

async function membersFor(
  tx: Tx,
  ids: { line: number; seq: number; expertId: string }[],
  cond: DrawConditions,
  now: Date,
  replacement: boolean,
) {
  const out: repo.NewMember[] = [];
  for (const m of ids) {
    const e = await zjk.get(tx, m.expertId);
    out.push({
      extractionId: '',
      line: m.line,
      seq: m.seq,
      expertId: m.expertId,
      specialty: cond.lines[m.line]!.specialty,
      name: e?.values.xm ?? '（已从专家库删除）',
      gender: e?.values.xb ?? '',
      phone: e?.values.lxdh ?? '',
      employer: e?.values.dw ?? '',
      title: e?.values.zc ?? '',
      region: e?.values.dq ?? '',
      replacement,
      drawnAt: now,
    });
  }
  return out;
}

export async function draw(db: Db, c: ExpertsCaller, id: string, now: Date) {
  requireManager(c);
  return db.transaction(async (tx) => {
    const row = await found(tx, id, true);
    if (row.status !== 'draft') throw conflict(M.drawnAlready);
    if (row.seed === null) throw conflict(M.notCommitted);
    const cond = conditionsOf(row);
    const lines = runDraw(row.seed, row.poolSnapshot as PoolSnapshot, cond);
    lines.forEach((l, i) => {
      if (l.ids.length < cond.lines[i]!.count)
        throw badRequest(M.shortfall(l.specialty, cond.lines[i]!.count, l.eligible));
    });
    const picked = lines.flatMap((l, line) => l.ids.map((expertId, seq) => ({ line, seq, expertId })));
    const rows = await membersFor(tx, picked, cond, now, false);
    await repo.insertMembers(
      tx,
      rows.map((r) => ({ ...r, extractionId: id })),
    );
    const updated = await repo.updateExtraction(tx, id, 'draft', {
      status: 'drawn',
      drawnAt: now,
      eligible: lines.map((l) => l.eligible),
    });
    if (!updated) throw conflict(M.drawnAlready);
    await log(
      tx,
      c.actor,
      id,
      `抽取专家 ${picked.length} 人（${lines.map((l) => `${l.specialty} ${l.ids.length}/${l.eligible}`).join('、')}，按已承诺种子 ${row.seedHash!.slice(0, 16)}… 抽取）`,
    );
    return detailOf(tx, c, updated, now);
  });
}

export async function answer(
  db: Db,
  c: ExpertsCaller,
  body: { id: string; memberId: string; answer: 'confirmed' | 'declined'; note: string },
  now: Date,
) {
  requireManager(c);
  if (body.answer === 'declined' && !body.note.trim()) throw badRequest(M.declineNote);
  return db.transaction(async (tx) => {
    const row = await found(tx, body.id, true);
    if (row.status === 'draft') throw conflict(M.notDrawn);
    if (row.status !== 'drawn') throw conflict(M.answeredAlready);
    const members = await repo.membersOf(tx, row.id);
    const member = members.find((m) => m.id === body.memberId);
    if (!member) throw notFound(M.memberNotFound);
    const done = await repo.answerMember(tx, member.id, {
      answer: body.answer,
      note: body.note.trim(),
      answeredAt: now,
      answeredBy: c.actor.userName,
    });
    if (!done) throw conflict(M.answeredAlready);
    const label = `${member.specialty}第 ${member.seq + 1} 位`;
    if (body.answer === 'confirmed') {
      await log(tx, c.actor, row.id, `登记答复：${label}专家确认参加${body.note ? `（${body.note.trim()}）` : ''}`);
      return { detail: await detailOf(tx, c, row, now), replacementId: null, exhausted: false };
    }
    // a decline: the next expert of the same line, from the same seed chain
    const cond = conditionsOf(row);
    const take = cond.lines.map((_, i) => members.filter((m) => m.line === i).length);
    take[member.line] = take[member.line]! + 1;
    const lines = runDraw(row.seed!, row.poolSnapshot as PoolSnapshot, cond, take);
    const nextId = lines[member.line]!.ids[take[member.line]! - 1];
    if (!nextId) {
      await log(
        tx,
        c.actor,
        row.id,
        `登记答复：${label}专家拒绝参加（${body.note.trim()}）；${M.exhausted(member.specialty)}`,
      );
      return { detail: await detailOf(tx, c, row, now), replacementId: null, exhausted: true };
    }
    const [rep] = await membersFor(
      tx,
      [{ line: member.line, seq: take[member.line]! - 1, expertId: nextId }],
      cond,
      now,
      true,
    );
    await repo.insertMembers(tx, [{ ...rep!, extractionId: row.id }]);
    await log(
      tx,
      c.actor,
      row.id,
      `登记答复：${label}专家拒绝参加（${body.note.trim()}）；按同一种子链补抽${member.specialty}第 ${take[member.line]} 位`,
    );
    const after = await repo.membersOf(tx, row.id);
    return {
      detail: await detailOf(tx, c, row, now),
      replacementId: after.find((m) => m.line === member.line && m.seq === take[member.line]! - 1)?.id ?? null,
      exhausted: false,
    };
  });
}

export async function finalize(db: Db, c: ExpertsCaller, id: string, now: Date) {
  requireManager(c);
  return db.transaction(async (tx) => {
    const row = await found(tx, id, true);
    if (row.status !== 'drawn') throw conflict(row.status === 'draft' ? M.notDrawn : M.answeredAlready);
    const members = await repo.membersOf(tx, id);
    const cond = conditionsOf(row);
    const complete = cond.lines.every(
      (l, i) =>
        members.filter((m) => m.line === i && m.answer === 'confirmed').length === l.count &&
        !members.some((m) => m.line === i && m.answer === 'pending'),
    );
    if (!complete) throw conflict(M.notComplete);
    const updated = await repo.updateExtraction(tx, id, 'drawn', { status: 'confirmed', confirmedAt: now });
    if (!updated) throw conflict(M.answeredAlready);
    await log(
      tx,
      c.actor,
      id,
      `确认专家名单（${members.filter((m) => m.answer === 'confirmed').length} 人确认参加）；种子已揭示，评标开始（${row.evaluationStartAt}）后向所有人公开`,
    );
    return detailOf(tx, c, updated, now);
  });
}

export async function publish(db: Db, c: ExpertsCaller, id: string, now: Date) {
  requireManager(c);
  return db.transaction(async (tx) => {
    const row = await found(tx, id, true);
    if (row.status !== 'confirmed') throw conflict(M.notConfirmed);
    if (appNow(now) < row.evaluationStartAt) throw conflict(M.beforeEvaluation(row.evaluationStartAt));
    const updated = await repo.updateExtraction(tx, id, 'confirmed', { status: 'published', publishedAt: now });
    if (!updated) throw conflict(M.notConfirmed);
    await log(tx, c.actor, id, `公开专家名单；抽取种子 ${row.seed}`);
    return detailOf(tx, c, updated, now);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// verification (anyone with the record's id)

export async function verify(db: Db, c: ExpertsCaller | null, id: string, now: Date): Promise<ExtractionVerify> {
  const row = await found(db, id);
  const base = {
    id: row.id,
    code: row.code,
    projectName: row.projectName,
    sectionName: row.sectionName,
    status: row.status as ExtractionStatus,
    statusLabel: extractionStatusLabel(row.status),
    evaluationStartAt: row.evaluationStartAt,
    seedHash: row.seedHash,
    committedAt: at(row.committedAt),
    poolHash: row.poolHash,
  };
  if (!seedVisibleTo(c, row, now)) {
    return {
      ...base,
      seed: null,
      hiddenReason: row.seedHash ? M.seedHidden(row.evaluationStartAt) : M.notCommitted,
      snapshot: null,
      conditions: null,
      members: [],
      outcome: null,
    };
  }
  const members = await repo.membersOf(db, row.id);
  const names = namesVisibleTo(c, row, now);
  const snapshot = row.poolSnapshot as PoolSnapshot;
  const cond = conditionsOf(row);
  const outcome = verifyDraw({
    seedHex: row.seed!,
    seedHash: row.seedHash!,
    snapshot,
    poolHash: row.poolHash!,
    conditions: cond,
    members: members.map((m) => ({ line: m.line, seq: m.seq, expertId: m.expertId })),
  });
  return {
    ...base,
    seed: row.seed,
    hiddenReason: null,
    snapshot,
    conditions: cond,
    members: members.map((m) => ({
      line: m.line,
      seq: m.seq,
      expertId: m.expertId,
      name: names ? m.name : null,
      specialty: m.specialty,
      answer: memberAnswerLabel(m.answer),
    })),
    outcome: {
      seedMatches: outcome.seedMatches,
      poolMatches: outcome.poolMatches,
      listMatches: outcome.listMatches,
      problems: outcome.problems,
    },
  };
}
