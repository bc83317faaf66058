import * as crypto from 'node:crypto';
import { Code, SmsMsg } from '@ks/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import type { Database } from '../../db/client';
import { appSettings, smsCodes, smsOutbox } from '../../db/schema';
import { constantTime } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { smsSendFailed } from '../../platform/integrations/sms';
import { client, createTestApp, createTestDatabase, loginToken, type TestApp } from '../../test/harness';
import { createOutboxSender, createSmsService, SMS_SECRET_SETTING, type SmsService } from './sms.service';

// the comparison of a code goes through the platform's constant-time equality (spied, still real)
const equal = vi.spyOn(constantTime, 'equal');
afterAll(() => equal.mockRestore());

/**
 * The SMS code core (issue 15): limits per phone by the service clock and the platform's day, hashed storage, the
 * constant-time check with its attempt limit and expiry, single-use proofs bound to phone and purpose, a failed send
 * leaving nothing behind, and the configuration rules.
 */

let database: Database;
const clock = { now: new Date('2026-03-02T01:00:00Z') }; // 09:00 in Asia/Shanghai
const config = loadConfig({ NODE_ENV: 'test' });
let sms: SmsService;
let n = 0;
/** a phone no other test uses */
const freshPhone = () => `139${String(10_000_000 + ++n * 7919).slice(-8)}`;

beforeAll(async () => {
  database = await createTestDatabase();
  sms = createSmsService({ db: database.db, config, now: () => clock.now });
});
afterAll(async () => {
  await database?.close();
});
afterEach(() => {
  clock.now = new Date('2026-03-02T01:00:00Z');
});

const advance = (ms: number) => {
  clock.now = new Date(clock.now.getTime() + ms);
};

/** The code the outbox holds for a phone (the newest). */
async function codeOf(phone: string): Promise<string> {
  const [row] = await database.db
    .select()
    .from(smsOutbox)
    .where(eq(smsOutbox.phone, phone))
    .orderBy(sql`${smsOutbox.id} desc`)
    .limit(1);
  if (!row) throw new Error(`no message to ${phone}`);
  return row.params.code!;
}

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError');
}

const fieldError = (e: AppError, field: string) =>
  (e.data as { fieldErrors: Record<string, string[]> }).fieldErrors[field]?.[0];

