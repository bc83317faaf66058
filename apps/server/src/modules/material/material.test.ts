import { MATERIAL_MSG, MATERIAL_XLSX } from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materialPeriods, materialPrices, operationLogs } from '../../db/schema';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { client } from '../files/testkit';
import { materialWorkbook } from './material.xlsx';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const IMPORT = '/ks/material/admin/import';

let t: TestApp;
const c = client(() => t);
let admin: string;
let dev: string;
let user: string;
beforeAll(async () => {
  t = await createTestApp();
  [admin, dev, user] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
  ]);
});
afterAll(async () => t?.close());

const good = (): (string | number | null)[][] => [
  ['小店区', '黑色及有色金属', '钢筋', 'T9901', '测试螺纹钢', 'HRB400E Φ16', 't', 3451.33, 3900, ''],
  ['', '水泥、砖瓦灰砂石', '水泥', 'T9902', '测试水泥', 'P·O 42.5', 't', '407.08', '460.00', '散装'],
  ['迎泽区', '混凝土及砂浆', '商品混凝土', 'T9903', '测试混凝土', 'C30', 'm³', 466.02, 480, null],
];
const upload = (
  token: string | null,
  rows: (string | number | null)[][],
  fields = { period: '2025-01', city: '太原市' },
  name = '信息价.xlsx',
) => c.upload(IMPORT, token, fields, [{ name, data: materialWorkbook(rows), type: XLSX }]);
const periodsOf = (period: string) =>
  t.database.db
    .select()
    .from(materialPeriods)
    .where(and(eq(materialPeriods.period, period), eq(materialPeriods.city, '太原市')));

