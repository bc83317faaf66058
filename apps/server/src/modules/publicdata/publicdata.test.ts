import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  creditCodeCheckChar,
  DEFAULT_TIME_ZONE,
  formatIn,
  type Indicators,
  type MonitoringReport,
  PUBLIC_DATA_MSG,
  type PublicTxn,
} from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { notices, tenderSections, users } from '../../db/schema';
import { requestMemo } from '../../platform/permissions';
import { demoFileKey } from '../../seed/bids';
import { seedOpeningProject } from '../../seed/tender';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import type { EngineCaller } from '../engine/record-access';
import { projects } from '../tender/project';

/**
 * 公共数据 through the API (issue 19). The test publishes its own 交易 as portal notices in a quarter three years back
 * (no demo data there) — with drafts and withdrawn notices beside them that must never count — and works the platform's
 * own path on the demo: it opens SXGC-2026-1005 BD-01 in the hall (two of its three bids decrypted) and lets a section
 * of its own fail to open (no bid): bidders per section, discount and re-tender rates are checked against those records.
 */
let t: TestApp;
const c = client(() => t);
const db = () => t.database.db;
let admin: string;
let dev: string;
let user1: string;
let agent: string;
let bid2: string;

const BASE = '/ks/public-data/v1';
const DAY = 86_400_000;
const qs = (q: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(q).filter(([, v]) => v !== undefined) as [string, string][]).toString();

/** The test's quarter: Q1 of three years back; the quarter before it is the last of the year before. */
const year = new Date().getUTCFullYear() - 3;
const Q = `${year}-Q1`;
const STAMP = `PD${Date.now().toString(36).toUpperCase()}`;
/** the quarter before's 交易 carry another mark, so that a search for the test's quarter does not find them */
const PREV = `PV${Date.now().toString(36).toUpperCase()}`;
const at = (date: string) => new Date(`${date}T10:00:00+08:00`);

type NoticeRow = typeof notices.$inferInsert;
const notice = (
  key: string,
  category: string,
  date: string | null,
  over: Partial<NoticeRow> = {},
  stamp = STAMP,
): NoticeRow => ({
  title: `${stamp}${key}${category}`,
  category,
  tradeType: '工程建设',
  region: '阳泉市',
  projectCode: `${stamp}-${key}`,
  projectName: `${stamp}阳泉市${key}工程`,
  sectionName: '施工标段',
  tenderer: '阳泉市测试招标人',
  amount: null,
  bodyHtml: '<p>测试</p>',
  attachments: [],
  status: date ? 'published' : 'draft',
  publishedAt: date ? at(date) : null,
  ...over,
});

/** The test's 交易 by key: its first notice's id. */
const ids: Record<string, string> = {};

async function callerOf(account: string): Promise<EngineCaller> {
  const [u] = await db().select().from(users).where(eq(users.account, account));
  return {
    id: u!.id,
    loginRoleType: u!.loginRoleType,
    enterpriseId: u!.enterpriseId,
    actor: { userId: u!.id, userName: u!.userName, loginRoleType: u!.loginRoleType as 'U' },
    memo: requestMemo({}),
  };
}

async function sectionOf(xmbh: string) {
  const [p] = await projects.list(db(), { where: { xmbh } });
  const [s] = await db()
    .select()
    .from(tenderSections)
    .where(and(eq(tenderSections.projectId, p!.id), eq(tenderSections.code, 'BD-01')));
  return s!;
}

const list = async (q: Record<string, string | number | undefined>, token = admin) =>
  c.get(`${BASE}/details-list?${qs(q)}`, token);
const rows = async (q: Record<string, string | number | undefined>) =>
  (await list({ pageSize: 50, ...q })).body.data.records as PublicTxn[];
