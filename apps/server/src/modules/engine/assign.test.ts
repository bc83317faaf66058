import { creditCodeCheckChar } from '@ks/contracts';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, grants, liveEvents, menuNodes, roles, todos, userRoles, users } from '../../db/schema';
import { hashPassword } from '../../platform/password';
import { personValues } from '../../test/fixtures';
import { bearer, createTestApp, ENTERPRISE_DETAILS, json, loginToken, type TestApp } from '../../test/harness';

type Body = { code: number; data: any; message: string };

let t: TestApp;
let admin: string;
let user: string;
let aud1: string;
let aud2: string;
const ids: Record<string, string> = {};
const NODE = 'XYGL_CYRY';

async function call(token: string, url: string, payload: object) {
  const res = await t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res) };
}
const assignable = (token: string, id: string) =>
  call(token, '/ks/authority/manager/assignable-list', { gnCoding: NODE, id });
const assign = (token: string, id: string, version: number, userId: string) =>
  call(token, '/ks/engine/v1/records/assign', { gnCoding: NODE, id, version, userId });
const audit = (token: string, id: string, version: number, pass = true) =>
  call(token, '/ks/engine/v1/records/audit', { gnCoding: NODE, id, version, pass, suggestion: pass ? '' : '不符合' });
const openTodos = (recordId: string) =>
  t.database.db
    .select()
    .from(todos)
    .where(and(eq(todos.recordId, recordId), isNull(todos.doneAt)));

async function submitted(xm: string) {
  const saved = await call(user, '/ks/engine/v1/records/save', {
    gnCoding: NODE,
    values: personValues(xm),
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const sub = await call(user, '/ks/engine/v1/records/submit', {
    gnCoding: NODE,
    id: saved.body.data.id,
    version: saved.body.data.version,
  });
  expect(sub.status).toBe(200);
  return sub.body.data as { id: string; version: number; auditLevel: number };
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const base = '91140100MA0L00006';
  const [ent] = await db
    .insert(enterprises)
    .values({ ...ENTERPRISE_DETAILS, name: '某某审核服务中心', creditCode: `${base}${creditCodeCheckChar(base)}` })
    .returning();
  const [auditor] = await db.select().from(roles).where(eq(roles.code, 'auditor'));
  for (const account of ['aud1', 'aud2', 'aud3']) {
    const [u] = await db
      .insert(users)
      .values({
        account,
        userName: `审核员${account}`,
        loginRoleType: 'U',
        passwordHash: await hashPassword('Demo@2026'),
        enterpriseId: ent!.id,
        status: account === 'aud3' ? 'disabled' : 'active',
      })
      .returning();
    ids[account] = u!.id;
    await db.insert(userRoles).values({ userId: u!.id, roleId: auditor!.id });
  }
  const [u1] = await db.select().from(users).where(eq(users.account, 'user1'));
  ids.user1 = u1!.id;
  [admin, user, aud1, aud2] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'aud1', 'U'),
    loginToken(t.app, 'aud2', 'U'),
  ]);
});
afterAll(async () => t?.close());

