import { creditCodeCheckChar } from '@ks/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentTypes, menuNodes, users } from '../../db/schema';
import { DEMO_ACCOUNTS } from '../../seed/demo';
import { personValues } from '../../test/fixtures';
import { bearer, createTestApp, json, loginToken, type TestApp } from '../../test/harness';

/**
 * Issue 11 (engine), points 6 and 7 on the demo data: every demo workflow can be reviewed to the end (the demo
 * reviewer `auditor` and the administrator); a level nobody can review is reported and refuses submissions instead of
 * swallowing them; an ordinary user's records name their own enterprise only, on every node.
 */

type Body = { code: number; data: any; message: string };
let t: TestApp;
let admin: string;
let user: string;
let auditor: string;

async function call(token: string, url: string, payload: object, method: 'POST' | 'PUT' = 'POST') {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res) };
}
const rec = (gnCoding: string, action: string, token: string, payload: object) =>
  call(token, `/ks/engine/v1/records/${action}`, { gnCoding, ...payload });
const ops = async (gnCoding: string, token: string, id: string) =>
  ((await rec(gnCoding, 'detail', token, { id })).body.data.operations as { code: string }[]).map((o) => o.code);
const levelsOf = async (gnCoding: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/ks/config/audit/levels?gnCoding=${gnCoding}`,
      headers: bearer(admin),
    })
  ).json() as Body;

const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** A 从业人员登记 of user1 (each with its own 身份证号: the node keeps one per enterprise). */
const person = () => personValues('赵从业');
const GUARANTEE = {
  xmmc: '太原市某道路改造工程',
  bhlx: 'tb',
  bhje: 200000,
  sqdwdm: `91140100MA0K8G2J7${creditCodeCheckChar('91140100MA0K8G2J7')}`,
  // a validity still to come, whatever day the test runs
  yxq: `${daysFromNow(10)},${daysFromNow(200)}`,
  lxr: '张建国',
  lxdh: '13800138000',
};

beforeAll(async () => {
  t = await createTestApp();
  [admin, user, auditor] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'auditor', 'U'),
  ]);
  // 保函申请's required attachments are the files tests' concern: the review is this file's
  const [bhsq] = await t.database.db.select().from(menuNodes).where(eq(menuNodes.gnCoding, 'DZBH_BHSQ'));
  await t.database.db.delete(attachmentTypes).where(eq(attachmentTypes.nodeId, bhsq!.id));
});
afterAll(async () => t?.close());

async function submitted(gnCoding: string, values: object) {
  const saved = await rec(gnCoding, 'save', user, { values });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const sub = await rec(gnCoding, 'submit', user, { id: saved.body.data.id, version: saved.body.data.version });
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  return sub.body.data as { id: string; version: number; status: string; auditLevel: number };
}

describe('demo workflows can be reviewed to the end', () => {
  it('the demo reviewer account is seeded, signs in with the demo password and holds the 审核员 role', async () => {
    expect(DEMO_ACCOUNTS.map((a) => a.account)).toContain('auditor');
    const [u] = await t.database.db.select().from(users).where(eq(users.account, 'auditor'));
    expect(u).toMatchObject({ userName: '王晓燕', loginRoleType: 'U', enterpriseId: null, status: 'active' });
    const roles = await t.app.inject({ method: 'GET', url: '/ks/authority/v1/roles', headers: bearer(admin) });
    expect((roles.json() as Body).data.find((r: any) => r.code === 'auditor').memberCount).toBeGreaterThanOrEqual(1);
  });

  it('从业人员登记: 审核 for the reviewer and the administrator, 指派 lists them, both levels to 审核通过', async () => {
    let d = await submitted('XYGL_CYRY', { ...person(), xm: '钱从业' });
    expect(await ops('XYGL_CYRY', auditor, d.id)).toContain('audit');
    expect(await ops('XYGL_CYRY', admin, d.id)).toContain('audit');
    const candidates = await call(admin, '/ks/authority/manager/assignable-list', { gnCoding: 'XYGL_CYRY', id: d.id });
    expect(candidates.body.data.map((u: any) => u.userName)).toEqual(expect.arrayContaining(['王晓燕', '平台管理员']));
    expect(candidates.body.data.map((u: any) => u.userName)).not.toContain('张建国');
    d = (await rec('XYGL_CYRY', 'audit', auditor, { id: d.id, version: d.version, pass: true })).body.data;
    expect(d).toMatchObject({ status: 'pending', auditLevel: 2 });
    d = (await rec('XYGL_CYRY', 'audit', admin, { id: d.id, version: d.version, pass: true })).body.data;
    expect(d.status).toBe('passed');
  });

  it('保函申请: the reviewer or the administrator decides its one level', async () => {
    const a = await submitted('DZBH_BHSQ', GUARANTEE);
    expect(await ops('DZBH_BHSQ', admin, a.id)).toContain('audit');
    expect(await ops('DZBH_BHSQ', auditor, a.id)).toContain('audit');
    const passed = await rec('DZBH_BHSQ', 'audit', auditor, { id: a.id, version: a.version, pass: true });
    expect(passed.body.data.status).toBe('passed');
    const b = await submitted('DZBH_BHSQ', { ...GUARANTEE, xmmc: '另一工程' });
    const byAdmin = await rec('DZBH_BHSQ', 'audit', admin, { id: b.id, version: b.version, pass: true });
    expect(byAdmin.body.data.status).toBe('passed');
  });

  it('every demo level has someone to review it; the configuration says how many', async () => {
    for (const code of ['XYGL_ZYZC', 'XYGL_CYRY', 'DZBH_BHSQ', 'XYGL_XYJL']) {
      const config = await levelsOf(code);
      for (const l of config.data.levels) expect(l.reviewerCount, `${code} ${l.name}`).toBeGreaterThan(0);
    }
  });
});

describe('a level nobody can review', () => {
  it('is reported by the configuration and refuses a submission with a clear message, nothing written', async () => {
    const role = await call(admin, '/ks/authority/v1/roles', { code: 'bhshy', name: '保函审核员' });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    const saved = await call(
      admin,
      '/ks/config/audit/levels',
      { gnCoding: 'DZBH_BHSQ', levels: [{ level: 1, name: '保函初审', way: 'any', reviewerRoles: ['bhshy'] }] },
      'PUT',
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.levels[0].reviewerCount).toBe(0);
    const draft = await rec('DZBH_BHSQ', 'save', user, { values: { ...GUARANTEE, xmmc: '无人审核的申请' } });
    const refused = await rec('DZBH_BHSQ', 'submit', user, {
      id: draft.body.data.id,
      version: draft.body.data.version,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('「保函初审」暂无可审核的人员，请联系管理员在「审核级别」中配置审核人后再提交');
    const after = (await rec('DZBH_BHSQ', 'detail', user, { id: draft.body.data.id })).body.data;
    expect([after.status, after.version, after.auditFlow]).toEqual(['draft', draft.body.data.version, []]);
    // the applicant alone holding the role is no reviewer of their own submission
    const [u1] = await t.database.db.select().from(users).where(eq(users.account, 'user1'));
    const members = await call(
      admin,
      '/ks/authority/v1/roles/members',
      { roleId: role.body.data.id, userIds: [u1!.id] },
      'PUT',
    );
    expect(members.status, JSON.stringify(members.body)).toBe(200);
    expect(
      (await rec('DZBH_BHSQ', 'submit', user, { id: draft.body.data.id, version: draft.body.data.version })).status,
    ).toBe(409);
  });

  it('a pass into a next level nobody can review is refused; the record stays where it was', async () => {
    const d = await submitted('XYGL_CYRY', { ...person(), xm: '孙从业' });
    const saved = await call(
      admin,
      '/ks/config/audit/levels',
      {
        gnCoding: 'XYGL_CYRY',
        levels: [
          { level: 1, name: '初审', way: 'any', reviewerRoles: ['auditor', 'admin'] },
          { level: 2, name: '复审', way: 'any', reviewerRoles: ['bhshy2'] },
        ],
      },
      'PUT',
    );
    // an unknown role is refused by the configuration itself; a role without members is what strands a record
    expect(saved.status).toBe(400);
    await call(admin, '/ks/authority/v1/roles', { code: 'fsy', name: '复审员' });
    const ok = await call(
      admin,
      '/ks/config/audit/levels',
      {
        gnCoding: 'XYGL_CYRY',
        levels: [
          { level: 1, name: '初审', way: 'any', reviewerRoles: ['auditor', 'admin'] },
          { level: 2, name: '复审', way: 'any', reviewerRoles: ['fsy'] },
        ],
      },
      'PUT',
    );
    expect(ok.status).toBe(200);
    const refused = await rec('XYGL_CYRY', 'audit', auditor, { id: d.id, version: d.version, pass: true });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('下一级「复审」暂无可审核的人员');
    const after = (await rec('XYGL_CYRY', 'detail', auditor, { id: d.id })).body.data;
    expect([after.status, after.auditLevel, after.version]).toEqual(['pending', 1, d.version]);
    expect(after.auditFlow.map((s: any) => s.action)).toEqual(['submit']);
    // rejecting is still possible
    const rejected = await rec('XYGL_CYRY', 'audit', auditor, {
      id: d.id,
      version: d.version,
      pass: false,
      suggestion: '复审无人，退回',
    });
    expect(rejected.body.data.status).toBe('rejected');
  });
});

describe('an ordinary user names their own enterprise only', () => {
  const pullDown = (token: string, body: object) =>
    call(token, '/ks/common/pull-down', { gnCoding: 'XYGL_CYRY', systemCoding: 'XYGL', displayCode: 'ssqy', ...body });

  it('the 所属企业 options list the caller’s enterprise only; administrators see every enterprise', async () => {
    const where = JSON.stringify({ szdq: '山西省/太原市' });
    const mine = await pullDown(user, { whereStr: where });
    expect(mine.body.data.list.map((o: any) => o.label)).toEqual(['示例建设工程有限公司']);
    const all = await pullDown(admin, { whereStr: JSON.stringify({ szdq: '山西省;大同市' }) });
    expect(all.body.data.list.length).toBeGreaterThan(0);
    expect(all.body.data.list.map((o: any) => o.label)).not.toContain('示例建设工程有限公司');
    expect((await pullDown(user, { whereStr: JSON.stringify({ szdq: '山西省;大同市' }) })).body.data.list).toEqual([]);
    // the reviewer, an individual, names no enterprise
    expect((await pullDown(auditor, { whereStr: where })).body.data.list).toEqual([]);
  });

  it('another enterprise is refused, an empty 所属企业 becomes the caller’s own, on the record’s enterprise too', async () => {
    const other = await rec('XYGL_CYRY', 'save', user, { values: { ...person(), ssqy: '太原市建工集团有限公司' } });
    expect(other.status).toBe(400);
    expect(other.body.data.fieldErrors['values.ssqy']).toEqual(['所属企业只能填写本企业（示例建设工程有限公司）']);
    const { ssqy: _omit, ...rest } = person();
    const filled = await rec('XYGL_CYRY', 'save', user, { values: rest });
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
    expect(filled.body.data.values.ssqy).toBe('示例建设工程有限公司');
    // editing it to another enterprise is refused as well
    const edit = await rec('XYGL_CYRY', 'save', user, {
      id: filled.body.data.id,
      version: filled.body.data.version,
      values: { ...person(), ssqy: '太原市建工集团有限公司' },
    });
    expect(edit.status).toBe(400);
  });
});
