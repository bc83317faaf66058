import { ACCOUNT_MESSAGES, accountPasswordProblem, Code, Msg } from '@ks/contracts';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, roles, sessions, users } from '../../db/schema';
import { passwordProblem } from '../../platform/password';
import { DEMO_CREDIT_CODE } from '../../seed/demo';
import { client, createTestApp, json, loginRaw, loginToken, type TestApp } from '../../test/harness';
import { opLogs, qs } from './testkit';

let t: TestApp;
const { get, post, put, call } = client(() => t);
let admin: string;
let dev: string;
let user1: string;
let demoEnterpriseId: string;
let otherEnterpriseId: string;

const ADMINS = '/ks/authority/v1/accounts/admins';
const PERSONNEL = '/ks/authority/v1/accounts/personnel';
const STATUS = '/ks/authority/v1/accounts/status';
const PASSWORD = '/ks/authority/v1/accounts/password';
const ROLES = '/ks/authority/v1/accounts/roles';
const ACCOUNT = '/ks/authority/v1/accounts';
const NEW_PASSWORD = 'Xin#Mima2026';

beforeAll(async () => {
  // several sign-ins of one account must not end each other's sessions here
  t = await createTestApp({ env: { SINGLE_SESSION: '0' } });
  admin = await loginToken(t.app, 'admin', 'M');
  dev = await loginToken(t.app, 'dev', 'D');
  user1 = await loginToken(t.app, 'user1', 'U');
  const [demo] = await t.database.db.select().from(enterprises).where(eq(enterprises.creditCode, DEMO_CREDIT_CODE));
  demoEnterpriseId = demo!.id;
  const [other] = await t.database.db.select().from(enterprises).where(ne(enterprises.id, demoEnterpriseId)).limit(1);
  otherEnterpriseId = other!.id;
});
afterAll(async () => t?.close());

const userId = async (account: string) =>
  (await t.database.db.select().from(users).where(eq(users.account, account)))[0]!.id;
const liveSessions = async (id: string) =>
  t.database.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)));
const checkLogin = (token: string) => get('/ks/auth/v1/authorization/check-login', token);

