import { type ENTERPRISE_FIELD_LABELS, type EnterpriseChangeStatus, RFC_AREAS } from '@ks/contracts';
import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { creditChanges, enterprises } from '../../db/schema';
import { likePattern } from '../../db/sql';

/**
 * The enterprise information changes (企业信息变更) as the accounts calls show them: since issue 13 they are the change
 * rounds of the 企业信息 area (credit_changes, gn_coding XYGL_QYXX; modules/credit/changes), shown in the older shape:
 * '1' → pending, '2' → approved, '-1' → rejected.
 */

const AREA = RFC_AREAS.enterprise;
export type ChangeRow = typeof creditChanges.$inferSelect;

/** data items' field codes → the accounts field names */
const FIELD_OF: Record<string, keyof typeof ENTERPRISE_FIELD_LABELS | 'contact'> = {
  legal_person: 'legalPerson',
  region: 'region',
  address: 'address',
  registered_capital: 'registeredCapital',
  established_at: 'establishedAt',
  contact: 'contact',
};
export const fieldOf = (code: string) => FIELD_OF[code] ?? code;

export const STATUS_OF: Record<string, EnterpriseChangeStatus> = { '1': 'pending', '2': 'approved', '-1': 'rejected' };
const CODE_OF: Record<EnterpriseChangeStatus, string> = { pending: '1', approved: '2', rejected: '-1' };

const viewColumns = { change: creditChanges, enterpriseName: enterprises.name, creditCode: enterprises.creditCode };

function viewQuery(db: DbOrTx) {
  return db
    .select(viewColumns)
    .from(creditChanges)
    .innerJoin(enterprises, eq(enterprises.id, creditChanges.enterpriseId));
}
export type ChangeView = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number];

export async function lockEnterprise(tx: Tx, id: string) {
  const [row] = await tx.select().from(enterprises).where(eq(enterprises.id, id)).for('update');
  return row;
}

/** The open round's new values by accounts field name (the company-info gate counts them as given). */
export async function pendingOf(
  db: DbOrTx,
  enterpriseId: string,
): Promise<{ values: Record<string, string | null> } | undefined> {
  const [row] = await db
    .select()
    .from(creditChanges)
    .where(
      and(eq(creditChanges.gnCoding, AREA), eq(creditChanges.businessId, enterpriseId), eq(creditChanges.status, '1')),
    );
  if (!row) return undefined;
  return { values: Object.fromEntries(row.dataList.map((d) => [fieldOf(d.changeField), d.newValue])) };
}

/** The enterprise's latest round. */
export async function latestOf(db: DbOrTx, enterpriseId: string): Promise<ChangeView | undefined> {
  const [row] = await viewQuery(db)
    .where(and(eq(creditChanges.gnCoding, AREA), eq(creditChanges.businessId, enterpriseId)))
    .orderBy(desc(creditChanges.round))
    .limit(1);
  return row;
}

export async function viewOf(db: DbOrTx, id: string): Promise<ChangeView | undefined> {
  const [row] = await viewQuery(db).where(and(eq(creditChanges.id, id), eq(creditChanges.gnCoding, AREA)));
  return row;
}

export interface ChangeFilter {
  status: EnterpriseChangeStatus;
  keyword?: string;
  pageNum: number;
  pageSize: number;
}

/** Submitted rounds of the area: pending (submitted, waiting) oldest first; decided ones latest decision first. */
export async function listChanges(db: DbOrTx, f: ChangeFilter) {
  const conds: SQL[] = [
    eq(creditChanges.gnCoding, AREA),
    eq(creditChanges.status, CODE_OF[f.status]),
    eq(creditChanges.submitted, true),
  ];
  if (f.keyword) {
    const p = likePattern(f.keyword);
    conds.push(or(ilike(enterprises.name, p), ilike(enterprises.creditCode, p))!);
  }
  const where = and(...conds);
  const order =
    f.status === 'pending'
      ? [asc(creditChanges.sbTime), asc(creditChanges.id)]
      : [desc(creditChanges.czTime), desc(creditChanges.id)];
  const records = await viewQuery(db)
    .where(where)
    .orderBy(...order)
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize);
  const [total] = await db
    .select({ n: count() })
    .from(creditChanges)
    .innerJoin(enterprises, eq(enterprises.id, creditChanges.enterpriseId))
    .where(where);
  return { records, total: Number(total?.n ?? 0) };
}

/** Ids of the given enterprises that have an open round. */
export async function pendingAmong(db: DbOrTx, enterpriseIds: string[]): Promise<Set<string>> {
  if (!enterpriseIds.length) return new Set();
  const rows = await db
    .select({ id: creditChanges.businessId })
    .from(creditChanges)
    .where(
      and(
        eq(creditChanges.gnCoding, AREA),
        eq(creditChanges.status, '1'),
        inArray(creditChanges.businessId, enterpriseIds),
      ),
    );
  return new Set(rows.map((r) => r.id));
}
