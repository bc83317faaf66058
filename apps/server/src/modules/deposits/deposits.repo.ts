import { and, asc, desc, eq, inArray, notInArray, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import {
  enterprises,
  files,
  tenderRegistrations,
  tenderSections,
  tradeDepositDeadlines,
  tradeDeposits,
  tradeGuarantees,
} from '../../db/schema';
import { findSection, type SectionRow } from '../tender/section.repo';

/** Reads and writes of deposits and guarantee letters (parameterised through drizzle only). */

export type DepositRow = typeof tradeDeposits.$inferSelect;
export type GuaranteeRow = typeof tradeGuarantees.$inferSelect;
export type { SectionRow } from '../tender/section.repo';
export type DeadlineRow = typeof tradeDepositDeadlines.$inferSelect;

/** Letters that hold the section for their enterprise (not failed, not rejected). */
export const LIVE_GUARANTEE = ['applying', 'requested', 'processing', 'issued'] as const;

export function sectionById(q: DbOrTx, id: string): Promise<SectionRow | null> {
  return findSection(q, id);
}

export async function deadlineOf(q: DbOrTx, sectionId: string): Promise<DeadlineRow | null> {
  const [d] = await q.select().from(tradeDepositDeadlines).where(eq(tradeDepositDeadlines.sectionId, sectionId));
  return d ?? null;
}

/** Registrations with their section, enterprise and deposit (null: unpaid); `where` narrows them. */
export async function registrationRows(q: DbOrTx, where: SQL | undefined, limit = 500) {
  return q
    .select({
      reg: tenderRegistrations,
      section: tenderSections,
      enterpriseName: enterprises.name,
      deposit: tradeDeposits,
      deadline: tradeDepositDeadlines,
    })
    .from(tenderRegistrations)
    .innerJoin(tenderSections, eq(tenderSections.id, tenderRegistrations.sectionId))
    .innerJoin(enterprises, eq(enterprises.id, tenderRegistrations.enterpriseId))
    .leftJoin(
      tradeDeposits,
      and(
        eq(tradeDeposits.sectionId, tenderRegistrations.sectionId),
        eq(tradeDeposits.enterpriseId, tenderRegistrations.enterpriseId),
      ),
    )
    .leftJoin(tradeDepositDeadlines, eq(tradeDepositDeadlines.sectionId, tenderRegistrations.sectionId))
    .where(where)
    .orderBy(desc(tenderSections.bidDeadline), asc(tenderSections.code), asc(enterprises.name))
    .limit(limit);
}
export type RegistrationRow = Awaited<ReturnType<typeof registrationRows>>[number];

export const registrationsWhere = (opts: { enterpriseId?: string; sectionId?: string }) =>
  and(
    opts.enterpriseId ? eq(tenderRegistrations.enterpriseId, opts.enterpriseId) : undefined,
    opts.sectionId ? eq(tenderRegistrations.sectionId, opts.sectionId) : undefined,
  );

/** Guarantee letters with their section, enterprise and file; `where` narrows them. */
export async function guaranteeRows(q: DbOrTx, where: SQL | undefined, limit = 500) {
  return q
    .select({ g: tradeGuarantees, section: tenderSections, enterpriseName: enterprises.name, fileName: files.fileName })
    .from(tradeGuarantees)
    .innerJoin(tenderSections, eq(tenderSections.id, tradeGuarantees.sectionId))
    .innerJoin(enterprises, eq(enterprises.id, tradeGuarantees.enterpriseId))
    .leftJoin(files, eq(files.id, tradeGuarantees.fileId))
    .where(where)
    .orderBy(desc(tradeGuarantees.createdAt))
    .limit(limit);
}
export type GuaranteeListRow = Awaited<ReturnType<typeof guaranteeRows>>[number];

export const guaranteesWhere = (opts: { enterpriseId?: string; sectionId?: string; id?: string }) =>
  and(
    opts.enterpriseId ? eq(tradeGuarantees.enterpriseId, opts.enterpriseId) : undefined,
    opts.sectionId ? eq(tradeGuarantees.sectionId, opts.sectionId) : undefined,
    opts.id ? eq(tradeGuarantees.id, opts.id) : undefined,
  );

export async function guaranteeById(q: DbOrTx, id: string, lock = false): Promise<GuaranteeRow | null> {
  const base = q.select().from(tradeGuarantees).where(eq(tradeGuarantees.id, id));
  const [g] = lock ? await base.for('update') : await base;
  return g ?? null;
}

/** The letter of this enterprise and section that holds it (not failed or rejected), if any. */
export async function liveGuarantee(q: DbOrTx, sectionId: string, enterpriseId: string) {
  const [g] = await q
    .select()
    .from(tradeGuarantees)
    .where(
      and(
        eq(tradeGuarantees.sectionId, sectionId),
        eq(tradeGuarantees.enterpriseId, enterpriseId),
        inArray(tradeGuarantees.status, [...LIVE_GUARANTEE]),
      ),
    );
  return g ?? null;
}

/** Locks the registration (serialises a payment and a guarantee application of one bidder for one section). */
export async function lockRegistration(tx: Tx, sectionId: string, enterpriseId: string) {
  const [r] = await tx
    .select()
    .from(tenderRegistrations)
    .where(and(eq(tenderRegistrations.sectionId, sectionId), eq(tenderRegistrations.enterpriseId, enterpriseId)))
    .for('update');
  return r ?? null;
}

export async function depositById(q: DbOrTx, id: string, lock = false): Promise<DepositRow | null> {
  const base = q.select().from(tradeDeposits).where(eq(tradeDeposits.id, id));
  const [d] = lock ? await base.for('update') : await base;
  return d ?? null;
}

export async function depositOf(q: DbOrTx, sectionId: string, enterpriseId: string): Promise<DepositRow | null> {
  const [d] = await q
    .select()
    .from(tradeDeposits)
    .where(and(eq(tradeDeposits.sectionId, sectionId), eq(tradeDeposits.enterpriseId, enterpriseId)));
  return d ?? null;
}

/** Issued letters of a section (their enterprises), for the section's counts. */
export async function issuedOf(q: DbOrTx, sectionId: string) {
  return q
    .select({ enterpriseId: tradeGuarantees.enterpriseId })
    .from(tradeGuarantees)
    .where(and(eq(tradeGuarantees.sectionId, sectionId), eq(tradeGuarantees.status, 'issued')));
}

/** Letters a background pass should advance (waiting for the issuer). */
export async function pendingGuaranteeIds(q: DbOrTx, limit = 20): Promise<string[]> {
  const rows = await q
    .select({ id: tradeGuarantees.id })
    .from(tradeGuarantees)
    .where(notInArray(tradeGuarantees.status, ['applying', 'rejected', 'issued', 'failed']))
    .orderBy(asc(tradeGuarantees.updatedAt))
    .limit(limit);
  return rows.map((r) => r.id);
}
