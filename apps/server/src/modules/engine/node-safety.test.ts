import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessSystems, menuNodes, operationLogs } from '../../db/schema';
import { bearer, createTestApp, json, loginToken, type TestApp } from '../../test/harness';

/**
 * Issue 11 (engine), points 3–5: a developer's pattern cannot stall the server; a code names one node whatever its
 * case, held by the database under concurrency; a deleted node's records never come back under a new node of the same
 * code, and a column's real type is what schema changes compare.
 */

type Body = { code: number; data: any; message: string };
let t: TestApp;
let dev: string;

async function call(token: string, url: string, payload: object, method: 'POST' | 'PUT' | 'DELETE' = 'POST') {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res) };
}
const rows = async (q: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(q)) as unknown as { rows: Record<string, unknown>[] }).rows;
const createNode = (gnCoding: string, title = '测试节点') =>
  call(dev, '/ks/config/new/structure/child-menu', { systemCoding: 'CDYY', gnCoding, title, nodeProperties: 'list' });
const saveFields = (gnCoding: string, fields: object[], version: number) =>
  call(dev, '/ks/config/node/fields', { gnCoding, fields, version }, 'PUT');
const deleteNode = async (id: string) => {
  const res = await t.app.inject({
    method: 'DELETE',
    url: `/ks/config/new/structure/del?id=${id}`,
    headers: bearer(dev),
  });
  return { status: res.statusCode, body: json<Body>(res) };
};
const nodeId = async (code: string) =>
  (await t.database.db.select().from(menuNodes).where(eq(menuNodes.gnCoding, code)))[0]?.id;
const tableExists = async (name: string) =>
  (await rows(sql`select to_regclass(${name}) is not null as "e"`))[0]!.e === true;

beforeAll(async () => {
  t = await createTestApp();
  dev = await loginToken(t.app, 'dev', 'D');
});
afterAll(async () => t?.close());

