import { and, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveEvents, operationLogs, userMessages, users } from '../../db/schema';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';

/**
 * The message centre (issue 14, screen 17): to-do counts and lists per user, messages (review results, rejections,
 * administrators' messages) only ever the reader's own, the live events every change writes, publishing and receipts.
 */

let t: TestApp;
const api = client(() => t);
const tok = { admin: '', dev: '', user: '', auditor: '' };
const id = { user: '', auditor: '', admin: '' };
const NODE = 'XYGL_XYJL';
type Any = any;

const ok = async (p: Promise<{ status: number; body: Any }>) => {
  const r = await p;
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  return r.body.data as Any;
};
const counts = (who: keyof typeof tok) => ok(api.get('/ks/message/v1/counts', tok[who]));
const systems = (who: keyof typeof tok) => ok(api.get('/ks/notification/v1/audit/system-list', tok[who]));
const todoList = (who: keyof typeof tok, body: object = {}) =>
  ok(api.post('/ks/notification/v1/audit/todo-list', tok[who], { curPage: 1, pageSize: 6, ...body }));
const messages = (who: keyof typeof tok, body: object = {}) =>
  ok(api.post('/ks/message/v1/list', tok[who], { curPage: 1, pageSize: 6, ...body }));
const step = (who: keyof typeof tok, action: string, rid: string, version: number, extra: object = {}) =>
  ok(api.post(`/ks/engine/v1/records/${action}`, tok[who], { gnCoding: NODE, id: rid, version, ...extra }));

/** live_events rows written after `mark` */
const eventsSince = async (mark: number) =>
  t.database.db.select().from(liveEvents).where(gt(liveEvents.id, mark)).orderBy(liveEvents.id);
const lastEventId = async () => {
  const [r] = await t.database.db.select({ n: sql<number>`coalesce(max(${liveEvents.id}), 0)::int` }).from(liveEvents);
  return Number(r!.n);
};

beforeAll(async () => {
  t = await createTestApp();
  [tok.admin, tok.dev, tok.user, tok.auditor] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'auditor', 'U'),
  ]);
  for (const k of ['user1', 'auditor', 'admin'] as const) {
    const [u] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.account, k));
    id[k === 'user1' ? 'user' : k] = u!.id;
  }
  const fields = [
    { code: 'qymc', name: '企业名称', type: 'text', required: 1 },
    { code: 'xylb', name: '信用类别', type: 'text' },
  ];
  expect((await api.put('/ks/config/node/fields', tok.dev, { gnCoding: NODE, fields, version: 0 })).status).toBe(200);
}, 60_000);
afterAll(async () => t?.close());

let recordId = '';
let version = 0;

