import { randomUUID } from 'node:crypto';
import { DEX_MSG, type DexRegDetail, type DexRegRow, type DexSyncJob, isValidCreditCode } from '@ks/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dexRegAudits, dexRegistrations, dexSyncJobs, enterprises, operationLogs } from '../../db/schema';
import {
  FAKE_CHANGING_ID,
  FAKE_CLOSED_ID,
  FAKE_DEMO_CREDIT_CODE,
  FAKE_DEMO_ID,
  FAKE_INVALID_ID,
  FAKE_MISSING_ID,
  FAKE_UPSTREAM_APP_ID,
  FAKE_UPSTREAM_SECRET,
  type FakeUpstream,
  startFakeUpstream,
} from '../../test/fake-upstream';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { checkRecord, regionOfCode, yuanOf } from './dex.registration';
import { createDexSyncRunner, DEX_SYNC_MAX_ATTEMPTS } from './dex.sync';

/**
 * 监管审核 (issue 19): registrations pulled from the fake upstream page by page, idempotently, with their audit log; the
 * administrators' decisions; and what happens when the upstream fails or is not configured.
 */
let fake: FakeUpstream;
let t: TestApp;
let bare: TestApp;
const c = client(() => t);
let admin: string;
let dev: string;
let user: string;

const PAGE = 5;
const FAKE_COUNT = 14;
const upstream = () => ({
  url: fake.url,
  appId: FAKE_UPSTREAM_APP_ID,
  appSecret: FAKE_UPSTREAM_SECRET,
  timeoutMs: 1500,
});

/** Starts a sync as the administrator and waits until this process's runner has run it. */
async function sync(full = true): Promise<DexSyncJob> {
  const r = await c.post('/ks/sync/v1/sync/data-sync', admin, { full });
  expect(r.status, r.body.message).toBe(200);
  expect(r.body.message).toBe(DEX_MSG.syncStarted);
  await t.app.dexSyncRunner.kick();
  const s = await c.post('/ks/sync/v1/sync/job', admin, {});
  expect(s.body.data.job.id).toBe(r.body.data.id);
  return s.body.data.job;
}

const byUpstream = async (id: string) =>
  (await t.database.db.select().from(dexRegistrations).where(eq(dexRegistrations.upstreamId, id)))[0]!;
const fakeIds = () => fake.registrations().map((r) => r.id);
const detail = async (id: string): Promise<DexRegDetail> => {
  const r = await c.post('/ks/sync/v1/sync/detail', admin, { id });
  expect(r.status, r.body.message).toBe(200);
  return r.body.data;
};
const auditsOfJob = async (jobId: string) =>
  t.database.db.select().from(dexRegAudits).where(eq(dexRegAudits.jobId, jobId));

