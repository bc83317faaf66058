import { and, desc, eq, ilike, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { messageBroadcasts, roles, userMessages, userRoles, users } from '../../db/schema';
import { likePattern } from '../../db/sql';
import { BUILTIN_ROLE_BY_TYPE, BUILTIN_ROLES } from '../../platform/permissions';

/** Queries of the message centre: a user's messages (always filtered by the user), broadcasts and their receipts. */

export async function unreadCount(q: DbOrTx, userId: string): Promise<number> {
  const [r] = await q
    .select({ n: sql<number>`count(*)::int` })
    .from(userMessages)
    .where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt)));
  return Number(r?.n ?? 0);
}

export async function messagePage(
  q: DbOrTx,
  userId: string,
  p: { kind?: string; unreadOnly?: boolean; offset: number; limit: number },
) {
  const where = and(
    eq(userMessages.userId, userId),
    p.kind ? eq(userMessages.kind, p.kind) : undefined,
    p.unreadOnly ? isNull(userMessages.readAt) : undefined,
  );
  const [total] = await q.select({ n: sql<number>`count(*)::int` }).from(userMessages).where(where);
  const records = await q
    .select({ m: userMessages, senderName: messageBroadcasts.senderName })
    .from(userMessages)
    .leftJoin(messageBroadcasts, eq(messageBroadcasts.id, userMessages.broadcastId))
    .where(where)
    .orderBy(desc(userMessages.createdAt), desc(userMessages.id))
    .limit(p.limit)
    .offset(p.offset);
  return { records, total: Number(total?.n ?? 0) };
}

/** Marks the user's messages read (those of `ids`, or all when null); answers how many changed. */
export async function markRead(q: DbOrTx, userId: string, ids: readonly string[] | null, at: Date): Promise<number> {
  const rows = await q
    .update(userMessages)
    .set({ readAt: at })
    .where(
      and(
        eq(userMessages.userId, userId),
        isNull(userMessages.readAt),
        ids ? inArray(userMessages.id, [...ids]) : undefined,
      ),
    )
    .returning({ id: userMessages.id, broadcastId: userMessages.broadcastId });
  return rows.length;
}

/** Senders of the broadcasts among these messages that were just read (to refresh their receipts). */
export async function sendersOf(q: DbOrTx, messageIds: readonly string[]) {
  if (!messageIds.length) return [];
  const rows = await q
    .selectDistinct({ senderId: messageBroadcasts.senderId, id: messageBroadcasts.id })
    .from(userMessages)
    .innerJoin(messageBroadcasts, eq(messageBroadcasts.id, userMessages.broadcastId))
    .where(inArray(userMessages.id, [...messageIds]));
  return rows;
}

export async function insertBroadcast(q: DbOrTx, values: typeof messageBroadcasts.$inferInsert) {
  const [row] = await q.insert(messageBroadcasts).values(values).returning();
  return row!;
}

/** Which of these ids are active users. */
export async function activeUsers(q: DbOrTx, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await q
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [...ids]), eq(users.status, 'active')));
  return rows.map((r) => r.id);
}

/** The codes among these that name roles (built-in or defined). */
export async function knownRoles(q: DbOrTx, codes: readonly string[]): Promise<Map<string, string>> {
  const known = new Map<string, string>(BUILTIN_ROLES.map((r) => [r.code, r.name]));
  if (codes.length) {
    const rows = await q
      .select({ code: roles.code, name: roles.name })
      .from(roles)
      .where(inArray(roles.code, [...codes]));
    for (const r of rows) known.set(r.code, r.name);
  }
  return new Map([...known].filter(([code]) => codes.includes(code)));
}

/** Active members of these roles: the built-in role of their sign-in type, or assigned. */
export async function membersOf(q: DbOrTx, codes: readonly string[]): Promise<string[]> {
  if (!codes.length) return [];
  const types = Object.entries(BUILTIN_ROLE_BY_TYPE)
    .filter(([, code]) => codes.includes(code))
    .map(([t]) => t);
  const rows = await q
    .selectDistinct({ id: users.id })
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(roles, eq(roles.id, userRoles.roleId))
    .where(
      and(
        eq(users.status, 'active'),
        or(types.length ? inArray(users.loginRoleType, types) : sql`false`, inArray(roles.code, [...codes])),
      ),
    );
  return rows.map((r) => r.id);
}

export async function sentPage(q: DbOrTx, p: { keyword?: string; offset: number; limit: number }) {
  const where = p.keyword ? ilike(messageBroadcasts.title, likePattern(p.keyword)) : undefined;
  const [total] = await q.select({ n: sql<number>`count(*)::int` }).from(messageBroadcasts).where(where);
  const read = q
    .select({
      broadcastId: userMessages.broadcastId,
      n: sql<number>`count(*)::int`.as('n'),
    })
    .from(userMessages)
    .where(and(isNotNull(userMessages.broadcastId), isNotNull(userMessages.readAt)))
    .groupBy(userMessages.broadcastId)
    .as('r');
  const records = await q
    .select({ b: messageBroadcasts, readCount: sql<number>`coalesce(${read.n}, 0)::int` })
    .from(messageBroadcasts)
    .leftJoin(read, eq(read.broadcastId, messageBroadcasts.id))
    .where(where)
    .orderBy(desc(messageBroadcasts.createdAt), desc(messageBroadcasts.id))
    .limit(p.limit)
    .offset(p.offset);
  return { records, total: Number(total?.n ?? 0) };
}

export async function findBroadcast(q: DbOrTx, id: string) {
  const [b] = await q.select().from(messageBroadcasts).where(eq(messageBroadcasts.id, id));
  return b;
}

export function receiptsOf(q: DbOrTx, broadcastId: string) {
  return q
    .select({
      userId: users.id,
      userName: users.userName,
      logValue: users.account,
      readAt: userMessages.readAt,
    })
    .from(userMessages)
    .innerJoin(users, eq(users.id, userMessages.userId))
    .where(eq(userMessages.broadcastId, broadcastId))
    .orderBy(sql`${userMessages.readAt} desc nulls last`, users.account);
}

export async function userNames(q: DbOrTx, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await q
    .select({ id: users.id, name: users.userName })
    .from(users)
    .where(inArray(users.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function recipientOptions(q: DbOrTx, keyword?: string) {
  const found = await q
    .select({ id: users.id, userName: users.userName, logValue: users.account, loginRoleType: users.loginRoleType })
    .from(users)
    .where(
      and(
        eq(users.status, 'active'),
        keyword
          ? or(ilike(users.userName, likePattern(keyword)), ilike(users.account, likePattern(keyword)))
          : undefined,
      ),
    )
    .orderBy(users.account)
    .limit(50);
  const defined = await q.select({ code: roles.code, name: roles.name }).from(roles).orderBy(roles.code);
  const all = new Map<string, string>(BUILTIN_ROLES.map((r) => [r.code, r.name]));
  for (const r of defined) if (!all.has(r.code)) all.set(r.code, r.name);
  return { users: found, roles: [...all].map(([code, name]) => ({ code, name })) };
}
