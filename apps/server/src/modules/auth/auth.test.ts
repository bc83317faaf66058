import { randomUUID } from 'node:crypto';
import { Code, Msg } from '@ks/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accountLocks, loginAttempts, operationLogs, sessions, users } from '../../db/schema';
import { sha256Hex } from '../../platform/crypto';
import {
  bearer,
  createTestApp,
  json,
  loginRaw,
  loginToken,
  publicKeyOf,
  type TestApp,
  usingPostgres,
} from '../../test/harness';
import { AUTH_CHANNEL, forgetSessions, insertCaptcha } from './auth.repo';
import { SESSION_CACHE_MS } from './auth.service';

type Body = { code: number; data: any; message: string };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  // Each test starts with a clean failure history.
  await t.database.db.delete(loginAttempts);
  await t.database.db.delete(accountLocks);
  t.clock.now = new Date();
});

/** A captcha whose answer the test knows, as if read off the image. */
async function knownCaptcha(answer = 'ab3d') {
  const uuid = randomUUID();
  await insertCaptcha(t.database.db, uuid, sha256Hex(answer), new Date(t.clock.now.getTime() + 300_000));
  return { uuid, code: answer.toUpperCase() };
}

describe('public key', () => {
  it('is a PEM RSA key kept in the database, the same on every call and after a restart', async () => {
    const a = await publicKeyOf(t.app);
    expect(a).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(await publicKeyOf(t.app)).toBe(a);
    const again = await createTestApp({ database: t.database, seed: false });
    expect(await publicKeyOf(again.app)).toBe(a);
    await again.app.close();
  });

  it('is one pair when first asked for by many requests at once, in one process and in two', async () => {
    const fresh = await createTestApp({ seed: false });
    const other = await createTestApp({ database: fresh.database, seed: false });
    try {
      const keys = await Promise.all(Array.from({ length: 12 }, (_, i) => publicKeyOf((i % 2 ? other : fresh).app)));
      expect(keys[0]).toMatch(/^-----BEGIN PUBLIC KEY-----/);
      expect(new Set(keys).size).toBe(1);
    } finally {
      await other.app.close();
      await fresh.close();
    }
  });
});

