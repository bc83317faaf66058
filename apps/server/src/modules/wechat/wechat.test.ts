import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, Code, Msg, WechatMsg } from '@ks/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_WECHAT_DEFAULT_OPENID, type FakeWechat, startFakeWechat } from '../../test/fake-wechat';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { createTestCa } from '../ca/testca';
import { TICKET_TTL_MS } from './wechat.service';

/**
 * WeChat QR sign-in and binding against the local fake of the Open Platform: tickets (login, bind), the callback
 * (state must match, single use), bound elsewhere (409), expiry, the list and unbinding, login mode, and the answer
 * when WeChat is not configured.
 */
let fake: FakeWechat;
let t: TestApp;
let bare: TestApp;
const c = client(() => t);
const b = client(() => bare);

const P = {
  qr: api.wechatQrcode.path,
  status: api.wechatScanStatus.path,
  verify: api.wechatVerify.path,
  list: api.wechatList.path,
  remove: api.wechatRemove.path,
  mode: api.loginMode.path,
};

beforeAll(async () => {
  fake = await startFakeWechat();
  t = await createTestApp({
    env: {
      WECHAT_APP_ID: fake.appId,
      WECHAT_APP_SECRET: fake.secret,
      WECHAT_REDIRECT_BASE: 'http://127.0.0.1:8080',
      WECHAT_OPEN_URL: fake.url,
      WECHAT_API_URL: fake.url,
      WECHAT_TIMEOUT_MS: '5000',
      SESSION_TTL_MINUTES: String(60 * 24),
    },
  });
  // CA sign-in configured (a readable bundle of a test root), WeChat not
  const roots = path.join(mkdtempSync(path.join(tmpdir(), 'ks-ca-roots-')), 'roots.pem');
  writeFileSync(roots, createTestCa({ kind: 'RSA' }).pem);
  bare = await createTestApp({ env: { CA_TRUSTED_ROOTS: roots } });
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
  await fake?.close();
});

async function ticket(purpose: 'login' | 'bind', token: string | null = null) {
  const r = await c.get(`${P.qr}?purpose=${purpose}`, token);
  expect(r.status).toBe(200);
  return r.body.data as { state: string; url: string; expiresAt: string };
}
/** The phone confirms: WeChat sends the browser to redirect_uri?code&state. */
const callback = (query: string) => t.app.inject({ method: 'GET', url: `${P.verify}?${query}` });
const scan = (state: string, openid = FAKE_WECHAT_DEFAULT_OPENID) =>
  callback(`code=${fake.issueCode(openid)}&state=${encodeURIComponent(state)}`);
