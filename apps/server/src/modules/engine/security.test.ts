import { creditCodeCheckChar } from '@ks/contracts';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, roles, userRoles, users } from '../../db/schema';
import { hashPassword } from '../../platform/password';
import { freshIdNumber, personValues } from '../../test/fixtures';
import { bearer, createTestApp, ENTERPRISE_DETAILS, json, loginToken, type TestApp } from '../../test/harness';

/**
 * Issue 5, "Done when" (API): configured codes carrying SQL are refused and run no DDL; whereStr and sort are
 * whitelists; another enterprise's record does not leak through any endpoint; of two simultaneous decisions one wins.
 */

type Body = { code: number; data: any; message: string };

let t: TestApp;
let dev: string;
let user: string;
let other: string;
let admin: string;

async function call(token: string, url: string, payload: object, method: 'POST' | 'PUT' = 'POST') {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res), raw: res };
}

/** Every table and column of the database, to prove that nothing changed. */
async function catalogue(): Promise<string[]> {
  const res = (await t.database.db.execute(
    sql`select table_name || '.' || column_name || ':' || data_type as c from information_schema.columns where table_schema = 'public' order by 1`,
  )) as unknown as { rows: { c: string }[] };
  return res.rows.map((r) => r.c);
}

beforeAll(async () => {
  t = await createTestApp();
  const base = '91140100MA0L00007';
  const [ent] = await t.database.db
    .insert(enterprises)
    .values({
      ...ENTERPRISE_DETAILS,
      name: '隔离测试建设有限公司',
      creditCode: `${base}${creditCodeCheckChar(base)}`,
      region: '太原市',
    })
    .returning();
  await t.database.db.insert(users).values({
    account: 'other4',
    userName: '孙另一',
    loginRoleType: 'U',
    passwordHash: await hashPassword('Demo@2026'),
    enterpriseId: ent!.id,
  });
  [dev, user, other, admin] = await Promise.all([
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'other4', 'U'),
    loginToken(t.app, 'admin', 'M'),
  ]);
});
afterAll(async () => t?.close());

describe('configured codes', () => {
  const HOSTILE_FIELD_CODES = [
    'x; drop table users',
    'x;drop table users',
    "a'b",
    'a"b',
    'name--',
    'a b',
    'select',
    'user',
    'table',
    'order',
    'Upper',
    '1abc',
    'a'.repeat(62),
  ];

  it('refuses a field code carrying SQL, quotes or a reserved word — no table or column appears, none goes', async () => {
    const before = await catalogue();
    for (const code of HOSTILE_FIELD_CODES) {
      // 62 characters would pass 63 with the f_ prefix: too long for a column only
      for (const where of code.length > 61 ? (['code'] as const) : (['code', 'parentNode', 'bianma'] as const)) {
        const field =
          where === 'code'
            ? { code, name: '坏字段', type: 'text' }
            : { code: 'ok_field', name: '字段', type: 'text', [where]: code };
        const res = await call(
          dev,
          '/ks/config/node/fields',
          { gnCoding: 'KPB_PBJG', fields: [field], version: 0 },
          'PUT',
        );
        expect(res.status, `${where}: ${code}`).toBe(400);
        expect(res.body.code).toBe(400);
      }
    }
    // the same through the value-range path and in option sources
    expect(
      (await call(dev, '/ks/node/field/value-range', { gnCoding: 'XYGL_CYRY', code: 'x; drop table users', list: [] }))
        .status,
    ).toBe(400);
    const source = await call(
      dev,
      '/ks/config/node/fields',
      {
        gnCoding: 'KPB_PBJG',
        fields: [
          {
            code: 'a',
            name: '字段',
            type: 'select',
            options: {
              list: [],
              type: 'pull-down',
              source: { gnCoding: 'XYGL_ZYZC', labelField: 'xm; drop table users', valueField: 'xm' },
            },
          },
        ],
        version: 0,
      },
      'PUT',
    );
    expect(source.status).toBe(400);
    expect(await catalogue()).toEqual(before);
  });

  it('refuses a node code carrying SQL or quotes when it is created, and a reserved word when it is configured', async () => {
    const before = await catalogue();
    for (const gnCoding of ['x; drop table users', "a'b", 'a"b', 'n--', 'a b']) {
      const res = await call(dev, '/ks/config/new/structure/child-menu', {
        systemCoding: 'CDYY',
        gnCoding,
        title: '坏节点',
        nodeProperties: 'list',
      });
      expect(res.status, gnCoding).toBe(400);
    }
    // a reserved word is a valid menu code, but the engine will not make it a table
    const node = await call(dev, '/ks/config/new/structure/child-menu', {
      systemCoding: 'CDYY',
      gnCoding: 'select',
      title: '保留字节点',
      nodeProperties: 'list',
    });
    expect(node.status).toBe(200);
    const fields = await call(
      dev,
      '/ks/config/node/fields',
      { gnCoding: 'select', fields: [{ code: 'mc', name: '名称', type: 'text' }], version: 0 },
      'PUT',
    );
    expect(fields.status).toBe(400);
    expect(fields.body.data.fieldErrors.gnCoding[0]).toContain('保留字');
    expect(await catalogue()).toEqual(before);
    expect(((await call(dev, '/ks/common/array/fields', { gnCoding: 'select' })).body.data as any).version).toBe(0);
  });
});

