import { PERFORMANCE_MSG, PERFORMANCE_NODE } from '@ks/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performances, users } from '../../db/schema';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { client } from '../files/testkit';

/**
 * 企业业绩 (issue 19): declared in the engine node, reviewed, and — on the final pass — the enterprise's performance,
 * read by anyone (the market detail page's data).
 */
let t: TestApp;
const c = client(() => t);
let admin: string;
let user: string;
let enterpriseId: string;
const LIST = '/ks/basic/v1/enterprise/performance-list';
const ONE = '/ks/basic/v1/enterprise/performance';
const E = '/ks/engine/v1/records';

const values = (over: Record<string, unknown> = {}) => ({
  xmmc: '大同市平城区御河东路排水管网改造工程',
  cdjs: '施工总承包',
  jsdw: '大同市平城区住房和城乡建设局',
  xmszd: '大同市平城区',
  htje: 9_876_543,
  kgrq: '2024-05-06',
  jgrq: '2025-07-08',
  ...over,
});

async function declare(v: Record<string, unknown>) {
  const saved = await c.post(`${E}/save`, user, { gnCoding: PERFORMANCE_NODE, values: v });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const id = saved.body.data.id as string;
  const sub = await c.post(`${E}/submit`, user, { gnCoding: PERFORMANCE_NODE, id, version: saved.body.data.version });
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  return { id, version: sub.body.data.version as number };
}
const decide = (r: { id: string; version: number }, pass: boolean) =>
  c.post(`${E}/audit`, admin, { gnCoding: PERFORMANCE_NODE, ...r, pass, suggestion: pass ? '属实' : '材料不全' });
const listOf = async (body: object) => {
  const r = await c.post(LIST, null, { enterpriseId, ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { records: { projectName: string; recordId: string | null; id: string }[]; total: number };
};

beforeAll(async () => {
  t = await createTestApp();
  [admin, user] = await Promise.all([loginToken(t.app, 'admin', 'M'), loginToken(t.app, 'user1', 'U')]);
  const [u] = await t.database.db.select().from(users).where(eq(users.account, 'user1'));
  enterpriseId = u!.enterpriseId!;
});
afterAll(async () => t?.close());

describe('企业业绩', () => {
  it('the demo’s passed declarations are the enterprise’s performances, readable without signing in', async () => {
    const page = await listOf({ pageSize: 50 });
    const declared = page.records.filter((r) => r.recordId);
    expect(declared.map((r) => r.projectName).sort()).toEqual([
      '太原市小店区许坦东街道路改造工程',
      '晋中市榆次区第二实验小学教学楼工程',
    ]);
    // the one waiting for review and the draft are not
    expect(page.records.some((r) => r.projectName.includes('荫营镇'))).toBe(false);
    const one = await c.post(ONE, null, { id: declared[0]!.id });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ enterpriseId, builder: expect.any(String), role: '施工总承包' });
  });

  it('a declaration becomes a performance at its final pass, not before and not when rejected', async () => {
    const before = (await listOf({})).total;
    const passed = await declare(values());
    expect((await listOf({})).total).toBe(before);
    const ok = await decide(passed, true);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const found = await listOf({ keyword: '御河东路' });
    expect(found.records).toHaveLength(1);
    expect(found.records[0]).toMatchObject({
      recordId: passed.id,
      amount: '9876543.00',
      startedAt: '2024-05-06',
      completedAt: '2025-07-08',
      region: '大同市平城区',
    });
    const rejected = await declare(values({ xmmc: '朔州市朔城区某驳回工程' }));
    expect((await decide(rejected, false)).status).toBe(200);
    expect((await listOf({ keyword: '驳回' })).total).toBe(0);
    // by builder and by role
    expect((await listOf({ keyword: '平城区住房' })).total).toBe(1);
    expect((await listOf({ role: '监理' })).total).toBe(0);
  });

  it('refuses a pass whose completion precedes its start: the record stays in review, nothing is written', async () => {
    const bad = await declare(values({ xmmc: '日期颠倒的工程', kgrq: '2025-05-01', jgrq: '2025-01-01' }));
    const r = await decide(bad, true);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(PERFORMANCE_MSG.endBeforeStart);
    const rows = await t.database.db.select().from(performances).where(eq(performances.recordId, bad.id));
    expect(rows).toEqual([]);
    const d = await c.post(`${E}/detail`, admin, { gnCoding: PERFORMANCE_NODE, id: bad.id });
    expect(d.body.data.status).toBe('pending');
  });

  it('answers a clear error for an unknown or malformed id and a bad filter', async () => {
    const none = await c.post(ONE, null, { id: '00000000-0000-4000-8000-000000000000' });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe(PERFORMANCE_MSG.missing);
    expect((await c.post(ONE, null, { id: 'x' })).status).toBe(400);
    expect((await c.post(LIST, null, { role: '总包' })).status).toBe(400);
    expect((await c.post(LIST, null, { pageSize: 500 })).status).toBe(400);
  });
});
