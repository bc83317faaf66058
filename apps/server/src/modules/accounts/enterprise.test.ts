import { Code, ENTERPRISE_MESSAGES, RFC_MESSAGES } from '@ks/contracts';
import { eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, users } from '../../db/schema';
import { DEMO_CREDIT_CODE } from '../../seed/demo';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { forgetSessions } from '../auth/auth.repo';
import { opLogs, qs } from './testkit';

let t: TestApp;
const { get, put } = client(() => t);
let admin: string;
let dev: string;
let user1: string;
let ownId: string;
let otherId: string;

const INFO = '/ks/basic/v1/enterprise/info';
const LIST = '/ks/basic/v1/enterprise/info/list';
const edit = {
  legalPerson: '李明华',
  region: '太原市',
  address: '太原市小店区长治路 227 号 8 层',
  registeredCapital: '90000000.50',
  establishedAt: '2008-06-18',
};

beforeAll(async () => {
  t = await createTestApp({ env: { SINGLE_SESSION: '0' } });
  admin = await loginToken(t.app, 'admin', 'M');
  dev = await loginToken(t.app, 'dev', 'D');
  user1 = await loginToken(t.app, 'user1', 'U');
  const db = t.database.db;
  ownId = (await db.select().from(enterprises).where(eq(enterprises.creditCode, DEMO_CREDIT_CODE)))[0]!.id;
  otherId = (await db.select().from(enterprises).where(ne(enterprises.id, ownId)).limit(1))[0]!.id;
});
afterAll(async () => t?.close());

describe('/system/companyInfo for a U user', () => {
  it('shows the own enterprise with its staff count and no missing fields', async () => {
    const r = await get(INFO, user1);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      id: ownId,
      name: '示例建设工程有限公司',
      creditCode: DEMO_CREDIT_CODE,
      legalPerson: '李明华',
      staffCount: 1,
      missing: [],
    });
    expect((await get(`${INFO}?${qs({ id: ownId })}`, user1)).status).toBe(200);
  });

  it('cannot read or edit another enterprise (403), whatever id is sent', async () => {
    const read = await get(`${INFO}?${qs({ id: otherId })}`, user1);
    expect(read.status).toBe(403);
    expect(read.body.message).toBe(ENTERPRISE_MESSAGES.otherEnterprise);
    const other = (await get(`${INFO}?${qs({ id: otherId })}`, admin)).body.data;
    const write = await put(INFO, user1, { ...edit, id: otherId, updatedAt: other.updatedAt });
    expect(write.status).toBe(403);
    const after = (await get(`${INFO}?${qs({ id: otherId })}`, admin)).body.data;
    expect(after.updatedAt).toBe(other.updatedAt);
    expect(after.address).toBe(other.address);
  });

  it('lists what is missing after a field was emptied', async () => {
    await t.database.db
      .update(enterprises)
      .set({ legalPerson: null, establishedAt: null })
      .where(eq(enterprises.id, ownId));
    const r = await get(INFO, user1);
    expect(r.body.data.missing).toEqual(['legalPerson', 'establishedAt']);
  });

  it('refuses a direct edit of the own enterprise: it is an information change round (/ks/rfc/*)', async () => {
    const before = (await get(INFO, user1)).body.data;
    const r = await put(INFO, user1, { ...edit, id: ownId, updatedAt: before.updatedAt });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(RFC_MESSAGES.directEditRefused);
    const after = (await get(INFO, user1)).body.data;
    expect(after).toMatchObject({ address: before.address, updatedAt: before.updatedAt, change: null });
    expect(await opLogs(t, '企业信息', ownId)).toHaveLength(0);
  });

  it('validates the edit field by field', async () => {
    const current = (await get(INFO, user1)).body.data;
    const base = { ...edit, id: ownId, updatedAt: current.updatedAt };
    for (const [patch, field] of [
      [{ legalPerson: '' }, 'legalPerson'],
      [{ region: '北京市' }, 'region'],
      [{ address: ' ' }, 'address'],
      [{ address: '\u0000' }, 'address'],
      [{ registeredCapital: 'abc' }, 'registeredCapital'],
      [{ registeredCapital: '1.234' }, 'registeredCapital'],
      [{ registeredCapital: '-5' }, 'registeredCapital'],
      [{ establishedAt: '2008-02-30' }, 'establishedAt'],
      [{ establishedAt: '2999-01-01' }, 'establishedAt'],
      [{ updatedAt: 'now' }, 'updatedAt'],
    ] as const) {
      const r = await put(INFO, user1, { ...base, ...patch });
      expect(r.status, JSON.stringify(patch)).toBe(400);
      expect(r.body.data.fieldErrors[field], JSON.stringify(patch)).toBeDefined();
    }
  });

  it('a U account without an enterprise gets 404', async () => {
    await t.database.db.update(users).set({ enterpriseId: null }).where(eq(users.account, 'user1'));
    // a change behind the server's back: it is told, as the account screens tell it
    forgetSessions();
    try {
      const r = await get(INFO, user1);
      expect(r.status).toBe(404);
      expect(r.body.message).toBe(ENTERPRISE_MESSAGES.notLinked);
    } finally {
      await t.database.db.update(users).set({ enterpriseId: ownId }).where(eq(users.account, 'user1'));
      forgetSessions();
    }
  });
});

