import {
  Code,
  CREDIT_DEFAULT_BASE_SCORE,
  CREDIT_DEFAULT_LEVELS,
  EDITOR_UPLOAD_FIELD,
  EDITOR_UPLOAD_PATH,
  NOTICE_LINK_MESSAGES as L,
} from '@ks/contracts';
import { and, countDistinct, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, files, notices, operationLogs, practitioners, users } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../platform/oplog';
import { bearer, createTestApp, json, loginToken, type TestApp } from '../../test/harness';
import { setLevels } from '../credit/grade.service';
import { form, PDF, PNG, tmpDataDir } from '../files/testkit';

type Body = { code: number; data: any; message: string };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { BID_HALL_URL: 'https://hall.example.test/', LOGIN_MODE: 'ywbl', DATA_DIR: tmpDataDir() },
  });
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
    for (const g of d.byTradeType) expect(g.items.length, g.tradeType).toBeGreaterThan(0);
    // every figure is counted from the data: published notices, their distinct projects, the enterprises, and the
    // amounts of the result notices
    const db = t.database.db;
    const [counted] = await db
      .select({
        notices: sql<number>`count(*)::int`,
        projects: countDistinct(notices.projectCode),
        amount: sql<string>`coalesce(sum(${notices.amount}) filter (where ${notices.category} = '中标结果公告'), 0)::text`,
      })
      .from(notices)
      .where(eq(notices.status, 'published'));
    const [ents] = await db.select({ n: sql<number>`count(*)::int` }).from(enterprises);
    expect(d.stats).toEqual({
      notices: counted!.notices,
      projects: Number(counted!.projects),
      enterprises: ents!.n,
      transactionAmount: counted!.amount,
    });
    // 72 of the portal seed, the 3 tender notices of the five-in-one demo projects and those of the opening and
    // evaluation demos, published by their review
    expect(d.stats.notices).toBe(77);
    expect(d.stats.enterprises).toBe(37);
    // notices follow projects through their stages: fewer projects than notices
    expect(d.stats.projects).toBeGreaterThan(10);
    expect(d.stats.projects).toBeLessThan(d.stats.notices);
    expect(Number(d.stats.transactionAmount)).toBeGreaterThan(0);
  });
});