describe('sendCode', () => {
  it('sends a 6-digit code to the outbox and stores only its HMAC', async () => {
    const phone = freshPhone();
    expect(sms.mode).toBe('outbox');
    expect(await sms.sendCode(phone, 'register', { ip: '10.0.0.9' })).toEqual({ resendAfterSeconds: 60 });
    const code = await codeOf(phone);
    expect(code).toMatch(/^\d{6}$/);
    const [msg] = await database.db.select().from(smsOutbox).where(eq(smsOutbox.phone, phone));
    expect(msg!.template).toBe(config.sms.templateCode);
    expect(msg!.text).toContain(`您的验证码为 ${code}`);
    expect(msg!.text).toContain('5 分钟内有效');

    const rows = await database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone));
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.ip).toBe('10.0.0.9');
    expect(row.codeHash).not.toContain(code);
    expect(JSON.stringify(row)).not.toContain(code);
    const [secret] = await database.db.select().from(appSettings).where(eq(appSettings.key, SMS_SECRET_SETTING));
    expect(secret!.value).toMatch(/^[0-9a-f]{64}$/);
    const expected = crypto.createHmac('sha256', Buffer.from(secret!.value, 'hex')).update(code).digest('hex');
    expect(row.codeHash).toBe(expected);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(5 * 60_000);
  });

  it('refuses an invalid mobile number with a 400', async () => {
    const e = await errorOf(sms.sendCode('23800138000', 'register'));
    expect(e.httpStatus).toBe(400);
    expect(fieldError(e, 'phone')).toBe(SmsMsg.PHONE_INVALID);
  });

  it('allows one code per 60 s per phone, whatever the purpose', async () => {
    const phone = freshPhone();
    await sms.sendCode(phone, 'register');
    advance(15_000);
    const e = await errorOf(sms.sendCode(phone, 'legal'));
    expect(e.httpStatus).toBe(429);
    expect(e.message).toBe('请在 45 秒后重新获取验证码');
    expect(e.data).toEqual({ resendAfterSeconds: 45 });
    advance(44_500);
    expect((await errorOf(sms.sendCode(phone, 'register'))).message).toBe('请在 1 秒后重新获取验证码');
    advance(500);
    await expect(sms.sendCode(phone, 'legal')).resolves.toEqual({ resendAfterSeconds: 60 });
    // another phone is not held up
    await expect(sms.sendCode(freshPhone(), 'register')).resolves.toBeTruthy();
  });

  it('allows 10 codes per phone per day of the platform time zone', async () => {
    const phone = freshPhone();
    clock.now = new Date('2026-03-02T15:00:00Z'); // 23:00 in Shanghai
    for (let i = 0; i < 10; i++) {
      await sms.sendCode(phone, i % 2 ? 'register' : 'realname');
      advance(61_000);
    }
    const e = await errorOf(sms.sendCode(phone, 'register'));
    expect(e.httpStatus).toBe(429);
    expect(e.message).toBe(SmsMsg.DAILY_LIMIT);
    // until midnight in Shanghai (16:00 UTC)
    expect((e.data as { resendAfterSeconds: number }).resendAfterSeconds).toBe(
      (new Date('2026-03-02T16:00:00Z').getTime() - clock.now.getTime()) / 1000,
    );
    clock.now = new Date('2026-03-02T15:59:59Z');
    expect((await errorOf(sms.sendCode(phone, 'register'))).message).toBe(SmsMsg.DAILY_LIMIT);
    clock.now = new Date('2026-03-02T16:00:00Z'); // a new day in Shanghai, still 2 March in UTC
    await expect(sms.sendCode(phone, 'register')).resolves.toEqual({ resendAfterSeconds: 60 });
  });

  it('a provider failure writes nothing and does not count against the limits', async () => {
    const phone = freshPhone();
    const failing = createSmsService({
      db: database.db,
      config,
      now: () => clock.now,
      sender: {
        send: async () => {
          throw smsSendFailed('签名校验失败');
        },
      },
    });
    const e = await errorOf(failing.sendCode(phone, 'register'));
    expect(e.httpStatus).toBe(502);
    expect(e.code).toBe(Code.BAD_GATEWAY);
    expect(e.message).toBe('短信发送失败：签名校验失败');
    expect(await database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone))).toHaveLength(0);
    // a sender writing in the transaction before failing leaves nothing either
    const outbox = createOutboxSender(database.db, '测试');
    const halfway = createSmsService({
      db: database.db,
      config,
      now: () => clock.now,
      sender: {
        send: async (p, t, params, ctx) => {
          await outbox.send(p, t, params, ctx);
          throw smsSendFailed('超时');
        },
      },
    });
    expect((await errorOf(halfway.sendCode(phone, 'register'))).httpStatus).toBe(502);
    expect(await database.db.select().from(smsOutbox).where(eq(smsOutbox.phone, phone))).toHaveLength(0);
    // the next try is not held up by the 60 s rule
    await expect(sms.sendCode(phone, 'register')).resolves.toEqual({ resendAfterSeconds: 60 });
  });

  it('off: 503 with the plain message, nothing stored', async () => {
    const off = createSmsService({ db: database.db, config: loadConfig({ NODE_ENV: 'test', SMS_PROVIDER: 'off' }) });
    expect(off.mode).toBe('off');
    const phone = freshPhone();
    const e = await errorOf(off.sendCode(phone, 'register'));
    expect(e.httpStatus).toBe(503);
    expect(e.message).toBe(SmsMsg.OFF);
    expect(e.message.startsWith('短信服务未开通，')).toBe(true);
    expect(await off.outbox()).toBeNull();
  });
});

