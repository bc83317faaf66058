import { Code } from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs } from '../../db/schema';
import { bearer, createTestApp, json, loginToken, type TestApp } from '../../test/harness';

type Body = { code: number; data: any; message: string };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { BID_HALL_URL: 'https://hall.example.test/', LOGIN_MODE: 'ywbl' } });
});
afterAll(async () => t?.close());

const get = async (url: string, headers: Record<string, string> = {}) => {
  const res = await t.app.inject({ method: 'GET', url, headers });
  return { res, body: json<Body>(res) };
};
const q = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

describe('portal configuration', () => {
  it('tells the login mode, the bid-opening hall and the time zone', async () => {
    const { body } = await get('/ks/portal/v1/home/config');
    expect(body.data).toEqual({
      loginMode: 'ywbl',
      bidHallUrl: 'https://hall.example.test/',
      timeZone: 'Asia/Shanghai',
    });
  });
});

describe('home overview', () => {
  it('has the latest notices per category and trade type and statistics counted from the database', async () => {
    const { body } = await get('/ks/portal/v1/home/overview');
    const d = body.data;
    expect(d.byCategory.map((g: any) => g.category)).toEqual([
      '招标公告',
      '变更公告',
      '资格预审公告',
      '中标候选人公示',
      '中标结果公告',
      '终止公告',
    ]);
    for (const g of d.byCategory) {
      expect(g.items.length).toBeGreaterThan(0);
      expect(g.items.length).toBeLessThanOrEqual(8);
      expect(g.items.every((n: any) => n.category === g.category)).toBe(true);
      const times = g.items.map((n: any) => n.publishedAt);
      expect([...times].sort().reverse()).toEqual(times);
    }
    expect(d.byTradeType).toHaveLength(6);
    expect(d.stats.notices).toBe(72);
    expect(d.stats.enterprises).toBe(37);
    expect(d.stats.projects).toBeGreaterThan(10);
    expect(Number(d.stats.transactionAmount)).toBeGreaterThan(0);
  });
});