const indicatorsOf = async (q: Record<string, string | number | undefined>, token = admin) => {
  const r = await c.get(`${BASE}/indicators?${qs(q)}`, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as Indicators;
};

beforeAll(async () => {
  // the demo's sealed bids are in the run's seed store: this app works on a copy of it (the hall decrypts them)
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ks-publicdata-'));
  cpSync(path.join(inject('seedDataDir'), 'files'), path.join(dataDir, 'files'), { recursive: true });
  t = await createTestApp({ env: { DATA_DIR: dataDir, SINGLE_SESSION: '0', SESSION_TTL_MINUTES: '43200' } });
  [admin, dev, user1, agent, bid2] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'agent', 'U'),
    loginToken(t.app, 'bid2', 'U'),
  ]);
  const y = year;
  const first = async (row: NoticeRow, key: string) => {
    const [n] = await db().insert(notices).values(row).returning({ id: notices.id });
    ids[key] = n!.id;
  };
  // A: works, awarded at 90% of its ceiling (a withdrawn result notice with another price before it does not count)
  await first(notice('A', '招标公告', `${y}-02-10`, { amount: '1000000.00' }), 'A');
  await db()
    .insert(notices)
    .values([
      notice('A', '中标结果公告', `${y}-02-28`, { amount: '100.00', status: 'withdrawn' }),
      notice('A', '中标结果公告', `${y}-03-05`, { amount: '900000.00' }),
    ]);
  // B: works with prequalification, candidates published, awarded at 85%
  await first(notice('B', '资格预审公告', `${y}-01-15`, { amount: '2000000.00' }), 'B');
  await db()
    .insert(notices)
    .values([
      notice('B', '中标候选人公示', `${y}-02-20`),
      notice('B', '中标结果公告', `${y}-03-01`, { amount: '1700000.00' }),
    ]);
  // C: a purchase in 朔州市, called off (终止: to be re-tendered)
  const gp = { tradeType: '政府采购', region: '朔州市', sectionName: '第1包' };
  await first(notice('C', '招标公告', `${y}-01-20`, { ...gp, amount: '500000.00' }), 'C');
  await db()
    .insert(notices)
    .values(notice('C', '终止公告', `${y}-02-25`, gp));
  // D: land sold above its starting price: awarded, but no ceiling, so no discount
  const land = { tradeType: '土地矿业', sectionName: null };
  await first(notice('D', '招标公告', `${y}-01-05`, { ...land, amount: '3000000.00' }), 'D');
  await db()
    .insert(notices)
    .values(notice('D', '中标结果公告', `${y}-02-15`, { ...land, amount: '3600000.00' }));
  // E: a draft; F: withdrawn after publication — neither is public
  await first(notice('E', '招标公告', null, { amount: '7777777.00' }), 'E');
  await first(notice('F', '招标公告', `${y}-01-08`, { amount: '8888888.00', status: 'withdrawn' }), 'F');
  // the quarter before: G awarded at 95%, H called off
  await first(notice('G', '招标公告', `${y - 1}-11-10`, { amount: '1000000.00' }, PREV), 'G');
  await db()
    .insert(notices)
    .values(notice('G', '中标结果公告', `${y - 1}-12-10`, { amount: '950000.00' }, PREV));
  await first(notice('H', '招标公告', `${y - 1}-10-05`, { amount: '400000.00' }, PREV), 'H');
  await db()
    .insert(notices)
    .values(notice('H', '终止公告', `${y - 1}-12-20`, {}, PREV));
});
afterAll(async () => t?.close());

describe('who may read', () => {
  it('answers 401 to a visitor without a session, on every call', async () => {
    for (const url of [
      `${BASE}/details-list`,
      `${BASE}/details?id=${ids.A}`,
      `${BASE}/price-limit-list`,
      `${BASE}/persons`,
      `${BASE}/person?id=00000000-0000-4000-8000-000000000000`,
      `${BASE}/indicators`,
      `${BASE}/monitoring-report?period=${Q}`,
      `${BASE}/monitoring-report/pdf?period=${Q}`,
    ]) {
      const r = await c.get(url, null);
      expect(r.status, url).toBe(401);
    }
  });

  it('answers administrators, developers and enterprise users alike (published data)', async () => {
    const seen = await Promise.all([admin, dev, user1].map((tk) => list({ keyword: STAMP }, tk)));
    for (const r of seen) {
      expect(r.status).toBe(200);
      expect(r.body.data.total).toBe(4);
    }
  });
});