describe('transaction information', () => {
  it('pages through published notices only, newest first', async () => {
    const p1 = (await get(`/ks/portal/v1/notices?${q({ pageNum: 1, pageSize: 10 })}`)).body.data;
    const p2 = (await get(`/ks/portal/v1/notices?${q({ pageNum: 2, pageSize: 10 })}`)).body.data;
    expect(p1.total).toBe(77);
    expect(p1.records).toHaveLength(10);
    expect(p2.records[0].id).not.toBe(p1.records[0].id);
    expect(p1.records[9].publishedAt >= p2.records[0].publishedAt).toBe(true);
  });

  it('filters by category, trade type, region, date range and keyword', async () => {
    const byCat = (await get(`/ks/portal/v1/notices?${q({ category: '中标结果公告', pageSize: 50 })}`)).body.data;
    const [results] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(notices)
      .where(and(eq(notices.status, 'published'), eq(notices.category, '中标结果公告')));
    expect(byCat.total).toBe(results!.n);
    expect(byCat.total).toBeGreaterThan(0);
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

    const word = byCat.records[0].title.slice(3, 9);
    const kw = (await get(`/ks/portal/v1/notices?${q({ keyword: word, pageSize: 50 })}`)).body.data;
    expect(kw.total).toBeGreaterThan(0);
    expect(kw.records.every((n: any) => n.title.includes(word))).toBe(true);
    // LIKE wildcards in the keyword match themselves
    const percent = (await get(`/ks/portal/v1/notices?${q({ keyword: '%', pageSize: 50 })}`)).body.data;
    expect(percent.total).toBeLessThan(77);
    expect(percent.records.every((n: any) => n.title.includes('%'))).toBe(true);
    expect((await get(`/ks/portal/v1/notices?${q({ keyword: '_' })}`)).body.data.total).toBe(0);
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

  it('answers 400, never 500, for dates that are no calendar day and for numbers out of range', async () => {
    const dates = [
      '2020-13-45',
      '2020-02-30',
      '2021-02-29',
      '2026-04-31',
      '0000-01-01',
      '1899-12-31',
      '9999-12-31',
      '2020-1-1',
    ];
    for (const value of dates) {
      for (const field of ['startDate', 'endDate']) {
        const { res, body } = await get(`/ks/portal/v1/notices?${q({ [field]: value })}`);
        expect(res.statusCode, `${field}=${value}`).toBe(400);
        expect(body.code).toBe(Code.BAD_REQUEST);
        expect(body.data.fieldErrors[field][0], `${field}=${value}`).toMatch(/日期/);
      }
    }
    // leap days and the range's ends are days
    for (const value of ['2024-02-29', '1900-01-01', '2099-12-31']) {
      expect((await get(`/ks/portal/v1/notices?${q({ startDate: value })}`)).res.statusCode, value).toBe(200);
    }
    const numbers: [string, Record<string, string>][] = [
      ['/ks/portal/v1/notices', { pageNum: '0' }],
      ['/ks/portal/v1/notices', { pageNum: '1.5' }],
      ['/ks/portal/v1/notices', { pageNum: '1e9' }],
      ['/ks/portal/v1/notices', { pageNum: 'abc' }],
      ['/ks/portal/v1/notices', { pageNum: '-1' }],
      ['/ks/portal/v1/notices', { pageSize: 'Infinity' }],
      ['/ks/portal/v1/market/entities', { pageNum: '0' }],
      ['/ks/portal/v1/market/entities', { pageNum: '99999999999' }],
      ['/ks/portal/v1/market/entities', { pageSize: '11' }],
      ['/ks/portal/v1/market/entities', { kind: 'robot' }],
      ['/ks/portal/v1/market/entities', { creditGrade: '超过八个字符的等级名' }],
      ['/ks/portal/v1/market/detail', { kind: 'enterprise', id: '2020-13-45' }],
    ];
    for (const [url, params] of numbers) {
      const { res, body } = await get(`${url}?${q(params)}`);
      expect(res.statusCode, `${url} ${JSON.stringify(params)}`).toBe(400);
      expect(body.code).toBe(Code.BAD_REQUEST);
    }
    // a repeated parameter (an array) is a 400 too
    expect((await get('/ks/portal/v1/notices?startDate=2026-01-01&startDate=2026-01-02')).res.statusCode).toBe(400);
    expect((await get('/ks/portal/v1/notices?pageNum=1&pageNum=2')).res.statusCode).toBe(400);
    // the administration list checks the same way
    const admin = await loginToken(t.app, 'admin', 'M');
    const adminList = await t.app.inject({
      method: 'GET',
      url: `/ks/portal/v1/admin/notices?${q({ pageNum: '2020-13-45' })}`,
      headers: bearer(admin),
    });
    expect(adminList.statusCode).toBe(400);
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
    expect(body.data.bodyHtml).toContain('联系方式');
    expect(body.data.attachments).toEqual([]);
    expect(body.data.projectName).toBeTruthy();
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
    // 企业业绩 declared and passed through the engine (issue 19) are among its performances
    expect(body.data.performances).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          projectName: '太原市小店区许坦东街道路改造工程',
          builder: '太原市小店区住房和城乡建设局',
        }),
      ]),
    );
    expect(Array.isArray(body.data.creditRecords)).toBe(true);
    expect((await get(`/ks/portal/v1/market/detail?${q({ kind: 'agency', id })}`)).res.statusCode).toBe(404);
    expect((await get(`/ks/portal/v1/market/detail?${q({ kind: 'practitioner', id })}`)).res.statusCode).toBe(404);
  });

  it('marks lapsed qualifications and credit records as expired', async () => {
    const list = (await get(`/ks/portal/v1/market/entities?${q({ kind: 'enterprise', keyword: '示例建设' })}`)).body
      .data;
    const detail = (await get(`/ks/portal/v1/market/detail?${q({ kind: 'enterprise', id: list.records[0].id })}`)).body
      .data;
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    expect(detail.creditRecords.length).toBeGreaterThan(0);
    for (const c of detail.creditRecords) expect(c.expired, c.title).toBe(c.endDate !== null && c.endDate < today);
    for (const x of detail.qualifications)
      expect(x.expired, x.name).toBe(x.validUntil !== null && x.validUntil < today);
    // the demo enterprise has a record that ran out: shown, marked, and not counted in its score
    const lapsed = detail.creditRecords.filter((c: any) => c.expired);
    expect(lapsed.length).toBeGreaterThan(0);
    const valid = detail.creditRecords.filter((c: any) => !c.expired).reduce((s: number, c: any) => s + c.score, 0);
    expect(detail.basic.creditScore).toBe(83.5 + valid);
  });

  it("shows a practitioner's certificate number masked the same way in the list and in the detail", async () => {
    const prac = (await get(`/ks/portal/v1/market/entities?${q({ kind: 'practitioner', pageSize: 50 })}`)).body.data;
    for (const p of prac.records.slice(0, 5)) {
      const d = (await get(`/ks/portal/v1/market/detail?${q({ kind: 'practitioner', id: p.id })}`)).body.data;
      expect(d.basic.code).toBe(p.code);
      expect(d.qualifications.map((x: any) => x.certNo)).toContain(p.code);
      const [row] = await t.database.db
        .select({ cert_no: practitioners.certNo })
        .from(practitioners)
        .where(eq(practitioners.id, p.id));
      expect(p.code).not.toBe(row!.cert_no);
      expect(JSON.stringify(d)).not.toContain(row!.cert_no);
    }
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
      '<p onclick="window.__z=1">正文</p><script>window.__x=1</script><img src="/x.png" onerror="window.__y=1">',
    attachments: [],
  };
  const noticeCount = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(notices))[0]!.n;
  const uploadAs = async (token: string, url: string, field: string, name: string, data: Buffer) => {
    const f = form({}, [{ field, name, data }]);
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...f.headers, ...bearer(token) },
      payload: f.payload,
    });
    return json<any>(res);
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
    expect(n.bodyHtml).not.toMatch(/script|onerror|onclick/);

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
  it('lets developers see no draft: the administration list and detail are for administrators and grantees', async () => {
    const admin = await loginToken(t.app, 'admin', 'M');
    const draft = json<Body>(await save(admin, { ...input, title: '开发者不可见的草稿' })).data;
    const dev = await loginToken(t.app, 'dev', 'D');
    const list = await t.app.inject({ method: 'GET', url: '/ks/portal/v1/admin/notices', headers: bearer(dev) });
    expect(list.statusCode).toBe(403);
    expect(json<Body>(list).code).toBe(Code.FORBIDDEN);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/ks/portal/v1/admin/notices/detail?id=${draft.id}`,
      headers: bearer(dev),
    });
    expect(detail.statusCode).toBe(403);
    expect(JSON.stringify(json(detail))).not.toContain('开发者不可见的草稿');
    // the administrator still sees it
    const mine = await t.app.inject({ method: 'GET', url: '/ks/portal/v1/admin/notices', headers: bearer(admin) });
    expect(json<Body>(mine).data.records.map((r: any) => r.id)).toContain(draft.id);
  });

  it('takes as attachments only notice files uploaded here: other sites, tricks, dead links and private files are 400', async () => {
    const admin = await loginToken(t.app, 'admin', 'M');
    const uploaded = await uploadAs(admin, '/ks/common/common/upload-notice', 'file', '招标文件.pdf', PDF());
    expect(uploaded.code).toBe(200);
    const image = await uploadAs(admin, EDITOR_UPLOAD_PATH, EDITOR_UPLOAD_FIELD, '插图.png', PNG());
    expect(image.errno).toBe(0);
    const [adminRow] = await t.database.db.select().from(users).where(eq(users.account, 'admin'));
    const [privateFile] = await t.database.db
      .insert(files)
      .values({
        storageKey: 'aa/bb/private-test',
        fileName: '内部材料.pdf',
        fileSize: 10,
        md5: '0'.repeat(32),
        mime: 'application/pdf',
        extension: 'pdf',
        ownerId: adminRow!.id,
        visibility: 'private',
        source: 'attachment',
      })
      .returning();
    const dead = '/ks/common/common/file/download?fileId=00000000-0000-4000-8000-000000000000';
    const before = await noticeCount();
    for (const [url, message] of [
      ['/\\evil.example/x', L.attachmentNotOurs],
      ['//evil.example/x.pdf', L.attachmentNotOurs],
      ['https://evil.example/x.pdf', L.attachmentNotOurs],
      ['https:/\\evil.example/x.pdf', L.attachmentNotOurs],
      ['/files/a.pdf', L.attachmentNotOurs],
      [`${uploaded.data.url}&x=1`, L.attachmentNotOurs],
      [dead, L.attachmentMissing],
      [image.data.url, L.attachmentNotNotice],
      [`/ks/common/common/file/download?fileId=${privateFile!.id}`, L.attachmentNotNotice],
    ] as const) {
      const res = await save(admin, { ...input, title: '附件检查', attachments: [{ name: '附件', url }] });
      expect(res.statusCode, url).toBe(400);
      expect(json<Body>(res).data.fieldErrors['attachments.0.url'], url).toEqual([message]);
    }
    expect(await noticeCount()).toBe(before);

    const ok = json<Body>(
      await save(admin, {
        ...input,
        title: '附件齐全的公告',
        attachments: [{ name: '招标文件.pdf', url: uploaded.data.url }],
      }),
    );
    expect(ok.code).toBe(200);
    await act(admin, 'publish', ok.data.id);
    const shown = (await get(`/ks/portal/v1/notices/detail?id=${ok.data.id}`)).body.data;
    expect(shown.attachments).toEqual([{ name: '招标文件.pdf', url: uploaded.data.url }]);
    // and the address works for anyone
    expect((await t.app.inject({ method: 'GET', url: uploaded.data.url })).statusCode).toBe(200);
  });

  it('checks the links and images of the body: http(s) and own paths only, own files only, no tricks', async () => {
    const admin = await loginToken(t.app, 'admin', 'M');
    const image = await uploadAs(admin, EDITOR_UPLOAD_PATH, EDITOR_UPLOAD_FIELD, '现场.png', PNG());
    const before = await noticeCount();
    for (const body of [
      '<p><a href="/\\evil.example/x">链接</a></p>',
      '<p><a href="//evil.example/x">链接</a></p>',
      '<p><a href="https:/\\evil.example/">链接</a></p>',
      '<p><a href="https://www.gov.cn@evil.example/">链接</a></p>',
      '<p><a href="javascript:alert(1)">链接</a></p>',
      '<p><a href="data:text/html,x">链接</a></p>',
      '<p><img src="https://evil.example/x.png"></p>',
      '<p><img src="//evil.example/x.png"></p>',
      '<p><img src="/ks/common/common/file/download?fileId=00000000-0000-4000-8000-000000000000"></p>',
    ]) {
      const res = await save(admin, { ...input, title: '正文链接检查', bodyHtml: body });
      expect(res.statusCode, body).toBe(400);
      expect(json<Body>(res).data.fieldErrors.bodyHtml, body).toBeDefined();
    }
    expect(await noticeCount()).toBe(before);

    const res = await save(admin, {
      ...input,
      title: '正文链接齐全的公告',
      bodyHtml: `<p><a href="https://www.ccgp.gov.cn/">中国政府采购网</a>、<a href="/transac">交易信息</a>、<a href="mailto:zb@example.com">邮箱</a></p><p><img src="${image.data.url}" alt="现场"></p>`,
    });
    expect(res.statusCode).toBe(200);
    const html = json<Body>(res).data.bodyHtml as string;
    expect(html).toContain('<a href="https://www.ccgp.gov.cn/" target="_blank" rel="noopener noreferrer">');
    expect(html).toContain('<a href="/transac">');
    expect(html).toContain(`<img src="${image.data.url.replace(/&/g, '&amp;')}" alt="现场" />`);
  });

  it('names the project and the section of a notice (free text), shown on the portal', async () => {
    const admin = await loginToken(t.app, 'admin', 'M');
    const n = json<Body>(
      await save(admin, {
        ...input,
        title: '有项目与标段的公告',
        projectName: '太原市第二人民医院门诊综合楼建设项目',
        sectionName: '施工一标段',
      }),
    ).data;
    expect(n).toMatchObject({ projectName: '太原市第二人民医院门诊综合楼建设项目', sectionName: '施工一标段' });
    await act(admin, 'publish', n.id);
    const shown = (await get(`/ks/portal/v1/notices/detail?id=${n.id}`)).body.data;
    expect(shown).toMatchObject({ projectName: '太原市第二人民医院门诊综合楼建设项目', sectionName: '施工一标段' });
    const long = await save(admin, { ...input, sectionName: 'x'.repeat(201) });
    expect(long.statusCode).toBe(400);
    expect(json<Body>(long).data.fieldErrors.sectionName).toEqual(['标段名称不能超过200个字符']);
  });
});

describe('the market list and the credit levels administrators set', () => {
  it('filters by a renamed level and lists the highest score first, ungraded last', async () => {
    const renamed = ['优秀', '良好', '一般', '较差', '差'];
    const levels = CREDIT_DEFAULT_LEVELS.map((l, i) => ({ title: renamed[i]!, minScore: l.minScore }));
    await setLevels(t.database.db, SYSTEM_ACTOR, { baseScore: CREDIT_DEFAULT_BASE_SCORE, levels }, new Date());
    try {
      const all = (await get(`/ks/portal/v1/market/entities?${q({ kind: 'enterprise', pageSize: 50 })}`)).body.data;
      const grades = all.records.map((e: any) => e.creditGrade);
      expect(grades).toContain('优秀');
      expect(grades.every((g: string | null) => g === null || renamed.includes(g))).toBe(true);
      // the highest level first: each record's level is no lower than the next one's
      const rank = (g: string | null) => (g === null ? 99 : renamed.indexOf(g));
      for (let i = 1; i < grades.length; i++) expect(rank(grades[i - 1])).toBeLessThanOrEqual(rank(grades[i]));
      const best = (await get(`/ks/portal/v1/market/entities?${q({ kind: 'enterprise', creditGrade: '优秀' })}`)).body
        .data;
      expect(best.total).toBe(grades.filter((g: string) => g === '优秀').length);
      expect(best.records.every((e: any) => e.creditGrade === '优秀')).toBe(true);
      // the old title names no level any more
      expect((await get(`/ks/portal/v1/market/entities?${q({ creditGrade: 'AAA' })}`)).body.data.total).toBe(0);
    } finally {
      await setLevels(
        t.database.db,
        SYSTEM_ACTOR,
        { baseScore: CREDIT_DEFAULT_BASE_SCORE, levels: [...CREDIT_DEFAULT_LEVELS] },
        new Date(),
      );
    }
  });
});