describe('who may call what', () => {
  const endpoints: [string, string][] = [
    ['GET', ADMINS],
    ['POST', ADMINS],
    ['GET', PERSONNEL],
    ['POST', PERSONNEL],
    ['PUT', ACCOUNT],
    ['PUT', STATUS],
    ['PUT', PASSWORD],
    ['GET', `${ROLES}?id=00000000-0000-4000-8000-000000000000`],
    ['PUT', ROLES],
    ['GET', '/ks/basic/v1/organizations'],
    ['POST', '/ks/basic/v1/organizations'],
    ['PUT', '/ks/basic/v1/organizations'],
    ['DELETE', '/ks/basic/v1/organizations?id=00000000-0000-4000-8000-000000000000'],
    ['GET', '/ks/basic/v1/enterprise/info'],
    ['PUT', '/ks/basic/v1/enterprise/info'],
    ['GET', '/ks/basic/v1/enterprise/info/list'],
    ['GET', '/ks/config/v1/service-items'],
    ['POST', '/ks/config/v1/service-items'],
    ['PUT', '/ks/config/v1/service-items'],
    ['DELETE', '/ks/config/v1/service-items?id=00000000-0000-4000-8000-000000000000'],
  ];

  it('every endpoint answers 401 without a token', async () => {
    for (const [method, url] of endpoints) {
      const r = await call(method as 'GET', url, null, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(r.status, `${method} ${url}`).toBe(401);
      expect(r.body.code).toBe(Code.UNAUTHORIZED);
    }
  });

  it('account administration is for administrators only: 403 for D and U before the input is read', async () => {
    const adminOnly: [string, string][] = [
      ['GET', ADMINS],
      ['POST', ADMINS],
      ['POST', PERSONNEL],
      ['PUT', ACCOUNT],
      ['PUT', STATUS],
      ['PUT', PASSWORD],
      ['GET', `${ROLES}?id=not-a-uuid`],
      ['PUT', ROLES],
    ];
    for (const token of [dev, user1]) {
      for (const [method, url] of adminOnly) {
        // a malformed body would be a 400 for an administrator; the role check comes first
        const r = await call(method as 'GET', url, token, method === 'GET' ? undefined : { id: 'x' });
        expect(r.status, `${method} ${url}`).toBe(403);
        expect(r.body.code).toBe(Code.FORBIDDEN);
      }
    }
    // developers do not see the enterprises' staff either
    expect((await get(PERSONNEL, dev)).status).toBe(403);
  });
});

describe('/system/adminInfo: administrator and developer accounts', () => {
  it('lists M and D accounts only, with keyword, type and status filters and whitelisted sorting', async () => {
    const all = await get(`${ADMINS}?${qs({ sortField: 'account', order: 'asc' })}`, admin);
    expect(all.status).toBe(200);
    const accounts = all.body.data.records.map((r: any) => r.account);
    expect(accounts).toEqual(['admin', 'dev']);
    expect(all.body.data.total).toBe(2);
    expect(all.body.data.records[0]).toMatchObject({ loginRoleType: 'M', status: 'active', userName: '平台管理员' });
    expect(all.body.data.records[0]).not.toHaveProperty('passwordHash');

    const devs = await get(`${ADMINS}?${qs({ loginRoleType: 'D' })}`, admin);
    expect(devs.body.data.records.map((r: any) => r.account)).toEqual(['dev']);
    const kw = await get(`${ADMINS}?${qs({ keyword: '开发' })}`, admin);
    expect(kw.body.data.records.map((r: any) => r.account)).toEqual(['dev']);
    // LIKE wildcards match themselves
    expect((await get(`${ADMINS}?${qs({ keyword: '%' })}`, admin)).body.data.total).toBe(0);
    const paged = await get(`${ADMINS}?${qs({ pageSize: 10, pageNum: 2 })}`, admin);
    expect(paged.body.data).toEqual({ records: [], total: 2 });
  });

  it('refuses bad list parameters with 400 and field messages', async () => {
    for (const [params, field] of [
      [{ pageSize: 7 }, 'pageSize'],
      [{ sortField: 'passwordHash' }, 'sortField'],
      [{ order: 'sideways' }, 'order'],
      [{ loginRoleType: 'U' }, 'loginRoleType'],
      [{ status: 'locked' }, 'status'],
      [{ keyword: 'x'.repeat(51) }, 'keyword'],
      [{ keyword: 'a\u0000b' }, 'keyword'],
    ] as const) {
      const r = await get(`${ADMINS}?${qs(params)}`, admin);
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body.data.fieldErrors[field]).toBeDefined();
    }
  });

  it('validates a new account field by field', async () => {
    const good = {
      account: 'ops_admin',
      userName: '运维管理员',
      phone: '13912345678',
      loginRoleType: 'M',
      password: NEW_PASSWORD,
    };
    for (const [patch, field] of [
      [{ account: '1abc' }, 'account'],
      [{ account: 'abc' }, 'account'],
      [{ account: 'a'.repeat(33) }, 'account'],
      [{ account: 'ab-cd' }, 'account'],
      [{ userName: ' ' }, 'userName'],
      [{ userName: '张\u0000三' }, 'userName'],
      [{ phone: '12345' }, 'phone'],
      [{ phone: '23912345678' }, 'phone'],
      [{ loginRoleType: 'U' }, 'loginRoleType'],
      [{ password: 'password' }, 'password'],
      [{ password: 'Ab1!' }, 'password'],
    ] as const) {
      const r = await post(ADMINS, admin, { ...good, ...patch });
      expect(r.status, JSON.stringify(patch)).toBe(400);
      expect(r.body.data.fieldErrors[field], JSON.stringify(patch)).toBeDefined();
    }
    const r = await post(ADMINS, admin, { ...good, account: '1abc' });
    expect(r.body.data.fieldErrors.account[0]).toBe(ACCOUNT_MESSAGES.accountFormat);
  });

  it('the password rule of the contract is the platform rule', () => {
    for (const pw of [
      '',
      'short1A!',
      'alllowercase',
      'Abcdefgh',
      'Abcdefg1',
      'abcdefg1!',
      'A'.repeat(65),
      'Demo@2026',
    ]) {
      expect(accountPasswordProblem(pw), pw).toBe(passwordProblem(pw));
    }
  });

  it('creates an account that must change its password, writes an operation log, and refuses a duplicate with 409', async () => {
    const r = await post(ADMINS, admin, {
      account: 'Ops_Dev',
      userName: '运维开发',
      phone: '13912345678',
      loginRoleType: 'D',
      password: NEW_PASSWORD,
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      account: 'ops_dev',
      loginRoleType: 'D',
      status: 'active',
      mustChangePassword: true,
      enterpriseId: null,
    });
    const logs = await opLogs(t, '账号管理', r.body.data.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ czrName: '平台管理员', czrClassification: '管理员' });
    expect(logs[0]!.logbook).toContain('ops_dev');

    const signIn = await loginRaw(t.app, 'ops_dev', NEW_PASSWORD, 'D');
    expect(signIn.statusCode).toBe(200);
    expect(json<any>(signIn).data.codeStatus).toBe(1);

    for (const account of ['ops_dev', 'OPS_DEV', 'admin']) {
      const dup = await post(ADMINS, admin, {
        account,
        userName: 'x',
        phone: '13912345678',
        loginRoleType: 'M',
        password: NEW_PASSWORD,
      });
      expect(dup.status, account).toBe(409);
      expect(dup.body.message).toBe('账号已存在');
    }
  });

  it('disabling an account revokes its sessions at once (401/10001) and blocks sign-in; enabling lets it back', async () => {
    const devId = await userId('dev');
    const devToken = await loginToken(t.app, 'dev', 'D');
    expect((await checkLogin(devToken)).status).toBe(200);
    expect((await liveSessions(devId)).length).toBeGreaterThan(0);

    const r = await put(STATUS, admin, { id: devId, status: 'disabled' });
    expect(r.status).toBe(200);
    expect(r.body.data.status).toBe('disabled');
    expect(await liveSessions(devId)).toHaveLength(0);

    const after = await checkLogin(devToken);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(Code.TOKEN_INVALID);
    const refused = await loginRaw(t.app, 'dev', 'Demo@2026', 'D');
    expect(refused.statusCode).toBe(403);
    expect(json<any>(refused).message).toBe(Msg.ACCOUNT_DISABLED);
    expect((await opLogs(t, '账号管理', devId)).some((l) => l.logbook.includes('停用'))).toBe(true);

    const back = await put(STATUS, admin, { id: devId, status: 'active' });
    expect(back.body.data.status).toBe('active');
    dev = await loginToken(t.app, 'dev', 'D');
    expect((await checkLogin(dev)).status).toBe(200);
  });

  it('an administrator cannot disable themselves; unknown accounts are 404 and bad ids 400', async () => {
    const self = await put(STATUS, admin, { id: await userId('admin'), status: 'disabled' });
    expect(self.status).toBe(400);
    expect(self.body.message).toBe(ACCOUNT_MESSAGES.cannotDisableSelf);
    expect((await checkLogin(admin)).status).toBe(200);
    expect((await put(STATUS, admin, { id: '00000000-0000-4000-8000-000000000000', status: 'disabled' })).status).toBe(
      404,
    );
    expect((await put(STATUS, admin, { id: 'x', status: 'disabled' })).status).toBe(400);
    expect(
      (await put(STATUS, admin, { id: await userId('dev'), status: 'gone' })).body.data.fieldErrors.status,
    ).toBeDefined();
  });

  it('resetting a password revokes the sessions and requires a change at the next sign-in', async () => {
    const id = await userId('ops_dev');
    const token = await loginToken(t.app, 'ops_dev', 'D', NEW_PASSWORD);
    const weak = await put(PASSWORD, admin, { id, password: 'weakpass' });
    expect(weak.status).toBe(400);
    expect(weak.body.data.fieldErrors.password).toBeDefined();
    expect((await checkLogin(token)).status).toBe(200);

    const r = await put(PASSWORD, admin, { id, password: 'Reset@2026x' });
    expect(r.status).toBe(200);
    expect(r.body.data.mustChangePassword).toBe(true);
    const after = await checkLogin(token);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(Code.TOKEN_INVALID);
    expect((await loginRaw(t.app, 'ops_dev', NEW_PASSWORD, 'D')).statusCode).toBe(400);
    const ok = await loginRaw(t.app, 'ops_dev', 'Reset@2026x', 'D');
    expect(json<any>(ok).data.codeStatus).toBe(1);
    expect((await opLogs(t, '账号管理', id)).some((l) => l.logbook.includes('重置密码'))).toBe(true);

    const self = await put(PASSWORD, admin, { id: await userId('admin'), password: 'Reset@2026x' });
    expect(self.status).toBe(400);
  });

  it('edits name and phone against the updatedAt it was based on (409 when stale)', async () => {
    const list = await get(`${ADMINS}?${qs({ keyword: 'ops_dev' })}`, admin);
    const row = list.body.data.records[0];
    const r = await put(ACCOUNT, admin, {
      id: row.id,
      updatedAt: row.updatedAt,
      userName: '运维开发甲',
      phone: '13700001111',
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ userName: '运维开发甲', phone: '13700001111' });
    const stale = await put(ACCOUNT, admin, {
      id: row.id,
      updatedAt: row.updatedAt,
      userName: '乙',
      phone: '13700001111',
    });
    expect(stale.status).toBe(409);
    expect(
      (await put(ACCOUNT, admin, { id: row.id, updatedAt: 'yesterday', userName: '乙', phone: '13700001111' })).status,
    ).toBe(400);
  });
});

