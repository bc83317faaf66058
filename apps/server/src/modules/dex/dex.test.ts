import { randomUUID } from 'node:crypto';
import { DEX_MSG } from '@ks/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dexOutbox, dexPushAttempts, operationLogs } from '../../db/schema';
import { pushToUpstream, signPush } from '../../platform/integrations/upstream';
import {
  FAKE_UPSTREAM_APP_ID,
  FAKE_UPSTREAM_SECRET,
  type FakeUpstream,
  startFakeUpstream,
} from '../../test/fake-upstream';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { backoffOf, createDexRunner, enqueuePush } from './dex.outbox';

let fake: FakeUpstream;
let t: TestApp;
let bare: TestApp;
const c = client(() => t);
let admin: string;
let dev: string;
let user: string;

// long enough that a loaded machine's next statement never finds a failed push due again within the same pass
const BACKOFF = 400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const upstream = () => ({
  url: fake.url,
  appId: FAKE_UPSTREAM_APP_ID,
  appSecret: FAKE_UPSTREAM_SECRET,
  timeoutMs: 1000,
});
const key = (p = 'notice') => `${p}:${randomUUID()}`;

async function enqueue(businessKey: string, title = '测试公告') {
  await enqueuePush(t.database.db, { businessKey, kind: 'notice', title, payload: { title } });
  const [r] = await t.database.db.select().from(dexOutbox).where(eq(dexOutbox.businessKey, businessKey));
  return r!;
}
const rowOf = async (id: string) => (await t.database.db.select().from(dexOutbox).where(eq(dexOutbox.id, id)))[0]!;

/** Kick the app's runner until the row reaches a final state (or the time is up). */
async function until(id: string, states: string[], ms = 8_000) {
  const end = Date.now() + ms;
  for (;;) {
    await t.app.dexRunner.kick();
    const r = await rowOf(id);
    if (states.includes(r.status)) return r;
    if (Date.now() > end) throw new Error(`push ${id} still ${r.status}`);
    await sleep(BACKOFF / 2);
  }
}

beforeAll(async () => {
  fake = await startFakeUpstream();
  t = await createTestApp({
    env: {
      DEX_UPSTREAM_URL: fake.url,
      DEX_APP_ID: FAKE_UPSTREAM_APP_ID,
      DEX_APP_SECRET: FAKE_UPSTREAM_SECRET,
      DEX_TIMEOUT_MS: '1000',
      DEX_MAX_ATTEMPTS: '3',
      DEX_BACKOFF_MS: String(BACKOFF),
    },
  });
  // what the demo published is pushed first (its notices and results), so each test's failures hit its own push
  await t.app.dexRunner.kick();
  [admin, dev, user] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
  ]);
});
afterAll(async () => {
  await bare?.close();
  await t?.close();
  await fake?.close();
});

describe('signing', () => {
  it('signs timestamp + nonce + body with the app secret; the upstream refuses another secret', async () => {
    expect(signPush('s3cret', '1', 'n', '{}')).toBe(
      (await import('node:crypto')).createHmac('sha256', 's3cret').update('1n{}').digest('hex'),
    );
    const k = key();
    const bad = await pushToUpstream({ ...upstream(), appSecret: 'another-secret' }, k, { a: 1 });
    expect(bad).toMatchObject({ ok: false, status: 401 });
    expect(fake.received.find((r) => r.businessKey === k)?.signatureOk).toBe(false);
    const good = await pushToUpstream(upstream(), k, { a: 1 });
    expect(good).toMatchObject({ ok: true, status: 200, error: null });
    expect(fake.received.filter((r) => r.businessKey === k).map((r) => r.signatureOk)).toEqual([false, true]);
  });
});