describe('sign-in', () => {
  it.each([
    ['admin', 'M', ['admin']],
    ['dev', 'D', ['user']],
    ['user1', 'U', ['user']],
  ])('%s signs in with role %s', async (account, role, roles) => {
    const res = await loginRaw(t.app, account, 'Demo@2026', role);
    expect(res.statusCode).toBe(200);
    const body = json<Body>(res);
    expect(body.code).toBe(200);
    expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.data.roles).toEqual(roles);
    expect(body.data.codeStatus).toBe(0);
    expect(body.data.userInfo).toMatchObject({ loginRoleType: role, photo: null });
    expect(typeof body.data.userInfo.id).toBe('string');
  });

  it('gives user1 the enterprise and the abnormal practice status', async () => {
    const body = json<Body>(await loginRaw(t.app, 'user1', 'Demo@2026', 'U'));
    expect(body.data.userInfo.enterpriseName).toBe('示例建设工程有限公司');
    expect(body.data.userInfo.practicingStatus.abnormal).toContain('大同市');
    expect(body.data.userInfo.practicingStatus.practiceDetails).toHaveLength(3);
  });

  it('stores only a hash of the token and writes an operation-log row', async () => {
    const token = await loginToken(t.app, 'admin', 'M');
    const rows = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256Hex(token)));
    expect(rows).toHaveLength(1);
    const [u] = await t.database.db.select().from(users).where(eq(users.account, 'admin'));
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.userId, u!.id));
    expect(logs.some((l) => l.logbook === '登录系统' && l.czrClassification === '管理员')).toBe(true);
  });

  it('refuses plaintext credentials with 400 and field errors', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ks/common/login',
      payload: { logValue: 'admin', passWord: 'Demo@2026', loginRoleType: 'M' },
    });
    expect(res.statusCode).toBe(400);
    const body = json<Body>(res);
    expect(body.code).toBe(400);
    expect(body.message).toBe(Msg.DECRYPT_FAILED);
    expect(Object.keys(body.data.fieldErrors).sort()).toEqual(['logValue', 'loginRoleType', 'passWord']);
  });

  it('refuses a body with missing fields with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/ks/common/login', payload: { logValue: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(json<Body>(res).data.fieldErrors.passWord).toBeDefined();
  });

  it('refuses an unknown role type', async () => {
    const res = await loginRaw(t.app, 'admin', 'Demo@2026', 'X');
    expect(res.statusCode).toBe(400);
    expect(json<Body>(res).data.fieldErrors.loginRoleType).toBeDefined();
  });

  it('answers an unknown account, a wrong password and a wrong role alike', async () => {
    const a = await loginRaw(t.app, 'nobody', 'Demo@2026', 'U');
    const b = await loginRaw(t.app, 'user1', 'wrong', 'U', { ip: '10.0.0.2' });
    const c = await loginRaw(t.app, 'user1', 'Demo@2026', 'M', { ip: '10.0.0.3' });
    for (const r of [a, b, c]) {
      expect(r.statusCode).toBe(400);
      expect(json<Body>(r).message).toBe(Msg.BAD_CREDENTIALS);
    }
  });

  it('asks for a captcha after 3 failures and checks it', async () => {
    for (let i = 0; i < 3; i++) await loginRaw(t.app, 'dev', 'bad', 'D');
    const noCaptcha = await loginRaw(t.app, 'dev', 'Demo@2026', 'D');
    expect(noCaptcha.statusCode).toBe(400);
    expect(json<Body>(noCaptcha)).toMatchObject({ message: Msg.CAPTCHA_REQUIRED, data: { captchaRequired: true } });

    const wrong = await knownCaptcha();
    const r1 = await loginRaw(t.app, 'dev', 'Demo@2026', 'D', { uuid: wrong.uuid, code: 'zzzz' });
    expect(json<Body>(r1).message).toBe(Msg.CAPTCHA_WRONG);
    // single use: the same captcha, now with the right answer, is spent
    const r2 = await loginRaw(t.app, 'dev', 'Demo@2026', 'D', wrong);
    expect(json<Body>(r2).message).toBe(Msg.CAPTCHA_WRONG);

    const good = await knownCaptcha();
    const ok = await loginRaw(t.app, 'dev', 'Demo@2026', 'D', good);
    expect(ok.statusCode).toBe(200);
  });

  it('asks for a captcha after 3 failures from one address across accounts', async () => {
    for (const a of ['x1', 'x2', 'x3']) await loginRaw(t.app, a, 'bad', 'U', { ip: '10.9.9.9' });
    const res = await loginRaw(t.app, 'user1', 'Demo@2026', 'U', { ip: '10.9.9.9' });
    expect(json<Body>(res).data.captchaRequired).toBe(true);
  });

  it('serves an SVG captcha', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ks/common/captcha' });
    const body = json<Body>(res);
    expect(body.data.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.data.img).toMatch(/^<svg[\s\S]*<\/svg>$/);
  });

  it('locks the account after 5 failures: 6 wrong passwords then the right one alone is refused', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const c = i >= 3 ? await knownCaptcha() : {};
      const res = await loginRaw(t.app, 'user1', `wrong${i}`, 'U', c);
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    const right = await loginRaw(t.app, 'user1', 'Demo@2026', 'U', await knownCaptcha());
    expect(right.statusCode).toBe(429);
    const body = json<Body>(right);
    expect(body.message).toMatch(/账号已锁定，请于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} 后再试/);
    expect(body.data.lockedUntil).toBeDefined();

    // 15 minutes later the lock and the failure window are over.
    t.clock.advance(15 * 60_000 + 1000);
    const later = await loginRaw(t.app, 'user1', 'Demo@2026', 'U');
    expect(later.statusCode).toBe(200);
  });

  it('a success resets the account failure count', async () => {
    await loginRaw(t.app, 'admin', 'bad', 'M', { ip: '10.1.1.1' });
    await loginRaw(t.app, 'admin', 'bad', 'M', { ip: '10.1.1.2' });
    expect((await loginRaw(t.app, 'admin', 'Demo@2026', 'M', { ip: '10.1.1.3' })).statusCode).toBe(200);
    t.clock.advance(1000);
    await loginRaw(t.app, 'admin', 'bad', 'M', { ip: '10.1.1.4' });
    const res = await loginRaw(t.app, 'admin', 'bad', 'M', { ip: '10.1.1.5' });
    expect(json<Body>(res).data.captchaRequired).toBe(false);
  });

  it('refuses a disabled account with 403 after a correct password', async () => {
    await t.database.db.update(users).set({ status: 'disabled' }).where(eq(users.account, 'dev'));
    forgetSessions();
    const res = await loginRaw(t.app, 'dev', 'Demo@2026', 'D');
    await t.database.db.update(users).set({ status: 'active' }).where(eq(users.account, 'dev'));
    expect(res.statusCode).toBe(403);
    expect(json<Body>(res).message).toBe(Msg.ACCOUNT_DISABLED);
  });
});

