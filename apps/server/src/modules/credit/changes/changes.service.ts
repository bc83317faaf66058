import {
  RFC_AREAS,
  RFC_ATTACHMENT_DATA_TYPE,
  RFC_MESSAGES,
  RFC_REVIEW_NODE,
  RFC_STATUS_LABELS,
  type RfcAuditRequest,
  type RfcChangeFields,
  type RfcChangeRecord,
  type RfcContact,
  type RfcKind,
  type RfcSaveRequest,
  type RfcStatus,
  rfcMayStartRound,
  rfcMessage,
  rfcOperations,
  rfcSaveProblem,
} from '@ks/contracts';
import { and, asc, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx, Tx } from '../../../db/client';
import { creditChanges, files, type RfcDataRow } from '../../../db/schema';
import { badRequest, conflict, forbidden, notFound, validationFailed } from '../../../platform/errors';
import { type Actor, writeOpLog } from '../../../platform/oplog';
import { canCall, canSeeNode, findNode } from '../../../platform/permissions';
import { nodeAccessor } from '../../engine/accessor';
import { onDecision } from '../../engine/hooks';
import { judge, recordFactsOf, reviewFactsOfRow } from '../../engine/policy';
import { type EngineCaller, policyContext } from '../../engine/record-access';
import { recordRow } from '../../engine/records.repo';
import { auditInTx, submitInTx } from '../../engine/review.service';
import { nodeForEngine } from '../../engine/schema.repo';
import { sendUserMessages } from '../../messages/send';
import type { CreditCaller } from '../access';
import { AREAS, type Area, type Business, contactsOf, ENTERPRISE_FIELD_CODES, typeOf } from './areas';

/**
 * Credit change rounds (issue 13, screen 1, /ks/rfc/*): the enterprise opens a round on one of its business records
 * (RFC_AREAS), saves it (the §5 rules), edits and saves again, submits it; the submission creates the round's
 * 信用变更申请 record (XYGL_BGSQ, same id) and submits it through the engine's review in the same transaction, so
 * reviewers get to-dos; a reviewer decides through the engine's levels; the final pass writes the new values (and
 * regrades) and a rejection changes nothing, both in the decision's transaction (onDecision below). Rounds are
 * locked row by row and carry a version: two reviewers deciding at once — one wins, the other gets 409.
 */

type Round = typeof creditChanges.$inferSelect;

/** The engine fields of 信用变更申请 this module writes (seed/engine.ts). */
export const bgsq = nodeAccessor(RFC_REVIEW_NODE, {
  qymc: z.string().nullable(),
  bgdx: z.string().nullable(),
  bglx: z.string().nullable(),
  bgyy: z.string().nullable(),
  lc: z.number().nullable(),
  tjsj: z.string().nullable(),
  bgzt: z.string().nullable(),
  ywbm: z.string().nullable(),
  ywid: z.string().nullable(),
});

const GL = '信用变更';
const stamp = (d: Date | null) => (d ? d.toISOString() : null);
const fileUrl = (id: string) => `/ks/common/common/file/download?fileId=${id}`;

function areaOf(gnCoding: string): Area {
  const a = AREAS[gnCoding];
  if (!a) throw badRequest(RFC_MESSAGES.areaUnknown);
  return a;
}

// ── who may do what ─────────────────────────────────────────────────────────

interface Access {
  /** the enterprise user of the record's enterprise */
  side: boolean;
  /** administrators, and users granted 审核 on 信用变更申请 */
  reviewer: boolean;
}

/**
 * A U user needs 信用变更申请 visible (403 otherwise); the record's enterprise, reviewers and developers read it; any
 * other caller gets 404 (the record is not revealed).
 */
async function accessTo(db: Db, c: CreditCaller, business: Business | null): Promise<Access> {
  const node = await findNode(db, RFC_REVIEW_NODE);
  if (!node) throw forbidden();
  if (c.loginRoleType === 'U' && !(await canSeeNode(db, c, node))) throw forbidden();
  if (!business) throw notFound(RFC_MESSAGES.businessNotFound);
  const side = c.loginRoleType === 'U' && !!c.enterpriseId && c.enterpriseId === business.enterpriseId;
  const reviewer = c.loginRoleType === 'M' || (c.loginRoleType === 'U' && (await canCall(db, c, node, 'audit')));
  if (!side && !reviewer && c.loginRoleType !== 'D') throw notFound(RFC_MESSAGES.businessNotFound);
  return { side, reviewer };
}

