import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, liveEvents, noticeReads, operationLogs, systemNotices, users } from '../../db/schema';
import { bearer, client, createTestApp, json, loginToken, type TestApp } from '../../test/harness';
import { form, PDF, tmpDataDir } from '../files/testkit';

let t: TestApp;
const api = client(() => t);
let admin: string;
let user1: string;
let auditor: string;
let dev: string;
let demoEnterprise: string;

beforeAll(async () => {
  t = await createTestApp({ env: { DATA_DIR: tmpDataDir() } });
  [admin, user1, auditor, dev] = [
    await loginToken(t.app, 'admin', 'M'),
    await loginToken(t.app, 'user1', 'U'),
    await loginToken(t.app, 'auditor', 'U'),
    await loginToken(t.app, 'dev', 'D'),
  ];
  const [u] = await t.database.db.select().from(users).where(eq(users.account, 'user1'));
  demoEnterprise = u!.enterpriseId!;
});
afterAll(async () => t?.close());

const BASE = '/ks/notification/v1/system-notices';
const MIN = 60_000;
const at = (offsetMs: number) => new Date(t.clock.now.getTime() + offsetMs).toISOString();

function input(over: Record<string, unknown> = {}) {
  return {
    type: 2,
    title: '关于开标大厅调整的通知',
    msg: '<p>开标大厅自下周起迁至二层。</p>',
    audience: 'everyone',
    enterpriseIds: [],
    startAt: at(-MIN),
    endAt: at(60 * MIN),
    ...over,
  };
}

async function create(over: Record<string, unknown> = {}) {
  const r = await api.post(`${BASE}/save`, admin, input(over));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { id: string; version: number; msg: string; status: string };
}
async function publish(id: string) {
  const r = await api.post(`${BASE}/publish`, admin, { id });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}
const current = async (token: string) => {
  const r = await api.get('/ks/notification/v1/audit/notice-list', token);
  expect(r.status).toBe(200);
  return r.body.data as { msgId: string; type: number; title: string; msg: string; show: boolean }[];
};
const ids = async (token: string) => (await current(token)).map((n) => n.msgId);
const read = (token: string, msgId: string) => api.post('/ks/notification/v1/audit/notice-read', token, { msgId });
const dismiss = (token: string, msgId: string) =>
  api.post('/ks/notification/v1/audit/notice-dismiss', token, { msgId });
const adminView = async (id: string) => (await api.get(`${BASE}/detail?id=${id}`, admin)).body.data;

describe('the seeded demo', () => {
  it('has the maintenance notice scrolling for everyone and no modal', async () => {
    for (const token of [admin, user1, auditor, dev]) {
      const list = await current(token);
      expect(list.some((n) => n.type === 1 && n.title === '系统例行维护通知')).toBe(true);
      expect(list.filter((n) => n.type === 2)).toEqual([]);
    }
  });
});

describe('the administration page', () => {
  it("is in the administrators' header dropdown only", async () => {
    const entries = async (token: string) =>
      (await api.get('/ks/individual/menus', token)).body.data as { key: string; label: string; path: string }[];
    expect((await entries(admin)).find((e) => e.key === 'systemNotice')).toMatchObject({
      label: '系统通知管理',
      path: '/system/systemNotice',
    });
    for (const token of [dev, user1]) expect((await entries(token)).map((e) => e.key)).not.toContain('systemNotice');
  });
});

