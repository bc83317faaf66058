import { Code } from '@ks/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import type { Database } from '../../db/client';
import { smsCodes, smsOutbox } from '../../db/schema';
import { AppError } from '../../platform/errors';
import { aliyunCanonicalQuery, aliyunPercentEncode, aliyunSignature } from '../../platform/integrations/sms-aliyun';
import { FAKE_SMS_APP_ID, FAKE_SMS_ID, FAKE_SMS_SECRET, type FakeSms, startFakeSms } from '../../test/fake-sms';
import { client, createTestApp, createTestDatabase, type TestApp } from '../../test/harness';
import { createSmsService } from './sms.service';

/**
 * The provider adapters against a local fake that recomputes each provider's signature with the same secret: a
 * message sent through Aliyun (HMAC-SHA1 v1.0) and Tencent Cloud (TC3-HMAC-SHA256) arrives with its template and
 * code; a wrong secret is refused by the provider and becomes 502 with nothing stored; so is a provider that does
 * not answer in time.
 */

let fake: FakeSms;
let database: Database;

const envFor = (provider: 'aliyun' | 'tencent', extra: Record<string, string> = {}) => ({
  NODE_ENV: 'test',
  SMS_PROVIDER: provider,
  SMS_ACCESS_KEY_ID: FAKE_SMS_ID,
  SMS_ACCESS_KEY_SECRET: FAKE_SMS_SECRET,
  SMS_SIGN_NAME: '公共资源交易平台',
  SMS_TEMPLATE_CODE: provider === 'aliyun' ? 'SMS_154950909' : '1234567',
  SMS_SDK_APP_ID: FAKE_SMS_APP_ID,
  SMS_ENDPOINT: fake.url,
  SMS_TIMEOUT_MS: '5000',
  ...extra,
});

beforeAll(async () => {
  fake = await startFakeSms();
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  await fake?.close();
});

async function codesOf(phone: string) {
  return database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone));
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