describe('/system/personnelInfo: enterprise staff', () => {
  it('an administrator sees every U account and filters by enterprise and keyword', async () => {
    // one page holds them all (the seed has more U accounts than the default page of 10, created in the same instant)
    const all = await get(`${PERSONNEL}?${qs({ pageSize: 50 })}`, admin);
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBeLessThanOrEqual(50);
    expect(all.body.data.records.every((r: any) => r.loginRoleType === 'U')).toBe(true);
    expect(all.body.data.records.map((r: any) => r.account)).toContain('user1');
    const user1Row = all.body.data.records.find((r: any) => r.account === 'user1');
    expect(user1Row.enterpriseName).toBe('示例建设工程有限公司');
    const other = await get(`${PERSONNEL}?${qs({ enterpriseId: otherEnterpriseId })}`, admin);
    expect(other.body.data.records.map((r: any) => r.account)).not.toContain('user1');
    expect((await get(`${PERSONNEL}?${qs({ keyword: '张建' })}`, admin)).body.data.records[0].account).toBe('user1');
    expect((await get(`${PERSONNEL}?${qs({ enterpriseId: 'x' })}`, admin)).status).toBe(400);
  });

  it('creates a U account for an enterprise; the enterprise must exist', async () => {
    const base = { userName: '李晓东', phone: '13611112222', password: NEW_PASSWORD };
    const missing = await post(PERSONNEL, admin, { ...base, account: 'staff_a' });
    expect(missing.status).toBe(400);
    expect(missing.body.data.fieldErrors.enterpriseId).toBeDefined();
    const unknown = await post(PERSONNEL, admin, {
      ...base,
      account: 'staff_a',
      enterpriseId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.fieldErrors.enterpriseId).toEqual([ACCOUNT_MESSAGES.enterpriseNotFound]);

    const ours = await post(PERSONNEL, admin, { ...base, account: 'staff_a', enterpriseId: demoEnterpriseId });
    expect(ours.status).toBe(200);
    expect(ours.body.data).toMatchObject({
      loginRoleType: 'U',
      enterpriseId: demoEnterpriseId,
      mustChangePassword: true,
    });
    const theirs = await post(PERSONNEL, admin, { ...base, account: 'staff_b', enterpriseId: otherEnterpriseId });
    expect(theirs.status).toBe(200);
    expect((await post(PERSONNEL, admin, { ...base, account: 'STAFF_A', enterpriseId: demoEnterpriseId })).status).toBe(
      409,
    );
    expect((await opLogs(t, '账号管理', ours.body.data.id)).length).toBe(1);
  });

  it('a U user sees the staff of their own enterprise only, and cannot ask for another enterprise', async () => {
    const own = await get(PERSONNEL, user1);
    expect(own.status).toBe(200);
    const names = own.body.data.records.map((r: any) => r.account).sort();
    expect(names).toEqual(['staff_a', 'user1']);
    expect(own.body.data.records.every((r: any) => r.enterpriseId === demoEnterpriseId)).toBe(true);
    expect((await get(`${PERSONNEL}?${qs({ enterpriseId: demoEnterpriseId })}`, user1)).status).toBe(200);
    const other = await get(`${PERSONNEL}?${qs({ enterpriseId: otherEnterpriseId })}`, user1);
    expect(other.status).toBe(403);
  });

  it('assigns custom roles to a U account; built-in roles cannot be assigned, nor roles to M/D accounts', async () => {
    const user1Id = await userId('user1');
    const got = await get(`${ROLES}?${qs({ id: user1Id })}`, admin);
    expect(got.status).toBe(200);
    const auditor = got.body.data.roles.find((r: any) => r.code === 'auditor');
    expect(auditor).toBeDefined();
    expect(got.body.data.roles.some((r: any) => ['admin', 'developer', 'user'].includes(r.code))).toBe(false);

    const saved = await put(ROLES, admin, { id: user1Id, roleIds: [auditor.id] });
    expect(saved.status).toBe(200);
    expect(saved.body.data.roleIds).toEqual([auditor.id]);
    const listed = (await get(`${PERSONNEL}?${qs({ keyword: 'user1' })}`, admin)).body.data.records[0];
    expect(listed.roles.map((r: any) => r.code)).toEqual(['auditor']);
    expect((await opLogs(t, '账号管理', user1Id)).some((l) => l.logbook.includes('审核员'))).toBe(true);

    const [builtin] = await t.database.db.select().from(roles).where(eq(roles.code, 'admin'));
    const refused = await put(ROLES, admin, { id: user1Id, roleIds: [builtin!.id] });
    expect(refused.status).toBe(400);
    expect(refused.body.data.fieldErrors.roleIds).toBeDefined();
    expect((await put(ROLES, admin, { id: await userId('dev'), roleIds: [] })).status).toBe(400);

    const cleared = await put(ROLES, admin, { id: user1Id, roleIds: [] });
    expect(cleared.body.data.roleIds).toEqual([]);
  });
});
