import { createHash } from 'node:crypto';
import {
  type Deposit,
  type DepositSectionStatus,
  type DepositStatus,
  type IssuerInfo,
  DEPOSIT_MESSAGES as M,
  wallClockOf,
} from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tradeDepositDeadlines, tradeDeposits } from '../../db/schema';
import { isUniqueViolation } from '../../db/sql';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import type { AuthContext } from '../auth/auth.service';
import { projects } from '../tender/project';
import { registrationOf } from '../tender/registration.service';
import { findSection } from '../tender/section.repo';
import { sectionForReader } from '../tender/tender.service';
import * as repo from './deposits.repo';

/**
 * Bid deposits (投标保证金, issue 16). Only a registered bidder of a section has a deposit for it, of exactly the
 * section's deposit; it moves only forward — unpaid → paid (the bidder records the payment into the centre's virtual
 * sub-account, before the payment deadline) → received (the centre confirms it arrived) → refunded (the centre, after
 * the bid deadline) — each step with its time and actor, each with an operation-log row. An issued guarantee letter
 * secures the deposit in place of cash. Who registered stays hidden: a bidder sees their own deposit, the tenderee's
 * side sees counts, the trading centre (M; developers read) sees every bidder's.
 */

export interface DepositCaller {
  id: string;
  userName: string;
  loginRoleType: string;
  enterpriseId: string | null;
  actor: Actor;
}

export const depositCallerOf = (auth: AuthContext): DepositCaller => ({
  id: auth.user.id,
  userName: auth.user.userName,
  loginRoleType: auth.user.loginRoleType,
  enterpriseId: auth.user.enterpriseId ?? null,
  actor: auth.actor,
});

export const GL_DEPOSIT = '投标保证金';
const DAY = 86_400_000;
const isCentre = (c: DepositCaller) => c.loginRoleType === 'M';
const readsAll = (c: DepositCaller) => c.loginRoleType === 'M' || c.loginRoleType === 'D';
const yuan = (n: number) => n.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const cents = (n: number) => Math.round(n * 100);
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * The centre's virtual sub-account (虚拟子账号) of one bidder for one section: the settlement account's prefix and 15
 * digits that only this pair yields, so the bank's credit names who paid for what.
 */
export function virtualAccountOf(sectionId: string, enterpriseId: string): string {
  const h = createHash('sha256').update(`${sectionId}:${enterpriseId}`).digest();
  return `1405${(h.readBigUInt64BE(0) % 10n ** 15n).toString().padStart(15, '0')}`;
}

/** The payment deadline: as the centre extended it, else a day before the bid deadline. */
export const dueAtOf = (s: repo.SectionRow, d: repo.DeadlineRow | null): Date =>
  d ? d.dueAt : new Date(s.bidDeadline.getTime() - DAY);

export interface DepositContext {
  issuer: IssuerInfo;
  now: Date;
}

/** Project name and code of each section's project (engine records, read through the tender module's accessor). */
async function projectNames(db: Db, projectIds: string[]) {
  const out = new Map<string, { name: string | null; code: string | null }>();
  for (const id of new Set(projectIds)) {
    const p = await projects.get(db, id);
    out.set(id, { name: p?.values.xmmc ?? null, code: p?.values.xmbh ?? null });
  }
  return out;
}

