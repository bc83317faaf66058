import { creditCodeCheckChar, idNumberCheckChar } from '@ks/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, json, loginToken, type TestApp } from '../../test/harness';
import { uniqueIndexName } from './unique';

/**
 * Uniqueness constraints on nodes (issue 12): declared in the node's field configuration, kept by a unique index on
 * its table — so they hold under concurrent saves — and answered with the fields' titles.
 */

type Body = { code: number; data: any; message: string };
let t: TestApp;
let dev: string;
let admin: string;
let user: string;
const NODE = 'XYGL_XYJL';
const FIELDS = [
  { code: 'qymc', name: '企业名称', type: 'text', required: 1 },
  { code: 'tyshxydm', name: '统一社会信用代码', type: 'text' },
  { code: 'nd', name: '年度', type: 'number' },
  { code: 'sm', name: '说明', type: 'editor' },
  { code: 'lb', name: '类别', type: 'checkbox', options: { list: [{ label: '甲', value: '甲' }] } },
];
const code = (base: string) => `${base}${creditCodeCheckChar(base)}`;

async function call(token: string, url: string, payload: object, method: 'POST' | 'PUT' = 'POST') {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res) };
}
const version = async () =>
  (await call(dev, '/ks/common/array/fields', { gnCoding: NODE })).body.data as {
    version: number;
    uniqueKeys: unknown[];
  };
const saveFields = async (uniqueKeys?: object[], fields: object[] = FIELDS) =>
  call(
    dev,
    '/ks/config/node/fields',
    { gnCoding: NODE, fields, version: (await version()).version, uniqueKeys },
    'PUT',
  );
const save = (values: object, token = user, id?: { id: string; version: number }) =>
  call(token, '/ks/engine/v1/records/save', { gnCoding: NODE, values, ...id });
const indexes = async (table: string) =>
  (
    (await t.database.db.execute(
      sql`select indexname as "name", indexdef as "def" from pg_indexes where tablename = ${table} and indexname like 'u\\_%'`,
    )) as unknown as { rows: { name: string; def: string }[] }
  ).rows;

beforeAll(async () => {
  t = await createTestApp();
  [dev, admin, user] = await Promise.all([
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
  ]);
  expect((await saveFields([])).status).toBe(200);
});
afterAll(async () => t?.close());

