import { and, asc, count, desc, eq, ilike, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { enterprises, noticeReads, roles, systemNotices, userRoles, users } from '../../db/schema';
import { likePattern } from '../../db/sql';
import { BUILTIN_ROLE_BY_TYPE } from '../../platform/permissions';

export type SystemNoticeRow = typeof systemNotices.$inferSelect;

/** Who the signed-in user is, for the audience of a notice. */
export interface Viewer {
  userId: string;
  roleCodes: string[];
  enterpriseId: string | null;
}

/** The notice names the viewer: everyone, one of their roles, or their enterprise. */
function inAudience(v: Viewer): SQL {
  const parts: SQL[] = [eq(systemNotices.audience, 'everyone')];
  if (v.roleCodes.length)
    parts.push(and(eq(systemNotices.audience, 'role'), inArray(systemNotices.roleCode, v.roleCodes))!);
  if (v.enterpriseId)
    parts.push(
      sql`(${systemNotices.audience} = 'enterprises' and ${v.enterpriseId}::uuid = any(${systemNotices.enterpriseIds}))`,
    );
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** Published, and inside its time window at `now`. */
const current = (now: Date) =>
  and(
    eq(systemNotices.status, 'published'),
    sql`${systemNotices.startAt} <= ${now.toISOString()}::timestamptz`,
    sql`${systemNotices.endAt} > ${now.toISOString()}::timestamptz`,
  );

/**
 * The notices the viewer is shown at `now`: current, in their audience, and — a modal — not read yet, or — the bar —
 * not dismissed for good. Newest published first.
 */
export async function currentFor(db: DbOrTx, v: Viewer, now: Date) {
  return db
    .select({
      id: systemNotices.id,
      type: systemNotices.type,
      title: systemNotices.title,
      msg: systemNotices.msg,
      url: systemNotices.url,
      urlName: systemNotices.urlName,
    })
    .from(systemNotices)
    .leftJoin(noticeReads, and(eq(noticeReads.noticeId, systemNotices.id), eq(noticeReads.userId, v.userId)))
    .where(
      and(
        current(now),
        inAudience(v),
        sql`(${noticeReads.userId} is null
          or (${systemNotices.type} = 2 and ${noticeReads.readAt} is null)
          or (${systemNotices.type} = 1 and not ${noticeReads.dismissed}))`,
      ),
    )
    .orderBy(desc(systemNotices.publishedAt), desc(systemNotices.id))
    .limit(20);
}

/** The notice if the viewer may see it now (current and in their audience), whatever they did with it. */
export async function visibleTo(db: DbOrTx, v: Viewer, id: string, now: Date) {
  const [row] = await db
    .select({ id: systemNotices.id, type: systemNotices.type })
    .from(systemNotices)
    .where(and(eq(systemNotices.id, id), current(now), inAudience(v)));
  return row;
}

/** Record the read once: a second report keeps the first time. */
export async function markRead(db: DbOrTx, userId: string, noticeId: string, at: Date) {
  await db
    .insert(noticeReads)
    .values({ userId, noticeId, readAt: at })
    .onConflictDoUpdate({
      target: [noticeReads.userId, noticeReads.noticeId],
      set: { readAt: sql`coalesce(${noticeReads.readAt}, excluded.read_at)` },
    });
}

/** 不再显示: dismissed for good (and read, if it was not). */
export async function markDismissed(db: DbOrTx, userId: string, noticeId: string, at: Date) {
  await db
    .insert(noticeReads)
    .values({ userId, noticeId, readAt: at, dismissed: true, dismissedAt: at })
    .onConflictDoUpdate({
      target: [noticeReads.userId, noticeReads.noticeId],
      set: {
        readAt: sql`coalesce(${noticeReads.readAt}, excluded.read_at)`,
        dismissed: true,
        dismissedAt: sql`coalesce(${noticeReads.dismissedAt}, excluded.dismissed_at)`,
      },
    });
}

// ---- administration

const builtinType = sql.join(
  Object.entries(BUILTIN_ROLE_BY_TYPE).map(([type, code]) => sql`when ${code} then ${type}`),
  sql` `,
);

/** Active users the notice's audience names now (a built-in role: its login type; any role: its members). */
const audienceSize = sql<number>`(select count(*)::int from ${users} u where u.status = 'active' and (
  ${systemNotices.audience} = 'everyone'
  or (${systemNotices.audience} = 'enterprises' and u.enterprise_id = any(${systemNotices.enterpriseIds}))
  or (${systemNotices.audience} = 'role' and (
    u.login_role_type = (case ${systemNotices.roleCode} ${builtinType} end)
    or exists (select 1 from ${userRoles} ur join ${roles} r on r.id = ur.role_id
               where ur.user_id = u.id and r.code = ${systemNotices.roleCode})))))`;

const readCount = sql<number>`(select count(*)::int from ${noticeReads} nr
  where nr.notice_id = ${systemNotices.id} and nr.read_at is not null)`;

const adminColumns = {
  notice: systemNotices,
  roleName: sql<string | null>`(select ${roles.name} from ${roles} where ${roles.code} = ${systemNotices.roleCode})`,
  createdByName: sql<
    string | null
  >`(select ${users.userName} from ${users} where ${users.id} = ${systemNotices.createdBy})`,
  readCount,
  audienceSize,
};

export type AdminRow = {
  notice: SystemNoticeRow;
  roleName: string | null;
  createdByName: string | null;
  readCount: number;
  audienceSize: number;
};

export async function listAll(
  db: DbOrTx,
  q: { type?: number; status?: string; keyword?: string; pageNum: number; pageSize: number },
): Promise<{ records: AdminRow[]; total: number }> {
  const conds: SQL[] = [];
  if (q.type) conds.push(eq(systemNotices.type, q.type));
  if (q.status) conds.push(eq(systemNotices.status, q.status));
  if (q.keyword) conds.push(ilike(systemNotices.title, likePattern(q.keyword)));
  const where = conds.length ? and(...conds) : undefined;
  const records = await db
    .select(adminColumns)
    .from(systemNotices)
    .where(where)
    .orderBy(desc(systemNotices.updatedAt), desc(systemNotices.id))
    .limit(q.pageSize)
    .offset((q.pageNum - 1) * q.pageSize);
  const [total] = await db.select({ n: count() }).from(systemNotices).where(where);
  return { records: records.map(numbers), total: Number(total?.n ?? 0) };
}

const numbers = (r: AdminRow): AdminRow => ({
  ...r,
  readCount: Number(r.readCount),
  audienceSize: Number(r.audienceSize),
});

export async function adminRow(db: DbOrTx, id: string): Promise<AdminRow | undefined> {
  const [row] = await db.select(adminColumns).from(systemNotices).where(eq(systemNotices.id, id));
  return row ? numbers(row) : undefined;
}

export async function findById(db: DbOrTx, id: string): Promise<SystemNoticeRow | undefined> {
  const [row] = await db.select().from(systemNotices).where(eq(systemNotices.id, id));
  return row;
}

export async function insertNotice(db: DbOrTx, values: typeof systemNotices.$inferInsert): Promise<SystemNoticeRow> {
  const [row] = await db.insert(systemNotices).values(values).returning();
  return row!;
}

/** Update only when the version still matches; undefined when someone else changed it first. */
export async function updateNotice(
  db: DbOrTx,
  id: string,
  version: number,
  values: Partial<typeof systemNotices.$inferInsert>,
  at: Date,
): Promise<SystemNoticeRow | undefined> {
  const [row] = await db
    .update(systemNotices)
    .set({ ...values, version: version + 1, updatedAt: at })
    .where(and(eq(systemNotices.id, id), eq(systemNotices.version, version)))
    .returning();
  return row;
}

/** A status transition as one conditional update: only from one of `from`. */
export async function transition(
  db: DbOrTx,
  id: string,
  from: string[],
  to: string,
  at: Date,
  extra: Partial<typeof systemNotices.$inferInsert> = {},
): Promise<SystemNoticeRow | undefined> {
  const [row] = await db
    .update(systemNotices)
    .set({ ...extra, status: to, version: sql`${systemNotices.version} + 1`, updatedAt: at })
    .where(and(eq(systemNotices.id, id), inArray(systemNotices.status, from)))
    .returning();
  return row;
}

export async function deleteDraft(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .delete(systemNotices)
    .where(and(eq(systemNotices.id, id), eq(systemNotices.status, 'draft')))
    .returning({ id: systemNotices.id });
  return rows.length > 0;
}

/** The enterprises of a notice, by name. */
export async function enterpriseNames(db: DbOrTx, ids: string[]) {
  if (!ids.length) return [];
  return db
    .select({ id: enterprises.id, name: enterprises.name })
    .from(enterprises)
    .where(inArray(enterprises.id, ids))
    .orderBy(asc(enterprises.name));
}

export async function roleExists(db: DbOrTx, code: string): Promise<boolean> {
  const [row] = await db.select({ id: roles.id }).from(roles).where(eq(roles.code, code));
  return row !== undefined;
}

/** Who read the notice, latest first. */
export async function readers(db: DbOrTx, noticeId: string, pageNum: number, pageSize: number) {
  const where = and(eq(noticeReads.noticeId, noticeId), isNotNull(noticeReads.readAt));
  const records = await db
    .select({
      userId: users.id,
      account: users.account,
      userName: users.userName,
      enterpriseName: enterprises.name,
      readAt: noticeReads.readAt,
      dismissed: noticeReads.dismissed,
    })
    .from(noticeReads)
    .innerJoin(users, eq(users.id, noticeReads.userId))
    .leftJoin(enterprises, eq(enterprises.id, users.enterpriseId))
    .where(where)
    .orderBy(desc(noticeReads.readAt), asc(users.account))
    .limit(pageSize)
    .offset((pageNum - 1) * pageSize);
  const [total] = await db.select({ n: count() }).from(noticeReads).where(where);
  return { records, total: Number(total?.n ?? 0) };
}
