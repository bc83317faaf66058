import {
  CREDIT_CONDUCT_LABELS,
  CREDIT_MESSAGES,
  CREDIT_NODE,
  CREDIT_RECORD_SOURCE_LABELS,
  CREDIT_RECORD_STATUS_LABELS,
  CREDIT_SUBJECT_LABELS,
  CREDIT_VALIDITY_MAX_MONTHS,
  type CreditConduct,
  type CreditRecord,
  type CreditRecordSource,
  type CreditRecordStatus,
  type CreditSubjectKind,
  creditMessage,
  creditRecordProblems,
  STANDARD_BUTTONS,
  scoreText,
  validityEnd,
} from '@ks/contracts';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { creditConductRecords, creditRecords, creditStandards, enterprises, practitioners } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { sendUserMessages } from '../messages/send';
import { type CreditCaller, isReviewer, requireReadable, requireReader, requireSide, resolveSubject } from './access';
import * as repo from './credit.repo';
import { regrade, todayOf } from './grade.service';

/**
 * Credit records (信用记录): an enterprise declares a record of itself or of one of its persons (a standard item, a
 * score within the item's highest, the days it counts, evidence files), submits it, and a reviewer passes or rejects
 * it; a passed record counts in the grade while it is valid, until a reviewer revokes it. Every step is one
 * transaction with its operation-log row; status changes are conditional updates (`… where status = 'submitted'`),
 * so of two reviewers deciding at once one wins and the other gets 409; passing and revoking regrade the subject in
 * the same transaction. Reviewers get to-dos on the credit node when a record is submitted, closed when it is
 * decided or withdrawn.
 */

export const RECORD_GL = '信用记录';

const button = (code: string, name?: string) => {
  const b = STANDARD_BUTTONS.find((x) => x.code === code)!;
  return { code, name: name ?? b.name, color: b.color, show: true };
};

const stamp = (d: Date | null) => (d ? d.toISOString() : null);

/** What the caller may do with the record now (the same rules the calls enforce). */
function operationsOf(c: CreditCaller, reviewer: boolean, r: repo.RecordRow): CreditRecord['operations'] {
  const ops = [button('detail')];
  const side = c.loginRoleType === 'U' && c.enterpriseId === r.enterpriseId;
  const status = r.status as CreditRecordStatus;
  if (side && r.source === 'declared') {
    if (status === 'draft' || status === 'rejected') ops.push(button('edit'), button('submit'), button('delete'));
    if (status === 'submitted') ops.push(button('revoke'));
  }
  if (reviewer && !side) {
    if (status === 'submitted') ops.push(button('audit'));
    if (status === 'passed') ops.push(button('revoke', '撤销'));
  }
  return ops;
}

export function recordView(
  j: repo.RecordJoined,
  fileRows: repo.FileRow[],
  today: string,
  ops: CreditRecord['operations'],
): CreditRecord {
  const r = j.r;
  const score = Number(r.score);
  const highest = Number(j.highest);
  return {
    id: r.id,
    subjectKind: r.subjectKind as CreditSubjectKind,
    subjectId: r.subjectId,
    subjectName: r.subjectKind === 'person' ? (j.personName ?? '') : j.enterpriseName,
    enterpriseId: r.enterpriseId,
    enterpriseName: j.enterpriseName,
    standardId: r.standardId,
    standardName: j.standardName,
    xxGrouping: j.xxGrouping,
    conduct: j.conduct as CreditConduct,
    highest,
    score,
    points: Math.min(score, highest),
    counting: r.status === 'passed' && r.startTime <= today && r.endTime >= today,
    title: r.title,
    issuer: r.issuer,
    remark: r.remark,
    startTime: r.startTime,
    endTime: r.endTime,
    status: r.status as CreditRecordStatus,
    statusText: CREDIT_RECORD_STATUS_LABELS[r.status as CreditRecordStatus] ?? r.status,
    source: r.source as CreditRecordSource,
    sourceText: CREDIT_RECORD_SOURCE_LABELS[r.source as CreditRecordSource] ?? r.source,
    files: fileRows.map((f) => ({ fileId: f.id, fileName: f.fileName, fileSize: f.fileSize })),
    createdBy: r.createdByName,
    createdAt: r.createdAt.toISOString(),
    submittedBy: r.submittedByName,
    submittedAt: stamp(r.submittedAt),
    auditedBy: r.auditedByName,
    auditedAt: stamp(r.auditedAt),
    auditSuggestion: r.auditSuggestion,
    revokedBy: r.revokedByName,
    revokedAt: stamp(r.revokedAt),
    revokeReason: r.revokeReason,
    version: r.version,
    operations: ops,
  };
}