describe('to-dos: counts, lists and their live events', () => {
  it('a submission raises the 审核员 to-do (counts, system list, list with where it opens) and tells the role', async () => {
    const before = { auditor: await counts('auditor'), user: await counts('user') };
    const saved = await ok(
      api.post('/ks/engine/v1/records/save', tok.user, {
        gnCoding: NODE,
        values: { qymc: '消息中心测试建设有限公司' },
      }),
    );
    const mark = await lastEventId();
    const d = await step('user', 'submit', saved.id, saved.version);
    recordId = saved.id;
    version = d.version;
    const ev = (await eventsSince(mark)).filter((e) => e.type === 'todos');
    expect(ev).toHaveLength(1);
    expect(ev[0]!.audience).toEqual({ roles: ['auditor'] });
    expect(ev[0]!.data).toEqual({ systemCoding: 'XYGL', gnCoding: NODE });

    expect((await counts('auditor')).todos).toBe(before.auditor.todos + 1);
    // the submitter has no to-do for it
    expect((await counts('user')).todos).toBe(before.user.todos);
    const sys = (await systems('auditor')).find((s: Any) => s.systemCoding === 'XYGL');
    expect(sys.todoCount).toBeGreaterThanOrEqual(1);
    const list = await todoList('auditor', { systemCoding: 'XYGL', pageSize: 50 });
    const item = list.records.find((r: Any) => r.recordId === recordId);
    expect(item).toMatchObject({ gnCoding: NODE, businessName: expect.any(String), userName: expect.any(String) });
    // a credit record opens on its node's page with the record named (no notice jump configured for to-dos)
    expect(item.path).toBe(`/credit/companyInfo?gnCoding=${NODE}&systemCoding=XYGL&record=${recordId}`);
    // pages of 6
    const page = await todoList('auditor', { pageSize: 6 });
    expect(page.records.length).toBeLessThanOrEqual(6);
    expect(page.total).toBeGreaterThanOrEqual(list.total);
  });

  it("a user sees none of another user's to-dos", async () => {
    const mine = await todoList('user', { pageSize: 50 });
    expect(mine.records.some((r: Any) => r.recordId === recordId)).toBe(false);
    expect((await systems('user')).find((s: Any) => s.systemCoding === 'XYGL')?.todoCount ?? 0).toBe(
      (await counts('user')).todos,
    );
  });

  it("a decision closes the level's to-dos and opens the next: both audiences are told", async () => {
    const mark = await lastEventId();
    const d = await step('auditor', 'audit', recordId, version, { pass: true });
    version = d.version;
    const ev = (await eventsSince(mark)).filter((e) => e.type === 'todos');
    expect(ev.map((e) => e.audience)).toEqual([{ roles: ['auditor'] }, { roles: ['admin'] }]);
    const list = await todoList('auditor', { pageSize: 50 });
    expect(list.records.some((r: Any) => r.recordId === recordId)).toBe(false);
    expect((await todoList('admin', { pageSize: 50 })).records.some((r: Any) => r.recordId === recordId)).toBe(true);
  });

  it('todo-list input is checked (400)', async () => {
    expect((await api.post('/ks/notification/v1/audit/todo-list', tok.user, { curPage: 0 })).status).toBe(400);
    expect((await api.post('/ks/notification/v1/audit/todo-list', tok.user, { pageSize: 500 })).status).toBe(400);
  });
});

let rejectedId = '';