export function depositView(
  row: {
    section: repo.SectionRow;
    enterpriseId: string;
    enterpriseName: string;
    deposit: repo.DepositRow | null;
    deadline: repo.DeadlineRow | null;
  },
  guarantee: repo.GuaranteeRow | null,
  project: { name: string | null; code: string | null } | undefined,
  c: DepositCaller,
  ctx: DepositContext,
): Deposit {
  const { section: s, deposit: d } = row;
  const status: DepositStatus = (d?.status as DepositStatus | undefined) ?? 'unpaid';
  const issued = guarantee?.status === 'issued';
  const securedBy = status === 'received' ? 'cash' : issued ? 'guarantee' : null;
  const due = dueAtOf(s, row.deadline);
  const own = c.loginRoleType === 'U' && c.enterpriseId === row.enterpriseId;
  const open = status === 'unpaid' && !guarantee;
  return {
    id: d?.id ?? null,
    sectionId: s.id,
    sectionCode: s.code,
    sectionName: s.name,
    projectId: s.projectId,
    projectName: project?.name ?? null,
    projectCode: project?.code ?? null,
    enterpriseId: row.enterpriseId,
    enterpriseName: row.enterpriseName,
    amount: Number(s.deposit),
    virtualAccount: virtualAccountOf(s.id, row.enterpriseId),
    status,
    secured: securedBy !== null,
    securedBy,
    payerAccount: d?.payerAccount ?? null,
    payerBank: d?.payerBank ?? null,
    paidAt: iso(d?.paidAt),
    paidBy: d?.paidByName ?? null,
    receivedAt: iso(d?.receivedAt),
    receivedBy: d?.receivedByName ?? null,
    refundedAt: iso(d?.refundedAt),
    refundedBy: d?.refundedByName ?? null,
    refundNote: d?.refundNote ?? null,
    dueAt: due.toISOString(),
    bidDeadline: s.bidDeadline.toISOString(),
    version: d?.version ?? 0,
    operations: {
      pay: own && open && ctx.now < due,
      receive: isCentre(c) && status === 'paid',
      refund: isCentre(c) && status === 'received' && ctx.now >= s.bidDeadline,
      applyGuarantee: own && open && ctx.issuer.configured && ctx.now < s.bidDeadline,
    },
  };
}

/** Deposits of the registrations `where` picks, with the live letter of each. */
async function depositsOf(
  db: Db,
  c: DepositCaller,
  where: Parameters<typeof repo.registrationsWhere>[0],
  ctx: DepositContext,
) {
  const rows = await repo.registrationRows(db, repo.registrationsWhere(where));
  const letters = await repo.guaranteeRows(
    db,
    repo.guaranteesWhere({ enterpriseId: where.enterpriseId, sectionId: where.sectionId }),
  );
  const live = new Map<string, repo.GuaranteeRow>();
  for (const l of letters) {
    if ((repo.LIVE_GUARANTEE as readonly string[]).includes(l.g.status))
      live.set(`${l.g.sectionId}:${l.g.enterpriseId}`, l.g);
  }
  const names = await projectNames(
    db,
    rows.map((r) => r.section.projectId),
  );
  return rows.map((r) =>
    depositView(
      {
        section: r.section,
        enterpriseId: r.reg.enterpriseId,
        enterpriseName: r.enterpriseName,
        deposit: r.deposit,
        deadline: r.deadline,
      },
      live.get(`${r.section.id}:${r.reg.enterpriseId}`) ?? null,
      names.get(r.section.projectId),
      c,
      ctx,
    ),
  );
}

/** The bidder's deposits (their enterprise's registrations) or, for the centre and developers, everyone's. */
export async function listDeposits(db: Db, c: DepositCaller, sectionId: string | undefined, ctx: DepositContext) {
  if (readsAll(c)) return depositsOf(db, c, { sectionId }, ctx);
  if (!c.enterpriseId) return [];
  return depositsOf(db, c, { enterpriseId: c.enterpriseId, sectionId }, ctx);
}

/**
 * One section's deposits: counts for whoever may look (its registered bidders, whoever may read the project: its
 * side, its reviewers and supervisors), the caller's own deposit, and every bidder's for the centre. Anyone else: 404.
 */
export async function sectionStatus(
  db: Db,
  c: DepositCaller,
  sectionId: string,
  ctx: DepositContext,
): Promise<DepositSectionStatus> {
  const s = await repo.sectionById(db, sectionId);
  if (!s) throw notFound(M.sectionMissing);
  const registered = c.enterpriseId && c.loginRoleType === 'U' ? await registrationOf(db, s.id, c.enterpriseId) : null;
  // the counts to whoever may read the project (its side, its reviewers, its supervisors): 404 for anyone else
  if (!readsAll(c) && !registered) await sectionForReader(db, c, s.id);
  const all = await depositsOf(db, c, { sectionId: s.id }, ctx);
  const counts = { registered: all.length, unpaid: 0, paid: 0, received: 0, refunded: 0, guaranteed: 0, secured: 0 };
  for (const d of all) {
    if (d.securedBy === 'guarantee') counts.guaranteed++;
    else counts[d.status]++;
    if (d.secured) counts.secured++;
  }
  const deadline = await repo.deadlineOf(db, s.id);
  return {
    sectionId: s.id,
    amount: Number(s.deposit),
    dueAt: dueAtOf(s, deadline).toISOString(),
    bidDeadline: s.bidDeadline.toISOString(),
    delayReason: deadline?.reason ?? null,
    counts,
    mine: registered ? (all.find((d) => d.enterpriseId === c.enterpriseId) ?? null) : null,
    records: readsAll(c) ? all : [],
    canDelay: isCentre(c) && ctx.now < s.bidDeadline,
  };
}

