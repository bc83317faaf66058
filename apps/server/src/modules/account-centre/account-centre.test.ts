import { AccountMsg, Code, SmsMsg } from '@ks/contracts';
import { and, desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginAttempts, operationLogs, passwordHistory, smsOutbox, users } from '../../db/schema';
import {
  bearer,
  client,
  createTestApp,
  encrypt,
  json,
  loginRaw,
  loginToken,
  publicKeyOf,
  type TestApp,
} from '../../test/harness';
import { EXE, form, PNG } from '../files/testkit';

// argon2 hashing and checking of several passwords per test: slow on a loaded machine
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/**
 * Password policy and history, password reset by SMS (not revealing whether a phone has an account; every session
 * ends), SMS sign-in, phone change and verification, the password's age, portrait upload (images only, re-encoded to
 * 256×256) and the sign-in history (paged, one's own only).
 */

let t: TestApp;
const c = client(() => t);
const PW = 'Demo@2026';
const USER1_PHONE = '13800138000';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

beforeAll(async () => {
  t = await createTestApp({ env: { SINGLE_SESSION: '0', PASSWORD_MAX_AGE_DAYS: '90' } });
});
afterAll(async () => {
  await t?.close();
});

const advance = (ms: number) => t.clock.advance(ms);

async function newestCode(phone: string): Promise<string | null> {
  const [row] = await t.database.db
    .select()
    .from(smsOutbox)
    .where(eq(smsOutbox.phone, phone))
    .orderBy(desc(smsOutbox.id))
    .limit(1);
  return row?.params.code ?? null;
}

async function outboxCount(phone: string): Promise<number> {
  return (await t.database.db.select().from(smsOutbox).where(eq(smsOutbox.phone, phone))).length;
}

async function proofOf(phone: string, purpose: string, token: string | null = null): Promise<string> {
  const code = await newestCode(phone);
  const r = await c.post('/ks/common/sms/phone-verify', token, { phone, purpose, code });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.proof as string;
}

let calls = 0;
/** update-secret allows 10 calls a minute per address: each call here comes from an address of its own */
async function changePassword(token: string, oldPassword: string, newPassword: string) {
  const key = await publicKeyOf(t.app);
  const r = await t.app.inject({
    method: 'PUT',
    url: '/ks/individual/login/update-secret',
    headers: bearer(token),
    remoteAddress: `10.9.0.${++calls}`,
    payload: { oldPassword: encrypt(key, oldPassword), newPassword: encrypt(key, newPassword) },
  });
  return { status: r.statusCode, body: json<{ code: number; data: any; message: string }>(r) };
}

const userRow = async (account: string) =>
  (await t.database.db.select().from(users).where(eq(users.account, account)))[0]!;

describe('password policy (update-secret)', () => {
  it('needs 8 characters of three classes, without the account name, not one of the last 3', async () => {
    const token = await loginToken(t.app, 'dev', 'D');
    for (const [pw, msg] of [
      ['Ab1!', '密码长度应为 8 到 64 位'],
      ['abcdefgh1', '密码需包含大写字母、小写字母、数字、符号中的至少三种'],
      ['Xdev2026!', AccountMsg.PASSWORD_HAS_ACCOUNT],
      ['xDEV-2026a', AccountMsg.PASSWORD_HAS_ACCOUNT],
    ] as const) {
      const r = await changePassword(token, PW, pw);
      expect(r.status, pw).toBe(400);
      expect(r.body.data.fieldErrors.newPassword, pw).toEqual([msg]);
    }
    // history: the current one and the two before it are refused
    expect((await changePassword(token, PW, 'First#2026a')).status).toBe(200);
    expect((await changePassword(token, 'First#2026a', 'Second#2026b')).status).toBe(200);
    const r = await changePassword(token, 'Second#2026b', PW);
    expect(r.status).toBe(400);
    expect(r.body.data.fieldErrors.newPassword).toEqual([AccountMsg.PASSWORD_REUSED]);
    expect((await changePassword(token, 'Second#2026b', 'First#2026a')).body.data.fieldErrors.newPassword).toEqual([
      AccountMsg.PASSWORD_REUSED,
    ]);
    expect((await changePassword(token, 'Second#2026b', 'Third#2026c')).status).toBe(200);
    // PW is now the 4th last: allowed again
    expect((await changePassword(token, 'Third#2026c', PW)).status).toBe(200);
    const dev = await userRow('dev');
    const kept = await t.database.db.select().from(passwordHistory).where(eq(passwordHistory.userId, dev.id));
    expect(kept.length).toBe(4);
    expect(dev.passwordChangedAt).not.toBeNull();
  });

  it('a change ends every other session of the account, this one continues', async () => {
    const a = await loginToken(t.app, 'auditor', 'U');
    const b = await loginToken(t.app, 'auditor', 'U');
    expect((await changePassword(a, PW, 'Audit#2026x')).status).toBe(200);
    expect((await c.get('/ks/individual/valida/phone', b)).status).toBe(401);
    expect((await c.get('/ks/individual/valida/phone', a)).status).toBe(200);
    // the password it replaced cannot come back at once
    expect((await changePassword(a, 'Audit#2026x', PW)).body.data.fieldErrors.newPassword).toEqual([
      AccountMsg.PASSWORD_REUSED,
    ]);
  });
});

