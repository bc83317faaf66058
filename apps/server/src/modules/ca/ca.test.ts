import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, CA_MSG, CA_NONCE_TTL_MS, Code, creditCodeCheckChar, Msg } from '@ks/contracts';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caBindings, enterprises, loginAttempts, operationLogs, users } from '../../db/schema';
import { DEMO_CREDIT_CODE, DEMO_ENTERPRISE_NAME } from '../../seed/demo';
import {
  client,
  createTestApp,
  ENTERPRISE_DETAILS,
  encrypt,
  keyAndNonce,
  loginToken,
  type TestApp,
} from '../../test/harness';
import { createTestCa, type TestCa, type TestCert } from './testca';

/**
 * CA certificate sign-in against test CAs made here: an RSA root and an SM2 root trusted through CA_TRUSTED_ROOTS, and
 * a foreign RSA root that is not. Binding (by password on /caRegister, signed in on /lock), sign-in, the refusals
 * (expired, foreign, wrong signature, replayed or expired nonce, unbound), listing with expiry flags and unbinding,
 * with every route's role and ownership.
 */

const DAY = 86_400_000;
const code = (first17: string) => `${first17}${creditCodeCheckChar(first17)}`;
const OTHER_CODE = code('91140100MA0K9X3Q2');
const UNREGISTERED_CODE = code('91140100MA0KX7QA5');

let t: TestApp;
let bare: TestApp;
const c = client(() => t);
const b = client(() => bare);
let rsaRoot: TestCa;
let sm2Root: TestCa;
let foreignRoot: TestCa;
let rsaCert: TestCert;
let sm2Cert: TestCert;
let ecdsaCert: TestCert;
let expiredCert: TestCert;
let expiringCert: TestCert;
let foreignCert: TestCert;
let otherEnterpriseCert: TestCert;
let unregisteredCert: TestCert;
let admin: string;
let dev: string;
let user1: string;
let other: string;
let auditor: string;

async function nonce(app: TestApp = t): Promise<string> {
  const r = await app.app.inject({ method: 'POST', url: '/ks/ca/nonce' });
  expect(r.statusCode).toBe(200);
  return JSON.parse(r.body).data.nonce as string;
}

async function signed(cert: TestCert) {
  const n = await nonce();
  return { certificate: cert.base64, nonce: n, signature: cert.signNonce(n) };
}

/** The /caRegister body: account and password sealed with a login nonce, and the certificate's signature. */
async function registerBody(cert: TestCert, account: string, password = 'Demo@2026') {
  const { publicKey, nonce: loginNonce } = await keyAndNonce(t.app);
  return {
    ...(await signed(cert)),
    logValue: encrypt(publicKey, account, loginNonce),
    passWord: encrypt(publicKey, password, loginNonce),
    loginNonce,
  };
}

const signIn = async (cert: TestCert, path = '/ks/ca/ca-login') => c.post(path, null, await signed(cert));

