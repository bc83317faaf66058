import { createHash } from 'node:crypto';
import { creditCodeCheckChar, type FieldDef } from '@ks/contracts';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Tx } from '../../db/client';
import { enterprises, grants, menuNodes, operationLogs, roles, userRoles, users } from '../../db/schema';
import { clearCaches } from '../../platform/cache';
import { hashPassword } from '../../platform/password';
import {
  canSeeNode,
  lastNodeState,
  rememberNodeState,
  requestMemo,
  requireNodeRef,
  roleCodesOf,
} from '../../platform/permissions';
import { genericRuns, placeholderBind, statementName } from '../../platform/prepared';
import {
  bearer,
  createTestApp,
  ENTERPRISE_DETAILS,
  json,
  loginToken,
  type TestApp,
  usingPostgres,
} from '../../test/harness';
import { listCounts, listParts, listQuery } from './list.service';
import { catalogOf } from './node-fields';
import { tableColumns } from './node-table';
import { iso, rowsOf } from './record-row';
import { COUNT_CAP, countLimit, listStatement, scopeBranches, scopeSql } from './records.repo';
import { indexPlan, syncEngineIndexes } from './schema.service';
import {
  normaliseSearchParams,
  orderSql,
  parseSort,
  parseWhereStr,
  searchToConditions,
  tableOf,
  whereSql,
} from './sqlsafe';

/**
 * The list path at scale (issue 5, Performance): one statement per page whose scope branches are read in index order,
 * a total counted up to a cap and said to be capped, the composite indexes that serve it (and their migration), and
 * permission reads once per request that still see a change on the next request.
 */

type Body = { code: number; data: any; message: string };

const NODE = 'ZBTB_TBWJ';
const TABLE = 'n_zbtb_tbwj';
const FIELDS: FieldDef[] = [
  { code: 'qymc', name: '企业名称', type: 'text', length: 50 },
  { code: 'tbje', name: '投标金额', type: 'number' },
  {
    code: 'bdlx',
    name: '标段类型',
    type: 'select',
    options: {
      list: [
        { label: '施工', value: 'sg' },
        { label: '监理', value: 'jl' },
      ],
    },
  },
] as FieldDef[];
const column = (code: string, name: string, isSearch: boolean) => ({
  code,
  name,
  type: 'text',
  show: true,
  isSearch,
  isStatus: false,
  listAlignment: '居中',
  width: null,
});

let t: TestApp;
let dev: string;
let admin: string;
let user: string;
let other: string;
let solo: string;
let nodeId: string;
let fieldsVersion = 0;
const people: Record<string, { id: string; loginRoleType: string; enterpriseId: string | null }> = {};

async function call(token: string, url: string, payload: object, method: 'POST' | 'PUT' = 'POST') {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res) };
}
const list = (token: string, body: object) =>
  call(token, '/ks/engine/v1/records/list', { gnCoding: NODE, pageNum: 1, pageSize: 10, ...body });
