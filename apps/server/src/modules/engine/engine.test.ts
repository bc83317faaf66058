import { creditCodeCheckChar, fieldListSchema } from '@ks/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, users } from '../../db/schema';
import { hashPassword } from '../../platform/password';
import { DEMO_ENGINE_FIELDS } from '../../seed/engine';
import { bearer, createTestApp, ENTERPRISE_DETAILS, json, loginToken, type TestApp } from '../../test/harness';

type Body = { code: number; data: any; message: string };

let t: TestApp;
let dev: string;
let user: string;
let other: string;

const NODE = 'ZBTB_TBWJ';
const FIELDS = [
  { code: 'qymc', name: '企业名称', type: 'text', required: 1, length: 50 },
  { code: 'tbje', name: '投标金额', type: 'number', required: 1 },
  { code: 'tbrq', name: '投标日期', type: 'date' },
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
  { code: 'bz', name: '备注', type: 'textarea' },
];

async function call(token: string, url: string, payload: object, method: 'POST' | 'PUT' = 'POST') {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res) };
}
const saveFields = (fields: object[], version: number, gnCoding = NODE) =>
  call(dev, '/ks/config/node/fields', { gnCoding, fields, version }, 'PUT');
const tableExists = async (name: string) => {
  const res = (await t.database.db.execute(sql`select to_regclass(${name}) as t`)) as unknown as {
    rows: { t: unknown }[];
  };
  return res.rows[0]?.t !== null;
};

beforeAll(async () => {
  t = await createTestApp();
  // a second enterprise with its own staff account
  const base = '91140100MA0L00002';
  const [ent] = await t.database.db
    .insert(enterprises)
    .values({ ...ENTERPRISE_DETAILS, name: '另一家建设有限公司', creditCode: `${base}${creditCodeCheckChar(base)}` })
    .returning();
  await t.database.db.insert(users).values({
    account: 'other1',
    userName: '王另一',
    loginRoleType: 'U',
    passwordHash: await hashPassword('Demo@2026'),
    enterpriseId: ent!.id,
  });
  [dev, user, other] = await Promise.all([
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'other1', 'U'),
  ]);
});
afterAll(async () => t?.close());

describe('node fields', () => {
  it('refuses a field code carrying SQL, quotes or a reserved word, and runs no DDL', async () => {
    for (const code of ['x; drop table users', 'a"b', "a'b", 'select', 'user', 'Upper', '1abc']) {
      const res = await saveFields([{ code, name: '坏字段', type: 'text' }], 0);
      expect(res.status, code).toBe(400);
    }
    expect(await tableExists('n_zbtb_tbwj')).toBe(false);
    expect((await t.database.db.select().from(users)).length).toBeGreaterThan(0);
    // only developers
    expect(
      (await call(user, '/ks/config/node/fields', { gnCoding: NODE, fields: FIELDS, version: 0 }, 'PUT')).status,
    ).toBe(403);
  });

  it('creates the node table from its fields, records the change, and refuses a stale version or a kind change', async () => {
    const res = await saveFields(FIELDS, 0);
    expect(res.status).toBe(200);
    expect(res.body.data.version).toBe(1);
    expect(await tableExists('n_zbtb_tbwj')).toBe(true);
    expect((await saveFields(FIELDS, 0)).status).toBe(409);
    const changed = FIELDS.map((f) => (f.code === 'tbje' ? { ...f, type: 'text' } : f));
    expect((await saveFields(changed, 1)).status).toBe(409);
    const more = await saveFields([...FIELDS, { code: 'lxr', name: '联系人', type: 'text' }], 1);
    expect(more.body.data.version).toBe(2);
    const read = await call(user, '/ks/common/array/fields', { gnCoding: NODE });
    expect(read.body.data.fields.map((f: any) => f.code)).toEqual(['qymc', 'tbje', 'tbrq', 'bdlx', 'bz', 'lxr']);
  });
});

