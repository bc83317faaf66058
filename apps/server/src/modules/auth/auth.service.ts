import { randomUUID } from 'node:crypto';
import {
  accountLockedMessage,
  Code,
  type LoginRequest,
  type LoginResponse,
  type LoginRoleType,
  loginPlainSchema,
  Msg,
  type PracticeDetail,
  rolesFor,
  type UserInfo,
} from '@ks/contracts';
import svgCaptcha from 'svg-captcha';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { appSettings } from '../../db/schema';
import { generateLoginKeyPair, newToken, rsaDecrypt, sha256Hex } from '../../platform/crypto';
import { AppError, badRequest, parse, tooMany, unauthorized } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { dummyHash, verifyPassword } from '../../platform/password';
import { getSettings } from '../../platform/settings';
import * as repo from './auth.repo';

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const CAPTCHA_AFTER_FAILURES = 3;
export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MS = 15 * 60_000;
export const CAPTCHA_TTL_MS = 5 * 60_000;
/** Don't write last-seen more often than this per session. */
const TOUCH_EVERY_MS = 60_000;
/**
 * A live session read from the database is trusted for this long (a page's burst of requests reads it once). A change
 * made through this process (sign-out, revocation, an account's status or details) is seen at once; one made through
 * another server process within this time.
 */
export const SESSION_CACHE_MS = 2_000;
const SESSION_CACHE_MAX = 10_000;

export interface AuthDeps {
  db: Db;
  config: Pick<Config, 'sessionTtlMinutes' | 'singleSession'>;
  now?: () => Date;
}

export interface AuthContext {
  user: repo.UserRow;
  sessionId: string;
  actor: Actor;
}