describe('交易明细 and 控制价公示: published data only', () => {
  it('lists the published 交易 with their state, price and discount; drafts and withdrawn notices never', async () => {
    const r = await rows({ keyword: STAMP });
    expect(r.map((x) => x.projectCode).sort()).toEqual(['A', 'B', 'C', 'D'].map((k) => `${STAMP}-${k}`));
    const by = (k: string) => r.find((x) => x.projectCode === `${STAMP}-${k}`)!;
    expect(by('A')).toMatchObject({
      id: ids.A,
      status: 'awarded',
      controlPrice: 1_000_000,
      winPrice: 900_000,
      discountRate: 0.1,
      publishedAt: `${year}-02-10`,
      concludedAt: `${year}-03-05`,
      bidders: null,
      onPlatform: false,
      latestCategory: '中标结果公告',
    });
    expect(by('B')).toMatchObject({ status: 'awarded', discountRate: 0.15, winPrice: 1_700_000 });
    expect(by('C')).toMatchObject({ status: 'failed', winPrice: null, discountRate: null, tradeType: '政府采购' });
    // an auction above its starting price has no discount
    expect(by('D')).toMatchObject({ status: 'awarded', winPrice: 3_600_000, discountRate: null });
    expect(JSON.stringify(r)).not.toContain('7777777');
    expect(JSON.stringify(r)).not.toContain('8888888');
    // the draft and the withdrawn notice are not 交易 of their own either
    for (const k of ['E', 'F']) expect((await c.get(`${BASE}/details?id=${ids[k]}`, admin)).status).toBe(404);
  });

  it('filters by whitelisted values and pages on the server', async () => {
    expect((await rows({ keyword: STAMP, status: 'failed' })).map((x) => x.projectCode)).toEqual([`${STAMP}-C`]);
    expect((await rows({ keyword: STAMP, region: '朔州市' })).map((x) => x.projectCode)).toEqual([`${STAMP}-C`]);
    expect((await rows({ keyword: STAMP, tradeType: '土地矿业' })).map((x) => x.projectCode)).toEqual([`${STAMP}-D`]);
    expect(
      (await rows({ keyword: STAMP, dateFrom: `${year}-01-15`, dateTo: `${year}-01-20` })).map((x) => x.projectCode),
    ).toEqual([`${STAMP}-C`, `${STAMP}-B`]);
    const page2 = (await list({ keyword: STAMP, pageSize: 10, pageNum: 1 })).body.data;
    expect(page2.total).toBe(4);
    // newest first
    expect(page2.records.map((x: PublicTxn) => x.projectCode)).toEqual(
      ['A', 'C', 'B', 'D'].map((k) => `${STAMP}-${k}`),
    );
    const beyond = (await list({ keyword: STAMP, pageNum: 2 })).body.data;
    expect(beyond).toEqual({ total: 4, records: [] });
    // a keyword is a literal, bound value
    const odd = await list({ keyword: "%' or 1=1 --" });
    expect(odd.status).toBe(200);
    expect(odd.body.data.total).toBe(0);
  });

  it('shows one 交易 with its published notices only', async () => {
    const r = await c.get(`${BASE}/details?id=${ids.A}`, user1);
    expect(r.status).toBe(200);
    expect(r.body.data.notices.map((n: { category: string; amount: number | null }) => [n.category, n.amount])).toEqual(
      [
        ['招标公告', 1_000_000],
        ['中标结果公告', 900_000],
      ],
    );
    expect(r.body.data.opening).toBeNull();
    expect((await c.get(`${BASE}/details?id=00000000-0000-4000-8000-000000000000`, admin)).body.message).toBe(
      PUBLIC_DATA_MSG.transactionMissing,
    );
  });

  it('never lists a platform section whose tender notice is not published', async () => {
    // the demo's SXGC-2026-1104 BD-01 has no published notice yet
    expect((await list({ keyword: 'SXGC-2026-1104' })).body.data.total).toBe(0);
    const s = await sectionOf('SXGC-2026-1104');
    expect(s.noticePublishedAt).toBeNull();
    const limits = await c.get(`${BASE}/price-limit-list?${qs({ keyword: 'SXGC-2026-1104' })}`, admin);
    expect(limits.body.data.total).toBe(0);
    // one that is published shows its 最高投标限价 = the section's estimate
    const school = (await rows({ keyword: 'SXGC-2026-1101' })).map((x) => [x.sectionName, x.controlPrice]).sort();
    expect(school).toEqual([
      ['BD-01 施工标段', 38_500_000],
      ['BD-02 监理标段', 860_000],
    ]);
  });

  it('控制价公示 lists the ceilings of works and purchases, with their sum', async () => {
    const r = await c.get(`${BASE}/price-limit-list?${qs({ keyword: STAMP })}`, user1);
    expect(r.status).toBe(200);
    expect(r.body.data.total).toBe(3);
    expect(r.body.data.amount).toBe(3_500_000);
    expect(r.body.data.records.map((x: { projectCode: string }) => x.projectCode).sort()).toEqual(
      ['A', 'B', 'C'].map((k) => `${STAMP}-${k}`),
    );
    const b = r.body.data.records.find((x: { projectCode: string }) => x.projectCode === `${STAMP}-B`);
    expect(b).toMatchObject({
      category: '资格预审公告',
      tradeType: '工程建设',
      region: '阳泉市',
      controlPrice: 2_000_000,
      publishedAt: `${year}-01-15`,
    });
    const gp = await c.get(`${BASE}/price-limit-list?${qs({ keyword: STAMP, tradeType: '政府采购' })}`, user1);
    expect(gp.body.data.total).toBe(1);
    const land = await c.get(`${BASE}/price-limit-list?${qs({ tradeType: '土地矿业' })}`, user1);
    expect(land.status).toBe(400);
    expect(land.body.message).toBe(PUBLIC_DATA_MSG.badLimitType);
  });
});