async function viewOf(db: Db, c: DepositCaller, sectionId: string, enterpriseId: string, ctx: DepositContext) {
  const [d] = await depositsOf(db, c, { sectionId, enterpriseId }, ctx);
  if (!d) throw notFound(M.depositMissing);
  return d;
}

/** The caller's enterprise, registered for the section (else 403 with the reason). */
async function bidderOf(db: Db, c: DepositCaller, sectionId: string) {
  if (c.loginRoleType !== 'U') throw forbidden(M.notRegistered);
  if (!c.enterpriseId) throw forbidden(M.noEnterprise);
  const s = await repo.sectionById(db, sectionId);
  if (!s) throw notFound(M.sectionMissing);
  if (!(await registrationOf(db, s.id, c.enterpriseId))) throw forbidden(M.notRegistered);
  return { section: s, enterpriseId: c.enterpriseId };
}

/** The bidder records the payment of the section's deposit (unpaid → paid). */
export async function pay(
  db: Db,
  c: DepositCaller,
  body: { sectionId: string; amount: number; payerAccount: string; payerBank: string },
  ctx: DepositContext,
): Promise<Deposit> {
  const { section: s, enterpriseId } = await bidderOf(db, c, body.sectionId);
  const deposit = Number(s.deposit);
  if (cents(body.amount) !== cents(deposit)) throw badRequest(M.amountMismatch(yuan(deposit)));
  try {
    await db.transaction(async (tx) => {
      if (!(await repo.lockRegistration(tx, s.id, enterpriseId))) throw forbidden(M.notRegistered);
      const due = dueAtOf(s, await repo.deadlineOf(tx, s.id));
      if (ctx.now >= due) throw conflict(M.duepassed(wallClockOf(due)));
      if (await repo.depositOf(tx, s.id, enterpriseId)) throw conflict(M.alreadyPaid);
      const g = await repo.liveGuarantee(tx, s.id, enterpriseId);
      if (g) throw conflict(g.status === 'issued' ? M.securedByGuarantee : M.guaranteeUnderWay);
      const virtualAccount = virtualAccountOf(s.id, enterpriseId);
      const [row] = await tx
        .insert(tradeDeposits)
        .values({
          sectionId: s.id,
          enterpriseId,
          amount: deposit,
          status: 'paid',
          virtualAccount,
          payerAccount: body.payerAccount,
          payerBank: body.payerBank,
          paidAt: ctx.now,
          paidBy: c.id,
          paidByName: c.userName,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning();
      await writeOpLog(tx, c.actor, {
        glName: GL_DEPOSIT,
        recordId: row!.id,
        logbook: `缴纳标段 ${s.code} ${s.name} 的投标保证金 ${yuan(deposit)} 元：付款账号 ${body.payerAccount}（${body.payerBank}），汇入虚拟子账号 ${virtualAccount}`,
      });
    });
  } catch (e) {
    if (isUniqueViolation(e, 'trade_deposits_section_ent_uq')) throw conflict(M.alreadyPaid);
    throw e;
  }
  return viewOf(db, c, s.id, enterpriseId, ctx);
}

/** The centre confirms the money arrived (paid → received). */
export async function receive(
  db: Db,
  c: DepositCaller,
  body: { id: string; version?: number },
  ctx: DepositContext,
): Promise<Deposit> {
  if (!isCentre(c)) throw forbidden(M.centreOnly);
  const d = await db.transaction(async (tx) => {
    const d = await repo.depositById(tx, body.id, true);
    if (!d) throw notFound(M.depositMissing);
    if (d.status === 'received') throw conflict(M.alreadyReceived);
    if (d.status === 'refunded') throw conflict(M.alreadyRefunded);
    if (body.version !== undefined && body.version !== d.version) throw conflict(M.stale);
    await tx
      .update(tradeDeposits)
      .set({
        status: 'received',
        receivedAt: ctx.now,
        receivedBy: c.id,
        receivedByName: c.userName,
        version: d.version + 1,
        updatedAt: ctx.now,
      })
      .where(and(eq(tradeDeposits.id, d.id), eq(tradeDeposits.status, 'paid')));
    const s = (await repo.sectionById(tx, d.sectionId))!;
    await writeOpLog(tx, c.actor, {
      glName: GL_DEPOSIT,
      recordId: d.id,
      logbook: `确认标段 ${s.code} ${s.name} 的投标保证金 ${yuan(Number(d.amount))} 元到账（虚拟子账号 ${d.virtualAccount}）`,
    });
    return d;
  });
  return viewOf(db, c, d.sectionId, d.enterpriseId, ctx);
}

/** The centre refunds a received deposit after the bid deadline (received → refunded). */
export async function refund(
  db: Db,
  c: DepositCaller,
  body: { id: string; version?: number; note: string },
  ctx: DepositContext,
): Promise<Deposit> {
  if (!isCentre(c)) throw forbidden(M.centreOnly);
  const d = await db.transaction(async (tx) => {
    const d = await repo.depositById(tx, body.id, true);
    if (!d) throw notFound(M.depositMissing);
    if (d.status === 'refunded') throw conflict(M.alreadyRefunded);
    if (d.status !== 'received') throw conflict(M.notReceived);
    if (body.version !== undefined && body.version !== d.version) throw conflict(M.stale);
    const s = (await repo.sectionById(tx, d.sectionId))!;
    if (ctx.now < s.bidDeadline) throw conflict(M.refundBeforeDeadline);
    await tx
      .update(tradeDeposits)
      .set({
        status: 'refunded',
        refundedAt: ctx.now,
        refundedBy: c.id,
        refundedByName: c.userName,
        refundNote: body.note,
        version: d.version + 1,
        updatedAt: ctx.now,
      })
      .where(and(eq(tradeDeposits.id, d.id), eq(tradeDeposits.status, 'received')));
    await writeOpLog(tx, c.actor, {
      glName: GL_DEPOSIT,
      recordId: d.id,
      logbook: `退还标段 ${s.code} ${s.name} 的投标保证金 ${yuan(Number(d.amount))} 元至付款账号 ${d.payerAccount}（${body.note}）`,
    });
    return d;
  });
  return viewOf(db, c, d.sectionId, d.enterpriseId, ctx);
}

/** The centre extends a section's payment deadline, with a reason, never past the bid deadline. */
export async function delay(
  db: Db,
  c: DepositCaller,
  body: { sectionId: string; dueAt: string; reason: string },
  ctx: DepositContext,
): Promise<DepositSectionStatus> {
  if (!isCentre(c)) throw forbidden(M.centreOnly);
  const next = new Date(body.dueAt);
  await db.transaction(async (tx) => {
    const s = await findSection(tx, body.sectionId, 'update');
    if (!s) throw notFound(M.sectionMissing);
    if (ctx.now >= s.bidDeadline) throw conflict(M.delayAfterDeadline);
    if (next > s.bidDeadline) throw badRequest(M.delayPastDeadline);
    const old = await repo.deadlineOf(tx, s.id);
    const current = dueAtOf(s, old);
    if (next <= current || next <= ctx.now) throw badRequest(M.delayNotLater);
    const values = {
      dueAt: next,
      reason: body.reason,
      setBy: c.id,
      setByName: c.userName,
      setAt: ctx.now,
    };
    await tx
      .insert(tradeDepositDeadlines)
      .values({ sectionId: s.id, ...values })
      .onConflictDoUpdate({ target: tradeDepositDeadlines.sectionId, set: values });
    await writeOpLog(tx, c.actor, {
      glName: GL_DEPOSIT,
      recordId: s.id,
      logbook: `延长标段 ${s.code} ${s.name} 的保证金缴纳截止时间：${wallClockOf(current)} → ${wallClockOf(next)}（原因：${body.reason}）`,
    });
  });
  return sectionStatus(db, c, body.sectionId, ctx);
}
