import { Code, ENTERPRISE_MESSAGES as E } from '@ks/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterpriseChanges, enterprises } from '../../db/schema';
import { DEMO_CREDIT_CODE } from '../../seed/demo';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { opLogs, qs } from './testkit';

/**
 * 企业信息 review (issue 11): an enterprise's edit reaches the public record only through an administrator's approval.
 */

let t: TestApp;
const { get, post, put } = client(() => t);
let admin: string;
let dev: string;
let user1: string;
let ownId: string;

const INFO = '/ks/basic/v1/enterprise/info';
const CHANGES = '/ks/basic/v1/enterprise/changes';
const AUDIT = '/ks/basic/v1/enterprise/changes/audit';

beforeAll(async () => {
  t = await createTestApp({ env: { SINGLE_SESSION: '0' } });
  admin = await loginToken(t.app, 'admin', 'M');
  dev = await loginToken(t.app, 'dev', 'D');
  user1 = await loginToken(t.app, 'user1', 'U');
  ownId = (await t.database.db.select().from(enterprises).where(eq(enterprises.creditCode, DEMO_CREDIT_CODE)))[0]!.id;
});
afterAll(async () => t?.close());

/** What the public portal shows of the demo enterprise. */
async function publicRecord() {
  const list = await get(`/ks/portal/v1/market/entities?${qs({ kind: 'enterprise', keyword: '示例建设' })}`, null);
  const detail = await get(
    `/ks/portal/v1/market/detail?${qs({ kind: 'enterprise', id: list.body.data.records[0].id })}`,
    null,
  );
  return { listed: list.body.data.records[0], basic: detail.body.data.basic };
}

async function current() {
  return (await get(INFO, user1)).body.data;
}

async function propose(patch: Record<string, string>) {
  const now = await current();
  return put(INFO, user1, {
    id: ownId,
    updatedAt: now.updatedAt,
    legalPerson: now.legalPerson,
    region: now.region,
    address: now.address,
    registeredCapital: now.registeredCapital,
    establishedAt: now.establishedAt,
    ...patch,
  });
}