describe('filters are whitelisted', () => {
  it('refuses bad values with a 400 in Chinese, never a 500', async () => {
    const cases: [string, string][] = [
      [`${BASE}/indicators?granularity=week`, PUBLIC_DATA_MSG.badGranularity],
      [`${BASE}/indicators?startMonth=2026-13`, PUBLIC_DATA_MSG.badMonth],
      [`${BASE}/indicators?startMonth=2026-05&endMonth=2026-02`, PUBLIC_DATA_MSG.monthOrder],
      [`${BASE}/indicators?startMonth=2010-01&endMonth=2026-01`, PUBLIC_DATA_MSG.monthSpan(60)],
      [`${BASE}/indicators?region=${encodeURIComponent('火星')}`, PUBLIC_DATA_MSG.badRegion],
      [`${BASE}/indicators?tradeType=${encodeURIComponent("工程建设' or '1'='1")}`, PUBLIC_DATA_MSG.badTradeType],
      [`${BASE}/details-list?status=drop`, PUBLIC_DATA_MSG.badStatus],
      [`${BASE}/details-list?pageSize=7`, PUBLIC_DATA_MSG.badPageSize],
      [`${BASE}/details-list?dateFrom=2026-02-30`, PUBLIC_DATA_MSG.badDate],
      [`${BASE}/details-list?dateFrom=2026-03-01&dateTo=2026-02-01`, PUBLIC_DATA_MSG.dateOrder],
      [`${BASE}/details-list?keyword=${'长'.repeat(51)}`, PUBLIC_DATA_MSG.badKeyword],
      [`${BASE}/monitoring-report?period=2026-Q5`, PUBLIC_DATA_MSG.badPeriod],
      [`${BASE}/monitoring-report?period=2026-1`, PUBLIC_DATA_MSG.badPeriod],
      [`${BASE}/monitoring-report?period=2099-01`, PUBLIC_DATA_MSG.futurePeriod],
      [`${BASE}/monitoring-report/pdf?period=Q4`, PUBLIC_DATA_MSG.badPeriod],
      [`${BASE}/details?id=x`, PUBLIC_DATA_MSG.transactionMissing],
    ];
    for (const [url, message] of cases) {
      const r = await c.get(url, admin);
      expect(r.status, url).toBe(400);
      expect(r.body.code, url).toBe(400);
      expect(r.body.message, url).toBe(message);
    }
  });
});

