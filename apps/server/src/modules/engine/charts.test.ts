import { CHART_BLANK, CHART_DATA_MSG } from '@ks/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { bearer, createTestApp, json, loginToken, type TestApp } from '../../test/harness';

/** The numbers of a node's configured charts (/system/echartsSetting) come from its records, in the caller's scope. */

type Body = { code: number; data: any; message: string };
const NODE = 'ZBTB_TBWJ';
let t: TestApp;
let dev: string;
let admin: string;
let user: string;

async function call(token: string, url: string, payload: object, method: 'POST' | 'PUT' = 'POST') {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res) };
}
const data = (token: string, body: object = {}) =>
  call(token, '/ks/config/node/chart-data', { gnCoding: NODE, ...body });
const opts = (pairs: [string, string][]) => ({ list: pairs.map(([value, label]) => ({ label, value })) });
const FIELDS = [
  { code: 'qymc', name: '企业名称', type: 'text' },
  {
    code: 'bdlx',
    name: '标段类型',
    type: 'select',
    options: opts([
      ['sg', '施工'],
      ['jl', '监理'],
    ]),
  },
  { code: 'tbje', name: '投标金额', type: 'number' },
  { code: 'tbrq', name: '投标日期', type: 'date' },
];
const byType = { title: '按类型', type: 'bar', dimension: 'bdlx', measure: 'count', measureField: null };
const amount = { title: '金额', type: 'pie', dimension: 'bdlx', measure: 'sum', measureField: 'tbje' };
const monthly = { title: '按月', type: 'line', dimension: 'tbrq', measure: 'avg', measureField: 'tbje' };

beforeAll(async () => {
  t = await createTestApp();
  [dev, admin, user] = await Promise.all([
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
  ]);
  const saved = await call(dev, '/ks/config/node/fields', { gnCoding: NODE, fields: FIELDS, version: 0 }, 'PUT');
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const db = t.database.db;
  const [u1] = await db.select().from(users).where(eq(users.account, 'user1'));
  const [other] = await db
    .select()
    .from(users)
    .where(sql`${users.enterpriseId} is not null and ${users.enterpriseId} <> ${u1!.enterpriseId}`)
    .limit(1);
  // user1's enterprise: 3 施工 (100, 200, 300) and 1 监理 (50); another enterprise: 2 施工 (1000 each), 1 without a type
  const rows = [
    [u1, 'sg', 100, '2026-07-03'],
    [u1, 'sg', 200, '2026-07-20'],
    [u1, 'sg', 300, '2026-08-01'],
    [u1, 'jl', 50, '2026-08-15'],
    [other, 'sg', 1000, '2026-08-02'],
    [other, 'sg', 1000, '2026-09-09'],
    [other, null, 7, '2026-09-10'],
  ] as const;
  for (const [u, lx, je, rq] of rows) {
    await db.execute(sql`insert into n_zbtb_tbwj (owner_id, enterprise_id, status, f_qymc, f_bdlx, f_tbje, f_tbrq)
      values (${u!.id}::uuid, ${u!.enterpriseId}::uuid, 'draft', '某企业', ${lx}, ${je}, ${rq}::date)`);
  }
});
afterAll(async () => t?.close());

describe('chart data', () => {
  it('is empty until charts are saved; then the saved charts are measured over every record for the centre', async () => {
    expect((await data(admin)).body.data).toEqual([]);
    const save = await call(
      dev,
      '/ks/config/node/charts',
      { gnCoding: NODE, charts: [byType, amount, monthly] },
      'PUT',
    );
    expect(save.status).toBe(200);
    const r = await data(admin);
    expect(r.status).toBe(200);
    const [a, b, c] = r.body.data;
    expect(a).toMatchObject({
      title: '按类型',
      categories: ['施工', '监理', CHART_BLANK],
      values: [5, 1, 1],
      records: 7,
    });
    expect(b).toMatchObject({ categories: ['施工', '监理', CHART_BLANK], values: [2600, 50, 7], problem: null });
    // dates by month, in time order: avg of (100, 200), (300, 50, 1000), (1000, 7)
    expect(c).toMatchObject({ categories: ['2026-07', '2026-08', '2026-09'], values: [150, 450, 503.5] });
  });

  it('counts only the records an enterprise user may see', async () => {
    const r = await data(user);
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({ categories: ['施工', '监理'], values: [3, 1], records: 4 });
    expect(r.body.data[1]).toMatchObject({ values: [600, 50] });
  });

  it('previews unsaved charts, and says which field a chart lost', async () => {
    const r = await data(dev, {
      charts: [
        { ...byType, dimension: 'gone' },
        { ...amount, measureField: 'qymc' },
        { ...amount, measureField: 'nope' },
        { ...byType, type: 'pie', dimension: 'tbje' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.map((c: { problem: string | null }) => c.problem)).toEqual([
      CHART_DATA_MSG.noDimension('gone'),
      CHART_DATA_MSG.notNumeric('qymc'),
      CHART_DATA_MSG.noMeasureField('nope'),
      null,
    ]);
    expect(r.body.data[3]).toMatchObject({
      categories: ['1000', '7', '50', '100', '200', '300'],
      values: [2, 1, 1, 1, 1, 1],
    });
  });

  it('refuses a sum without a field, a node the caller cannot see, and the anonymous', async () => {
    const bad = await data(dev, { charts: [{ ...amount, measureField: null }] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('需要选择度量字段');
    expect((await call(admin, '/ks/config/node/chart-data', { gnCoding: 'NO_SUCH_NODE' })).status).toBe(403);
    // a node without fields (a page of its own) has nothing to chart: no charts, not an error
    const own = await call(admin, '/ks/config/node/chart-data', { gnCoding: 'KPB_JDT' });
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual([]);
    const anon = await t.app.inject({ method: 'POST', url: '/ks/config/node/chart-data', payload: { gnCoding: NODE } });
    expect(anon.statusCode).toBe(401);
  });
});