describe('password reset by SMS', () => {
  it('reset-code answers the same, with the same limits, whether or not the phone has an account', async () => {
    const known = await c.get(`/ks/common/login/sms/reset-code?phone=${USER1_PHONE}`, null);
    const unknown = await c.get('/ks/common/login/sms/reset-code?phone=13512345678', null);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(await outboxCount(USER1_PHONE)).toBe(1);
    expect(await outboxCount('13512345678')).toBe(0);
    const k2 = await c.get(`/ks/common/login/sms/reset-code?phone=${USER1_PHONE}`, null);
    const u2 = await c.get('/ks/common/login/sms/reset-code?phone=13512345678', null);
    expect(k2.status).toBe(429);
    expect(u2.status).toBe(429);
    expect(u2.body).toEqual(k2.body);
    // a guessed code for the unknown phone reads as any wrong code
    const guess = await c.post('/ks/common/sms/phone-verify', null, {
      phone: '13512345678',
      purpose: 'reset',
      code: '123456',
    });
    expect(guess.status).toBe(400);
    expect(guess.body.data.fieldErrors.code).toEqual([SmsMsg.CODE_WRONG]);
  });

  it('sets the password with the proof, ends ALL sessions, logs it; the proof is single use', async () => {
    const s1 = await loginToken(t.app, 'user1', 'U');
    const s2 = await loginToken(t.app, 'user1', 'U');
    const proof = await proofOf(USER1_PHONE, 'reset');
    const key = await publicKeyOf(t.app);
    const weak = await c.put('/ks/individual/login/reset-secret', null, {
      phone: USER1_PHONE,
      proof,
      newPassword: encrypt(key, 'user1Abc!x'),
    });
    expect(weak.status).toBe(400);
    expect(weak.body.data.fieldErrors.newPassword).toEqual([AccountMsg.PASSWORD_HAS_ACCOUNT]);
    const reused = await c.put('/ks/individual/login/reset-secret', null, {
      phone: USER1_PHONE,
      proof,
      newPassword: encrypt(key, PW),
    });
    expect(reused.body.data.fieldErrors.newPassword).toEqual([AccountMsg.PASSWORD_REUSED]);
    const wrongAccount = await c.put('/ks/individual/login/reset-secret', null, {
      account: 'admin',
      phone: USER1_PHONE,
      proof,
      newPassword: encrypt(key, 'Reset#2026a'),
    });
    expect(wrongAccount.status).toBe(400);
    expect(wrongAccount.body.data.fieldErrors.account).toEqual([AccountMsg.RESET_NO_MATCH]);
    const ok = await c.put('/ks/individual/login/reset-secret', null, {
      phone: USER1_PHONE,
      proof,
      newPassword: encrypt(key, 'Reset#2026a'),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.message).toBe(AccountMsg.RESET_DONE);
    for (const s of [s1, s2]) {
      const r = await c.get('/ks/individual/valida/phone', s);
      expect(r.status).toBe(401);
      expect(r.body.code).toBe(Code.TOKEN_INVALID);
    }
    expect((await loginRaw(t.app, 'user1', PW, 'U')).statusCode).toBe(400);
    const again = await c.put('/ks/individual/login/reset-secret', null, {
      phone: USER1_PHONE,
      proof,
      newPassword: encrypt(key, 'Other#2026b'),
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(SmsMsg.PROOF_INVALID);
    const u = await userRow('user1');
    const [log] = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.recordId, u.id), eq(operationLogs.glName, '账号')))
      .orderBy(desc(operationLogs.id))
      .limit(1);
    expect(log!.logbook).toContain('找回密码');
    // back to the demo password for the tests below (through the history: 2 more changes)
    const token = await loginToken(t.app, 'user1', 'U', 'Reset#2026a');
    expect((await changePassword(token, 'Reset#2026a', 'Tmp#2026aa')).status).toBe(200);
    expect((await changePassword(token, 'Tmp#2026aa', 'Tmp#2026bb')).status).toBe(200);
    expect((await changePassword(token, 'Tmp#2026bb', PW)).status).toBe(200);
  });
});