describe('an enterprise edit waits for an administrator', () => {
  it('user1 edits → the portal is unchanged → an administrator passes → the portal shows the new values', async () => {
    const before = await publicRecord();
    expect(before.basic.legalPerson).toBe('李明华');

    const r = await propose({ legalPerson: '王志刚', registeredCapital: '120000000', region: '晋中市' });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(E.submitted);
    const change = r.body.data.change;
    expect(change).toMatchObject({ status: 'pending', enterpriseName: '示例建设工程有限公司', submittedBy: '张建国' });
    expect(change.items).toEqual([
      { field: 'legalPerson', label: '法定代表人', oldValue: '李明华', newValue: '王志刚' },
      { field: 'region', label: '所在地区', oldValue: '太原市', newValue: '晋中市' },
      { field: 'registeredCapital', label: '注册资本（元）', oldValue: '80000000.00', newValue: '120000000.00' },
    ]);

    // nothing public moved: the market list and detail, nor the enterprise row
    const during = await publicRecord();
    expect(during.basic).toEqual(before.basic);
    expect(during.listed).toEqual(before.listed);
    const info = await current();
    expect(info).toMatchObject({ legalPerson: '李明华', region: '太原市', registeredCapital: '80000000.00' });
    expect(info.change.status).toBe('pending');

    // the administrator's list of pending changes has it
    const pending = await get(CHANGES, admin);
    expect(pending.status).toBe(200);
    const listed = pending.body.data.records.find((c: any) => c.id === change.id);
    expect(listed).toMatchObject({ status: 'pending', creditCode: DEMO_CREDIT_CODE, version: 1 });
    const flagged = await get(`/ks/basic/v1/enterprise/info/list?${qs({ keyword: '示例建设' })}`, admin);
    expect(flagged.body.data.records[0].pendingChange).toBe(true);

    const pass = await post(AUDIT, admin, { id: change.id, version: 1, pass: true });
    expect(pass.status).toBe(200);
    expect(pass.body.data).toMatchObject({ status: 'approved', decidedBy: '平台管理员' });

    const after = await publicRecord();
    expect(after.basic).toMatchObject({ legalPerson: '王志刚', region: '晋中市', registeredCapital: '120000000.00' });
    expect(after.listed.region).toBe('晋中市');
    const own = await current();
    expect(own).toMatchObject({ legalPerson: '王志刚', region: '晋中市' });
    expect(own.change).toMatchObject({ id: change.id, status: 'approved' });
    expect(
      (await get(`/ks/basic/v1/enterprise/info/list?${qs({ keyword: '示例建设' })}`, admin)).body.data.records[0]
        .pendingChange,
    ).toBe(false);

    const logs = (await opLogs(t, '企业信息', ownId)).map((l) => [l.czrName, l.logbook]);
    expect(logs).toEqual([
      ['张建国', expect.stringMatching(/^提交企业信息变更申请：法定代表人：李明华 → 王志刚；/)],
      ['平台管理员', expect.stringMatching(/^通过企业信息变更申请：法定代表人：李明华 → 王志刚；/)],
    ]);
    // decided once only
    const again = await post(AUDIT, admin, { id: change.id, version: 1, pass: false, reason: '重复审核' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(E.changeDecided);
  });

  it('a rejection needs a reason; the enterprise sees it was rejected and why; the portal keeps the old values', async () => {
    const before = await publicRecord();
    const change = (await propose({ address: '晋中市榆次区迎宾街 88 号' })).body.data.change;

    const noReason = await post(AUDIT, admin, { id: change.id, version: change.version, pass: false });
    expect(noReason.status).toBe(400);
    expect(noReason.body.data.fieldErrors.reason).toEqual([E.reasonRequired]);
    const blank = await post(AUDIT, admin, { id: change.id, version: change.version, pass: false, reason: '   ' });
    expect(blank.status).toBe(400);

    const reject = await post(AUDIT, admin, {
      id: change.id,
      version: change.version,
      pass: false,
      reason: '注册地址与营业执照不一致，请上传变更后的营业执照',
    });
    expect(reject.status).toBe(200);
    expect(reject.body.data).toMatchObject({
      status: 'rejected',
      reason: '注册地址与营业执照不一致，请上传变更后的营业执照',
    });
    const own = await current();
    expect(own.change).toMatchObject({
      id: change.id,
      status: 'rejected',
      reason: '注册地址与营业执照不一致，请上传变更后的营业执照',
    });
    expect(own.address).toBe(before.basic.address);
    expect((await publicRecord()).basic).toEqual(before.basic);
    const last = (await opLogs(t, '企业信息', ownId)).at(-1)!;
    expect(last.logbook).toMatch(/^驳回企业信息变更申请：注册地址：.*；审核建议：注册地址与营业执照不一致/);
  });

  it('a second edit while one waits revises it: a decision on the old version is 409', async () => {
    const first = (await propose({ address: '太原市小店区长治路 300 号' })).body.data.change;
    const second = (await propose({ address: '太原市小店区长治路 301 号' })).body.data.change;
    expect(second.id).toBe(first.id);
    expect(second.version).toBe(first.version + 1);
    const rows = await t.database.db.select().from(enterpriseChanges).where(eq(enterpriseChanges.status, 'pending'));
    expect(rows).toHaveLength(1);
    const stale = await post(AUDIT, admin, { id: first.id, version: first.version, pass: true });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(E.changeStale);
    expect((await current()).address).not.toBe('太原市小店区长治路 301 号');
    const ok = await post(AUDIT, admin, { id: second.id, version: second.version, pass: true });
    expect(ok.status).toBe(200);
    expect((await current()).address).toBe('太原市小店区长治路 301 号');
  });

  it('does not overwrite what an administrator changed after the proposal: 409, nothing written', async () => {
    const change = (await propose({ legalPerson: '赵文博' })).body.data.change;
    const info = (await get(`${INFO}?${qs({ id: ownId })}`, admin)).body.data;
    const direct = await put(INFO, admin, {
      id: ownId,
      updatedAt: info.updatedAt,
      legalPerson: '孙雅琴',
      region: info.region,
      address: info.address,
      registeredCapital: info.registeredCapital,
      establishedAt: info.establishedAt,
    });
    expect(direct.status).toBe(200);
    const r = await post(AUDIT, admin, { id: change.id, version: change.version, pass: true });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(E.changeOutdated);
    expect((await current()).legalPerson).toBe('孙雅琴');
    expect((await current()).change.status).toBe('pending');
    // the administrator rejects it instead
    expect((await post(AUDIT, admin, { ...change, pass: false, reason: '法定代表人已由管理员更正' })).status).toBe(200);
  });

  it('refuses an edit that changes nothing, and lets exactly one of two simultaneous decisions win', async () => {
    const same = await propose({});
    expect(same.status).toBe(400);
    expect(same.body.message).toBe(E.unchanged);

    const change = (await propose({ address: '太原市小店区长治路 227 号 9 层' })).body.data.change;
    const both = await Promise.all([
      post(AUDIT, admin, { id: change.id, version: change.version, pass: true }),
      post(AUDIT, admin, { id: change.id, version: change.version, pass: false, reason: '并发驳回' }),
    ]);
    expect(both.map((b) => b.status).sort()).toEqual([200, 409]);
    const decided = (await current()).change;
    expect(['approved', 'rejected']).toContain(decided.status);
    expect((await current()).address === '太原市小店区长治路 227 号 9 层').toBe(decided.status === 'approved');
  });

  it('only administrators list and decide changes; unknown ids are 404; filters and bad input are checked', async () => {
    for (const token of [user1, dev]) {
      expect((await get(CHANGES, token)).status).toBe(403);
      expect((await post(AUDIT, token, { id: ownId, version: 1, pass: true })).status).toBe(403);
    }
    const unknown = await post(AUDIT, admin, { id: '00000000-0000-4000-8000-000000000000', version: 1, pass: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(Code.NOT_FOUND);
    expect((await post(AUDIT, admin, { id: 'x', version: 1, pass: true })).status).toBe(400);
    expect((await post(AUDIT, admin, { id: ownId, version: 0, pass: true })).status).toBe(400);
    expect((await get(`${CHANGES}?${qs({ status: 'done' })}`, admin)).status).toBe(400);

    const rejected = (await get(`${CHANGES}?${qs({ status: 'rejected', keyword: '示例建设' })}`, admin)).body.data;
    expect(rejected.total).toBeGreaterThanOrEqual(2);
    expect(rejected.records.every((c: any) => c.status === 'rejected' && c.reason)).toBe(true);
    const approved = (await get(`${CHANGES}?${qs({ status: 'approved' })}`, admin)).body.data;
    expect(approved.records.every((c: any) => c.status === 'approved' && c.decidedAt)).toBe(true);
    expect((await get(`${CHANGES}?${qs({ keyword: '不存在的企业' })}`, admin)).body.data.total).toBe(0);
  });
});