describe('record isolation and input whitelists', () => {
  let id: string;
  let version: number;

  const values = personValues('隔离记录');

  beforeAll(async () => {
    const saved = await call(user, '/ks/engine/v1/records/save', { gnCoding: 'XYGL_CYRY', values });
    expect(saved.status).toBe(200);
    ({ id, version } = saved.body.data);
  });

  it('answers another enterprise as if the record did not exist, on every endpoint', async () => {
    const ref = { gnCoding: 'XYGL_CYRY', id };
    expect((await call(other, '/ks/engine/v1/records/detail', ref)).status).toBe(404);
    expect((await call(other, '/ks/engine/v1/records/logs', ref)).status).toBe(404);
    expect((await call(other, '/ks/info/v1/form/details', { ...ref, systemCoding: 'XYGL' })).status).toBe(404);
    expect((await call(other, '/ks/engine/v1/records/submit', { ...ref, version })).status).toBe(404);
    expect((await call(other, '/ks/engine/v1/records/revoke', { ...ref, version })).status).toBe(404);
    expect((await call(other, '/ks/engine/v1/records/delete', ref)).status).toBe(404);
    // a valid edit (its enterprise is 太原市 too) still finds no record
    const edit = await call(other, '/ks/engine/v1/records/save', {
      ...ref,
      version,
      values: { ...values, xm: '篡改', ssqy: '隔离测试建设有限公司' },
    });
    expect(edit.status).toBe(404);
    const list = await call(other, '/ks/engine/v1/records/list', { gnCoding: 'XYGL_CYRY' });
    expect(list.body.data.records.map((r: any) => r.id)).not.toContain(id);
    // its export holds only its own records
    const exp = await t.app.inject({
      method: 'POST',
      url: '/ks/engine/v1/records/export',
      headers: bearer(other),
      payload: { gnCoding: 'XYGL_CYRY' },
    });
    expect(exp.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(exp.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.rowCount).toBe(1);
    // the record is untouched
    const mine = await call(user, '/ks/engine/v1/records/detail', ref);
    expect(mine.body.data).toMatchObject({ status: 'draft', version });
    expect(mine.body.data.values.xm).toBe('隔离记录');
  });

  it('parses whereStr into known fields and operators and sorts on known columns only, everywhere', async () => {
    const hostile = [
      { whereStr: "xm = 'x' or 1=1" },
      { whereStr: '1; drop table users; --' },
      { whereStr: JSON.stringify({ 'xm; drop table users': 'x' }) },
      { whereStr: JSON.stringify({ password_hash: 'x' }) },
      { whereStr: JSON.stringify([{ field: 'xm', op: 'or 1=1 --', value: 'x' }]) },
      { whereStr: JSON.stringify([{ field: 'xm', op: 'regex', value: '.*' }]) },
      { whereStr: JSON.stringify([{ field: 'gznx', op: 'gt', value: '1 or 1=1' }]) },
      { sortField: 'password_hash' },
      { sortField: 'xm; drop table users' },
      { sortField: '(select 1)' },
      { sortField: 'xm', order: 'asc; drop table users' },
    ];
    for (const url of ['/ks/engine/v1/records/list', '/ks/engine/v1/records/export']) {
      for (const bad of hostile) {
        const res = await call(admin, url, { gnCoding: 'XYGL_CYRY', ...bad });
        expect(res.status, `${url} ${JSON.stringify(bad)}`).toBe(400);
        expect(res.body.code).toBe(400);
      }
    }
    expect((await t.database.db.select().from(users)).length).toBeGreaterThan(0);
  });
});

describe('simultaneous decisions', () => {
  it('of two pass/reject calls on 从业人员登记, exactly one wins and the other gets 409', async () => {
    // a 审核员 (level 1 of 从业人员登记) sending both decisions at once
    const [auditor] = await t.database.db.select().from(roles).where(eq(roles.code, 'auditor'));
    const [u] = await t.database.db
      .insert(users)
      .values({
        account: 'aud9',
        userName: '审核员九',
        loginRoleType: 'U',
        passwordHash: await hashPassword('Demo@2026'),
      })
      .returning();
    await t.database.db.insert(userRoles).values({ userId: u!.id, roleId: auditor!.id });
    const reviewer = await loginToken(t.app, 'aud9', 'U');
    for (const round of [1, 2, 3]) {
      const saved = await call(user, '/ks/engine/v1/records/save', {
        gnCoding: 'XYGL_CYRY',
        values: {
          xm: `并发${round}`,
          xb: '女',
          sfzh: freshIdNumber(),
          lxdh: '13900139000',
          szdq: '山西省/太原市',
          ssqy: '示例建设工程有限公司',
          xl: '大专',
          gznx: 2,
          rzrq: '2022-01-04',
        },
      });
      const sub = await call(user, '/ks/engine/v1/records/submit', {
        gnCoding: 'XYGL_CYRY',
        id: saved.body.data.id,
        version: saved.body.data.version,
      });
      const step = (pass: boolean) =>
        call(reviewer, '/ks/engine/v1/records/audit', {
          gnCoding: 'XYGL_CYRY',
          id: sub.body.data.id,
          version: sub.body.data.version,
          pass,
          suggestion: pass ? '' : '资料不全',
        });
      const results = await Promise.all([step(true), step(false)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const d = (await call(reviewer, '/ks/engine/v1/records/detail', { gnCoding: 'XYGL_CYRY', id: sub.body.data.id }))
        .body.data;
      expect(d.auditFlow.filter((s: any) => s.action !== 'submit')).toHaveLength(1);
    }
  });
});