describe('records', () => {
  let id: string;

  it('validates with the form rules on the server ({name}必填, options) and saves', async () => {
    const bad = await call(user, '/ks/engine/v1/records/save', { gnCoding: NODE, values: { tbje: 0, bdlx: 'xx' } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fieldErrors['values.qymc']).toEqual(['企业名称必填']);
    expect(bad.body.data.fieldErrors['values.bdlx']).toBeDefined();
    const ok = await call(user, '/ks/engine/v1/records/save', {
      gnCoding: NODE,
      values: { qymc: '示例建设工程有限公司', tbje: 1200000, tbrq: '2026-11-20', bdlx: 'sg' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ status: 'draft', version: 1 });
    expect(ok.body.data.values).toMatchObject({ qymc: '示例建设工程有限公司', tbje: 1200000, bdlx: 'sg' });
    expect(ok.body.data.operations.map((o: any) => o.code)).toEqual(['edit', 'detail', 'delete']);
    id = ok.body.data.id;
    await call(user, '/ks/engine/v1/records/save', { gnCoding: NODE, values: { qymc: '第二条 100%_测试', tbje: 5 } });
  });

  it('lists with search, whereStr and a whitelisted sort; anything else is a 400', async () => {
    const list = (body: object) =>
      call(user, '/ks/engine/v1/records/list', { gnCoding: NODE, pageNum: 1, pageSize: 10, ...body });
    expect((await list({})).body.data.total).toBe(2);
    expect((await list({ search: { qymc: '示例', tbrq: '' } })).body.data.records.map((r: any) => r.id)).toEqual([id]);
    expect((await list({ search: { qymc: '100%_' } })).body.data.total).toBe(1);
    expect((await list({ whereStr: JSON.stringify([{ field: 'tbje', op: 'gt', value: 1000 }]) })).body.data.total).toBe(
      1,
    );
    const sorted = await list({ sortField: 'tbje', order: 'asc' });
    expect(sorted.body.data.records.map((r: any) => r.values.tbje)).toEqual([5, 1200000]);
    for (const bad of [
      { whereStr: "qymc = 'x' or 1=1" },
      { whereStr: JSON.stringify({ 'qymc; drop table users': 'x' }) },
      { whereStr: JSON.stringify([{ field: 'qymc', op: 'regex', value: '.*' }]) },
      { sortField: 'password_hash' },
      { sortField: 'tbje; drop table users' },
      { search: { nosuch: 'x' } },
      { pageSize: 15 },
    ]) {
      expect((await list(bad)).status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('keeps another enterprise out: its list is empty, the record is 404 to it, edits and deletes too', async () => {
    expect((await call(other, '/ks/engine/v1/records/list', { gnCoding: NODE })).body.data.total).toBe(0);
    expect((await call(other, '/ks/engine/v1/records/detail', { gnCoding: NODE, id })).status).toBe(404);
    const edit = await call(other, '/ks/engine/v1/records/save', {
      gnCoding: NODE,
      id,
      version: 1,
      values: { qymc: '篡改', tbje: 1 },
    });
    expect(edit.status).toBe(404);
    expect((await call(other, '/ks/engine/v1/records/delete', { gnCoding: NODE, id })).status).toBe(404);
    expect((await call(user, '/ks/engine/v1/records/detail', { gnCoding: NODE, id })).body.data.values.qymc).toBe(
      '示例建设工程有限公司',
    );
  });

  it('edits with the version (stale → 409), refuses functions not granted (403), deletes a draft and logs each step', async () => {
    const edit = (version: number) =>
      call(user, '/ks/engine/v1/records/save', { gnCoding: NODE, id, version, values: { qymc: '改名后', tbje: 3 } });
    expect((await edit(1)).body.data.version).toBe(2);
    expect((await edit(1)).status).toBe(409);
    // the node KPB_PBJG grants nothing to ordinary users
    expect((await call(user, '/ks/engine/v1/records/save', { gnCoding: 'KPB_PBJG', values: {} })).status).toBe(403);
    expect((await call(user, '/ks/engine/v1/records/delete', { gnCoding: NODE, id })).status).toBe(200);
    expect((await call(user, '/ks/engine/v1/records/detail', { gnCoding: NODE, id })).status).toBe(404);
    const logs = (await t.database.db.execute(
      sql`select logbook from operation_logs where gn_coding = ${NODE} and record_id = ${id} order by id`,
    )) as unknown as { rows: { logbook: string }[] };
    expect(logs.rows.map((r) => r.logbook)).toEqual(['新增记录', '修改记录', '删除记录']);
  });
});

describe('demo engine nodes', () => {
  it('are configured through the contracts schema, have their tables, and take a valid record', async () => {
    for (const [code, fields] of Object.entries(DEMO_ENGINE_FIELDS)) {
      expect(fieldListSchema.safeParse(fields).success, code).toBe(true);
      expect(await tableExists(`n_${code.toLowerCase()}`)).toBe(true);
      // read as the developer: not every demo node is granted to ordinary users (项目进场登记 is the centre's)
      const read = await call(dev, '/ks/common/array/fields', { gnCoding: code });
      expect(read.body.data, code).toMatchObject({ version: 1 });
    }
    const bad = await call(user, '/ks/engine/v1/records/save', {
      gnCoding: 'XYGL_ZYZC',
      values: { xm: '张建国', xb: '男', sfzh: '1401', lxdh: '123', zclb: 'jzs1', sfbg: '1' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fieldErrors).toMatchObject({
      'values.sfzh': ['「身份证号」不是有效的身份证号码（应为18位，前17位为数字，末位为数字或X）'],
      'values.lxdh': ['「联系电话」不是有效的手机号码（应为以1开头的11位数字）'],
      'values.bgyy': ['请选择变更原因'],
    });
    const ok = await call(user, '/ks/engine/v1/records/save', {
      gnCoding: 'XYGL_ZYZC',
      values: {
        xm: '张建国',
        xb: '男',
        sfzh: '140105198801011231',
        lxdh: '13800138000',
        zclb: 'jzs1',
        zy: ['jz', 'sz'],
        fzrq: '2024-03-01',
        yxq: '2027-02-28',
        sfbg: '0',
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.values).toMatchObject({ zy: 'jz;sz', sfbg: '0', bgyy: null });
  });
});