describe('任务指派', () => {
  it('lists the active reviewers of the current level, with their organisation, to administrators', async () => {
    const r = await submitted('指派列表');
    const list = await assignable(admin, r.id);
    expect(list.status).toBe(200);
    // the 审核员 (the two here and the demo's 王晓燕) and the administrators (初审 is theirs too); not the disabled aud3
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    const [adminUser] = await t.database.db.select().from(users).where(eq(users.account, 'admin'));
    const [demoAuditor] = await t.database.db.select().from(users).where(eq(users.account, 'auditor'));
    expect([...list.body.data].sort(byId)).toEqual(
      [
        { id: ids.aud1, userName: '审核员aud1', orgName: '某某审核服务中心' },
        { id: ids.aud2, userName: '审核员aud2', orgName: '某某审核服务中心' },
        { id: adminUser!.id, userName: '平台管理员' },
        { id: demoAuditor!.id, userName: '王晓燕' },
      ].sort(byId),
    );
    // neither the submitter nor a reviewer holds the 指派 function
    expect((await assignable(user, r.id)).status).toBe(403);
    expect((await assignable(aud1, r.id)).status).toBe(403);
    expect((await assign(aud1, r.id, r.version, ids.aud1!)).status).toBe(403);
  });

  it('hands the level to one reviewer: only they decide it; the log says so', async () => {
    const r = await submitted('指派审核');
    const [{ last }] = (await t.database.db
      .select({ last: sql<number>`coalesce(max(${liveEvents.id}), 0)` })
      .from(liveEvents)) as [{ last: number }];
    const res = await assign(admin, r.id, r.version, ids.aud1!);
    expect(res.status).toBe(200);
    // the to-do moved live (issue 14): the role whose to-do closed and the reviewer who now holds it hear 'todos'
    const announced = await t.database.db
      .select()
      .from(liveEvents)
      .where(gt(liveEvents.id, Number(last)));
    const todoEvents = announced.filter((e) => e.type === 'todos');
    expect(todoEvents.some((e) => e.audience.users?.includes(ids.aud1!))).toBe(true);
    expect(todoEvents.some((e) => (e.audience.roles?.length ?? 0) > 0)).toBe(true);
    expect(todoEvents.every((e) => e.data.gnCoding === NODE)).toBe(true);
    expect(res.body.message).toBe('指派成功');
    const d = res.body.data;
    expect(d).toMatchObject({ status: 'pending', auditLevel: 1, version: r.version + 1 });
    expect((await openTodos(r.id)).map((x) => [x.assigneeType, x.assigneeId, x.level])).toEqual([
      ['user', ids.aud1, 1],
    ]);
    // the other 审核员 no longer decides this level: 审核 is no longer offered to them
    const opsOf = async (token: string) =>
      (await call(token, '/ks/engine/v1/records/detail', { gnCoding: NODE, id: r.id })).body.data.operations.map(
        (o: any) => o.code,
      );
    expect(await opsOf(aud1)).toContain('audit');
    expect(await opsOf(aud2)).not.toContain('audit');
    const blocked = await audit(aud2, r.id, d.version);
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe('该审核任务已指派给他人');
    const passed = await audit(aud1, r.id, d.version);
    expect(passed.status).toBe(200);
    expect(passed.body.data).toMatchObject({ status: 'pending', auditLevel: 2 });
    const logs = await call(user, '/ks/engine/v1/records/logs', { gnCoding: NODE, id: r.id });
    expect(logs.body.data.map((l: any) => l.logbook)).toContain('任务指派：初审指派给 审核员aud1（某某审核服务中心）');
  });

  it('refuses a stale version (409), someone who may not take the level (400), a record not under review (409)', async () => {
    const r = await submitted('指派校验');
    expect((await assign(admin, r.id, r.version + 5, ids.aud1!)).status).toBe(409);
    for (const who of [ids.user1!, ids.aud3!, '00000000-0000-4000-8000-000000000000']) {
      const res = await assign(admin, r.id, r.version, who);
      expect(res.status, who).toBe(400);
      expect(res.body.data.fieldErrors.userId).toEqual(['该人员不能承接当前审核级别']);
    }
    expect((await assign(admin, r.id, r.version, 'not-a-uuid')).status).toBe(400);
    const rejected = await audit(aud1, r.id, r.version, false);
    expect(rejected.body.data.status).toBe('rejected');
    expect((await assign(admin, r.id, rejected.body.data.version, ids.aud1!)).status).toBe(409);
    expect((await assignable(admin, r.id)).status).toBe(409);
  });

  it('is open to holders of the node’s 指派 function; an assignment and a decision at once: one wins', async () => {
    const [node] = await t.database.db.select().from(menuNodes).where(eq(menuNodes.gnCoding, NODE));
    await t.database.db
      .insert(grants)
      .values({ subjectType: 'user', subjectId: ids.aud2!, nodeId: node!.id, functionCode: 'assign' });
    const r = await submitted('并发指派');
    expect((await assignable(aud2, r.id)).status).toBe(200);
    const results = await Promise.all([assign(aud2, r.id, r.version, ids.aud2!), audit(aud1, r.id, r.version)]);
    expect(results.map((x) => x.status).sort()).toEqual([200, 409]);
  });
});
