import { creditCodeCheckChar, MESSAGES } from '@ks/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, menuNodes, users } from '../../db/schema';
import { hashPassword } from '../../platform/password';
import { freshIdNumber } from '../../test/fixtures';
import { bearer, createTestApp, ENTERPRISE_DETAILS, json, loginToken, type TestApp } from '../../test/harness';

type Body = { code: number; data: any; message: string };

let t: TestApp;
let dev: string;
let admin: string;
let user: string;
let other: string;
let userEnt: string;
let otherEnt: string;

const CYRY = 'XYGL_CYRY';
/** A node the tests configure with fields of their own. */
const TEST_NODE = 'ZBTB_TBWJ';

async function call(token: string, url: string, payload: object, method: 'POST' | 'PUT' = 'POST') {
  const res = await t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
  return { status: res.statusCode, body: json<Body>(res) };
}
const pullDown = (token: string, body: object) =>
  call(token, '/ks/common/pull-down', { gnCoding: CYRY, systemCoding: 'XYGL', ...body });
const dic = (token: string, body: object) =>
  call(token, '/ks/base/dictionary/config/dic/pull-down', { gnCoding: CYRY, systemCoding: 'XYGL', ...body });
const saveFields = (fields: object[], version: number, gnCoding = TEST_NODE) =>
  call(dev, '/ks/config/node/fields', { gnCoding, fields, version }, 'PUT');
const rows = async <T = Record<string, unknown>>(q: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;
const labels = (list: any[]) => list.map((o) => o.label);

/** A valid 从业人员登记 record of user1 (示例建设工程有限公司, 太原市). */
const person = (extra: object = {}) => ({
  xm: '李工',
  xb: '男',
  sfzh: freshIdNumber(),
  lxdh: '13900139000',
  szdq: '山西省/太原市/小店区',
  ssqy: '示例建设工程有限公司',
  qyzz: '施工总承包资质/建筑工程施工总承包/建筑工程施工总承包二级',
  xl: '本科',
  zc: '工程师',
  zyzg: ['jzs2', 'aqs'],
  gwzs: ['施工员', '安全员'],
  zyzy: ['jz'],
  gznx: 8,
  rzrq: '2018-07-01',
  sfbl: '0',
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const base = '91140200MA0L00004';
  const [ent] = await db
    .insert(enterprises)
    .values({
      ...ENTERPRISE_DETAILS,
      name: '大同市另一建设有限公司',
      creditCode: `${base}${creditCodeCheckChar(base)}`,
      region: '大同市',
    })
    .returning();
  otherEnt = ent!.id;
  await db.insert(users).values({
    account: 'other2',
    userName: '赵另一',
    loginRoleType: 'U',
    passwordHash: await hashPassword('Demo@2026'),
    enterpriseId: ent!.id,
  });
  const [u1] = await db.select().from(users).where(eq(users.account, 'user1'));
  userEnt = u1!.enterpriseId!;
  [dev, admin, user, other] = await Promise.all([
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'other2', 'U'),
  ]);
});
afterAll(async () => t?.close());