describe('/system/companyInfo for administrators and developers', () => {
  it('developers get 403 on every enterprise endpoint', async () => {
    expect((await get(INFO, dev)).status).toBe(403);
    expect((await put(INFO, dev, {})).status).toBe(403);
    const list = await get(LIST, dev);
    expect(list.status).toBe(403);
    expect(list.body.code).toBe(Code.FORBIDDEN);
    expect((await get(LIST, user1)).status).toBe(403);
  });

  it('an administrator pages through enterprises with keyword, type and whitelisted sorting', async () => {
    const all = (await get(`${LIST}?${qs({ pageSize: 50 })}`, admin)).body.data;
    expect(all.total).toBe(37);
    expect(all.records[0]).not.toHaveProperty('address');
    // sorted by name (the database's collation): descending is ascending reversed
    const desc = (await get(`${LIST}?${qs({ pageSize: 50, sortField: 'name', order: 'desc' })}`, admin)).body.data;
    expect(desc.records.map((e: any) => e.name)).toEqual(all.records.map((e: any) => e.name).reverse());
    const kw = (await get(`${LIST}?${qs({ keyword: '示例建设' })}`, admin)).body.data;
    expect(kw.records).toHaveLength(1);
    expect(kw.records[0]).toMatchObject({ id: ownId, staffCount: 1 });
    const byCode = (await get(`${LIST}?${qs({ keyword: DEMO_CREDIT_CODE.slice(0, 12) })}`, admin)).body.data;
    expect(byCode.records.map((e: any) => e.id)).toContain(ownId);
    const agencies = (await get(`${LIST}?${qs({ enterpriseType: '招标代理机构', pageSize: 50 })}`, admin)).body.data;
    expect(agencies.total).toBeGreaterThan(0);
    expect(agencies.records.every((e: any) => e.enterpriseType === '招标代理机构')).toBe(true);
    const p2 = (await get(`${LIST}?${qs({ pageNum: 2, pageSize: 10 })}`, admin)).body.data;
    expect(p2.records).toHaveLength(10);
    expect(p2.records[0].id).not.toBe(all.records[0].id);
    expect((await get(`${LIST}?${qs({ sortField: 'legalPerson' })}`, admin)).status).toBe(400);
  });

  it('an administrator reads and edits any enterprise; the id is required; unknown ids are 404', async () => {
    const detail = await get(`${INFO}?${qs({ id: otherId })}`, admin);
    expect(detail.status).toBe(200);
    const r = await put(INFO, admin, {
      ...edit,
      legalPerson: '周红',
      id: otherId,
      updatedAt: detail.body.data.updatedAt,
    });
    expect(r.status).toBe(200);
    expect(r.body.data.legalPerson).toBe('周红');
    expect((await opLogs(t, '企业信息', otherId))[0]).toMatchObject({ czrClassification: '管理员' });

    const noId = await get(INFO, admin);
    expect(noId.status).toBe(400);
    expect(noId.body.data.fieldErrors.id).toBeDefined();
    expect((await get(`${INFO}?${qs({ id: '00000000-0000-4000-8000-000000000000' })}`, admin)).status).toBe(404);
    expect(
      (
        await put(INFO, admin, {
          ...edit,
          id: '00000000-0000-4000-8000-000000000000',
          updatedAt: new Date().toISOString(),
        })
      ).status,
    ).toBe(404);
  });
});