describe('import', () => {
  it('refuses a workbook with bad rows naming every one by row number, and writes nothing', async () => {
    const rows = good();
    rows.push(['不存在区', '黑色及有色金属', '钢筋', 'T9904', '坏行一', '', 't', 10, 11, '']);
    rows.push(['', '不存在分类', '钢筋', 'T9905', '坏行二', '', 't', 'abc', 11, '']);
    rows.push(['', '黑色及有色金属', '钢筋', 'T9906', '坏行三', '', 't', 20, 19, '']);
    rows.push(['小店区', '黑色及有色金属', '钢筋', 'T9901', '重复', 'HRB400E Φ16', 't', 1, 1, '']);
    rows.push(['', '黑色及有色金属', '', 'T9907', '', '', 't', 1, 1, '']);
    const r = await upload(admin, rows);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(MATERIAL_MSG.badRows(5));
    expect(r.body.data.errorCount).toBe(5);
    expect(r.body.data.errors.map((e: { row: number }) => e.row)).toEqual([5, 6, 7, 8, 9]);
    expect(r.body.data.errors[0].reason).toBe(MATERIAL_MSG.wrongCounty('太原市', '不存在区'));
    expect(r.body.data.errors[1].reason).toContain(MATERIAL_MSG.wrongClassification('不存在分类'));
    expect(r.body.data.errors[1].reason).toContain('除税价');
    expect(r.body.data.errors[2].reason).toBe(MATERIAL_MSG.taxBelow);
    expect(r.body.data.errors[3].reason).toBe(MATERIAL_MSG.duplicate(2));
    expect(r.body.data.errors[4].reason).toBe(`${MATERIAL_MSG.blank('材料组')}；${MATERIAL_MSG.blank('材料名称')}`);
    expect(await periodsOf('2025-01')).toHaveLength(0);
  });

  it('imports a good workbook as a draft with an operation-log row; the public does not see the draft', async () => {
    const r = await upload(admin, good());
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      period: '2025-01',
      label: '2025年1月',
      city: '太原市',
      status: 'draft',
      rowCount: 3,
    });
    const id = r.body.data.id;
    const stored = await t.database.db.select().from(materialPrices).where(eq(materialPrices.periodId, id));
    expect(stored.map((s) => [s.code, s.county, s.priceEx, s.priceIn]).sort()).toEqual([
      ['T9901', '小店区', '3451.33', '3900.00'],
      ['T9902', '', '407.08', '460.00'],
      ['T9903', '迎泽区', '466.02', '480.00'],
    ]);
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.recordId, id));
    expect(logs[0]!.logbook).toContain('导入太原市2025年1月材料信息价');
    const pub = await c.post('/ks/material/price/info-list', null, { city: '太原市', period: '2025-01' });
    expect(pub.status).toBe(200);
    expect(pub.body.data).toMatchObject({ records: [], total: 0, period: null });
    // administrators preview the draft
    const rows = await c.post('/ks/material/admin/info-list', dev, { periodId: id, keyWord: '水泥' });
    expect(rows.body.data.records.map((x: { code: string }) => x.code)).toEqual(['T9902']);
  });

  it('refuses another file type, a missing column, bad fields, and callers other than an administrator', async () => {
    const pdf = await c.upload(IMPORT, admin, { period: '2025-02', city: '太原市' }, [
      { name: 'a.pdf', data: Buffer.from('%PDF-1.4') },
    ]);
    expect(pdf.status).toBe(400);
    expect(pdf.body.message).toBe(MATERIAL_MSG.wrongType);
    const fake = await c.upload(IMPORT, admin, { period: '2025-02', city: '太原市' }, [
      { name: 'a.xlsx', data: Buffer.from('not a zip at all') },
    ]);
    expect(fake.status).toBe(400);
    expect(fake.body.message).toBe(MATERIAL_MSG.notXlsx);
    const badPeriod = await upload(admin, good(), { period: '2025-13', city: '太原市' });
    expect(badPeriod.status).toBe(400);
    const badCity = await upload(admin, good(), { period: '2025-02', city: '火星市' });
    expect(badCity.status).toBe(400);
    expect((await upload(user, good(), { period: '2025-02', city: '太原市' })).status).toBe(403);
    const d = await upload(dev, good(), { period: '2025-02', city: '太原市' });
    expect(d.status).toBe(403);
    expect(d.body.message).toBe(MATERIAL_MSG.readOnly);
    expect((await upload(null, good(), { period: '2025-02', city: '太原市' })).status).toBe(401);
    expect(await periodsOf('2025-02')).toHaveLength(0);
  });

  it('downloads the template, which imports as it is', async () => {
    const r = await c.get('/ks/material/admin/template', admin);
    expect(r.status).toBe(200);
    expect(String(r.res.headers['content-type'])).toBe(XLSX);
    const data = r.res.rawPayload;
    expect(data.subarray(0, 2).toString()).toBe('PK');
    expect((await c.get('/ks/material/admin/template', user)).status).toBe(403);
    const imp = await c.upload(IMPORT, admin, { period: '2025-03', city: '太原市' }, [
      { name: '模板.xlsx', data, type: XLSX },
    ]);
    expect(imp.status).toBe(200);
    expect(imp.body.data.rowCount).toBe(1);
    expect(MATERIAL_XLSX.columns).toHaveLength(10);
  });
});

describe('publish, withdraw, delete', () => {
  it('publishes a draft (one published period per period and city), withdraws it, deletes only drafts', async () => {
    const a = (await upload(admin, good(), { period: '2025-04', city: '太原市' })).body.data.id;
    const b = (await upload(admin, good(), { period: '2025-04', city: '太原市' })).body.data.id;
    expect((await c.post('/ks/material/admin/publish', user, { id: a })).status).toBe(403);
    expect((await c.post('/ks/material/admin/publish', dev, { id: a })).status).toBe(403);
    const p = await c.post('/ks/material/admin/publish', admin, { id: a });
    expect(p.status).toBe(200);
    expect(p.body.data.status).toBe('published');
    expect((await c.post('/ks/material/admin/publish', admin, { id: a })).status).toBe(409);
    const second = await c.post('/ks/material/admin/publish', admin, { id: b });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(MATERIAL_MSG.publishedExists('2025年4月', '太原市'));
    const del = await c.post('/ks/material/admin/delete', admin, { id: a });
    expect(del.status).toBe(409);
    // the public reads the published one
    const pub = await c.post('/ks/material/price/info-list', null, { city: '太原市', period: '2025-04' });
    expect(pub.body.data.total).toBe(3);
    expect(pub.body.data.period.id).toBe(a);
    const w = await c.post('/ks/material/admin/withdraw', admin, { id: a });
    expect(w.body.data.status).toBe('withdrawn');
    expect((await c.post('/ks/material/admin/withdraw', admin, { id: a })).status).toBe(409);
    expect(
      (await c.post('/ks/material/price/info-list', null, { city: '太原市', period: '2025-04' })).body.data.total,
    ).toBe(0);
    expect((await c.post('/ks/material/admin/publish', admin, { id: b })).status).toBe(200);
    expect((await c.post('/ks/material/admin/delete', admin, { id: a })).status).toBe(200);
    expect(await t.database.db.select().from(materialPrices).where(eq(materialPrices.periodId, a))).toHaveLength(0);
    expect((await c.post('/ks/material/admin/delete', admin, { id: a })).status).toBe(404);
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.recordId, a));
    expect(logs.map((l) => l.logbook.slice(0, 2)).sort()).toEqual(['导入', '发布', '撤回', '删除'].sort());
    const list = await c.get('/ks/material/admin/periods?status=draft', dev);
    expect(list.body!.data.records.every((x: { status: string }) => x.status === 'draft')).toBe(true);
    expect((await c.get('/ks/material/admin/periods', user)).status).toBe(403);
  });
});