const saveColumns = (cols: object[]) => call(dev, '/ks/config/node/columns', { gnCoding: NODE, columns: cols }, 'PUT');
async function saveFields() {
  const res = await call(
    dev,
    '/ks/config/node/fields',
    { gnCoding: NODE, fields: FIELDS, version: fieldsVersion },
    'PUT',
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  fieldsVersion = res.body.data.version;
}
/** index name → its column list, e.g. `f_bdlx, enterprise_id, created_at DESC, id DESC` */
async function indexesOf(table: string): Promise<Map<string, string>> {
  const rows = rowsOf(
    await t.database.db.execute(sql`select indexname, indexdef from pg_indexes where tablename = ${table}`),
  );
  return new Map(
    rows.map((r) => [
      String(r.indexname),
      String(r.indexdef)
        .replace(/^.*USING btree \((.*)\)$/, '$1')
        .replace(/^.*USING gin \((.*)\)$/, 'gin: $1'),
    ]),
  );
}

/** The plan of `query` after `prepare` ran in a transaction that is then rolled back. */
async function explainIn(query: SQL, prepare: (tx: Tx) => Promise<void>): Promise<string> {
  let plan = '';
  await t.database.db
    .transaction(async (tx) => {
      await prepare(tx);
      plan = rowsOf(await tx.execute(sql`explain ${query}`))
        .map((r) => String(r['QUERY PLAN']))
        .join('\n');
      tx.rollback();
    })
    .catch((e) => {
      if (!plan) throw e;
    });
  return plan;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const base = '91140100MA0L00011';
  const [ent] = await db
    .insert(enterprises)
    .values({ ...ENTERPRISE_DETAILS, name: '列表测试建设有限公司', creditCode: `${base}${creditCodeCheckChar(base)}` })
    .returning();
  const passwordHash = await hashPassword('Demo@2026');
  await db.insert(users).values([
    { account: 'other5', userName: '钱另一', loginRoleType: 'U', passwordHash, enterpriseId: ent!.id },
    // a person without an enterprise sees their own records
    { account: 'solo1', userName: '周个人', loginRoleType: 'U', passwordHash, enterpriseId: null },
  ]);
  for (const u of await db.select().from(users)) {
    people[u.account] = { id: u.id, loginRoleType: u.loginRoleType, enterpriseId: u.enterpriseId };
  }
  [dev, admin, user, other, solo] = await Promise.all([
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'other5', 'U'),
    loginToken(t.app, 'solo1', 'U'),
  ]);
  expect((await saveColumns([column('bdlx', '标段类型', true), column('qymc', '企业名称', true)])).status).toBe(200);
  await saveFields();
  const [node] = await db.select().from(menuNodes).where(eq(menuNodes.gnCoding, NODE));
  nodeId = node!.id;
  const u1 = people.user1!;
  const o5 = people.other5!;
  // 2,500 records of user1's enterprise, two at each second (ties are broken by id); four in five 施工
  await db.execute(sql`
    insert into n_zbtb_tbwj (owner_id, enterprise_id, status, created_at, updated_at, f_qymc, f_tbje, f_bdlx)
    select ${u1.id}::uuid, ${u1.enterpriseId}::uuid, 'draft', timestamptz '2026-06-01 00:00:00+00' - make_interval(secs => g / 2),
           now(), '企业' || g, g % 97, case when g % 5 = 0 then 'jl' else 'sg' end
    from generate_series(1, 2500) g`);
  // 20 of another enterprise, interleaved in time with user1's; some of them user1 was asked to review
  await db.execute(sql`
    insert into n_zbtb_tbwj (owner_id, enterprise_id, status, created_at, updated_at, f_qymc, f_tbje, f_bdlx)
    select ${o5.id}::uuid, ${o5.enterpriseId}::uuid, 'pending', timestamptz '2026-06-01 00:00:00+00' - make_interval(secs => g * 37),
           now(), '另一' || g, g, 'sg'
    from generate_series(1, 20) g`);
  // 5 of a person without an enterprise
  await db.execute(sql`
    insert into n_zbtb_tbwj (owner_id, enterprise_id, status, created_at, updated_at, f_qymc, f_tbje, f_bdlx)
    select ${people.solo1!.id}::uuid, null, 'draft', timestamptz '2026-05-01 00:00:00+00' - make_interval(secs => g),
           now(), '个人' || g, g, 'jl'
    from generate_series(1, 5) g`);
  const others = rowsOf(
    await db.execute(sql`select id from n_zbtb_tbwj where owner_id = ${o5.id}::uuid order by created_at desc limit 4`),
  );
  const sys = rowsOf(await db.execute(sql`select system_id from menu_nodes where id = ${nodeId}::uuid`))[0]!.system_id;
  const todo = (recordId: unknown, assigneeType: string, assigneeId: string) =>
    db.execute(sql`insert into todos (node_id, system_id, record_id, level, assignee_type, assignee_id, business_name, submitter_name, sb_time)
      values (${nodeId}::uuid, ${sys}::uuid, ${recordId}::uuid, 1, ${assigneeType}, ${assigneeId}, '投标文件', '钱另一', now())`);
  // three to user1 in person, one to the built-in role every enterprise user holds (so solo1 sees it too)
  await todo(others[0]!.id, 'user', u1.id);
  await todo(others[1]!.id, 'user', u1.id);
  await todo(others[3]!.id, 'user', u1.id);
  await todo(others[2]!.id, 'role', 'user');
  await db.execute(sql`vacuum analyze n_zbtb_tbwj`);
});
afterAll(async () => t?.close());

/** The same list the plain way: `scopeSql` (one `or`), an exact count, OFFSET — the semantics the list must keep. */
async function reference(
  account: string,
  q: { search?: object; whereStr?: string; sortField?: string; order?: string; pageNum: number; pageSize: number },
) {
  const db = t.database.db;
  const c = people[account]!;
  const catalog = catalogOf(FIELDS);
  const where = sql`${scopeSql(c, nodeId, await roleCodesOf(db, c))} and ${whereSql(
    [...parseWhereStr(q.whereStr, catalog), ...searchToConditions(normaliseSearchParams(q.search ?? {}), catalog)],
    catalog,
  )}`;
  const order = orderSql(parseSort(q.sortField, q.order, catalog));
  const ids = rowsOf(
    await db.execute(
      sql`select id from n_zbtb_tbwj where ${where} order by ${order} limit ${q.pageSize} offset ${(q.pageNum - 1) * q.pageSize}`,
    ),
  ).map((r) => String(r.id));
  const total = Number(rowsOf(await db.execute(sql`select count(*)::int as n from n_zbtb_tbwj where ${where}`))[0]!.n);
  return { ids, total };
}