describe('configured patterns run in linear time', () => {
  it('a catastrophic pattern answers at once with the field’s message', async () => {
    // 评标结果: no fields configured, user1 has no grants there; the pattern is checked by the engine on the developer's own record
    const fields = [{ code: 'bh', name: '编号', type: 'text', regex: '^(a+)+$', prompt: '编号只能由字母a组成' }];
    expect((await saveFields('KPB_PBJG', fields, 0)).status).toBe(200);
    const admin = await loginToken(t.app, 'admin', 'M');
    const bad = await call(admin, '/ks/engine/v1/records/save', {
      gnCoding: 'KPB_PBJG',
      values: { bh: `${'a'.repeat(28)}b` },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fieldErrors['values.bh']).toEqual(['编号只能由字母a组成']);
    const good = await call(admin, '/ks/engine/v1/records/save', { gnCoding: 'KPB_PBJG', values: { bh: 'aaaa' } });
    expect(good.status).toBe(200);
  });

  it('refuses at field save a pattern RE2 cannot run (backreference, look-around); the table is not touched', async () => {
    for (const regex of ['^(a)\\1$', '^(?=a)a$', '/(?<!x)y/']) {
      const res = await saveFields('CDYY_CDYY', [{ code: 'mc', name: '名称', type: 'text', regex }], 0);
      expect(res.status, regex).toBe(400);
      expect(res.body.data.fieldErrors['fields.0.regex'][0]).toContain('正则表达式不受支持');
    }
    expect(await tableExists('n_cdyy_cdyy')).toBe(false);
  });

  it('never runs a stored pattern with a backtracking engine: one RE2 cannot run matches nothing', async () => {
    // a pattern saved before the check existed (written behind the field save's back)
    const created = await createNode('ZZ_LEGACY_RE', '旧正则节点');
    expect(created.status).toBe(200);
    expect((await saveFields('ZZ_LEGACY_RE', [{ code: 'mc', name: '名称', type: 'text' }], 0)).status).toBe(200);
    await t.database.db
      .update(menuNodes)
      .set({ fields: [{ code: 'mc', name: '名称', type: 'text', regex: '^(a)\\1$' }] })
      .where(eq(menuNodes.gnCoding, 'ZZ_LEGACY_RE'));
    const admin = await loginToken(t.app, 'admin', 'M');
    // RegExp would accept 'aa'; RE2 cannot compile the pattern, so the server refuses the value instead of running it
    const res = await call(admin, '/ks/engine/v1/records/save', { gnCoding: 'ZZ_LEGACY_RE', values: { mc: 'aa' } });
    expect(res.status).toBe(400);
    expect(res.body.data.fieldErrors['values.mc']).toEqual(['名称格式不正确']);
  });
});

describe('one code space, case-insensitive, held by the database', () => {
  it('two creates of RaceNode and racenode at once: exactly one wins', async () => {
    const results = await Promise.all([createNode('RaceNode'), createNode('racenode')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const nodes = await rows(sql`select gn_coding from menu_nodes where lower(gn_coding) = 'racenode'`);
    expect(nodes).toHaveLength(1);
  });

  it('a system and a node differing in case at once: exactly one wins', async () => {
    const results = await Promise.all([
      call(dev, '/ks/config/new/structure/add', {
        systemName: '竞争系统',
        title: '竞争',
        gnCoding: 'RaceSys',
        levels: 0,
      }),
      createNode('racesys'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('the database itself refuses a code that differs only in case, whoever writes it', async () => {
    const [sys] = await t.database.db.select().from(businessSystems).where(eq(businessSystems.gnCoding, 'CDYY'));
    await expect(
      t.database.db.insert(menuNodes).values({ systemId: sys!.id, gnCoding: 'cdyy_cdgl', title: '重复' }),
    ).rejects.toThrow();
    await expect(
      t.database.db
        .insert(businessSystems)
        .values({ systemName: '重复', title: '重复', gnCoding: 'cdyy_CDGL', levels: 0 }),
    ).rejects.toThrow();
    // a deleted node's code is free again
    const id = (await createNode('ZZ_FREED')).body.data.id;
    expect((await deleteNode(id)).status).toBe(200);
    expect((await createNode('zz_freed')).status).toBe(200);
  });
});

describe('a deleted node’s data never comes back', () => {
  const FIELDS = [
    { code: 'mc', name: '名称', type: 'text' },
    { code: 'sl', name: '数量', type: 'text' },
  ];

  it('a node with records cannot be deleted; an empty one takes its table with it', async () => {
    const id = (await createNode('ZZ_KEEP', '保留节点')).body.data.id;
    expect((await saveFields('ZZ_KEEP', FIELDS, 0)).status).toBe(200);
    const admin = await loginToken(t.app, 'admin', 'M');
    const saved = await call(admin, '/ks/engine/v1/records/save', { gnCoding: 'ZZ_KEEP', values: { mc: '甲' } });
    expect(saved.status).toBe(200);
    const refused = await deleteNode(id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('已有 1 条业务记录，不能删除');
    expect(await nodeId('ZZ_KEEP')).toBe(id);
    expect(await tableExists('n_zz_keep')).toBe(true);
    // emptied, it goes, and its table with it
    expect(
      (await call(admin, '/ks/engine/v1/records/delete', { gnCoding: 'ZZ_KEEP', id: saved.body.data.id })).status,
    ).toBe(200);
    expect((await deleteNode(id)).status).toBe(200);
    expect(await tableExists('n_zz_keep')).toBe(false);
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.recordId, id));
    expect(logs.map((l) => l.logbook)).toContain('删除菜单：保留节点（删除其空数据表）');
  });

  it('a table left by an earlier node is archived, not taken over: no old record, the new column types', async () => {
    // what an earlier version left behind: a node deleted with its table and two records, 数量 as text
    expect((await createNode('ZZ_AGAIN', '旧节点')).status).toBe(200);
    expect((await saveFields('ZZ_AGAIN', FIELDS, 0)).status).toBe(200);
    await t.database.db.execute(
      sql`insert into n_zz_again (owner_id, f_mc, f_sl) values (gen_random_uuid(), '旧记录', '十二'), (gen_random_uuid(), '旧记录二', null)`,
    );
    const oldId = (await nodeId('ZZ_AGAIN'))!;
    await t.database.db.delete(menuNodes).where(eq(menuNodes.id, oldId));
    // a new node of the same code whose 数量 is a number
    const created = await createNode('ZZ_AGAIN', '新节点');
    expect(created.status).toBe(200);
    const fresh = [
      { code: 'mc', name: '名称', type: 'text' },
      { code: 'sl', name: '数量', type: 'number' },
    ];
    expect((await saveFields('ZZ_AGAIN', fresh, 0)).status).toBe(200);
    const admin = await loginToken(t.app, 'admin', 'M');
    const listed = await call(admin, '/ks/engine/v1/records/list', { gnCoding: 'ZZ_AGAIN' });
    expect(listed.body.data.records).toEqual([]);
    const type = await rows(
      sql`select format_type(a.atttypid, a.atttypmod) as "t" from pg_attribute a where a.attrelid = 'n_zz_again'::regclass and a.attname = 'f_sl'`,
    );
    expect(type[0]!.t).toBe('numeric');
    expect((await call(admin, '/ks/engine/v1/records/save', { gnCoding: 'ZZ_AGAIN', values: { sl: 12 } })).status).toBe(
      200,
    );
    const filtered = await call(admin, '/ks/engine/v1/records/list', {
      gnCoding: 'ZZ_AGAIN',
      whereStr: JSON.stringify([{ field: 'sl', op: 'eq', value: '12' }]),
    });
    expect(filtered.status, JSON.stringify(filtered.body)).toBe(200);
    expect(filtered.body.data.records.map((r: any) => r.values.sl)).toEqual([12]);
    // the old rows are kept, archived under a new name, and the log says where
    const archived = await rows(sql`select tablename from pg_tables where tablename like 'ks_archive_%'`);
    expect(archived).toHaveLength(1);
    const kept = await rows(sql.raw(`select f_mc from "${String(archived[0]!.tablename)}" order by f_mc`));
    expect(kept.map((r) => r.f_mc)).toEqual(['旧记录', '旧记录二']);
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.gnCoding, 'ZZ_AGAIN'));
    expect(
      logs.some((l) => l.logbook.includes(`归档遗留数据表 n_zz_again（2 条记录）为 ${archived[0]!.tablename}`)),
    ).toBe(true);
  });

  it('a field removed and added back with another kind: its column is retyped only while it holds no value', async () => {
    expect((await createNode('ZZ_RETYPE', '改类型节点')).status).toBe(200);
    expect((await saveFields('ZZ_RETYPE', FIELDS, 0)).status).toBe(200);
    const admin = await loginToken(t.app, 'admin', 'M');
    expect(
      (await call(admin, '/ks/engine/v1/records/save', { gnCoding: 'ZZ_RETYPE', values: { mc: '甲', sl: '三' } }))
        .status,
    ).toBe(200);
    // 数量 leaves the list (its column and data stay) and comes back as a number
    expect((await saveFields('ZZ_RETYPE', [FIELDS[0]!], 1)).status).toBe(200);
    const back = [FIELDS[0]!, { code: 'sl', name: '数量', type: 'number' }];
    const refused = await saveFields('ZZ_RETYPE', back, 2);
    expect(refused.status).toBe(400);
    expect(refused.body.data.fieldErrors['fields.1.type'][0]).toContain('已有 1 条text 类型的数据，不能改为number');
    // a new code instead; and a column without values is retyped
    expect((await saveFields('ZZ_RETYPE', [FIELDS[0]!, { code: 'zl', name: '重量', type: 'text' }], 2)).status).toBe(
      200,
    );
    expect((await saveFields('ZZ_RETYPE', [FIELDS[0]!], 3)).status).toBe(200);
    const retyped = await saveFields('ZZ_RETYPE', [FIELDS[0]!, { code: 'zl', name: '重量', type: 'number' }], 4);
    expect(retyped.status).toBe(200);
    const filtered = await call(admin, '/ks/engine/v1/records/list', {
      gnCoding: 'ZZ_RETYPE',
      whereStr: JSON.stringify([{ field: 'zl', op: 'gt', value: '1' }]),
    });
    expect(filtered.status).toBe(200);
  });
});