describe('dictionaries (dic pull-down)', () => {
  it('answers a field’s dictionary as a tree: 山西省 → 11 cities → counties', async () => {
    const res = await dic(user, { displayCode: 'szdq' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ labelKey: 'label', valueKey: 'value' });
    const [sx] = res.body.data.list;
    expect(sx.label).toBe('山西省');
    expect(labels(sx.children)).toEqual([
      '太原市',
      '大同市',
      '阳泉市',
      '长治市',
      '晋城市',
      '朔州市',
      '晋中市',
      '运城市',
      '忻州市',
      '临汾市',
      '吕梁市',
    ]);
    expect(sx.children.map((c: any) => c.children.length).reduce((a: number, b: number) => a + b, 0)).toBe(117);
    expect(labels(sx.children[0].children)).toContain('小店区');
    // both 阳泉 and 晋城 have a 城区: each under its own city
    expect(labels(sx.children[2].children)).toContain('城区');
    expect(labels(sx.children[4].children)).toContain('城区');
  });

  it('filters by key, keeping the path to each hit', async () => {
    const res = await dic(user, { displayCode: 'szdq', key: '小店' });
    expect(res.body.data.list).toEqual([
      {
        label: '山西省',
        value: '山西省',
        children: [{ label: '太原市', value: '太原市', children: [{ label: '小店区', value: '小店区' }] }],
      },
    ]);
    expect((await dic(user, { displayCode: 'szdq', key: '不存在的地名' })).body.data.list).toEqual([]);
  });

  it('serves a dependent dictionary select: the items under the parent’s value; no parent value is 请先输入…', async () => {
    const fields = [
      { code: 'sf', name: '省份', type: 'select', titleCoding: 'REGION_SX', options: { list: [], type: 'dic' } },
      {
        code: 'cs',
        name: '城市',
        type: 'select',
        parentNode: 'sf',
        groupNumber: 'cs_x',
        titleCoding: 'REGION_SX',
        options: { list: [], type: 'dic' },
      },
      { code: 'bz', name: '备注', type: 'text' },
    ];
    expect((await saveFields(fields, 0)).status).toBe(200);
    const ask = (body: object) =>
      call(user, '/ks/base/dictionary/config/dic/pull-down', {
        gnCoding: TEST_NODE,
        systemCoding: 'ZBTB',
        displayCode: 'cs',
        ...body,
      });
    const cities = await ask({ whereStr: JSON.stringify({ sf: '山西省' }) });
    expect(cities.status).toBe(200);
    expect(cities.body.data.list).toHaveLength(11);
    expect(cities.body.data.list[0]).toMatchObject({ label: '太原市', value: '太原市' });
    const blocked = await ask({});
    expect(blocked.status).toBe(400);
    expect(blocked.body.message).toBe(MESSAGES.parentFirst);
    // whereStr is parsed against the node's fields: SQL, unknown fields, non-parents and other operators are a 400
    for (const whereStr of [
      "sf = '山西省' or 1=1",
      JSON.stringify({ 'sf; drop table users': 'x' }),
      JSON.stringify({ nosuch: 'x' }),
      JSON.stringify({ bz: 'x' }),
      JSON.stringify([{ field: 'sf', op: 'like', value: '山' }]),
      JSON.stringify([{ field: 'sf', op: 'regex', value: '.*' }]),
      JSON.stringify({ sf: { $ne: null } }),
    ]) {
      const res = await ask({ whereStr });
      expect(res.status, whereStr).toBe(400);
      expect(res.body.code).toBe(400);
    }
    expect((await rows(sql`select count(*)::int as n from users`))[0]).toMatchObject({ n: expect.any(Number) });
  });

  it('refuses a field that is not of the node or not of that source, a wrong system, strangers and anonymous', async () => {
    const unknown = await dic(user, { displayCode: 'nosuch' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.fieldErrors.displayCode).toEqual(['节点没有字段：nosuch']);
    const wrongSource = await dic(user, { displayCode: 'ssqy' });
    expect(wrongSource.status).toBe(400);
    expect(wrongSource.body.data.fieldErrors.displayCode[0]).toContain('不来自字典');
    expect((await dic(user, { displayCode: 'szdq', systemCoding: 'ZBTB' })).status).toBe(400);
    // KPB_PBJG is not granted to ordinary users: unknown and hidden nodes answer alike
    expect((await dic(user, { gnCoding: 'KPB_PBJG', displayCode: 'x' })).status).toBe(403);
    expect((await dic(user, { gnCoding: 'NO_SUCH_NODE', displayCode: 'x' })).status).toBe(403);
    expect((await dic('', { displayCode: 'szdq' })).status).toBe(401);
    expect((await dic(user, { displayCode: 'szdq', key: 'x'.repeat(101) })).status).toBe(400);
  });
});

describe('qualification tree (cert cascade)', () => {
  it('answers 资质类别 → 资质 → 等级 for a cert field, and 400 for another field', async () => {
    const res = await call(user, '/ks/common/cert-cascade', {
      gnCoding: CYRY,
      systemCoding: 'XYGL',
      displayCode: 'qyzz',
    });
    expect(res.status).toBe(200);
    const tree = res.body.data as any[];
    expect(labels(tree)).toEqual([
      '施工总承包资质',
      '专业承包资质',
      '施工劳务资质',
      '工程监理资质',
      '工程造价咨询资质',
    ]);
    const general = tree[0].children;
    expect(general).toHaveLength(12);
    expect(labels(general)).toEqual(
      expect.arrayContaining(['建筑工程施工总承包', '市政公用工程施工总承包', '公路工程施工总承包']),
    );
    expect(general[0].children).toEqual([
      { label: '特级', value: '建筑工程施工总承包特级' },
      { label: '一级', value: '建筑工程施工总承包一级' },
      { label: '二级', value: '建筑工程施工总承包二级' },
      { label: '三级', value: '建筑工程施工总承包三级' },
    ]);
    expect(labels(tree[3].children[1].children)).toEqual(['甲级', '乙级', '丙级']);
    expect(labels(tree[4].children[0].children)).toEqual(['甲级', '乙级']);
    const wrong = await call(user, '/ks/common/cert-cascade', {
      gnCoding: CYRY,
      systemCoding: 'XYGL',
      displayCode: 'szdq',
    });
    expect(wrong.status).toBe(400);
    expect(
      (await call(user, '/ks/common/cert-cascade', { gnCoding: 'KPB_PBJG', systemCoding: 'KPB', displayCode: 'x' }))
        .status,
    ).toBe(403);
  });
});

describe('pull-down sources', () => {
  it('offers the enterprises of the chosen region (dependent select) and needs the region first', async () => {
    const res = await pullDown(admin, {
      displayCode: 'ssqy',
      whereStr: JSON.stringify({ szdq: '山西省/太原市/小店区' }),
    });
    expect(res.status).toBe(200);
    const names = labels(res.body.data.list);
    expect(names).toContain('示例建设工程有限公司');
    expect(names).not.toContain('大同市另一建设有限公司');
    const expected = await rows<{ name: string }>(
      sql`select name from enterprises where region in ('山西省', '太原市', '小店区') order by name`,
    );
    expect([...names].sort()).toEqual(expected.map((r) => r.name).sort());
    // the web sends an array value joined with ';'
    const datong = await pullDown(admin, { displayCode: 'ssqy', whereStr: JSON.stringify({ szdq: '山西省;大同市' }) });
    expect(labels(datong.body.data.list)).toContain('大同市另一建设有限公司');
    expect(labels(datong.body.data.list)).not.toContain('示例建设工程有限公司');
    const blocked = await pullDown(user, { displayCode: 'ssqy' });
    expect(blocked.status).toBe(400);
    expect(blocked.body.message).toBe(MESSAGES.parentFirst);
  });

  it('narrows by key (LIKE wildcards taken literally) and refuses hostile whereStr', async () => {
    const where = JSON.stringify({ szdq: '山西省/太原市' });
    const hit = await pullDown(admin, { displayCode: 'ssqy', whereStr: where, key: '示例' });
    expect(labels(hit.body.data.list)).toEqual(['示例建设工程有限公司']);
    expect((await pullDown(admin, { displayCode: 'ssqy', whereStr: where, key: '%' })).body.data.list).toEqual([]);
    for (const whereStr of [
      '{"szdq": "太原市"}; drop table enterprises; --',
      JSON.stringify({ 'szdq" or 1=1 --': 'x' }),
      JSON.stringify({ xm: '张三' }),
      JSON.stringify([{ field: 'szdq', op: 'ne', value: 'x' }]),
    ]) {
      expect((await pullDown(user, { displayCode: 'ssqy', whereStr })).status, whereStr).toBe(400);
    }
    expect((await rows(sql`select count(*)::int as n from enterprises`))[0]!.n).toBeGreaterThan(30);
  });

  it('offers another node’s approved records the caller may see, nobody else’s', async () => {
    // 执业注册申请 records: two of user1's enterprise (one passed, one draft), one passed of the other enterprise
    const [owner] = await rows<{ id: string }>(sql`select id from users where account = 'user1'`);
    const [stranger] = await rows<{ id: string }>(sql`select id from users where account = 'other2'`);
    const insert = (ownerId: string, ent: string, xm: string, zsbh: string, status: string) =>
      t.database.db.execute(
        sql`insert into n_xygl_zyzc (owner_id, enterprise_id, status, f_xm, f_zsbh) values (${ownerId}, ${ent}, ${status}, ${xm}, ${zsbh})`,
      );
    await insert(owner!.id, userEnt, '王建造', '晋114000001', 'passed');
    await insert(owner!.id, userEnt, '草稿人', '晋114000002', 'draft');
    await insert(stranger!.id, otherEnt, '外企人', '晋114000003', 'passed');
    const fields = [
      {
        code: 'zcry',
        name: '注册人员',
        type: 'select',
        options: {
          list: [],
          type: 'pull-down',
          source: { gnCoding: 'XYGL_ZYZC', labelField: 'xm', valueField: 'zsbh' },
        },
      },
    ];
    expect((await saveFields(fields, 1)).status).toBe(200);
    const ask = (token: string) =>
      call(token, '/ks/common/pull-down', { gnCoding: TEST_NODE, systemCoding: 'ZBTB', displayCode: 'zcry' });
    // the demo's passed applications of user1's enterprise are offered too (its drafts and rejected ones are not)
    const demo = await rows<{ label: string; value: string }>(
      sql`select f_xm as label, f_zsbh as value from n_xygl_zyzc
          where enterprise_id = ${userEnt} and status = 'passed' and f_xm <> '王建造'`,
    );
    expect(demo.length).toBe(2);
    const byLabel = (list: { label: string }[]) => [...list].sort((a, b) => a.label.localeCompare(b.label));
    expect(byLabel((await ask(user)).body.data.list)).toEqual(
      byLabel([{ label: '王建造', value: '晋114000001' }, ...demo]),
    );
    expect((await ask(other)).body.data.list).toEqual([{ label: '外企人', value: '晋114000003' }]);
    expect(labels((await ask(admin)).body.data.list).sort()).toEqual(
      ['外企人', '王建造', ...demo.map((d) => d.label)].sort(),
    );
    // a saved value must be one the source offers to this caller
    const save = (token: string, zcry: string) =>
      call(token, '/ks/engine/v1/records/save', { gnCoding: TEST_NODE, values: { zcry } });
    expect((await save(user, '晋114000001')).status).toBe(200);
    const stolen = await save(user, '晋114000003');
    expect(stolen.status).toBe(400);
    expect(stolen.body.data.fieldErrors['values.zcry']).toEqual(['注册人员的值不在可选范围内']);
    expect((await save(user, '晋114000002')).status).toBe(400);
  });
});

describe('developers’ option sources', () => {
  it('are checked when fields are saved, and a refused list runs no DDL', async () => {
    const NODE = 'KPB_PBJG';
    const bad = async (field: object, key: string) => {
      const res = await saveFields([{ code: 'a', name: '字段', ...field }], 0, NODE);
      expect(res.status, JSON.stringify(field)).toBe(400);
      expect(Object.keys(res.body.data.fieldErrors), JSON.stringify(field)).toContain(key);
    };
    await bad(
      { type: 'select', titleCoding: 'NO_SUCH_DIC', options: { list: [], type: 'dic' } },
      'fields.0.titleCoding',
    );
    await bad({ type: 'select', options: { list: [], type: 'dic' } }, 'fields.0.titleCoding');
    await bad({ type: 'text', titleCoding: 'REGION_SX', options: { list: [], type: 'dic' } }, 'fields.0.options.type');
    await bad({ type: 'select', options: { list: [], type: 'sql' } }, 'fields.0.options.type');
    await bad({ type: 'select', options: { list: [], type: 'pull-down' } }, 'fields.0.options.source');
    await bad(
      {
        type: 'select',
        options: { list: [], type: 'pull-down', source: { gnCoding: 'NO_NODE', labelField: 'a', valueField: 'a' } },
      },
      'fields.0.options.source.gnCoding',
    );
    await bad(
      {
        type: 'select',
        options: {
          list: [],
          type: 'pull-down',
          source: { gnCoding: 'XYGL_ZYZC', labelField: 'password_hash', valueField: 'xm' },
        },
      },
      'fields.0.options.source.labelField',
    );
    await bad(
      {
        type: 'select',
        options: {
          list: [],
          type: 'pull-down',
          source: { name: 'users', labelField: 'account', valueField: 'account' },
        },
      },
      'fields.0.options.source.name',
    );
    await bad(
      {
        type: 'select',
        options: {
          list: [],
          type: 'pull-down',
          source: { name: 'enterprises', labelField: 'name', valueField: 'name', gnCoding: 'XYGL_ZYZC' },
        },
      },
      'fields.0.options.source.gnCoding',
    );
    await bad(
      {
        type: 'select',
        options: {
          list: [],
          type: 'pull-down',
          source: { name: 'enterprises', labelField: 'name', valueField: 'name', parents: { b: 'region' } },
        },
      },
      'fields.0.options.source.parents',
    );
    const node = await t.database.db.select().from(menuNodes).where(eq(menuNodes.gnCoding, NODE));
    expect(node[0]!.fieldsVersion).toBe(0);
    expect((await rows(sql`select to_regclass('n_kpb_pbjg') as t`))[0]!.t).toBeNull();
  });
});

describe('record values from sources', () => {
  it('checks dictionary, qualification and dependent pull-down values on save', async () => {
    const save = (values: object) => call(user, '/ks/engine/v1/records/save', { gnCoding: CYRY, values });
    const bad = await save(
      person({
        szdq: '山西省/太原市/不存在区',
        qyzz: '施工总承包资质/建筑工程施工总承包/建筑工程施工总承包五级',
        zc: '院士',
        zyzg: ['jzs1', 'nope'],
        // an enterprise of 大同 while the region is 太原
        ssqy: '大同市另一建设有限公司',
      }),
    );
    expect(bad.status).toBe(400);
    const errs = bad.body.data.fieldErrors;
    for (const code of ['szdq', 'qyzz', 'zc', 'zyzg']) expect(errs[`values.${code}`], code).toBeDefined();
    // an ordinary user's record names their own enterprise only (issue 11)
    const wrongEnterprise = await save(person({ ssqy: '大同市另一建设有限公司' }));
    expect(wrongEnterprise.status).toBe(400);
    expect(wrongEnterprise.body.data.fieldErrors).toEqual({
      'values.ssqy': ['所属企业只能填写本企业（示例建设工程有限公司）'],
    });
    const missing = await save(person({ sfbl: '1' }));
    expect(missing.body.data.fieldErrors['values.blxw']).toBeDefined();
    const ok = await save(person());
    expect(ok.status).toBe(200);
    expect(ok.body.data.values).toMatchObject({
      szdq: '山西省/太原市/小店区',
      ssqy: '示例建设工程有限公司',
      zyzg: 'jzs2;aqs',
      gwzs: '施工员;安全员',
      gznx: 8,
    });
  });
});

describe('filter definitions', () => {
  it('gives the filter card’s groups: single-valued option fields with their options', async () => {
    const res = await call(user, '/ks/array/filter/directory/filter-fields', { gnCoding: CYRY, systemCoding: 'XYGL' });
    expect(res.status).toBe(200);
    expect(res.body.data.displayCode).toBe(CYRY);
    const groups = res.body.data.displayList as any[];
    expect(groups.map((g) => g.code)).toEqual(['xb', 'xl', 'zc', 'sfbl']);
    expect(groups[0]).toEqual({
      name: '性别',
      code: 'xb',
      type: 'sex',
      dataList: [
        { label: '男', value: '男' },
        { label: '女', value: '女' },
      ],
    });
    expect(labels(groups[1].dataList)).toEqual(['中专及以下', '大专', '本科', '硕士研究生', '博士研究生']);
    expect(groups[3].dataList).toEqual([
      { label: '是', value: '1' },
      { label: '否', value: '0' },
    ]);
  });

  it('gives the header filters of the searchable columns, or one field’s group; unknown fields are a 400', async () => {
    const header = await call(user, '/ks/array/filter/directory/filter-fields', {
      gnCoding: CYRY,
      systemCoding: 'XYGL',
      headerFilter: true,
    });
    expect(header.body.data.displayList.map((g: any) => [g.code, g.type, g.dataList.length])).toEqual([
      ['xm', 'text', 0],
      ['ssqy', 'filter-select', 0],
    ]);
    const one = await call(user, '/ks/array/filter/directory/filter-fields', {
      gnCoding: CYRY,
      systemCoding: 'XYGL',
      displayCode: 'qyzz',
    });
    expect(one.body.data.displayCode).toBe('qyzz');
    expect(one.body.data.displayList).toHaveLength(1);
    expect(one.body.data.displayList[0].dataList).toHaveLength(5);
    const unknown = await call(user, '/ks/array/filter/directory/filter-fields', {
      gnCoding: CYRY,
      systemCoding: 'XYGL',
      displayCode: 'password_hash',
    });
    expect(unknown.status).toBe(400);
    expect(
      (await call(user, '/ks/array/filter/directory/filter-fields', { gnCoding: 'KPB_PBJG', systemCoding: 'KPB' }))
        .status,
    ).toBe(403);
  });
});

describe('form details', () => {
  it('gives a new record’s form with defaults to a caller who may add, and 403 otherwise', async () => {
    const res = await call(user, '/ks/info/v1/form/details', { gnCoding: CYRY, systemCoding: 'XYGL' });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.version).toBeNull();
    expect(d.status).toBeNull();
    expect(d.fields.map((f: any) => f.code)).toContain('ssqy');
    expect(d.fields.find((f: any) => f.code === 'ssqy').options.source).toMatchObject({ name: 'enterprises' });
    expect(d.values).toMatchObject({ xm: null, sfbl: '0', szdq: null });
    // developers see any form; 执业注册申请 grants users 新增, 信用等级公示 does not
    expect((await call(dev, '/ks/info/v1/form/details', { gnCoding: 'XYGL_ZYZC', systemCoding: 'XYGL' })).status).toBe(
      200,
    );
    expect((await call(user, '/ks/info/v1/form/details', { gnCoding: 'XYGL_ZYZC', systemCoding: 'XYGL' })).status).toBe(
      200,
    );
    expect((await call(user, '/ks/info/v1/form/details', { gnCoding: 'XYGL_XYDJ', systemCoding: 'XYGL' })).status).toBe(
      403,
    );
  });

  it('gives an existing record’s values and version to those who may see it; another enterprise gets 404', async () => {
    const saved = await call(user, '/ks/engine/v1/records/save', {
      gnCoding: CYRY,
      values: person({ xm: '表单详情', rzrq: '2020-03-01' }),
    });
    const id = saved.body.data.id;
    const res = await call(user, '/ks/info/v1/form/details', { gnCoding: CYRY, systemCoding: 'XYGL', id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ version: 1, status: 'draft' });
    expect(res.body.data.values).toMatchObject({ xm: '表单详情', szdq: '山西省/太原市/小店区', gznx: 8 });
    expect(res.body.data.values.rzrq).toBe('2020-03-01');
    expect((await call(other, '/ks/info/v1/form/details', { gnCoding: CYRY, systemCoding: 'XYGL', id })).status).toBe(
      404,
    );
    expect(
      (await call(user, '/ks/info/v1/form/details', { gnCoding: CYRY, systemCoding: 'XYGL', id: 'not-a-uuid' })).status,
    ).toBe(400);
  });
});