describe('list page and capped total', () => {
  it('answers the same records in the same order as the plain scoped query, for every kind of caller', async () => {
    const tokens: Record<string, string> = { admin, user1: user, other5: other, solo1: solo };
    const queries = [
      { pageNum: 1, pageSize: 10 },
      { pageNum: 1, pageSize: 10, search: { bdlx: 'sg' } },
      { pageNum: 3, pageSize: 20, search: { bdlx: 'sg' }, sortField: 'createdAt', order: 'desc' },
      { pageNum: 2, pageSize: 50, sortField: 'tbje', order: 'asc' },
      { pageNum: 1, pageSize: 30, search: { qymc: '另一1' }, sortField: 'createdAt', order: 'asc' },
      { pageNum: 101, pageSize: 10, search: { bdlx: 'sg' } },
      { pageNum: 1, pageSize: 10, whereStr: JSON.stringify([{ field: 'tbje', op: 'lt', value: 3 }]) },
    ];
    for (const [account, token] of Object.entries(tokens)) {
      for (const q of queries) {
        const ref = await reference(account, q);
        const res = await list(token, q);
        const label = `${account} ${JSON.stringify(q)}`;
        expect(res.status, label).toBe(200);
        expect(
          res.body.data.records.map((r: any) => r.id),
          label,
        ).toEqual(ref.ids);
        const limit = countLimit((q.pageNum - 1) * q.pageSize, q.pageSize);
        expect(res.body.data.total, label).toBe(Math.min(ref.total, limit));
        expect(res.body.data.totalCapped, label).toBe(ref.total > limit);
      }
    }
  });

  it('sees the records it was asked to review, merged in order with its own; others see none of them', async () => {
    // the four asked of user1 are among other5's newest, between user1's own records of the first 200 seconds
    const seen: any[] = [];
    for (let pageNum = 1; pageNum <= 8; pageNum++)
      seen.push(...(await list(user, { pageSize: 50, pageNum })).body.data.records);
    const asked = seen.filter((r) => r.ownerId === people.other5!.id);
    expect(asked).toHaveLength(4);
    expect(seen.indexOf(asked[0])).toBeGreaterThan(0);
    expect(seen.map((r) => r.createdAt)).toEqual(
      seen
        .map((r) => r.createdAt)
        .sort()
        .reverse(),
    );
    // other5 sees its 20, solo1 its 5 and the one asked of every enterprise user's role
    expect((await list(other, { pageSize: 50 })).body.data).toMatchObject({ total: 20, totalCapped: false });
    expect((await list(solo, { pageSize: 50 })).body.data).toMatchObject({ total: 6, totalCapped: false });
  });

  it('counts up to 1,000 and says the total is capped; a page past the cap counts to the next thousand', async () => {
    expect(COUNT_CAP).toBe(1000);
    const sg = { search: { bdlx: 'sg' } };
    // user1: 2,000 of its own 施工 records and 4 asked of it
    const first = await list(user, sg);
    expect(first.body.data).toMatchObject({ total: 1000, totalCapped: true });
    expect(first.body.data.records).toHaveLength(10);
    expect((await list(user, { ...sg, pageNum: 100 })).body.data).toMatchObject({ total: 2000, totalCapped: true });
    expect((await list(user, { ...sg, pageNum: 200 })).body.data).toMatchObject({ total: 2004, totalCapped: false });
    const last = await list(user, { ...sg, pageNum: 201 });
    expect(last.body.data.records).toHaveLength(4);
    const beyond = await list(user, { ...sg, pageNum: 300 });
    expect(beyond.body.data).toMatchObject({ records: [], total: 2004, totalCapped: false });
    // a small match is counted exactly
    expect((await list(user, { search: { bdlx: 'jl' }, pageSize: 50 })).body.data).toMatchObject({
      total: 500,
      totalCapped: false,
    });
    expect(countLimit(0, 10)).toBe(1000);
    expect(countLimit(990, 10)).toBe(2000);
    expect(countLimit(950, 50)).toBe(2000);
  });

  it('reuses a count only while the records, their to-do items and access stand still', async () => {
    const db = t.database.db as Db;
    const small = { search: { bdlx: 'jl' }, pageSize: 50 };
    const total = async (token: string) => (await list(token, small)).body.data.total as number;
    // the count this caller keeps for this filter; overwritten with a number no table holds, it shows when reused
    const tamper = () => {
      const keys = [...listCounts.keys()].filter((k) => k.startsWith(`${nodeId}#`) && k.includes(people.solo1!.id));
      expect(keys.length).toBeGreaterThan(0);
      for (const k of keys) listCounts.set(k, { ...listCounts.get(k)!, n: 7 });
    };
    // solo1's own five 监理 records (the one asked of its role is 施工)
    const real = await total(solo);
    expect(real).toBe(5);
    tamper();
    expect(await total(solo)).toBe(7);
    // a record added behind the server's back (its table's trigger moves the node's data version)
    const [added] = rowsOf(
      await db.execute(
        sql`insert into n_zbtb_tbwj (owner_id, enterprise_id, f_bdlx) values (${people.solo1!.id}::uuid, null, 'jl') returning id`,
      ),
    );
    expect(await total(solo)).toBe(real + 1);
    tamper();
    await db.execute(sql`delete from n_zbtb_tbwj where id = ${added!.id}::uuid`);
    expect(await total(solo)).toBe(real);
    // a change to the node's to-do items (the todos trigger moves the version too)
    tamper();
    await db.execute(sql`update todos set level = level where node_id = ${nodeId}::uuid and assignee_id = 'user'`);
    expect(await total(solo)).toBe(real);
    // a change of access (a role renamed, nothing at all in fact): counted again
    tamper();
    await db.execute(sql`update roles set name = name where false`);
    expect(await total(solo)).toBe(real);
    // and still reused while nothing moves
    tamper();
    expect(await total(solo)).toBe(7);
    listCounts.clear();
    expect(await total(solo)).toBe(real);
  });

  it('knows the values a statement binds without building it: the same keys and values as building it', () => {
    const catalog = catalogOf(FIELDS);
    const n = { id: nodeId, gnCoding: NODE, version: 7, fields: FIELDS, catalog };
    const whereStr = JSON.stringify([
      { field: 'qymc', op: 'like', value: '50%_' },
      { field: 'tbje', op: 'in', value: [1, 2, 3] },
      { field: 'tbje', op: 'between', value: [1, 9] },
      { field: 'bdlx', op: 'isNull' },
      { field: 'bdlx', op: 'ne', value: 'jl' },
    ]);
    for (const account of ['admin', 'user1', 'solo1']) {
      for (const state of [null, 'read', { confirm: 42 }] as const) {
        const parts = listParts(
          people[account]!,
          n,
          {
            conditions: parseWhereStr(whereStr, catalog),
            sort: parseSort('tbje', 'desc', catalog),
            pageNum: 3,
            pageSize: 20,
          },
          state,
        );
        const built = new Map<string, unknown>();
        parts.build(placeholderBind(built));
        expect(parts.values, `${account} ${JSON.stringify(state)}`).toEqual(built);
      }
    }
  });

  it('writes only integers into the statement; values and the offset are bound', () => {
    const { query, limit } = listStatement({
      table: TABLE,
      branches: scopeBranches({ ...people.user1!, id: people.user1!.id }, nodeId),
      where: whereSql([{ field: 'qymc', op: 'eq', value: "x'; drop table users --" }], catalogOf(FIELDS)),
      sort: null,
      offset: 20,
      pageSize: 10,
    });
    const built = (
      t.database.db as unknown as { dialect: { sqlToQuery(q: unknown): { sql: string; params: unknown[] } } }
    ).dialect.sqlToQuery(query);
    expect(limit).toBe(1000);
    expect(built.sql).not.toContain('drop table');
    expect(built.params).toContain("x'; drop table users --");
    expect(built.params).toContain(20);
    expect(built.sql).toContain('limit 1001');
    expect(() =>
      listStatement({ table: TABLE, branches: [sql`true`], where: sql`true`, sort: null, offset: 0, pageSize: 1.5 }),
    ).toThrow();
    expect(() =>
      listStatement({ table: TABLE, branches: [sql`true`], where: sql`true`, sort: null, offset: -1, pageSize: 10 }),
    ).toThrow();
  });

  it.runIf(usingPostgres)('reads an enterprise’s filtered page and count from the composite index alone', async () => {
    const { query } = listStatement({
      table: TABLE,
      branches: scopeBranches(people.user1!, nodeId),
      where: whereSql([{ field: 'bdlx', op: 'eq', value: 'sg' }], catalogOf(FIELDS)),
      sort: null,
      offset: 0,
      pageSize: 10,
    });
    const name = indexPlan(NODE, FIELDS, ['bdlx']).find((i) => i.ddl.includes('"f_bdlx", "enterprise_id"'))!.name;
    const plan = await explainIn(query, async (tx) => {
      // a table this small is best read whole or by its newest rows; the point here is that the composite index
      // alone answers the enterprise's branch: the other indexes are dropped inside this transaction, rolled back
      const others = [...(await indexesOf(TABLE)).keys()].filter((n) => n.startsWith('i_') && n !== name);
      for (const n of others) await tx.execute(sql.raw(`drop index "${n}"`));
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
    });
    expect(plan).toMatch(new RegExp(`Index Only Scan using ${name}`));
    expect(plan).toContain('Merge Append');
    expect(plan).not.toContain('Seq Scan on n_zbtb_tbwj');
    expect((await indexesOf(TABLE)).size).toBe(10);
  });
});

