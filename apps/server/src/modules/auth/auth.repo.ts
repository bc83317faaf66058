import { and, count, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accountLocks, captchas, enterprises, loginAttempts, practiceStatuses, sessions, users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export interface SessionWithUser {
  session: SessionRow;
  user: UserRow;
}

export async function findUserByAccount(db: Db, account: string): Promise<UserRow | undefined> {
  const [u] = await db.select().from(users).where(eq(users.account, account));
  return u;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [u] = await db.select().from(users).where(eq(users.id, id));
  return u;
}

export async function enterpriseName(db: Db, id: string | null): Promise<string | null> {
  if (!id) return null;
  const [e] = await db.select({ name: enterprises.name }).from(enterprises).where(eq(enterprises.id, id));
  return e?.name ?? null;
}

export async function practiceDetails(db: Db, userId: string) {
  return db
    .select({ region: practiceStatuses.region, status: practiceStatuses.status, reason: practiceStatuses.reason })
    .from(practiceStatuses)
    .where(eq(practiceStatuses.userId, userId))
    .orderBy(practiceStatuses.region);
}

/** Failures since `since` (and after the account's last success) for an account, and for an address. */
export async function failureCounts(db: Db, account: string, ip: string, since: Date) {
  const [lastOk] = await db
    .select({ at: sql<Date>`max(${loginAttempts.at})` })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.account, account), eq(loginAttempts.success, true), gt(loginAttempts.at, since)));
  const accountSince = lastOk?.at ? new Date(lastOk.at) : since;
  const [a] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(
      and(eq(loginAttempts.account, account), eq(loginAttempts.success, false), gt(loginAttempts.at, accountSince)),
    );
  const [i] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.ip, ip), eq(loginAttempts.success, false), gt(loginAttempts.at, since)));
  return { account: Number(a?.n ?? 0), ip: Number(i?.n ?? 0) };
}

/** `at` is the service clock, the same clock the failure window is measured with. */
export async function recordAttempt(db: Db, account: string, ip: string, success: boolean, at: Date): Promise<void> {
  await db.insert(loginAttempts).values({ account, ip, success, at });
}

export async function lockedUntil(db: Db, account: string, now: Date): Promise<Date | null> {
  const [l] = await db
    .select()
    .from(accountLocks)
    .where(and(eq(accountLocks.account, account), gt(accountLocks.lockedUntil, now)));
  return l ? new Date(l.lockedUntil) : null;
}

export async function lockAccount(db: Db, account: string, until: Date): Promise<void> {
  await db
    .insert(accountLocks)
    .values({ account, lockedUntil: until })
    .onConflictDoUpdate({ target: accountLocks.account, set: { lockedUntil: until } });
}

export async function insertCaptcha(db: Db, uuid: string, answerHash: string, expiresAt: Date): Promise<void> {
  await db.insert(captchas).values({ uuid, answerHash, expiresAt });
}

/** Use a captcha once: returns its answer hash when it was live and unused, marking it used. */
export async function consumeCaptcha(db: Db, uuid: string, now: Date): Promise<string | null> {
  const rows = await db
    .update(captchas)
    .set({ usedAt: now })
    .where(and(eq(captchas.uuid, uuid), isNull(captchas.usedAt), gt(captchas.expiresAt, now)))
    .returning({ answerHash: captchas.answerHash });
  return rows[0]?.answerHash ?? null;
}

export async function deleteStaleCaptchas(db: Db, now: Date): Promise<void> {
  await db.delete(captchas).where(sql`${captchas.expiresAt} < ${now}`);
}

export async function insertSession(db: Db, values: typeof sessions.$inferInsert): Promise<SessionRow> {
  const [s] = await db.insert(sessions).values(values).returning();
  return s!;
}

/**
 * The auth epoch: bumped by every change to a session or a user made through this process, so the sessions the auth
 * service keeps for a moment (see createAuthService) are read afresh after it.
 */
let authEpoch = 0;
export const currentAuthEpoch = () => authEpoch;
export function forgetSessions(): void {
  authEpoch++;
}

/** Every server process forgets its kept sessions when a transaction that announced a change commits. */
export const AUTH_CHANNEL = 'ks_auth';

/**
 * A change to sessions or users: this process forgets its kept sessions now, the others when the change commits
 * (they listen on AUTH_CHANNEL; see main.ts). Run inside the transaction that makes the change.
 */
export async function announceAuthChange(db: Db): Promise<void> {
  forgetSessions();
  await db.execute(sql`select pg_notify(${AUTH_CHANNEL}, '')`);
}

/** Revoke every live session of a user except `keepId`, with a reason. */
export async function revokeUserSessions(db: Db, userId: string, reason: string, now: Date, keepId?: string) {
  await announceAuthChange(db);
  const conds = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (keepId) conds.push(ne(sessions.id, keepId));
  await db
    .update(sessions)
    .set({ revokedAt: now, revokeReason: reason })
    .where(and(...conds));
}

/** The session lookup runs on every request: a named prepared statement, built once per database handle. */
const sessionByHash = new WeakMap<Db, ReturnType<typeof prepareSessionByHash>>();
const prepareSessionByHash = (db: Db) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .prepare('ks_session_by_hash');

export async function findSessionByHash(db: Db, tokenHash: string): Promise<SessionWithUser | undefined> {
  let q = sessionByHash.get(db);
  if (!q) {
    q = prepareSessionByHash(db);
    sessionByHash.set(db, q);
  }
  const [row] = await q.execute({ tokenHash });
  return row;
}

export async function touchSession(db: Db, id: string, now: Date, expiresAt: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now, expiresAt })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

export async function revokeSession(db: Db, id: string, reason: string, now: Date): Promise<boolean> {
  await announceAuthChange(db);
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now, revokeReason: reason })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}