describe('transaction information', () => {
  it('pages through published notices only, newest first', async () => {
    const p1 = (await get(`/ks/portal/v1/notices?${q({ pageNum: 1, pageSize: 10 })}`)).body.data;
    const p2 = (await get(`/ks/portal/v1/notices?${q({ pageNum: 2, pageSize: 10 })}`)).body.data;
    expect(p1.total).toBe(72);
    expect(p1.records).toHaveLength(10);
    expect(p2.records[0].id).not.toBe(p1.records[0].id);
    expect(p1.records[9].publishedAt >= p2.records[0].publishedAt).toBe(true);
  });

  it('filters by category, trade type, region, date range and keyword', async () => {
    const byCat = (await get(`/ks/portal/v1/notices?${q({ category: '中标结果公告', pageSize: 50 })}`)).body.data;
    expect(byCat.total).toBe(12);
    expect(byCat.records.every((n: any) => n.category === '中标结果公告')).toBe(true);
    const byTrade = (await get(`/ks/portal/v1/notices?${q({ tradeType: '政府采购', pageSize: 50 })}`)).body.data;
    expect(byTrade.records.every((n: any) => n.tradeType === '政府采购')).toBe(true);
    const region = byCat.records[0].region;
    const byRegion = (await get(`/ks/portal/v1/notices?${q({ region, pageSize: 50 })}`)).body.data;
    expect(byRegion.total).toBeGreaterThan(0);
    expect(byRegion.records.every((n: any) => n.region === region)).toBe(true);

    const day = new Date(new Date(byCat.records[0].publishedAt).getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    const byDate = (await get(`/ks/portal/v1/notices?${q({ startDate: day, endDate: day, pageSize: 50 })}`)).body.data;
    expect(byDate.records.map((n: any) => n.id)).toContain(byCat.records[0].id);

    const kw = (await get(`/ks/portal/v1/notices?${q({ keyword: '污水处理厂', pageSize: 50 })}`)).body.data;
    expect(kw.records.every((n: any) => n.title.includes('污水处理厂'))).toBe(true);
    // LIKE wildcards in the keyword match themselves
    expect((await get(`/ks/portal/v1/notices?${q({ keyword: '%' })}`)).body.data.total).toBe(0);
    expect((await get(`/ks/portal/v1/notices?${q({ keyword: "'; drop table notices; --" })}`)).body.data.total).toBe(0);
  });

  it('refuses bad filters with 400 and a field message', async () => {
    for (const [params, field] of [
      [{ pageSize: 7 }, 'pageSize'],
      [{ keyword: 'x'.repeat(51) }, 'keyword'],
      // PostgreSQL cannot store NUL: refused as input, not a 500
      [{ keyword: 'a\u0000b' }, 'keyword'],
      [{ category: '不存在' }, 'category'],
      [{ startDate: '2026-13-40x' }, 'startDate'],
      [{ startDate: '2026-05-02', endDate: '2026-05-01' }, 'endDate'],
    ] as const) {
      const { res, body } = await get(`/ks/portal/v1/notices?${q(params)}`);
      expect(res.statusCode).toBe(400);
      expect(body.data.fieldErrors[field]).toBeDefined();
    }
  });

  it('sends an ETag and answers 304 when it matches', async () => {
    const first = await get('/ks/portal/v1/notices');
    expect(first.res.headers['cache-control']).toBe('no-cache');
    const tag = first.res.headers.etag as string;
    expect(tag).toBeTruthy();
    const again = await t.app.inject({
      method: 'GET',
      url: '/ks/portal/v1/notices',
      headers: { 'if-none-match': tag },
    });
    expect(again.statusCode).toBe(304);
  });

  it('shows a published notice and 404s for unknown ids; a bad id is 400', async () => {
    const id = (await get('/ks/portal/v1/notices')).body.data.records[0].id;
    const { body } = await get(`/ks/portal/v1/notices/detail?id=${id}`);
    expect(body.data.bodyHtml).toContain('<h3>');
    expect(body.data.attachments).toEqual([]);
    expect((await get('/ks/portal/v1/notices/detail?id=00000000-0000-4000-8000-000000000000')).res.statusCode).toBe(
      404,
    );
    expect((await get('/ks/portal/v1/notices/detail?id=1%20or%201=1')).res.statusCode).toBe(400);
  });
});

describe('market entities', () => {
  it('lists enterprises, agencies and practitioners with filters', async () => {
    const ent = (await get(`/ks/portal/v1/market/entities?${q({ kind: 'enterprise', pageSize: 50 })}`)).body.data;
    const agency = (await get(`/ks/portal/v1/market/entities?${q({ kind: 'agency', pageSize: 50 })}`)).body.data;
    expect(ent.total + agency.total).toBe(37);
    expect(agency.total).toBeGreaterThan(0);
    expect(ent.records.every((e: any) => e.type !== '招标代理机构' && e.kind === 'enterprise')).toBe(true);
    expect(agency.records.every((e: any) => e.type === '招标代理机构' && e.kind === 'agency')).toBe(true);

    const aaa = (
      await get(`/ks/portal/v1/market/entities?${q({ kind: 'enterprise', creditGrade: 'AAA', pageSize: 50 })}`)
    ).body.data;
    expect(aaa.records.every((e: any) => e.creditGrade === 'AAA')).toBe(true);
    const builders = (
      await get(`/ks/portal/v1/market/entities?${q({ kind: 'enterprise', enterpriseType: '施工企业', pageSize: 50 })}`)
    ).body.data;
    expect(builders.records.map((e: any) => e.name)).toContain('示例建设工程有限公司');

    const prac = (await get(`/ks/portal/v1/market/entities?${q({ kind: 'practitioner', pageSize: 50 })}`)).body.data;
    expect(prac.total).toBe(24);
    expect(prac.records[0].code).toMatch(/\*{4,}/);
    const area = prac.records[0].type;
    const byArea = (
      await get(`/ks/portal/v1/market/entities?${q({ kind: 'practitioner', practiceArea: area, pageSize: 50 })}`)
    ).body.data;
    expect(byArea.records.every((p: any) => p.type === area)).toBe(true);
  });

  it('offers the types and practice areas as options', async () => {
    const types = (await get('/ks/portal/v1/common/enterprise-types')).body.data;
    expect(types).toContainEqual({ label: '招标代理机构', value: '招标代理机构' });
    const areas = (await get('/ks/portal/v1/common/practice-areas')).body.data;
    expect(areas.length).toBeGreaterThan(1);
  });

  it('details an entity with qualifications, performances and public credit records; a wrong kind is 404', async () => {
    const list = (await get(`/ks/portal/v1/market/entities?${q({ kind: 'enterprise', keyword: '示例建设' })}`)).body
      .data;
    const id = list.records[0].id;
    const { body } = await get(`/ks/portal/v1/market/detail?${q({ kind: 'enterprise', id })}`);
    expect(body.data.basic).toMatchObject({ name: '示例建设工程有限公司', creditGrade: 'AA', legalPerson: '李明华' });
    expect(body.data.qualifications.length).toBeGreaterThan(0);
    expect(Array.isArray(body.data.creditRecords)).toBe(true);
    expect((await get(`/ks/portal/v1/market/detail?${q({ kind: 'agency', id })}`)).res.statusCode).toBe(404);
    expect((await get(`/ks/portal/v1/market/detail?${q({ kind: 'practitioner', id })}`)).res.statusCode).toBe(404);
  });
});

describe('notice administration', () => {
  const save = (token: string, payload: Record<string, unknown>): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: 'POST', url: '/ks/portal/v1/admin/notices/save', headers: bearer(token), payload });
  const act = (token: string, action: string, id: string): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: 'POST',
      url: `/ks/portal/v1/admin/notices/${action}`,
      headers: bearer(token),
      payload: { id },
    });
  const input = {
    title: '测试发布公告-唯一标题A1',
    category: '招标公告',
    tradeType: '工程建设',
    region: '太原市',
    projectCode: 'E1401TEST01',
    amount: '1200000.50',
    bodyHtml:
      '<p>正文</p><script>window.__x=1</script><img src="x" onerror="window.__y=1"><a href="javascript:alert(1)">链接</a>',
    attachments: [],
  };

  it('is governed by the PORTAL_NOTICE functions: 401 anonymous, 403 without a grant, even with a crafted request', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/ks/portal/v1/admin/notices' })).statusCode).toBe(401);
    const user = await loginToken(t.app, 'user1', 'U');
    const list = await t.app.inject({ method: 'GET', url: '/ks/portal/v1/admin/notices', headers: bearer(user) });
    expect(list.statusCode).toBe(403);
    expect((await save(user, input)).statusCode).toBe(403);
    // developers see every node but press only granted functions
    const dev = await loginToken(t.app, 'dev', 'D');
    expect((await save(dev, input)).statusCode).toBe(403);
  });

  it('creates a sanitised draft, publishes it onto the portal, withdraws it off again, and logs each step', async () => {
    const token = await loginToken(t.app, 'admin', 'M');
    const created = json<Body>(await save(token, input));
    expect(created.code).toBe(200);
    const n = created.data;
    expect(n.status).toBe('draft');
    expect(n.bodyHtml).toContain('<p>正文</p>');
    expect(n.bodyHtml).not.toMatch(/script|onerror|javascript:/);

    const search = async () =>
      (await get(`/ks/portal/v1/notices?${q({ keyword: '唯一标题A1' })}`)).body.data.records.map((r: any) => r.id);
    expect(await search()).toEqual([]);
    expect((await get(`/ks/portal/v1/notices/detail?id=${n.id}`)).res.statusCode).toBe(404);

    const pub = json<Body>(await act(token, 'publish', n.id));
    expect(pub.data.status).toBe('published');
    expect(await search()).toEqual([n.id]);
    const shown = (await get(`/ks/portal/v1/notices/detail?id=${n.id}`)).body.data;
    expect(shown.bodyHtml).not.toMatch(/script|onerror/);
    expect(shown.amount).toBe('1200000.50');

    expect((await act(token, 'publish', n.id)).statusCode).toBe(409);
    expect((await act(token, 'delete', n.id)).statusCode).toBe(409);

    const wd = json<Body>(await act(token, 'withdraw', n.id));
    expect(wd.data.status).toBe('withdrawn');
    expect(await search()).toEqual([]);
    expect((await get(`/ks/portal/v1/notices/detail?id=${n.id}`)).res.statusCode).toBe(404);

    const logs = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.glName, '门户公告'), eq(operationLogs.recordId, n.id)));
    expect(logs.map((l) => l.logbook)).toEqual([
      `新建公告《${input.title}》`,
      `发布公告《${input.title}》`,
      `撤回公告《${input.title}》`,
    ]);
  });

  it('edits with optimistic locking: a stale version is 409 and changes nothing', async () => {
    const token = await loginToken(t.app, 'admin', 'M');
    const n = json<Body>(await save(token, { ...input, title: '版本测试公告' })).data;
    const edited = json<Body>(
      await save(token, { ...input, id: n.id, version: n.version, title: '版本测试公告（修改）' }),
    );
    expect(edited.data.version).toBe(n.version + 1);
    const stale = await save(token, { ...input, id: n.id, version: n.version, title: '过期的修改' });
    expect(stale.statusCode).toBe(409);
    const now = json<Body>(
      await t.app.inject({
        method: 'GET',
        url: `/ks/portal/v1/admin/notices/detail?id=${n.id}`,
        headers: bearer(token),
      }),
    );
    expect(now.data.title).toBe('版本测试公告（修改）');
    // an id without a version is refused instead of silently creating a copy
    expect((await save(token, { ...input, id: n.id })).statusCode).toBe(400);
    const del = await act(token, 'delete', n.id);
    expect(del.statusCode).toBe(200);
    expect((await act(token, 'delete', n.id)).statusCode).toBe(404);
  });

  it('validates the form with field messages', async () => {
    const token = await loginToken(t.app, 'admin', 'M');
    const res = await save(token, { ...input, title: '', category: 'x', amount: '12.345' });
    expect(res.statusCode).toBe(400);
    const body = json<Body>(res);
    expect(body.data.fieldErrors.title).toEqual(['请输入公告标题']);
    expect(body.data.fieldErrors.category).toEqual(['请选择公告类别']);
    expect(body.data.fieldErrors.amount[0]).toContain('金额格式有误');
  });

  it('lets exactly one of two simultaneous publishes win', async () => {
    const token = await loginToken(t.app, 'admin', 'M');
    const n = json<Body>(await save(token, { ...input, title: '并发发布测试' })).data;
    const results = await Promise.all([act(token, 'publish', n.id), act(token, 'publish', n.id)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(json<Body>(results.find((r) => r.statusCode === 409)!).code).toBe(Code.CONFLICT);
  });
});