describe('市场指标', () => {
  it('computes the quarter from the records: published, awarded, discount and re-tender rates', async () => {
    const ind = await indicatorsOf({ granularity: 'quarter', startMonth: `${year}-02`, endMonth: `${year}-11` });
    // widened to whole quarters
    expect([ind.startMonth, ind.endMonth]).toEqual([`${year}-01`, `${year}-12`]);
    expect(ind.periods.map((p) => p.period)).toEqual([1, 2, 3, 4].map((q) => `${year}-Q${q}`));
    expect(ind.periods[0]).toMatchObject({
      published: 4,
      controlAmount: 6_500_000,
      awarded: 3,
      awardAmount: 6_200_000,
      discountSamples: 2,
      discountRate: 0.125,
      failed: 1,
      concluded: 4,
      retenderRate: 0.25,
      opened: 0,
      bidders: null,
    });
    expect(ind.periods[1]).toMatchObject({ published: 0, awarded: 0, discountRate: null, retenderRate: null });
    expect(ind.total).toMatchObject({ published: 4, awarded: 3, failed: 1 });
    expect(ind.byRegion.map((r) => [r.name, r.published, r.failed])).toEqual([
      ['阳泉市', 3, 0],
      ['朔州市', 1, 1],
    ]);
    expect(Object.fromEntries(ind.byTradeType.map((r) => [r.name, r.discountRate]))).toEqual({
      工程建设: 0.125,
      政府采购: null,
      土地矿业: null,
    });
  });

  it('by month and region: each event in its own month', async () => {
    const ind = await indicatorsOf({
      granularity: 'month',
      startMonth: `${year}-01`,
      endMonth: `${year}-03`,
      region: '阳泉市',
    });
    expect(ind.periods.map((p) => [p.period, p.published, p.awarded, p.discountRate])).toEqual([
      [`${year}-01`, 2, 0, null],
      [`${year}-02`, 1, 1, null],
      [`${year}-03`, 0, 2, 0.125],
    ]);
    expect(ind.total.failed).toBe(0);
  });

  it('counts the bids opened in this platform’s hall per section, and an opening that failed as a re-tender', async () => {
    const now = () => t.clock.now;
    const monthOf = (d: Date) => formatIn(d, 'YYYY-MM', DEFAULT_TIME_ZONE);
    // the demo's SXGC-2026-1006 BD-01 was opened with three bids before the tests began
    const range = { granularity: 'month', startMonth: monthOf(new Date(now().getTime() - 2 * DAY)) };
    const before = await indicatorsOf({ ...range, endMonth: monthOf(now()) });
    expect(before.total).toMatchObject({ opened: 1, bidsOpened: 3, bidders: 3 });

    // SXGC-2026-1005 BD-01: user1 and bid2 decrypt their bids, bid3 lets the time pass
    const s = await sectionOf('SXGC-2026-1005');
    const O = '/ks/trade/opening/v1';
    const ok = async (p: Promise<{ status: number; body: unknown }>) => {
      const r = await p;
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body as { data: { mine: { bid: { id: string } } } };
    };
    for (const token of [user1, bid2]) await ok(c.post(`${O}/sign-in`, token, { sectionId: s.id }));
    await ok(c.post(`${O}/start`, agent, { sectionId: s.id, decryptMinutes: 30 }));
    for (const [i, token] of [user1, bid2].entries()) {
      const hall = await ok(c.get(`${O}/hall?sectionId=${s.id}`, token));
      await ok(
        c.post(`${O}/decrypt`, token, {
          bidId: hall.data.mine.bid.id,
          fileKey: demoFileKey(`opening-${i}`).toString('base64'),
        }),
      );
    }
    t.clock.advance(31 * 60_000);
    await ok(c.post(`${O}/draw`, agent, { sectionId: s.id }));
    await ok(c.post(`${O}/read`, agent, { sectionId: s.id }));
    await ok(c.post(`${O}/read`, agent, { sectionId: s.id }));
    await ok(c.post(`${O}/close`, agent, { sectionId: s.id }));

    // a section of the test's own, in 阳泉市: published, its deadline passed with no bid — it cannot open
    const [agentCaller, auditor] = await Promise.all([callerOf('agent'), callerOf('auditor')]);
    const deadline = new Date(now().getTime() - 60 * 60_000);
    const xmbh = `${STAMP}-P`;
    const failedSection = await seedOpeningProject(
      db(),
      { agent: agentCaller, auditor },
      new Date(now().getTime() - 25 * DAY),
      deadline,
      {
        xmmc: `${STAMP}阳泉市城区流标测试工程`,
        xmbh,
        xmlx: '市政公用工程',
        zbfs: '公开招标',
        zbr: '阳泉市城区住房和城乡建设局',
        zbrdm: `11140302MB1958163${creditCodeCheckChar('11140302MB1958163')}`,
        xmszd: ['山西省', '阳泉市', '城区'],
        ztz: 6_000_000,
        zjly: '财政资金',
        lxr: '测试',
        lxdh: '13835100009',
      },
      { estimate: 5_000_000, deposit: 100_000 },
    );
    const regionBefore = await indicatorsOf({ ...range, endMonth: monthOf(now()), region: '阳泉市' });
    await ok(c.post(`${O}/start`, agent, { sectionId: failedSection, decryptMinutes: 30 }));

    const after = await indicatorsOf({ ...range, endMonth: monthOf(now()) });
    // (3 + 2) / 2
    expect(after.total).toMatchObject({ opened: 2, bidsOpened: 5, bidders: 2.5 });
    expect(after.total.failed).toBe(before.total.failed + 1);
    const regionAfter = await indicatorsOf({ ...range, endMonth: monthOf(now()), region: '阳泉市' });
    expect(regionAfter.total.failed).toBe(regionBefore.total.failed + 1);
    expect(regionAfter.total.concluded).toBe(regionBefore.total.concluded + 1);
    expect(regionAfter.total.retenderRate).toBe(
      Math.round((regionAfter.total.failed / regionAfter.total.concluded) * 10_000) / 10_000,
    );

    const [opened] = await rows({ keyword: 'SXGC-2026-1005' });
    expect(opened).toMatchObject({ status: 'opened', bidders: 2, onPlatform: true, controlPrice: 18_650_000 });
    const detail = (await c.get(`${BASE}/details?id=${opened!.id}`, user1)).body.data;
    expect(detail.opening).toMatchObject({ status: 'closed', statusLabel: '开标结束', bidders: 2 });
    const [failed] = await rows({ keyword: xmbh });
    expect(failed).toMatchObject({
      status: 'failed',
      bidders: null,
      region: '阳泉市',
      controlPrice: 5_000_000,
      concludedAt: formatIn(now(), 'YYYY-MM-DD', DEFAULT_TIME_ZONE),
    });
    const failure = (await c.get(`${BASE}/details?id=${failed!.id}`, user1)).body.data.opening;
    expect(failure.status).toBe('failed');
    expect(failure.failureReason).toContain('不得开标，须重新招标');
  });
});

