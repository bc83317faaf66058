import { randomUUID } from 'node:crypto';
import {
  AccountMsg,
  accountLockedMessage,
  Code,
  LOGIN_METHOD_LABELS,
  type LoginDevice,
  type LoginMethod,
  type LoginRequest,
  type LoginResponse,
  type LoginRoleType,
  loginPlainSchema,
  Msg,
  type PracticeDetail,
  REGISTER_MESSAGES,
  type RefreshResponse,
  rolesFor,
  SessionMsg,
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
  config: Pick<Config, 'sessionTtlMinutes' | 'singleSession' | 'loginAddressCaptchaAfter'> &
    Partial<Pick<Config, 'refreshTtlMs'>>;
  now?: () => Date;
}

/** A sign-in can be kept alive by refresh tokens this long when the configuration does not say (12 hours). */
export const DEFAULT_REFRESH_TTL_MS = 12 * 3600_000;

export interface SessionPair {
  token: string;
  refreshToken: string;
  sessionId: string;
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
  const refreshTtlMs = deps.config.refreshTtlMs ?? DEFAULT_REFRESH_TTL_MS;
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
      await signInAccount(logValue, 'U'),
      ip.slice(0, 64),
      new Date(now().getTime() - LOGIN_WINDOW_MS),
    );
    return needsCaptcha(fails);
  }

  /**
   * The account a sign-in names: the account typed, or — for 企业/个人 (U) when no account has that name and it has
   * the shape of a unified social credit code — the administrator account of the enterprise with that code
   * (/creditCode). Failures, captcha and locks count against the account it resolves to, whichever way it was typed.
   */
  async function signInAccount(logValue: string, loginRoleType: string): Promise<string> {
    const account = logValue.trim().toLowerCase();
    if (loginRoleType !== 'U') return account;
    const code = logValue.trim().toUpperCase();
    if (!/^[0-9A-HJ-NP-RTUW-Y]{18}$/.test(code)) return account;
    if (await repo.findUserByAccount(db, account)) return account;
    return (await repo.accountOfCreditCode(db, code)) ?? account;
  }

  /**
   * A captcha is needed after CAPTCHA_AFTER_FAILURES failures of the account, or LOGIN_ADDRESS_CAPTCHA_AFTER of the
   * address. Of the address's attempts still being checked (counted as failures until their password is known, so that
   * parallel attempts see each other) only those beyond that same number count: an office behind one address signing
   * in at nine o'clock is not asked for captchas without a wrong password, and someone trying many accounts at once
   * from one address gets at most twice the threshold before every attempt needs one.
   */
  const needsCaptcha = (fails: { account: number; ip: number; ipChecking?: number }) => {
    const after = deps.config.loginAddressCaptchaAfter;
    return fails.account >= CAPTCHA_AFTER_FAILURES || fails.ip + Math.max(0, (fails.ipChecking ?? 0) - after) >= after;
  };

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

  /**
   * Fields the browser sealed with a login nonce (RSA-OAEP, the nonce as label): the nonce is spent here (good once),
   * then each field is decrypted; a 400 when the nonce is not live or a field does not decrypt.
   */
  async function openSealed<K extends string>(nonce: string, fields: Record<K, string>): Promise<Record<K, string>> {
    const { privateKey } = await loginKeys();
    if (!(await repo.consumeNonce(db, nonce, now()))) {
      throw badRequest(Msg.LOGIN_NONCE_INVALID, { nonceInvalid: true });
    }
    const label = Buffer.from(nonce, 'utf8');
    const decrypted = Object.fromEntries(
      Object.entries<string>(fields).map(([k, v]) => [k, rsaDecrypt(privateKey, v, label)]),
    ) as Record<K, string | null>;
    const undecryptable = Object.entries(decrypted)
      .filter(([, v]) => v === null)
      .map(([k]) => k);
    if (undecryptable.length) {
      throw badRequest(Msg.DECRYPT_FAILED, {
        fieldErrors: Object.fromEntries(undecryptable.map((k) => [k, [Msg.DECRYPT_FAILED]])),
      });
    }
    return decrypted as Record<K, string>;
  }

  async function login(body: LoginRequest, meta: { ip: string; userAgent: string }): Promise<LoginResponse> {
    const t = now();
    // a sign-in body is good once: its ciphertexts are bound to a nonce (their OAEP label) that is spent here
    const decrypted = await openSealed(body.nonce, {
      logValue: body.logValue,
      passWord: body.passWord,
      loginRoleType: body.loginRoleType,
    });
    const plain = parse(loginPlainSchema, decrypted);
    const { user, attemptId } = await checkPassword(
      {
        account: plain.logValue,
        password: plain.passWord,
        loginRoleType: plain.loginRoleType,
        uuid: body.uuid,
        code: body.code,
        userAgent: meta.userAgent,
      },
      meta.ip,
      t,
    );
    return openSession(user, meta, t, { logbook: '登录系统', attemptId });
  }

  /**
   * The password of an account, under the sign-in rules (lock, captcha, failures counted): the active user, and the
   * attempt (counted as failed until the caller marks it succeeded — openSession does). Throws the sign-in's errors.
   */
  async function checkPassword(
    input: {
      account: string;
      password: string;
      loginRoleType: string;
      uuid?: string;
      code?: string;
      userAgent?: string;
    },
    ipOf: string,
    t: Date,
  ): Promise<{ user: repo.UserRow; attemptId: number }> {
    const account = await signInAccount(input.account, input.loginRoleType);
    const ip = ipOf.slice(0, 64);
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
      if (captchaRequired || input.uuid || input.code) {
        if (!input.uuid || !input.code) {
          return { ok: false, error: badRequest(Msg.CAPTCHA_REQUIRED, { captchaRequired: true }) };
        }
        const answer = await repo.consumeCaptcha(tx, input.uuid, t);
        if (!answer || answer !== sha256Hex(input.code.trim().toLowerCase())) {
          return { ok: false, error: badRequest(Msg.CAPTCHA_WRONG, { captchaRequired: true }) };
        }
      }
      const attemptId = await repo.recordAttempt(tx, account, ip, false, t, input.userAgent, true);
      return { ok: true, attemptId, fails };
    });
    if (!gate.ok) throw gate.error;
    const { fails, attemptId } = gate;

    const user = await repo.findUserByAccount(db, account);
    const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? (await dummyHash()));
    const wrong = !user || !passwordOk || user.loginRoleType !== input.loginRoleType;
    // a failure is known now (a success is marked with the session, openSession)
    if (wrong || user.status !== 'active') await repo.settleAttempt(db, attemptId, now());
    if (wrong) {
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
        captchaRequired: needsCaptcha({ ...fails, account: fails.account + 1, ip: fails.ip + 1 }),
      });
    }
    if (user.status !== 'active') {
      throw new AppError(
        403,
        Code.FORBIDDEN,
        user.status === 'inactive' ? REGISTER_MESSAGES.notActivated : Msg.ACCOUNT_DISABLED,
      );
    }
    return { user, attemptId };
  }

  /**
   * Signs `user` in (after a password or a certificate has proven them): a session and its refresh-token family
   * (startSession: the account's others ended under SINGLE_SESSION, an operation-log row `logbook`), the attempt
   * recorded as a success (`attemptId`: the one checkPassword counted; else a new row), and the owner told of locks
   * since the previous sign-in.
   */
  async function openSession(
    user: repo.UserRow,
    meta: { ip: string; userAgent: string },
    t: Date,
    opts: { logbook: string; attemptId?: number; method?: string },
  ): Promise<LoginResponse> {
    const ip = meta.ip.slice(0, 64);
    const { pair, notice } = await db.transaction(async (tx) => {
      let attemptId = opts.attemptId;
      if (attemptId === undefined) {
        attemptId = await repo.recordAttempt(tx, user.account, ip, true, t, meta.userAgent);
      } else await repo.markAttemptSucceeded(tx, attemptId);
      const pair = await startSession(
        tx,
        user,
        { ip, userAgent: meta.userAgent },
        opts.method ?? 'password',
        opts.logbook,
      );
      // the owner is told of locks since their previous sign-in (someone may be guessing the password)
      const locks = await repo.locksSince(tx, user.account, await repo.previousSuccess(tx, user.account, attemptId));
      return { pair, notice: locks.length ? lockNotice(locks) : null };
    });
    return signInAnswer(user, pair, notice);
  }

  /**
   * Start a session for a user who has just proved who they are (every sign-in path: password, WeChat, CA …): the
   * session and its refresh token (a new family), the single-session rule (the account's other sessions end as
   * 'replaced'), and the operation-log row `logbook`. Run inside the sign-in's transaction.
   */
  async function startSession(
    tx: Tx,
    user: repo.UserRow,
    meta: { ip: string; userAgent: string },
    method: string,
    logbook: string,
  ): Promise<SessionPair> {
    const t = now();
    const ip = meta.ip.slice(0, 64);
    const pair = await insertPair(tx, user.id, { ip, userAgent: meta.userAgent }, t, {
      familyId: randomUUID(),
      method,
      signedInAt: t,
      expiresAt: new Date(t.getTime() + refreshTtlMs),
    });
    if (deps.config.singleSession) await repo.revokeUserSessions(tx, user.id, 'replaced', t, pair.sessionId);
    await writeOpLog(tx, actorOf(user, ip), { glName: '账号', recordId: user.id, logbook });
    return pair;
  }

  /** A session row and its refresh token in a family. */
  async function insertPair(
    tx: Tx,
    userId: string,
    meta: { ip: string; userAgent: string },
    t: Date,
    family: { familyId: string; method: string; signedInAt: Date; expiresAt: Date },
  ): Promise<SessionPair> {
    const token = newToken();
    const refreshToken = newToken();
    const session = await repo.insertSession(tx, {
      tokenHash: sha256Hex(token),
      userId,
      createdAt: t,
      lastSeenAt: t,
      expiresAt: new Date(t.getTime() + ttlMs),
      ip: meta.ip.slice(0, 64),
      userAgent: meta.userAgent.slice(0, 300),
    });
    await repo.insertRefreshToken(tx, {
      ...family,
      sessionId: session.id,
      userId,
      tokenHash: sha256Hex(refreshToken),
      createdAt: t,
    });
    return { token, refreshToken, sessionId: session.id };
  }

  /** What every sign-in answers (LoginResponse). */
  async function signInAnswer(
    user: repo.UserRow,
    pair: SessionPair,
    notice: string | null = null,
  ): Promise<LoginResponse> {
    return {
      token: pair.token,
      refreshToken: pair.refreshToken,
      userInfo: await buildUserInfo(user),
      roles: rolesFor(user.loginRoleType),
      codeStatus: user.mustChangePassword ? 1 : 0,
      securityNotice: notice,
    };
  }

  /**
   * Trade a refresh token for a new pair (rotation): its session ends ('rotated'), the new one continues the family
   * until the family's absolute end. A token already rotated is being replayed — by a thief or by the owner after a
   * thief — so the whole family ends ('reuse'), logged, and the caller must sign in again. Works on a session that
   * merely expired (that is its purpose), never on one that was signed out, replaced or revoked.
   */
  async function refresh(refreshToken: string, meta: { ip: string; userAgent: string }): Promise<RefreshResponse> {
    const t = now();
    const ip = meta.ip.slice(0, 64);
    const outcome = await db.transaction(
      async (tx): Promise<{ ok: true; pair: SessionPair } | { ok: false; error: AppError }> => {
        const row = await repo.lockRefreshToken(tx, sha256Hex(refreshToken));
        if (!row) return { ok: false, error: unauthorized(Code.TOKEN_INVALID, SessionMsg.REFRESH_INVALID) };
        const { rt, session, user } = row;
        if (rt.rotatedAt) {
          const ended = await repo.revokeFamily(tx, rt.familyId, 'reuse', t);
          await writeOpLog(tx, actorOf(user, ip), {
            glName: '账号',
            recordId: user.id,
            logbook: `已轮换的刷新令牌被再次使用，注销该次登录的全部会话（${ended} 个）`,
            failInfo: '刷新令牌重复使用',
          });
          // committed: the family stays ended whatever the caller does next
          return { ok: false, error: unauthorized(Code.TOKEN_INVALID, SessionMsg.REFRESH_REUSED) };
        }
        if (session.revokedAt) {
          return {
            ok: false,
            error:
              session.revokeReason === 'replaced'
                ? unauthorized(Code.SIGNED_IN_ELSEWHERE, Msg.SIGNED_IN_ELSEWHERE)
                : unauthorized(Code.TOKEN_INVALID, SessionMsg.REFRESH_INVALID),
          };
        }
        if (rt.expiresAt.getTime() <= t.getTime()) {
          return { ok: false, error: unauthorized(Code.SESSION_EXPIRED, SessionMsg.REFRESH_EXPIRED) };
        }
        if (user.status !== 'active')
          return { ok: false, error: unauthorized(Code.TOKEN_INVALID, Msg.ACCOUNT_DISABLED) };
        if (!(await repo.markRotated(tx, rt.id, t))) {
          return { ok: false, error: unauthorized(Code.TOKEN_INVALID, SessionMsg.REFRESH_INVALID) };
        }
        await repo.revokeSession(tx, session.id, 'rotated', t);
        const pair = await insertPair(tx, user.id, { ip, userAgent: meta.userAgent }, t, {
          familyId: rt.familyId,
          method: rt.method,
          signedInAt: rt.signedInAt,
          expiresAt: rt.expiresAt,
        });
        await writeOpLog(tx, actorOf(user, ip), { glName: '账号', recordId: user.id, logbook: '刷新登录令牌' });
        return { ok: true, pair };
      },
    );
    if (!outcome.ok) throw outcome.error;
    return { token: outcome.pair.token, refreshToken: outcome.pair.refreshToken };
  }

  /** The caller's live sessions: the 登录设备 list. */
  async function loginDevices(ctx: AuthContext): Promise<LoginDevice[]> {
    const rows = await repo.liveSessionsOf(db, ctx.user.id, now());
    return rows.map((r) => ({
      id: r.id,
      device: deviceOf(r.userAgent ?? ''),
      userAgent: r.userAgent ?? '',
      ip: r.ip ?? '',
      method: LOGIN_METHOD_LABELS[(r.method ?? 'password') as LoginMethod] ?? r.method ?? '',
      signedInAt: new Date(r.signedInAt ?? r.createdAt).toISOString(),
      lastSeenAt: new Date(r.lastSeenAt).toISOString(),
      current: r.id === ctx.sessionId,
    }));
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
    const pair = await db.transaction(async (tx) => {
      await sms.consumeProof(tx, body.phone, 'login', proof);
      await repo.recordAttempt(tx, user.account, ip, true, t, meta.userAgent);
      return startSession(tx, user, { ip, userAgent: meta.userAgent }, 'sms', '短信验证码登录');
    });
    return signInAnswer(user, pair);
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
    startSession,
    signInAnswer,
    refresh,
    loginDevices,
    openSealed,
    checkPassword,
    openSession,
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

/** 'Chrome 120 · Windows' from a user agent (the 登录设备 list); the raw text goes along for the details. */
export function deviceOf(ua: string): string {
  const browser =
    /Edg\/(\d+)/.exec(ua)?.[1] !== undefined
      ? `Edge ${/Edg\/(\d+)/.exec(ua)?.[1]}`
      : /MicroMessenger\/([\d.]+)/.test(ua)
        ? '微信内置浏览器'
        : /Firefox\/(\d+)/.test(ua)
          ? `Firefox ${/Firefox\/(\d+)/.exec(ua)?.[1]}`
          : /Chrome\/(\d+)/.test(ua)
            ? `Chrome ${/Chrome\/(\d+)/.exec(ua)?.[1]}`
            : /Version\/(\d+).*Safari/.test(ua)
              ? `Safari ${/Version\/(\d+)/.exec(ua)?.[1]}`
              : '';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad|iOS/.test(ua)
        ? 'iOS'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  const parts = [browser, os].filter(Boolean);
  return parts.length ? parts.join(' · ') : ua ? '其他设备' : '未知设备';
}