const engineCaller = (c: CreditCaller): EngineCaller => ({
  id: c.id,
  loginRoleType: c.loginRoleType,
  enterpriseId: c.enterpriseId,
  actor: c.actor,
  memo: c.memo,
});

/** May the caller decide the round's review record now (the engine's record policy: its to-do, its level)? */
async function mayDecide(db: Db, c: CreditCaller, r: Round, reviewer: boolean): Promise<boolean> {
  if (!reviewer || r.status !== '1' || !r.submitted) return false;
  const n = await nodeForEngine(db, RFC_REVIEW_NODE);
  const row = await recordRow(db, RFC_REVIEW_NODE, r.id);
  if (!row) return false;
  const ctx = await policyContext(db, engineCaller(c), RFC_REVIEW_NODE);
  const review = await reviewFactsOfRow(db, engineCaller(c), n.id, row, ctx);
  return judge(engineCaller(c), recordFactsOf(row), review, 'decide').ok;
}

// ── views ───────────────────────────────────────────────────────────────────

async function filesOf(db: DbOrTx, roundIds: string[]) {
  if (!roundIds.length) return new Map<string, (typeof files.$inferSelect)[]>();
  const rows = await db
    .select()
    .from(files)
    .where(and(eq(files.gnCoding, RFC_REVIEW_NODE), inArray(files.recordId, roundIds)))
    .orderBy(asc(files.createdAt), asc(files.id));
  const out = new Map<string, (typeof files.$inferSelect)[]>();
  for (const f of rows) out.set(f.recordId!, [...(out.get(f.recordId!) ?? []), f]);
  return out;
}

async function viewOf(
  db: Db,
  c: CreditCaller,
  area: Area,
  business: Business,
  r: Round,
  access: Access,
  fileRows: (typeof files.$inferSelect)[],
  latest: boolean,
): Promise<RfcChangeRecord> {
  const userPermission = access.side && latest && r.status === '1' && !r.submitted;
  const managerPermission = !access.side && (await mayDecide(db, c, r, access.reviewer));
  const review = r.submitted ? await recordRow(db, RFC_REVIEW_NODE, r.id) : undefined;
  const attachments = fileRows.filter((f) => !f.annexNo);
  return {
    id: r.id,
    round: r.round,
    gnCoding: area.gnCoding,
    businessId: business.id,
    businessName: business.name,
    enterpriseId: business.enterpriseId,
    enterpriseName: business.enterpriseName,
    change: r.status as RfcStatus,
    changeStatus: RFC_STATUS_LABELS[r.status as RfcStatus],
    changeType: r.changeType,
    changeTypeCode: r.changeTypeCode,
    kind: (r.kind as RfcKind | null) ?? null,
    logbook: r.logbook,
    sbTime: stamp(r.sbTime),
    czTime: stamp(r.czTime),
    auditRecord: r.auditRecord,
    auditorName: r.auditorName,
    attachment: attachments[0] ? fileUrl(attachments[0].id) : null,
    files: fileRows.map((f) => ({
      fileId: f.id,
      fileName: f.fileName,
      fileSize: f.fileSize,
      code: f.annexNo,
      url: fileUrl(f.id),
    })),
    userPermission,
    managerPermission,
    operations: rfcOperations(
      { change: r.status as RfcStatus, saved: r.saved, submitted: r.submitted },
      { userPermission, managerPermission },
    ),
    dataList: r.dataList,
    pass: r.pass,
    saved: r.saved,
    submitted: r.submitted,
    reviewId: review ? r.id : null,
    auditLevel: review && review.status === 'pending' ? Number(review.audit_level) : null,
    createdByName: r.createdByName,
    version: r.version,
  };
}

