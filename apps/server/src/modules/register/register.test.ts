import { REGISTER_MESSAGES as M, REGISTRATION_NODE, api as registry } from '@ks/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enterpriseAdmins,
  enterpriseRegistrations,
  enterprises,
  files,
  operationLogs,
  realNameUsers,
  todos,
  users,
} from '../../db/schema';
import { isUniqueViolation } from '../../db/sql';
import { DEMO_CREDIT_CODE } from '../../seed/demo';
import { DEMO_REGISTRATION } from '../../seed/register';
import { createTestApp, loginRaw, loginToken, type TestApp } from '../../test/harness';
import { badCheckChar, idNumber, newCreditCode, newPhone, registerKit } from './testkit';

/**
 * Enterprise self-registration, its review through the engine, activation, the administrator's registration by hand,
 * sign-in by credit code and real-name registration (issue 15), against the demo data (its pending registration).
 */

let t: TestApp;
let admin: string;
let user1: string;
const k = registerKit(() => t);
const { api } = k;

beforeAll(async () => {
  t = await createTestApp();
  admin = await loginToken(t.app, 'admin', 'M');
  user1 = await loginToken(t.app, 'user1', 'U');
});
afterAll(async () => {
  await t.close();
});

const recordOf = async (id: string) =>
  (await api.post('/ks/engine/v1/records/detail', admin, { gnCoding: REGISTRATION_NODE, id })).body.data;
const decide = async (id: string, pass: boolean, suggestion?: string) => {
  const rec = await recordOf(id);
  return api.post('/ks/engine/v1/records/audit', admin, {
    gnCoding: REGISTRATION_NODE,
    id,
    version: rec.version,
    pass,
    ...(suggestion ? { suggestion } : {}),
  });
};

