import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operationLogs, recordAudits, todos } from '../../db/schema';
import { badRequest } from '../../platform/errors';
import { SYSTEM_ACTOR } from '../../platform/oplog';
import { bearer, createTestApp, json, loginToken, type TestApp, usingPostgres } from '../../test/harness';
import { nodeAccessor } from './accessor';
import { type DecisionEvent, hasDecisionHooks, onDecision } from './hooks';

/**
 * Domain hooks and the typed node accessor (issue 12): a test module registers hooks on a demo node (信用记录,
 * XYGL_XYJL: 初审 by the 审核员 role, 复审 by the administrator) and sees them run inside each decision's transaction —
 * and roll back with it.
 */

type Body = { code: number; data: any; message: string };
let t: TestApp;
let dev: string;
let admin: string;
let user: string;
let auditor: string;
const NODE = 'XYGL_XYJL';

async function call(token: string, url: string, payload: object, method: 'POST' | 'PUT' = 'POST') {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res) };
}
const step = (token: string, action: string, id: string, version: number, extra: object = {}) =>
  call(token, `/ks/engine/v1/records/${action}`, { gnCoding: NODE, id, version, ...extra });
const detail = async (id: string) =>
  (await call(admin, '/ks/engine/v1/records/detail', { gnCoding: NODE, id })).body.data;

/** The test module's own view of the node: two of its fields, typed. */
const credit = nodeAccessor(NODE, { qymc: z.string(), xylb: z.string().nullable(), xyf: z.number().nullable() });

/** What the test module's hooks write (with the decision's transaction) and saw. */
const probes = async (recordId: string) =>
  (
    (await t.database.db.execute(
      sql`select "outcome", "level", "final", "seen_status", "opinion", "decider" from "hook_probe" where "record_id" = ${recordId} order by "id"`,
    )) as unknown as { rows: Record<string, unknown>[] }
  ).rows;

async function probe(e: DecisionEvent, outcome: string) {
  // the record's new state, read through the transaction (not committed yet)
  const [seen] = (
    (await e.tx.execute(sql`select "status" from "n_xygl_xyjl" where "id" = ${e.record.id}`)) as unknown as {
      rows: { status: string }[];
    }
  ).rows;
  await e.tx.execute(
    sql`insert into "hook_probe" ("record_id", "outcome", "level", "final", "seen_status", "opinion", "decider") values (${e.record.id}, ${outcome}, ${e.level?.level ?? null}, ${e.final}, ${seen!.status}, ${e.opinion}, ${e.decider.userName})`,
  );
}

let unregister: (() => void)[] = [];
afterEach(() => {
  for (const u of unregister) u();
  unregister = [];
});

beforeAll(async () => {
  t = await createTestApp();
  [dev, admin, user, auditor] = await Promise.all([
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'auditor', 'U'),
  ]);
  const fields = [
    { code: 'qymc', name: '企业名称', type: 'text', required: 1 },
    { code: 'xylb', name: '信用类别', type: 'text' },
    { code: 'xyf', name: '信用分', type: 'input-number' },
  ];
  expect((await call(dev, '/ks/config/node/fields', { gnCoding: NODE, fields, version: 0 }, 'PUT')).status).toBe(200);
  await t.database.db.execute(
    sql`create table "hook_probe" ("id" serial primary key, "record_id" uuid not null, "outcome" text not null, "level" int, "final" boolean not null, "seen_status" text not null, "opinion" text, "decider" text not null)`,
  );
});
afterAll(async () => t?.close());

