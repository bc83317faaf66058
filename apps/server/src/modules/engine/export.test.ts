import { creditCodeCheckChar, EXPORT_MAX_ROWS } from '@ks/contracts';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, users } from '../../db/schema';
import { contentDisposition } from '../../platform/content-disposition';
import { hashPassword } from '../../platform/password';
import { freshIdNumber } from '../../test/fixtures';
import { bearer, createTestApp, ENTERPRISE_DETAILS, json, loginToken, type TestApp } from '../../test/harness';
import { exportFileName } from './export.service';

type Body = { code: number; data: any; message: string };

let t: TestApp;
let admin: string;
let user: string;
let other: string;
const CYRY = 'XYGL_CYRY';
const EXPORT = '/ks/engine/v1/records/export';

const post = (token: string, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload });

async function sheet(token: string, body: object) {
  const res = await post(token, EXPORT, { gnCoding: CYRY, ...body });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { res, ws, rows };
}

const person = (xm: string, extra: object = {}) => ({
  xm,
  xb: '女',
  sfzh: freshIdNumber(),
  lxdh: '13900139001',
  szdq: ['山西省', '太原市', '迎泽区'],
  ssqy: '示例建设工程有限公司',
  xl: '硕士研究生',
  zc: '高级工程师',
  gznx: 12,
  rzrq: '2015-09-01',
  sfbl: '0',
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  const base = '91140100MA0L00005';
  const [ent] = await t.database.db
    .insert(enterprises)
    .values({
      ...ENTERPRISE_DETAILS,
      name: '导出测试另一公司',
      creditCode: `${base}${creditCodeCheckChar(base)}`,
      region: '太原市',
    })
    .returning();
  await t.database.db.insert(users).values({
    account: 'other3',
    userName: '钱另一',
    loginRoleType: 'U',
    passwordHash: await hashPassword('Demo@2026'),
    enterpriseId: ent!.id,
  });
  [admin, user, other] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'other3', 'U'),
  ]);
  for (const [xm, gznx] of [
    ['甲工程师', 3],
    ['乙工程师', 15],
    ['丙工程师', 7],
  ] as const) {
    const res = await post(user, '/ks/engine/v1/records/save', { gnCoding: CYRY, values: person(xm, { gznx }) });
    expect(res.statusCode, res.body).toBe(200);
  }
  const res = await post(other, '/ks/engine/v1/records/save', {
    gnCoding: CYRY,
    values: person('外企工程师', { ssqy: '导出测试另一公司' }),
  });
  expect(res.statusCode).toBe(200);
});
afterAll(async () => t?.close());

describe('file name', () => {
  it('is <节点名>_<yyyyMMddHHmm>.xlsx, sent RFC 5987 style with an ASCII fallback', () => {
    // the time in the platform's zone (Asia/Shanghai), whatever the server's own
    const name = exportFileName('从业人员登记', new Date('2026-11-22T01:05:00Z'));
    expect(name).toBe('从业人员登记_202611220905.xlsx');
    expect(exportFileName('a/b:c"d', new Date('2025-12-31T16:00:00Z'))).toBe('a_b_c_d_202601010000.xlsx');
    const cd = contentDisposition(name);
    expect(cd).toBe(`attachment; filename="_______202611220905.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`);
  });
});

