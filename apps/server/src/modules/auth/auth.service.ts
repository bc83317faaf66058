import { randomUUID } from 'node:crypto';
import {
  AccountMsg,
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
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { createCache } from '../../platform/cache';
import { generateLoginKeyPair, newToken, rsaDecrypt, sha256Hex } from '../../platform/crypto';
import { AppError, badRequest, parse, tooMany, unauthorized, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { dummyHash, hashPassword, passwordProblem, passwordReused, verifyPassword } from '../../platform/password';
import { getSettings, putSettingsIfAbsent } from '../../platform/settings';
import type { SmsService } from '../sms/sms.service';
import * as repo from './auth.repo';
import { renderCaptcha } from './captcha';

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const CAPTCHA_AFTER_FAILURES = 3;
export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MS = 15 * 60_000;
export const CAPTCHA_TTL_MS = 5 * 60_000;
/** A login nonce is good this long after the public key was fetched. */
export const NONCE_TTL_MS = 5 * 60_000;
/** Don't write last-seen more often than this per session. */
const TOUCH_EVERY_MS = 60_000;
/**
 * A live session read from the database is trusted for this long (a page's burst of requests reads it once). A change
 * made through this process (sign-out, revocation, an account's status or details) is seen at once; one made through
 * another server process within this time.
 */
export const SESSION_CACHE_MS = 2_000;

/**
 * Live sessions by token, as read in auth epoch `epoch` (a hit needs no hashing), for SESSION_CACHE_MS. Tokens are
 * random, so every auth service of the process (one per app; several in tests) shares the one cache.
 */
const recent = createCache<string, { row: repo.SessionWithUser; epoch: number }>('auth.sessions', {
  max: 10_000,
  ttlMs: SESSION_CACHE_MS,
});

export interface AuthDeps {
  db: Db;
  config: Pick<Config, 'sessionTtlMinutes' | 'singleSession' | 'loginAddressCaptchaAfter'>;
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
      await putSettingsIfAbsent(db, { 'login.privateKey': fresh.privateKey, 'login.publicKey': fresh.publicKey });
      stored = await getSettings(db, names);
    }
    const publicKey = stored['login.publicKey'];
    const privateKey = stored['login.privateKey'];
    if (!publicKey || !privateKey) throw new Error('login key pair incomplete');
    return { publicKey, privateKey };
  }

  async function createCaptcha(): Promise<{ uuid: string; img: string }> {
    const c = await renderCaptcha();
    const uuid = randomUUID();
    const t = now();
    await repo.insertCaptcha(db, uuid, sha256Hex(c.text.toLowerCase()), new Date(t.getTime() + CAPTCHA_TTL_MS));
    if (Math.random() < 0.05) await repo.deleteStaleCaptchas(db, t);
    return { uuid, img: `data:image/png;base64,${c.png.toString('base64')}` };
  }

  /** The public key with a fresh single-use nonce for the next sign-in. */
  async function publicKeyWithNonce(): Promise<{ publicKey: string; nonce: string }> {
    const { publicKey } = await loginKeys();
    const nonce = randomUUID();
    const t = now();
    await repo.insertNonce(db, nonce, new Date(t.getTime() + NONCE_TTL_MS));
    if (Math.random() < 0.02) await repo.deleteStaleNonces(db, t);
    return { publicKey, nonce };
  }

  /** Is a captcha needed for this account from this address now (failures of the account, or of the address)? */
  async function captchaNeeded(logValue: string, ip: string): Promise<boolean> {
    const fails = await repo.failureCounts(
      db,
      logValue.trim().toLowerCase(),
      ip.slice(0, 64),
      new Date(now().getTime() - LOGIN_WINDOW_MS),
    );
    return needsCaptcha(fails);
  }

  const needsCaptcha = (fails: { account: number; ip: number }) =>
    fails.account >= CAPTCHA_AFTER_FAILURES || fails.ip >= deps.config.loginAddressCaptchaAfter;

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
    const t = now();
    // a sign-in body is good once: its ciphertexts are bound to a nonce (their OAEP label) that is spent here
    if (!(await repo.consumeNonce(db, body.nonce, t))) {
      throw badRequest(Msg.LOGIN_NONCE_INVALID, { nonceInvalid: true });
    }
    const label = Buffer.from(body.nonce, 'utf8');
    const decrypted = {
      logValue: rsaDecrypt(privateKey, body.logValue, label),
      passWord: rsaDecrypt(privateKey, body.passWord, label),
      loginRoleType: rsaDecrypt(privateKey, body.loginRoleType, label),
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
    const since = new Date(t.getTime() - LOGIN_WINDOW_MS);

    // The gate, one sign-in of the account at a time (every process): lock, captcha, then the attempt is counted as
    // failed BEFORE its password is checked — so parallel attempts see each other, and no more passwords are tried
    // than the policy allows. A right password turns the attempt into a success afterwards.
    type Gate =
      | { ok: true; attemptId: number; fails: { account: number; accountIp: number; ip: number } }
      | { ok: false; error: AppError };
    const gate = await db.transaction(async (tx): Promise<Gate> => {
      await repo.serialiseAccount(tx, account);
      const until = await repo.lockedUntil(tx, account, ip, t);
      if (until) return { ok: false, error: lockedError(until) };
      const fails = await repo.failureCounts(tx, account, ip, since);
      if (fails.accountIp >= LOCK_AFTER_FAILURES) {
        // attempts let through before are still being checked: this one waits for nothing, it is refused
        const lockUntil = new Date(t.getTime() + LOCK_MS);
        await repo.lockAccount(tx, account, ip, t, lockUntil);
        return { ok: false, error: lockedError(lockUntil) };
      }
      const captchaRequired = needsCaptcha(fails);
      // a captcha that was sent is checked whether or not one was needed, and before the password
      if (captchaRequired || body.uuid || body.code) {
        if (!body.uuid || !body.code) {
          return { ok: false, error: badRequest(Msg.CAPTCHA_REQUIRED, { captchaRequired: true }) };
        }
        const answer = await repo.consumeCaptcha(tx, body.uuid, t);
        if (!answer || answer !== sha256Hex(body.code.trim().toLowerCase())) {
          return { ok: false, error: badRequest(Msg.CAPTCHA_WRONG, { captchaRequired: true }) };
        }
      }
      const attemptId = await repo.recordAttempt(tx, account, ip, false, t, meta.userAgent);
      return { ok: true, attemptId, fails };
    });
    if (!gate.ok) throw gate.error;
    const { fails, attemptId } = gate;

    const user = await repo.findUserByAccount(db, account);
    const passwordOk = await verifyPassword(plain.passWord, user?.passwordHash ?? (await dummyHash()));
    if (!user || !passwordOk || user.loginRoleType !== plain.loginRoleType) {
      if (fails.accountIp + 1 >= LOCK_AFTER_FAILURES) {
        const lockUntil = new Date(t.getTime() + LOCK_MS);
        await db.transaction(async (tx) => {
          await repo.lockAccount(tx, account, ip, t, lockUntil);
          if (user) {
            await writeOpLog(tx, actorOf(user, ip), {
              glName: '账号',
              recordId: user.id,
              logbook: `连续 ${LOCK_AFTER_FAILURES} 次密码错误，来自 ${ip} 的登录已锁定至 ${formatCst(lockUntil)}`,
              failInfo: '登录失败次数过多',
            });
          }
        });
        throw lockedError(lockUntil);
      }
      throw badRequest(Msg.BAD_CREDENTIALS, {
        captchaRequired: needsCaptcha({ account: fails.account + 1, ip: fails.ip + 1 }),
      });
    }
    if (user.status !== 'active') throw new AppError(403, Code.FORBIDDEN, Msg.ACCOUNT_DISABLED);

    const token = newToken();
    const notice = await db.transaction(async (tx) => {
      await repo.markAttemptSucceeded(tx, attemptId);
      await openSession(tx, token, user, { ip, userAgent: meta.userAgent }, t, '登录系统');
      // the owner is told of locks since their previous sign-in (someone may be guessing the password)
      const locks = await repo.locksSince(tx, account, await repo.previousSuccess(tx, account, attemptId));
      return locks.length ? lockNotice(locks) : null;
    });
    return {
      token,
      userInfo: await buildUserInfo(user),
      roles: rolesFor(user.loginRoleType),
      codeStatus: user.mustChangePassword ? 1 : 0,
      securityNotice: notice,
    };
  }

  /**
   * A new session of `user` (the token's hash is stored), ending the account's others when SINGLE_SESSION is on, with
   * its op-log row: every way of signing in goes through here.
   */
  async function openSession(
    tx: Tx,
    token: string,
    user: repo.UserRow,
    meta: { ip: string; userAgent: string },
    t: Date,
    logbook: string,
  ): Promise<void> {
    const session = await repo.insertSession(tx, {
      tokenHash: sha256Hex(token),
      userId: user.id,
      createdAt: t,
      lastSeenAt: t,
      expiresAt: new Date(t.getTime() + ttlMs),
      ip: meta.ip,
      userAgent: meta.userAgent.slice(0, 300),
    });
    if (deps.config.singleSession) await repo.revokeUserSessions(tx, user.id, 'replaced', t, session.id);
    await writeOpLog(tx, actorOf(user, meta.ip), { glName: '账号', recordId: user.id, logbook });
  }

  /**
   * Sign in with a phone and an SMS code (purpose 'login'). An unknown phone answers as a wrong code does; a wrong code
   * of a known account counts as a failed sign-in of it (its history shows it).
   */
  async function smsLogin(
    sms: SmsService,
    body: { phone: string; code: string; loginRoleType?: string },
    meta: { ip: string; userAgent: string },
  ): Promise<LoginResponse> {
    const ip = meta.ip.slice(0, 64);
    const candidates = (await repo.activeUsersByPhone(db, body.phone)).filter(
      (u) => !body.loginRoleType || u.loginRoleType === body.loginRoleType,
    );
    let proof: string;
    try {
      ({ proof } = await sms.verifyCode(body.phone, 'login', body.code));
    } catch (e) {
      if (candidates.length === 1)
        await repo.recordAttempt(db, candidates[0]!.account, ip, false, now(), meta.userAgent);
      throw e;
    }
    const wrong = () => validationFailed({ code: [AccountMsg.SMS_LOGIN_FAILED] });
    if (candidates.length === 0) throw wrong();
    if (candidates.length > 1)
      throw badRequest(AccountMsg.RESET_MANY_ACCOUNTS.replace('，请同时填写账号', '，请使用账号密码登录'));
    const user = candidates[0]!;
    const t = now();
    const token = newToken();
    await db.transaction(async (tx) => {
      await sms.consumeProof(tx, body.phone, 'login', proof);
      await repo.recordAttempt(tx, user.account, ip, true, t, meta.userAgent);
      await openSession(tx, token, user, { ip, userAgent: meta.userAgent }, t, '短信验证码登录');
    });
    return {
      token,
      userInfo: await buildUserInfo(user),
      roles: rolesFor(user.loginRoleType),
      codeStatus: user.mustChangePassword ? 1 : 0,
      securityNotice: null,
    };
  }

  /** Resolve a bearer token to a live session, sliding its expiry; throws the 401 codes otherwise. */
  async function authenticate(token: string | null, ip: string | null): Promise<AuthContext> {
    if (!token) throw unauthorized();
    if (token.length > 200) throw unauthorized(Code.TOKEN_INVALID, Msg.TOKEN_INVALID);
    const epoch = repo.currentAuthEpoch();
    const kept = recent.get(token);
    let row: repo.SessionWithUser | undefined;
    if (kept && kept.epoch === epoch) row = kept.row;
    else {
      if (kept) recent.delete(token);
      row = await repo.findSessionByHash(db, sha256Hex(token));
      if (!row) throw unauthorized(Code.TOKEN_INVALID, Msg.TOKEN_INVALID);
      // only a live session is kept, and only if nothing changed while it was read
      if (!row.session.revokedAt && row.user.status === 'active' && repo.currentAuthEpoch() === epoch) {
        recent.set(token, { row, epoch });
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
      // the kept copy slides with it (a copy: a request in flight keeps the row it read; its age stays)
      const k = recent.get(token);
      if (k?.row === row) k.row = { user, session: { ...session, lastSeenAt: t, expiresAt } };
    }
    return { user, sessionId: session.id, actor: actorOf(user, ip) };
  }

  /**
   * Change one's own password: the old one must be right, the new one strong and different. The account's other
   * sessions end; this one continues (and is no longer held to changing the password).
   */
  async function updateSecret(ctx: AuthContext, body: { oldPassword: string; newPassword: string }): Promise<void> {
    const { privateKey } = await loginKeys();
    const oldPassword = rsaDecrypt(privateKey, body.oldPassword);
    const newPassword = rsaDecrypt(privateKey, body.newPassword);
    if (oldPassword === null || newPassword === null) {
      throw badRequest(Msg.DECRYPT_FAILED, {
        fieldErrors: {
          ...(oldPassword === null ? { oldPassword: [Msg.DECRYPT_FAILED] } : {}),
          ...(newPassword === null ? { newPassword: [Msg.DECRYPT_FAILED] } : {}),
        },
      });
    }
    const user = ctx.user;
    const stored = await repo.passwordOf(db, user.id);
    if (!stored || !(await verifyPassword(oldPassword, stored.passwordHash))) {
      throw badRequest(Msg.OLD_PASSWORD_WRONG, { fieldErrors: { oldPassword: [Msg.OLD_PASSWORD_WRONG] } });
    }
    const problem = passwordProblem(newPassword, user.account);
    if (problem) throw badRequest(problem, { fieldErrors: { newPassword: [problem] } });
    if (newPassword === oldPassword) {
      throw badRequest(Msg.SAME_PASSWORD, { fieldErrors: { newPassword: [Msg.SAME_PASSWORD] } });
    }
    if (await passwordReused(db, user.id, newPassword)) {
      throw validationFailed({ newPassword: [AccountMsg.PASSWORD_REUSED] });
    }
    const passwordHash = await hashPassword(newPassword);
    const t = now();
    await db.transaction(async (tx) => {
      await repo.setPassword(tx, user.id, passwordHash, t);
      await repo.revokeUserSessions(tx, user.id, 'password', t, ctx.sessionId);
      await writeOpLog(tx, ctx.actor, {
        glName: '账号',
        recordId: user.id,
        logbook: stored.mustChangePassword ? '修改密码（管理员重置后）' : '修改密码',
      });
    });
  }

  async function logout(ctx: AuthContext): Promise<void> {
    await db.transaction(async (tx) => {
      const revoked = await repo.revokeSession(tx, ctx.sessionId, 'logout', now());
      if (revoked) await writeOpLog(tx, ctx.actor, { glName: '账号', recordId: ctx.user.id, logbook: '退出登录' });
    });
  }

  return {
    smsLogin,
    loginKeys,
    publicKeyWithNonce,
    createCaptcha,
    captchaNeeded,
    login,
    authenticate,
    logout,
    buildUserInfo,
    updateSecret,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

export function actorOf(u: repo.UserRow, ip: string | null = null): Actor {
  return { userId: u.id, userName: u.userName, loginRoleType: u.loginRoleType as LoginRoleType, ip };
}

const lockedError = (until: Date) =>
  tooMany(accountLockedMessage(until), { captchaRequired: true, lockedUntil: until.toISOString() });

/** yyyy-MM-dd HH:mm in China Standard Time. */
function formatCst(d: Date): string {
  return accountLockedMessage(d).match(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/)?.[0] ?? d.toISOString();
}

/** What the owner reads after signing in when their account was locked since their previous sign-in. */
export function lockNotice(locks: { ip: string; lockedAt: Date }[]): string {
  const where = [...new Set(locks.map((l) => l.ip))].slice(0, 3).join('、');
  return `您的账号自上次登录以来因连续 ${LOCK_AFTER_FAILURES} 次密码错误被锁定 ${locks.length} 次（最近一次：${formatCst(new Date(locks[0]!.lockedAt))}，来自 ${where}）。如非本人操作，请及时修改密码。`;
}
