import { AGENCY_TYPE, type MarketKind, type MarketListQuery } from '@ks/contracts';
import { and, asc, count, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { creditRecords, enterprises, performances, practitioners, qualifications } from '../../db/schema';
import { likePattern } from '../../db/sql';

/** The highest level first, ungraded last: levels are score bands, whatever titles administrators give them. */
const gradeRank = (col: typeof enterprises.creditScore | typeof practitioners.creditScore) =>
  sql`${col} desc nulls last`;

export async function enterpriseTypes(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .selectDistinct({ t: enterprises.enterpriseType })
    .from(enterprises)
    .orderBy(asc(enterprises.enterpriseType));
  return rows.map((r) => r.t);
}

export async function practiceAreas(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .selectDistinct({ a: practitioners.practiceArea })
    .from(practitioners)
    .orderBy(asc(practitioners.practiceArea));
  return rows.map((r) => r.a);
}

export async function countEnterprises(db: DbOrTx): Promise<number> {
  const [r] = await db.select({ n: count() }).from(enterprises);
  return Number(r?.n ?? 0);
}

export async function listEnterprises(db: DbOrTx, q: MarketListQuery) {
  const conds: SQL[] = [
    q.kind === 'agency' ? eq(enterprises.enterpriseType, AGENCY_TYPE) : ne(enterprises.enterpriseType, AGENCY_TYPE),
  ];
  if (q.kind === 'enterprise' && q.enterpriseType) conds.push(eq(enterprises.enterpriseType, q.enterpriseType));
  if (q.creditGrade) conds.push(eq(enterprises.creditGrade, q.creditGrade));
  if (q.keyword) {
    const p = likePattern(q.keyword);
    conds.push(or(ilike(enterprises.name, p), ilike(enterprises.creditCode, p))!);
  }
  const where = and(...conds);
  const records = await db
    .select()
    .from(enterprises)
    .where(where)
    .orderBy(gradeRank(enterprises.creditScore), asc(enterprises.name), asc(enterprises.id))
    .limit(q.pageSize)
    .offset((q.pageNum - 1) * q.pageSize);
  const [total] = await db.select({ n: count() }).from(enterprises).where(where);
  return { records, total: Number(total?.n ?? 0) };
}

export async function listPractitioners(db: DbOrTx, q: MarketListQuery) {
  const conds: SQL[] = [];
  if (q.practiceArea) conds.push(eq(practitioners.practiceArea, q.practiceArea));
  if (q.creditGrade) conds.push(eq(practitioners.creditGrade, q.creditGrade));
  if (q.keyword) conds.push(ilike(practitioners.name, likePattern(q.keyword)));
  const where = conds.length ? and(...conds) : undefined;
  const records = await db
    .select({ p: practitioners, enterpriseName: enterprises.name })
    .from(practitioners)
    .leftJoin(enterprises, eq(enterprises.id, practitioners.enterpriseId))
    .where(where)
    .orderBy(gradeRank(practitioners.creditScore), asc(practitioners.name), asc(practitioners.id))
    .limit(q.pageSize)
    .offset((q.pageNum - 1) * q.pageSize);
  const [total] = await db.select({ n: count() }).from(practitioners).where(where);
  return { records, total: Number(total?.n ?? 0) };
}

export async function findEnterprise(db: DbOrTx, id: string) {
  const [row] = await db.select().from(enterprises).where(eq(enterprises.id, id));
  return row;
}

export async function findPractitioner(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ p: practitioners, enterpriseName: enterprises.name })
    .from(practitioners)
    .leftJoin(enterprises, eq(enterprises.id, practitioners.enterpriseId))
    .where(eq(practitioners.id, id));
  return row;
}

type OwnerKind = Exclude<MarketKind, 'agency'>;

export async function ownerRecords(db: DbOrTx, ownerKind: OwnerKind, ownerId: string) {
  const owner = (t: typeof qualifications | typeof performances | typeof creditRecords) =>
    and(eq(t.ownerKind, ownerKind), eq(t.ownerId, ownerId));
  const [quals, perfs, credits] = await Promise.all([
    db.select().from(qualifications).where(owner(qualifications)).orderBy(asc(qualifications.name)),
    db.select().from(performances).where(owner(performances)).orderBy(sql`${performances.completedAt} desc nulls last`),
    db
      .select()
      .from(creditRecords)
      .where(and(owner(creditRecords), eq(creditRecords.isPublic, true)))
      .orderBy(sql`${creditRecords.startDate} desc`),
  ]);
  return { quals, perfs, credits };
}