/** Views of joined records for this caller, files read in one query. */
export async function viewsOf(
  db: DbOrTx,
  c: CreditCaller,
  rows: repo.RecordJoined[],
  now: Date,
  reviewer: boolean,
): Promise<CreditRecord[]> {
  const filesBy = await repo.filesOfRecords(
    db,
    rows.map((r) => r.r.id),
  );
  const today = todayOf(now);
  return rows.map((j) => recordView(j, filesBy.get(j.r.id) ?? [], today, operationsOf(c, reviewer, j.r)));
}

async function viewOne(db: DbOrTx, c: CreditCaller, id: string, now: Date, reviewer: boolean) {
  const j = await repo.recordById(db, id);
  if (!j) throw notFound('记录不存在');
  return (await viewsOf(db, c, [j], now, reviewer))[0]!;
}

const businessNameOf = (subjectName: string, standardName: string) => `信用记录：${subjectName}·${standardName}`;

// ---- reading -------------------------------------------------------------------------------------------------------

export async function listRecords(
  db: Db,
  c: CreditCaller,
  q: {
    subjectKind?: CreditSubjectKind;
    subjectId?: string;
    status?: CreditRecordStatus;
    conduct?: CreditConduct;
    standardId?: string;
    xxGrouping?: string;
    pageNum: number;
    pageSize: number;
  },
  now: Date,
) {
  const subject = await resolveSubject(db, c, q);
  const conds: SQL[] = [
    eq(creditConductRecords.subjectKind, subject.kind),
    eq(creditConductRecords.subjectId, subject.id),
  ];
  if (q.status) conds.push(eq(creditConductRecords.status, q.status));
  if (q.conduct) conds.push(eq(creditStandards.conduct, q.conduct));
  if (q.standardId) conds.push(eq(creditConductRecords.standardId, q.standardId));
  if (q.xxGrouping) conds.push(eq(creditStandards.xxGrouping, q.xxGrouping));
  const page = await repo.pageOfRecords(db, and(...conds), q.pageNum, q.pageSize);
  return { records: await viewsOf(db, c, page.records, now, await isReviewer(db, c)), total: page.total };
}

/** Every subject's records (reviewers, developers): the review queue and its history. */
export async function managementList(
  db: Db,
  c: CreditCaller,
  q: {
    subjectKind?: CreditSubjectKind;
    status?: CreditRecordStatus;
    conduct?: CreditConduct;
    standardId?: string;
    keyword?: string;
    pageNum: number;
    pageSize: number;
  },
  now: Date,
) {
  await requireReader(db, c);
  const conds: SQL[] = [];
  if (q.subjectKind) conds.push(eq(creditConductRecords.subjectKind, q.subjectKind));
  if (q.status) conds.push(eq(creditConductRecords.status, q.status));
  if (q.conduct) conds.push(eq(creditStandards.conduct, q.conduct));
  if (q.standardId) conds.push(eq(creditConductRecords.standardId, q.standardId));
  if (q.keyword) {
    const p = repo.likeContains(q.keyword);
    conds.push(
      sql`(${enterprises.name} ilike ${p} or ${enterprises.creditCode} ilike ${p} or ${practitioners.name} ilike ${p} or ${creditConductRecords.title} ilike ${p})`,
    );
  }
  const page = await repo.pageOfRecords(db, conds.length ? and(...conds) : undefined, q.pageNum, q.pageSize);
  return { records: await viewsOf(db, c, page.records, now, await isReviewer(db, c)), total: page.total };
}

// ---- declaring -----------------------------------------------------------------------------------------------------

interface RecordValues {
  standardId: string;
  score: number;
  startTime: string;
  endTime?: string | null;
  title: string;
  issuer?: string | null;
  remark?: string | null;
  fileIds: string[];
}