beforeAll(async () => {
  rsaRoot = createTestCa({ kind: 'RSA', name: '测试 RSA 根 CA' });
  sm2Root = createTestCa({ kind: 'SM2', name: '测试 SM2 根 CA' });
  foreignRoot = createTestCa({ kind: 'RSA', name: '外来 CA' });
  const now = Date.now();
  rsaCert = rsaRoot.issue({ creditCode: DEMO_CREDIT_CODE, holder: DEMO_ENTERPRISE_NAME });
  sm2Cert = sm2Root.issue({
    creditCode: DEMO_CREDIT_CODE,
    holder: DEMO_ENTERPRISE_NAME,
    codeIn: 'organizationIdentifier',
  });
  ecdsaCert = rsaRoot.issue({
    creditCode: DEMO_CREDIT_CODE,
    holder: DEMO_ENTERPRISE_NAME,
    kind: 'ECDSA',
    codeIn: 'OU',
  });
  expiredCert = rsaRoot.issue({
    creditCode: DEMO_CREDIT_CODE,
    holder: DEMO_ENTERPRISE_NAME,
    notBefore: new Date(now - 400 * DAY),
    notAfter: new Date(now - DAY),
  });
  expiringCert = sm2Root.issue({
    creditCode: DEMO_CREDIT_CODE,
    holder: DEMO_ENTERPRISE_NAME,
    notAfter: new Date(now + 10 * DAY),
  });
  foreignCert = foreignRoot.issue({ creditCode: DEMO_CREDIT_CODE, holder: DEMO_ENTERPRISE_NAME });
  otherEnterpriseCert = rsaRoot.issue({ creditCode: OTHER_CODE, holder: '其他建设有限公司' });
  unregisteredCert = rsaRoot.issue({ creditCode: UNREGISTERED_CODE, holder: '未注册有限公司', codeIn: 'CN' });

  const dir = mkdtempSync(path.join(tmpdir(), 'ks-ca-'));
  const roots = path.join(dir, 'roots.pem');
  writeFileSync(roots, rsaRoot.pem + sm2Root.pem);
  t = await createTestApp({
    env: { CA_TRUSTED_ROOTS: roots, CA_AGENT_URL: 'http://127.0.0.1:18999/', SESSION_TTL_MINUTES: String(24 * 60) },
  });
  bare = await createTestApp();
  const db = t.database.db;
  // another enterprise with a user of its own
  const [ent] = await db
    .insert(enterprises)
    .values({ ...ENTERPRISE_DETAILS, name: '其他建设有限公司', creditCode: OTHER_CODE })
    .returning();
  const [u1] = await db.select().from(users).where(eq(users.account, 'user1'));
  await db.insert(users).values({
    account: 'other1',
    userName: '李其他',
    loginRoleType: 'U',
    passwordHash: u1!.passwordHash,
    enterpriseId: ent!.id,
  });
  [admin, dev, user1, other, auditor] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'other1', 'U'),
    loginToken(t.app, 'auditor', 'U'),
  ]);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await bare?.close();
});

describe('configuration', () => {
  it('tells the web whether CA sign-in works and where the signing agent is', async () => {
    expect((await c.get('/ks/ca/config', null)).body.data).toEqual({
      enabled: true,
      agentUrl: 'http://127.0.0.1:18999',
      message: null,
    });
    const r = await b.get('/ks/ca/config', null);
    expect(r.body.data).toEqual({ enabled: false, agentUrl: null, message: CA_MSG.notConfigured });
  });

  it('without roots answers every CA call with a plain "not configured"', async () => {
    for (const [p, body] of [
      ['/ks/ca/nonce', undefined],
      ['/ks/ca/ent-info', { certificate: rsaCert.base64 }],
      ['/ks/ca/ca-login', { certificate: rsaCert.base64, nonce: randomUUID(), signature: 'AAAAAAAAAAAAAAAAAAAA' }],
    ] as const) {
      const r = await b.post(p, null, body);
      expect(r.status, p).toBe(503);
      expect(r.body.message).toBe(CA_MSG.notConfigured);
    }
  });

  it('lets the browser reach the agent (CSP connect-src), and only it', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/ks/ca/config' });
    expect(String(r.headers['content-security-policy'])).toContain("connect-src 'self' http://127.0.0.1:18999");
  });
});