describe('indexes of a node table', () => {
  it('follows the plan after saving fields: scope, order and each searchable field with the scope inside', async () => {
    const idx = [...(await indexesOf(TABLE)).values()].sort();
    expect(idx).toEqual(
      [
        'created_at DESC, id DESC',
        'enterprise_id, created_at DESC, id DESC',
        'f_bdlx, created_at DESC, id DESC',
        'f_bdlx, enterprise_id, created_at DESC, id DESC',
        'f_qymc, created_at DESC, id DESC',
        'f_qymc, enterprise_id, created_at DESC, id DESC',
        // 企业名称 is free text, searched for a substring: a trigram index
        'gin: f_qymc gin_trgm_ops',
        'id',
        'owner_id, created_at DESC, id DESC',
        'status, created_at DESC, id DESC',
      ].sort(),
    );
  });

  it('finds a substring of a free-text field through its trigram index, in the list statement too', async () => {
    const trgm = indexPlan(NODE, FIELDS, ['qymc']).find((i) => i.ddl.includes('gin_trgm_ops'))!;
    expect(trgm.ddl).toMatch(/using gin \("f_qymc" gin_trgm_ops\)$/);
    // only free-text fields: a select field (searched by equality) has none
    expect(indexPlan(NODE, FIELDS, ['bdlx']).some((i) => i.ddl.includes('gin'))).toBe(false);
    const explain = (query: SQL) =>
      explainIn(query, async (tx) => {
        // 2,500 rows are read faster whole: the point is that the index can answer a substring
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_indexscan = off`);
      });
    const conditions = searchToConditions(normaliseSearchParams({ qymc: '业12' }), catalogOf(FIELDS));
    expect(conditions).toEqual([{ field: 'qymc', op: 'like', value: '业12' }]);
    const where = whereSql(conditions, catalogOf(FIELDS));
    const plain = await explain(sql`select "id" from ${sql.identifier(TABLE)} where ${where}`);
    expect(plain).toContain(`Bitmap Index Scan on ${trgm.name}`);
    expect(plain).not.toContain('Seq Scan');
    const { query } = listStatement({
      table: TABLE,
      branches: scopeBranches(people.user1!, nodeId),
      where,
      sort: null,
      offset: 0,
      pageSize: 10,
    });
    expect(await explain(query)).toContain(`Bitmap Index Scan on ${trgm.name}`);
    // a substring filter is planned for its value at each run (unnamed); other lists share a named statement
    const n = { id: nodeId, gnCoding: NODE, version: fieldsVersion, fields: FIELDS, catalog: catalogOf(FIELDS) };
    const page = { sort: null, pageNum: 1, pageSize: 10 };
    expect(listQuery(t.database.db, people.user1!, n, { ...page, conditions }, null).unnamed).toBe(true);
    const byType = parseWhereStr(JSON.stringify({ bdlx: 'sg' }), catalogOf(FIELDS));
    expect(listQuery(t.database.db, people.user1!, n, { ...page, conditions: byType }, null).unnamed).toBe(false);
    // and the answer is the substring's records: 企业12, 企业120 … 企业129, 企业1200 …
    const found = await list(user, { search: { qymc: '业12' }, pageSize: 50 });
    expect(found.body.data.total).toBe(1 + 10 + 100);
    expect(found.body.data.records.every((r: any) => String(r.values.qymc).includes('业12'))).toBe(true);
  });

  it.runIf(usingPostgres)(
    'runs a rare substring on a generic-plan connection, a common one planned for its value',
    async () => {
      await t.database.db.execute(sql.raw(`analyze ${TABLE}`));
      clearCaches();
      const before = genericRuns.n;
      // 企业1234: one record of 2,500 — rare by the column's statistics: one generic plan, on a connection of its own
      const rare = await list(user, { search: { qymc: '企业1234' } });
      expect(rare.body.data.records.map((r: any) => r.values.qymc)).toEqual(['企业1234']);
      expect(genericRuns.n).toBe(before + 1);
      // 企业1: 1,111 records (企业1, 企业10 …, 企业1000 …) — common: planned for its value, as before
      const common = await list(user, { search: { qymc: '企业1' } });
      expect(common.body.data.total).toBe(1000);
      expect(common.body.data.totalCapped).toBe(true);
      expect(common.body.data.records.every((r: any) => String(r.values.qymc).includes('企业1'))).toBe(true);
      // two characters have no trigram: planned for their value too
      await list(user, { search: { qymc: '企业' } });
      expect(genericRuns.n).toBe(before + 1);
    },
  );

  it('reads a substring’s matches once for the page and the count, and answers what two reads answer', async () => {
    const scan = /Bitmap Index Scan on i_\w+/g;
    const explain = (query: SQL) =>
      explainIn(query, async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_indexscan = off`);
      });
    for (const term of ['业12', '业1', '企业']) {
      const where = whereSql(
        searchToConditions(normaliseSearchParams({ qymc: term }), catalogOf(FIELDS)),
        catalogOf(FIELDS),
      );
      for (const account of ['admin', 'user1', 'solo1']) {
        const branches = scopeBranches(people[account]!, nodeId);
        for (const [offset, pageSize] of [
          [0, 10],
          [10, 10],
          [990, 20],
        ] as const) {
          const run = async (shared: boolean) => {
            const { query } = listStatement({ table: TABLE, branches, where, sort: null, offset, pageSize, shared });
            return rowsOf(await t.database.db.execute(query)).map((r) => [r.id, r.ks_total]);
          };
          const label = `${term} ${account} ${offset}`;
          expect(await run(true), label).toEqual(await run(false));
        }
        // the index is read once for the page and the count, where two reads read it twice
        const plan = (shared: boolean) =>
          explain(listStatement({ table: TABLE, branches, where, sort: null, offset: 0, pageSize: 10, shared }).query);
        const once = (await plan(true)).match(scan)?.length ?? 0;
        expect(once, account).toBeGreaterThanOrEqual(1);
        expect((await plan(false)).match(scan)?.length, account).toBe(2 * once);
      }
    }
    // the list call uses it for a substring filter
    const n = { id: nodeId, gnCoding: NODE, version: fieldsVersion, fields: FIELDS, catalog: catalogOf(FIELDS) };
    const conditions = searchToConditions(normaliseSearchParams({ qymc: '业12' }), catalogOf(FIELDS));
    const l = listQuery(t.database.db, people.user1!, n, { sort: null, pageNum: 1, pageSize: 10, conditions }, null);
    expect(l.unnamed).toBe(true);
    expect(l.statement.sql).toContain('u as materialized');
  });

  it('drops a field’s indexes as soon as it is no longer searchable, and records the statements', async () => {
    const logged = async () =>
      rowsOf(
        await t.database.db.execute(
          sql`select logbook from operation_logs where gn_coding = ${NODE} and logbook like '同步索引%' order by id`,
        ),
      ).length;
    const before = await logged();
    expect((await saveColumns([column('bdlx', '标段类型', true), column('qymc', '企业名称', false)])).status).toBe(200);
    // at once, with the columns: no field save needed
    let idx = [...(await indexesOf(TABLE)).values()];
    expect(idx.some((d) => d.includes('f_qymc'))).toBe(false);
    expect(idx).toContain('f_bdlx, enterprise_id, created_at DESC, id DESC');
    expect(await logged()).toBe(before + 1);
    // made searchable again: its indexes come back at once; and back off
    expect((await saveColumns([column('bdlx', '标段类型', true), column('qymc', '企业名称', true)])).status).toBe(200);
    idx = [...(await indexesOf(TABLE)).values()];
    expect(idx).toContain('f_qymc, enterprise_id, created_at DESC, id DESC');
    expect(idx).toContain('gin: f_qymc gin_trgm_ops');
    expect((await saveColumns([column('bdlx', '标段类型', true), column('qymc', '企业名称', false)])).status).toBe(200);
    // saving the columns unchanged changes nothing and logs nothing more
    const n = await logged();
    expect((await saveColumns([column('bdlx', '标段类型', true), column('qymc', '企业名称', false)])).status).toBe(200);
    expect(await logged()).toBe(n);
    // a field save records its own statements (none left to do here)
    await saveFields();
    const [h] = rowsOf(
      await t.database.db.execute(
        sql`select ddl from node_schema_history where node_id = ${nodeId}::uuid order by version desc limit 1`,
      ),
    );
    const ddl = (typeof h!.ddl === 'string' ? JSON.parse(h!.ddl) : h!.ddl) as string[];
    expect(ddl.filter((s) => s.startsWith('drop index'))).toHaveLength(0);
    // the list still answers (the count of a filter on it is simply not index-only any more)
    expect((await list(user, { search: { qymc: '企业1' } })).status).toBe(200);
  });

  it('migrates a table of the earlier shape at start-up: new indexes made, old managed ones dropped, once', async () => {
    const db = t.database.db;
    // the shape earlier versions made: (enterprise_id, owner_id, …) for the scope, keys without a prefix
    const oldName = (key: string) => `i_${createHash('sha1').update(`${TABLE}:${key}`).digest('hex').slice(0, 24)}`;
    const before = await indexesOf(TABLE);
    const logsBefore = (
      await db
        .select()
        .from(operationLogs)
        .where(and(eq(operationLogs.gnCoding, NODE), sql`${operationLogs.logbook} like '同步索引%'`))
    ).length;
    for (const name of before.keys()) if (name.startsWith('i_')) await db.execute(sql.raw(`drop index "${name}"`));
    await db.execute(
      sql.raw(
        `create index "${oldName('scope')}" on ${TABLE} ("enterprise_id", "owner_id", "created_at" desc, "id" desc)`,
      ),
    );
    await db.execute(sql.raw(`create index "${oldName('bdlx')}" on ${TABLE} ("f_bdlx", "created_at" desc, "id" desc)`));
    // an index somebody made by hand is not ours to drop
    await db.execute(sql.raw(`create index "hand_made" on ${TABLE} ("f_tbje")`));
    // earlier versions also gave every table a `data` jsonb column that nothing read
    await db.execute(sql.raw(`alter table ${TABLE} add column "data" jsonb not null default '{}'::jsonb`));
    const ran = await syncEngineIndexes(db);
    expect(ran.filter((s) => s.includes(oldName('scope')) || s.includes(oldName('bdlx')))).toHaveLength(2);
    expect(ran).toContain(`alter table "${TABLE}" drop column "data"`);
    expect((await tableColumns(db, NODE))?.has('data')).toBe(false);
    const after = await indexesOf(TABLE);
    expect(after.has(oldName('scope'))).toBe(false);
    expect(after.has('hand_made')).toBe(true);
    expect(new Map([...after].filter(([n]) => n !== 'hand_made'))).toEqual(before);
    const logs = await db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.gnCoding, NODE), sql`${operationLogs.logbook} like '同步索引%'`));
    expect(logs).toHaveLength(logsBefore + 1);
    expect(await syncEngineIndexes(db)).toEqual([]);
    await db.execute(sql.raw('drop index "hand_made"'));
  });
});

