import type { EnterpriseChangeItem, EnterpriseChangeStatus } from '@ks/contracts';
import { and, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from '../../db/client';
import { enterpriseChanges, enterprises, users } from '../../db/schema';
import { likePattern } from '../../db/sql';

/** Database access of enterprise changes (企业信息变更): proposals that wait for an administrator. */

export type ChangeRow = typeof enterpriseChanges.$inferSelect;
export type EnterpriseFieldValues = Record<string, string | null>;

const submitter = alias(users, 'submitter');
const decider = alias(users, 'decider');

const viewColumns = {
  change: enterpriseChanges,
  enterpriseName: enterprises.name,
  creditCode: enterprises.creditCode,
  submittedByName: submitter.userName,
  decidedByName: decider.userName,
};

function viewQuery(db: DbOrTx) {
  return db
    .select(viewColumns)
    .from(enterpriseChanges)
    .innerJoin(enterprises, eq(enterprises.id, enterpriseChanges.enterpriseId))
    .innerJoin(submitter, eq(submitter.id, enterpriseChanges.submittedBy))
    .leftJoin(decider, eq(decider.id, enterpriseChanges.decidedBy));
}
export type ChangeView = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number];

/** The enterprise row, locked for the rest of the transaction: submissions and decisions of one enterprise queue up. */
export async function lockEnterprise(tx: Tx, id: string) {
  const [row] = await tx.select().from(enterprises).where(eq(enterprises.id, id)).for('update');
  return row;
}

export async function pendingOf(db: DbOrTx, enterpriseId: string): Promise<ChangeRow | undefined> {
  const [row] = await db
    .select()
    .from(enterpriseChanges)
    .where(and(eq(enterpriseChanges.enterpriseId, enterpriseId), eq(enterpriseChanges.status, 'pending')));
  return row;
}

/** The enterprise's latest change (a pending one is always the latest: none is created while one waits). */
export async function latestOf(db: DbOrTx, enterpriseId: string): Promise<ChangeView | undefined> {
  const [row] = await viewQuery(db)
    .where(eq(enterpriseChanges.enterpriseId, enterpriseId))
    .orderBy(desc(enterpriseChanges.submittedAt), desc(enterpriseChanges.id))
    .limit(1);
  return row;
}

export async function viewOf(db: DbOrTx, id: string): Promise<ChangeView | undefined> {
  const [row] = await viewQuery(db).where(eq(enterpriseChanges.id, id));
  return row;
}

export async function findChange(db: DbOrTx, id: string): Promise<ChangeRow | undefined> {
  const [row] = await db.select().from(enterpriseChanges).where(eq(enterpriseChanges.id, id));
  return row;
}

export async function insertChange(
  tx: Tx,
  v: {
    enterpriseId: string;
    values: EnterpriseFieldValues;
    items: EnterpriseChangeItem[];
    submittedBy: string;
    at: Date;
  },
): Promise<ChangeRow> {
  const [row] = await tx
    .insert(enterpriseChanges)
    .values({
      enterpriseId: v.enterpriseId,
      values: v.values,
      items: v.items,
      submittedBy: v.submittedBy,
      submittedAt: v.at,
    })
    .returning();
  return row!;
}

/** A new proposal replaces the pending one (same row, next version); undefined when it was decided meanwhile. */
export async function reviseChange(
  tx: Tx,
  id: string,
  v: { values: EnterpriseFieldValues; items: EnterpriseChangeItem[]; submittedBy: string; at: Date },
): Promise<ChangeRow | undefined> {
  const [row] = await tx
    .update(enterpriseChanges)
    .set({
      values: v.values,
      items: v.items,
      submittedBy: v.submittedBy,
      submittedAt: v.at,
      version: sql`${enterpriseChanges.version} + 1`,
    })
    .where(and(eq(enterpriseChanges.id, id), eq(enterpriseChanges.status, 'pending')))
    .returning();
  return row;
}

/** pending → approved | rejected, only from the version the reviewer saw. */
export async function decideChange(
  tx: Tx,
  id: string,
  version: number,
  d: { status: Exclude<EnterpriseChangeStatus, 'pending'>; decidedBy: string; reason: string | null; at: Date },
): Promise<ChangeRow | undefined> {
  const [row] = await tx
    .update(enterpriseChanges)
    .set({ status: d.status, decidedBy: d.decidedBy, decidedAt: d.at, reason: d.reason })
    .where(
      and(
        eq(enterpriseChanges.id, id),
        eq(enterpriseChanges.status, 'pending'),
        eq(enterpriseChanges.version, version),
      ),
    )
    .returning();
  return row;
}

const COLUMN_OF = {
  legalPerson: { col: enterprises.legalPerson, cast: sql`` },
  region: { col: enterprises.region, cast: sql`` },
  address: { col: enterprises.address, cast: sql`` },
  registeredCapital: { col: enterprises.registeredCapital, cast: sql`::numeric` },
  establishedAt: { col: enterprises.establishedAt, cast: sql`::date` },
} as const;
export type ChangeField = keyof typeof COLUMN_OF;
export const isChangeField = (f: string): f is ChangeField => f in COLUMN_OF;

/**
 * Write an approved change into the enterprise — only while every changed field still holds the value the change was
 * based on (a field edited meanwhile by an administrator is not silently overwritten). Undefined when one differs.
 */
export async function applyChange(tx: Tx, enterpriseId: string, items: EnterpriseChangeItem[], at: Date) {
  const set: Record<string, unknown> = { updatedAt: at };
  const same: SQL[] = [];
  for (const item of items) {
    if (!isChangeField(item.field)) continue;
    const { col, cast } = COLUMN_OF[item.field];
    set[item.field] = item.newValue;
    same.push(sql`${col} is not distinct from ${item.oldValue}${cast}`);
  }
  const [row] = await tx
    .update(enterprises)
    .set(set)
    .where(and(eq(enterprises.id, enterpriseId), ...same))
    .returning();
  return row;
}

export interface ChangeFilter {
  status: EnterpriseChangeStatus;
  keyword?: string;
  pageNum: number;
  pageSize: number;
}

export async function listChanges(db: DbOrTx, f: ChangeFilter) {
  const conds: SQL[] = [eq(enterpriseChanges.status, f.status)];
  if (f.keyword) {
    const p = likePattern(f.keyword);
    conds.push(or(ilike(enterprises.name, p), ilike(enterprises.creditCode, p))!);
  }
  const where = and(...conds);
  // pending: the oldest first (first come, first served); decided: the latest decision first
  const order =
    f.status === 'pending'
      ? [enterpriseChanges.submittedAt, enterpriseChanges.id]
      : [desc(enterpriseChanges.decidedAt), desc(enterpriseChanges.id)];
  const records = await viewQuery(db)
    .where(where)
    .orderBy(...order)
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize);
  const [total] = await db
    .select({ n: count() })
    .from(enterpriseChanges)
    .innerJoin(enterprises, eq(enterprises.id, enterpriseChanges.enterpriseId))
    .where(where);
  return { records, total: Number(total?.n ?? 0) };
}

/** Ids of the given enterprises that have a pending change. */
export async function pendingAmong(db: DbOrTx, enterpriseIds: string[]): Promise<Set<string>> {
  if (!enterpriseIds.length) return new Set();
  const rows = await db
    .select({ id: enterpriseChanges.enterpriseId })
    .from(enterpriseChanges)
    .where(and(eq(enterpriseChanges.status, 'pending'), inArray(enterpriseChanges.enterpriseId, enterpriseIds)));
  return new Set(rows.map((r) => r.id));
}