describe('sessions', () => {
  const check = (token?: string) =>
    t.app.inject({ method: 'GET', url: '/ks/auth/v1/authorization/check-login', headers: token ? bearer(token) : {} });

  it('answers 200 for a live session and 401 未登录 without a token', async () => {
    const token = await loginToken(t.app, 'user1', 'U');
    const live = await check(token);
    expect(live.statusCode).toBe(200);
    expect(json<Body>(live).data.roles).toEqual(['user']);
    const none = await check();
    expect(none.statusCode).toBe(401);
    expect(json<Body>(none)).toMatchObject({ code: 401, message: '未登录' });
  });

  it('a revoked (logged-out) token gets 401 with 10001, as does an unknown one', async () => {
    const token = await loginToken(t.app, 'admin', 'M');
    const out = await t.app.inject({ method: 'GET', url: '/ks/common/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    const after = await check(token);
    expect(after.statusCode).toBe(401);
    expect(json<Body>(after).code).toBe(Code.TOKEN_INVALID);
    const unknown = await check('not-a-real-token');
    expect(json<Body>(unknown).code).toBe(Code.TOKEN_INVALID);
  });

  it('an idle session expires with 10000, and activity slides the expiry', async () => {
    const ttl = t.config.sessionTtlMinutes * 60_000;
    const token = await loginToken(t.app, 'dev', 'D');
    t.clock.advance(ttl - 60_000);
    expect((await check(token)).statusCode).toBe(200);
    t.clock.advance(ttl - 60_000); // past the first expiry, inside the slid one
    expect((await check(token)).statusCode).toBe(200);
    t.clock.advance(ttl + 1000);
    const res = await check(token);
    expect(res.statusCode).toBe(401);
    expect(json<Body>(res).code).toBe(Code.SESSION_EXPIRED);
  });

  it('signing in elsewhere ends the older session with 10017', async () => {
    const first = await loginToken(t.app, 'user1', 'U');
    const second = await loginToken(t.app, 'user1', 'U');
    const old = await check(first);
    expect(old.statusCode).toBe(401);
    expect(json<Body>(old).code).toBe(Code.SIGNED_IN_ELSEWHERE);
    expect((await check(second)).statusCode).toBe(200);
  });

  it('keeps parallel sessions when SINGLE_SESSION=0', async () => {
    const multi = await createTestApp({ database: t.database, seed: false, env: { SINGLE_SESSION: '0' } });
    const a = await loginToken(multi.app, 'admin', 'M');
    const b = await loginToken(multi.app, 'admin', 'M');
    for (const tok of [a, b]) {
      const r = await multi.app.inject({
        method: 'GET',
        url: '/ks/auth/v1/authorization/check-login',
        headers: bearer(tok),
      });
      expect(r.statusCode).toBe(200);
    }
    await multi.app.close();
  });

  it('a live session is read once for a moment: a change made outside this process shows within SESSION_CACHE_MS', async () => {
    const res = await loginRaw(t.app, 'user1', 'Demo@2026', 'U', { ip: '10.9.9.9' });
    const token = json<{ data: { token: string } }>(res).data.token;
    expect((await check(token)).statusCode).toBe(200);
    // another server process revokes it (a direct write: this process is not told)
    await t.database.db
      .update(sessions)
      .set({ revokedAt: new Date(), revokeReason: 'logout' })
      .where(eq(sessions.tokenHash, sha256Hex(token)));
    expect((await check(token)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, SESSION_CACHE_MS + 50));
    const after = await check(token);
    expect(after.statusCode).toBe(401);
    expect(json<Body>(after).code).toBe(Code.TOKEN_INVALID);
  });

  it.runIf(usingPostgres)('drops a kept session as soon as another process announces a change', async () => {
    const res = await loginRaw(t.app, 'user1', 'Demo@2026', 'U', { ip: '10.9.9.8' });
    const token = json<{ data: { token: string } }>(res).data.token;
    expect((await check(token)).statusCode).toBe(200);
    // another process revokes it and announces the change in the same transaction (not through this process)
    const heard = new Promise<void>((resolve) => void t.database.listen(AUTH_CHANNEL, resolve));
    await t.database.db.transaction(async (tx) => {
      await tx
        .update(sessions)
        .set({ revokedAt: new Date(), revokeReason: 'logout' })
        .where(eq(sessions.tokenHash, sha256Hex(token)));
      await tx.execute(sql`select pg_notify(${AUTH_CHANNEL}, '')`);
    });
    await heard;
    const after = await check(token);
    expect(after.statusCode).toBe(401);
    expect(json<Body>(after).code).toBe(Code.TOKEN_INVALID);
  });

  it.runIf(usingPostgres)('listens again after losing its connection, and forgets everything then', async () => {
    const res = await loginRaw(t.app, 'user1', 'Demo@2026', 'U', { ip: '10.9.9.7' });
    const token = json<{ data: { token: string } }>(res).data.token;
    expect((await check(token)).statusCode).toBe(200);
    let calls = 0;
    const back = new Promise<void>((resolve) => {
      void t.database.listen(AUTH_CHANNEL, () => {
        calls++;
        resolve();
      });
    });
    // revoked behind its back, and its listening connection killed before it could hear of it
    await t.database.db
      .update(sessions)
      .set({ revokedAt: new Date(), revokeReason: 'logout' })
      .where(eq(sessions.tokenHash, sha256Hex(token)));
    await t.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'listen %' and pid <> pg_backend_pid()`,
    );
    await back;
    expect(calls).toBe(1);
    expect((await check(token)).statusCode).toBe(401);
    // and it hears announcements again
    const again = new Promise<void>((resolve) => void t.database.listen(AUTH_CHANNEL, resolve));
    await t.database.db.execute(sql`select pg_notify(${AUTH_CHANNEL}, '')`);
    await again;
  });

  it('logout without a token is 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ks/common/logout' });
    expect(res.statusCode).toBe(401);
  });
});
