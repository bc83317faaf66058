import { createHash, randomUUID } from 'node:crypto';
import {
  addDays,
  dateIn,
  GUARANTEE_MESSAGES as G,
  GUARANTEE_NODE,
  type Guarantee,
  type GuaranteeStatus,
  type IssuerInfo,
  wallClockOf,
} from '@ks/contracts';
import { and, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { enterprises, files, tradeGuarantees, users } from '../../db/schema';
import { isUniqueViolation } from '../../db/sql';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import {
  type GuaranteeApplication,
  type GuaranteeIssuer,
  GuaranteeIssuerError,
  type IssuerResult,
} from '../../platform/integrations/guarantee-issuer';
import { type Actor, SYSTEM_ACTOR, writeOpLog } from '../../platform/oplog';
import { newStorageKey, type Storage } from '../../platform/storage';
import { onDecision } from '../engine/hooks';
import { sendStored } from '../files/download';
import { projects } from '../tender/project';
import { registrationOf } from '../tender/registration.service';
import * as repo from './deposits.repo';
import type { DepositCaller } from './deposits.service';
import { bhsq } from './node';

/**
 * Electronic guarantee letters (电子保函, issue 16) in place of a cash deposit. A registered bidder applies for a
 * section (`guarantee`): a draft 保函申请 record is made for them, prefilled from the section (the amount is the
 * section's deposit), which they complete with its attachments and submit; its review runs in the engine. When the
 * review passes (decision hook), the letter is requested; the call to the configured issuer happens outside every
 * transaction — when someone asks for the result (`getbaohanresult`) or in the background pass — under a lease so one
 * process talks to the issuer at a time. The issued PDF is stored through the files module's storage and served to the
 * applying enterprise and the trading centre only. Without a configured issuer nobody can apply, and nothing pretends.
 */

export const GL_GUARANTEE = '电子保函';
/** How long one process holds a letter while it talks to the issuer. */
const LEASE_MS = 120_000;
/** A bid guarantee stays valid this many days after the bid deadline (the bid's validity). */
const VALID_AFTER_DEADLINE_DAYS = 90;
const yuan = (n: number) => n.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const cents = (n: number) => Math.round(n * 100);

export interface GuaranteeDeps {
  db: Db;
  storage: Storage;
  issuer: GuaranteeIssuer | null;
  now: () => Date;
  log?: { warn(o: object, msg: string): void };
}

export const issuerInfo = (issuer: GuaranteeIssuer | null): IssuerInfo => ({
  configured: issuer !== null,
  name: issuer?.name ?? null,
});

const isCentre = (c: DepositCaller) => c.loginRoleType === 'M';
const ownsLetter = (c: DepositCaller, g: { enterpriseId: string }) =>
  c.loginRoleType === 'U' && c.enterpriseId !== null && c.enterpriseId === g.enterpriseId;

function letterView(r: repo.GuaranteeListRow, projectName: string | null, c: DepositCaller): Guarantee {
  const g = r.g;
  const status = g.status as GuaranteeStatus;
  const own = ownsLetter(c, g);
  return {
    id: g.id,
    sectionId: g.sectionId,
    sectionCode: r.section.code,
    sectionName: r.section.name,
    projectName,
    enterpriseName: r.enterpriseName,
    amount: Number(g.amount),
    status,
    issuerName: g.issuerName,
    guaranteeNo: g.guaranteeNo,
    lastError: g.lastError,
    attempts: g.attempts,
    appliedAt: g.createdAt.toISOString(),
    appliedBy: g.applicantName,
    requestedAt: g.requestedAt?.toISOString() ?? null,
    issuedAt: g.issuedAt?.toISOString() ?? null,
    fileName: status === 'issued' ? r.fileName : null,
    operations: {
      download: status === 'issued' && (own || isCentre(c)),
      retry: status === 'failed' && (own || isCentre(c)),
      edit: own && (status === 'applying' || status === 'rejected'),
    },
  };
}

/** Letters of the caller's enterprise, or (centre, developers) all of them. */
export async function listGuarantees(db: Db, c: DepositCaller, sectionId?: string): Promise<Guarantee[]> {
  const all = c.loginRoleType === 'M' || c.loginRoleType === 'D';
  if (!all && !c.enterpriseId) return [];
  const rows = await repo.guaranteeRows(
    db,
    repo.guaranteesWhere({ enterpriseId: all ? undefined : c.enterpriseId!, sectionId }),
  );
  const names = new Map<string, string | null>();
  for (const pid of new Set(rows.map((r) => r.section.projectId))) {
    names.set(pid, (await projects.get(db, pid))?.values.xmmc ?? null);
  }
  return rows.map((r) => letterView(r, names.get(r.section.projectId) ?? null, c));
}

/** The letter the caller may see: its enterprise's, or any for the centre (developers read); else 404. */
async function visibleLetter(db: Db, c: DepositCaller, id: string) {
  const [r] = await repo.guaranteeRows(db, repo.guaranteesWhere({ id }), 1);
  if (!r) throw notFound(G.missing);
  if (!(ownsLetter(c, r.g) || c.loginRoleType === 'M' || c.loginRoleType === 'D')) throw notFound(G.missing);
  return r;
}

async function viewById(db: Db, c: DepositCaller, id: string) {
  const r = await visibleLetter(db, c, id);
  return letterView(r, (await projects.get(db, r.section.projectId))?.values.xmmc ?? null, c);
}

/**
 * A registered bidder applies for a bid guarantee for a section: a draft 保函申请 (owned by them and their enterprise,
 * prefilled from the section) and the letter in `applying`. Refused without an issuer, after the bid deadline, when the
 * deposit is paid in cash or a letter is already under way or issued.
 */
export async function apply(deps: GuaranteeDeps, c: DepositCaller, sectionId: string) {
  const { db } = deps;
  if (!deps.issuer) throw conflict(G.notConfigured);
  if (c.loginRoleType !== 'U' || !c.enterpriseId) throw forbidden(G.notRegistered);
  const enterpriseId = c.enterpriseId;
  const s = await repo.sectionById(db, sectionId);
  if (!s) throw notFound('标段不存在');
  if (!(await registrationOf(db, s.id, enterpriseId))) throw forbidden(G.notRegistered);
  const now = deps.now();
  if (now >= s.bidDeadline) throw conflict(G.afterDeadline);
  const project = await projects.get(db, s.projectId);
  const [ent] = await db.select().from(enterprises).where(eq(enterprises.id, enterpriseId));
  const [me] = await db.select({ phone: users.phone }).from(users).where(eq(users.id, c.id));
  const amount = Number(s.deposit);
  const id = randomUUID();
  const today = dateIn(now);
  const validTo = addDays(dateIn(s.bidDeadline), VALID_AFTER_DEADLINE_DAYS);
  try {
    await db.transaction(async (tx) => {
      if (!(await repo.lockRegistration(tx, s.id, enterpriseId))) throw forbidden(G.notRegistered);
      if (await repo.depositOf(tx, s.id, enterpriseId)) throw conflict(G.alreadyPaid);
      if (await repo.liveGuarantee(tx, s.id, enterpriseId)) throw conflict(G.alreadyApplied);
      await bhsq.create(
        tx,
        {
          xmmc: project?.values.xmmc ?? s.name,
          bdmc: `${s.code} ${s.name}`,
          sqdwdm: ent?.creditCode ?? null,
          bhlx: 'tb',
          bhje: amount,
          yxq: [today, validTo],
          // the form takes times in 15-minute steps: a deadline off the grid is left for the applicant to fill
          kbsj: s.bidDeadline.getTime() % 900_000 === 0 ? wallClockOf(s.bidDeadline) : null,
          sqrq: today,
          lxr: c.userName.slice(0, 20),
          lxdh: me?.phone && /^1\d{10}$/.test(me.phone) ? me.phone : null,
        },
        {
          id,
          owner: { ownerId: c.id, enterpriseId },
          actor: c.actor,
          logbook: `申请标段 ${s.code} ${s.name} 的投标保函（金额 ${yuan(amount)} 元，即该标段保证金），待补充附件后提交审核`,
        },
      );
      await tx.insert(tradeGuarantees).values({
        id,
        sectionId: s.id,
        enterpriseId,
        applicantId: c.id,
        applicantName: c.userName,
        amount,
        status: 'applying',
        createdAt: now,
        updatedAt: now,
      });
    });
  } catch (e) {
    if (isUniqueViolation(e, 'trade_guarantees_live_uq')) throw conflict(G.alreadyApplied);
    throw e;
  }
  return { id, gnCoding: GUARANTEE_NODE };
}

// ── the review's decision hooks ─────────────────────────────────────────────────────────────────────────────────

let clock: () => Date = () => new Date();
let registered = false;

/** Registers the 保函申请 decision hooks once per process (apps built in tests share them; the latest clock is used). */
export function registerGuaranteeHooks(now?: () => Date) {
  if (now) clock = now;
  if (registered) return;
  registered = true;
  onDecision(GUARANTEE_NODE, {
    name: 'bid-guarantee',
    async passed(e) {
      if (!e.final) return;
      const g = await repo.guaranteeById(e.tx, e.record.id, true);
      // an application made in the list by hand names no section: the review is all there is to it
      if (!g) return;
      if (g.status !== 'applying' && g.status !== 'rejected') throw conflict('该保函申请已处理');
      const asked = e.record.values.bhje;
      if (asked === null || asked === undefined || cents(Number(asked)) !== cents(Number(g.amount))) {
        throw badRequest(G.amountMismatch(yuan(Number(g.amount))));
      }
      const at = clock();
      try {
        await e.tx
          .update(tradeGuarantees)
          .set({ status: 'requested', requestedAt: at, lastError: null, claimedAt: null, updatedAt: at })
          .where(eq(tradeGuarantees.id, g.id));
      } catch (err) {
        if (isUniqueViolation(err, 'trade_guarantees_live_uq')) throw conflict(G.alreadyApplied);
        throw err;
      }
      await writeOpLog(e.tx, actorOf(e.decider), {
        glName: GL_GUARANTEE,
        gnCoding: GUARANTEE_NODE,
        recordId: g.id,
        logbook: `保函申请审核通过，提交出函机构出具投标保函（${yuan(Number(g.amount))} 元）`,
      });
    },
    async rejected(e) {
      const g = await repo.guaranteeById(e.tx, e.record.id, true);
      if (!g) return;
      const at = clock();
      await e.tx.update(tradeGuarantees).set({ status: 'rejected', updatedAt: at }).where(eq(tradeGuarantees.id, g.id));
      await writeOpLog(e.tx, actorOf(e.decider), {
        glName: GL_GUARANTEE,
        gnCoding: GUARANTEE_NODE,
        recordId: g.id,
        logbook: `保函申请审核未通过${e.opinion ? `（${e.opinion}）` : ''}`,
      });
    },
  });
}

const actorOf = (d: { id: string; userName: string; loginRoleType: string }): Actor => ({
  userId: d.id,
  userName: d.userName,
  loginRoleType: d.loginRoleType as Actor['loginRoleType'],
});

// ── talking to the issuer (outside transactions) ──────────────────────────────────────────────────────────────────

/** What the issuer is sent: the letter's own data (section, enterprise, amount), not the form's free text. */
async function applicationOf(db: Db, g: repo.GuaranteeRow): Promise<GuaranteeApplication> {
  const s = (await repo.sectionById(db, g.sectionId))!;
  const [ent] = await db.select().from(enterprises).where(eq(enterprises.id, g.enterpriseId));
  const p = await projects.get(db, s.projectId);
  return {
    applyNo: g.id,
    applicant: { name: ent!.name, creditCode: ent!.creditCode },
    beneficiary: { name: p?.values.zbr ?? '' },
    project: { code: p?.values.xmbh ?? '', name: p?.values.xmmc ?? '' },
    section: { code: s.code, name: s.name },
    amount: Number(g.amount),
    validFrom: dateIn(g.requestedAt ?? g.createdAt),
    validTo: addDays(dateIn(s.bidDeadline), VALID_AFTER_DEADLINE_DAYS),
    bidDeadline: s.bidDeadline.toISOString(),
  };
}

async function settle(
  db: Db,
  g: repo.GuaranteeRow,
  set: Partial<typeof tradeGuarantees.$inferInsert>,
  logbook: string,
  at: Date,
) {
  await db.transaction(async (tx) => {
    await tx
      .update(tradeGuarantees)
      .set({ ...set, claimedAt: null, attempts: g.attempts + 1, updatedAt: at })
      .where(eq(tradeGuarantees.id, g.id));
    await writeOpLog(tx, SYSTEM_ACTOR, { glName: GL_GUARANTEE, gnCoding: GUARANTEE_NODE, recordId: g.id, logbook });
  });
}

/** Stores the issued PDF and marks the letter issued (the bytes go again when the rows cannot be written). */
async function storeIssued(deps: GuaranteeDeps, g: repo.GuaranteeRow, r: IssuerResult, pdf: Buffer, at: Date) {
  const key = newStorageKey();
  await deps.storage.put(key, pdf, pdf.length, 'application/pdf');
  try {
    await deps.db.transaction(async (tx) => {
      const s = (await repo.sectionById(tx, g.sectionId))!;
      const [f] = await tx
        .insert(files)
        .values({
          storageKey: key,
          fileName: `投标保函-${s.code}-${r.guaranteeNo}.pdf`.slice(0, 255),
          fileSize: pdf.length,
          md5: createHash('md5').update(pdf).digest('hex'),
          mime: 'application/pdf',
          extension: 'pdf',
          ownerId: g.applicantId,
          enterpriseId: g.enterpriseId,
          visibility: 'private',
          source: 'guarantee',
        })
        .returning({ id: files.id });
      await tx
        .update(tradeGuarantees)
        .set({
          status: 'issued',
          orderNo: r.orderNo,
          guaranteeNo: r.guaranteeNo!,
          issuedAt: r.issuedAt && !Number.isNaN(Date.parse(r.issuedAt)) ? new Date(r.issuedAt) : at,
          fileId: f!.id,
          lastError: null,
          claimedAt: null,
          attempts: g.attempts + 1,
          updatedAt: at,
        })
        .where(eq(tradeGuarantees.id, g.id));
      await writeOpLog(tx, SYSTEM_ACTOR, {
        glName: GL_GUARANTEE,
        gnCoding: GUARANTEE_NODE,
        recordId: g.id,
        logbook: `${g.issuerName ?? deps.issuer?.name ?? '出函机构'}出具投标保函 ${r.guaranteeNo}（标段 ${s.code} ${s.name}，${yuan(Number(g.amount))} 元），保函文件已保存`,
      });
    });
  } catch (e) {
    await deps.storage.delete(key).catch(() => undefined);
    throw e;
  }
}

/**
 * One step with the issuer for a letter waiting on it: send a requested application, or ask for the result of an
 * accepted one; an issued letter's PDF is fetched and stored. Nothing happens without an issuer, or when another
 * process holds the letter's lease. Errors become the letter's clear failure (a refused or unreachable application:
 * failed, to retry) or, while the issuer works on it, a note kept until the next question.
 */
export async function advance(deps: GuaranteeDeps, id: string): Promise<void> {
  const { db, issuer } = deps;
  if (!issuer) return;
  const at = deps.now();
  const [g] = await db
    .update(tradeGuarantees)
    .set({ claimedAt: at })
    .where(
      and(
        eq(tradeGuarantees.id, id),
        inArray(tradeGuarantees.status, ['requested', 'processing']),
        or(isNull(tradeGuarantees.claimedAt), lt(tradeGuarantees.claimedAt, new Date(at.getTime() - LEASE_MS))),
      ),
    )
    .returning();
  if (!g) return;
  try {
    const r =
      g.status === 'requested' || !g.orderNo
        ? await issuer.apply(await applicationOf(db, g))
        : await issuer.query(g.orderNo);
    if (r.status === 'issued') {
      await storeIssued(deps, { ...g, issuerName: g.issuerName ?? issuer.name }, r, await issuer.letter(r.orderNo), at);
    } else if (r.status === 'rejected') {
      const why = r.message ? `出函机构拒绝出函：${r.message}` : '出函机构拒绝出函';
      await settle(db, g, { status: 'failed', orderNo: r.orderNo, issuerName: issuer.name, lastError: why }, why, at);
    } else if (g.status === 'requested') {
      await settle(
        db,
        g,
        { status: 'processing', orderNo: r.orderNo, issuerName: issuer.name, lastError: null },
        `${issuer.name}已受理投标保函申请（受理编号 ${r.orderNo}）`,
        at,
      );
    } else {
      await db.update(tradeGuarantees).set({ claimedAt: null }).where(eq(tradeGuarantees.id, g.id));
    }
  } catch (e) {
    const message = e instanceof GuaranteeIssuerError ? e.message : '与出函机构通信时出错，请稍后重试';
    if (!(e instanceof GuaranteeIssuerError)) deps.log?.warn({ err: e, guarantee: g.id }, 'guarantee issuance failed');
    if (g.status === 'requested') {
      await settle(
        db,
        g,
        { status: 'failed', issuerName: issuer.name, lastError: message },
        `向出函机构申请出函失败：${message}`,
        at,
      );
    } else {
      // accepted by the issuer: the letter is still being made there; the next question asks again
      await settle(db, g, { lastError: message }, `查询出函结果失败：${message}`, at);
    }
  }
}

/** The letter's result: a letter waiting on the issuer is advanced once first. */
export async function result(deps: GuaranteeDeps, c: DepositCaller, id: string): Promise<Guarantee> {
  const r = await visibleLetter(deps.db, c, id);
  if (r.g.status === 'requested' || r.g.status === 'processing') await advance(deps, id);
  return viewById(deps.db, c, id);
}

/** A failed letter is requested again (its enterprise or the centre) and sent at once. */
export async function retry(deps: GuaranteeDeps, c: DepositCaller, id: string): Promise<Guarantee> {
  const r = await visibleLetter(deps.db, c, id);
  if (!(ownsLetter(c, r.g) || isCentre(c))) throw forbidden('只有申请单位或交易中心可以重新出函');
  if (!deps.issuer) throw conflict(G.notConfigured);
  const at = deps.now();
  try {
    await deps.db.transaction(async (tx) => {
      const g = await repo.guaranteeById(tx, id, true);
      if (g?.status !== 'failed') throw conflict(G.notRetryable);
      if (await repo.depositOf(tx, g.sectionId, g.enterpriseId)) throw conflict(G.alreadyPaid);
      await tx
        .update(tradeGuarantees)
        .set({ status: 'requested', orderNo: null, lastError: null, claimedAt: null, updatedAt: at })
        .where(eq(tradeGuarantees.id, g.id));
      await writeOpLog(tx, c.actor, {
        glName: GL_GUARANTEE,
        gnCoding: GUARANTEE_NODE,
        recordId: g.id,
        logbook: `重新向出函机构申请出具投标保函（上次：${g.lastError ?? '出函失败'}）`,
      });
    });
  } catch (e) {
    if (isUniqueViolation(e, 'trade_guarantees_live_uq')) throw conflict(G.alreadyApplied);
    throw e;
  }
  await advance(deps, id);
  return viewById(deps.db, c, id);
}

/** The issued letter's PDF: the applying enterprise and the centre (anyone else: 404). */
export async function sendLetter(
  deps: GuaranteeDeps,
  c: DepositCaller,
  id: string,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const r = await visibleLetter(deps.db, c, id);
  if (!(ownsLetter(c, r.g) || isCentre(c))) throw notFound(G.missing);
  if (r.g.status !== 'issued' || !r.g.fileId) throw conflict(G.notIssued);
  const [f] = await deps.db.select().from(files).where(eq(files.id, r.g.fileId));
  if (!f) throw notFound(G.notIssued);
  await writeOpLog(deps.db, c.actor, {
    glName: GL_GUARANTEE,
    gnCoding: GUARANTEE_NODE,
    recordId: r.g.id,
    logbook: `下载投标保函 ${r.g.guaranteeNo}（${f.fileName}）`,
  });
  return sendStored(req, reply, deps.storage, f, { inline: false, cacheControl: 'private, no-cache' });
}

/** One background pass: advances letters waiting on the issuer. */
export async function advancePending(deps: GuaranteeDeps): Promise<number> {
  if (!deps.issuer) return 0;
  const ids = await repo.pendingGuaranteeIds(deps.db);
  for (const id of ids) await advance(deps, id);
  return ids.length;
}
