import { Code, companyInfoRequiredMessage, creditCodeCheckChar } from '@ks/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, files, users } from '../../db/schema';
import { client, createTestApp, ENTERPRISE_DETAILS, loginToken, type TestApp } from '../../test/harness';
import { form, PNG } from '../files/testkit';
import { qs } from './testkit';

/**
 * Spec §2 "418 leads to /system/companyInfo?type=1": an enterprise user whose enterprise leaves a required field empty
 * gets 418 from business calls (engine records, uploads) — never from sign-in, user info, menus, the shell, the
 * company-information calls or public routes — until the information is completed.
 */

let t: TestApp;
const { call, get, post } = client(() => t);
let admin: string;
let dev: string;
let user1: string;
let partial: string;
let partialEnterprise: string;

const RECORDS = '/ks/engine/v1/records/list';
const FIELDS = '/ks/common/array/fields';
const UPLOAD = '/ks/common/common/upload/attachment';
const INFO = '/ks/basic/v1/enterprise/info';
const LIST_BODY = { gnCoding: 'XYGL_ZYZC', pageNum: 1, pageSize: 10 };

async function upload(token: string) {
  const f = form({ gnCoding: 'XYGL_ZYZC', systemCoding: 'XYGL' }, [{ name: '营业执照.png', data: PNG() }]);
  const res = await t.app.inject({
    method: 'POST',
    url: UPLOAD,
    headers: { ...f.headers, authorization: `Bearer ${token}` },
    payload: f.payload,
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

beforeAll(async () => {
  t = await createTestApp({ env: { SINGLE_SESSION: '0' } });
  admin = await loginToken(t.app, 'admin', 'M');
  dev = await loginToken(t.app, 'dev', 'D');
  user1 = await loginToken(t.app, 'user1', 'U');
  // a newly registered enterprise: name and credit code only, no address nor region yet
  const db = t.database.db;
  const base = '91140100MA0L00418';
  const { region: _r, address: _a, ...rest } = ENTERPRISE_DETAILS;
  const [ent] = await db
    .insert(enterprises)
    .values({ ...rest, name: '新注册建设有限公司', creditCode: `${base}${creditCodeCheckChar(base)}` })
    .returning();
  partialEnterprise = ent!.id;
  const [u1] = await db.select().from(users).where(eq(users.account, 'user1'));
  await db.insert(users).values({
    account: 'partial1',
    userName: '周新',
    loginRoleType: 'U',
    passwordHash: u1!.passwordHash,
    enterpriseId: partialEnterprise,
  });
  partial = await loginToken(t.app, 'partial1', 'U');
});
afterAll(async () => t?.close());

describe('an enterprise user whose company information is incomplete', () => {
  it('gets 418 from engine record calls, naming what is missing', async () => {
    for (const [url, body] of [
      [RECORDS, LIST_BODY],
      [FIELDS, { gnCoding: 'XYGL_ZYZC', systemCoding: 'XYGL' }],
      ['/ks/engine/v1/records/save', { gnCoding: 'XYGL_ZYZC', values: { xm: '周新' } }],
    ] as const) {
      const r = await post(url, partial, body);
      expect(r.status, url).toBe(418);
      expect(r.body.code).toBe(Code.COMPLETE_COMPANY_INFO);
      expect(r.body.message).toBe(companyInfoRequiredMessage(['region', 'address']));
      expect(r.body.message).toContain('所在地区、注册地址');
      expect(r.body.data).toEqual({ missing: ['region', 'address'] });
    }
  });

  it('gets 418 from uploads, and nothing is stored', async () => {
    const [before] = await t.database.db.select({ n: count() }).from(files);
    const r = await upload(partial);
    expect(r.status).toBe(418);
    expect(r.body.data.missing).toEqual(['region', 'address']);
    const [after] = await t.database.db.select({ n: count() }).from(files);
    expect(after!.n).toBe(before!.n);
  });

  it('is never stopped at sign-in, user info, menus, the shell, its company information, to-dos or public routes', async () => {
    const calls: [string, 'GET' | 'POST', string, unknown?][] = [
      ['check-login', 'GET', '/ks/auth/v1/authorization/check-login'],
      ['header menus', 'GET', '/ks/individual/menus'],
      ['theme', 'GET', '/ks/individual/theme'],
      ['systems', 'POST', '/ks/authority/manager/system-list', {}],
      ['main menus', 'POST', '/ks/menu/v1/menus/main-menus', { systemCoding: 'XYGL' }],
      ['company info', 'GET', INFO],
      ['to-do systems', 'GET', '/ks/notification/v1/audit/system-list'],
      ['to-do list', 'POST', '/ks/notification/v1/audit/todo-list', { systemCoding: 'XYGL', curPage: 1, pageSize: 6 }],
      ['service items', 'GET', `/ks/config/v1/service-items?${qs({ pageNum: 1, pageSize: 10 })}`],
      ['portal', 'GET', '/ks/portal/v1/home/platform'],
      ['attachment template (public)', 'GET', '/ks/common/common/att-template?gnCoding=XYGL_ZYZC&annexNo=1'],
    ];
    for (const [what, method, url, body] of calls) {
      const r = await call(method, url, partial, body);
      expect(r.status, what).not.toBe(418);
    }
    const login = await t.app.inject({ method: 'GET', url: '/ks/common/public-key' });
    expect(login.statusCode).toBe(200);
  });

  it('handles business again as soon as the information is completed (submitted for review counts)', async () => {
    const info = (await get(INFO, partial)).body.data;
    expect(info.missing).toEqual(['region', 'address']);
    // the enterprise's own edit is an information round (no attachment while the information is incomplete: uploads
    // answer 418); the public record keeps its values until the round passes, but the enterprise is not held up
    const saved = await post('/ks/rfc/save-change-data', partial, {
      gnCoding: 'XYGL_QYXX',
      businessId: partialEnterprise,
      changeTypeCode: 'info/basic',
      logbook: '完善企业信息',
      dataList: [
        { changeField: 'region', newValue: '晋中市' },
        { changeField: 'address', newValue: '晋中市榆次区顺城街 8 号' },
      ],
    });
    expect(saved.status).toBe(200);
    const submitted = await post('/ks/rfc/change-submit', partial, {
      id: saved.body.data.id,
      version: saved.body.data.version,
    });
    expect(submitted.status).toBe(200);
    const after = (await get(INFO, partial)).body.data;
    expect(after.change.status).toBe('pending');
    expect(after.missing).toEqual(['region', 'address']);
    expect((await post(RECORDS, partial, LIST_BODY)).status).toBe(200);
    expect((await upload(partial)).status).toBe(200);
  });
});

describe('who is never gated', () => {
  it('the demo enterprise is complete: user1 handles business', async () => {
    expect((await get(INFO, user1)).body.data.missing).toEqual([]);
    expect((await post(RECORDS, user1, LIST_BODY)).status).toBe(200);
  });

  it('administrators, developers and users without an enterprise', async () => {
    expect((await post(RECORDS, admin, LIST_BODY)).status).toBe(200);
    expect((await post(FIELDS, dev, { gnCoding: 'XYGL_ZYZC', systemCoding: 'XYGL' })).status).toBe(200);
    const [u1] = await t.database.db.select().from(users).where(eq(users.account, 'user1'));
    await t.database.db.insert(users).values({
      account: 'person1',
      userName: '孙个人',
      loginRoleType: 'U',
      passwordHash: u1!.passwordHash,
      enterpriseId: null,
    });
    const person = await loginToken(t.app, 'person1', 'U');
    expect((await post(RECORDS, person, LIST_BODY)).status).not.toBe(418);
  });

  it('an anonymous call is 401, not 418', async () => {
    expect((await post(RECORDS, null, LIST_BODY)).status).toBe(401);
  });
});