describe('verifyCode', () => {
  it('a right code answers a proof once; the code is then spent', async () => {
    const phone = freshPhone();
    await sms.sendCode(phone, 'register');
    const code = await codeOf(phone);
    equal.mockClear();
    const { proof } = await sms.verifyCode(phone, 'register', code);
    expect(equal).toHaveBeenCalled();
    expect(proof.length).toBeGreaterThanOrEqual(40);
    const [row] = await database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone));
    expect(row!.spentAt).not.toBeNull();
    expect(row!.proofHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(proof);
    expect(row!.proofExpiresAt!.getTime() - clock.now.getTime()).toBe(15 * 60_000);
    const again = await errorOf(sms.verifyCode(phone, 'register', code));
    expect(fieldError(again, 'code')).toBe(SmsMsg.CODE_NONE);
  });

  it('no code: 请先获取验证码; a code of another purpose does not count', async () => {
    const phone = freshPhone();
    expect(fieldError(await errorOf(sms.verifyCode(phone, 'register', '123456')), 'code')).toBe('请先获取验证码');
    await sms.sendCode(phone, 'legal');
    const e = await errorOf(sms.verifyCode(phone, 'register', await codeOf(phone)));
    expect(e.httpStatus).toBe(400);
    expect(fieldError(e, 'code')).toBe('请先获取验证码');
  });

  it('the 5th wrong code voids it, even for the right code after', async () => {
    const phone = freshPhone();
    await sms.sendCode(phone, 'register');
    const code = await codeOf(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) {
      const e = await errorOf(sms.verifyCode(phone, 'register', wrong));
      expect(e.httpStatus).toBe(400);
      expect(fieldError(e, 'code')).toBe('验证码错误');
      expect(e.message).toBe('验证码错误');
    }
    expect(fieldError(await errorOf(sms.verifyCode(phone, 'register', wrong)), 'code')).toBe(
      '验证码错误次数过多，请重新获取',
    );
    expect(fieldError(await errorOf(sms.verifyCode(phone, 'register', code)), 'code')).toBe(
      '验证码错误次数过多，请重新获取',
    );
    const [row] = await database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone));
    expect(row!.attempts).toBe(5);
    expect(row!.voidedAt).not.toBeNull();
    // a fresh code works
    advance(60_000);
    await sms.sendCode(phone, 'register');
    await expect(sms.verifyCode(phone, 'register', await codeOf(phone))).resolves.toHaveProperty('proof');
  });

  it('a code is good for 5 minutes', async () => {
    const phone = freshPhone();
    await sms.sendCode(phone, 'register');
    const code = await codeOf(phone);
    advance(5 * 60_000);
    expect(fieldError(await errorOf(sms.verifyCode(phone, 'register', code)), 'code')).toBe('验证码已过期，请重新获取');
    const other = freshPhone();
    await sms.sendCode(other, 'register');
    advance(5 * 60_000 - 1);
    await expect(sms.verifyCode(other, 'register', await codeOf(other))).resolves.toHaveProperty('proof');
  });

  it('a newer code replaces the older one of the same purpose', async () => {
    const phone = freshPhone();
    await sms.sendCode(phone, 'register');
    const first = await codeOf(phone);
    advance(61_000);
    await sms.sendCode(phone, 'register');
    const second = await codeOf(phone);
    if (first !== second) {
      expect(fieldError(await errorOf(sms.verifyCode(phone, 'register', first)), 'code')).toBe('验证码错误');
    }
    await expect(sms.verifyCode(phone, 'register', second)).resolves.toHaveProperty('proof');
  });
});

describe('consumeProof / checkCode', () => {
  async function proofFor(phone: string, purpose: 'register' | 'legal' = 'register') {
    await sms.sendCode(phone, purpose);
    return (await sms.verifyCode(phone, purpose, await codeOf(phone))).proof;
  }
  const consume = (phone: string, purpose: 'register' | 'legal', proof: string) =>
    database.db.transaction((tx) => sms.consumeProof(tx, phone, purpose, proof));

  it('is single use and bound to the phone and purpose of its code', async () => {
    const phone = freshPhone();
    const proof = await proofFor(phone);
    for (const [p, purpose] of [
      [freshPhone(), 'register'],
      [phone, 'legal'],
    ] as const) {
      const e = await errorOf(consume(p, purpose, proof));
      expect(e.httpStatus).toBe(400);
      expect(e.message).toBe('手机验证已失效，请重新验证');
    }
    expect((await errorOf(consume(phone, 'register', 'forged'))).message).toBe('手机验证已失效，请重新验证');
    await consume(phone, 'register', proof);
    expect((await errorOf(consume(phone, 'register', proof))).message).toBe('手机验证已失效，请重新验证');
  });

  it('expires after 15 minutes, and a rolled-back transaction leaves it unspent', async () => {
    const phone = freshPhone();
    const proof = await proofFor(phone);
    await expect(
      database.db.transaction(async (tx) => {
        await sms.consumeProof(tx, phone, 'register', proof);
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    advance(15 * 60_000);
    expect((await errorOf(consume(phone, 'register', proof))).message).toBe('手机验证已失效，请重新验证');

    const fresh = freshPhone();
    const p2 = await proofFor(fresh);
    advance(15 * 60_000 - 1);
    await expect(consume(fresh, 'register', p2)).resolves.toBeUndefined();
  });

  it('checkCode spends a right code in the transaction and counts wrong ones outside it', async () => {
    const phone = freshPhone();
    await sms.sendCode(phone, 'legal');
    const code = await codeOf(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const check = (c: string) => database.db.transaction((tx) => sms.checkCode(tx, phone, 'legal', c));
    expect(fieldError(await errorOf(check(wrong)), 'code')).toBe('验证码错误');
    await vi.waitFor(async () => {
      const [row] = await database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone));
      expect(row!.attempts).toBe(1);
    });
    await check(code);
    expect(fieldError(await errorOf(check(code)), 'code')).toBe('请先获取验证码');
  });
});

describe('configuration', () => {
  it('refuses the outbox in production, and needs the provider settings', () => {
    for (const env of [{ NODE_ENV: 'production' }, { NODE_ENV: 'production', SMS_PROVIDER: 'outbox' }]) {
      try {
        loadConfig(env);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        expect((e as Error).message).toMatch(/SMS_PROVIDER: .*set SMS_PROVIDER.*or SMS_PROVIDER=off/);
      }
    }
    expect(loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'off' }).sms.provider).toBe('off');
    expect(loadConfig({}).sms.provider).toBe('outbox');
    expect(() => loadConfig({ SMS_PROVIDER: 'aliyun' })).toThrow(
      /SMS_ACCESS_KEY_ID: required when SMS_PROVIDER=aliyun/,
    );
    expect(() =>
      loadConfig({
        SMS_PROVIDER: 'tencent',
        SMS_ACCESS_KEY_ID: 'id',
        SMS_ACCESS_KEY_SECRET: 'secret',
        SMS_SIGN_NAME: '平台',
        SMS_TEMPLATE_CODE: '123456',
      }),
    ).toThrow(/SMS_SDK_APP_ID: required when SMS_PROVIDER=tencent/);
    expect(() => loadConfig({ SMS_PROVIDER: 'carrier-pigeon' })).toThrow(/SMS_PROVIDER/);
  });
});