describe('SMS sign-in', () => {
  it('signs in with phone and code; an unknown phone answers as a wrong code', async () => {
    advance(61_000);
    const sent = await c.get(`/ks/individual/login/verify-code?phone=${USER1_PHONE}`, null);
    expect(sent.status).toBe(200);
    const code = await newestCode(USER1_PHONE);
    const wrong = await c.post('/ks/common/login/sms', null, {
      phone: USER1_PHONE,
      code: code === '000000' ? '111111' : '000000',
    });
    const unknownSent = await c.get('/ks/individual/login/verify-code?phone=13512340000', null);
    expect(unknownSent.body).toEqual(sent.body);
    const unknown = await c.post('/ks/common/login/sms', null, { phone: '13512340000', code: '000000' });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(wrong.body);
    const r = await t.app.inject({
      method: 'POST',
      url: '/ks/common/login/sms',
      headers: { 'user-agent': CHROME },
      payload: { phone: USER1_PHONE, code },
    });
    expect(r.statusCode, r.body).toBe(200);
    const token = json<{ data: { token: string; userInfo: { userName: string } } }>(r).data.token;
    expect((await c.get('/ks/individual/valida/phone', token)).status).toBe(200);
    const u = await userRow('user1');
    const [log] = await t.database.db
      .select()
      .from(operationLogs)
      .where(eq(operationLogs.recordId, u.id))
      .orderBy(desc(operationLogs.id))
      .limit(1);
    expect(log!.logbook).toBe('短信验证码登录');
  });
});

describe('phone', () => {
  it('valida/phone, verify-phone with a verify code, update-phone with a proof for the new phone', async () => {
    const token = await loginToken(t.app, 'user1', 'U');
    const state = await c.get('/ks/individual/valida/phone', token);
    expect(state.body.data).toMatchObject({ hasPhone: true, maskedPhone: '138****8000' });
    advance(61_000);
    expect((await c.post('/ks/common/send-sms', token, { phone: USER1_PHONE, purpose: 'verify' })).status).toBe(200);
    const v = await c.post('/ks/individual/verify-phone', token, { code: await newestCode(USER1_PHONE) });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    expect(v.body.data).toEqual({ hasPhone: true, verified: true, maskedPhone: '138****8000' });

    const fresh = '13911112222';
    expect((await c.post('/ks/common/send-sms', token, { phone: fresh, purpose: 'phone' })).status).toBe(200);
    const proof = await proofOf(fresh, 'phone');
    // a proof of another purpose or phone does not do
    const wrong = await c.put('/ks/individual/login/update-phone', token, { phone: '13911113333', proof });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(SmsMsg.PROOF_INVALID);
    const taken = await c.put('/ks/individual/login/update-phone', token, { phone: '13934567890', proof });
    expect(taken.status).toBe(400);
    const ok = await c.put('/ks/individual/login/update-phone', token, { phone: fresh, proof });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toEqual({ hasPhone: true, verified: true, maskedPhone: '139****2222' });
    expect((await userRow('user1')).phone).toBe(fresh);
    // the seed's auditor has 13934567890: not to be taken
    advance(61_000);
    expect((await c.post('/ks/common/send-sms', token, { phone: '13934567890', purpose: 'phone' })).status).toBe(200);
    const p2 = await proofOf('13934567890', 'phone');
    const dup = await c.put('/ks/individual/login/update-phone', token, { phone: '13934567890', proof: p2 });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(AccountMsg.PHONE_TAKEN);
    // back
    await t.database.db.update(users).set({ phone: USER1_PHONE }).where(eq(users.account, 'user1'));
    expect((await c.put('/ks/individual/login/update-phone', null, { phone: fresh, proof })).status).toBe(401);
  });
});

