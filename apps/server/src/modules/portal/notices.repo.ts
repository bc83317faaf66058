import type { NoticeListQuery } from '@ks/contracts';
import { and, count, desc, eq, gte, ilike, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { notices } from '../../db/schema';
import { likePattern } from '../../db/sql';

export type NoticeRow = typeof notices.$inferSelect;

/** Start of a calendar day in China Standard Time. */
function cstDay(d: string, addDays = 0): Date {
  const t = new Date(`${d}T00:00:00+08:00`);
  return new Date(t.getTime() + addDays * 86_400_000);
}

const summaryColumns = {
  id: notices.id,
  title: notices.title,
  category: notices.category,
  tradeType: notices.tradeType,
  region: notices.region,
  projectCode: notices.projectCode,
  publishedAt: notices.publishedAt,
};

export function publishedConditions(q: Partial<NoticeListQuery>): SQL[] {
  const conds: SQL[] = [eq(notices.status, 'published')];
  if (q.category) conds.push(eq(notices.category, q.category));
  if (q.tradeType) conds.push(eq(notices.tradeType, q.tradeType));
  if (q.region) conds.push(eq(notices.region, q.region));
  if (q.startDate) conds.push(gte(notices.publishedAt, cstDay(q.startDate)));
  if (q.endDate) conds.push(lt(notices.publishedAt, cstDay(q.endDate, 1)));
  if (q.keyword) conds.push(ilike(notices.title, likePattern(q.keyword)));
  return conds;
}

export async function listPublished(db: DbOrTx, q: NoticeListQuery) {
  const where = and(...publishedConditions(q));
  const records = await db
    .select(summaryColumns)
    .from(notices)
    .where(where)
    .orderBy(desc(notices.publishedAt), desc(notices.id))
    .limit(q.pageSize)
    .offset((q.pageNum - 1) * q.pageSize);
  const [total] = await db.select({ n: count() }).from(notices).where(where);
  return { records, total: Number(total?.n ?? 0) };
}

/** The newest `limit` published notices of each given category (or trade type): one index range scan per value, in one query. */
export async function latestPerGroup(
  db: DbOrTx,
  by: 'category' | 'tradeType',
  values: readonly string[],
  limit: number,
) {
  const col = by === 'category' ? notices.category : notices.tradeType;
  const parts = values.map((v) =>
    db
      .select(summaryColumns)
      .from(notices)
      .where(and(eq(notices.status, 'published'), eq(col, v)))
      .orderBy(desc(notices.publishedAt), desc(notices.id))
      .limit(limit),
  );
  const [first, second, ...others] = parts;
  if (!first) return [];
  const rows = second ? await unionAll(first, second, ...others) : await first;
  return rows.sort(
    (x, y) => (y.publishedAt?.getTime() ?? 0) - (x.publishedAt?.getTime() ?? 0) || (x.id < y.id ? 1 : -1),
  );
}

export async function findPublished(db: DbOrTx, id: string): Promise<NoticeRow | undefined> {
  const [row] = await db
    .select()
    .from(notices)
    .where(and(eq(notices.id, id), eq(notices.status, 'published')));
  return row;
}

export async function noticeStats(db: DbOrTx) {
  const [row] = await db
    .select({
      projects: sql<number>`count(distinct ${notices.projectCode})`,
      notices: count(),
      amount: sql<string>`coalesce(sum(${notices.amount}) filter (where ${notices.category} = '中标结果公告'), 0)::text`,
    })
    .from(notices)
    .where(eq(notices.status, 'published'));
  return { projects: Number(row?.projects ?? 0), notices: Number(row?.notices ?? 0), amount: row?.amount ?? '0' };
}

// ---- administration

export async function listAll(
  db: DbOrTx,
  q: { status?: string; category?: string; keyword?: string; pageNum: number; pageSize: number },
) {
  const conds: SQL[] = [];
  if (q.status) conds.push(eq(notices.status, q.status));
  if (q.category) conds.push(eq(notices.category, q.category));
  if (q.keyword) conds.push(ilike(notices.title, likePattern(q.keyword)));
  const where = conds.length ? and(...conds) : undefined;
  const records = await db
    .select()
    .from(notices)
    .where(where)
    .orderBy(desc(notices.updatedAt), desc(notices.id))
    .limit(q.pageSize)
    .offset((q.pageNum - 1) * q.pageSize);
  const [total] = await db.select({ n: count() }).from(notices).where(where);
  return { records, total: Number(total?.n ?? 0) };
}

export async function findById(db: DbOrTx, id: string): Promise<NoticeRow | undefined> {
  const [row] = await db.select().from(notices).where(eq(notices.id, id));
  return row;
}

export async function insertNotice(db: DbOrTx, values: typeof notices.$inferInsert): Promise<NoticeRow> {
  const [row] = await db.insert(notices).values(values).returning();
  return row!;
}

/** Update only when the version still matches; undefined when someone else changed it first. */
export async function updateNotice(
  db: DbOrTx,
  id: string,
  version: number,
  values: Partial<typeof notices.$inferInsert>,
): Promise<NoticeRow | undefined> {
  const [row] = await db
    .update(notices)
    .set({ ...values, version: version + 1, updatedAt: new Date() })
    .where(and(eq(notices.id, id), eq(notices.version, version)))
    .returning();
  return row;
}

/** A status transition as one conditional update: only from one of `from`. */
export async function transition(
  db: DbOrTx,
  id: string,
  from: string[],
  to: string,
  extra: Partial<typeof notices.$inferInsert> = {},
): Promise<NoticeRow | undefined> {
  const [row] = await db
    .update(notices)
    .set({ ...extra, status: to, version: sql`${notices.version} + 1`, updatedAt: new Date() })
    .where(and(eq(notices.id, id), inArray(notices.status, from)))
    .returning();
  return row;
}

export async function deleteDraft(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .delete(notices)
    .where(and(eq(notices.id, id), eq(notices.status, 'draft')))
    .returning({ id: notices.id });
  return rows.length > 0;
}