describe('监测报告', () => {
  it('compares the quarter with the one before and writes its findings', async () => {
    const r = await c.get(`${BASE}/monitoring-report?period=${Q}`, user1);
    expect(r.status).toBe(200);
    const rep = r.body.data as MonitoringReport;
    expect(rep).toMatchObject({
      period: Q,
      label: `${year}年第一季度`,
      kind: 'quarter',
      previousPeriod: `${year - 1}-Q4`,
      previousLabel: `${year - 1}年第四季度`,
      start: `${year}-01-01`,
      end: `${year}-03-31`,
    });
    expect(rep.current).toMatchObject({ published: 4, discountRate: 0.125, retenderRate: 0.25, failed: 1 });
    expect(rep.previous).toMatchObject({ published: 2, awarded: 1, discountRate: 0.05, failed: 1, retenderRate: 0.5 });
    expect(rep.trend.map((x) => x.period)).toEqual(
      [...Array(12)].map((_, i) => (i < 9 ? `${year - 1}-${String(i + 4).padStart(2, '0')}` : `${year}-0${i - 8}`)),
    );
    expect(rep.byRegion.map((x) => x.name)).toEqual(['阳泉市', '朔州市']);
    expect(rep.findings).toContain('本期发布交易（标段）4 宗，控制价合计 650.00 万元，较上期增加 2 宗（+100.00%）。');
    expect(rep.findings).toContain('本期平均下浮率 12.50%（2 宗有最高投标限价的成交），较上期上升 7.50 个百分点。');
    expect(rep.findings).toContain('本期重新招标率 25.00%（流标或终止 1 宗，办结 4 宗），较上期下降 25.00 个百分点。');
    expect(rep.findings.some((f) => f.startsWith('重新招标率最高的地区为朔州市'))).toBe(true);
    // a month: the months before it make the trend
    const m = (await c.get(`${BASE}/monitoring-report?period=${year}-03&region=${encodeURIComponent('阳泉市')}`, dev))
      .body.data as MonitoringReport;
    expect(m).toMatchObject({ kind: 'month', previousPeriod: `${year}-02`, region: '阳泉市' });
    expect(m.current).toMatchObject({ published: 0, awarded: 2, discountRate: 0.125 });
    expect(m.trend).toHaveLength(6);
  });

  it('downloads as a PDF naming its period', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${BASE}/monitoring-report/pdf?period=${Q}`,
      headers: { authorization: `Bearer ${user1}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toContain(
      `filename*=UTF-8''${encodeURIComponent(`市场监测报告-${year}年第一季度.pdf`)}`,
    );
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // text is written as UTF-16BE hex in the content streams
    const hex = (s: string) => Buffer.from(s, 'utf16le').swap16().toString('hex');
    const body = pdf.toString('latin1');
    expect(body).toContain(hex(`${year}年第一季度`));
    expect(body).toContain(hex(Q));
    expect(body).toContain(hex('重新招标率'));
  });
});