/** The standard of a record, usable for this kind of subject; the values checked against it (§5: 400 with fields). */
async function checkedValues(
  db: DbOrTx,
  kind: CreditSubjectKind,
  v: Pick<RecordValues, 'standardId' | 'score' | 'startTime' | 'endTime'>,
  fileCount: number,
) {
  const standard = await repo.standardById(db, v.standardId);
  if (!standard) throw validationFailed({ standardId: [CREDIT_MESSAGES.standardRequired] });
  if (!standard.enabled) throw validationFailed({ standardId: [CREDIT_MESSAGES.standardDisabled] });
  if (standard.appliesTo !== 'both' && standard.appliesTo !== kind) {
    const msg = creditMessage(CREDIT_MESSAGES.standardNotApplicable, { kind: CREDIT_SUBJECT_LABELS[kind] });
    throw validationFailed({ standardId: [msg] });
  }
  const facts = { highest: Number(standard.highest), validityMonths: standard.validityMonths };
  const endTime = v.endTime || validityEnd(v.startTime, standard.validityMonths);
  const problems = creditRecordProblems({ score: v.score, startTime: v.startTime, endTime, fileCount }, facts, {
    needsFiles: true,
  });
  if (Object.keys(problems).length) {
    throw validationFailed(Object.fromEntries(Object.entries(problems).map(([k, m]) => [k, [m]])));
  }
  return { standard, endTime };
}

async function bindAll(tx: DbOrTx, c: CreditCaller, side: string, recordId: string, fileIds: string[]) {
  const n = await repo.bindFiles(tx, recordId, fileIds, { userId: c.id, enterpriseId: side });
  if (n !== new Set(fileIds).size) throw badRequest('附件不存在或已用于其他记录，请重新上传');
}

export async function addRecord(
  db: Db,
  c: CreditCaller,
  input: RecordValues & { subjectKind?: CreditSubjectKind; subjectId?: string },
  now: Date,
) {
  const side = requireSide(c);
  const subject = await resolveSubject(db, c, input);
  if (subject.enterpriseId !== side) throw notFound('信用主体不存在');
  const { standard, endTime } = await checkedValues(db, subject.kind, input, new Set(input.fileIds).size);
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(creditConductRecords)
      .values({
        subjectKind: subject.kind,
        subjectId: subject.id,
        enterpriseId: subject.enterpriseId,
        personId: subject.kind === 'person' ? subject.id : null,
        standardId: standard.id,
        score: String(input.score),
        startTime: input.startTime,
        endTime,
        title: input.title,
        issuer: input.issuer ?? null,
        remark: input.remark ?? null,
        source: 'declared',
        status: 'draft',
        createdBy: c.id,
        createdByName: c.actor.userName,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: creditConductRecords.id });
    await bindAll(tx, c, side, row!.id, input.fileIds);
    await writeOpLog(tx, c.actor, {
      glName: RECORD_GL,
      gnCoding: CREDIT_NODE,
      recordId: row!.id,
      logbook: `新增${CREDIT_CONDUCT_LABELS[standard.conduct as CreditConduct]}记录：${subject.name}·${standard.name}，${scoreText(input.score)} 分，${input.startTime} 至 ${endTime}，附件 ${input.fileIds.length} 个`,
    });
    return row!.id;
  });
  return viewOne(db, c, id, now, await isReviewer(db, c));
}

/**
 * The record locked for a change of its side: 404 when the caller may not read it, 403 when it is not of their side
 * or came from a published decision, 409 when its status does not allow `what` or its version moved.
 */
async function lockedForSide(
  tx: DbOrTx,
  c: CreditCaller,
  id: string,
  version: number | undefined,
  allowed: CreditRecordStatus[],
  refusal: string,
) {
  const r = await repo.lockRecord(tx, id);
  await requireReadable(tx, c, r ?? undefined);
  const side = requireSide(c);
  if (r!.enterpriseId !== side) throw forbidden();
  if (r!.source !== 'declared') throw forbidden(CREDIT_MESSAGES.retrievedLocked);
  if (!allowed.includes(r!.status as CreditRecordStatus)) throw conflict(refusal);
  if (version !== undefined && r!.version !== version) throw conflict(CREDIT_MESSAGES.stale);
  return { r: r!, side };
}

