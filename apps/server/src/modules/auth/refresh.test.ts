import { api, Code, Msg, SessionMsg } from '@ks/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, json, loginRaw, type TestApp } from '../../test/harness';

/** Rotating refresh tokens: a new pair retires the old one; a replayed old refresh token ends the whole family. */
let t: TestApp;
const c = client(() => t);
const R = api.refreshToken.path;

beforeAll(async () => {
  t = await createTestApp({ env: { SESSION_TTL_MINUTES: '30', REFRESH_TOKEN_TTL_HOURS: '2' } });
});
afterAll(async () => t?.close());

async function signIn(account = 'user1', role = 'U') {
  const res = await loginRaw(t.app, account, 'Demo@2026', role);
  expect(res.statusCode).toBe(200);
  return json<{ data: { token: string; refreshToken: string } }>(res).data;
}
const check = (token: string) => c.get(api.checkLogin.path, token);

describe('refresh tokens', () => {
  it('a sign-in answers a refresh token; refreshing answers a new pair and retires the old one', async () => {
    const first = await signIn();
    expect(first.refreshToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(first.refreshToken).not.toBe(first.token);
    const r = await c.post(R, null, { refreshToken: first.refreshToken });
    expect(r.status).toBe(200);
    const next = r.body.data as { token: string; refreshToken: string };
    expect(next.token).not.toBe(first.token);
    expect(next.refreshToken).not.toBe(first.refreshToken);
    expect((await check(next.token)).status).toBe(200);
    const old = await check(first.token);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe(Code.TOKEN_INVALID);
  });

  it('revives an expired session (10000) within the sign-in’s lifetime, not after it', async () => {
    const s = await signIn();
    t.clock.advance(31 * 60_000);
    expect((await check(s.token)).body.code).toBe(Code.SESSION_EXPIRED);
    const r = await c.post(R, null, { refreshToken: s.refreshToken });
    expect(r.status).toBe(200);
    expect((await check(r.body.data.token)).status).toBe(200);
    // rotation does not extend the family: two hours after the sign-in it is over
    t.clock.advance(90 * 60_000);
    const late = await c.post(R, null, { refreshToken: r.body.data.refreshToken });
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({ code: Code.SESSION_EXPIRED, message: SessionMsg.REFRESH_EXPIRED });
  });

  it('an already-rotated refresh token ends the whole family: 401, and the current token is revoked too', async () => {
    const s = await signIn();
    const r1 = (await c.post(R, null, { refreshToken: s.refreshToken })).body.data;
    const r2 = (await c.post(R, null, { refreshToken: r1.refreshToken })).body.data;
    expect((await check(r2.token)).status).toBe(200);
    const replay = await c.post(R, null, { refreshToken: s.refreshToken });
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ code: Code.TOKEN_INVALID, message: SessionMsg.REFRESH_REUSED });
    const current = await check(r2.token);
    expect(current.status).toBe(401);
    expect(current.body.code).toBe(Code.TOKEN_INVALID);
    // the newest refresh token of the family is dead as well
    expect((await c.post(R, null, { refreshToken: r2.refreshToken })).status).toBe(401);
    const rows = (await t.database.db.execute(
      sql`select count(*)::int as n from operation_logs where logbook like '已轮换的刷新令牌被再次使用%'`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]?.n).toBe(1);
  });

  it('refuses unknown tokens, signed-out and replaced sessions', async () => {
    const bad = await c.post(R, null, { refreshToken: 'x'.repeat(43) });
    expect(bad.status).toBe(401);
    expect(bad.body.message).toBe(SessionMsg.REFRESH_INVALID);
    expect((await c.post(R, null, {})).status).toBe(400);

    const s = await signIn();
    await c.get(api.logout.path, s.token);
    expect((await c.post(R, null, { refreshToken: s.refreshToken })).status).toBe(401);

    const a = await signIn();
    await signIn(); // single session: the first is replaced
    const replaced = await c.post(R, null, { refreshToken: a.refreshToken });
    expect(replaced.status).toBe(401);
    expect(replaced.body).toMatchObject({ code: Code.SIGNED_IN_ELSEWHERE, message: Msg.SIGNED_IN_ELSEWHERE });
  });
});

describe('login devices', () => {
  it('lists the caller’s live sessions with the current one marked', async () => {
    const s = await signIn('admin', 'M');
    const r = await t.app.inject({
      method: 'GET',
      url: api.loginDevices.path,
      headers: { authorization: `Bearer ${s.token}` },
    });
    const list = json<{ data: { current: boolean; method: string; ip: string; signedInAt: string }[] }>(r).data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ current: true, method: '账号登录', ip: '127.0.0.1' });
    // refreshed, the sign-in time stays that of the sign-in
    const next = (await c.post(R, null, { refreshToken: s.refreshToken })).body.data;
    t.clock.advance(60_000);
    const after = (await c.get(api.loginDevices.path, next.token)).body.data;
    expect(after).toHaveLength(1);
    expect(after[0].signedInAt).toBe(list[0]!.signedInAt);
    expect((await c.get(api.loginDevices.path, null)).status).toBe(401);
  });
});