describe('enterprise/verify', () => {
  it('refuses a wrong check character with the clear message, a wrong shape with its own', async () => {
    const bad = await api.post('/ks/register/v1/enterprise/verify', null, {
      creditCode: badCheckChar(newCreditCode()),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(M.creditCodeCheckDigit);
    expect(bad.body.data.fieldErrors.creditCode).toEqual([M.creditCodeCheckDigit]);
    const shape = await api.post('/ks/register/v1/enterprise/verify', null, { creditCode: '91140100MA0K8G2J7I' });
    expect(shape.status).toBe(400);
    expect(shape.body.message).toBe(M.creditCodeFormat);
    const short = await api.post('/ks/register/v1/enterprise/verify', null, { creditCode: '123' });
    expect(short.body.message).toBe(M.creditCodeFormat);
  });

  it('says only whether a code is taken: an enterprise, an application under review, or free', async () => {
    const taken = await api.post('/ks/register/v1/enterprise/verify', null, { creditCode: DEMO_CREDIT_CODE });
    expect(taken.status).toBe(200);
    expect(taken.body.data).toEqual({ creditCode: DEMO_CREDIT_CODE, registered: true });
    const pending = await api.post('/ks/register/v1/enterprise/verify', null, {
      creditCode: DEMO_REGISTRATION.creditCode.toLowerCase(),
    });
    expect(pending.body.data).toEqual({ creditCode: DEMO_REGISTRATION.creditCode, registered: true });
    const free = newCreditCode();
    expect((await api.post('/ks/register/v1/enterprise/verify', null, { creditCode: free })).body.data.registered).toBe(
      false,
    );
  });
});

describe('registration', () => {
  it('submits an application into review: a to-do for the administrator, the licence bound, nothing else created', async () => {
    const body = await k.application();
    const r = await k.submit(body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.applicationNo).toMatch(/^ZC\d{14}$/);
    const id = r.body.data.id as string;
    const row = await k.registration(id);
    expect(row).toMatchObject({ status: 'pending', creditCode: body.creditCode, account: body.account });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    const rec = await recordOf(id);
    expect(rec.status).toBe('pending');
    const open = await t.database.db
      .select()
      .from(todos)
      .where(and(eq(todos.recordId, id), sql`${todos.doneAt} is null`));
    expect(open.map((x) => [x.assigneeType, x.assigneeId])).toEqual([['role', 'admin']]);
    const [licence] = await t.database.db.select().from(files).where(eq(files.id, body.licenceFileId));
    expect(licence!.recordId).toBe(id);
    // no enterprise and no account before the review passes
    expect(await t.database.db.select().from(enterprises).where(eq(enterprises.creditCode, body.creditCode))).toEqual(
      [],
    );
    expect(await t.database.db.select().from(users).where(eq(users.account, body.account))).toEqual([]);
    // the progress lookup needs both the code and the number
    const p = await api.get(
      `/ks/register/v1/enterprise/registration?creditCode=${body.creditCode}&keyWord=${r.body.data.applicationNo}`,
      null,
    );
    expect(p.body.data).toMatchObject({ status: 'pending', enterpriseName: body.name, reason: null });
    const wrong = await api.get(
      `/ks/register/v1/enterprise/registration?creditCode=${DEMO_CREDIT_CODE}&keyWord=${r.body.data.applicationNo}`,
      null,
    );
    expect(wrong.status).toBe(404);
    expect(wrong.body.message).toBe(M.applicationNotFound);
    expect(JSON.stringify(wrong.body)).not.toContain(body.name);
  });

  it('refuses a code already registered or under review with 409, writing nothing, and keeps the proof usable', async () => {
    for (const creditCode of [DEMO_CREDIT_CODE, DEMO_REGISTRATION.creditCode]) {
      const body = await k.application({ creditCode });
      const before = await k.counts();
      const r = await k.submit(body);
      expect(r.status).toBe(409);
      expect(r.body.message).toBe(M.creditCodeTaken);
      expect(r.body.data.fieldErrors.creditCode).toEqual([M.creditCodeTaken]);
      expect(await k.counts()).toEqual(before);
      // the proof was not spent by the refusal
      const ok = await k.submit({ ...body, creditCode: newCreditCode() });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    }
  });

  it('holds one live application per code in the database itself (two submissions at once: one wins)', async () => {
    const code = newCreditCode();
    const [a, b] = await Promise.all([k.application({ creditCode: code }), k.application({ creditCode: code })]);
    const results = await Promise.all([k.submit(a), k.submit(b)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    // and the unique index refuses a second pending row written behind the service's back
    const [row] = await t.database.db
      .select()
      .from(enterpriseRegistrations)
      .where(eq(enterpriseRegistrations.creditCode, code));
    const err = await t.database.db
      .insert(enterpriseRegistrations)
      .values({ ...row!, id: undefined, applicationNo: 'ZC-DUP-TEST', account: 'dup_account_x' })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(err, 'enterprise_registrations_live_code_uq')).toBe(true);
  });

  it('needs the SMS proof of the legal phone, single-use and for that phone', async () => {
    const body = await k.application();
    const before = await k.counts();
    const { legalProof: _p, ...noProof } = body;
    const missing = await k.submit(noProof);
    expect(missing.status).toBe(400);
    expect(missing.body.data.fieldErrors.legalProof).toEqual([M.proofRequired]);
    const forged = await k.submit({ ...body, legalProof: 'not-a-proof' });
    expect(forged.status).toBe(400);
    const otherPhone = await k.submit({ ...body, legalPhone: newPhone() });
    expect(otherPhone.status).toBe(400);
    expect(await k.counts()).toEqual(before);
    const ok = await k.submit(body);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // spent: the same proof does not carry a second application
    const again = await k.submit({ ...body, creditCode: newCreditCode(), account: `again${Date.now()}` });
    expect(again.status).toBe(400);
    const after = await k.counts();
    expect(after.registrations).toBe(before.registrations + 1);
  });

  it('holds the password rule (length, classes, not the account name) and refuses an unusable licence', async () => {
    const weak = await k.submit(await k.application({ password: 'abcdefgh' }));
    expect(weak.status).toBe(400);
    expect(weak.body.data.fieldErrors.password[0]).toMatch(/至少三种/);
    const same = await k.submit(await k.application({ account: 'Abc_12345', password: 'Abc_12345' }));
    expect(same.status).toBe(400);
    expect(same.body.data.fieldErrors.password).toEqual([M.passwordSameAsAccount]);
    const notEncrypted = await k.submit({ ...(await k.application()), password: 'Reg@2026x' });
    expect(notEncrypted.status).toBe(400);
    // a licence that is no upload of this flow (another user's file id)
    const [someFile] = await t.database.db.select({ id: files.id }).from(files).limit(1);
    const foreign = await k.submit(await k.application({ licenceFileId: someFile!.id }));
    expect(foreign.status).toBe(400);
    expect(foreign.body.data.fieldErrors.licenceFileId).toEqual([M.licenceInvalid]);
    // the licence upload checks the content against the name
    const fake = await k.uploadLicence('执照.pdf', Buffer.from('MZ\x90\x00 not a pdf'.repeat(20)));
    expect(fake.status).toBe(400);
    const exe = await k.uploadLicence('执照.exe');
    expect(exe.status).toBe(400);
  });

  it('refuses an account name already used (409 on the field)', async () => {
    const r = await k.submit(await k.application({ account: 'user1' }));
    expect(r.status).toBe(409);
    expect(r.body.data.fieldErrors.account).toEqual([M.accountTaken]);
  });
});

describe('review, activation and sign-in by credit code', () => {
  let body: Awaited<ReturnType<typeof k.application>>;
  let id: string;
  let applicationNo: string;

  beforeAll(async () => {
    body = await k.application({ password: 'Ent@2026ok' });
    const r = await k.submit(body);
    id = r.body.data.id;
    applicationNo = r.body.data.applicationNo;
  });

  it('activation reveals nothing before approval (the same message for every mismatch)', async () => {
    const r = await api.post('/ks/activate/v1/verify/basic-info', null, {
      creditCode: body.creditCode,
      legalPerson: body.legalPerson,
      legalPhone: body.legalPhone,
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(M.activationMismatch);
  });

  it('a final pass creates the enterprise and its administrator account, not yet able to sign in', async () => {
    const d = await decide(id, true, '材料齐全');
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    const row = await k.registration(id);
    expect(row).toMatchObject({ status: 'approved', passwordHash: '' });
    const [ent] = await t.database.db.select().from(enterprises).where(eq(enterprises.creditCode, body.creditCode));
    expect(ent).toMatchObject({ name: body.name, legalPerson: body.legalPerson, region: body.region });
    const [u] = await t.database.db.select().from(users).where(eq(users.account, body.account));
    expect(u).toMatchObject({ status: 'inactive', enterpriseId: ent!.id, loginRoleType: 'U' });
    const [adm] = await t.database.db.select().from(enterpriseAdmins).where(eq(enterpriseAdmins.enterpriseId, ent!.id));
    expect(adm!.userId).toBe(u!.id);
    const signIn = await loginRaw(t.app, body.account, 'Ent@2026ok', 'U', { ip: '10.9.0.1' });
    expect(signIn.statusCode).toBe(403);
    expect(JSON.parse(signIn.body).message).toBe(M.notActivated);
    const p = await api.get(
      `/ks/register/v1/enterprise/registration?creditCode=${body.creditCode}&keyWord=${applicationNo}`,
      null,
    );
    expect(p.body.data).toMatchObject({ status: 'approved', activated: false });
    const logs = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.recordId, id), eq(operationLogs.glName, '企业注册')));
    expect(logs.map((l) => l.logbook).join('\n')).toMatch(/企业注册审核通过/);
  });

  it('activation: wrong details reveal nothing and send nothing; the code to the legal phone activates', async () => {
    const basic = { creditCode: body.creditCode, legalPerson: body.legalPerson, legalPhone: body.legalPhone };
    for (const wrong of [
      { ...basic, legalPerson: '别人' },
      { ...basic, legalPhone: newPhone() },
      { ...basic, creditCode: DEMO_CREDIT_CODE },
      { ...basic, creditCode: DEMO_REGISTRATION.creditCode, legalPerson: DEMO_REGISTRATION.legalPerson },
    ]) {
      const v = await api.post('/ks/activate/v1/verify/basic-info', null, wrong);
      expect(v.status).toBe(400);
      expect(v.body.message).toBe(M.activationMismatch);
      const before = (await t.app.sms.outbox(wrong.legalPhone))?.length;
      const c = await api.get(`/ks/activate/v1/activate-code?${new URLSearchParams(wrong)}`, null);
      expect(c.status).toBe(400);
      expect(c.body.message).toBe(M.activationMismatch);
      expect((await t.app.sms.outbox(wrong.legalPhone))?.length).toBe(before);
    }
    const v = await api.post('/ks/activate/v1/verify/basic-info', null, basic);
    expect(v.status).toBe(200);
    expect(v.body.data).toEqual({ enterpriseName: body.name, account: body.account });
    t.clock.advance(61_000);
    const sent = await api.get(`/ks/activate/v1/activate-code?${new URLSearchParams(basic)}`, null);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const wrongCode = await api.post('/ks/activate/v1/activate', null, { ...basic, code: '000000' });
    expect(wrongCode.status).toBe(400);
    const [stillInactive] = await t.database.db.select().from(users).where(eq(users.account, body.account));
    expect(stillInactive!.status).toBe('inactive');
    const ok = await api.post('/ks/activate/v1/activate', null, { ...basic, code: await k.codeOf(body.legalPhone) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toEqual({ account: body.account });
    const [u] = await t.database.db.select().from(users).where(eq(users.account, body.account));
    expect(u!.status).toBe('active');
    const logs = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.recordId, u!.id), eq(operationLogs.logbook, '企业账号激活')));
    expect(logs).toHaveLength(1);
    // once only
    const twice = await api.post('/ks/activate/v1/verify/basic-info', null, basic);
    expect(twice.status).toBe(400);
  });

  it('signs in by account, and by the credit code (any case) on the 企业/个人 tab, as the same account', async () => {
    const byAccount = await loginRaw(t.app, body.account, 'Ent@2026ok', 'U', { ip: '10.9.0.2' });
    expect(byAccount.statusCode).toBe(200);
    const byCode = await loginRaw(t.app, body.creditCode.toLowerCase(), 'Ent@2026ok', 'U', { ip: '10.9.0.3' });
    expect(byCode.statusCode, byCode.body).toBe(200);
    expect(JSON.parse(byCode.body).data.userInfo.id).toBe(JSON.parse(byAccount.body).data.userInfo.id);
    expect(JSON.parse(byCode.body).data.userInfo.enterpriseName).toBe(body.name);
    // the credit code is no account for the administrator tab
    const asAdmin = await loginRaw(t.app, body.creditCode, 'Ent@2026ok', 'M', { ip: '10.9.0.4' });
    expect(asAdmin.statusCode).toBe(400);
  });

  it('counts failures by credit code against the account: the captcha comes after 3 whichever way it is typed', async () => {
    const ip = '10.9.0.9';
    // after the successful sign-ins above (the test clock stands still otherwise)
    t.clock.advance(1000);
    await loginRaw(t.app, body.creditCode, 'wrong-1', 'U', { ip });
    await loginRaw(t.app, body.account, 'wrong-2', 'U', { ip });
    await loginRaw(t.app, body.creditCode, 'wrong-3', 'U', { ip });
    const need = await api.post('/ks/common/login/captcha-required', null, { logValue: body.account });
    expect(need.body.data.captchaRequired).toBe(true);
    const needByCode = await api.post('/ks/common/login/captcha-required', null, { logValue: body.creditCode });
    expect(needByCode.body.data.captchaRequired).toBe(true);
    const next = await loginRaw(t.app, body.creditCode, 'Ent@2026ok', 'U', { ip });
    expect(next.statusCode).toBe(400);
    expect(JSON.parse(next.body).data.captchaRequired).toBe(true);
  });

  it('a rejection keeps its reason for the progress lookup, and the code may apply again', async () => {
    const again = await k.application();
    const r = await k.submit(again);
    const noReason = await decide(r.body.data.id, false);
    expect(noReason.status).toBe(400);
    const d = await decide(r.body.data.id, false, '营业执照照片不清晰，请重新上传');
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(await t.database.db.select().from(enterprises).where(eq(enterprises.creditCode, again.creditCode))).toEqual(
      [],
    );
    const p = await api.get(
      `/ks/register/v1/enterprise/registration?creditCode=${again.creditCode}&keyWord=${r.body.data.applicationNo}`,
      null,
    );
    expect(p.body.data).toMatchObject({ status: 'rejected', reason: '营业执照照片不清晰，请重新上传' });
    const verify = await api.post('/ks/register/v1/enterprise/verify', null, { creditCode: again.creditCode });
    expect(verify.body.data.registered).toBe(false);
    const reapply = await k.submit(await k.application({ creditCode: again.creditCode, account: again.account }));
    expect(reapply.status, JSON.stringify(reapply.body)).toBe(200);
  });
});

describe('administrator registration by hand', () => {
  const base = () => ({
    name: '阳泉市试点建材有限公司',
    enterpriseType: '施工企业',
    region: '阳泉市',
    address: '阳泉市城区南大街 6 号',
    legalPerson: '周建平',
    legalPhone: '13912345678',
    account: `yq${Date.now().toString(36)}`,
    password: 'Pilot@2026',
  });

  it('refuses a wrong check character without a reason, accepts it with one and logs the reason', async () => {
    const code = badCheckChar(newCreditCode());
    const noReason = await api.post('/ks/register/v1/admin/enterprise', admin, { ...base(), creditCode: code });
    expect(noReason.status).toBe(400);
    expect(noReason.body.data.fieldErrors.overrideReason).toEqual([M.overrideReasonRequired]);
    const r = await api.post('/ks/register/v1/admin/enterprise', admin, {
      ...base(),
      creditCode: code,
      overrideReason: '2015 年试点地区早期赋码，经市场监管部门书面确认',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [log] = await t.database.db
      .select()
      .from(operationLogs)
      .where(eq(operationLogs.recordId, r.body.data.enterpriseId));
    expect(log!.logbook).toContain('登记原因：2015 年试点地区早期赋码，经市场监管部门书面确认');
    expect(log!.czrName).toBe('平台管理员');
    const [u] = await t.database.db.select().from(users).where(eq(users.id, r.body.data.userId));
    expect(u).toMatchObject({ status: 'active', mustChangePassword: true });
    // a valid code needs no reason
    const valid = await api.post('/ks/register/v1/admin/enterprise', admin, { ...base(), creditCode: newCreditCode() });
    expect(valid.status, JSON.stringify(valid.body)).toBe(200);
  });

  it('still refuses a wrong shape, a taken code, and anyone but an administrator', async () => {
    const shape = await api.post('/ks/register/v1/admin/enterprise', admin, {
      ...base(),
      creditCode: 'ABC',
      overrideReason: '理由',
    });
    expect(shape.status).toBe(400);
    expect(shape.body.data.fieldErrors.creditCode).toEqual([M.creditCodeFormat]);
    const taken = await api.post('/ks/register/v1/admin/enterprise', admin, {
      ...base(),
      creditCode: DEMO_CREDIT_CODE,
    });
    expect(taken.status).toBe(409);
    const asUser = await api.post('/ks/register/v1/admin/enterprise', user1, {
      ...base(),
      creditCode: newCreditCode(),
    });
    expect(asUser.status).toBe(403);
    const anonymous = await api.post('/ks/register/v1/admin/enterprise', null, {
      ...base(),
      creditCode: newCreditCode(),
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('real-name registration', () => {
  let people = 200;
  async function person(over: Record<string, string> = {}) {
    const phone = over.phone ?? newPhone();
    return {
      realName: '李晓明',
      idNumber: idNumber(`14010219900307${String(++people).padStart(3, '0')}`),
      phone,
      proof: over.proof ?? (await k.proofFor(phone, 'realname')),
      account: `lxm${Date.now().toString(36)}`,
      ...over,
      password: await k.enc(over.password ?? 'Person@2026'),
    };
  }
  const register = (body: unknown) => api.post('/ks/register/v1/user-register', null, body);

  it('gives each ID number problem its own message and writes nothing', async () => {
    const before = await k.counts();
    const digit = idNumber('14010219900307123');
    const wrongDigit = `${digit.slice(0, 17)}${digit[17] === '0' ? '1' : '0'}`;
    const cases: [string, string][] = [
      [wrongDigit, M.idNumberCheckDigit],
      [idNumber('14010219990230123'), M.idNumberBirthDate],
      [idNumber('14010220990101123'), M.idNumberFutureBirth],
      ['1401021990030712', M.idNumberFormat],
    ];
    const body = await person();
    for (const [id, message] of cases) {
      const r = await register({ ...body, idNumber: id });
      expect(r.status).toBe(400);
      expect(r.body.data.fieldErrors.idNumber).toEqual([message]);
    }
    expect(await k.counts()).toEqual(before);
    // the proof survived every refusal
    const ok = await register(body);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('registers, answers the ID number masked, signs in at once; a second registration of the ID is 409', async () => {
    const body = await person({ idNumber: idNumber('14070219850612002') });
    const r = await register(body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.idNumber).toBe(`140***********${body.idNumber.slice(-4)}`);
    const [u] = await t.database.db.select().from(users).where(eq(users.account, body.account));
    const [rn] = await t.database.db.select().from(realNameUsers).where(eq(realNameUsers.userId, u!.id));
    expect(rn).toMatchObject({ idNumber: body.idNumber, realName: '李晓明' });
    const [log] = await t.database.db.select().from(operationLogs).where(eq(operationLogs.recordId, u!.id));
    expect(log!.logbook).not.toContain(body.idNumber);
    expect((await loginRaw(t.app, body.account, 'Person@2026', 'U', { ip: '10.9.1.1' })).statusCode).toBe(200);
    const dup = await register(await person({ idNumber: body.idNumber.toLowerCase() }));
    expect(dup.status).toBe(409);
    expect(dup.body.data.fieldErrors.idNumber).toEqual([M.idNumberTaken]);
  });

  it('needs the SMS proof of the phone (purpose realname, single-use)', async () => {
    const body = await person();
    expect((await register({ ...body, proof: 'x' })).status).toBe(400);
    const phone = newPhone();
    const legalProof = await k.proofFor(phone, 'legal');
    // a proof of another purpose does not do
    expect((await register({ ...body, phone, proof: legalProof })).status).toBe(400);
    expect((await register(body)).status).toBe(200);
    const reuse = await register({ ...body, idNumber: idNumber('14010219800101456'), account: `re${Date.now()}` });
    expect(reuse.status).toBe(400);
  });
});

describe('who may call what', () => {
  it('answers every registration endpoint without a token (never 401), the administrator one only to M', async () => {
    const publicOnes = Object.values(registry).filter(
      (d) => d.path.startsWith('/ks/register/') || d.path.startsWith('/ks/activate/'),
    );
    expect(publicOnes.length).toBe(14);
    for (const d of publicOnes) {
      const res = await t.app.inject({ method: d.method, url: d.path, payload: d.method === 'GET' ? undefined : {} });
      if (d.auth) expect(res.statusCode, d.path).toBe(401);
      else expect([400, 404, 415], `${d.method} ${d.path}: ${res.body}`).toContain(res.statusCode);
    }
    const asDev = await api.post('/ks/register/v1/admin/enterprise', await loginToken(t.app, 'dev', 'D'), {});
    expect(asDev.status).toBe(403);
  });
});