describe('ent-info', () => {
  it('answers the enterprise of an RSA and of an SM2 certificate, unbound', async () => {
    for (const [cert, alg] of [
      [rsaCert, 'RSA'],
      [sm2Cert, 'SM2'],
      [ecdsaCert, 'ECDSA'],
    ] as const) {
      const r = await c.post('/ks/ca/ent-info', null, { certificate: cert.base64 });
      expect(r.status, alg).toBe(200);
      expect(r.body.data).toMatchObject({
        holder: DEMO_ENTERPRISE_NAME,
        creditCode: DEMO_CREDIT_CODE,
        enterpriseName: DEMO_ENTERPRISE_NAME,
        registered: true,
        bound: false,
        algorithm: alg,
        expiry: 'valid',
      });
    }
    const pem = await c.post('/ks/ca/ent-info', null, { certificate: sm2Cert.pem });
    expect(pem.body.data.algorithm).toBe('SM2');
  });

  it('says when the code belongs to no registered enterprise', async () => {
    const r = await c.post('/ks/ca/ent-info', null, { certificate: unregisteredCert.base64 });
    expect(r.body.data).toMatchObject({ creditCode: UNREGISTERED_CODE, registered: false, enterpriseName: null });
  });

  it('refuses an expired, a foreign and a garbled certificate with clear messages', async () => {
    const expired = await c.post('/ks/ca/ent-info', null, { certificate: expiredCert.base64 });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toMatch(/^证书已过期（有效期至 \d{4}-\d{2}-\d{2}）$/);
    const foreign = await c.post('/ks/ca/ent-info', null, { certificate: foreignCert.base64 });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe(CA_MSG.foreign);
    const garbled = await c.post('/ks/ca/ent-info', null, { certificate: 'A'.repeat(200) });
    expect(garbled.status).toBe(400);
    expect(garbled.body.message).toBe(CA_MSG.badCertificate);
    const notBase64 = await c.post('/ks/ca/ent-info', null, { certificate: '<'.repeat(200) });
    expect(notBase64.status).toBe(400);
    expect(notBase64.body.message).toBe(CA_MSG.badCertificate);
  });
});

describe('sign-in refusals before binding', () => {
  it('refuses an unbound certificate and leaves a failed login attempt', async () => {
    const db = t.database.db;
    const before = await db.select().from(loginAttempts).where(like(loginAttempts.account, 'ca:%'));
    const r = await signIn(rsaCert);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(CA_MSG.notBound);
    const after = await db.select().from(loginAttempts).where(like(loginAttempts.account, 'ca:%'));
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)).toMatchObject({ success: false, account: `ca:${createHashHex(rsaCert.der).slice(0, 40)}` });
  });
});

describe('binding on /caRegister (account + password + certificate)', () => {
  it('refuses a wrong password, counting it as a failed sign-in of the account', async () => {
    const r = await c.post('/ks/ca/register', null, await registerBody(rsaCert, 'user1', 'Wrong@2026'));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(Msg.BAD_CREDENTIALS);
    const fails = await t.database.db
      .select()
      .from(loginAttempts)
      .where(and(eq(loginAttempts.account, 'user1'), eq(loginAttempts.success, false)));
    expect(fails.length).toBeGreaterThan(0);
    expect(await t.database.db.select().from(caBindings)).toHaveLength(0);
  });

  it("refuses a certificate whose code is not the account's enterprise's", async () => {
    const r = await c.post('/ks/ca/register', null, await registerBody(otherEnterpriseCert, 'user1'));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(CA_MSG.codeMismatch);
    expect(await t.database.db.select().from(caBindings)).toHaveLength(0);
  });

  it('refuses an account that is not an enterprise account', async () => {
    const r = await c.post('/ks/ca/register', null, await registerBody(rsaCert, 'auditor'));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(CA_MSG.notEnterpriseAccount);
  });

  it('refuses a certificate of an unregistered enterprise, and a signature of another nonce', async () => {
    const r = await c.post('/ks/ca/register', null, await registerBody(unregisteredCert, 'user1'));
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(CA_MSG.notRegistered);
    const body = await registerBody(rsaCert, 'user1');
    const wrong = await c.post('/ks/ca/register', null, { ...body, signature: rsaCert.signNonce(await nonce()) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(CA_MSG.badSignature);
  });

  it('binds the RSA certificate to 张建国 of the demo enterprise, with an operation-log row, once', async () => {
    const r = await c.post('/ks/ca/register', null, await registerBody(rsaCert, 'user1'));
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(CA_MSG.bound);
    expect(r.body.data).toMatchObject({ bound: true, enterpriseName: DEMO_ENTERPRISE_NAME, algorithm: 'RSA' });
    const rows = await t.database.db.select().from(caBindings);
    expect(rows).toHaveLength(1);
    const [u1] = await t.database.db.select().from(users).where(eq(users.account, 'user1'));
    expect(rows[0]).toMatchObject({ userId: u1!.id, creditCode: DEMO_CREDIT_CODE, algorithm: 'RSA', unboundAt: null });
    expect(rows[0]!.fingerprint).toBe(createHashHex(rsaCert.der));
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.recordId, rows[0]!.id));
    expect(logs[0]!.logbook).toContain('绑定证书');
    const again = await c.post('/ks/ca/register', null, await registerBody(rsaCert, 'user1'));
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(CA_MSG.alreadyBound);
  });
});