describe('a modal notice to chosen enterprises', () => {
  it('is sanitised, reaches only its audience, live, and is read once', async () => {
    const db = t.database.db;
    const n = await create({
      audience: 'enterprises',
      enterpriseIds: [demoEnterprise],
      msg: '<p onclick="alert(1)">请各企业<script>alert(document.cookie)</script>及时更新<b onmouseover="steal()">资质</b></p>',
    });
    expect(n.msg).not.toMatch(/script|onclick|onmouseover|alert|steal/);
    expect(n.msg).toContain('<b>资质</b>');
    expect(n.status).toBe('draft');
    // a draft is shown to nobody
    expect(await ids(user1)).not.toContain(n.id);

    const noticeEvents = () => db.select().from(liveEvents).where(eq(liveEvents.type, 'notice')).orderBy(liveEvents.id);
    const before = (await noticeEvents()).length;
    await publish(n.id);
    const events = await noticeEvents();
    expect(events.length).toBe(before + 1);
    expect(events.at(-1)).toMatchObject({ audience: { enterprises: [demoEnterprise] }, data: { id: n.id } });

    // user1 works for the enterprise; the auditor (trading centre) and the administrator do not
    const mine = (await current(user1)).find((x) => x.msgId === n.id);
    expect(mine).toMatchObject({ type: 2, title: '关于开标大厅调整的通知', show: true });
    expect(mine!.msg).not.toContain('script');
    expect(await ids(auditor)).not.toContain(n.id);
    expect(await ids(admin)).not.toContain(n.id);
    // nor may they report it read
    expect((await read(auditor, n.id)).status).toBe(404);

    const view = await adminView(n.id);
    expect(view).toMatchObject({ readCount: 0, audienceSize: 1, enterprises: [{ id: demoEnterprise }] });

    expect((await read(user1, n.id)).status).toBe(200);
    const [first] = await db.select().from(noticeReads).where(eq(noticeReads.noticeId, n.id));
    t.clock.advance(1000);
    // a second report (another tab) changes nothing
    expect((await read(user1, n.id)).status).toBe(200);
    const rows = await db.select().from(noticeReads).where(eq(noticeReads.noticeId, n.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.readAt).toEqual(first!.readAt);
    expect(await ids(user1)).not.toContain(n.id);

    expect(await adminView(n.id)).toMatchObject({ readCount: 1, audienceSize: 1 });
    const readers = (await api.get(`${BASE}/reads?id=${n.id}`, admin)).body.data;
    expect(readers.total).toBe(1);
    expect(readers.records[0]).toMatchObject({ account: 'user1', dismissed: false });
    const [ent] = await db.select().from(enterprises).where(eq(enterprises.id, demoEnterprise));
    expect(readers.records[0].enterpriseName).toBe(ent!.name);

    // every administrative change wrote its op-log row
    const logs = await db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.recordId, n.id), eq(operationLogs.glName, '系统通知')));
    expect(logs.map((l) => l.logbook)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^新建系统通知/), expect.stringMatching(/^发布系统通知/)]),
    );
  });

  it('is gone when withdrawn, and the audience hears of it', async () => {
    const n = await create({ audience: 'role', roleCode: 'auditor', title: '审核员培训通知' });
    await publish(n.id);
    expect(await ids(auditor)).toContain(n.id);
    expect(await ids(user1)).not.toContain(n.id);
    expect((await api.post(`${BASE}/withdraw`, admin, { id: n.id })).status).toBe(200);
    expect(await ids(auditor)).not.toContain(n.id);
    const [last] = await t.database.db
      .select()
      .from(liveEvents)
      .where(eq(liveEvents.type, 'notice'))
      .orderBy(liveEvents.id)
      .then((r) => r.slice(-1));
    expect(last).toMatchObject({ audience: { roles: ['auditor'] }, data: { id: n.id } });
    // a withdrawn notice cannot be withdrawn twice, nor a published one deleted
    expect((await api.post(`${BASE}/withdraw`, admin, { id: n.id })).status).toBe(409);
  });
});

describe('the time window', () => {
  it('shows a notice only from its start to its end', async () => {
    const n = await create({ title: '窗口测试', startAt: at(10 * MIN), endAt: at(40 * MIN) });
    await publish(n.id);
    expect(await ids(user1)).not.toContain(n.id);
    t.clock.advance(15 * MIN);
    expect(await ids(user1)).toContain(n.id);
    t.clock.advance(30 * MIN);
    expect(await ids(user1)).not.toContain(n.id);
    // over: it cannot be read any more, nor published again once withdrawn
    expect((await read(user1, n.id)).status).toBe(404);
    await api.post(`${BASE}/withdraw`, admin, { id: n.id });
    const again = await api.post(`${BASE}/publish`, admin, { id: n.id });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('通知的结束时间已过，请修改后再发布');
  });
});

describe('the floating notice', () => {
  it('stays after a read (closed) and is gone for good once dismissed', async () => {
    const n = await create({ type: 1, title: '滚动测试' });
    await publish(n.id);
    expect(await ids(user1)).toContain(n.id);
    expect((await read(user1, n.id)).status).toBe(200);
    expect(await ids(user1)).toContain(n.id);
    expect((await dismiss(user1, n.id)).status).toBe(200);
    expect(await ids(user1)).not.toContain(n.id);
    expect(await ids(user1)).not.toContain(n.id);
    expect((await dismiss(user1, n.id)).status).toBe(200);
    expect(await ids(user1)).not.toContain(n.id);
    // someone else still sees it
    expect(await ids(auditor)).toContain(n.id);
    const readers = (await api.get(`${BASE}/reads?id=${n.id}`, admin)).body.data;
    expect(readers.records).toMatchObject([{ account: 'user1', dismissed: true }]);
  });

  it('is the only kind that may be dismissed', async () => {
    const n = await create({ type: 2, title: '弹窗不可不再显示' });
    await publish(n.id);
    const r = await dismiss(user1, n.id);
    expect(r.status).toBe(400);
    expect(await ids(user1)).toContain(n.id);
  });
});

