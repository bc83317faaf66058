import { and, desc, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import {
  accountLocks,
  captchas,
  enterpriseAdmins,
  enterprises,
  loginAttempts,
  loginNonces,
  practiceStatuses,
  refreshTokens,
  sessions,
  users,
} from '../../db/schema';
import { rememberPassword } from '../../platform/password';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export interface SessionWithUser {
  session: SessionRow;
  user: UserRow;
}

export async function findUserByAccount(db: DbOrTx, account: string): Promise<UserRow | undefined> {
  const [u] = await db.select().from(users).where(eq(users.account, account));
  return u;
}

/**
 * The sign-in name of the administrator account of the enterprise with this unified social credit code (a sign-in by
 * credit code, /creditCode), or undefined.
 */
export async function accountOfCreditCode(db: DbOrTx, creditCode: string): Promise<string | undefined> {
  const [r] = await db
    .select({ account: users.account })
    .from(enterprises)
    .innerJoin(enterpriseAdmins, eq(enterpriseAdmins.enterpriseId, enterprises.id))
    .innerJoin(users, eq(users.id, enterpriseAdmins.userId))
    .where(eq(enterprises.creditCode, creditCode));
  return r?.account;
}

/** What a password change checks against, read afresh (the session's copy of the user may be a moment old). */
export async function passwordOf(
  db: DbOrTx,
  id: string,
): Promise<{ passwordHash: string; mustChangePassword: boolean } | undefined> {
  const [u] = await db
    .select({ passwordHash: users.passwordHash, mustChangePassword: users.mustChangePassword })
    .from(users)
    .where(eq(users.id, id));
  return u;
}

/** A new password hash; the account no longer has to change it. Announces the change (kept sessions re-read). */
export async function setPassword(db: DbOrTx, id: string, passwordHash: string, at: Date): Promise<void> {
  await announceAuthChange(db);
  await rememberPassword(db, id, at);
  await db
    .update(users)
    .set({ passwordHash, mustChangePassword: false, passwordChangedAt: at, updatedAt: at })
    .where(eq(users.id, id));
}

export async function enterpriseName(db: DbOrTx, id: string | null): Promise<string | null> {
  if (!id) return null;
  const [e] = await db.select({ name: enterprises.name }).from(enterprises).where(eq(enterprises.id, id));
  return e?.name ?? null;
}

export async function practiceDetails(db: DbOrTx, userId: string) {
  return db
    .select({ region: practiceStatuses.region, status: practiceStatuses.status, reason: practiceStatuses.reason })
    .from(practiceStatuses)
    .where(eq(practiceStatuses.userId, userId))
    .orderBy(practiceStatuses.region);
}

/**
 * Failed sign-ins since `since`: of the account (after its last success and after an administrator's unlock), of the
 * account from this address (same bounds), and from this address for any account.
 */
/**
 * Failed sign-ins within the window: of the account (since its last success or reset), of the account from this
 * address, and of the address — `ip` those known to have failed, `ipChecking` those still being checked (recorded as
 * failures before the password is checked; auth.service counts them toward the address only past an allowance).
 */
export async function failureCounts(db: DbOrTx, account: string, ip: string, since: Date) {
  const [row] = rowsOf<{ account: number; accountIp: number; ip: number; ipChecking: number }>(
    await db.execute(sql`
      with b as (
        select greatest(
          ${since}::timestamptz,
          (select max(a."at") from "login_attempts" a where a."account" = ${account} and a."success" and a."at" > ${since}::timestamptz),
          (select u."login_reset_at" from "users" u where u."account" = ${account})
        ) as "since"
      )
      select
        (select count(*)::int from "login_attempts" a, b where a."account" = ${account} and not a."success" and a."at" > b."since") as "account",
        (select count(*)::int from "login_attempts" a, b where a."account" = ${account} and a."ip" = ${ip} and not a."success" and a."at" > b."since") as "accountIp",
        (select count(*)::int from "login_attempts" a where a."ip" = ${ip} and not a."success" and a."checked_at" is not null and a."at" > ${since}::timestamptz) as "ip",
        (select count(*)::int from "login_attempts" a where a."ip" = ${ip} and not a."success" and a."checked_at" is null and a."at" > ${since}::timestamptz) as "ipChecking"`),
  );
  return {
    account: Number(row?.account ?? 0),
    accountIp: Number(row?.accountIp ?? 0),
    ip: Number(row?.ip ?? 0),
    ipChecking: Number(row?.ipChecking ?? 0),
  };
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/**
 * Sign-ins of one account pass this point one at a time, in every process: a transaction-scoped advisory lock on the
 * account, so that the failures counted before a password is checked include every attempt already let through.
 */
export async function serialiseAccount(tx: Tx, account: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`ks_login:${account}`}))`);
}

/** `at` is the service clock, the same clock the failure window is measured with. */
export async function recordAttempt(
  db: DbOrTx,
  account: string,
  ip: string,
  success: boolean,
  at: Date,
  userAgent?: string | null,
  /** its password is still to be checked (settleAttempt or markAttemptSucceeded follows) */
  checking = false,
): Promise<number> {
  const [row] = await db
    .insert(loginAttempts)
    .values({
      account,
      ip,
      success,
      at,
      userAgent: userAgent ? userAgent.slice(0, 300) : null,
      checkedAt: checking ? null : at,
    })
    .returning({ id: loginAttempts.id });
  return row!.id;
}

/** Active accounts whose phone this is (SMS sign-in and password reset). */
export async function activeUsersByPhone(db: DbOrTx, phone: string): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(and(eq(users.phone, phone), eq(users.status, 'active')))
    .limit(10);
}

/** Sign-in attempts of an account, newest first (the user centre's 登录记录). */
export async function loginHistory(db: DbOrTx, account: string, offset: number, limit: number) {
  const [records, [count]] = await Promise.all([
    db
      .select({
        at: loginAttempts.at,
        ip: loginAttempts.ip,
        success: loginAttempts.success,
        userAgent: loginAttempts.userAgent,
      })
      .from(loginAttempts)
      .where(eq(loginAttempts.account, account))
      .orderBy(desc(loginAttempts.at), desc(loginAttempts.id))
      .offset(offset)
      .limit(limit),
    db.select({ n: sql<number>`count(*)::int` }).from(loginAttempts).where(eq(loginAttempts.account, account)),
  ]);
  return { records, total: Number(count?.n ?? 0) };
}

/** An attempt counted as failed before its password was checked turned out right. */
export async function markAttemptSucceeded(db: DbOrTx, id: number): Promise<void> {
  await db
    .update(loginAttempts)
    .set({ success: true, checkedAt: sql`coalesce(${loginAttempts.checkedAt}, now())` })
    .where(eq(loginAttempts.id, id));
}

/** An attempt whose password was checked and was wrong (or whose account may not sign in): a failure, known now. */
export async function settleAttempt(db: DbOrTx, id: number, at: Date): Promise<void> {
  await db
    .update(loginAttempts)
    .set({ checkedAt: at })
    .where(and(eq(loginAttempts.id, id), isNull(loginAttempts.checkedAt)));
}

/** The last successful sign-in of the account before `beforeId` (an attempt row), if any. */
export async function previousSuccess(db: DbOrTx, account: string, beforeId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | string | null>`max(${loginAttempts.at})` })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.account, account), eq(loginAttempts.success, true), lt(loginAttempts.id, beforeId)));
  return row?.at ? new Date(row.at) : null;
}

export async function lockedUntil(db: DbOrTx, account: string, ip: string, now: Date): Promise<Date | null> {
  const [l] = await db
    .select()
    .from(accountLocks)
    .where(and(eq(accountLocks.account, account), eq(accountLocks.ip, ip), gt(accountLocks.lockedUntil, now)));
  return l ? new Date(l.lockedUntil) : null;
}

export async function lockAccount(db: DbOrTx, account: string, ip: string, at: Date, until: Date): Promise<void> {
  await db
    .insert(accountLocks)
    .values({ account, ip, lockedAt: at, lockedUntil: until })
    .onConflictDoUpdate({ target: [accountLocks.account, accountLocks.ip], set: { lockedAt: at, lockedUntil: until } });
}

/** Locks of the account made after `since` (all of them when null), newest first. */
export async function locksSince(db: DbOrTx, account: string, since: Date | null) {
  return db
    .select()
    .from(accountLocks)
    .where(and(eq(accountLocks.account, account), since ? gt(accountLocks.lockedAt, since) : sql`true`))
    .orderBy(desc(accountLocks.lockedAt));
}

export async function insertNonce(db: DbOrTx, nonce: string, expiresAt: Date): Promise<void> {
  await db.insert(loginNonces).values({ nonce, expiresAt });
}

/** Use a nonce once: true when it was live (it is gone afterwards either way). */
export async function consumeNonce(db: DbOrTx, nonce: string, now: Date): Promise<boolean> {
  const rows = await db
    .delete(loginNonces)
    .where(eq(loginNonces.nonce, nonce))
    .returning({ expiresAt: loginNonces.expiresAt });
  return rows.length > 0 && new Date(rows[0]!.expiresAt).getTime() > now.getTime();
}

export async function deleteStaleNonces(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(loginNonces).where(lt(loginNonces.expiresAt, now));
}

export async function insertCaptcha(db: DbOrTx, uuid: string, answerHash: string, expiresAt: Date): Promise<void> {
  await db.insert(captchas).values({ uuid, answerHash, expiresAt });
}

/** Use a captcha once: returns its answer hash when it was live and unused, marking it used. */
export async function consumeCaptcha(db: DbOrTx, uuid: string, now: Date): Promise<string | null> {
  const rows = await db
    .update(captchas)
    .set({ usedAt: now })
    .where(and(eq(captchas.uuid, uuid), isNull(captchas.usedAt), gt(captchas.expiresAt, now)))
    .returning({ answerHash: captchas.answerHash });
  return rows[0]?.answerHash ?? null;
}

export async function deleteStaleCaptchas(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(captchas).where(sql`${captchas.expiresAt} < ${now}`);
}

export async function insertSession(db: DbOrTx, values: typeof sessions.$inferInsert): Promise<SessionRow> {
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
export async function announceAuthChange(db: DbOrTx): Promise<void> {
  forgetSessions();
  await db.execute(sql`select pg_notify(${AUTH_CHANNEL}, '')`);
}

/** Revoke every live session of a user except `keepId`, with a reason. */
export async function revokeUserSessions(db: DbOrTx, userId: string, reason: string, now: Date, keepId?: string) {
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
const prepareSessionByHash = (db: DbOrTx) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .prepare('ks_session_by_hash');

export async function findSessionByHash(db: DbOrTx, tokenHash: string): Promise<SessionWithUser | undefined> {
  let q = sessionByHash.get(db);
  if (!q) {
    q = prepareSessionByHash(db);
    sessionByHash.set(db, q);
  }
  const [row] = await q.execute({ tokenHash });
  return row;
}

export async function touchSession(db: DbOrTx, id: string, now: Date, expiresAt: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now, expiresAt })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

export async function revokeSession(db: DbOrTx, id: string, reason: string, now: Date): Promise<boolean> {
  await announceAuthChange(db);
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now, revokeReason: reason })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

// ---- refresh tokens (issue 15): one per session, a family per sign-in ----

export type RefreshRow = typeof refreshTokens.$inferSelect;

export async function insertRefreshToken(db: DbOrTx, values: typeof refreshTokens.$inferInsert): Promise<void> {
  await db.insert(refreshTokens).values(values);
}

/** A refresh token with its session and user, its row locked until the transaction ends. */
export async function lockRefreshToken(
  tx: Tx,
  tokenHash: string,
): Promise<{ rt: RefreshRow; session: SessionRow; user: UserRow } | undefined> {
  const [row] = await tx
    .select({ rt: refreshTokens, session: sessions, user: users })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .innerJoin(users, eq(users.id, refreshTokens.userId))
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .for('update', { of: refreshTokens });
  return row;
}

/** Spend a refresh token: true when it was not rotated before. */
export async function markRotated(db: DbOrTx, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ rotatedAt: at })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.rotatedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length > 0;
}

/** End every live session of a refresh-token family (the sign-in and all its rotations); how many ended. */
export async function revokeFamily(db: DbOrTx, familyId: string, reason: string, at: Date): Promise<number> {
  await announceAuthChange(db);
  const rows = await db
    .update(sessions)
    .set({ revokedAt: at, revokeReason: reason })
    .where(
      and(
        isNull(sessions.revokedAt),
        inArray(
          sessions.id,
          db.select({ id: refreshTokens.sessionId }).from(refreshTokens).where(eq(refreshTokens.familyId, familyId)),
        ),
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}

/** The user's live sessions (not revoked, not expired at `now`), newest activity first, with their sign-in details. */
export async function liveSessionsOf(db: DbOrTx, userId: string, now: Date) {
  return db
    .select({
      id: sessions.id,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      signedInAt: refreshTokens.signedInAt,
      method: refreshTokens.method,
    })
    .from(sessions)
    .leftJoin(refreshTokens, eq(refreshTokens.sessionId, sessions.id))
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id))
    .limit(100);
}