describe('the outbox', () => {
  // what an earlier test left queued is sent first, so the failures a test asks for hit its own push
  beforeEach(async () => {
    await t.app.dexRunner.kick();
  });
  it('keeps one row per business key', async () => {
    const k = key();
    await enqueue(k);
    await enqueue(k, '另一个标题');
    const rows = await t.database.db.select().from(dexOutbox).where(eq(dexOutbox.businessKey, k));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.title).toBe('测试公告');
  });

  it('retries a failing push with back-off, then sends it; every attempt is logged and viewable', async () => {
    const row = await enqueue(key());
    fake.failNext(1, 'http-500');
    await t.app.dexRunner.kick();
    let r = await rowOf(row.id);
    // the first failure put it back in the queue, due after the first back-off
    expect(r).toMatchObject({ status: 'queued', attempts: 1, lastStatus: 500 });
    expect(r.lastError).toContain('HTTP 500');
    expect(r.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() - 5);
    fake.failNext(1, 'timeout');
    r = await until(row.id, ['sent']);
    expect(r.attempts).toBe(3);
    expect(fake.accepted.get(row.businessKey)).toBe(1);
    const d = await c.post('/ks/sync/v1/push/detail', admin, { id: row.id });
    expect(d.status).toBe(200);
    expect(d.body.data.push).toMatchObject({ status: 'sent', attempts: 3 });
    const a = d.body.data.attempts as {
      attempt: number;
      httpStatus: number | null;
      ok: boolean;
      error: string | null;
      durationMs: number;
    }[];
    expect(a.map((x) => [x.attempt, x.httpStatus, x.ok])).toEqual([
      [1, 500, false],
      [2, null, false],
      [3, 200, true],
    ]);
    expect(a[1]!.error).toContain('未应答');
    expect(a[1]!.durationMs).toBeGreaterThanOrEqual(250);
    // every request carried a valid signature and the business key
    expect(fake.received.filter((x) => x.businessKey === row.businessKey).every((x) => x.signatureOk)).toBe(true);
  });

  it('doubles the back-off with each failure, up to its maximum', () => {
    expect([1, 2, 3, 4].map((n) => backoffOf(n, 100, 500))).toEqual([100, 200, 400, 500]);
  });

  it('fails a push after the last attempt; only an administrator re-sends it, and then it is sent', async () => {
    const row = await enqueue(key(), '重发测试公告');
    fake.failNext(3, 'http-500');
    const r = await until(row.id, ['failed']);
    expect(r.attempts).toBe(3);
    const list = await c.post('/ks/sync/v1/push/list', admin, { status: 'failed', keyword: '重发测试' });
    expect(list.status).toBe(200);
    expect(list.body.data).toMatchObject({ configured: true, maxAttempts: 3, total: 1 });
    expect(list.body.data.records[0]).toMatchObject({ id: row.id, status: 'failed', attempts: 3 });
    for (const token of [dev, user]) {
      const no = await c.post('/ks/sync/v1/push/resend', token, { id: row.id });
      expect(no.status).toBe(403);
    }
    expect((await c.post('/ks/sync/v1/push/list', user, {})).status).toBe(403);
    expect((await c.post('/ks/sync/v1/push/list', dev, {})).status).toBe(200);
    expect((await c.post('/ks/sync/v1/push/resend', admin, { id: 'x' })).status).toBe(400);
    expect((await c.post('/ks/sync/v1/push/resend', admin, { id: randomUUID() })).status).toBe(404);
    const ok = await c.post('/ks/sync/v1/push/resend', admin, { id: row.id });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe(DEX_MSG.resent);
    const again = await c.post('/ks/sync/v1/push/resend', admin, { id: row.id });
    if (again.status !== 200) {
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(DEX_MSG.notFailed);
    }
    const sent = await until(row.id, ['sent']);
    expect(sent.attempts).toBe(1);
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.recordId, row.id));
    expect(logs.some((l) => l.logbook.includes('重新推送《重发测试公告》'))).toBe(true);
    const attempts = await t.database.db.select().from(dexPushAttempts).where(eq(dexPushAttempts.outboxId, row.id));
    expect(attempts).toHaveLength(4);
  });

  it('two runners at once send each business key exactly once', async () => {
    const keys = Array.from({ length: 12 }, () => key('result'));
    for (const k of keys) await enqueue(k);
    const sends = new Map<string, number>();
    const counted = (cfg: ReturnType<typeof upstream>, k: string, p: unknown) => {
      sends.set(k, (sends.get(k) ?? 0) + 1);
      return pushToUpstream(cfg, k, p);
    };
    const a = createDexRunner({ db: t.database.db, upstream: upstream(), send: counted });
    const b = createDexRunner({ db: t.database.db, upstream: upstream(), send: counted });
    await Promise.all([a.kick(), b.kick(), t.app.dexRunner.kick()]);
    await Promise.all([a.stop(), b.stop()]);
    const rows = await t.database.db.select().from(dexOutbox).where(inArray(dexOutbox.businessKey, keys));
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    for (const k of keys) {
      expect(fake.accepted.get(k)).toBe(1);
      expect(sends.get(k) ?? 0).toBeLessThanOrEqual(1);
    }
  });

  it('takes up a push left mid-flight by a runner that stopped, once its lease has run out', async () => {
    const row = await enqueue(key());
    // a runner takes the row and its process dies before the answer (its send never finishes)
    let taken!: () => void;
    const tookIt = new Promise<void>((r) => {
      taken = r;
    });
    const dead = createDexRunner({
      db: t.database.db,
      upstream: upstream(),
      leaseMs: 200,
      send: () => {
        taken();
        return new Promise(() => undefined);
      },
    });
    // only the new row is due for it: the others are sent
    void dead.kick();
    await tookIt;
    expect(await rowOf(row.id)).toMatchObject({ status: 'sending', attempts: 1 });
    // before the lease runs out nobody else takes it
    await t.app.dexRunner.kick();
    expect((await rowOf(row.id)).status).toBe('sending');
    await sleep(300);
    // "after the restart": a fresh runner (as a new process would start) finds it and sends it
    const fresh = createDexRunner({ db: t.database.db, upstream: upstream() });
    await fresh.kick();
    await fresh.stop();
    expect(await rowOf(row.id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(fake.accepted.get(row.businessKey)).toBe(1);
  });
});

describe('unconfigured', () => {
  it('keeps pushes queued and says no upstream is configured', async () => {
    bare = await createTestApp();
    const token = await loginToken(bare.app, 'admin', 'M');
    await enqueuePush(bare.database.db, {
      businessKey: 'notice:unconfigured',
      kind: 'notice',
      title: '未配置',
      payload: {},
    });
    await bare.app.dexRunner.kick();
    const r = await client(() => bare).post('/ks/sync/v1/push/list', token, { keyword: 'unconfigured' });
    expect(r.status).toBe(200);
    expect(r.body.data.configured).toBe(false);
    expect(r.body.data.records[0]).toMatchObject({ status: 'queued', attempts: 0 });
    expect(DEX_MSG.notConfigured).toContain('未配置上级平台');
    // nothing was attempted (the demo's own pushes come with their seeded history)
    const n = await bare.database.db.execute(
      sql`select count(*)::int as n from dex_push_attempts a join dex_outbox o on o.id = a.outbox_id where o.business_key = 'notice:unconfigured'`,
    );
    expect((n as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });
});