async function roundsOf(db: DbOrTx, gnCoding: string, businessId: string) {
  return db
    .select()
    .from(creditChanges)
    .where(and(eq(creditChanges.gnCoding, gnCoding), eq(creditChanges.businessId, businessId)))
    .orderBy(asc(creditChanges.round));
}

async function oneView(db: Db, c: CreditCaller, id: string) {
  const [r] = await db.select().from(creditChanges).where(eq(creditChanges.id, id));
  if (!r) throw notFound(RFC_MESSAGES.notFound);
  const area = areaOf(r.gnCoding);
  const business = await area.load(db, r.businessId);
  const access = await accessTo(db, c, business);
  const all = await roundsOf(db, r.gnCoding, r.businessId);
  const fs = await filesOf(db, [r.id]);
  return viewOf(db, c, area, business!, r, access, fs.get(r.id) ?? [], all.at(-1)?.id === r.id);
}

// ── reading ─────────────────────────────────────────────────────────────────

export async function changeRecords(
  db: Db,
  c: CreditCaller,
  input: { change: boolean; businessId: string; gnCoding: string },
): Promise<RfcChangeRecord[]> {
  const area = areaOf(input.gnCoding);
  const business = await area.load(db, input.businessId);
  const access = await accessTo(db, c, business);
  const rounds = await roundsOf(db, area.gnCoding, business!.id);
  const fs = await filesOf(
    db,
    rounds.map((r) => r.id),
  );
  const out: RfcChangeRecord[] = [];
  for (const [i, r] of rounds.entries()) {
    out.push(await viewOf(db, c, area, business!, r, access, fs.get(r.id) ?? [], i === rounds.length - 1));
  }
  const latest = rounds.at(-1);
  if (input.change && access.side && !business!.refusal && rfcMayStartRound(latest?.status as RfcStatus)) {
    const perms = { userPermission: true, managerPermission: false };
    out.push({
      id: null,
      round: (latest?.round ?? 0) + 1,
      gnCoding: area.gnCoding,
      businessId: business!.id,
      businessName: business!.name,
      enterpriseId: business!.enterpriseId,
      enterpriseName: business!.enterpriseName,
      change: '1',
      changeStatus: RFC_STATUS_LABELS['1'],
      changeType: null,
      changeTypeCode: null,
      kind: null,
      logbook: null,
      sbTime: null,
      czTime: null,
      auditRecord: null,
      auditorName: null,
      attachment: null,
      files: [],
      ...perms,
      operations: rfcOperations(null, perms),
      dataList: [],
      pass: null,
      saved: false,
      submitted: false,
      reviewId: null,
      auditLevel: null,
      createdByName: null,
      version: 0,
    });
  }
  return out;
}

export async function changeTypes(db: Db, c: CreditCaller, input: { gnCoding: string }) {
  const area = areaOf(input.gnCoding);
  const node = await findNode(db, RFC_REVIEW_NODE);
  if (!node || (c.loginRoleType === 'U' && !(await canSeeNode(db, c, node)))) throw forbidden();
  return area.types;
}