describe('export', () => {
  it('writes the shown columns of the current filter and sort, in the caller’s scope', async () => {
    const { res, ws, rows } = await sheet(user, { search: { xm: '工程师' }, sortField: 'gznx', order: 'desc' });
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const now = t.clock.now;
    const stamp = `${now.getFullYear()}${String(now.getMonth() + 1).padStart(2, '0')}`;
    expect(String(res.headers['content-disposition'])).toContain(
      `filename*=UTF-8''${encodeURIComponent(`从业人员登记_${stamp}`)}`,
    );
    expect(ws.name).toBe('从业人员登记');
    // the node's list columns, without 审核流程 and 操作
    expect(rows[0]).toEqual(['姓名', '所在地区', '所属企业', '职称', '从业年限', '入职日期', '状态']);
    expect(rows.slice(1)).toEqual([
      ['乙工程师', '山西省/太原市/迎泽区', '示例建设工程有限公司', '高级工程师', 15, '2015-09-01', '草稿'],
      ['丙工程师', '山西省/太原市/迎泽区', '示例建设工程有限公司', '高级工程师', 7, '2015-09-01', '草稿'],
      ['甲工程师', '山西省/太原市/迎泽区', '示例建设工程有限公司', '高级工程师', 3, '2015-09-01', '草稿'],
    ]);
    // another enterprise exports its own records only
    const theirs = await sheet(other, {});
    expect(theirs.rows.slice(1).map((r) => r[0])).toEqual(['外企工程师']);
    // the administrator sees all (this file's people; the demo has its own), filtered by whereStr
    const all = await sheet(admin, {
      search: { xm: '工程师' },
      whereStr: JSON.stringify([{ field: 'gznx', op: 'gte', value: 10 }]),
    });
    expect(
      all.rows
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual(['乙工程师', '外企工程师']);
    const log = (await t.database.db.execute(
      sql`select logbook from operation_logs where gn_coding = ${CYRY} and logbook like '导出%' order by id`,
    )) as unknown as { rows: { logbook: string }[] };
    expect(log.rows.map((r) => r.logbook)).toEqual(['导出记录 3 条', '导出记录 1 条', '导出记录 2 条']);
  });

  it('turns stored option values into their labels (a node without list columns exports every shown field)', async () => {
    const saved = await post(user, '/ks/engine/v1/records/save', {
      gnCoding: 'XYGL_ZYZC',
      values: {
        xm: '标签测试',
        xb: '男',
        sfzh: '140105198801011231',
        lxdh: '13800138000',
        zclb: 'jzs1',
        zy: ['jz', 'sz'],
        sfbg: '1',
        bgyy: '单位变更',
      },
    });
    expect(saved.statusCode).toBe(200);
    const res = await post(admin, EXPORT, { gnCoding: 'XYGL_ZYZC' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const header = rows[0] as string[];
    expect(header.slice(0, 6)).toEqual(['姓名', '性别', '身份证号', '联系电话', '注册类别', '注册专业']);
    expect(header.slice(-2)).toEqual(['状态', '创建时间']);
    const row = rows[1]!;
    expect(row[header.indexOf('注册类别')]).toBe('一级注册建造师');
    expect(row[header.indexOf('注册专业')]).toBe('建筑工程;市政公用工程');
    expect(row[header.indexOf('是否变更注册')]).toBe('是');
    expect(String(row[header.indexOf('创建时间')])).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });

  it('needs the node’s 导出 function (administrators excepted) and keeps the list’s input rules', async () => {
    // 执业注册申请 grants ordinary users no 导出
    const denied = await post(user, EXPORT, { gnCoding: 'XYGL_ZYZC' });
    expect(denied.statusCode).toBe(403);
    expect(json<Body>(denied).code).toBe(403);
    expect((await post(user, EXPORT, { gnCoding: 'KPB_PBJG' })).statusCode).toBe(403);
    expect((await post('', EXPORT, { gnCoding: CYRY })).statusCode).toBe(401);
    for (const bad of [
      { whereStr: "xm = 'x' or 1=1" },
      { whereStr: JSON.stringify({ 'xm; drop table users': 'x' }) },
      { whereStr: JSON.stringify([{ field: 'xm', op: 'regex', value: '.*' }]) },
      { sortField: 'password_hash' },
      { sortField: 'gznx', order: 'sideways' },
      { search: { nosuch: 'x' } },
    ]) {
      const res = await post(user, EXPORT, { gnCoding: CYRY, ...bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(json<Body>(res).code).toBe(400);
    }
  });

  it(`refuses more than ${EXPORT_MAX_ROWS} rows with a 400 that says so, before writing anything`, async () => {
    const [u] = await t.database.db.select().from(users).where(eq(users.account, 'user1'));
    await t.database.db.execute(
      sql`insert into n_xygl_cyry (owner_id, enterprise_id, f_xm) select ${u!.id}, ${u!.enterpriseId}, '批量' || g from generate_series(1, ${EXPORT_MAX_ROWS + 1}) g`,
    );
    const res = await post(user, EXPORT, { gnCoding: CYRY });
    expect(res.statusCode).toBe(400);
    expect(json<Body>(res).message).toBe(`导出的记录超过 ${EXPORT_MAX_ROWS} 条，请缩小筛选范围后再导出`);
    // a narrower filter exports
    const narrow = await sheet(user, { search: { xm: '批量4999' } });
    expect(narrow.rows.length).toBe(1 + 11);
    // more than one batch of 1,000: every row once
    const batches = await sheet(user, { search: { xm: '批量49' } });
    const names = batches.rows.slice(1).map((r) => r[0]);
    expect(names).toHaveLength(1 + 10 + 100 + 1000);
    expect(new Set(names).size).toBe(names.length);
    await t.database.db.execute(sql`delete from n_xygl_cyry where f_xm like '批量%'`);
  }, 120_000);
});
