import { Code, creditCodeCheckChar, ORG_MESSAGES } from '@ks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGANIZATIONS } from '../../seed/accounts';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { opLogs, qs } from './testkit';

let t: TestApp;
const { get, post, put, del } = client(() => t);
let admin: string;
let dev: string;
let user1: string;

const ORGS = '/ks/basic/v1/organizations';
const validCode = (first17: string) => `${first17}${creditCodeCheckChar(first17)}`;
const input = {
  name: '晋中市公共资源交易中心',
  orgType: '交易中心',
  region: '晋中市',
  creditCode: validCode('12140700MB0394725'),
  contact: '韩磊',
  phone: '0354-3028866',
  address: '晋中市榆次区迎宾西街 126 号',
  enabled: true,
};

beforeAll(async () => {
  t = await createTestApp({ env: { SINGLE_SESSION: '0' } });
  admin = await loginToken(t.app, 'admin', 'M');
  dev = await loginToken(t.app, 'dev', 'D');
  user1 = await loginToken(t.app, 'user1', 'U');
});
afterAll(async () => t?.close());

describe('/system/managementInfo: 管理机构', () => {
  it('lists the five seeded organisations of 山西 for administrators and developers; U gets 403', async () => {
    for (const token of [admin, dev]) {
      const r = await get(`${ORGS}?${qs({ sortField: 'name' })}`, token);
      expect(r.status).toBe(200);
      expect(r.body.data.total).toBe(DEMO_ORGANIZATIONS.length);
      expect(r.body.data.records.map((o: any) => o.name).sort()).toEqual(DEMO_ORGANIZATIONS.map((o) => o.name).sort());
      expect(r.body.data.records[0]).toMatchObject({ enabled: true, version: 1 });
    }
    const u = await get(ORGS, user1);
    expect(u.status).toBe(403);
    expect(u.body.code).toBe(Code.FORBIDDEN);
  });

  it('filters by type, region, enabled and keyword; sorts only by whitelisted fields', async () => {
    const centres = (await get(`${ORGS}?${qs({ orgType: '交易中心' })}`, admin)).body.data;
    expect(centres.total).toBe(2);
    expect(centres.records.every((o: any) => o.orgType === '交易中心')).toBe(true);
    const datong = (await get(`${ORGS}?${qs({ region: '大同市' })}`, admin)).body.data;
    expect(datong.records.map((o: any) => o.name)).toEqual(['大同市水务局']);
    const kw = (await get(`${ORGS}?${qs({ keyword: '住房' })}`, admin)).body.data;
    expect(kw.records.map((o: any) => o.name)).toEqual(['山西省住房和城乡建设厅']);
    expect((await get(`${ORGS}?${qs({ enabled: false })}`, admin)).body.data.total).toBe(0);
    const paged = (await get(`${ORGS}?${qs({ pageSize: 10, pageNum: 1 })}`, admin)).body.data;
    expect(paged.records).toHaveLength(5);
    for (const [params, field] of [
      [{ sortField: 'phone' }, 'sortField'],
      [{ orgType: '银行' }, 'orgType'],
      [{ region: '北京市' }, 'region'],
      [{ enabled: 'yes' }, 'enabled'],
      [{ pageSize: 100 }, 'pageSize'],
      [{ keyword: 'a\u0000b' }, 'keyword'],
    ] as const) {
      const r = await get(`${ORGS}?${qs(params)}`, admin);
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body.data.fieldErrors[field]).toBeDefined();
    }
  });

  it('only administrators create, edit and delete (403 for D and U, whatever the body)', async () => {
    for (const token of [dev, user1]) {
      expect((await post(ORGS, token, input)).status).toBe(403);
      expect((await put(ORGS, token, {})).status).toBe(403);
      expect((await del(`${ORGS}?id=bad`, token)).status).toBe(403);
    }
  });

  it('validates the input: required fields, credit code check digit, phone format', async () => {
    for (const [patch, field] of [
      [{ name: '' }, 'name'],
      [{ orgType: '银行' }, 'orgType'],
      [{ region: '' }, 'region'],
      [{ creditCode: '91140100MA0K8G2J70' }, 'creditCode'],
      [{ creditCode: '123' }, 'creditCode'],
      [{ phone: '12345' }, 'phone'],
      [{ address: 'x'.repeat(201) }, 'address'],
      // PostgreSQL cannot store a NUL character: a 400, never a 500
      [{ name: 'a\u0000b' }, 'name'],
      [{ contact: '\u0000' }, 'contact'],
    ] as const) {
      const r = await post(ORGS, admin, { ...input, ...patch });
      expect(r.status, JSON.stringify(patch)).toBe(400);
      expect(r.body.data.fieldErrors[field], JSON.stringify(patch)).toBeDefined();
    }
    const bad = await post(ORGS, admin, { ...input, creditCode: '123' });
    expect(bad.body.data.fieldErrors.creditCode).toEqual([ORG_MESSAGES.creditCode]);
  });

  it('creates (credit code optional), refuses a duplicate name or credit code with 409, and logs', async () => {
    const r = await post(ORGS, admin, input);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ ...input, version: 1 });
    expect(await opLogs(t, '管理机构', r.body.data.id)).toHaveLength(1);

    const noCode = await post(ORGS, admin, { ...input, name: '阳泉市住房和城乡建设局', creditCode: '', phone: null });
    expect(noCode.status).toBe(200);
    expect(noCode.body.data).toMatchObject({ creditCode: null, phone: null });

    const dupName = await post(ORGS, admin, { ...input, creditCode: null });
    expect(dupName.status).toBe(409);
    expect(dupName.body.message).toBe(ORG_MESSAGES.duplicate);
    const dupCode = await post(ORGS, admin, { ...input, name: '另一机构' });
    expect(dupCode.status).toBe(409);
    expect(dupCode.body.message).toBe(ORG_MESSAGES.duplicateCreditCode);
  });

  it('edits with the version it was based on; a stale version is 409, an unknown id 404', async () => {
    const org = (await get(`${ORGS}?${qs({ keyword: '晋中市公共资源' })}`, admin)).body.data.records[0];
    const r = await put(ORGS, admin, { ...org, contact: '韩磊磊', enabled: false });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ contact: '韩磊磊', enabled: false, version: org.version + 1 });
    const stale = await put(ORGS, admin, { ...org, contact: '别人' });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(ORG_MESSAGES.stale);
    const missingVersion = await put(ORGS, admin, { ...org, version: undefined });
    expect(missingVersion.body.data.fieldErrors.version).toBeDefined();
    // renaming onto another organisation's name is a 409 too
    const clash = await put(ORGS, admin, { ...r.body.data, name: '山西省住房和城乡建设厅' });
    expect(clash.status).toBe(409);
    expect((await put(ORGS, admin, { ...org, id: '00000000-0000-4000-8000-000000000000', version: 1 })).status).toBe(
      404,
    );
    expect((await get(`${ORGS}?${qs({ enabled: false })}`, dev)).body.data.records.map((o: any) => o.name)).toEqual([
      '晋中市公共资源交易中心',
    ]);
    expect((await opLogs(t, '管理机构', org.id)).length).toBe(2);
  });

  it('deletes an organisation (404 the second time) and logs it', async () => {
    const org = (await get(`${ORGS}?${qs({ keyword: '阳泉' })}`, admin)).body.data.records[0];
    const r = await del(`${ORGS}?${qs({ id: org.id })}`, admin);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('删除成功');
    expect((await del(`${ORGS}?${qs({ id: org.id })}`, admin)).status).toBe(404);
    expect((await del(`${ORGS}?id=1%20or%201=1`, admin)).status).toBe(400);
    expect((await opLogs(t, '管理机构', org.id)).some((l) => l.logbook.includes('删除'))).toBe(true);
  });
});