describe('Aliyun signature (version 1.0)', () => {
  it('percent-encodes as RFC 3986 and signs the sorted parameters', () => {
    expect(aliyunPercentEncode("a b*c~d!'()/中")).toBe('a%20b%2Ac~d%21%27%28%29%2F%E4%B8%AD');
    expect(aliyunCanonicalQuery({ b: '2', A: '1', a: 'x y' })).toBe('A=1&a=x%20y&b=2');
    // the worked example of Aliyun's signature document (DescribeRegions, secret "testsecret")
    const params = {
      AccessKeyId: 'testid',
      Action: 'DescribeRegions',
      Format: 'XML',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
      SignatureVersion: '1.0',
      Timestamp: '2016-02-23T12:46:24Z',
      Version: '2014-05-26',
    };
    expect(aliyunSignature('GET', params, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
  });
});

describe('provider senders', () => {
  it('Aliyun: the message arrives signed, with the template and the code; nothing in the outbox', async () => {
    const sms = createSmsService({ db: database.db, config: loadConfig(envFor('aliyun')) });
    expect(sms.mode).toBe('provider');
    const before = fake.messages.length;
    await sms.sendCode('13600000001', 'register');
    const msg = fake.messages[before]!;
    expect(msg).toMatchObject({
      provider: 'aliyun',
      phone: '13600000001',
      signName: '公共资源交易平台',
      template: 'SMS_154950909',
    });
    const code = (msg.params as Record<string, string>).code!;
    expect(code).toMatch(/^\d{6}$/);
    expect(await codesOf('13600000001')).toHaveLength(1);
    expect(await database.db.select().from(smsOutbox)).toHaveLength(0);
    await expect(sms.verifyCode('13600000001', 'register', code)).resolves.toHaveProperty('proof');
    expect(await sms.outbox()).toBeNull();
  });

  it('Tencent Cloud: the message arrives signed, +86 number, the code as the template parameter', async () => {
    const sms = createSmsService({ db: database.db, config: loadConfig(envFor('tencent')) });
    const before = fake.messages.length;
    await sms.sendCode('13600000002', 'legal');
    const msg = fake.messages[before]!;
    expect(msg).toMatchObject({
      provider: 'tencent',
      phone: '+8613600000002',
      signName: '公共资源交易平台',
      template: '1234567',
    });
    const [code] = msg.params as string[];
    expect(code).toMatch(/^\d{6}$/);
    await expect(sms.verifyCode('13600000002', 'legal', code!)).resolves.toHaveProperty('proof');
  });

  for (const provider of ['aliyun', 'tencent'] as const) {
    it(`${provider}: a signature the provider refuses is a 502 and leaves nothing behind`, async () => {
      const sms = createSmsService({
        db: database.db,
        config: loadConfig(envFor(provider, { SMS_ACCESS_KEY_SECRET: 'not-the-secret' })),
      });
      const phone = provider === 'aliyun' ? '13600000003' : '13600000004';
      const refused = fake.refused;
      const e = await errorOf(sms.sendCode(phone, 'register'));
      expect(fake.refused).toBe(refused + 1);
      expect(e.httpStatus).toBe(502);
      expect(e.code).toBe(Code.BAD_GATEWAY);
      expect(e.message).toMatch(
        provider === 'aliyun'
          ? /^短信发送失败：Specified signature is not matched with our calculation\.（SignatureDoesNotMatch）$/
          : /^短信发送失败：The provided credentials could not be validated.*（AuthFailure\.SignatureFailure）$/,
      );
      expect(e.message).not.toContain('not-the-secret');
      expect(await codesOf(phone)).toHaveLength(0);
    });

    it(`${provider}: a provider that does not answer in time is a 502 and leaves nothing behind`, async () => {
      const sms = createSmsService({
        db: database.db,
        config: loadConfig(envFor(provider, { SMS_TIMEOUT_MS: '300' })),
      });
      const phone = provider === 'aliyun' ? '13600000005' : '13600000006';
      fake.hangMs = 1500;
      try {
        const e = await errorOf(sms.sendCode(phone, 'register'));
        expect(e.httpStatus).toBe(502);
        expect(e.message).toBe('短信发送失败：短信服务 0.3 秒内无响应');
      } finally {
        fake.hangMs = 0;
      }
      expect(await codesOf(phone)).toHaveLength(0);
      // and the next try goes through at once (the failed one did not count)
      const patient = createSmsService({ db: database.db, config: loadConfig(envFor(provider)) });
      await expect(patient.sendCode(phone, 'register')).resolves.toEqual({ resendAfterSeconds: 60 });
    });
  }

  it('an unreachable provider is a 502', async () => {
    const sms = createSmsService({
      db: database.db,
      config: loadConfig(envFor('aliyun', { SMS_ENDPOINT: 'http://127.0.0.1:9/' })),
    });
    const e = await errorOf(sms.sendCode('13600000007', 'register'));
    expect(e.httpStatus).toBe(502);
    expect(e.message).toMatch(/^短信发送失败：无法连接短信服务/);
    expect(await codesOf('13600000007')).toHaveLength(0);
  });
});

describe('POST /ks/common/send-sms with a provider', () => {
  let t: TestApp;
  const c = client(() => t);
  beforeAll(async () => {
    t = await createTestApp({ env: envFor('aliyun', { SMS_ACCESS_KEY_SECRET: 'wrong-secret' }) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the provider failure as 502 in the envelope, with no code stored; the outbox is 404', async () => {
    const r = await c.post('/ks/common/send-sms', null, { phone: '13600000008', purpose: 'register' });
    expect(r.status).toBe(502);
    expect(r.body.code).toBe(Code.BAD_GATEWAY);
    expect(r.body.message).toMatch(/^短信发送失败：/);
    const rows = await t.database.db.select().from(smsCodes).where(eq(smsCodes.phone, '13600000008'));
    expect(rows).toHaveLength(0);
    expect((await c.get('/ks/common/sms/outbox', null)).status).toBe(404);
  });
});