export async function updateRecord(
  db: Db,
  c: CreditCaller,
  input: RecordValues & { id: string; version: number },
  now: Date,
) {
  requireSide(c);
  await db.transaction(async (tx) => {
    const { r, side } = await lockedForSide(
      tx,
      c,
      input.id,
      input.version,
      ['draft', 'rejected'],
      CREDIT_MESSAGES.notEditable,
    );
    const { standard, endTime } = await checkedValues(
      tx,
      r.subjectKind as CreditSubjectKind,
      input,
      new Set(input.fileIds).size,
    );
    await tx
      .update(creditConductRecords)
      .set({
        standardId: standard.id,
        score: String(input.score),
        startTime: input.startTime,
        endTime,
        title: input.title,
        issuer: input.issuer ?? null,
        remark: input.remark ?? null,
        version: r.version + 1,
        updatedAt: now,
      })
      .where(eq(creditConductRecords.id, r.id));
    const keep = new Set(input.fileIds);
    const current = (await repo.filesOfRecords(tx, [r.id])).get(r.id) ?? [];
    const removed = current.filter((f) => !keep.has(f.id)).map((f) => f.id);
    if (removed.length) await repo.unbindFiles(tx, r.id, removed);
    const added = input.fileIds.filter((fid) => !current.some((f) => f.id === fid));
    await bindAll(tx, c, side, r.id, added);
    const changes = [
      r.standardId !== standard.id ? `标准项 → ${standard.name}` : '',
      Number(r.score) !== input.score ? `分值 ${scoreText(Number(r.score))} → ${scoreText(input.score)}` : '',
      r.startTime !== input.startTime || r.endTime !== endTime ? `有效期 → ${input.startTime} 至 ${endTime}` : '',
      added.length ? `新增附件 ${added.length} 个` : '',
      removed.length ? `移除附件 ${removed.length} 个` : '',
    ].filter(Boolean);
    await writeOpLog(tx, c.actor, {
      glName: RECORD_GL,
      gnCoding: CREDIT_NODE,
      recordId: r.id,
      logbook: `修改记录${changes.length ? `：${changes.join('；')}` : ''}`,
    });
  });
  return viewOne(db, c, input.id, now, await isReviewer(db, c));
}

export async function deleteRecord(db: Db, c: CreditCaller, input: { id: string; version?: number }) {
  requireSide(c);
  await db.transaction(async (tx) => {
    const { r } = await lockedForSide(
      tx,
      c,
      input.id,
      input.version,
      ['draft', 'rejected'],
      CREDIT_MESSAGES.notDeletable,
    );
    const unbound = await repo.unbindFiles(tx, r.id);
    await tx.delete(creditConductRecords).where(eq(creditConductRecords.id, r.id));
    await writeOpLog(tx, c.actor, {
      glName: RECORD_GL,
      gnCoding: CREDIT_NODE,
      recordId: r.id,
      logbook: `删除记录：${r.title}${unbound.length ? `（附件 ${unbound.length} 个随之移除）` : ''}`,
    });
  });
}

export async function submitRecord(db: Db, c: CreditCaller, input: { id: string; version?: number }, now: Date) {
  requireSide(c);
  await db.transaction(async (tx) => {
    const { r } = await lockedForSide(
      tx,
      c,
      input.id,
      input.version,
      ['draft', 'rejected'],
      CREDIT_MESSAGES.notSubmittable,
    );
    const fileCount = ((await repo.filesOfRecords(tx, [r.id])).get(r.id) ?? []).length;
    // the standard may have changed since the record was saved: the rules are checked again as they stand now
    const { standard } = await checkedValues(
      tx,
      r.subjectKind as CreditSubjectKind,
      { standardId: r.standardId, score: Number(r.score), startTime: r.startTime, endTime: r.endTime },
      fileCount,
    );
    await tx
      .update(creditConductRecords)
      .set({
        status: 'submitted',
        submittedBy: c.id,
        submittedByName: c.actor.userName,
        submittedAt: now,
        version: r.version + 1,
        updatedAt: now,
      })
      .where(eq(creditConductRecords.id, r.id));
    const subject = await repo.subjectOf(tx, r.subjectKind as CreditSubjectKind, r.subjectId);
    await repo.openTodos(tx, r.id, businessNameOf(subject?.name ?? '', standard.name), c.actor.userName, now);
    await writeOpLog(tx, c.actor, {
      glName: RECORD_GL,
      gnCoding: CREDIT_NODE,
      recordId: r.id,
      logbook: `提交审核${r.status === 'rejected' ? '（驳回后重新提交）' : ''}`,
    });
  });
  return viewOne(db, c, input.id, now, await isReviewer(db, c));
}

// ---- deciding ------------------------------------------------------------------------------------------------------

/**
 * A status change as one conditional update (… where status = `from` [and version = `version`]): the changed row, or
 * undefined when the record is not — or no longer — in `from`. Of two callers changing one record at once, one wins.
 */