describe('who may manage notices, and what input is refused', () => {
  it('refuses non-administrators with 403, whatever they send', async () => {
    const n = await create({ title: '权限测试' });
    for (const token of [user1, dev, auditor]) {
      expect((await api.post(`${BASE}/save`, token, input())).status).toBe(403);
      expect((await api.post(`${BASE}/publish`, token, { id: n.id })).status).toBe(403);
      expect((await api.get(BASE, token)).status).toBe(403);
      expect((await api.get(`${BASE}/reads?id=${n.id}`, token)).status).toBe(403);
    }
    expect((await api.get(BASE, null)).status).toBe(401);
    expect((await api.get('/ks/notification/v1/audit/notice-list', null)).status).toBe(401);
  });

  it('answers 400 to bad input and changes nothing', async () => {
    const db = t.database.db;
    const countRows = async () => Number((await db.select({ n: count() }).from(systemNotices))[0]!.n);
    const before = await countRows();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '' }, 'title'],
      [{ type: 3 }, 'type'],
      [{ msg: '' }, 'msg'],
      [{ endAt: at(-2 * MIN) }, 'endAt'],
      [{ startAt: 'tomorrow' }, 'startAt'],
      [{ audience: 'role' }, 'roleCode'],
      [{ audience: 'role', roleCode: 'no_such_role' }, 'roleCode'],
      [{ audience: 'enterprises', enterpriseIds: [] }, 'enterpriseIds'],
      [{ audience: 'enterprises', enterpriseIds: ['00000000-0000-4000-8000-000000000000'] }, 'enterpriseIds'],
      [{ audience: 'nobody' }, 'audience'],
      [{ url: 'https://evil.example/x.pdf', urlName: '附件' }, 'url'],
      [{ url: '/ks/common/common/file/download?fileId=x' }, 'urlName'],
      [{ msg: '<a href="//evil.example">点此</a>' }, 'msg'],
    ];
    for (const [over, field] of cases) {
      const r = await api.post(`${BASE}/save`, admin, input(over));
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(Object.keys(r.body.data?.fieldErrors ?? {}), JSON.stringify(over)).toContain(field);
    }
    for (const msgId of ['-99', '', 'x']) expect((await read(user1, msgId)).status).toBe(400);
    expect((await api.post(`${BASE}/publish`, admin, { id: 'x' })).status).toBe(400);
    expect(await countRows()).toBe(before);
  });

  it('takes an uploaded notice file as the attachment', async () => {
    const f = form({}, [{ field: 'file', name: '维护方案.pdf', data: PDF() }]);
    const up = json<{ data: { url: string } }>(
      await t.app.inject({
        method: 'POST',
        url: '/ks/common/common/upload-notice',
        headers: { ...f.headers, ...bearer(admin) },
        payload: f.payload,
      }),
    );
    const n = await create({ url: up.data.url, urlName: '维护方案.pdf' });
    expect(n).toMatchObject({ url: up.data.url, urlName: '维护方案.pdf' });
    await publish(n.id);
    expect((await current(user1)).find((x) => x.msgId === n.id)).toMatchObject({
      url: up.data.url,
      urlName: '维护方案.pdf',
    });
  });

  it('edits with the version read: a stale one is 409', async () => {
    const n = await create({ title: '版本测试' });
    const ok = await api.post(`${BASE}/save`, admin, { ...input({ title: '版本测试（修订）' }), id: n.id, version: 1 });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ title: '版本测试（修订）', version: 2 });
    const stale = await api.post(`${BASE}/save`, admin, { ...input(), id: n.id, version: 1 });
    expect(stale.status).toBe(409);
    expect((await api.post(`${BASE}/delete`, admin, { id: n.id })).status).toBe(200);
    expect((await api.get(`${BASE}/detail?id=${n.id}`, admin)).status).toBe(404);
  });

  it('lists notices for administrators with filters', async () => {
    const list = (await api.get(`${BASE}?type=1&pageSize=50`, admin)).body.data;
    expect(list.records.length).toBeGreaterThan(0);
    expect(list.records.every((r: { type: number }) => r.type === 1)).toBe(true);
    const seeded = list.records.find((r: { title: string }) => r.title === '系统例行维护通知');
    expect(seeded).toMatchObject({ audience: 'everyone', status: 'published', createdByName: '平台管理员' });
    const [{ n: active }] = await t.database.db.select({ n: count() }).from(users).where(eq(users.status, 'active'));
    expect(seeded.audienceSize).toBe(Number(active));
    expect((await api.get(`${BASE}?status=bogus`, admin)).status).toBe(400);
  });
});