describe('从业人员', () => {
  it('lists people and shows one person’s public record, without private data', async () => {
    const l = await c.get(`${BASE}/persons?${qs({ pageSize: 50 })}`, user1);
    expect(l.status).toBe(200);
    expect(l.body.data.total).toBeGreaterThan(0);
    expect(l.body.data.practiceAreas.length).toBeGreaterThan(0);
    for (const p of l.body.data.records) {
      expect(Object.keys(p).sort()).toEqual(
        ['certNo', 'creditGrade', 'enterpriseName', 'id', 'name', 'practiceArea', 'region'].sort(),
      );
      expect(p.certNo).toContain('*');
    }
    // someone with qualifications and performances
    let shown: Record<string, unknown> | null = null;
    for (const p of l.body.data.records) {
      const r = await c.get(`${BASE}/person?id=${p.id}`, user1);
      expect(r.status).toBe(200);
      if (r.body.data.qualifications.length && r.body.data.performances.length) {
        shown = r.body.data;
        break;
      }
    }
    expect(shown).not.toBeNull();
    const person = shown as {
      certNo: string;
      qualifications: Record<string, unknown>[];
      performances: Record<string, unknown>[];
      creditRecords: Record<string, unknown>[];
    };
    expect(Object.keys(person).sort()).toEqual(
      [
        'certNo',
        'creditGrade',
        'creditRecords',
        'creditScore',
        'enterpriseName',
        'id',
        'name',
        'performances',
        'practiceArea',
        'qualifications',
        'region',
      ].sort(),
    );
    expect(person.certNo).toContain('*');
    for (const q of person.qualifications) {
      expect(Object.keys(q).sort()).toEqual(['certNo', 'expired', 'level', 'name', 'validUntil']);
      expect(String(q.certNo)).toContain('*');
    }
    for (const p of person.performances) {
      expect(Object.keys(p).sort()).toEqual(['amount', 'builder', 'completedAt', 'projectName', 'role']);
    }
    // nothing that identifies or reaches the person privately
    const { id: _id, ...shownData } = person as typeof person & { id: string };
    expect(JSON.stringify(shownData)).not.toMatch(/idCard|sfz|phone|mobile|address|\d{17}[\dX]|1[3-9]\d{9}/);
    const missing = await c.get(`${BASE}/person?id=00000000-0000-4000-8000-000000000000`, user1);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(PUBLIC_DATA_MSG.personMissing);
  });
});