async function transition(
  tx: DbOrTx,
  id: string,
  from: CreditRecordStatus,
  version: number | undefined,
  set: Partial<typeof creditConductRecords.$inferInsert> & { updatedAt: Date },
) {
  const [r] = await tx
    .update(creditConductRecords)
    .set({ ...set, version: sql`${creditConductRecords.version} + 1` })
    .where(
      and(
        eq(creditConductRecords.id, id),
        eq(creditConductRecords.status, from),
        version !== undefined ? eq(creditConductRecords.version, version) : sql`true`,
      ),
    )
    .returning();
  return r;
}

/** The reviewer of a record: 404 for those who may not read it, 403 for readers who do not review or are its side. */
async function requireDecider(db: Db, c: CreditCaller, r: { enterpriseId: string } | undefined) {
  await requireReadable(db, c, r);
  if (!(await isReviewer(db, c))) throw forbidden();
  if (c.enterpriseId && c.enterpriseId === r!.enterpriseId) throw forbidden(CREDIT_MESSAGES.ownReview);
}

/**
 * Pass or reject a submitted record (a rejection needs a suggestion). One conditional update decides: a record not
 * (or no longer) submitted — decided by someone else a moment ago — is 409. Passing regrades the subject in the same
 * transaction; the reviewers' to-dos close.
 */
/**
 * The result for the enterprise: a message to whoever submitted the record (else who declared it), stored in the
 * decision's transaction for the message centre.
 */
async function tellSide(
  tx: DbOrTx,
  r: { id: string; submittedBy: string | null; createdBy: string | null; title: string },
  title: string,
  body: string,
  now: Date,
  rejected?: string,
) {
  const to = r.submittedBy ?? r.createdBy;
  if (!to) return;
  await sendUserMessages(tx, [
    {
      userId: to,
      kind: rejected ? 'rejected' : 'result',
      title,
      body,
      reason: rejected ?? null,
      gnCoding: CREDIT_NODE,
      recordId: r.id,
      link: `/credit/companyInfo?record=${r.id}`,
      createdAt: now,
    },
  ]);
}

export async function auditRecord(
  db: Db,
  c: CreditCaller,
  input: { id: string; version?: number; pass: boolean; suggestion?: string; score?: number },
  now: Date,
) {
  const before = await repo.recordById(db, input.id);
  await requireDecider(db, c, before?.r);
  const suggestion = input.suggestion?.trim() ?? '';
  if (!input.pass && !suggestion) {
    throw badRequest(CREDIT_MESSAGES.rejectNeedsSuggestion, {
      fieldErrors: { suggestion: [CREDIT_MESSAGES.rejectNeedsSuggestion] },
    });
  }
  if (input.score !== undefined) {
    const problems = creditRecordProblems(
      { score: input.score, startTime: before!.r.startTime, endTime: null },
      { highest: Number(before!.highest), validityMonths: CREDIT_VALIDITY_MAX_MONTHS },
      { review: true },
    );
    if (problems.score) throw validationFailed({ score: [problems.score] });
  }
  await db.transaction(async (tx) => {
    const r = await transition(tx, input.id, 'submitted', input.version, {
      status: input.pass ? 'passed' : 'rejected',
      auditedBy: c.id,
      auditedByName: c.actor.userName,
      auditedAt: now,
      auditSuggestion: suggestion || null,
      ...(input.score !== undefined ? { score: String(input.score) } : {}),
      updatedAt: now,
    });
    if (!r) {
      const [now_] = await tx
        .select({ status: creditConductRecords.status })
        .from(creditConductRecords)
        .where(eq(creditConductRecords.id, input.id));
      throw conflict(now_?.status === 'submitted' ? CREDIT_MESSAGES.stale : CREDIT_MESSAGES.notSubmitted);
    }
    let outcome = input.pass ? '审核通过' : `审核驳回：${suggestion}`;
    if (input.score !== undefined && Number(before!.r.score) !== input.score)
      outcome += `（分值 ${scoreText(Number(before!.r.score))} → ${scoreText(input.score)}）`;
    if (input.pass) {
      const g = await regrade(tx, { kind: r.subjectKind as CreditSubjectKind, id: r.subjectId }, now);
      outcome += `；重新评定：${scoreText(g.score)} 分（${g.level}）`;
    }
    await repo.closeTodos(tx, r.id, now);
    await writeOpLog(tx, c.actor, { glName: RECORD_GL, gnCoding: CREDIT_NODE, recordId: r.id, logbook: outcome });
    await tellSide(
      tx,
      r,
      `信用记录审核${input.pass ? '通过' : '驳回'}：${r.title}`,
      input.pass
        ? `您提交的信用记录「${r.title}」已审核通过，${outcome.replace(/^审核通过；?/, '')}`
        : `您提交的信用记录「${r.title}」被驳回，审核建议：${suggestion}。请修改后重新提交。`,
      now,
      input.pass ? undefined : suggestion,
    );
  });
  return viewOne(db, c, input.id, now, true);
}