describe('public reading (the demo periods)', () => {
  it('lists published periods only, the newest first, with their cities', async () => {
    const r = await c.get('/ks/material/price/period-list?city=%E5%A4%AA%E5%8E%9F%E5%B8%82', null);
    const periods = r.body!.data.map((p: { period: string }) => p.period);
    expect(periods.slice(0, 4)).toEqual(['2026-10', '2026-09', '2026-08', '2026-07']);
    expect(periods).not.toContain('2026-11');
    expect(r.body!.data.every((p: { status: string }) => p.status === 'published')).toBe(true);
    const h = await c.get('/ks/material/history/period-list?city=%E5%A4%AA%E5%8E%9F%E5%B8%82', null);
    expect(h.body!.data.at(-1).period).toBe('2026-10');
    const cities = await c.post('/ks/material/price/city-list', null, { period: '2026-10' });
    expect(cities.body.data).toEqual([{ city: '太原市', periods: 1 }]);
  });

  it('filters, searches by name or code, and answers facets of the current period', async () => {
    const all = await c.post('/ks/material/price/info-list', null, { city: '太原市', pageSize: 5 });
    expect(all.body.data.period.period).toBe('2026-10');
    expect(all.body.data.records).toHaveLength(5);
    const steel = await c.post('/ks/material/price/info-list', null, { city: '太原市', keyWord: 'HRB400E' });
    expect(steel.body.data.total).toBe(0);
    const byName = await c.post('/ks/material/price/info-list', null, {
      city: '太原市',
      keyWord: '螺纹钢',
      county: '小店区',
    });
    expect(byName.body.data.total).toBeGreaterThan(0);
    expect(
      byName.body.data.records.every(
        (x: { name: string; county: string }) => x.name.includes('螺纹钢') && x.county === '小店区',
      ),
    ).toBe(true);
    const code = byName.body.data.records[0].code;
    const byCode = await c.post('/ks/material/price/info-list', null, {
      city: '太原市',
      keyWord: code,
      county: '小店区',
    });
    expect(byCode.body.data.records.map((x: { code: string }) => x.code)).toContain(code);
    const classes = await c.post('/ks/material/price/classification', null, { city: '太原市' });
    expect(classes.body.data[0].value).toBe('黑色及有色金属');
    const cls = await c.post('/ks/material/price/info-list', null, {
      city: '太原市',
      classification: '防水材料',
      sort: 'priceIn',
      order: 'desc',
    });
    const prices = cls.body.data.records.map((x: { priceIn: string }) => Number(x.priceIn));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    expect(cls.body.data.records.every((x: { classification: string }) => x.classification === '防水材料')).toBe(true);
    const counties = await c.post('/ks/material/price/counties', null, { city: '太原市' });
    expect(counties.body.data.map((x: { value: string }) => x.value)).toContain('古交市');
    const groups = await c.post('/ks/material/price/material-group', null, {
      city: '太原市',
      classification: '黑色及有色金属',
    });
    expect(groups.body.data.length).toBeGreaterThan(0);
    const titles = await c.post('/ks/material/price/title-list', null, { city: '太原市', keyWord: '水泥' });
    expect(titles.body.data.length).toBeGreaterThan(0);
    // two characters (no trigram): through the bigram index; quotes, backslashes and wildcards are plain characters
    const two = await c.post('/ks/material/price/info-list', null, { city: '太原市', keyWord: '钢筋', pageSize: 100 });
    expect(two.body.data.total).toBeGreaterThan(0);
    expect(two.body.data.records.every((x: { name: string }) => x.name.includes('钢筋'))).toBe(true);
    for (const keyWord of ['"钢\\筋', '%', '_', "'; drop table material_prices; --", '{a,b}']) {
      const odd = await c.post('/ks/material/price/info-list', null, { city: '太原市', keyWord });
      expect(odd.status).toBe(200);
      expect(odd.body.data.total).toBe(0);
    }
    // a search's pages: one order throughout (the chosen sort, then id), its total on every page, past the end too
    const q = { city: '太原市', keyWord: '水泥', sort: 'priceIn', order: 'desc' };
    const whole = (await c.post('/ks/material/price/info-list', null, { ...q, pageSize: 100 })).body.data;
    expect(whole.total).toBeGreaterThan(6);
    expect(whole.records).toHaveLength(Math.min(whole.total, 100));
    const wholePrices = whole.records.map((x: { priceIn: string }) => Number(x.priceIn));
    expect(wholePrices).toEqual([...wholePrices].sort((x, y) => y - x));
    const paged = [];
    for (const pageNum of [1, 2]) {
      const page = (await c.post('/ks/material/price/info-list', null, { ...q, pageSize: 3, pageNum })).body.data;
      expect(page.total).toBe(whole.total);
      paged.push(...page.records);
    }
    expect(paged.map((x: { id: string }) => x.id)).toEqual(whole.records.slice(0, 6).map((x: { id: string }) => x.id));
    expect(paged[0]).toEqual(whole.records[0]);
    const past = (await c.post('/ks/material/price/info-list', null, { ...q, pageSize: 20, pageNum: 50 })).body.data;
    expect(past).toMatchObject({ records: [], total: whole.total });
    const lower = await c.post('/ks/material/price/info-list', null, { city: '太原市', keyWord: 'cl001' });
    expect(lower.body.data.total).toBeGreaterThan(0);
    // a sort or filter outside the whitelist is refused
    expect(
      (await c.post('/ks/material/price/info-list', null, { city: '太原市', sort: 'remark; drop table x' })).status,
    ).toBe(400);
    expect((await c.post('/ks/material/price/info-list', null, { city: '北京市' })).status).toBe(400);
  });

  it("answers a material's history across the published periods, and history lists across them", async () => {
    const hit = await c.post('/ks/material/price/info-list', null, {
      city: '太原市',
      keyWord: '螺纹钢',
      county: '小店区',
      pageSize: 1,
    });
    const m = hit.body.data.records[0];
    const h = await c.post('/ks/material/history/trend', null, {
      city: '太原市',
      county: m.county,
      code: m.code,
      spec: m.spec,
    });
    expect(h.status).toBe(200);
    expect(h.body.data.material).toMatchObject({ code: m.code, name: m.name });
    expect(h.body.data.points.map((p: { label: string }) => p.label)).toEqual([
      '2026年7月',
      '2026年8月',
      '2026年9月',
      '2026年10月',
    ]);
    expect(h.body.data.points.at(-1).priceIn).toBe(m.priceIn);
    const across = await c.post('/ks/material/history/info-list', null, {
      city: '太原市',
      keyWord: m.code,
      county: m.county,
    });
    expect(
      across.body.data.records
        .filter((x: { spec: string }) => x.spec === m.spec)
        .map((x: { period: string }) => x.period),
    ).toEqual(['2026-10', '2026-09', '2026-08', '2026-07']);
    const none = await c.post('/ks/material/history/trend', null, {
      city: '太原市',
      code: 'NOPE',
      county: '',
      spec: '',
    });
    expect(none.body.data).toEqual({ material: null, points: [] });
  });
});