describe('binding from /lock (signed in)', () => {
  it('binds the SM2 certificate for the caller’s enterprise', async () => {
    const r = await c.post('/ks/ca/bindings/bind', user1, await signed(sm2Cert));
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ bound: true, algorithm: 'SM2' });
  });

  it('refuses another enterprise’s certificate, an expired one, and callers who are not enterprise users', async () => {
    const wrong = await c.post('/ks/ca/bindings/bind', other, await signed(rsaCert));
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(CA_MSG.codeMismatch);
    const expired = await c.post('/ks/ca/bindings/bind', user1, await signed(expiredCert));
    expect(expired.status).toBe(400);
    expect(expired.body.message).toContain(CA_MSG.expired);
    for (const token of [admin, dev]) {
      expect((await c.post('/ks/ca/bindings/bind', token, await signed(expiringCert))).status).toBe(403);
    }
    const none = await c.post('/ks/ca/bindings/bind', auditor, await signed(expiringCert));
    expect(none.status).toBe(403);
    expect(none.body.message).toBe(CA_MSG.noEnterprise);
  });
});

describe('CA sign-in', () => {
  it('signs in with the bound RSA certificate as 张建国, ending the other session, with 证书登录 in the log', async () => {
    const r = await signIn(rsaCert);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(CA_MSG.signedIn);
    expect(r.body.data.userInfo).toMatchObject({ userName: '张建国', loginRoleType: 'U' });
    expect(r.body.data.roles).toEqual(['user']);
    const me = await c.get('/ks/auth/v1/authorization/check-login', r.body.data.token);
    expect(me.body.data.userInfo.userName).toBe('张建国');
    // single session: the password session of user1 is replaced
    const old = await c.get('/ks/auth/v1/authorization/check-login', user1);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe(Code.SIGNED_IN_ELSEWHERE);
    user1 = r.body.data.token;
    const [u1] = await t.database.db.select().from(users).where(eq(users.account, 'user1'));
    const logs = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.userId, u1!.id), eq(operationLogs.logbook, '证书登录')));
    expect(logs).toHaveLength(1);
    const ok = await t.database.db
      .select()
      .from(loginAttempts)
      .where(and(eq(loginAttempts.account, 'user1'), eq(loginAttempts.success, true)));
    expect(ok.length).toBeGreaterThan(0);
  });

  it('signs in with the bound SM2 certificate through the spec’s caLogin path too', async () => {
    const r = await signIn(sm2Cert, '/ks/ca/caLogin');
    expect(r.status).toBe(200);
    expect(r.body.data.userInfo.userName).toBe('张建国');
    user1 = r.body.data.token;
  });

  it('refuses a replayed nonce', async () => {
    const body = await signed(rsaCert);
    const first = await c.post('/ks/ca/ca-login', null, body);
    expect(first.status).toBe(200);
    user1 = first.body.data.token;
    const again = await c.post('/ks/ca/ca-login', null, body);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(CA_MSG.nonceUsed);
  });

  it('refuses an expired nonce (the service clock moves past its two minutes)', async () => {
    const body = await signed(rsaCert);
    t.clock.advance(CA_NONCE_TTL_MS + 1000);
    const r = await c.post('/ks/ca/ca-login', null, body);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(CA_MSG.nonceExpired);
  });

  it('refuses a wrong signature: another nonce signed, or another key', async () => {
    const body = await signed(rsaCert);
    const otherNonce = await c.post('/ks/ca/ca-login', null, { ...body, signature: rsaCert.signNonce(await nonce()) });
    expect(otherNonce.status).toBe(400);
    expect(otherNonce.body.message).toBe(CA_MSG.badSignature);
    const sm2Body = await signed(sm2Cert);
    const wrongKey = await c.post('/ks/ca/ca-login', null, {
      ...sm2Body,
      signature: expiringCert.signNonce(sm2Body.nonce),
    });
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.body.message).toBe(CA_MSG.badSignature);
  });

  it('refuses an expired certificate and a foreign one', async () => {
    const expired = await signIn(expiredCert);
    expect(expired.status).toBe(400);
    expect(expired.body.message).toContain(CA_MSG.expired);
    const foreign = await signIn(foreignCert);
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe(CA_MSG.foreign);
  });

  it('refuses a bound certificate whose account was disabled', async () => {
    const db = t.database.db;
    await db.update(users).set({ status: 'disabled' }).where(eq(users.account, 'user1'));
    try {
      const r = await signIn(rsaCert);
      expect(r.status).toBe(403);
      expect(r.body.message).toBe(Msg.ACCOUNT_DISABLED);
    } finally {
      await db.update(users).set({ status: 'active' }).where(eq(users.account, 'user1'));
    }
    const r = await signIn(rsaCert);
    expect(r.status).toBe(200);
    user1 = r.body.data.token;
  });
});

