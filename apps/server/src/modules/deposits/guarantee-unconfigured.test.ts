import { GUARANTEE_MESSAGES as G, GUARANTEE_NODE } from '@ks/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tradeGuarantees, users } from '../../db/schema';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { projects } from '../tender/project';
import { bhsq } from './node';
import { insertSection, register } from './testkit';

/**
 * Without a configured issuer the product says so and refuses to apply, writing nothing (issue 16); the demo's deposits
 * and its issued letter (demo history) are there for user1 all the same.
 */
let t: TestApp;
const api = client(() => t);
let user1: string;

beforeAll(async () => {
  // the seeded evidence files (the demo's issued letter) are read from the run's seed DATA_DIR; this file writes none
  t = await createTestApp({ env: { GUARANTEE_POLL_SECONDS: '0', DATA_DIR: inject('seedDataDir') } });
  user1 = await loginToken(t.app, 'user1', 'U');
}, 60_000);
afterAll(async () => t?.close());

describe('no issuer configured', () => {
  it('is reported, and applying is refused with a clear message, nothing written', async () => {
    expect((await api.get('/ks/trade/guarantee/issuer', user1)).body.data).toEqual({ configured: false, name: null });
    const db = t.database.db;
    const [a] = await db.select().from(users).where(eq(users.account, 'admin'));
    const school = (await projects.list(db, { where: { xmbh: 'SXGC-2026-1101' } }))[0]!.id;
    const s = await insertSection(db, {
      projectId: school,
      code: 'WPZ-01',
      deposit: 10_000,
      bidDeadline: new Date(t.clock.now.getTime() + 20 * 86_400_000),
      createdBy: a!.id,
    });
    await register(db, s.id, 'user1', t.clock.now);
    const before = (await bhsq.list(db, { limit: 1000 })).length;
    const r = await api.post('/ks/trade/guarantee', user1, { sectionId: s.id });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(G.notConfigured);
    expect(r.body.message).toContain('未配置出函机构');
    expect((await bhsq.list(db, { limit: 1000 })).length).toBe(before);
    expect(
      Number((await db.select({ n: count() }).from(tradeGuarantees).where(eq(tradeGuarantees.sectionId, s.id)))[0]!.n),
    ).toBe(0);
    const list = await api.post('/ks/trade/deposit/list', user1, {});
    expect(list.body.data.issuer).toEqual({ configured: false, name: null });
    const mine = list.body.data.deposits.find((d: { sectionId: string }) => d.sectionId === s.id);
    expect(mine.operations).toMatchObject({ pay: true, applyGuarantee: false });
    expect(GUARANTEE_NODE).toBe('DZBH_BHSQ');
  });
});

describe('the demo', () => {
  it("user1's deposits on the demo sections: one received in cash, one secured by an issued letter", async () => {
    const list = await api.post('/ks/trade/deposit/list', user1, {});
    const demo = (
      list.body.data.deposits as {
        projectCode: string;
        sectionCode: string;
        status: string;
        securedBy: string | null;
      }[]
    )
      .filter((d) => d.projectCode?.startsWith('SXGC-2026-110'))
      .map((d) => [d.projectCode, d.sectionCode, d.status, d.securedBy]);
    expect(demo).toEqual(
      expect.arrayContaining([
        ['SXGC-2026-1101', 'BD-01', 'unpaid', 'guarantee'],
        ['SXGC-2026-1102', 'BD-01', 'received', 'cash'],
      ]),
    );
    const letter = (list.body.data.guarantees as { id: string; guaranteeNo: string; status: string }[]).find(
      (g) => g.guaranteeNo === 'JSBH-2026-110101',
    )!;
    expect(letter.status).toBe('issued');
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/ks/trade/getbaohanfile?id=${letter.id}`,
      headers: { authorization: `Bearer ${user1}` },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
