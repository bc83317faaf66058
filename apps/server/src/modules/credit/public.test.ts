import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises } from '../../db/schema';
import { DEMO_CREDIT_CODE } from '../../seed/demo';
import { createTestApp, type TestApp } from '../../test/harness';
import { regrade } from './grade.service';
import { creditClient, dayFrom, newEnterprise, P, passedRecord, standardId } from './testkit';

/**
 * The public credit list (信用公示): no sign-in, name (prefix or part) or credit code, paged, grade and validity — and
 * never anything else: no evidence files, no people, no records.
 */

let t: TestApp;
const api = creditClient(() => t);
const db = () => t.database.db;
const ROW_KEYS = ['creditCode', 'evaluatedOn', 'level', 'name', 'score', 'validUntil'];

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const list = async (q: Record<string, string | number>) => {
  const qs = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return api.get(`${P.publicList}?${qs}`, null);
};

describe('the public credit list', () => {
  it('answers without sign-in: the demo enterprise by name prefix, with grade, score and validity only', async () => {
    const r = await list({ keyword: '示例建设' });
    expect(r.status).toBe(200);
    expect(r.body!.data).toMatchObject({ total: 1, totalCapped: false });
    const [row] = r.body!.data.records;
    expect(row).toMatchObject({ name: '示例建设工程有限公司', creditCode: DEMO_CREDIT_CODE, level: 'AA', score: 88.5 });
    expect(row.validUntil).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(row.evaluatedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('leaks no personal data, files or records: every row has exactly the public keys', async () => {
    const r = await list({ pageSize: 50 });
    expect(r.body!.data.records.length).toBe(37);
    for (const row of r.body!.data.records) expect(Object.keys(row).sort()).toEqual(ROW_KEYS);
    expect(Object.keys(r.body!.data).sort()).toEqual(['records', 'total', 'totalCapped']);
    const text = r.res.body;
    const [demo] = await db().select().from(enterprises).where(eq(enterprises.creditCode, DEMO_CREDIT_CODE));
    for (const secret of [demo!.legalPerson!, demo!.address!, demo!.id, '13800138000', '张建国', 'fileId', 'url']) {
      expect(text).not.toContain(secret);
    }
  });

  it('finds by credit code, by a part of the name, pages in name order, and treats wildcards as text', async () => {
    const byCode = await list({ keyword: DEMO_CREDIT_CODE.toLowerCase() });
    expect(byCode.body!.data.records.map((x: { name: string }) => x.name)).toEqual(['示例建设工程有限公司']);
    const part = await list({ keyword: '建设工程', match: 'contains', pageSize: 50 });
    const names = part.body!.data.records.map((x: { name: string }) => x.name);
    expect(names.length).toBeGreaterThan(1);
    for (const n of names) expect(n).toContain('建设工程');
    // prefix: only names that start with it
    const prefix = await list({ keyword: '建设工程' });
    for (const x of prefix.body!.data.records) expect(x.name.startsWith('建设工程')).toBe(true);
    const p1 = (await list({ keyword: '山西', pageSize: 10, pageNum: 1 })).body!.data;
    const p2 = (await list({ keyword: '山西', pageSize: 10, pageNum: 2 })).body!.data;
    expect(p1.total).toBe(p2.total);
    const all = [...p1.records, ...p2.records].map((x: { name: string }) => x.name);
    expect(new Set(all).size).toBe(all.length);
    expect(Buffer.compare(Buffer.from(all[0]!), Buffer.from(all[1]!))).toBeLessThan(0);
    expect((await list({ keyword: '%' })).body!.data.total).toBe(0);
    expect((await list({ keyword: '_' })).body!.data.total).toBe(0);
    const aaa = (await list({ level: 'AAA', pageSize: 50 })).body!.data.records;
    expect(aaa.length).toBeGreaterThan(0);
    for (const x of aaa) expect(x.level).toBe('AAA');
    expect((await list({ pageNum: 101 })).status).toBe(400);
    expect((await list({ pageSize: 13 })).status).toBe(400);
  });

  it('shows a grade that ran out as regraded, on the day after', async () => {
    const ent = await newEnterprise(db(), '公示到期测试建设有限公司');
    await passedRecord(db(), ent, {
      standardId: await standardId(db(), 'BL-HT-01'),
      score: 12,
      startTime: dayFrom(t.clock.now, -20),
      endTime: dayFrom(t.clock.now, 0),
    });
    await db().transaction((tx) => regrade(tx, { kind: 'enterprise', id: ent }, t.clock.now));
    const before = (await list({ keyword: '公示到期测试' })).body!.data.records[0];
    expect(before).toMatchObject({ score: 68, level: 'B', validUntil: dayFrom(t.clock.now, 0) });
    t.clock.advance(86_400_000);
    const after = (await list({ keyword: '公示到期测试' })).body!.data.records[0];
    expect(after).toMatchObject({ score: 80, level: 'AA', validUntil: null, evaluatedOn: dayFrom(t.clock.now, 0) });
  });

  it('a total kept between searches follows every change of names and grades', async () => {
    const total = async (q: Record<string, string>) => (await list(q)).body!.data.total as number;
    const before = await total({ keyword: '山西' });
    expect(await total({ keyword: '山西' })).toBe(before);
    const ent = await newEnterprise(db(), '山西计数测试建设有限公司');
    expect(await total({ keyword: '山西' })).toBe(before + 1);
    const aaa = await total({ level: 'AAA' });
    expect(await total({ level: 'AAA' })).toBe(aaa);
    await passedRecord(db(), ent, {
      standardId: await standardId(db(), 'LH-GC-01'),
      score: 10,
      startTime: dayFrom(t.clock.now, -1),
      endTime: dayFrom(t.clock.now, 30),
    });
    await db().transaction((tx) => regrade(tx, { kind: 'enterprise', id: ent }, t.clock.now));
    expect(await total({ level: 'AAA' })).toBe(aaa + 1);
    await db().update(enterprises).set({ name: '太原计数测试建设有限公司' }).where(eq(enterprises.id, ent));
    expect(await total({ keyword: '山西' })).toBe(before);
  });

  it('lists an enterprise nobody has evaluated yet without a grade', async () => {
    await newEnterprise(db(), '新注册未评价有限公司');
    const [row] = (await list({ keyword: '新注册未评价' })).body!.data.records;
    expect(row).toEqual({
      name: '新注册未评价有限公司',
      creditCode: expect.any(String),
      level: null,
      score: null,
      evaluatedOn: null,
      validUntil: null,
    });
  });

  it('answers the level titles without sign-in, highest first, as administrators set them', async () => {
    const r = await api.get(P.publicLevels, null);
    expect(r.status).toBe(200);
    const levels = r.body!.data.levels as { title: string; minScore: number; maxScore: number | null }[];
    expect(levels.map((l) => l.title)).toEqual(['AAA', 'AA', 'A', 'B', 'C']);
    expect(levels[0]!.maxScore).toBeNull();
    for (let i = 1; i < levels.length; i++) expect(levels[i]!.maxScore).toBe(levels[i - 1]!.minScore);
    expect(levels.at(-1)!.minScore).toBe(0);
    expect(Object.keys(r.body!.data)).toEqual(['levels']);
  });
});