/**
 * 撤回 / 撤销: the record's side withdraws a submitted declaration (→ draft; the to-dos close); a reviewer revokes a
 * passed record with a reason (→ revoked) and the subject is regraded in the same transaction.
 */
export async function revokeRecord(
  db: Db,
  c: CreditCaller,
  input: { id: string; version?: number; reason?: string },
  now: Date,
) {
  const before = await repo.recordById(db, input.id);
  await requireReadable(db, c, before?.r);
  const side = c.loginRoleType === 'U' && c.enterpriseId === before!.r.enterpriseId;
  if (side) {
    await db.transaction(async (tx) => {
      const { r } = await lockedForSide(tx, c, input.id, input.version, ['submitted'], CREDIT_MESSAGES.notRevocable);
      await transition(tx, r.id, 'submitted', r.version, { status: 'draft', updatedAt: now });
      await repo.closeTodos(tx, r.id, now);
      await writeOpLog(tx, c.actor, { glName: RECORD_GL, gnCoding: CREDIT_NODE, recordId: r.id, logbook: '撤回提交' });
    });
    return viewOne(db, c, input.id, now, await isReviewer(db, c));
  }
  await requireDecider(db, c, before?.r);
  const reason = input.reason?.trim() ?? '';
  if (before!.r.status === 'passed' && !reason) {
    throw badRequest(CREDIT_MESSAGES.revokeNeedsReason, {
      fieldErrors: { reason: [CREDIT_MESSAGES.revokeNeedsReason] },
    });
  }
  await db.transaction(async (tx) => {
    const r = await transition(tx, input.id, 'passed', input.version, {
      status: 'revoked',
      revokedBy: c.id,
      revokedByName: c.actor.userName,
      revokedAt: now,
      revokeReason: reason,
      updatedAt: now,
    });
    if (!r) throw conflict(CREDIT_MESSAGES.notRevocable);
    const g = await regrade(tx, { kind: r.subjectKind as CreditSubjectKind, id: r.subjectId }, now);
    await writeOpLog(tx, c.actor, {
      glName: RECORD_GL,
      gnCoding: CREDIT_NODE,
      recordId: r.id,
      logbook: `撤销记录：${reason}；重新评定：${scoreText(g.score)} 分（${g.level}）`,
    });
    await tellSide(
      tx,
      r,
      `信用记录已撤销：${r.title}`,
      `信用记录「${r.title}」已被撤销，原因：${reason}。重新评定：${scoreText(g.score)} 分（${g.level}）。`,
      now,
    );
  });
  return viewOne(db, c, input.id, now, true);
}

// ---- records the platform raises ------------------------------------------------------------------------------------

/**
 * A good-conduct record the platform raises for a winning bid (issue 17: 确定中标人): under the enabled standard item
 * of good conduct for enterprises whose keywords the title contains (the demo's 交易行为 item: "中标"), submitted for
 * the reviewers like a retrieved record, in the award's transaction. Once per award (`sourceRef`). Answers the
 * record's id and the item's name, or null when no standard item applies — nothing is made up.
 */
