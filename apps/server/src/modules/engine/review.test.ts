import { creditCodeCheckChar } from '@ks/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, roles, todos, userRoles, users } from '../../db/schema';
import { hashPassword } from '../../platform/password';
import {
  bearer,
  createTestApp,
  ENTERPRISE_DETAILS,
  json,
  loginToken,
  type TestApp,
  usingPostgres,
} from '../../test/harness';

type Body = { code: number; data: any; message: string };

let t: TestApp;
let dev: string;
let admin: string;
let user: string;
let aud1: string;
let aud2: string;
const NODE = 'XYGL_XYJL';

async function call(token: string, url: string, payload: object, method: 'POST' | 'PUT' = 'POST') {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res) };
}
const step = (token: string, action: string, id: string, version: number, extra: object = {}) =>
  call(token, `/ks/engine/v1/records/${action}`, { gnCoding: NODE, id, version, ...extra });
const detail = async (token: string, id: string) =>
  (await call(token, '/ks/engine/v1/records/detail', { gnCoding: NODE, id })).body.data;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  // two reviewers of the 审核员 role, staff of a review agency
  const base = '91140100MA0L00003';
  const [ent] = await db
    .insert(enterprises)
    .values({ ...ENTERPRISE_DETAILS, name: '某某审核服务中心', creditCode: `${base}${creditCodeCheckChar(base)}` })
    .returning();
  const [auditor] = await db.select().from(roles).where(eq(roles.code, 'auditor'));
  for (const account of ['aud1', 'aud2']) {
    const [u] = await db
      .insert(users)
      .values({
        account,
        userName: `审核员${account}`,
        loginRoleType: 'U',
        passwordHash: await hashPassword('Demo@2026'),
        enterpriseId: ent!.id,
      })
      .returning();
    await db.insert(userRoles).values({ userId: u!.id, roleId: auditor!.id });
  }
  [dev, admin, user, aud1, aud2] = await Promise.all([
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'aud1', 'U'),
    loginToken(t.app, 'aud2', 'U'),
  ]);
  const fields = [
    { code: 'qymc', name: '企业名称', type: 'text', required: 1 },
    { code: 'xylb', name: '信用类别', type: 'text' },
  ];
  expect((await call(dev, '/ks/config/node/fields', { gnCoding: NODE, fields, version: 0 }, 'PUT')).status).toBe(200);
});
afterAll(async () => t?.close());

async function newRecord(name: string) {
  const res = await call(user, '/ks/engine/v1/records/save', { gnCoding: NODE, values: { qymc: name } });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; version: number };
}

const openTodos = (recordId: string) =>
  t.database.db
    .select()
    .from(todos)
    .where(and(eq(todos.recordId, recordId), isNull(todos.doneAt)));