async function submitted(name: string) {
  const saved = await call(user, '/ks/engine/v1/records/save', { gnCoding: NODE, values: { qymc: name, xyf: 80 } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const sub = await step(user, 'submit', saved.body.data.id, saved.body.data.version);
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  return sub.body.data as { id: string; version: number };
}

/** Everything a decision writes, to compare before and after one that was rolled back. */
async function footprint(id: string) {
  const db = t.database.db;
  const d = await detail(id);
  return {
    status: d.status,
    auditLevel: d.auditLevel,
    version: d.version,
    values: d.values,
    audits: (await db.select().from(recordAudits).where(eq(recordAudits.recordId, id))).length,
    openTodos: (
      await db
        .select()
        .from(todos)
        .where(and(eq(todos.recordId, id), isNull(todos.doneAt)))
    )
      .map((x) => `${x.level}:${x.assigneeId}`)
      .sort(),
    logs: (await db.select().from(operationLogs).where(eq(operationLogs.recordId, id))).length,
    probes: (await probes(id)).length,
  };
}

describe('decision hooks', () => {
  it('run inside the decision: each level, with the record as the decision left it, the decider and the opinion', async () => {
    const outside: string[] = [];
    unregister.push(
      onDecision(NODE, {
        name: 'credit-probe',
        async passed(e) {
          await probe(e, 'passed');
          // on PostgreSQL another connection still sees the record as it was: the hook is inside the transaction
          if (usingPostgres) {
            const [row] = (
              (await t.database.db.execute(
                sql`select "status", "audit_level" from "n_xygl_xyjl" where "id" = ${e.record.id}`,
              )) as unknown as { rows: { status: string; audit_level: number }[] }
            ).rows;
            outside.push(`${row!.status}:${row!.audit_level}`);
          }
          // the module applies the passed change through its accessor, in the same transaction
          if (e.final) {
            const rec = await credit.get(e.tx, e.record.id);
            expect(rec?.values).toEqual({ qymc: '钩子测试企业', xylb: null, xyf: 80 });
            await credit.update(
              e.tx,
              e.record.id,
              { xylb: 'A', xyf: rec!.values.xyf! + 5 },
              { actor: SYSTEM_ACTOR, logbook: '信用变更已生效' },
            );
          }
        },
      }),
    );
    expect(hasDecisionHooks(NODE.toLowerCase())).toBe(true);
    const r = await submitted('钩子测试企业');
    const first = await step(auditor, 'audit', r.id, r.version, { pass: true, suggestion: '材料齐全' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'pending', auditLevel: 2 });
    const second = await step(admin, 'audit', r.id, first.body.data.version, { pass: true });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(await probes(r.id)).toEqual([
      {
        outcome: 'passed',
        level: 1,
        final: false,
        seen_status: 'pending',
        opinion: '材料齐全',
        decider: '王晓燕',
      },
      { outcome: 'passed', level: 2, final: true, seen_status: 'passed', opinion: null, decider: '平台管理员' },
    ]);
    if (usingPostgres) expect(outside).toEqual(['pending:1', 'pending:2']);
    // the hook's update committed with the decision, with its own log line after the decision's
    const d = await detail(r.id);
    expect(d).toMatchObject({ status: 'passed', values: { qymc: '钩子测试企业', xylb: 'A', xyf: 85 } });
    const logs = (await call(admin, '/ks/engine/v1/records/logs', { gnCoding: NODE, id: r.id })).body.data;
    expect(logs.map((l: any) => l.logbook).slice(-2)).toEqual(['信用变更已生效', '复审通过，审核完成']);
  });

  it('a hook that throws an AppError rolls the whole decision back and its message reaches the client', async () => {
    unregister.push(
      onDecision(NODE, {
        name: 'credit-refuses',
        async passed(e) {
          await probe(e, 'passed');
          await credit.update(e.tx, e.record.id, { xylb: 'X' }, { actor: SYSTEM_ACTOR, logbook: '不应留下' });
          throw badRequest('信用分不足，不能通过');
        },
      }),
    );
    const r = await submitted('钩子拒绝企业');
    const before = await footprint(r.id);
    expect(before).toMatchObject({ status: 'pending', auditLevel: 1, openTodos: ['1:auditor'], probes: 0 });
    const res = await step(auditor, 'audit', r.id, r.version, { pass: true });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('信用分不足，不能通过');
    // record, audit history, to-dos, operation log and the hook's own writes: as before
    expect(await footprint(r.id)).toEqual(before);
    // and the record can still be decided once the module lets it
    unregister.pop()!();
    expect((await step(auditor, 'audit', r.id, r.version, { pass: true })).status).toBe(200);
  });

  it('reject hooks: run with the opinion; one that fails unexpectedly is a 500 without detail, rolled back', async () => {
    unregister.push(onDecision(NODE, { name: 'credit-rejects', rejected: (e) => probe(e, 'rejected') }));
    const r = await submitted('驳回钩子企业');
    const res = await step(auditor, 'audit', r.id, r.version, { pass: false, suggestion: '证明材料不全' });
    expect(res.status).toBe(200);
    expect(await probes(r.id)).toEqual([
      {
        outcome: 'rejected',
        level: 1,
        final: true,
        seen_status: 'rejected',
        opinion: '证明材料不全',
        decider: '王晓燕',
      },
    ]);

    unregister.push(
      onDecision(NODE, {
        name: 'credit-breaks',
        async rejected(e) {
          await e.tx.execute(sql`select 1`);
          throw new Error('secret internal detail');
        },
      }),
    );
    const again = await submitted('驳回失败企业');
    const before = await footprint(again.id);
    const broken = await step(auditor, 'audit', again.id, again.version, { pass: false, suggestion: '不同意' });
    expect(broken.status).toBe(500);
    expect(broken.body.message).not.toContain('secret');
    expect(await footprint(again.id)).toEqual(before);
  });

  it('a node without review levels: its hooks see the pass on submission as final', async () => {
    // a node whose levels are removed: submission passes the record at once
    const none = await call(admin, '/ks/config/audit/levels', { gnCoding: NODE, levels: [] }, 'PUT');
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    try {
      unregister.push(onDecision(NODE, { name: 'credit-auto', passed: (e) => probe(e, 'passed') }));
      const r = await submitted('免审企业');
      expect(await probes(r.id)).toEqual([
        { outcome: 'passed', level: null, final: true, seen_status: 'passed', opinion: null, decider: '张建国' },
      ]);
    } finally {
      const levels = [
        { level: 1, name: '初审', way: 'any', reviewerRoles: ['auditor'], reviewerUserIds: [] },
        { level: 2, name: '复审', way: 'any', reviewerRoles: ['admin'], reviewerUserIds: [] },
      ];
      const res = await call(admin, '/ks/config/audit/levels', { gnCoding: NODE, levels }, 'PUT');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  it('refuses two hook sets of one name on a node, and forgets them when removed', () => {
    const off = onDecision(NODE, { name: 'once' });
    expect(() => onDecision(NODE.toLowerCase(), { name: 'once' })).toThrow();
    off();
    expect(hasDecisionHooks(NODE)).toBe(false);
  });
});

describe('node accessor', () => {
  it('lists by field code, checks what it reads and writes, and logs every update', async () => {
    const a = (
      await call(user, '/ks/engine/v1/records/save', { gnCoding: NODE, values: { qymc: '访问器甲', xylb: 'B' } })
    ).body.data;
    await call(user, '/ks/engine/v1/records/save', {
      gnCoding: NODE,
      values: { qymc: '访问器乙', xylb: 'B', xyf: 60 },
    });
    const db = t.database.db;
    const listed = await credit.list(db, { where: { xylb: 'B' } });
    expect(listed.map((x) => x.values.qymc)).toEqual(['访问器乙', '访问器甲']);
    expect((await credit.list(db, { where: { xylb: 'B', xyf: null } })).map((x) => x.values.qymc)).toEqual([
      '访问器甲',
    ]);
    expect(await credit.list(db, { where: { xylb: 'B' }, status: ['passed'] })).toEqual([]);
    expect(listed[1]).toMatchObject({ id: a.id, status: 'draft', version: 1, enterpriseId: expect.any(String) });

    expect(await credit.get(db, '00000000-0000-0000-0000-000000000000')).toBeNull();
    expect(await credit.get(db, 'not-an-id')).toBeNull();
    // a value of the wrong type is a 400 naming the field, before anything is written
    await expect(
      credit.update(db, a.id, { xyf: '九十' as unknown as number }, { actor: SYSTEM_ACTOR, logbook: 'x' }),
    ).rejects.toMatchObject({ httpStatus: 400, data: { fieldErrors: { xyf: [expect.any(String)] } } });
    // an optimistic update at a stale version is a 409
    await expect(
      credit.update(db, a.id, { xyf: 90 }, { actor: SYSTEM_ACTOR, logbook: 'x', version: 7 }),
    ).rejects.toMatchObject({ httpStatus: 409 });
    const updated = await credit.update(db, a.id, { xyf: 90 }, { actor: SYSTEM_ACTOR, logbook: '评分', version: 1 });
    expect(updated).toMatchObject({ version: 2, values: { qymc: '访问器甲', xylb: 'B', xyf: 90 } });
    const logs = await db.select().from(operationLogs).where(eq(operationLogs.recordId, a.id));
    expect(logs.map((l) => [l.logbook, l.czrName])).toEqual([
      ['新增记录', '张建国'],
      ['评分', '系统'],
    ]);
  });

  it('refuses fields the node does not have, and records that do not fit the declared types', async () => {
    const db = t.database.db;
    await expect(nodeAccessor(NODE, { nope: z.string() }).list(db)).rejects.toThrow(/no field nope/);
    expect(() => nodeAccessor(NODE, { select: z.string() })).toThrow();
    const strict = nodeAccessor(NODE, { qymc: z.string(), xyf: z.number() });
    await expect(strict.list(db, { where: { qymc: '访问器甲' } })).resolves.toHaveLength(1);
    await call(user, '/ks/engine/v1/records/save', { gnCoding: NODE, values: { qymc: '无分企业' } });
    await expect(strict.list(db, { where: { qymc: '无分企业' } })).rejects.toThrow(/does not fit/);
  });
});