export async function changeFields(
  db: Db,
  c: CreditCaller,
  input: { id: string; gnCoding: string; changeTypeCode?: string | null; changeId?: string | null },
): Promise<RfcChangeFields> {
  const area = areaOf(input.gnCoding);
  const business = await area.load(db, input.id);
  const access = await accessTo(db, c, business);
  const b = business!;
  const rounds = await roundsOf(db, area.gnCoding, b.id);
  const round = input.changeId ? rounds.find((r) => r.id === input.changeId) : rounds.find((r) => r.status === '1');
  if (input.changeId && !round) throw notFound(RFC_MESSAGES.notFound);
  const type = typeOf(area, input.changeTypeCode ?? round?.changeTypeCode ?? null);
  const kind: RfcKind = type?.kind ?? area.types[0]!.kind;
  const editable = new Set(area.editable(kind));
  const options = await area.options(db, b);
  const highest = area.highest ? await area.highest(db, b.values) : null;
  const fields = area.fieldDefs
    .filter((f) => (kind === 'contact' ? f.code === 'contact' : f.type !== 'contact'))
    .map((f) => ({
      ...f,
      readonly: !(access.side && editable.has(f.code)),
      ...(options[f.code] ? { options: options[f.code] } : {}),
      ...(f.code === 'score' && highest !== null ? { highest } : {}),
    }));
  const newBy = new Map((round?.dataList ?? []).map((d) => [d.changeField, d]));
  const list = fields.map((f) => {
    const d = newBy.get(f.code);
    return {
      changeField: f.code,
      fieldName: f.name,
      oldValue: d?.oldValue ?? b.values[f.code] ?? null,
      newValue: d ? d.newValue : (b.values[f.code] ?? null),
      oldText: d?.oldText ?? b.texts[f.code] ?? null,
      newText: d ? d.newText : (b.texts[f.code] ?? null),
      dataType: f.type === 'file' ? RFC_ATTACHMENT_DATA_TYPE : f.type,
    };
  });
  const roundFiles = round ? ((await filesOf(db, [round.id])).get(round.id) ?? []) : [];
  const fjList = area.annexes(kind).map((a) => {
    const f = roundFiles.find((x) => x.annexNo === a.code);
    return { ...a, ...(f ? { fileId: f.id, url: fileUrl(f.id) } : {}) };
  });
  return { map: b.values, fields, list, fjList };
}

export async function contacts(db: Db, c: CreditCaller, input: { id: string }): Promise<RfcContact[]> {
  const area = areaOf('XYGL_QYXX');
  const business = await area.load(db, input.id);
  await accessTo(db, c, business);
  return (await contactsOf(db, business!.enterpriseId)).map((u) => ({
    id: u.id,
    ry_name: u.userName,
    ryName: u.userName,
    tel: u.phone,
  }));
}

// ── the enterprise: save, submit ─────────────────────────────────────────────

function requireSide(c: CreditCaller, access: Access) {
  if (c.loginRoleType !== 'U') throw forbidden('管理员和开发者不能代企业发起变更');
  if (!c.enterpriseId) throw forbidden(RFC_MESSAGES.noEnterprise);
  if (!access.side) throw notFound(RFC_MESSAGES.businessNotFound);
}

const fail = (field: string, message: string) => validationFailed({ [field]: [message] }, message);

/** Bind files of the caller's side (uploaded for the review node, the area or no node, not bound elsewhere). */
async function bindRoundFiles(
  tx: DbOrTx,
  c: CreditCaller,
  roundId: string,
  area: Area,
  attachment: string[],
  annexes: { fileId: string; code: string }[],
) {
  const wanted = [
    ...attachment.map((id) => ({ id, code: null as string | null })),
    ...annexes.map((a) => ({ id: a.fileId, code: a.code })),
  ];
  const ids = [...new Set(wanted.map((w) => w.id))];
  if (ids.length !== wanted.length) throw badRequest('同一个附件不能重复使用');
  // files of the round no longer listed are let go (the files sweep removes them later)
  const current = await tx
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.gnCoding, RFC_REVIEW_NODE), eq(files.recordId, roundId)));
  const drop = current.map((f) => f.id).filter((id) => !ids.includes(id));
  if (drop.length) await tx.update(files).set({ recordId: null }).where(inArray(files.id, drop));
  for (const w of wanted) {
    const bound = await tx
      .update(files)
      .set({ gnCoding: RFC_REVIEW_NODE, recordId: roundId, annexNo: w.code })
      .where(
        and(
          eq(files.id, w.id),
          or(eq(files.enterpriseId, c.enterpriseId!), eq(files.ownerId, c.id)),
          or(isNull(files.gnCoding), inArray(files.gnCoding, [RFC_REVIEW_NODE, area.gnCoding])),
          or(isNull(files.recordId), eq(files.recordId, roundId)),
        ),
      )
      .returning({ id: files.id });
    if (!bound.length) throw badRequest('附件不存在或已用于其他记录，请重新上传');
  }
}