describe('rejections reach the submitter', () => {
  it('a rejection writes a 驳回 message with the reason and tells only the submitter', async () => {
    const before = await counts('user');
    const mark = await lastEventId();
    await step('admin', 'audit', recordId, version, { pass: false, suggestion: '证明材料不全' });
    const ev = await eventsSince(mark);
    const msg = ev.filter((e) => e.type === 'message');
    expect(msg).toHaveLength(1);
    expect(msg[0]!.audience).toEqual({ users: [id.user] });
    expect(ev.filter((e) => e.type === 'todos').map((e) => e.audience)).toEqual([{ roles: ['admin'] }]);
    expect(await counts('user')).toMatchObject({ unread: before.unread + 1 });

    const rejected = await ok(api.post('/ks/message/v1/audit/rejected-msg', tok.user, { curPage: 1, pageSize: 6 }));
    const r = rejected.records.find((m: Any) => m.recordId === recordId);
    expect(r).toMatchObject({ reason: '证明材料不全', gnCoding: NODE, readAt: null });
    expect(r.path).toContain(`record=${recordId}`);
    rejectedId = r.id;
    const all = await messages('user', { pageSize: 50 });
    expect(all.records.find((m: Any) => m.id === rejectedId)).toMatchObject({ kind: 'rejected' });
    expect(all.unread).toBe(before.unread + 1);
  });

  it('a message about a record opens it in its node; one about none follows the jump of its type', async () => {
    // the demo's 驳回 jump names 信用变更申请: a rejection of a 信用记录 still opens in its own node
    const r = (await ok(api.post('/ks/message/v1/audit/rejected-msg', tok.user, {}))).records.find(
      (m: Any) => m.id === rejectedId,
    );
    expect(r.path).toBe(`/credit/companyInfo?gnCoding=${NODE}&systemCoding=XYGL&record=${recordId}`);
    // an administrator's message has no record: without a 消息 jump it opens nowhere, with one on that node's page
    const sent = await ok(
      api.post('/ks/message/v1/publish', tok.admin, { title: '跳转测试', body: '请查看', users: [id.user], roles: [] }),
    );
    expect(sent.recipients).toBe(1);
    const find = async () =>
      (await messages('user', { pageSize: 50 })).records.find((m: Any) => m.title === '跳转测试');
    expect((await find()).path).toBeNull();
    const jump = {
      name: '系统消息跳转',
      msgType: 'message',
      systemCoding: 'XYGL',
      gnCoding: 'XYGL_XYDJ',
      enabled: true,
    };
    await ok(api.post('/ks/config/notice-jump', tok.admin, jump));
    expect((await find()).path).toBe('/credit/creditPublicList?gnCoding=XYGL_XYDJ&systemCoding=XYGL');
    const saved = (await ok(api.get('/ks/config/notice-jump', tok.admin))).find((j: Any) => j.name === jump.name);
    await ok(api.post('/ks/config/notice-jump', tok.admin, { ...jump, id: saved.id, enabled: false }));
    expect((await find()).path).toBeNull();
  });

  it("nobody else reads or marks another user's messages", async () => {
    const theirs = await messages('auditor', { pageSize: 50 });
    expect(theirs.records.some((m: Any) => m.id === rejectedId)).toBe(false);
    const rej = await ok(api.post('/ks/message/v1/audit/rejected-msg', tok.auditor, { pageSize: 50 }));
    expect(rej.records.some((m: Any) => m.id === rejectedId)).toBe(false);
    const read = await ok(api.post('/ks/message/v1/read', tok.auditor, { ids: [rejectedId] }));
    expect(read.updated).toBe(0);
    const [row] = await t.database.db.select().from(userMessages).where(eq(userMessages.id, rejectedId));
    expect(row!.readAt).toBeNull();
    expect((await api.get('/ks/message/v1/counts', null)).status).toBe(401);
  });

  it('reading marks the message (and tells the reader’s tabs); mark-all-read clears the count', async () => {
    const mark = await lastEventId();
    const read = await ok(api.post('/ks/message/v1/read', tok.user, { ids: [rejectedId] }));
    expect(read.updated).toBe(1);
    expect((await eventsSince(mark)).filter((e) => e.type === 'message').map((e) => e.audience)).toEqual([
      { users: [id.user] },
    ]);
    await ok(api.post('/ks/message/v1/read', tok.user, { all: true }));
    expect((await counts('user')).unread).toBe(0);
    expect((await api.post('/ks/message/v1/read', tok.user, {})).status).toBe(400);
    expect((await api.post('/ks/message/v1/read', tok.user, { ids: ['x'] })).status).toBe(400);
  });
});