describe('update-secret-time', () => {
  it('counts days since the password was set; PASSWORD_MAX_AGE_DAYS makes it due', async () => {
    const token = await loginToken(t.app, 'admin', 'M');
    const before = await c.get('/ks/individual/login/update-secret-time', token);
    expect(before.body.data.maxDays).toBe(90);
    const admin = await userRow('admin');
    await t.database.db
      .update(users)
      .set({ passwordChangedAt: new Date(t.clock.now.getTime() - 91 * 86_400_000) })
      .where(eq(users.id, admin.id));
    const due = await c.get('/ks/individual/login/update-secret-time', token);
    expect(due.body.data).toEqual({ mustChange: true, days: 91, maxDays: 90 });
    await t.database.db
      .update(users)
      .set({ passwordChangedAt: new Date(t.clock.now.getTime() - 3 * 86_400_000) })
      .where(eq(users.id, admin.id));
    expect((await c.get('/ks/individual/login/update-secret-time', token)).body.data).toEqual({
      mustChange: false,
      days: 3,
      maxDays: 90,
    });
  });
});

describe('portrait', () => {
  it('refuses what is not an image, re-encodes an image to a 256×256 WEBP and sets the photo', async () => {
    const token = await loginToken(t.app, 'user1', 'U');
    const bad = form({}, [{ name: 'a.png', data: EXE(), type: 'image/png' }]);
    const r = await t.app.inject({
      method: 'POST',
      url: '/ks/individual/portrait',
      headers: { ...bad.headers, ...bearer(token) },
      payload: bad.payload,
    });
    expect(r.statusCode).toBe(400);
    expect(json(r).message).toBe(AccountMsg.PORTRAIT_NOT_IMAGE);
    // a PNG signature over garbage: not decodable
    const broken = form({}, [{ name: 'b.png', data: PNG(), type: 'image/png' }]);
    const rb = await t.app.inject({
      method: 'POST',
      url: '/ks/individual/portrait',
      headers: { ...broken.headers, ...bearer(token) },
      payload: broken.payload,
    });
    expect(rb.statusCode).toBe(400);
    expect(json(rb).message).toBe(AccountMsg.PORTRAIT_UNREADABLE);

    const img = await sharp({ create: { width: 800, height: 500, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    const good = form({}, [{ name: 'me.jpg', data: img, type: 'image/jpeg' }]);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/ks/individual/portrait',
      headers: { ...good.headers, ...bearer(token) },
      payload: good.payload,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const photo = json<{ data: { photo: string } }>(ok).data.photo;
    expect(photo).toMatch(/^\/ks\/common\/common\/file\/download\?fileId=/);
    // served without a token (the header's <img>)
    const served = await t.app.inject({ method: 'GET', url: photo });
    expect(served.statusCode).toBe(200);
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect((await userRow('user1')).photo).toBe(photo);
    const check = await c.get('/ks/auth/v1/authorization/check-login', token);
    expect(check.body.data.userInfo.photo).toBe(photo);
    expect((await c.post('/ks/individual/portrait', null, {})).status).toBe(401);
  });
});

describe('log-history', () => {
  it('lists the caller’s own attempts, newest first, 10 a page, with address, device and result', async () => {
    await t.database.db.delete(loginAttempts).where(eq(loginAttempts.account, 'admin'));
    for (let i = 0; i < 11; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/ks/common/login',
        headers: { 'user-agent': CHROME },
        remoteAddress: '10.1.2.3',
        payload: await (async () => {
          const { loginBody, keyAndNonce } = await import('../../test/harness');
          const { publicKey, nonce } = await keyAndNonce(t.app);
          return loginBody(publicKey, nonce, 'admin', i === 0 ? 'Wrong#2026' : PW, 'M');
        })(),
      });
      advance(1000);
    }
    const token = await loginToken(t.app, 'admin', 'M');
    const p1 = await c.get('/ks/individual/log-history?page=1', token);
    expect(p1.status).toBe(200);
    expect(p1.body.data.total).toBe(12);
    expect(p1.body.data.records).toHaveLength(10);
    expect(p1.body.data.records[1]).toMatchObject({
      ip: '10.1.2.3',
      device: 'Chrome 120 / Windows 10/11',
      success: true,
    });
    const p2 = await c.get('/ks/individual/log-history?page=2', token);
    expect(p2.body.data.records).toHaveLength(2);
    expect(p2.body.data.records[1]).toMatchObject({ success: false, ip: '10.1.2.3' });
    // another user sees only their own
    const other = await loginToken(t.app, 'dev', 'D');
    const theirs = await c.get('/ks/individual/log-history', other);
    expect(theirs.body.data.records.every((r: { ip: string }) => r.ip !== '10.1.2.3')).toBe(true);
    expect((await c.get('/ks/individual/log-history', null)).status).toBe(401);
  });
});