export async function saveChange(db: Db, c: CreditCaller, input: RfcSaveRequest, now: Date): Promise<RfcChangeRecord> {
  const area = areaOf(input.gnCoding);
  const found = await area.load(db, input.businessId);
  const access = await accessTo(db, c, found);
  requireSide(c, access);
  const type = typeOf(area, input.changeTypeCode);
  // an enterprise whose required information is still empty cannot upload (the company-info gate answers 418): its
  // first information round, which completes it, needs no attachment
  const incomplete =
    area.gnCoding === RFC_AREAS.enterprise &&
    Object.keys(ENTERPRISE_FIELD_CODES).some((k) => !found!.values[k]?.trim());
  const annexes = incomplete ? [] : area.annexes(type?.kind ?? null);
  const fileList = input.fileList ?? [];
  const problem = rfcSaveProblem({
    changeTypeCode: input.changeTypeCode,
    kind: type?.kind ?? null,
    logbook: input.logbook,
    attachmentCount: incomplete ? 1 : (input.attachment ?? []).length,
    annexes,
    annexCodes: fileList.map((f) => f.code),
  });
  if (problem) throw fail(problem.field, problem.message);
  const unknownAnnex = fileList.find((f) => !area.annexes(type?.kind ?? null).some((a) => a.code === f.code));
  if (unknownAnnex) throw fail('fileList', `附件类型不在可选范围内：${unknownAnnex.code}`);
  const kind = type!.kind;
  const id = await db.transaction(async (tx) => {
    // the business record locked: its values are read once for the whole save
    const business = (await area.load(tx, input.businessId, true))!;
    if (business.refusal) throw conflict(business.refusal);
    const rounds = await roundsOf(tx, area.gnCoding, business.id);
    const latest = rounds.at(-1);
    let round: Round | undefined;
    if (input.id) {
      const [r] = await tx.select().from(creditChanges).where(eq(creditChanges.id, input.id)).for('update');
      if (!r || r.gnCoding !== area.gnCoding || r.businessId !== business.id) throw notFound(RFC_MESSAGES.notFound);
      if (r.status !== '1') throw conflict(RFC_MESSAGES.notOpen);
      if (r.submitted) throw conflict(RFC_MESSAGES.alreadySubmitted);
      if (input.version !== undefined && input.version !== null && input.version !== r.version) {
        throw conflict(RFC_MESSAGES.stale);
      }
      round = r;
    } else if (!rfcMayStartRound(latest?.status as RfcStatus)) {
      throw conflict(RFC_MESSAGES.openRoundExists);
    }
    // the new values: the fields the kind may change (the others keep their current values)
    const editable = new Set(area.editable(kind));
    const next = { ...business.values };
    for (const d of input.dataList ?? []) {
      if (d.dataType === RFC_ATTACHMENT_DATA_TYPE || d.changeField === 'enclosure') continue;
      const v = d.newValue === null || d.newValue === undefined ? null : String(d.newValue).trim() || null;
      if (!editable.has(d.changeField)) {
        if (v !== (business.values[d.changeField] ?? null) && d.changeField in business.values) {
          const name = area.fieldDefs.find((f) => f.code === d.changeField)?.name ?? d.changeField;
          throw fail(d.changeField, rfcMessage(RFC_MESSAGES.fieldNotChangeable, { name }));
        }
        continue;
      }
      next[d.changeField] = v;
    }
    const problems = await area.problems(tx, business, next, {});
    const first = Object.entries(problems)[0];
    if (first) throw validationFailed(Object.fromEntries(Object.entries(problems).map(([k, m]) => [k, [m]])), first[1]);
    const texts = await area.textsOf(tx, business, next);
    const dataList: RfcDataRow[] = area.fieldDefs
      .filter((f) => editable.has(f.code) && (next[f.code] ?? null) !== (business.values[f.code] ?? null))
      .map((f) => ({
        changeField: f.code,
        fieldName: f.name,
        oldValue: business.values[f.code] ?? null,
        newValue: next[f.code] ?? null,
        oldText: business.texts[f.code] ?? null,
        newText: texts[f.code] ?? null,
        dataType: f.type,
      }));
    if ((kind === 'info' || kind === 'time' || kind === 'contact') && !dataList.length) {
      throw fail('dataList', RFC_MESSAGES.unchanged);
    }
    const values = {
      kind,
      changeType: type!.label,
      changeTypeCode: input.changeTypeCode!,
      logbook: input.logbook!.trim(),
      saved: true,
      updatedAt: now,
    };
    let roundId: string;
    if (round) {
      await tx
        .update(creditChanges)
        .set({ ...values, dataList, version: round.version + 1 })
        .where(eq(creditChanges.id, round.id));
      roundId = round.id;
    } else {
      const [row] = await tx
        .insert(creditChanges)
        .values({
          ...values,
          dataList,
          gnCoding: area.gnCoding,
          businessId: business.id,
          enterpriseId: business.enterpriseId,
          round: (latest?.round ?? 0) + 1,
          status: '1',
          createdBy: c.id,
          createdByName: c.actor.userName,
          createdAt: now,
        })
        .returning({ id: creditChanges.id });
      roundId = row!.id;
    }
    await bindRoundFiles(tx, c, roundId, area, input.attachment ?? [], fileList);
    // the annex files are the new evidence of a credit record: the attachment row of the data items
    if (area.fieldDefs.some((f) => f.type === 'file') && fileList.length) {
      const annexRows = await tx
        .select({ fileName: files.fileName })
        .from(files)
        .where(
          inArray(
            files.id,
            fileList.map((f) => f.fileId),
          ),
        )
        .orderBy(asc(files.createdAt));
      const f = area.fieldDefs.find((x) => x.type === 'file')!;
      dataList.push({
        changeField: f.code,
        fieldName: f.name,
        oldValue: business.values[f.code] ?? null,
        newValue: fileList.map((x) => x.fileId).join(','),
        oldText: business.texts[f.code] ?? null,
        newText: annexRows.map((x) => x.fileName).join('；'),
        dataType: RFC_ATTACHMENT_DATA_TYPE,
      });
      await tx.update(creditChanges).set({ dataList }).where(eq(creditChanges.id, roundId));
    }
    await writeOpLog(tx, c.actor, {
      glName: GL,
      gnCoding: RFC_REVIEW_NODE,
      recordId: roundId,
      logbook: `保存${area.label}变更（第 ${round?.round ?? (latest?.round ?? 0) + 1} 轮，${type!.label}）：${
        dataList.map((d) => `${d.fieldName} ${d.oldText ?? '空'} → ${d.newText ?? '空'}`).join('；') || '无字段变更'
      }`,
    });
    return roundId;
  });
  return oneView(db, c, id);
}