describe('routes', () => {
  let t: TestApp;
  let off: TestApp;
  const c = client(() => t);
  const o = client(() => off);
  beforeAll(async () => {
    t = await createTestApp();
    off = await createTestApp({ env: { SMS_PROVIDER: 'off' } });
  });
  afterAll(async () => {
    await t?.close();
    await off?.close();
  });

  it('send-sms: anonymous purposes for anyone, the outbox shows it, phone-verify answers a proof', async () => {
    const phone = '13700000001';
    const r = await c.post('/ks/common/send-sms', null, { phone, purpose: 'register' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, message: '验证码已发送', data: { resendAfterSeconds: 60 } });
    const box = await c.get(`/ks/common/sms/outbox?phone=${phone}`, null);
    expect(box.status).toBe(200);
    expect(box.body.data).toHaveLength(1);
    expect(box.body.data[0]).toMatchObject({ phone, params: { code: expect.stringMatching(/^\d{6}$/) } });
    const v = await c.post('/ks/common/sms/phone-verify', null, {
      phone,
      purpose: 'register',
      code: box.body.data[0].params.code,
    });
    expect(v.status).toBe(200);
    expect(typeof v.body.data.proof).toBe('string');
    const again = await c.post('/ks/common/send-sms', null, { phone, purpose: 'legal' });
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^请在 \d+ 秒后重新获取验证码$/);
  });

  it('send-sms: phone/verify need a session, verify only to the own phone; reset/login elsewhere', async () => {
    const anon = await c.post('/ks/common/send-sms', null, { phone: '13700000002', purpose: 'phone' });
    expect(anon.status).toBe(401);
    expect(anon.body.message).toBe(SmsMsg.PURPOSE_SIGNED_IN);
    const bad = await c.post('/ks/common/send-sms', 'not-a-token', { phone: '13700000002', purpose: 'register' });
    expect(bad.status).toBe(401);
    const token = await loginToken(t.app, 'user1', 'U');
    expect((await c.post('/ks/common/send-sms', token, { phone: '13700000002', purpose: 'phone' })).status).toBe(200);
    const other = await c.post('/ks/common/send-sms', token, { phone: '13700000003', purpose: 'verify' });
    expect(other.status).toBe(400);
    expect(other.body.message).toBe(SmsMsg.VERIFY_OWN_PHONE);
    // user1's own phone (seed) may be verified
    expect((await c.post('/ks/common/send-sms', token, { phone: '13800138000', purpose: 'verify' })).status).toBe(200);
    for (const purpose of ['reset', 'login']) {
      const r = await c.post('/ks/common/send-sms', null, { phone: '13700000004', purpose });
      expect(r.status).toBe(400);
    }
    const invalid = await c.post('/ks/common/send-sms', null, { phone: '1234', purpose: 'register' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.data.fieldErrors.phone).toEqual([SmsMsg.PHONE_INVALID]);
    const code = await c.post('/ks/common/sms/phone-verify', null, {
      phone: '13700000009',
      purpose: 'register',
      code: '12',
    });
    expect(code.status).toBe(400);
    expect(code.body.data.fieldErrors.code).toEqual([SmsMsg.CODE_FORMAT]);
  });

  it('SMS off: send-sms is 503 and the outbox is 404', async () => {
    const r = await o.post('/ks/common/send-sms', null, { phone: '13700000005', purpose: 'register' });
    expect(r.status).toBe(503);
    expect(r.body.message).toBe(SmsMsg.OFF);
    const box = await o.get('/ks/common/sms/outbox', null);
    expect(box.status).toBe(404);
    expect(box.body.message).toBe(SmsMsg.OUTBOX_UNAVAILABLE);
  });
});