describe('/lock: the list of bindings', () => {
  it('shows an enterprise user their enterprise’s bindings with expiry flags', async () => {
    expect((await c.post('/ks/ca/bindings/bind', user1, await signed(expiringCert))).status).toBe(200);
    // one binding whose certificate has run out since it was bound
    await t.database.db
      .update(caBindings)
      .set({ notAfter: new Date(t.clock.now.getTime() - DAY) })
      .where(eq(caBindings.fingerprint, createHashHex(sm2Cert.der)));
    const r = await c.get('/ks/ca/bindings', user1);
    expect(r.status).toBe(200);
    expect(r.body.data.total).toBe(3);
    const byFp = Object.fromEntries(
      r.body.data.records.map((x: { fingerprint: string; expiry: string }) => [x.fingerprint, x.expiry]),
    );
    expect(byFp).toEqual({
      [createHashHex(rsaCert.der)]: 'valid',
      [createHashHex(sm2Cert.der)]: 'expired',
      [createHashHex(expiringCert.der)]: 'expiring',
    });
    expect(r.body.data.records[0]).toMatchObject({ boundBy: '张建国', enterpriseName: DEMO_ENTERPRISE_NAME });
    const expiring = await c.get('/ks/ca/bindings?expiry=expiring', user1);
    expect(expiring.body.data.records.map((x: { fingerprint: string }) => x.fingerprint)).toEqual([
      createHashHex(expiringCert.der),
    ]);
  });

  it('shows another enterprise none of them; administrators all, filterable and paged', async () => {
    const o = await c.get('/ks/ca/bindings', other);
    expect(o.body.data).toEqual({ total: 0, records: [] });
    const all = await c.get('/ks/ca/bindings?pageSize=10', admin);
    expect(all.body.data.total).toBe(3);
    const page2 = await c.get('/ks/ca/bindings?pageSize=10&pageNum=2', admin);
    expect(page2.body.data.records).toHaveLength(0);
    const kw = await c.get(`/ks/ca/bindings?keyword=${encodeURIComponent('示例建设')}&expiry=expired`, admin);
    expect(kw.body.data.total).toBe(1);
    const none = await c.get(`/ks/ca/bindings?keyword=${encodeURIComponent('不存在的企业')}`, admin);
    expect(none.body.data.total).toBe(0);
    const bad = await c.get('/ks/ca/bindings?pageSize=7', admin);
    expect(bad.status).toBe(400);
  });

  it('refuses developers and users without an enterprise', async () => {
    expect((await c.get('/ks/ca/bindings', dev)).status).toBe(403);
    const a = await c.get('/ks/ca/bindings', auditor);
    expect(a.status).toBe(403);
    expect(a.body.message).toBe(CA_MSG.noEnterprise);
  });
});