describe('value range', () => {
  it('saves an inline option list through the versioned field save (developers only)', async () => {
    const before = (await call(dev, '/ks/common/array/fields', { gnCoding: CYRY })).body.data;
    const list = [
      { label: '施工员', value: '施工员' },
      { label: '安全员', value: '安全员' },
      { label: '造价员', value: '造价员' },
    ];
    expect((await call(user, '/ks/node/field/value-range', { gnCoding: CYRY, code: 'gwzs', list })).status).toBe(403);
    const res = await call(dev, '/ks/node/field/value-range', { gnCoding: CYRY, code: 'gwzs', list });
    expect(res.status).toBe(200);
    expect(res.body.data.version).toBe(before.version + 1);
    expect(res.body.data.fields.find((f: any) => f.code === 'gwzs').options.list).toEqual(list);
    // the new range is what records are checked against
    const save = (gwzs: string[]) =>
      call(user, '/ks/engine/v1/records/save', { gnCoding: CYRY, values: person({ gwzs }) });
    expect((await save(['造价员'])).status).toBe(200);
    expect((await save(['质量员'])).status).toBe(400);
    const logs = await rows<{ logbook: string }>(
      sql`select logbook from operation_logs where gn_coding = ${CYRY} and logbook like '保存字段%' order by id desc limit 1`,
    );
    expect(logs[0]!.logbook).toContain(`第 ${before.version + 1} 版`);
  });

  it('refuses unknown fields, fields of other sources, non-option fields and bad lists', async () => {
    const send = (code: string, list: object[]) =>
      call(dev, '/ks/node/field/value-range', { gnCoding: CYRY, code, list });
    expect((await send('nosuch', [])).status).toBe(400);
    expect((await send('zc', [{ label: 'x', value: 'x' }])).body.data.fieldErrors.code[0]).toContain('dic');
    expect((await send('xm', [{ label: 'x', value: 'x' }])).status).toBe(400);
    expect((await send('x; drop table users', [])).status).toBe(400);
    expect((await send('gwzs', [{ label: 'x'.repeat(501), value: 'x' }])).status).toBe(400);
    expect((await send('gwzs', [{ label: '施工员', value: { $gt: '' } }])).status).toBe(400);
  });
});