describe('review workflow', () => {
  it('submit → level 1 (审核员) → level 2 (管理员) reject with a suggestion → resubmit → both pass', async () => {
    const r = await newRecord('示例建设工程有限公司');
    let d = (await step(user, 'submit', r.id, r.version)).body.data;
    expect(d).toMatchObject({ status: 'pending', auditLevel: 1 });
    expect((await openTodos(r.id)).map((x) => [x.assigneeType, x.assigneeId, x.level])).toEqual([
      ['role', 'auditor', 1],
    ]);

    // a reviewer of another enterprise sees the record through the to-do
    const listed = await call(aud1, '/ks/engine/v1/records/list', { gnCoding: NODE });
    expect(listed.body.data.records.map((x: any) => x.id)).toContain(r.id);
    // rejecting needs a suggestion; the submitter cannot review
    const noSuggestion = await step(aud1, 'audit', r.id, d.version, { pass: false, suggestion: '  ' });
    expect(noSuggestion.status).toBe(400);
    expect(noSuggestion.body.message).toBe('请填写审核建议');
    expect((await step(user, 'audit', r.id, d.version, { pass: true })).status).toBe(403);

    d = (await step(aud1, 'audit', r.id, d.version, { pass: true })).body.data;
    expect(d).toMatchObject({ status: 'pending', auditLevel: 2 });
    expect((await openTodos(r.id)).map((x) => [x.assigneeId, x.level])).toEqual([['admin', 2]]);
    // level 2 belongs to 管理员: the 审核员 may not decide it
    expect((await step(aud2, 'audit', r.id, d.version, { pass: true })).status).toBe(403);

    d = (await step(admin, 'audit', r.id, d.version, { pass: false, suggestion: '附件不清晰，请重新上传' })).body.data;
    expect(d).toMatchObject({ status: 'rejected', auditLevel: 0 });
    expect(await openTodos(r.id)).toEqual([]);

    // the enterprise edits and resubmits
    const edited = await call(user, '/ks/engine/v1/records/save', {
      gnCoding: NODE,
      id: r.id,
      version: d.version,
      values: { qymc: '示例建设工程有限公司（更正）' },
    });
    expect(edited.status).toBe(200);
    d = (await step(user, 'submit', r.id, edited.body.data.version)).body.data;
    d = (await step(aud2, 'audit', r.id, d.version, { pass: true })).body.data;
    d = (await step(admin, 'audit', r.id, d.version, { pass: true })).body.data;
    expect(d).toMatchObject({ status: 'passed', auditLevel: 0 });
    expect(d.auditFlow.map((s: any) => [s.round, s.action, s.level])).toEqual([
      [1, 'submit', 0],
      [1, 'pass', 1],
      [1, 'reject', 2],
      [2, 'submit', 0],
      [2, 'pass', 1],
      [2, 'pass', 2],
    ]);
    expect(d.auditFlow[2].suggestion).toBe('附件不清晰，请重新上传');
    // a passed record cannot be edited or resubmitted
    expect((await step(user, 'submit', r.id, d.version)).status).toBe(409);
    // the operation log shows every step, to the submitter and the reviewers alike
    const logs = await call(user, '/ks/engine/v1/records/logs', { gnCoding: NODE, id: r.id });
    expect(logs.body.data.map((l: any) => l.logbook)).toEqual([
      '新增记录',
      '提交审核（第 1 次），待初审',
      '初审通过，待复审',
      '驳回：附件不清晰，请重新上传',
      '修改记录',
      '提交审核（第 2 次），待初审',
      '初审通过，待复审',
      '复审通过，审核完成',
    ]);
    expect(logs.body.data.map((l: any) => l.czrClassification)).toEqual([
      '企业/个人',
      '企业/个人',
      '企业/个人',
      '管理员',
      '企业/个人',
      '企业/个人',
      '企业/个人',
      '管理员',
    ]);
    expect((await call(aud1, '/ks/engine/v1/records/logs', { gnCoding: NODE, id: r.id })).status).toBe(200);
  });

  it('to-dos reach the reviewers: system counts, menu badges and the to-do list, and clear once decided', async () => {
    const count = async (token: string) =>
      ((await call(token, '/ks/authority/manager/system-list', {})).body.data as any[]).find(
        (s) => s.systemCoding === 'XYGL',
      )?.todoCount ?? 0;
    const badges = async (token: string) => {
      const menus = (await call(token, '/ks/menu/v1/menus/main-menus', { systemCoding: 'XYGL' })).body.data as any[];
      const dir = menus.find((m) => m.gnCoding === 'XYGL_XYPJ');
      return { dir: dir.badge as number, node: dir.children.find((m: any) => m.gnCoding === NODE).badge as number };
    };
    // the demo's own to-dos (people waiting for review, a change round) are there before
    const before = { aud1: await count(aud1), admin: await count(admin), badges: await badges(aud1) };
    const r = await newRecord('待办测试企业');
    const d = (await step(user, 'submit', r.id, r.version)).body.data;
    expect(await count(aud1)).toBe(before.aud1 + 1);
    expect(await count(user)).toBe(0);
    expect(await badges(aud1)).toEqual({ dir: before.badges.dir + 1, node: before.badges.node + 1 });
    const list = await call(aud1, '/ks/notification/v1/audit/todo-list', {
      systemCoding: 'XYGL',
      curPage: 1,
      pageSize: 6,
    });
    // the newest first
    expect(list.body.data.records[0]).toMatchObject({
      recordId: r.id,
      gnName: '信用记录',
      businessName: '信用记录：待办测试企业',
    });
    expect(list.body.data.records.filter((x: any) => x.gnCoding === NODE).length).toBe(before.badges.node + 1);
    const systems = (
      await t.app.inject({ method: 'GET', url: '/ks/notification/v1/audit/system-list', headers: bearer(aud1) })
    ).json() as Body;
    // (the demo's change notice waiting in 招标投标 is another system's to-do of the 审核员 role)
    expect(systems.data).toContainEqual({
      systemCoding: 'XYGL',
      systemName: '信用管理系统',
      todoCount: before.aud1 + 1,
    });
    await step(aud2, 'audit', r.id, d.version, { pass: true });
    expect(await count(aud1)).toBe(before.aud1);
    expect(await count(admin)).toBe(before.admin + 1);
  });

  it('lists 审核 only to whoever may decide the current level now, in the list and the detail', async () => {
    const r = await newRecord('审核按钮测试企业');
    let d = (await step(user, 'submit', r.id, r.version)).body.data;
    const ops = async (token: string) => {
      const listed = (await call(token, '/ks/engine/v1/records/list', { gnCoding: NODE, pageSize: 50 })).body.data;
      const row = listed.records.find((x: any) => x.id === r.id);
      const fromDetail = (await detail(token, r.id)).operations.map((o: any) => o.code);
      expect(row.operations.map((o: any) => o.code)).toEqual(fromDetail);
      return fromDetail as string[];
    };
    // level 1 (初审) belongs to the 审核员: not to the administrator, nor the submitter
    expect(await ops(aud1)).toContain('audit');
    expect(await ops(aud2)).toContain('audit');
    expect(await ops(admin)).not.toContain('audit');
    expect(await ops(user)).not.toContain('audit');
    d = (await step(aud1, 'audit', r.id, d.version, { pass: true })).body.data;
    expect(d.operations.map((o: any) => o.code)).not.toContain('audit');
    // level 2 (复审) belongs to the administrator
    expect(await ops(admin)).toContain('audit');
    expect(await ops(aud1)).not.toContain('audit');
    expect(await ops(aud2)).not.toContain('audit');
    d = (await step(admin, 'audit', r.id, d.version, { pass: true })).body.data;
    expect(d.status).toBe('passed');
    expect(await ops(admin)).not.toContain('audit');
  });

  it('two simultaneous decisions: exactly one wins, the other is a 409', async () => {
    const r = await newRecord('并发测试企业');
    const d = (await step(user, 'submit', r.id, r.version)).body.data;
    const results = await Promise.all([
      step(aud1, 'audit', r.id, d.version, { pass: true }),
      step(aud2, 'audit', r.id, d.version, { pass: false, suggestion: '不同意' }),
    ]);
    expect(results.map((x) => x.status).sort()).toEqual([200, 409]);
    const after = await detail(admin, r.id);
    expect(after.auditFlow.filter((s: any) => s.action !== 'submit')).toHaveLength(1);
  });

  // bench:load found it (2026-11-29): a final decision closed its to-dos (to-do summary row, then the node's
  // data-version row) before writing the record (data-version row); a submission to the same node writes the record
  // (data-version row) and then opens to-dos (summary row) — the two orders deadlocked. Made to happen every time:
  // the data-version row is held, the submission queues on it first, the decision second; then it is let go.
  it.runIf(usingPostgres)(
    'a final decision and a submission to the same node at once: both succeed, no deadlock',
    async () => {
      const a = await newRecord('死锁回归企业甲');
      let d = (await step(user, 'submit', a.id, a.version)).body.data;
      d = (await step(aud1, 'audit', a.id, d.version, { pass: true })).body.data;
      expect([d.status, d.auditLevel]).toEqual(['pending', 2]);
      const b = await newRecord('死锁回归企业乙');
      const holder = new pg.Client({ connectionString: t.database.url });
      const watcher = new pg.Client({ connectionString: t.database.url });
      await Promise.all([holder.connect(), watcher.connect()]);
      const waiting = async () =>
        Number(
          (
            await watcher.query(
              `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock'`,
            )
          ).rows[0].n,
        );
      const until = async (n: number) => {
        for (let i = 0; i < 500 && (await waiting()) < n; i++) await new Promise((r) => setTimeout(r, 10));
        expect(await waiting()).toBeGreaterThanOrEqual(n);
      };
      try {
        await holder.query('begin');
        const [{ id: nodeId }] = (await holder.query('select id from menu_nodes where gn_coding = $1', [NODE])).rows;
        const held = await holder.query('select v from node_data_versions where node_id = $1 for update', [nodeId]);
        expect(held.rowCount).toBe(1);
        const submitted = step(user, 'submit', b.id, b.version);
        await until(1);
        const decided = step(admin, 'audit', a.id, d.version, { pass: true });
        await until(2);
        await holder.query('commit');
        const [s, dec] = await Promise.all([submitted, decided]);
        expect([s.status, s.body.message, dec.status, dec.body.message]).toEqual([200, '提交成功', 200, '操作成功']);
        expect(dec.body.data.status).toBe('passed');
        expect(s.body.data.status).toBe('pending');
        expect(await openTodos(a.id)).toEqual([]);
        expect((await openTodos(b.id)).length).toBeGreaterThan(0);
      } finally {
        await holder.query('rollback').catch(() => undefined);
        await Promise.all([holder.end(), watcher.end()]);
      }
    },
  );

  it('revokes a submission nobody has decided yet, and not after a decision', async () => {
    const r = await newRecord('撤回测试企业');
    let d = (await step(user, 'submit', r.id, r.version)).body.data;
    d = (await step(user, 'revoke', r.id, d.version)).body.data;
    expect(d.status).toBe('draft');
    expect(await openTodos(r.id)).toEqual([]);
    d = (await step(user, 'submit', r.id, d.version)).body.data;
    d = (await step(aud1, 'audit', r.id, d.version, { pass: true })).body.data;
    const late = await step(user, 'revoke', r.id, d.version);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('审核已开始，不能撤回');
  });
});
