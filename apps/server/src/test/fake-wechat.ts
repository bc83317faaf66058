import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { escapeHtml } from '../platform/sanitize';

/**
 * A local stand-in for the WeChat Open Platform's website QR sign-in (test-only module):
 * - `GET /connect/qrconnect?appid&redirect_uri&response_type=code&scope=snsapi_login&state` — the QR page; instead of a
 *   phone it has a WeChat identity field and 确认登录 / 拒绝 buttons, which send the browser to
 *   `redirect_uri?code&state` (or `redirect_uri?state` on refusal), as WeChat does once the phone confirms;
 * - `GET /sns/oauth2/access_token?appid&secret&code&grant_type=authorization_code` — access_token, openid, unionid, or
 *   WeChat's errcode/errmsg (40029 invalid code, 40125 invalid appsecret, 40013 invalid appid);
 * - `GET /sns/userinfo?access_token&openid` — nickname, headimgurl, unionid, or errcode 40001.
 * Codes are single use and live 5 minutes, as WeChat's are. `mode` makes the API fail in other ways; `issueCode` mints a
 * code without the page (server tests).
 *
 * Run directly (`node --import tsx apps/server/src/test/fake-wechat.ts`) it listens on FAKE_WECHAT_PORT for the e2e
 * servers, with GET /health for the runner.
 */
export const FAKE_WECHAT_APP_ID = 'wxfake0000000001';
export const FAKE_WECHAT_SECRET = 'fake-wechat-secret-0001';
export const FAKE_WECHAT_DEFAULT_OPENID = 'o_fake_zhangsan';

export type FakeWechatMode = 'ok' | 'http-500' | 'garbage' | 'hang';

export interface FakeIdentity {
  openid: string;
  unionid: string;
  nickname: string;
  headimgurl: string;
}

export interface FakeWechat {
  /** base address: WECHAT_OPEN_URL and WECHAT_API_URL */
  url: string;
  appId: string;
  secret: string;
  mode: FakeWechatMode;
  /** API calls received, by path */
  calls: Record<string, number>;
  /** mint a code for this WeChat user as if the phone had confirmed */
  issueCode(openid?: string): string;
  identity(openid: string): FakeIdentity;
  close(): Promise<void>;
}

export async function startFakeWechat(
  opts: { port?: number; appId?: string; secret?: string; mode?: FakeWechatMode } = {},
): Promise<FakeWechat> {
  const appId = opts.appId ?? FAKE_WECHAT_APP_ID;
  const secret = opts.secret ?? FAKE_WECHAT_SECRET;
  const codes = new Map<string, { openid: string; expires: number }>();
  const tokens = new Map<string, string>();
  const identity = (openid: string): FakeIdentity => ({
    openid,
    unionid: `u_${openid}`,
    nickname: openid === FAKE_WECHAT_DEFAULT_OPENID ? '微信用户张三' : `微信用户${openid.slice(-4)}`,
    headimgurl: '',
  });
  const issueCode = (openid = FAKE_WECHAT_DEFAULT_OPENID) => {
    const code = `c_${randomBytes(12).toString('hex')}`;
    codes.set(code, { openid, expires: Date.now() + 5 * 60_000 });
    return code;
  };
  const state: FakeWechat = {
    url: '',
    appId,
    secret,
    mode: opts.mode ?? 'ok',
    calls: {},
    issueCode,
    identity,
    close: async () => undefined,
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const q = url.searchParams;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const html = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>微信登录</title>
<style>body{font-family:sans-serif;text-align:center;margin:16px;color:#333}button{margin:6px;padding:6px 18px;font-size:14px}
.qr{width:140px;height:140px;margin:8px auto;background:repeating-linear-gradient(45deg,#222 0 6px,#fff 6px 12px);border:6px solid #fff;outline:1px solid #ccc}
input{width:160px;padding:4px}</style></head><body>${body}</body></html>`);
    };
    if (url.pathname === '/health') return json(200, { ok: true });

    if (url.pathname === '/connect/qrconnect') {
      const redirect = q.get('redirect_uri') ?? '';
      if (q.get('appid') !== appId) return html(200, '<p>appid 参数错误</p>');
      if (q.get('scope') !== 'snsapi_login' || q.get('response_type') !== 'code' || !/^https?:\/\//.test(redirect)) {
        return html(200, '<p>参数错误</p>');
      }
      const s = escapeHtml(q.get('state') ?? '');
      const r = escapeHtml(redirect);
      return html(
        200,
        `<h3>微信登录（测试替身）</h3><div class="qr" aria-label="二维码"></div>
<form method="get" action="/connect/confirm"><input type="hidden" name="state" value="${s}"><input type="hidden" name="redirect_uri" value="${r}">
<label>微信 openid <input name="openid" value="${FAKE_WECHAT_DEFAULT_OPENID}"></label><br>
<button type="submit" name="action" value="confirm">确认登录</button><button type="submit" name="action" value="deny">拒绝</button></form>`,
      );
    }
    if (url.pathname === '/connect/confirm') {
      const redirect = q.get('redirect_uri') ?? '';
      if (!/^https?:\/\//.test(redirect)) return html(400, '<p>参数错误</p>');
      const target = new URL(redirect);
      if (q.get('action') === 'confirm') target.searchParams.set('code', issueCode(q.get('openid') || undefined));
      target.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: target.toString() });
      return res.end();
    }

    state.calls[url.pathname] = (state.calls[url.pathname] ?? 0) + 1;
    if (state.mode === 'hang') return; // never answers: the adapter's timeout ends it
    if (state.mode === 'http-500') return json(500, 'upstream exploded');
    if (state.mode === 'garbage') return html(200, 'not json');
    if (url.pathname === '/sns/oauth2/access_token') {
      if (q.get('appid') !== appId) return json(200, { errcode: 40013, errmsg: 'invalid appid' });
      if (q.get('secret') !== secret) return json(200, { errcode: 40125, errmsg: 'invalid appsecret' });
      if (q.get('grant_type') !== 'authorization_code')
        return json(200, { errcode: 40002, errmsg: 'invalid grant_type' });
      const c = codes.get(q.get('code') ?? '');
      codes.delete(q.get('code') ?? '');
      if (!c || c.expires < Date.now()) return json(200, { errcode: 40029, errmsg: 'invalid code' });
      const token = `t_${randomBytes(12).toString('hex')}`;
      tokens.set(token, c.openid);
      const who = identity(c.openid);
      return json(200, {
        access_token: token,
        expires_in: 7200,
        refresh_token: `r_${randomBytes(12).toString('hex')}`,
        openid: who.openid,
        scope: 'snsapi_login',
        unionid: who.unionid,
      });
    }
    if (url.pathname === '/sns/userinfo') {
      const openid = tokens.get(q.get('access_token') ?? '');
      if (!openid || openid !== q.get('openid')) return json(200, { errcode: 40001, errmsg: 'invalid credential' });
      const who = identity(openid);
      return json(200, { ...who, sex: 0, province: '', city: '', country: 'CN', privilege: [] });
    }
    return json(404, { errcode: 404, errmsg: 'not found' });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.FAKE_WECHAT_PORT ?? 18098);
  void startFakeWechat({ port }).then((f) => process.stdout.write(`fake WeChat on ${f.url}\n`));
}