export async function submitChange(db: Db, c: CreditCaller, input: { id: string; version: number }, now: Date) {
  const [pre] = await db.select().from(creditChanges).where(eq(creditChanges.id, input.id));
  if (!pre) throw notFound(RFC_MESSAGES.notFound);
  const area = areaOf(pre.gnCoding);
  const access = await accessTo(db, c, await area.load(db, pre.businessId));
  requireSide(c, access);
  const ec = engineCaller(c);
  const n = await nodeForEngine(db, RFC_REVIEW_NODE);
  const ctx = await policyContext(db, ec, RFC_REVIEW_NODE);
  await db.transaction(async (tx) => {
    const [r] = await tx.select().from(creditChanges).where(eq(creditChanges.id, input.id)).for('update');
    if (!r) throw notFound(RFC_MESSAGES.notFound);
    if (r.status !== '1') throw conflict(RFC_MESSAGES.notOpen);
    if (r.submitted) throw conflict(RFC_MESSAGES.alreadySubmitted);
    if (!r.saved) throw badRequest(RFC_MESSAGES.saveFirst);
    if (r.version !== input.version) throw conflict(RFC_MESSAGES.stale);
    const business = (await area.load(tx, r.businessId))!;
    const values = {
      qymc: business.enterpriseName,
      bgdx: `${area.label}：${business.name}`,
      bglx: r.changeType,
      bgyy: r.logbook,
      lc: r.round,
      tjsj: now.toISOString(),
      bgzt: RFC_STATUS_LABELS['1'],
      ywbm: area.gnCoding,
      ywid: business.id,
    };
    const existing = await bgsq.get(tx, r.id, { lock: true });
    const rec = existing
      ? await bgsq.update(tx, r.id, values, { actor: c.actor, logbook: `更新信用变更申请（第 ${r.round} 轮）` })
      : await bgsq.create(tx, values, {
          id: r.id,
          owner: { ownerId: c.id, enterpriseId: business.enterpriseId },
          actor: c.actor,
          logbook: `生成信用变更申请（第 ${r.round} 轮）`,
        });
    await submitInTx(tx, ec, n, ctx, { id: r.id, version: rec.version });
    await tx
      .update(creditChanges)
      .set({ submitted: true, sbTime: now, updatedAt: now, version: r.version + 1 })
      .where(eq(creditChanges.id, r.id));
    await writeOpLog(tx, c.actor, {
      glName: GL,
      gnCoding: RFC_REVIEW_NODE,
      recordId: r.id,
      logbook: `提交${area.label}变更（第 ${r.round} 轮，${r.changeType}）`,
    });
  });
  return oneView(db, c, input.id);
}