describe('/lock: unbinding', () => {
  const idOf = async (cert: TestCert) =>
    (
      await t.database.db
        .select()
        .from(caBindings)
        .where(eq(caBindings.fingerprint, createHashHex(cert.der)))
    )[0]!.id;

  it('is refused to another enterprise (not found), developers and users without an enterprise', async () => {
    const id = await idOf(rsaCert);
    const o = await c.post('/ks/ca/bindings/unbind', other, { id });
    expect(o.status).toBe(404);
    expect(o.body.message).toBe(CA_MSG.bindingNotFound);
    expect((await c.post('/ks/ca/bindings/unbind', dev, { id })).status).toBe(403);
    expect((await c.post('/ks/ca/bindings/unbind', auditor, { id })).status).toBe(403);
    const bad = await c.post('/ks/ca/bindings/unbind', user1, { id: 'x' });
    expect(bad.status).toBe(400);
  });

  it('lets the enterprise user unbind; the certificate then cannot sign in; the row stays with its log', async () => {
    const id = await idOf(rsaCert);
    const r = await c.post('/ks/ca/bindings/unbind', user1, { id });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(CA_MSG.unbound);
    const [row] = await t.database.db.select().from(caBindings).where(eq(caBindings.id, id));
    expect(row!.unboundAt).not.toBeNull();
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.recordId, id));
    expect(logs.map((l) => l.logbook).some((l) => l.startsWith('解除证书绑定'))).toBe(true);
    const again = await c.post('/ks/ca/bindings/unbind', user1, { id });
    expect(again.status).toBe(404);
    const s = await signIn(rsaCert);
    expect(s.status).toBe(400);
    expect(s.body.message).toBe(CA_MSG.notBound);
    // and it may be bound again
    expect((await c.post('/ks/ca/bindings/bind', user1, await signed(rsaCert))).status).toBe(200);
  });

  it('lets an administrator unbind any enterprise’s binding', async () => {
    const id = await idOf(expiringCert);
    expect((await c.post('/ks/ca/bindings/unbind', admin, { id })).status).toBe(200);
    expect((await c.get('/ks/ca/bindings', user1)).body.data.total).toBe(2);
  });
});

describe('the registry', () => {
  const caEntries = Object.entries(api).filter(([, d]) => d.path.startsWith('/ks/ca/'));

  it('marks only the public flows anonymous', () => {
    const open = caEntries.filter(([, d]) => !d.auth).map(([n]) => n);
    expect(open.sort()).toEqual(['caConfig', 'caEntInfo', 'caLogin', 'caNonce', 'caRegister', 'caSignIn'].sort());
  });

  it('answers 401 without a token on every signed-in CA endpoint', async () => {
    const closed = caEntries.filter(([, d]) => d.auth);
    expect(closed.length).toBe(3);
    for (const [name, d] of closed) {
      const r = await c.call(d.method, d.path, null, d.method === 'GET' ? undefined : {});
      expect(r.status, name).toBe(401);
      expect(r.body.code, name).toBe(Code.UNAUTHORIZED);
    }
  });
});

function createHashHex(der: Buffer): string {
  return createHash('sha256').update(der).digest('hex');
}