export async function raiseAwardRecord(
  tx: DbOrTx,
  actor: Actor,
  input: { enterpriseId: string; title: string; issuer: string; sourceRef: string },
  now: Date,
): Promise<{ id: string; standard: string; score: number } | null> {
  const subject = await repo.subjectOf(tx, 'enterprise', input.enterpriseId);
  if (!subject) return null;
  const standard = matchStandard(await repo.standardsOf(tx, { enabledOnly: true }), 'enterprise', true, input.title);
  if (!standard) return null;
  const start = todayOf(now);
  const score = Number(standard.score);
  const [row] = await tx
    .insert(creditConductRecords)
    .values({
      subjectKind: 'enterprise',
      subjectId: subject.id,
      enterpriseId: subject.enterpriseId,
      personId: null,
      standardId: standard.id,
      score: String(score),
      startTime: start,
      endTime: validityEnd(start, standard.validityMonths),
      title: input.title.slice(0, 200),
      issuer: input.issuer.slice(0, 100),
      remark: '平台根据中标结果生成，待审核',
      source: 'retrieved',
      sourceRef: input.sourceRef,
      status: 'submitted',
      createdBy: actor.userId,
      createdByName: actor.userName,
      createdAt: now,
      updatedAt: now,
      submittedBy: actor.userId,
      submittedByName: actor.userName,
      submittedAt: now,
    })
    .onConflictDoNothing({
      target: creditConductRecords.sourceRef,
      where: sql`${creditConductRecords.sourceRef} is not null`,
    })
    .returning({ id: creditConductRecords.id });
  if (!row) return null;
  await repo.openTodos(tx, row.id, businessNameOf(subject.name, standard.name), actor.userName, now);
  await writeOpLog(tx, actor, {
    glName: RECORD_GL,
    gnCoding: CREDIT_NODE,
    recordId: row.id,
    logbook: `中标生成：${input.title} → ${standard.name}，${scoreText(score)} 分，提交审核`,
  });
  return { id: row.id, standard: standard.name, score };
}

// ---- auto-retrieve -------------------------------------------------------------------------------------------------

/** A standard item whose conduct matches a published decision and one of whose keywords its title contains. */
function matchStandard(standards: repo.StandardRow[], kind: CreditSubjectKind, good: boolean, title: string) {
  return standards.find(
    (s) =>
      s.enabled &&
      (s.appliesTo === 'both' || s.appliesTo === kind) &&
      s.conduct === (good ? 'good' : 'bad') &&
      (s.keywords as string[]).some((k) => k && title.includes(k)),
  );
}

/**
 * Records from what the platform already holds about the subject: the decisions published on the portal (good and
 * bad conduct, with who decided and when). Each decision that names a standard item, is still valid and was not
 * retrieved before becomes a submitted record (the published decision is its evidence) for a reviewer to pass;
 * the answer says what was found and why anything was left out. Nothing is made up: no decision, no record.
 */