// ── review ──────────────────────────────────────────────────────────────────

export async function auditChange(db: Db, c: CreditCaller, input: RfcAuditRequest) {
  const node = await findNode(db, RFC_REVIEW_NODE);
  if (!node || !(await canCall(db, c, node, 'audit'))) {
    // an enterprise user who cannot review does not learn whether the round exists
    throw forbidden(RFC_MESSAGES.notReviewer);
  }
  const suggestion = input.auditRecord?.trim() ?? '';
  if (!input.pass && !suggestion) throw fail('auditRecord', RFC_MESSAGES.suggestionRequired);
  const [pre] = await db.select().from(creditChanges).where(eq(creditChanges.id, input.id));
  if (!pre) throw notFound(RFC_MESSAGES.notFound);
  const area = areaOf(pre.gnCoding);
  const access = await accessTo(db, c, await area.load(db, pre.businessId));
  if (access.side) throw forbidden(RFC_MESSAGES.ownReview);
  const ec = engineCaller(c);
  const n = await nodeForEngine(db, RFC_REVIEW_NODE);
  const ctx = await policyContext(db, ec, RFC_REVIEW_NODE);
  await db.transaction(async (tx) => {
    const [r] = await tx.select().from(creditChanges).where(eq(creditChanges.id, input.id)).for('update');
    if (!r) throw notFound(RFC_MESSAGES.notFound);
    if (r.status !== '1') throw conflict(RFC_MESSAGES.notOpen);
    if (!r.submitted) throw conflict(RFC_MESSAGES.notSubmitted);
    if (r.version !== input.version) throw conflict(RFC_MESSAGES.decidedAlready);
    const rec = await bgsq.get(tx, r.id, { lock: true });
    if (!rec) throw conflict(RFC_MESSAGES.notSubmitted);
    // the engine decides (levels, to-dos, 409 when not this caller's to decide); the hook below settles the round
    await auditInTx(tx, ec, n, ctx, { id: r.id, version: rec.version, pass: input.pass, suggestion });
    await tx
      .update(creditChanges)
      .set({ version: r.version + 1, updatedAt: new Date() })
      .where(eq(creditChanges.id, r.id));
  });
  return oneView(db, c, input.id);
}

/**
 * What a decision on 信用变更申请 does to its round, in the decision's transaction: the final pass writes the new
 * values (and regrades), marks the round '2' and tells the enterprise; a rejection marks it '-1' and changes nothing.
 * A level passing that is not the last one leaves the round open.
 */
let clock: () => Date = () => new Date();
let registered = false;

export function registerChangeHooks(now?: () => Date) {
  // one registration per process (apps built in tests share it); the latest app's clock is used (the demo seed
  // registers without one: it keeps whichever clock an app set)
  if (now) clock = now;
  if (registered) return;
  registered = true;
  onDecision(RFC_REVIEW_NODE, {
    name: 'credit-change-rounds',
    async passed(e) {
      if (!e.final) return;
      await settle(e.tx, e.record.id, true, e.opinion, e.decider, clock());
    },
    async rejected(e) {
      await settle(e.tx, e.record.id, false, e.opinion, e.decider, clock());
    },
  });
}