const poll = (state: string, token: string | null = null) => c.post(P.status, token, { state });
const opLogs = async (text: string) =>
  Number(
    (
      (await t.database.db.execute(
        sql`select count(*)::int as n from operation_logs where logbook like ${`%${text}%`}`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0]?.n,
  );

describe('login mode', () => {
  it('names the login mode and the sign-in methods configured', async () => {
    const r = await c.post(P.mode, null, {});
    expect(r.body).toMatchObject({ code: 200, data: { loginMode: 'ggfw', methods: ['password', 'sms', 'wechat'] } });
    const r2 = await b.post(P.mode, null, {});
    expect(r2.body.data).toEqual({ loginMode: 'ggfw', methods: ['password', 'sms', 'ca'] });
  });

  it('answers 微信登录未配置 when WeChat is not configured', async () => {
    const r = await b.get(`${P.qr}?purpose=login`, null);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(WechatMsg.NOT_CONFIGURED);
    const s = await b.post(P.status, null, { state: 'a'.repeat(32) });
    expect(s.body.message).toBe(WechatMsg.NOT_CONFIGURED);
    const v = await bare.app.inject({ method: 'GET', url: `${P.verify}?code=x&state=${'a'.repeat(32)}` });
    expect(v.statusCode).toBe(400);
    expect(v.body).toContain(WechatMsg.NOT_CONFIGURED);
  });
});

describe('WeChat QR tickets', () => {
  let user1: string;
  beforeAll(async () => {
    user1 = await loginToken(t.app, 'user1', 'U');
  });

  it('a login ticket answers the qrconnect page of the app, with a 5-minute expiry', async () => {
    const tk = await ticket('login');
    const url = new URL(tk.url);
    expect(url.searchParams.get('appid')).toBe(fake.appId);
    expect(url.searchParams.get('state')).toBe(tk.state);
    expect(url.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:8080${P.verify}`);
    expect(new Date(tk.expiresAt).getTime() - t.clock.now.getTime()).toBe(TICKET_TTL_MS);
    expect((await poll(tk.state)).body.data).toMatchObject({ status: 'waiting', message: WechatMsg.WAITING });
  });

  it('an unbound WeChat cannot sign in: 该微信未绑定账号', async () => {
    const tk = await ticket('login');
    const cb = await scan(tk.state);
    expect(cb.statusCode).toBe(200);
    expect(cb.headers['content-type']).toContain('text/html');
    expect(cb.body).toContain('扫码成功');
    const r = await poll(tk.state);
    expect(r.body.data).toEqual({ status: 'unbound', message: WechatMsg.NOT_BOUND });
  });

  it('a bind ticket needs the signed-in caller, and only that caller may collect it', async () => {
    expect((await c.get(`${P.qr}?purpose=bind`, null)).status).toBe(401);
    const tk = await ticket('bind', user1);
    expect((await poll(tk.state)).status).toBe(401);
    const auditor = await loginToken(t.app, 'auditor', 'U');
    const other = await poll(tk.state, auditor);
    expect(other.status).toBe(403);
    expect(other.body.message).toBe(WechatMsg.NOT_OWN_TICKET);
  });

  it('binds a WeChat, lists it, then signs in by it (session as the password login, single session, op log)', async () => {
    const tk = await ticket('bind', user1);
    expect((await poll(tk.state, user1)).body.data.status).toBe('waiting');
    await scan(tk.state);
    const r = await poll(tk.state, user1);
    expect(r.body.data).toMatchObject({ status: 'bound', message: WechatMsg.BIND_DONE });
    expect(r.body.data.binding).toMatchObject({ nickname: '微信用户张三', openid: 'o_fa****gsan' });
    expect(await opLogs('绑定微信（微信用户张三）')).toBe(1);
    const list = await c.get(P.list, user1);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].nickname).toBe('微信用户张三');

    // a second bind ticket for the same account is refused at once
    const again = await c.get(`${P.qr}?purpose=bind`, user1);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(WechatMsg.ALREADY_BOUND);

    const login = await ticket('login');
    await scan(login.state);
    const s = await poll(login.state);
    expect(s.body.data.status).toBe('success');
    const answer = s.body.data.login;
    expect(answer.userInfo.userName).toBe('张建国');
    expect(answer.roles).toEqual(['user']);
    expect(typeof answer.token).toBe('string');
    expect(typeof answer.refreshToken).toBe('string');
    expect(await opLogs('微信扫码登录')).toBe(1);
    // the new session works, and (single session) the password session of user1 has ended as "signed in elsewhere"
    expect((await c.get(api.checkLogin.path, answer.token)).body.data.userInfo.userName).toBe('张建国');
    const old = await c.get(api.checkLogin.path, user1);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe(Code.SIGNED_IN_ELSEWHERE);
    user1 = answer.token;

    // single use: the same ticket cannot sign in twice
    const twice = await poll(login.state);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe(WechatMsg.TICKET_USED);
  });

  it('a WeChat bound to another account cannot be bound again: 409', async () => {
    const auditor = await loginToken(t.app, 'auditor', 'U');
    const tk = await ticket('bind', auditor);
    await scan(tk.state);
    const r = await poll(tk.state, auditor);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(WechatMsg.BOUND_ELSEWHERE);
    expect((await c.get(P.list, auditor)).body.data).toEqual([]);
    // the ticket was spent by that answer
    expect((await poll(tk.state, auditor)).body.message).toBe(WechatMsg.TICKET_USED);
  });

  it('the callback refuses a state it did not issue and a second use of one', async () => {
    const tk = await ticket('login');
    const wrong = await callback(`code=${fake.issueCode()}&state=${'Z'.repeat(32)}`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain(WechatMsg.STATE_MISMATCH);
    const none = await callback(`code=${fake.issueCode()}`);
    expect(none.statusCode).toBe(400);
    expect((await poll(tk.state)).body.data.status).toBe('waiting');
    expect((await scan(tk.state)).statusCode).toBe(200);
    const replay = await scan(tk.state, 'o_someone_else');
    expect(replay.statusCode).toBe(409);
    expect(replay.body).toContain(WechatMsg.TICKET_USED);
    // the first scan stands: the bound WeChat signs in
    expect((await poll(tk.state)).body.data.status).toBe('success');
  });

  it('expired tickets say so, in the poll and in the callback', async () => {
    const tk = await ticket('login');
    t.clock.advance(TICKET_TTL_MS + 1000);
    expect((await poll(tk.state)).body.data).toEqual({ status: 'expired', message: WechatMsg.TICKET_EXPIRED });
    const cb = await scan(tk.state);
    expect(cb.statusCode).toBe(400);
    expect(cb.body).toContain(WechatMsg.TICKET_EXPIRED);
  });

  it('a refusal on the phone and a failed code exchange are said plainly', async () => {
    const tk = await ticket('login');
    const denied = await callback(`state=${tk.state}`);
    expect(denied.body).toContain(WechatMsg.DENIED);
    expect((await poll(tk.state)).body.data.status).toBe('denied');

    const tk2 = await ticket('login');
    const bad = await callback(`code=not-a-code&state=${tk2.state}`);
    expect(bad.statusCode).toBe(502);
    expect(bad.body).toContain('微信授权失败：invalid code（errcode 40029）');
    fake.mode = 'http-500';
    const down = await scan(tk2.state);
    fake.mode = 'ok';
    expect(down.statusCode).toBe(502);
    expect(down.body).toContain('微信服务返回 HTTP 500');
    // the ticket still waits for a good scan
    expect((await poll(tk2.state)).body.data.status).toBe('waiting');
    const unknown = await poll('q'.repeat(32));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(WechatMsg.TICKET_UNKNOWN);
    const malformed = await poll('../../etc');
    expect(malformed.status).toBe(400);
  });

  it('unbinds (own bindings only, op log), after which the WeChat no longer signs in', async () => {
    // the WeChat sign-ins above replaced user1's earlier sessions
    user1 = await loginToken(t.app, 'user1', 'U');
    const list = await c.get(P.list, user1);
    const id = list.body.data[0].id as string;
    const auditor = await loginToken(t.app, 'auditor', 'U');
    const foreign = await c.post(P.remove, auditor, { id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(WechatMsg.BINDING_NOT_FOUND);
    const bad = await c.post(P.remove, user1, { id: 'nope' });
    expect(bad.status).toBe(400);
    const r = await c.post(P.remove, user1, { id });
    expect(r.body).toMatchObject({ code: 200, message: '已解除绑定' });
    expect(await opLogs('解除微信绑定（微信用户张三）')).toBe(1);
    expect((await c.get(P.list, user1)).body.data).toEqual([]);
    const tk = await ticket('login');
    await scan(tk.state);
    expect((await poll(tk.state)).body.data.status).toBe('unbound');
  });

  it('every signed-in endpoint of this issue answers 401 without a token', async () => {
    for (const d of [api.wechatList, api.wechatRemove, api.loginDevices]) {
      const r = await c.call(d.method, d.path, null, d.method === 'GET' ? undefined : {});
      expect(r.status, d.path).toBe(401);
      expect(r.body.message).toBe(Msg.NOT_SIGNED_IN);
    }
  });
});