export async function autoRetrieve(
  db: Db,
  c: CreditCaller,
  ref: { subjectKind?: CreditSubjectKind; subjectId?: string },
  now: Date,
) {
  if (c.loginRoleType === 'D') throw forbidden();
  const subject = await resolveSubject(db, c, ref);
  const side = c.loginRoleType === 'U' && c.enterpriseId === subject.enterpriseId;
  if (!side && !(await isReviewer(db, c))) throw forbidden();
  const decisions = await db
    .select()
    .from(creditRecords)
    .where(
      and(
        eq(creditRecords.ownerKind, subject.kind === 'enterprise' ? 'enterprise' : 'practitioner'),
        eq(creditRecords.ownerId, subject.id),
        eq(creditRecords.isPublic, true),
      ),
    )
    .orderBy(sql`${creditRecords.startDate} desc`);
  const standards = await repo.standardsOf(db, { enabledOnly: true });
  const today = todayOf(now);
  const known = decisions.length
    ? await db
        .select({ ref: creditConductRecords.sourceRef, status: creditConductRecords.status })
        .from(creditConductRecords)
        .where(
          inArray(
            creditConductRecords.sourceRef,
            decisions.map((d) => d.id),
          ),
        )
    : [];
  const skipped: { title: string; reason: string }[] = [];
  const plan: { decision: (typeof decisions)[number]; standard: repo.StandardRow; score: number; end: string }[] = [];
  for (const d of decisions) {
    const done = known.find((k) => k.ref === d.id);
    if (done) {
      skipped.push({
        title: d.title,
        reason: `已获取过（${CREDIT_RECORD_STATUS_LABELS[done.status as CreditRecordStatus] ?? done.status}）`,
      });
      continue;
    }
    const good = d.kind === '良好';
    const standard = matchStandard(standards, subject.kind, good, d.title);
    if (!standard) {
      skipped.push({ title: d.title, reason: '没有对应的信用标准项' });
      continue;
    }
    const latest = validityEnd(d.startDate, standard.validityMonths);
    const end = d.endDate && d.endDate < latest ? d.endDate : latest;
    if (end < today) {
      skipped.push({ title: d.title, reason: `已于 ${end} 到期，不再计分` });
      continue;
    }
    const score = Math.min(Math.abs(Number(d.score)), Number(standard.highest));
    plan.push({ decision: d, standard, score, end });
  }
  const createdIds = await db.transaction(async (tx) => {
    const ids: string[] = [];
    for (const p of plan) {
      const [row] = await tx
        .insert(creditConductRecords)
        .values({
          subjectKind: subject.kind,
          subjectId: subject.id,
          enterpriseId: subject.enterpriseId,
          personId: subject.kind === 'person' ? subject.id : null,
          standardId: p.standard.id,
          score: String(p.score),
          startTime: p.decision.startDate,
          endTime: p.end,
          title: p.decision.title,
          issuer: p.decision.issuer,
          remark: '来自平台已公开的认定结果',
          source: 'retrieved',
          sourceRef: p.decision.id,
          status: 'submitted',
          createdBy: c.id,
          createdByName: c.actor.userName,
          createdAt: now,
          updatedAt: now,
          submittedBy: c.id,
          submittedByName: c.actor.userName,
          submittedAt: now,
        })
        // another retrieval of the same decision committed first: that one stands
        .onConflictDoNothing({
          target: creditConductRecords.sourceRef,
          where: sql`${creditConductRecords.sourceRef} is not null`,
        })
        .returning({ id: creditConductRecords.id });
      if (!row) {
        skipped.push({ title: p.decision.title, reason: '已获取过（待审核）' });
        continue;
      }
      ids.push(row.id);
      await repo.openTodos(tx, row.id, businessNameOf(subject.name, p.standard.name), c.actor.userName, now);
      await writeOpLog(tx, c.actor, {
        glName: RECORD_GL,
        gnCoding: CREDIT_NODE,
        recordId: row.id,
        logbook: `自动获取：${p.decision.issuer}认定“${p.decision.title}”（${p.decision.startDate}）→ ${p.standard.name}，${scoreText(p.score)} 分，提交审核`,
      });
    }
    return ids;
  });
  const reviewer = await isReviewer(db, c);
  const created = createdIds.length
    ? await viewsOf(
        db,
        c,
        await repo.recordQuery(db).where(inArray(creditConductRecords.id, createdIds)),
        now,
        reviewer,
      )
    : [];
  const message = decisions.length
    ? `找到 ${decisions.length} 条已公开的认定结果，新增 ${created.length} 条待审核记录${
        skipped.length ? `，${skipped.length} 条未新增` : ''
      }`
    : `未找到${subject.name}已公开的认定结果`;
  return { found: decisions.length, created, skipped, message };
}

// ---- for change rounds (called inside their transaction) -----------------------------------------------------------

/**
 * Write reviewed new values into a passed record and regrade its subject, inside the caller's transaction (a change
 * round that passed). The values are checked by the same rules (the shorter message of review); nothing else moves.
 */
export async function reviseRecord(
  tx: DbOrTx,
  actor: Actor,
  input: { id: string; standardId: string; score: number; startTime: string; endTime: string },
  now: Date,
) {
  const r = await repo.lockRecord(tx, input.id);
  if (!r) throw notFound('记录不存在');
  if (r.status !== 'passed') throw conflict('只有已通过的信用记录可以变更');
  const standard = await repo.standardById(tx, input.standardId);
  const facts = standard ? { highest: Number(standard.highest), validityMonths: standard.validityMonths } : null;
  const problems = creditRecordProblems(input, facts, { review: true });
  if (Object.keys(problems).length) {
    throw validationFailed(Object.fromEntries(Object.entries(problems).map(([k, m]) => [k, [m]])));
  }
  await tx
    .update(creditConductRecords)
    .set({
      standardId: input.standardId,
      score: String(input.score),
      startTime: input.startTime,
      endTime: input.endTime,
      version: r.version + 1,
      updatedAt: now,
    })
    .where(eq(creditConductRecords.id, r.id));
  const g = await regrade(tx, { kind: r.subjectKind as CreditSubjectKind, id: r.subjectId }, now);
  await writeOpLog(tx, actor, {
    glName: RECORD_GL,
    gnCoding: CREDIT_NODE,
    recordId: r.id,
    logbook: `变更通过，写入：分值 ${scoreText(input.score)}，${input.startTime} 至 ${input.endTime}；重新评定：${scoreText(g.score)} 分（${g.level}）`,
  });
  return g;
}
