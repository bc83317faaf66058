import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, Code, Msg } from '@ks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conflict, forbidden } from './platform/errors';
import { bearer, createTestApp, json, loginToken, type TestApp } from './test/harness';

type Body = { code: number; data: any; message: string };

describe('envelope and errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { BODY_LIMIT_BYTES: '2048' } });
  });
  afterAll(async () => t?.close());

  it('wraps success as {code: 200, data, message}', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ks/portal/v1/home/platform' });
    expect(res.statusCode).toBe(200);
    const body = json<Body>(res);
    expect(Object.keys(body).sort()).toEqual(['code', 'data', 'message']);
    expect(body.code).toBe(200);
    expect(body.data).toMatchObject({ filingsCoding: '晋ICP备20260001号-1', version: expect.any(String) });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers unknown /ks paths with a 404 envelope, signed in or not', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/ks/no/such/path' });
    expect(res.statusCode).toBe(404);
    expect(json<Body>(res).code).toBe(404);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ks/common/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"logValue": ',
    });
    expect(res.statusCode).toBe(400);
    expect(json<Body>(res)).toMatchObject({ code: 400, message: Msg.MALFORMED_JSON });
  });

  it('answers an oversized body with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ks/common/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ logValue: 'x'.repeat(5000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(json<Body>(res).code).toBe(413);
  });

  it('sends security headers with a content security policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ks/portal/v1/home/platform' });
    const csp = res.headers['content-security-policy'] as string;
    // scripts of this site only; WebAssembly may be compiled (sealed bids' SHA-256), JavaScript never evaluated
    const scriptSrc = csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('script-src'));
    expect(scriptSrc).toBe("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
    // on errors and POST answers as well
    const bad = await t.app.inject({
      method: 'POST',
      url: '/ks/common/login',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-security-policy']).toContain("default-src 'self'");
    expect(bad.headers['x-content-type-options']).toBe('nosniff');
  });

  it('gives GET answers an ETag (304 when it matches), not POST answers', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/ks/portal/v1/home/platform' });
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^"[A-Za-z0-9+/=]+"$/);
    const again = await t.app.inject({
      method: 'GET',
      url: '/ks/portal/v1/home/platform',
      headers: { 'if-none-match': tag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const weak = await t.app.inject({
      method: 'GET',
      url: '/ks/portal/v1/home/platform',
      headers: { 'if-none-match': `W/${tag}` },
    });
    expect(weak.statusCode).toBe(304);
    const other = await t.app.inject({
      method: 'GET',
      url: '/ks/portal/v1/home/platform',
      headers: { 'if-none-match': '"x"' },
    });
    expect(other.statusCode).toBe(200);
    const post = await t.app.inject({
      method: 'POST',
      url: '/ks/common/login',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(post.headers.etag).toBeUndefined();
  });
});

describe('errors from handlers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: true });
  });
  afterAll(async () => t?.close());

  it('maps 403, 409 and unexpected errors; a 500 carries a request id and no stack', async () => {
    const { buildApp } = await import('./app');
    // the structured log (pino JSON lines): what an operator finds by the request id the user was shown
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
    const app = await buildApp({ config: t.config, db: t.database.db, logger: { level: 'error', stream } });
    app.get('/ks/test/forbidden', { config: { public: true } }, async () => {
      throw forbidden();
    });
    app.get('/ks/test/conflict', { config: { public: true } }, async () => {
      throw conflict();
    });
    app.get('/ks/test/boom', { config: { public: true } }, async () => {
      throw new Error('secret detail at /srv/app.ts:12');
    });
    await app.ready();
    const f = await app.inject({ method: 'GET', url: '/ks/test/forbidden' });
    expect([f.statusCode, json<Body>(f).code]).toEqual([403, 403]);
    const c = await app.inject({ method: 'GET', url: '/ks/test/conflict' });
    expect([c.statusCode, json<Body>(c).code]).toEqual([409, 409]);
    const b = await app.inject({ method: 'GET', url: '/ks/test/boom' });
    expect(b.statusCode).toBe(500);
    const body = json<Body>(b);
    expect(body.code).toBe(500);
    expect(body.data.requestId).toBe(b.headers['x-request-id']);
    const logged = lines.find((l) => l.msg === 'unhandled error');
    expect(logged).toMatchObject({ reqId: body.data.requestId, level: 50 });
    expect(JSON.stringify(logged)).toContain('secret detail');
    expect(b.body).not.toContain('secret detail');
    expect(b.body).not.toContain('.ts:');
    await app.close();
  });

  it('rate-limits the API with 429 in the envelope', async () => {
    const limited = await createTestApp({ database: t.database, seed: false, env: { RATE_LIMIT_PER_MINUTE: '3' } });
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      codes.push((await limited.app.inject({ method: 'GET', url: '/ks/portal/v1/home/platform' })).statusCode);
    }
    expect(codes.slice(0, 3)).toEqual([200, 200, 200]);
    const last = await limited.app.inject({ method: 'GET', url: '/ks/portal/v1/home/platform' });
    expect(last.statusCode).toBe(429);
    expect(json<Body>(last)).toMatchObject({ code: Code.TOO_MANY_REQUESTS, message: Msg.TOO_MANY_REQUESTS });
    await limited.app.close();
  });

  it('lists the signed-in user’s systems', async () => {
    const token = await loginToken(t.app, 'user1', 'U');
    const res = await t.app.inject({
      method: 'POST',
      url: '/ks/authority/manager/system-list',
      headers: bearer(token),
    });
    // an ordinary user sees the systems where something was granted to them (demo: role user; TJFX: 材料信息价)
    const list = json<Body>(res).data as { systemCoding: string; title: string }[];
    expect(list.map((s) => s.systemCoding)).toEqual(['XYGL', 'ZBTB', 'CDYY', 'DZBH', 'TJFX']);
    expect(list[0]).toMatchObject({ systemCoding: 'XYGL', title: '信用管理' });
    const anon = await t.app.inject({ method: 'POST', url: '/ks/authority/manager/system-list' });
    expect(anon.statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('documents every endpoint of the contract registry, and every one is served', async () => {
    const doc = json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>(
      await t.app.inject({ method: 'GET', url: '/ks/docs' }),
    );
    expect(doc.openapi).toBe('3.0.3');
    for (const d of Object.values(api)) {
      expect(doc.paths[d.path]?.[d.method.toLowerCase()]).toBeDefined();
      const res = await t.app.inject({ method: d.method, url: d.path, payload: d.method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${d.method} ${d.path}`).not.toBe(404);
    }
  });

  it('asks every endpoint for a token except the public ones, which answer without one', async () => {
    const open: string[] = [];
    for (const d of Object.values(api)) {
      const res = await t.app.inject({ method: d.method, url: d.path, payload: d.method === 'GET' ? undefined : {} });
      if (d.auth) expect(res.statusCode, `${d.method} ${d.path} without a token`).toBe(401);
      else {
        expect(res.statusCode, `${d.method} ${d.path} without a token`).not.toBe(401);
        open.push(`${d.method} ${d.path}`);
      }
    }
    // a new anonymous endpoint is a decision: it joins this list (the sign-in and registration flows, the portal)
    expect(open.sort()).toEqual([...PUBLIC_ENDPOINTS].sort());
  });
});

describe('web app serving', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'ks-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>ks</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.info(1)');
    t = await createTestApp({
      env: {
        WEB_DIST: dist,
        LOGIN_MODE: 'login',
        BID_HALL_URL: 'https://hall.example.test/?a=1&b="x"',
        APP_TZ: 'Europe/Berlin',
      },
    });
  });
  afterAll(async () => t?.close());

  it('puts the login mode, the bid-hall address, the time zone and the platform name into index.html, escaped', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/market-list' });
    expect(res.body).toContain('<meta name="ks-login-mode" content="login">');
    expect(res.body).toContain('<meta name="ks-time-zone" content="Europe/Berlin">');
    expect(res.body).toContain(
      '<meta name="ks-bid-hall" content="https://hall.example.test/?a=1&amp;b=&quot;x&quot;">',
    );
    expect(res.body).toContain('<title>公共资源交易与信用管理平台</title>');
  });

  it('serves index.html for client routes (history mode) and never caches it', async () => {
    for (const url of ['/', '/system/pageConfig', '/login', '/anything/unknown']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets as immutable, and 404s for missing files and API paths', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(a.statusCode).toBe(200);
    expect(a.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const apiMiss = await t.app.inject({ method: 'GET', url: '/ks/unknown' });
    expect(apiMiss.statusCode).toBe(404);
    expect(json<Body>(apiMiss).code).toBe(404);
  });

  it('reports a version derived from the build', async () => {
    const body = json<Body>(await t.app.inject({ method: 'GET', url: '/ks/portal/v1/home/platform' }));
    expect(body.data.version).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{10}$/);
  });
});

/** Every endpoint a visitor without a token may call (the public pages of spec §2 and what their flows need). */
const PUBLIC_ENDPOINTS = [
  // sign-in
  'GET /ks/common/captcha',
  'GET /ks/common/public-key',
  'POST /ks/common/login',
  'POST /ks/common/login/captcha-required',
  'POST /ks/authentication/login/login-mode',
  'POST /ks/auth/v1/authorization/refresh',
  // WeChat QR sign-in (a bind ticket checks the caller's token itself)
  'GET /ks/individual/wechat/qrcode',
  'POST /ks/individual/wechat/scan-status',
  'GET /ks/individual/wechat/verify-qrcode',
  // CA certificate sign-in and binding by account and password
  'GET /ks/ca/config',
  'POST /ks/ca/nonce',
  'POST /ks/ca/ent-info',
  'POST /ks/ca/ca-login',
  'POST /ks/ca/caLogin',
  'POST /ks/ca/register',
  // SMS codes for the anonymous flows (send-sms refuses the signed-in purposes without a token), the dev outbox (404 in
  // production), SMS sign-in, password reset by SMS
  'POST /ks/common/send-sms',
  'POST /ks/common/sms/phone-verify',
  'GET /ks/common/sms/outbox',
  'GET /ks/individual/login/verify-code',
  'POST /ks/common/login/sms',
  'GET /ks/common/login/sms/reset-code',
  'PUT /ks/individual/login/reset-secret',
  // enterprise self-registration, its progress, activation, real-name registration
  'POST /ks/register/v1/enterprise/verify',
  'GET /ks/register/v1/enterprise/registration',
  'GET /ks/register/v1/legal-phone',
  'POST /ks/register/v1/licence',
  'POST /ks/register/v1/phone-code',
  'POST /ks/register/v1/register-code',
  'POST /ks/register/v1/registration',
  'POST /ks/register/v1/sms/phone-code',
  'POST /ks/register/v1/sms/phone-verify',
  'POST /ks/register/v1/user-register',
  'POST /ks/activate/v1/verify/basic-info',
  'GET /ks/activate/v1/activate-code',
  'POST /ks/activate/v1/activate',
  // the public portal and credit list
  'GET /ks/portal/v1/common/enterprise-types',
  'GET /ks/portal/v1/common/practice-areas',
  'GET /ks/portal/v1/home/config',
  'GET /ks/portal/v1/home/overview',
  'GET /ks/portal/v1/home/platform',
  'GET /ks/portal/v1/market/detail',
  'GET /ks/portal/v1/market/entities',
  'GET /ks/portal/v1/notices',
  'GET /ks/portal/v1/notices/detail',
  'GET /ks/credit/public/levels',
  'GET /ks/credit/public/list',
  // templates and public files (portal notices' attachments)
  'GET /ks/common/common/att-template',
  'GET /ks/common/common/file/download',
  'GET /ks/rfc/template',
  // material information prices (issue 19): published periods only
  'GET /ks/material/price/period-list',
  'GET /ks/material/history/period-list',
  'POST /ks/material/price/city-list',
  'POST /ks/material/history/city-list',
  'POST /ks/material/price/title-list',
  'POST /ks/material/history/title-list',
  'POST /ks/material/price/info-list',
  'POST /ks/material/history/info-list',
  'POST /ks/material/price/classification',
  'POST /ks/material/history/classification',
  'POST /ks/material/price/material-group',
  'POST /ks/material/history/material-group',
  'POST /ks/material/price/counties',
  'POST /ks/material/history/counties',
  'POST /ks/material/history/trend',
  // venue availability (issue 16): rooms and busy slots, no booker
  'GET /ks/venue/v1/public/availability',
  // the expert extraction's verification: anyone with the record's id (issue 16)
  'GET /ks/expert-extraction/v1/verify',
  // the opening-and-evaluation log's verification and daily anchors: counts and hashes only (issue 17)
  'GET /ks/bid/v1/ledger/verify',
  'GET /ks/bid/v1/ledger/anchors',
  // 企业业绩: passed performances, the market detail page's data (issue 19)
  'POST /ks/basic/v1/enterprise/performance-list',
  'POST /ks/basic/v1/enterprise/performance',
] as const;