describe('permission reads once per request', () => {
  it('keep a grant for the rest of one request only: the next request sees the change', async () => {
    const db = t.database.db as Db;
    const ref = await requireNodeRef(db, NODE);
    const c1 = { id: people.user1!.id, loginRoleType: 'U', memo: requestMemo({}) };
    expect(await canSeeNode(db, c1, ref)).toBe(true);
    const removed = await db
      .delete(grants)
      .where(and(eq(grants.nodeId, nodeId), eq(grants.subjectType, 'role'), eq(grants.subjectId, 'user')))
      .returning();
    try {
      // the same request keeps what it read; a new one (a new memo, or none) reads again
      expect(await canSeeNode(db, c1, ref)).toBe(true);
      expect(await canSeeNode(db, { ...c1, memo: requestMemo({}) }, ref)).toBe(false);
      expect(await canSeeNode(db, { id: c1.id, loginRoleType: 'U' }, ref)).toBe(false);
      expect((await list(user, {})).status).toBe(403);
      // nor does a filter on a field of the node tell it anything: 403, not 400
      expect((await list(user, { search: { nosuch: 'x' } })).status).toBe(403);
      expect((await list(user, { sortField: 'nosuch' })).status).toBe(403);
    } finally {
      await db.insert(grants).values(removed.map(({ id: _id, ...g }) => g));
    }
    const back = await list(user, {});
    expect(back.status).toBe(200);
    expect(back.body.data.records[0].operations.map((o: any) => o.code)).toEqual(['edit', 'detail', 'delete']);
    // a button taken away disappears from the next page of the list
    await db.delete(grants).where(and(eq(grants.nodeId, nodeId), eq(grants.functionCode, 'edit')));
    expect((await list(user, {})).body.data.records[0].operations.map((o: any) => o.code)).toEqual([
      'detail',
      'delete',
    ]);
  });

  it('reuses a state read before only while access_version stands still; each of its tables moves it', async () => {
    const db = t.database.db as Db;
    const version = async () => Number(rowsOf(await db.execute(sql`select "v" from "access_version"`))[0]!.v);
    // a list, then another: the second confirms the state the first read (no change in between)
    expect((await list(user, {})).status).toBe(200);
    const kept = lastNodeState({ id: people.user1!.id, loginRoleType: 'U' }, nodeId);
    expect(kept?.accessVersion).toBe(await version());
    expect((await list(user, {})).status).toBe(200);
    expect(lastNodeState({ id: people.user1!.id, loginRoleType: 'U' }, nodeId)).toBe(kept);
    // every table a node state is made of moves the version, whoever writes to it
    for (const change of [
      sql`update "grants" set "function_code" = "function_code" where false`,
      sql`update "roles" set "name" = "name" where false`,
      sql`delete from "user_roles" where false`,
      sql`update "node_functions" set "name" = "name" where false`,
      sql`update "menu_nodes" set "sort" = "sort" where false`,
    ]) {
      const before = await version();
      await db.execute(change);
      expect(await version()).toBe(before + 1);
    }
    // so a function renamed behind the server's back shows on the next list: the kept state is read again
    const named = (await list(user, {})).body.data.records[0].operations.find((o: any) => o.code === 'detail').name;
    await db.execute(
      sql`update "node_functions" set "name" = '看一看' where "node_id" = ${nodeId} and "code" = 'detail'`,
    );
    try {
      const ops = (await list(user, {})).body.data.records[0].operations;
      expect(ops.find((o: any) => o.code === 'detail').name).toBe('看一看');
      expect(lastNodeState({ id: people.user1!.id, loginRoleType: 'U' }, nodeId)?.accessVersion).toBe(await version());
    } finally {
      await db.execute(
        sql`update "node_functions" set "name" = ${named} where "node_id" = ${nodeId} and "code" = 'detail'`,
      );
    }
  });

  it('carries the caller’s role codes in the node state: the same as a fresh read, and a role given shows at once', async () => {
    const db = t.database.db as Db;
    const caller = { id: people.user1!.id, loginRoleType: 'U' };
    expect((await list(user, {})).status).toBe(200);
    expect(lastNodeState(caller, nodeId)?.roleCodes).toEqual(await roleCodesOf(db, caller));
    const [role] = await db.insert(roles).values({ code: 'list_probe', name: '列表探针' }).returning();
    try {
      await db.insert(userRoles).values({ userId: caller.id, roleId: role!.id });
      // the kept state is not confirmed (user_roles moved access_version): read again, with the new role
      expect((await list(user, {})).status).toBe(200);
      expect(lastNodeState(caller, nodeId)?.roleCodes).toEqual(['user', 'list_probe']);
      // a request that confirmed a kept state answers its role codes without reading them again
      const memo = requestMemo({});
      rememberNodeState({ ...caller, memo }, nodeId, lastNodeState(caller, nodeId)!);
      expect(await memo.roleCodes).toEqual(['user', 'list_probe']);
    } finally {
      await db.delete(roles).where(eq(roles.id, role!.id));
    }
    expect((await list(user, {})).status).toBe(200);
    expect(lastNodeState(caller, nodeId)?.roleCodes).toEqual(['user']);
  });

  it('answers with the new fields on the first list after they are saved', async () => {
    expect((await list(user, {})).body.data.records[0].values).not.toHaveProperty('lxr');
    FIELDS.push({ code: 'lxr', name: '联系人', type: 'text' } as FieldDef);
    await saveFields();
    const after = await list(user, { whereStr: JSON.stringify({ lxr: '无' }) });
    expect(after.status).toBe(200);
    expect(after.body.data.total).toBe(0);
    expect((await list(user, {})).body.data.records[0].values).toHaveProperty('lxr', null);
    expect((await list(user, { search: { nosuch: 'x' } })).status).toBe(400);
  });

  it('writes times as ISO 8601 in UTC, straight from PostgreSQL’s UTC text and through Date otherwise', () => {
    for (const [text, want] of [
      ['2026-11-22 20:16:18.787654+00', '2026-11-22T20:16:18.787Z'],
      ['2026-11-22 20:16:18.5+00', '2026-11-22T20:16:18.500Z'],
      ['2026-11-22 20:16:18+00', '2026-11-22T20:16:18.000Z'],
      ['2026-11-22 20:16:18.5+08', '2026-11-22T12:16:18.500Z'],
      ['2026-11-22 20:16:18+05:30', '2026-11-22T14:46:18.000Z'],
    ] as const) {
      expect(iso(text), text).toBe(want);
      expect(iso(text), text).toBe(new Date(text).toISOString());
    }
    expect(iso(new Date('2026-01-02T03:04:05.006Z'))).toBe('2026-01-02T03:04:05.006Z');
  });

  it('names a statement by its text, the same text the same name', () => {
    expect(statementName('select 1')).toBe(statementName('select 1'));
    expect(statementName('select 1')).not.toBe(statementName('select 2'));
    expect(statementName('select 1')).toMatch(/^ks_[0-9a-f]{24}$/);
    expect(tableOf(NODE)).toBe(TABLE);
  });
});