export function createAuthService(deps: AuthDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const ttlMs = deps.config.sessionTtlMinutes * 60_000;
  /** live sessions by token, as read at `at` (performance.now()) in auth epoch `epoch` (a hit needs no hashing) */
  const recent = new Map<string, { row: repo.SessionWithUser; at: number; epoch: number }>();
  let keys: Promise<{ publicKey: string; privateKey: string }> | null = null;

  /**
   * The login key pair: generated once, kept in the database so every process and restart shares it. Concurrent
   * callers in this process share one promise; across processes both keys go in one statement, so a racing writer
   * waits for the first one's commit and then keeps the pair that won.
   */
  function loginKeys() {
    if (!keys) {
      keys = loadOrCreateKeys().catch((e) => {
        keys = null;
        throw e;
      });
    }
    return keys;
  }

  async function loadOrCreateKeys() {
    const names = ['login.publicKey', 'login.privateKey'];
    let stored = await getSettings(db, names);
    if (!stored['login.publicKey'] || !stored['login.privateKey']) {
      const fresh = generateLoginKeyPair();
      await db
        .insert(appSettings)
        .values([
          { key: 'login.privateKey', value: fresh.privateKey },
          { key: 'login.publicKey', value: fresh.publicKey },
        ])
        .onConflictDoNothing();
      stored = await getSettings(db, names);
    }
    const publicKey = stored['login.publicKey'];
    const privateKey = stored['login.privateKey'];
    if (!publicKey || !privateKey) throw new Error('login key pair incomplete');
    return { publicKey, privateKey };
  }

  async function createCaptcha(): Promise<{ uuid: string; img: string }> {
    const c = svgCaptcha.create({ size: 4, noise: 3, ignoreChars: '0oO1iIlL', color: true, background: '#eef3ff' });
    const uuid = randomUUID();
    const t = now();
    await repo.insertCaptcha(db, uuid, sha256Hex(c.text.toLowerCase()), new Date(t.getTime() + CAPTCHA_TTL_MS));
    if (Math.random() < 0.05) await repo.deleteStaleCaptchas(db, t);
    return { uuid, img: c.data };
  }

  async function buildUserInfo(u: repo.UserRow): Promise<UserInfo> {
    const details = (await repo.practiceDetails(db, u.id)).map(
      (d): PracticeDetail => ({ region: d.region, status: d.status as 0 | 1 | 2, reason: d.reason }),
    );
    const abnormal = details.filter((d) => d.status === 1);
    return {
      id: u.id,
      userName: u.userName,
      loginRoleType: u.loginRoleType as LoginRoleType,
      photo: u.photo,
      practicingStatus: {
        ...(abnormal.length ? { abnormal: `${abnormal.map((d) => d.region).join('、')}执业状态异常` } : {}),
        practiceDetails: details,
      },
      enterpriseName: await repo.enterpriseName(db, u.enterpriseId),
    };
  }

  async function login(body: LoginRequest, meta: { ip: string; userAgent: string }): Promise<LoginResponse> {
    const { privateKey } = await loginKeys();
    const decrypted = {
      logValue: rsaDecrypt(privateKey, body.logValue),
      passWord: rsaDecrypt(privateKey, body.passWord),
      loginRoleType: rsaDecrypt(privateKey, body.loginRoleType),
    };
    const undecryptable = Object.entries(decrypted)
      .filter(([, v]) => v === null)
      .map(([k]) => k);
    if (undecryptable.length) {
      throw badRequest(Msg.DECRYPT_FAILED, {
        fieldErrors: Object.fromEntries(undecryptable.map((k) => [k, [Msg.DECRYPT_FAILED]])),
      });
    }
    const plain = parse(loginPlainSchema, decrypted);
    const account = plain.logValue.toLowerCase();
    const ip = meta.ip.slice(0, 64);
    const t = now();

    const until = await repo.lockedUntil(db, account, t);
    if (until) throw tooMany(accountLockedMessage(until), { captchaRequired: true, lockedUntil: until.toISOString() });

    const since = new Date(t.getTime() - LOGIN_WINDOW_MS);
    const fails = await repo.failureCounts(db, account, ip, since);
    const captchaRequired = fails.account >= CAPTCHA_AFTER_FAILURES || fails.ip >= CAPTCHA_AFTER_FAILURES;
    if (captchaRequired) {
      if (!body.uuid || !body.code) throw badRequest(Msg.CAPTCHA_REQUIRED, { captchaRequired: true });
      const answer = await repo.consumeCaptcha(db, body.uuid, t);
      if (!answer || answer !== sha256Hex(body.code.trim().toLowerCase())) {
        throw badRequest(Msg.CAPTCHA_WRONG, { captchaRequired: true });
      }
    }

    const user = await repo.findUserByAccount(db, account);
    const passwordOk = await verifyPassword(plain.passWord, user?.passwordHash ?? (await dummyHash()));
    if (!user || !passwordOk || user.loginRoleType !== plain.loginRoleType) {
      await repo.recordAttempt(db, account, ip, false, t);
      const accountFails = fails.account + 1;
      if (accountFails >= LOCK_AFTER_FAILURES) {
        const lockUntil = new Date(t.getTime() + LOCK_MS);
        await repo.lockAccount(db, account, lockUntil);
        throw tooMany(accountLockedMessage(lockUntil), { captchaRequired: true, lockedUntil: lockUntil.toISOString() });
      }
      throw badRequest(Msg.BAD_CREDENTIALS, {
        captchaRequired: accountFails >= CAPTCHA_AFTER_FAILURES || fails.ip + 1 >= CAPTCHA_AFTER_FAILURES,
      });
    }
    if (user.status !== 'active') throw new AppError(403, Code.FORBIDDEN, Msg.ACCOUNT_DISABLED);

    const token = newToken();
    await db.transaction(async (tx) => {
      await repo.recordAttempt(tx, account, ip, true, t);
      const session = await repo.insertSession(tx, {
        tokenHash: sha256Hex(token),
        userId: user.id,
        createdAt: t,
        lastSeenAt: t,
        expiresAt: new Date(t.getTime() + ttlMs),
        ip,
        userAgent: meta.userAgent.slice(0, 300),
      });
      if (deps.config.singleSession) await repo.revokeUserSessions(tx, user.id, 'replaced', t, session.id);
      await writeOpLog(tx, actorOf(user, ip), { glName: '账号', recordId: user.id, logbook: '登录系统' });
    });
    return {
      token,
      userInfo: await buildUserInfo(user),
      roles: rolesFor(user.loginRoleType),
      codeStatus: user.mustChangePassword ? 1 : 0,
    };
  }

  /** Resolve a bearer token to a live session, sliding its expiry; throws the 401 codes otherwise. */
  async function authenticate(token: string | null, ip: string | null): Promise<AuthContext> {
    if (!token) throw unauthorized();
    if (token.length > 200) throw unauthorized(Code.TOKEN_INVALID, Msg.TOKEN_INVALID);
    const epoch = repo.currentAuthEpoch();
    const kept = recent.get(token);
    let row: repo.SessionWithUser | undefined;
    if (kept && kept.epoch === epoch && performance.now() - kept.at < SESSION_CACHE_MS) row = kept.row;
    else {
      if (kept) recent.delete(token);
      row = await repo.findSessionByHash(db, sha256Hex(token));
      if (!row) throw unauthorized(Code.TOKEN_INVALID, Msg.TOKEN_INVALID);
      // only a live session is kept, and only if nothing changed while it was read
      if (!row.session.revokedAt && row.user.status === 'active' && repo.currentAuthEpoch() === epoch) {
        if (recent.size >= SESSION_CACHE_MAX) recent.delete(recent.keys().next().value!);
        recent.set(token, { row, at: performance.now(), epoch });
      }
    }
    const { session, user } = row;
    if (session.revokedAt) {
      if (session.revokeReason === 'replaced') throw unauthorized(Code.SIGNED_IN_ELSEWHERE, Msg.SIGNED_IN_ELSEWHERE);
      throw unauthorized(Code.TOKEN_INVALID, Msg.TOKEN_INVALID);
    }
    const t = now();
    if (session.expiresAt.getTime() <= t.getTime()) throw unauthorized(Code.SESSION_EXPIRED, Msg.SESSION_EXPIRED);
    if (user.status !== 'active') throw unauthorized(Code.TOKEN_INVALID, Msg.ACCOUNT_DISABLED);
    if (t.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
      const expiresAt = new Date(t.getTime() + ttlMs);
      await repo.touchSession(db, session.id, t, expiresAt);
      // the kept copy slides with it (a copy: a request in flight keeps the row it read)
      const k = recent.get(token);
      if (k?.row === row) k.row = { user, session: { ...session, lastSeenAt: t, expiresAt } };
    }
    return { user, sessionId: session.id, actor: actorOf(user, ip) };
  }

  async function logout(ctx: AuthContext): Promise<void> {
    await db.transaction(async (tx) => {
      const revoked = await repo.revokeSession(tx, ctx.sessionId, 'logout', now());
      if (revoked) await writeOpLog(tx, ctx.actor, { glName: '账号', recordId: ctx.user.id, logbook: '退出登录' });
    });
  }

  return { loginKeys, createCaptcha, login, authenticate, logout, buildUserInfo };
}

export type AuthService = ReturnType<typeof createAuthService>;

export function actorOf(u: repo.UserRow, ip: string | null = null): Actor {
  return { userId: u.id, userName: u.userName, loginRoleType: u.loginRoleType as LoginRoleType, ip };
}