describe('administrators publish messages; receipts', () => {
  let bid = '';
  it('publishes to users and roles (sanitised), delivered live, with an op-log row', async () => {
    const mark = await lastEventId();
    const res = await ok(
      api.post('/ks/message/v1/publish', tok.admin, {
        title: '关于系统维护的通知',
        body: '<p>今晚 <b>22:00</b> 维护</p><script>alert(1)</script><img src=x onerror="alert(2)">',
        users: [id.user],
        roles: ['auditor'],
      }),
    );
    bid = res.id;
    expect(res.recipients).toBeGreaterThanOrEqual(2);
    const ev = (await eventsSince(mark)).filter((e) => e.type === 'message');
    expect(ev).toHaveLength(1);
    expect((ev[0]!.audience as Any).users).toEqual(expect.arrayContaining([id.user, id.auditor]));
    const mine = (await messages('user')).records.find((m: Any) => m.title === '关于系统维护的通知');
    expect(mine).toMatchObject({ kind: 'admin', senderName: expect.any(String), readAt: null });
    expect(mine.body).toContain('<b>22:00</b>');
    expect(mine.body).not.toMatch(/script|onerror/);
    expect((await messages('auditor')).records.some((m: Any) => m.title === '关于系统维护的通知')).toBe(true);
    // not to the developer
    expect((await messages('dev', { pageSize: 50 })).records.some((m: Any) => m.title === '关于系统维护的通知')).toBe(
      false,
    );
    const logs = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.glName, '消息中心'), eq(operationLogs.recordId, bid)));
    expect(logs).toHaveLength(1);
  });

  it('receipts: who received it, who read it and when; the list counts reads', async () => {
    let receipts = await ok(api.get(`/ks/message/v1/receipt?id=${bid}`, tok.admin));
    expect(receipts.every((r: Any) => r.readAt === null)).toBe(true);
    expect(receipts.map((r: Any) => r.logValue)).toEqual(expect.arrayContaining(['user1', 'auditor']));
    const mine = (await messages('user')).records.find((m: Any) => m.title === '关于系统维护的通知');
    const mark = await lastEventId();
    await ok(api.post('/ks/message/v1/read', tok.user, { ids: [mine.id] }));
    // the sender is told (receipts), the reader's tabs too
    const told = (await eventsSince(mark)).filter((e) => e.type === 'message').map((e) => e.audience);
    expect(told).toEqual([{ users: [id.user] }, { users: [id.admin] }]);
    receipts = await ok(api.get(`/ks/message/v1/receipt?id=${bid}`, tok.admin));
    const u1 = receipts.find((r: Any) => r.logValue === 'user1');
    expect(u1.readAt).toEqual(expect.any(String));
    expect(receipts.find((r: Any) => r.logValue === 'auditor').readAt).toBeNull();
    const sent = await ok(api.post('/ks/message/v1/sent', tok.admin, { curPage: 1, pageSize: 10 }));
    const row = sent.records.find((s: Any) => s.id === bid);
    expect(row).toMatchObject({ readCount: 1, roleNames: ['审核员'], userNames: [expect.any(String)] });
    expect(row.recipients).toBe(receipts.length);
  });

  it('only administrators publish or read receipts; bad input is 400 and sends nothing', async () => {
    const body = { title: 't', body: 'b', users: [id.user], roles: [] };
    expect((await api.post('/ks/message/v1/publish', tok.user, body)).status).toBe(403);
    expect((await api.post('/ks/message/v1/publish', tok.dev, body)).status).toBe(403);
    expect((await api.get(`/ks/message/v1/receipt?id=${bid}`, tok.user)).status).toBe(403);
    expect((await api.post('/ks/message/v1/sent', tok.user, {})).status).toBe(403);
    expect((await api.get('/ks/message/v1/recipients', tok.user)).status).toBe(403);
    const [before] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(userMessages);
    for (const bad of [
      { ...body, users: [], roles: [] },
      { ...body, title: '  ' },
      { ...body, body: '<script>alert(1)</script>' },
      { ...body, users: ['00000000-0000-4000-8000-000000000000'] },
      { ...body, users: ['nope'] },
      { ...body, roles: ['no_such_role'] },
    ]) {
      const r = await api.post('/ks/message/v1/publish', tok.admin, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    const [after] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(userMessages);
    expect(after!.n).toBe(before!.n);
    expect((await api.get('/ks/message/v1/receipt?id=00000000-0000-4000-8000-000000000000', tok.admin)).status).toBe(
      404,
    );
    expect((await api.get('/ks/message/v1/receipt?id=x', tok.admin)).status).toBe(400);
  });

  it('recipient options: users by name or account, and the roles', async () => {
    const o = await ok(api.get('/ks/message/v1/recipients?keyword=user1', tok.admin));
    expect(o.users.map((u: Any) => u.logValue)).toContain('user1');
    expect(o.roles.map((r: Any) => r.code)).toEqual(expect.arrayContaining(['admin', 'user', 'auditor']));
  });
});