beforeAll(async () => {
  fake = await startFakeUpstream();
  t = await createTestApp({
    env: {
      DEX_UPSTREAM_URL: fake.url,
      DEX_APP_ID: FAKE_UPSTREAM_APP_ID,
      DEX_APP_SECRET: FAKE_UPSTREAM_SECRET,
      DEX_TIMEOUT_MS: '1500',
      DEX_SYNC_PAGE_SIZE: String(PAGE),
      // the tests run the runner themselves
      DEX_POLL_MS: '600000',
    },
  });
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

describe('checking an upstream record', () => {
  const good = () => ({ ...fake.registrations().find((r) => r.id === 'SXSCJG-140105-2009-000341')! });
  it('takes a complete record, mapping the division code to the region and the capital to yuan', () => {
    const r = checkRecord(good(), '2026-11-30');
    expect(r.reasons).toEqual([]);
    expect(r.values).toMatchObject({ region: '太原市', registeredCapital: '120000000.00', entType: '施工企业' });
    expect(regionOfCode('141182')).toBe('吕梁市');
    expect(regionOfCode('140000')).toBe('省本级');
    expect(regionOfCode('110105')).toBeNull();
    expect(yuanOf(5000000)).toBe('5000000.00');
    expect(yuanOf('12.5')).toBe('12.50');
    expect(yuanOf('-1')).toBeNull();
    expect(yuanOf('1.234')).toBeNull();
  });
  it('refuses a record with every reason, keeping the fields that are right', () => {
    const r = checkRecord(
      {
        ...good(),
        creditCode: '91140105MA0GRJ7K2X',
        legalPerson: ' ',
        regionCode: '110105',
        establishedAt: '2099-01-01',
      },
      '2026-11-30',
    );
    expect(r.values).toBeNull();
    expect(r.reasons).toEqual([
      '统一社会信用代码校验位有误（91140105MA0GRJ7K2X）',
      '缺少法定代表人',
      '所在地区代码不是山西省的行政区划（110105）',
      '成立日期晚于今天（2099-01-01）',
    ]);
    expect(r.partial.name).toBe('山西晋阳路桥建设有限公司');
    expect(checkRecord('text', '2026-11-30').upstreamId).toBeNull();
    expect(checkRecord({ ...good(), entType: '外星企业' }, '2026-11-30').reasons).toEqual([
      '主体类型无法识别（外星企业）',
    ]);
  });
  it('the fake serves valid codes except the one meant to be wrong', () => {
    for (const r of fake.registrations()) expect(isValidCreditCode(r.creditCode), r.id).toBe(r.id !== FAKE_INVALID_ID);
  });
});

describe('who may do what', () => {
  it('refuses developers and users the changes, users the reading; bad filters are a 400', async () => {
    expect((await c.post('/ks/sync/v1/sync/data-sync', dev, {})).status).toBe(403);
    expect((await c.post('/ks/sync/v1/sync/data-sync', user, {})).status).toBe(403);
    expect((await c.post('/ks/sync/v1/sync/data-list', user, {})).status).toBe(403);
    expect((await c.post('/ks/sync/v1/sync/job', user, {})).status).toBe(403);
    const id = randomUUID();
    expect((await c.post('/ks/sync/v1/sync/approve', dev, { id, version: 1 })).status).toBe(403);
    expect((await c.post('/ks/sync/v1/sync/reject', dev, { id, version: 1, reason: 'x' })).status).toBe(403);
    const list = await c.post('/ks/sync/v1/sync/data-list', dev, {});
    expect(list.status).toBe(200);
    expect(list.body.data.configured).toBe(true);
    for (const bad of [
      { state: 'approved; drop table users' },
      { regStatus: '营业' },
      { change: 'gone' },
      { sortField: 'raw' },
      { order: 'sideways' },
      { whereStr: '[{"field":"name","op":"eq","value":"x"}]' },
      { startDate: '2026-02-30' },
      { startDate: '2026-11-02', endDate: '2026-11-01' },
      { pageSize: 1000 },
    ]) {
      const r = await c.post('/ks/sync/v1/sync/data-list', admin, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await c.post('/ks/sync/v1/sync/data-sync', admin, { full: 'yes' })).status).toBe(400);
    expect((await c.post('/ks/sync/v1/sync/detail', admin, { id: 'x' })).status).toBe(400);
    expect((await c.post('/ks/sync/v1/sync/detail', admin, { id })).status).toBe(404);
  });
});

describe('pulling', () => {
  let first: DexSyncJob;
  it('pages through the upstream and records every record: new, or rejected with the reason', async () => {
    const before = fake.registrationRequests.length;
    first = await sync(true);
    expect(first).toMatchObject({
      status: 'done',
      full: true,
      phase: null,
      pages: Math.ceil(FAKE_COUNT / PAGE),
      fetched: FAKE_COUNT,
      total: FAKE_COUNT,
      counts: { new: FAKE_COUNT - 2, changed: 0, unchanged: 0, rejected: 2 },
      startedByName: '平台管理员',
      error: null,
    });
    const asked = fake.registrationRequests.slice(before);
    expect(asked.map((q) => [q.since, q.pageSize])).toEqual(Array(3).fill([null, PAGE]));
    expect(asked[0]!.cursor).toBeNull();
    expect(new Set(asked.map((q) => q.cursor)).size).toBe(3);
    const rows = await t.database.db
      .select()
      .from(dexRegistrations)
      .where(inArray(dexRegistrations.upstreamId, fakeIds()));
    expect(rows).toHaveLength(FAKE_COUNT);
    const invalid = await byUpstream(FAKE_INVALID_ID);
    expect(invalid).toMatchObject({
      state: 'invalid',
      lastChange: 'rejected',
      name: '阳泉市平定县宏达建筑工程有限公司',
    });
    expect(invalid.reason).toMatch(/^统一社会信用代码校验位有误/);
    expect(await byUpstream(FAKE_MISSING_ID)).toMatchObject({ state: 'invalid', reason: '缺少法定代表人' });
    expect(await byUpstream(FAKE_CHANGING_ID)).toMatchObject({
      state: 'pending',
      lastChange: 'new',
      legalPerson: '白俊峰',
    });
    // one audit row per record received, none of them touching the enterprise library
    const audits = await auditsOfJob(first.id);
    expect(audits).toHaveLength(FAKE_COUNT);
    expect(
      audits
        .filter((a) => a.action === 'rejected')
        .map((a) => a.upstreamId)
        .sort(),
    ).toEqual([FAKE_INVALID_ID, FAKE_MISSING_ID].sort());
    const [ent] = await t.database.db
      .select()
      .from(enterprises)
      .where(eq(enterprises.creditCode, FAKE_DEMO_CREDIT_CODE));
    expect(ent!.registeredCapital).toBe('80000000.00');
  });

  it('a second pull duplicates nothing: the unchanged are counted, the changed one shows its diff and waits again', async () => {
    const second = await sync(true);
    expect(second.counts).toEqual({ new: 0, changed: 1, unchanged: FAKE_COUNT - 3, rejected: 2 });
    const rows = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(dexRegistrations)
      .where(inArray(dexRegistrations.upstreamId, fakeIds()));
    expect(rows[0]!.n).toBe(FAKE_COUNT);
    const changing = await byUpstream(FAKE_CHANGING_ID);
    expect(changing).toMatchObject({ state: 'pending', lastChange: 'changed', legalPerson: '白晓燕', version: 2 });
    const d = await detail(changing.id);
    expect(d.diff).toEqual([
      { field: 'legalPerson', before: '白俊峰', after: '白晓燕' },
      { field: 'registeredCapital', before: '40000000.00', after: '60000000.00' },
      { field: 'regType', before: '设立登记', after: '变更登记' },
    ]);
    expect(d.history.map((h) => h.action)).toEqual(['changed', 'new']);
    expect(d.history[0]!.diff).toEqual(d.diff);
    // the same data again (a later updatedAt, the same values): everything unchanged
    const third = await sync(true);
    expect(third.counts).toEqual({ new: 0, changed: 0, unchanged: FAKE_COUNT - 2, rejected: 2 });
    expect((await byUpstream(FAKE_CHANGING_ID)).version).toBe(2);
  });

  it('an incremental pull asks for what changed since the last finished one', async () => {
    const [last] = await t.database.db.select().from(dexSyncJobs).where(eq(dexSyncJobs.status, 'done'));
    expect(last).toBeTruthy();
    const before = fake.registrationRequests.length;
    const job = await sync(false);
    const asked = fake.registrationRequests.slice(before);
    expect(job.full).toBe(false);
    expect(job.since).not.toBeNull();
    expect(asked[0]!.since).toBe(job.since);
    // only the one that moved since (the changing registration, again with the same values)
    expect(job).toMatchObject({ fetched: 1, counts: { new: 0, changed: 0, unchanged: 1, rejected: 0 } });
  });

  it('lists with whitelisted filters and pages', async () => {
    const list = (body: object) => c.post('/ks/sync/v1/sync/data-list', admin, body);
    const kw = await list({ keyword: '晋阳路桥' });
    expect(kw.body.data.total).toBe(1);
    expect(kw.body.data.records[0]).toMatchObject({
      name: '山西晋阳路桥建设有限公司',
      canDecide: true,
      state: 'pending',
    });
    expect(
      (await c.post('/ks/sync/v1/sync/data-list', dev, { keyword: '晋阳路桥' })).body.data.records[0].canDecide,
    ).toBe(false);
    const invalid = await list({ state: 'invalid', pageSize: 50 });
    const ours = new Set(fakeIds());
    expect(
      (invalid.body.data.records as DexRegRow[])
        .map((r) => r.upstreamId)
        .filter((id) => ours.has(id))
        .sort(),
    ).toEqual([FAKE_INVALID_ID, FAKE_MISSING_ID].sort());
    expect((await list({ regStatus: '注销', keyword: FAKE_CLOSED_ID })).body.data.total).toBe(1);
    expect((await list({ change: 'changed', keyword: FAKE_CHANGING_ID })).body.data.total).toBe(0);
    const page = await list({ keyword: 'SXSCJG-14', pageSize: 5, pageNum: 2, sortField: 'name', order: 'asc' });
    expect(page.body.data.records).toHaveLength(5);
    expect(page.body.data.total).toBeGreaterThanOrEqual(FAKE_COUNT);
    // the period is of the upstream's update days
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() + 8 * 3_600_000 - 86_400_000).toISOString().slice(0, 10);
    expect(
      (await list({ keyword: 'SXSCJG-14', startDate: yesterday, endDate: today, pageSize: 50 })).body.data.total,
    ).toBeGreaterThanOrEqual(FAKE_COUNT);
    expect((await list({ keyword: '晋阳路桥', startDate: '2001-01-01', endDate: '2001-12-31' })).body.data.total).toBe(
      0,
    );
    // a keyword is text, never a pattern
    expect((await list({ keyword: '%' })).body.data.total).toBe(0);
  });

  it('an upstream failure fails the job with the reason and writes nothing of it', async () => {
    const rowsBefore = await t.database.db
      .select()
      .from(dexRegistrations)
      .where(inArray(dexRegistrations.upstreamId, fakeIds()));
    // the first page comes, the second fails
    fake.failNext(1, 'http-500', { target: 'registrations', after: 1 });
    const job = await sync(true);
    expect(job).toMatchObject({ status: 'failed', pages: 1, fetched: PAGE });
    expect(job.error).toContain('拉取第 2 页时失败');
    expect(job.error).toContain('HTTP 500');
    expect(await auditsOfJob(job.id)).toHaveLength(0);
    const rowsAfter = await t.database.db
      .select()
      .from(dexRegistrations)
      .where(inArray(dexRegistrations.upstreamId, fakeIds()));
    expect(rowsAfter.map((r) => [r.id, r.version, r.updatedAt.getTime(), r.lastJobId]).sort()).toEqual(
      rowsBefore.map((r) => [r.id, r.version, r.updatedAt.getTime(), r.lastJobId]).sort(),
    );
    // an upstream that does not answer at all
    fake.failNext(1, 'timeout', { target: 'registrations' });
    const silent = await sync(true);
    expect(silent.status).toBe('failed');
    expect(silent.error).toBe('拉取第 1 页时失败：上级平台 1500 毫秒内未应答');
  });

  it('one sync at a time', async () => {
    fake.setDelay(150);
    try {
      const a = await c.post('/ks/sync/v1/sync/data-sync', admin, { full: true });
      expect(a.status).toBe(200);
      const b = await c.post('/ks/sync/v1/sync/data-sync', admin, { full: false });
      expect(b.status).toBe(409);
      expect(b.body.message).toBe(DEX_MSG.syncRunning);
      // while it runs, its progress is readable
      const s = await c.post('/ks/sync/v1/sync/job', dev, {});
      expect(s.body.data.job).toMatchObject({ id: a.body.data.id });
      expect(['queued', 'running']).toContain(s.body.data.job.status);
      await t.app.dexSyncRunner.kick();
      const done = await c.post('/ks/sync/v1/sync/job', dev, {});
      expect(done.body.data.job).toMatchObject({ id: a.body.data.id, status: 'done' });
    } finally {
      fake.setDelay(0);
    }
  });

  it('a sync left running by a process that died is run again by another; one interrupted too often fails', async () => {
    const [admin1] = await t.database.db
      .execute(sql`select id from users where account = 'admin'`)
      .then((r) => (r as unknown as { rows: { id: string }[] }).rows);
    const [orphan] = await t.database.db
      .insert(dexSyncJobs)
      .values({
        status: 'running',
        full: true,
        attempts: 1,
        phase: 'fetching',
        pages: 1,
        fetched: 5,
        leaseUntil: new Date(Date.now() - 1000),
        startedById: admin1!.id,
        startedByName: '平台管理员',
      })
      .returning();
    const fresh = createDexSyncRunner({ db: t.database.db, upstream: upstream(), pageSize: PAGE });
    await fresh.kick();
    await fresh.stop();
    const [after] = await t.database.db.select().from(dexSyncJobs).where(eq(dexSyncJobs.id, orphan!.id));
    expect(after).toMatchObject({ status: 'done', attempts: 2, fetched: FAKE_COUNT, unchangedCount: FAKE_COUNT - 2 });

    const [worn] = await t.database.db
      .insert(dexSyncJobs)
      .values({
        status: 'running',
        full: true,
        attempts: DEX_SYNC_MAX_ATTEMPTS,
        leaseUntil: new Date(Date.now() - 1000),
        startedByName: '平台管理员',
      })
      .returning();
    const another = createDexSyncRunner({ db: t.database.db, upstream: upstream(), pageSize: PAGE });
    await another.kick();
    await another.stop();
    const [failed] = await t.database.db.select().from(dexSyncJobs).where(eq(dexSyncJobs.id, worn!.id));
    expect(failed!.status).toBe('failed');
    expect(failed!.error).toContain(`同步进程中断 ${DEX_SYNC_MAX_ATTEMPTS} 次`);
  });
});

describe('reviewing', () => {
  const approve = (id: string, version: number, token = admin) =>
    c.post('/ks/sync/v1/sync/approve', token, { id, version });
  const reject = (body: object, token = admin) => c.post('/ks/sync/v1/sync/reject', token, body);
  const logsOf = (id: string) => t.database.db.select().from(operationLogs).where(eq(operationLogs.recordId, id));

  it('通过 a new registration creates the enterprise, with an audit row and an operation-log row', async () => {
    const r = await byUpstream('SXSCJG-140105-2009-000341');
    const d = await detail(r.id);
    expect(d.local).toBeNull();
    expect(d.localDiff.find((x) => x.field === 'enterpriseType')).toEqual({
      field: 'enterpriseType',
      before: null,
      after: '施工企业',
    });
    const ok = await approve(r.id, r.version);
    expect(ok.status, ok.body.message).toBe(200);
    expect(ok.body.message).toBe(DEX_MSG.approved);
    expect(ok.body.data).toMatchObject({ state: 'approved', decidedBy: '平台管理员', canDecide: false });
    const [e] = await t.database.db.select().from(enterprises).where(eq(enterprises.creditCode, r.creditCode));
    expect(e).toMatchObject({
      name: '山西晋阳路桥建设有限公司',
      enterpriseType: '施工企业',
      legalPerson: '王建斌',
      region: '太原市',
      address: '太原市小店区龙城大街 88 号',
      registeredCapital: '120000000.00',
      establishedAt: '2009-04-16',
    });
    expect(ok.body.data.enterpriseId).toBe(e!.id);
    // the public market list shows it
    const market = await t.app.inject({
      method: 'GET',
      url: `/ks/portal/v1/market/entities?kind=enterprise&keyword=${encodeURIComponent('晋阳路桥')}`,
    });
    expect(JSON.parse(market.body).data.records.map((x: { name: string }) => x.name)).toContain(
      '山西晋阳路桥建设有限公司',
    );
    const logs = await logsOf(r.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ glName: '数据交换', czrName: '平台管理员' });
    expect(logs[0]!.logbook).toContain('监管审核通过「山西晋阳路桥建设有限公司」');
    expect(logs[0]!.logbook).toContain('新建企业');
    expect((await detail(r.id)).history[0]).toMatchObject({ action: 'approved', actorName: '平台管理员' });
    // decided: a second decision is refused
    const again = await approve(r.id, r.version + 1);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(DEX_MSG.regDecided);
  });

  it('通过 a registration of an existing enterprise updates only what differs', async () => {
    const r = await byUpstream(FAKE_DEMO_ID);
    const d = await detail(r.id);
    expect(d.local).toMatchObject({ name: '示例建设工程有限公司', creditCode: FAKE_DEMO_CREDIT_CODE });
    expect(d.localDiff).toEqual([{ field: 'registeredCapital', before: '80000000.00', after: '100000000.00' }]);
    // a stale version (the page was open while a sync changed it) is refused
    expect((await approve(r.id, r.version - 1)).status).toBe(409);
    const ok = await approve(r.id, r.version);
    expect(ok.status).toBe(200);
    const [e] = await t.database.db.select().from(enterprises).where(eq(enterprises.creditCode, FAKE_DEMO_CREDIT_CODE));
    expect(e).toMatchObject({ registeredCapital: '100000000.00', legalPerson: '李明华' });
    expect((await logsOf(r.id))[0]!.logbook).toContain('注册资本（元）：80000000.00 → 100000000.00');
  });

  it('a cancelled registration never creates an enterprise; a refused one cannot be decided', async () => {
    const closed = await byUpstream(FAKE_CLOSED_ID);
    const r = await approve(closed.id, closed.version);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(DEX_MSG.closedNotCreated);
    expect(
      await t.database.db.select().from(enterprises).where(eq(enterprises.creditCode, closed.creditCode)),
    ).toHaveLength(0);
    const invalid = await byUpstream(FAKE_INVALID_ID);
    expect((await approve(invalid.id, invalid.version)).status).toBe(409);
  });

  it('驳回 needs a reason; the enterprise library stays as it is', async () => {
    const r = await byUpstream('SXSCJG-140213-2011-000127');
    for (const body of [
      { id: r.id, version: r.version },
      { id: r.id, version: r.version, reason: '   ' },
    ]) {
      const no = await reject(body);
      expect(no.status).toBe(400);
      expect(no.body.message).toBe(DEX_MSG.reasonRequired);
    }
    const ok = await reject({ id: r.id, version: r.version, reason: '与本平台已登记企业重复，待核实' });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe(DEX_MSG.dismissed);
    expect(ok.body.data).toMatchObject({ state: 'dismissed', reason: '与本平台已登记企业重复，待核实' });
    expect(await t.database.db.select().from(enterprises).where(eq(enterprises.creditCode, r.creditCode))).toHaveLength(
      0,
    );
    const logs = await logsOf(r.id);
    expect(logs[0]!.logbook).toContain('监管审核驳回「大同市云冈建筑安装工程有限公司」');
    expect(logs[0]!.logbook).toContain('原因：与本平台已登记企业重复，待核实');
    const [a] = await t.database.db
      .select()
      .from(dexRegAudits)
      .where(and(eq(dexRegAudits.registrationId, r.id), eq(dexRegAudits.action, 'dismissed')));
    expect(a!.reason).toBe('与本平台已登记企业重复，待核实');
  });

  it('two administrators deciding at once: one wins', async () => {
    const r = await byUpstream('SXSCJG-140403-2006-000058');
    const answers = await Promise.all([
      approve(r.id, r.version),
      reject({ id: r.id, version: r.version, reason: '资料不全' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const logs = await logsOf(r.id);
    expect(logs).toHaveLength(1);
  });

  it('an approved registration stays approved while the upstream has nothing new for it', async () => {
    const approved = await byUpstream('SXSCJG-140105-2009-000341');
    expect(approved.state).toBe('approved');
    // the changing one: approve it, then the upstream changes nothing more — it stays approved
    const changing = await byUpstream(FAKE_CHANGING_ID);
    expect((await approve(changing.id, changing.version)).status).toBe(200);
    const job = await sync(true);
    expect(job.status).toBe('done');
    expect((await byUpstream(FAKE_CHANGING_ID)).state).toBe('approved');
  });
});

describe('unconfigured', () => {
  it('refuses a sync with a clear message, and says so in the list', async () => {
    bare = await createTestApp();
    const token = await loginToken(bare.app, 'admin', 'M');
    const b = client(() => bare);
    const r = await b.post('/ks/sync/v1/sync/data-sync', token, {});
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(DEX_MSG.syncNotConfigured);
    expect(r.body.message).toMatch(/^未配置上游平台/);
    expect((await b.post('/ks/sync/v1/sync/data-list', token, {})).body.data.configured).toBe(false);
    expect((await b.post('/ks/sync/v1/sync/job', token, {})).body.data.configured).toBe(false);
    const n = await bare.database.db.execute(sql`select count(*)::int as n from dex_sync_jobs where status <> 'done'`);
    expect((n as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });
});