async function settle(
  tx: Tx,
  id: string,
  pass: boolean,
  opinion: string | null,
  decider: { id: string; userName: string; loginRoleType: string },
  now: Date,
) {
  const [r] = await tx.select().from(creditChanges).where(eq(creditChanges.id, id)).for('update');
  // a 信用变更申请 added by hand (not a round) has nothing to settle
  if (!r) return;
  if (r.status !== '1') throw conflict(RFC_MESSAGES.notOpen);
  if (!pass && !opinion?.trim()) throw badRequest(RFC_MESSAGES.suggestionRequired);
  const area = areaOf(r.gnCoding);
  const actor: Actor = {
    userId: decider.id,
    userName: decider.userName,
    loginRoleType: decider.loginRoleType as Actor['loginRoleType'],
  };
  let outcome = '';
  if (pass) {
    const business = await area.load(tx, r.businessId, true);
    if (!business) throw conflict(RFC_MESSAGES.businessNotFound);
    const annexes = await tx
      .select({ id: files.id, annexNo: files.annexNo })
      .from(files)
      .where(and(eq(files.gnCoding, RFC_REVIEW_NODE), eq(files.recordId, r.id)))
      .orderBy(asc(files.createdAt), asc(files.id));
    const evidence = r.dataList.some((d) => d.dataType === RFC_ATTACHMENT_DATA_TYPE)
      ? annexes.filter((f) => f.annexNo).map((f) => f.id)
      : [];
    outcome = await area.apply(
      tx,
      actor,
      { id: r.id, dataList: r.dataList.filter((d) => d.dataType !== RFC_ATTACHMENT_DATA_TYPE), annexFileIds: evidence },
      business,
      now,
    );
  }
  const status = pass ? '2' : '-1';
  await tx
    .update(creditChanges)
    .set({
      status,
      pass,
      czTime: now,
      auditRecord: opinion?.trim() || null,
      auditorName: decider.userName,
      updatedAt: now,
    })
    .where(eq(creditChanges.id, r.id));
  await bgsq.update(tx, r.id, { bgzt: RFC_STATUS_LABELS[status] }, { actor, logbook: `变更${pass ? '通过' : '驳回'}` });
  await writeOpLog(tx, actor, {
    glName: GL,
    gnCoding: RFC_REVIEW_NODE,
    recordId: r.id,
    logbook: pass
      ? `${area.label}变更通过（第 ${r.round} 轮）：${outcome}`
      : `${area.label}变更驳回（第 ${r.round} 轮）：${opinion}`,
  });
  // the result for the enterprise's user who opened the round
  if (r.createdBy) {
    await sendUserMessages(tx, [
      {
        userId: r.createdBy,
        kind: pass ? 'result' : 'rejected',
        title: `${area.label}变更${pass ? '已通过' : '被驳回'}（第 ${r.round} 轮）`,
        body: pass
          ? `您提交的${r.changeType ?? '变更'}已审核通过，新的内容已生效。${opinion ? `审核建议：${opinion}` : ''}`
          : `您提交的${r.changeType ?? '变更'}被驳回，审核建议：${opinion}。请修改后发起新一轮变更。`,
        reason: pass ? null : (opinion ?? null),
        gnCoding: RFC_REVIEW_NODE,
        recordId: r.id,
        link: `/applyIndex?gnCoding=${RFC_REVIEW_NODE}&systemCoding=XYGL&id=${r.id}`,
        createdAt: now,
      },
    ]);
  }
}

/** Latest round of a business record (company-info gate, enterprise information page). */
export async function latestRound(db: DbOrTx, gnCoding: string, businessId: string): Promise<Round | undefined> {
  const [r] = await db
    .select()
    .from(creditChanges)
    .where(and(eq(creditChanges.gnCoding, gnCoding), eq(creditChanges.businessId, businessId)))
    .orderBy(desc(creditChanges.round))
    .limit(1);
  return r;
}