describe('unique keys of a node', () => {
  it('are checked against the field list when saved', async () => {
    const cases: [object[], string, string][] = [
      [[{ fields: ['nope'] }], 'uniqueKeys.0.fields', '唯一约束的字段不存在：nope'],
      [
        [{ fields: ['sm'] }],
        'uniqueKeys.0.fields',
        '字段「说明」的类型不能设为唯一（多选、级联、日期范围、多行文本和富文本不能）',
      ],
      [
        [{ fields: ['lb'] }],
        'uniqueKeys.0.fields',
        '字段「类别」的类型不能设为唯一（多选、级联、日期范围、多行文本和富文本不能）',
      ],
      [[{ fields: ['qymc', 'qymc'] }], 'uniqueKeys.0.fields', '唯一约束中字段「企业名称」重复'],
      [[{ fields: ['qymc', 'nd'] }, { fields: ['nd', 'qymc'] }], 'uniqueKeys.1.fields', '与第 1 个唯一约束相同'],
      [[{ fields: [] }], 'uniqueKeys.0.fields', '唯一约束至少包含一个字段'],
    ];
    for (const [keys, key, message] of cases) {
      const res = await saveFields(keys);
      expect(res.status, JSON.stringify(keys)).toBe(400);
      expect(res.body.data.fieldErrors[key]).toEqual([message]);
    }
    expect((await version()).uniqueKeys).toEqual([]);
  });

  it('refuse to be added while records break them, naming the duplicated values', async () => {
    const dup = code('91140100MA0DUP001');
    expect((await save({ qymc: '重复甲', tyshxydm: dup })).status).toBe(200);
    expect((await save({ qymc: '重复乙', tyshxydm: dup })).status).toBe(200);
    const res = await saveFields([{ fields: ['tyshxydm'] }]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`已有记录的「统一社会信用代码」重复（${dup}：2 条），不能设为唯一，请先处理这些记录`);
    expect(res.body.data.fieldErrors['uniqueKeys.0.fields']).toEqual([res.body.message]);
    expect(await indexes('n_xygl_xyjl')).toEqual([]);
    expect((await version()).uniqueKeys).toEqual([]);
    // once the records are put right, the key can be declared
    await t.database.db.execute(sql`update "n_xygl_xyjl" set "f_tyshxydm" = null where "f_qymc" = '重复乙'`);
    const ok = await saveFields([{ fields: ['tyshxydm'] }]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.uniqueKeys).toEqual([{ fields: ['tyshxydm'], withinEnterprise: false }]);
    const [ix] = await indexes('n_xygl_xyjl');
    expect(ix?.name).toBe(uniqueIndexName(NODE, { fields: ['tyshxydm'] }));
    expect(ix?.def).toMatch(/^CREATE UNIQUE INDEX .* \(+md5\(f_tyshxydm\)\)::uuid\)+$/);
    // and a save of the fields without uniqueKeys keeps it
    expect((await saveFields(undefined)).status).toBe(200);
    expect((await version()).uniqueKeys).toEqual([{ fields: ['tyshxydm'], withinEnterprise: false }]);
    // a field of a key cannot leave the list while the key names it
    const gone = await saveFields(
      undefined,
      FIELDS.filter((f) => f.code !== 'tyshxydm'),
    );
    expect(gone.status).toBe(400);
    expect(gone.body.data.fieldErrors['uniqueKeys.0.fields']).toEqual(['唯一约束的字段不存在：tyshxydm']);
  });

  it('hold under 20 concurrent saves of the same value: one succeeds, 19 are told which field', async () => {
    const value = code('91140100MA0RACE01');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => save({ qymc: `并发企业${i}`, tyshxydm: value })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(19);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.message).toBe('「统一社会信用代码」已存在');
      expect(r.body.data.fieldErrors).toEqual({ 'values.tyshxydm': ['「统一社会信用代码」已存在'] });
    }
    const [n] = (
      (await t.database.db.execute(
        sql`select count(*)::int as "n" from "n_xygl_xyjl" where "f_tyshxydm" = ${value}`,
      )) as unknown as { rows: { n: number }[] }
    ).rows;
    expect(n?.n).toBe(1);
    // an edit to a value another record holds is refused the same way; empty values are never compared
    const other = await save({ qymc: '另一企业' });
    expect((await save({ qymc: '又一企业' })).status).toBe(200);
    const edit = await save({ qymc: '另一企业', tyshxydm: value }, user, {
      id: other.body.data.id,
      version: other.body.data.version,
    });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe('「统一社会信用代码」已存在');
  });

  it('a key of several fields within the enterprise: compared per enterprise (or per person without one)', async () => {
    const res = await saveFields([{ fields: ['qymc', 'nd'], withinEnterprise: true }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // the earlier key went with its index
    const [ix] = await indexes('n_xygl_xyjl');
    expect(ix?.def).toContain('COALESCE(enterprise_id, owner_id)');
    expect((await save({ qymc: '年度企业', nd: 2025 })).status).toBe(200);
    expect((await save({ qymc: '年度企业', nd: 2026 })).status).toBe(200);
    const again = await save({ qymc: '年度企业', nd: 2025 });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('本企业已有「企业名称」「年度」的组合相同的记录');
    // the administrator has no enterprise: their records are compared among their own
    const byAdmin = await save({ qymc: '年度企业', nd: 2025 }, admin);
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
  });

  it('the demo seed: 从业人员登记 registers an 身份证号 once per enterprise', async () => {
    const person = {
      xm: '唯一测试',
      xb: '男',
      sfzh: `14010519850101002${idNumberCheckChar('14010519850101002')}`,
      lxdh: '13900139001',
      szdq: '山西省/太原市/小店区',
      ssqy: '示例建设工程有限公司',
      xl: '本科',
      gznx: 5,
      rzrq: '2019-05-06',
    };
    const first = await call(user, '/ks/engine/v1/records/save', { gnCoding: 'XYGL_CYRY', values: person });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await call(user, '/ks/engine/v1/records/save', { gnCoding: 'XYGL_CYRY', values: person });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe('本企业已有「身份证号」相同的记录');
  });
});
