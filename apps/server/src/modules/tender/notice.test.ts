import { creditCodeCheckChar, NOTICE_MESSAGES, REGISTRATION_MESSAGES } from '@ks/contracts';
import { and, count, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enterprises,
  grants,
  menuNodes,
  notices,
  operationLogs,
  performances,
  qualifications,
  tenderRegistrations,
  tenderSections,
  users,
} from '../../db/schema';
import { hashPassword } from '../../platform/password';
import { client, createTestApp, ENTERPRISE_DETAILS, loginToken, type TestApp } from '../../test/harness';
import { tableOf } from '../engine/sqlsafe';
import { projects } from './project';

/**
 * Tender notices and registration through the API (issue 16): a notice is written for a section by the project's side
 * (requirements from the qualification tree only), submitted into the engine's review, and published on the portal
 * when the 审核员 passes it — with the section's requirements; a change notice that affects bids less than 15 days
 * before the deadline must move it; enterprises register when their qualifications meet the requirements (且 / 或, a
 * level at least the required one), and who registered is hidden from other bidders and the tenderee until opening.
 */
let t: TestApp;
const c = client(() => t);
const db = () => t.database.db;
let admin: string;
let user1: string;
let dev: string;
let auditor: string;
let bidder2: string;
let tenderee: string;
let sewer: string;
let fresh: string;

const DAY = 86_400_000;
const day = (n: number) => new Date(t.clock.now.getTime() + n * DAY + 8 * 3_600_000).toISOString().slice(0, 10);
const deadline = (n: number) => new Date(`${day(n)}T09:30:00+08:00`).toISOString();
const notice = (patch: object = {}) => ({
  sectionId: fresh,
  kind: '招标公告',
  title: '大同市御河东路雨污分流改造工程监理标段招标公告',
  bodyHtml: '<p>本标段为施工监理。</p><script>alert(1)</script>',
  qualItems: ['市政公用工程施工总承包二级', '建筑工程施工总承包一级'],
  qualLabels: 'ignored: the server joins the values',
  qualRelation: '或',
  ...patch,
});
const portalCount = async (title: string) =>
  Number((await db().select({ n: count() }).from(notices).where(eq(notices.title, title)))[0]!.n);
const logsLike = async (text: string) =>
  Number(
    (
      await db()
        .select({ n: count() })
        .from(operationLogs)
        .where(like(operationLogs.logbook, `%${text}%`))
    )[0]!.n,
  );
const audit = (token: string, id: string, version: number, pass = true) =>
  c.post('/ks/engine/v1/records/audit', token, {
    gnCoding: 'ZBTB_ZBGG',
    id,
    version,
    pass,
    suggestion: pass ? '同意发布' : '资格要求不合理',
  });
const sectionRow = async (id: string) =>
  (await db().select().from(tenderSections).where(eq(tenderSections.id, id)))[0]!;

beforeAll(async () => {
  t = await createTestApp({ env: { SINGLE_SESSION: '0', SESSION_TTL_MINUTES: String(60 * 24 * 30) } });
  // a second bidder (a contractor with 建筑工程施工总承包一级) and a tenderee's staff, with accounts of their own
  const hash = await hashPassword('Demo@2026');
  const mk = async (account: string, name: string, base: string) => {
    const [e] = await db()
      .insert(enterprises)
      .values({ ...ENTERPRISE_DETAILS, name, creditCode: `${base}${creditCodeCheckChar(base)}` })
      .returning();
    await db()
      .insert(users)
      .values({ account, userName: account, loginRoleType: 'U', passwordHash: hash, enterpriseId: e!.id });
    return e!.id;
  };
  const second = await mk('bidder2', '山西晋阳建设集团有限公司', '91140100MA0L00001');
  await db()
    .insert(qualifications)
    .values({
      ownerKind: 'enterprise',
      ownerId: second,
      name: '建筑工程施工总承包',
      level: '一级',
      certNo: 'D114000001',
      validUntil: day(400),
    });
  const tendereeEnt = await mk('zbr1', '大同市市政设施管理中心', '12140200MB0287431');
  // the tenderee's staff may write and submit notices (an agency's role would grant the same)
  const [zbr1] = await db().select().from(users).where(eq(users.account, 'zbr1'));
  const [node] = await db().select().from(menuNodes).where(eq(menuNodes.gnCoding, 'ZBTB_ZBGG'));
  await db()
    .insert(grants)
    .values(
      ['', 'add', 'edit', 'submit', 'detail'].map((functionCode) => ({
        subjectType: 'user',
        subjectId: zbr1!.id,
        nodeId: node!.id,
        functionCode,
      })),
    );
  [admin, user1, dev, auditor, bidder2, tenderee] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'auditor', 'U'),
    loginToken(t.app, 'bidder2', 'U'),
    loginToken(t.app, 'zbr1', 'U'),
  ]);
  const project = (await projects.list(db(), { where: { xmbh: 'SXGC-2026-1102' } }))[0]!;
  sewer = project.id;
  // the tenderee's enterprise owns the sewer project from now on (it entered it itself)
  await db().execute(
    sql.raw(`update ${tableOf('ZBTB_XMDJ')} set enterprise_id = '${tendereeEnt}' where id = '${sewer}'`),
  );
  const s = await c.post('/ks/xmrc/v1/bd/save', tenderee, {
    projectId: sewer,
    code: 'BD-02',
    name: '监理标段',
    estimate: 620_000,
    deposit: 12_000,
    docSaleStart: day(1),
    docSaleEnd: day(7),
    bidDeadline: deadline(30),
  });
  expect(s.status).toBe(200);
  fresh = s.body.data.id;
});
afterAll(async () => t?.close());

describe('a tender notice', () => {
  let id: string;
  let version: number;

  it('is written by the project side only, with requirements from the qualification tree', async () => {
    // a bidder may not even read the project: for it the section does not exist
    expect((await c.post('/ks/xmrc/v1/notice/save', user1, notice())).status).toBe(404);
    expect((await c.post('/ks/xmrc/v1/notice/save', dev, notice())).status).toBe(403);
    const bad = await c.post('/ks/xmrc/v1/notice/save', tenderee, notice({ qualItems: ['建筑工程施工总承包五级'] }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('资质要求不在资质目录中');
    const noBody = await c.post('/ks/xmrc/v1/notice/save', tenderee, notice({ bodyHtml: '<p> </p>' }));
    expect(noBody.status).toBe(400);

    const r = await c.post('/ks/xmrc/v1/notice/save', tenderee, notice());
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      status: 'draft',
      kind: '招标公告',
      qualLabels: '市政公用工程施工总承包二级;建筑工程施工总承包一级',
      qualRelation: '或',
    });
    expect(r.body.data.bodyHtml).not.toContain('script');
    id = r.body.data.id;
    version = r.body.data.version;
    const list = await c.get(`/ks/xmrc/v1/notices?sectionId=${fresh}`, tenderee);
    expect(list.body.data).toMatchObject({ canEdit: true, publishedAt: null });
    expect(list.body.data.notices.map((n: { id: string }) => n.id)).toEqual([id]);
    // a bidder may not read a project it is not of: the section's notices do not exist for it
    expect((await c.get(`/ks/xmrc/v1/notices?sectionId=${fresh}`, user1)).status).toBe(404);
  });

  it('is refused for a project whose entry has not passed review', async () => {
    const park = (await projects.list(db(), { where: { xmbh: 'SXGC-2026-1103' } }))[0]!.id;
    const s = await c.post('/ks/xmrc/v1/bd/save', admin, {
      projectId: park,
      code: 'BD-09',
      name: '绿化标段',
      estimate: 1_000_000,
      deposit: 20_000,
      docSaleStart: day(1),
      docSaleEnd: day(7),
      bidDeadline: deadline(30),
    });
    const r = await c.post('/ks/xmrc/v1/notice/save', admin, notice({ sectionId: s.body.data.id }));
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(NOTICE_MESSAGES.projectNotPassed);
  });

  it('is not published before its review passes; then it is, with the requirements on the section', async () => {
    expect((await c.post('/ks/trade/registrations/save', bidder2, reg(fresh))).body.message).toBe(
      REGISTRATION_MESSAGES.notPublished,
    );
    const s = await c.post('/ks/xmrc/v1/notice/submit', tenderee, { id, version });
    expect(s.status).toBe(200);
    expect(s.body.data.status).toBe('pending');
    // a second notice may not go into review beside it
    const other = await c.post('/ks/xmrc/v1/notice/save', tenderee, notice({ title: '另一份公告' }));
    const again = await c.post('/ks/xmrc/v1/notice/submit', tenderee, {
      id: other.body.data.id,
      version: other.body.data.version,
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(NOTICE_MESSAGES.pendingExists);
    expect(await portalCount(notice().title)).toBe(0);

    const passed = await audit(auditor, id, s.body.data.version);
    expect(passed.status).toBe(200);
    expect(await portalCount(notice().title)).toBe(1);
    const [published] = await db().select().from(notices).where(eq(notices.title, notice().title));
    expect(published).toMatchObject({
      status: 'published',
      category: '招标公告',
      tradeType: '工程建设',
      region: '大同市',
      projectCode: 'SXGC-2026-1102',
      sectionName: 'BD-02 监理标段',
      tenderer: '大同市市政设施管理中心',
    });
    expect(published!.bodyHtml).toContain('市政公用工程施工总承包二级;建筑工程施工总承包一级');
    expect(published!.bodyHtml).not.toContain('script');
    expect(published!.bodyHtml).toContain('本标段未设业绩要求');
    const row = await sectionRow(fresh);
    expect(row.qualItems).toEqual(['市政公用工程施工总承包二级', '建筑工程施工总承包一级']);
    expect(row.qualRelation).toBe('或');
    expect(row.noticePublishedAt).not.toBeNull();
    expect(await logsLike(`发布招标公告《${notice().title}》`)).toBe(1);
    // the portal shows it to anyone
    const portal = await c.get(`/ks/portal/v1/notices/detail?id=${published!.id}`, null);
    expect(portal.status).toBe(200);
  });

  it('is published once: a second tender notice is refused, changes go by change notice', async () => {
    const r = await c.post('/ks/xmrc/v1/notice/save', tenderee, notice({ title: '重复的招标公告' }));
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(NOTICE_MESSAGES.alreadyPublished);
  });
});

describe('a change notice', () => {
  const change = (patch: object = {}) =>
    notice({
      kind: '变更公告',
      title: '监理标段变更公告',
      qualItems: [],
      affectsBids: true,
      reason: '调整监理服务期',
      ...patch,
    });

  it('that affects bids less than 15 days before the deadline must move it that far', async () => {
    const saved = t.clock.now;
    const soon = deadline(32);
    const later = deadline(40);
    try {
      // 20 days on: the deadline (day 30) is 10 days away
      t.clock.now = new Date(saved.getTime() + 20 * DAY);
      const near = await c.post('/ks/xmrc/v1/notice/save', tenderee, change());
      expect(near.status).toBe(400);
      expect(near.body.message).toContain('招标投标法实施条例第二十一条');
      const tooSoon = await c.post('/ks/xmrc/v1/notice/save', tenderee, change({ newDeadline: soon }));
      expect(tooSoon.status).toBe(400);
      const ok = await c.post('/ks/xmrc/v1/notice/save', tenderee, change({ newDeadline: later }));
      expect(ok.status).toBe(200);
      const sub = await c.post('/ks/xmrc/v1/notice/submit', tenderee, {
        id: ok.body.data.id,
        version: ok.body.data.version,
      });
      expect(sub.status).toBe(200);
      expect((await audit(auditor, ok.body.data.id, sub.body.data.version)).status).toBe(200);
      const row = await sectionRow(fresh);
      expect(row.bidDeadline.toISOString()).toBe(later);
      expect(await portalCount('监理标段变更公告')).toBe(1);
      const [published] = await db().select().from(notices).where(eq(notices.title, '监理标段变更公告'));
      expect(published!.category).toBe('变更公告');
      expect(published!.bodyHtml).toContain('调整监理服务期');
    } finally {
      t.clock.now = saved;
    }
  });

  it('that does not affect bids needs no move; without a reason it is refused', async () => {
    const noReason = await c.post('/ks/xmrc/v1/notice/save', tenderee, change({ affectsBids: false, reason: '' }));
    expect(noReason.status).toBe(400);
    const ok = await c.post('/ks/xmrc/v1/notice/save', tenderee, change({ affectsBids: false, title: '澄清' }));
    expect(ok.status).toBe(200);
  });
});

const reg = (sectionId: string) => ({ sectionId, contact: '王磊', phone: '13912345678' });

describe('registration', () => {
  it('checks the qualifications: 或 — any one requirement met at its level or higher', async () => {
    const check = await c.get(`/ks/trade/registrations/check?sectionId=${fresh}`, user1);
    expect(check.status).toBe(200);
    // user1 holds 市政公用工程施工总承包二级 (meets the first) and 建筑工程施工总承包二级 (below 一级)
    expect(check.body.data.ok).toBe(true);
    expect(check.body.data.lines).toMatchObject([
      { requirement: '市政公用工程施工总承包二级', ok: true, held: '市政公用工程施工总承包二级' },
      { requirement: '建筑工程施工总承包一级', ok: false, reason: '持有 建筑工程施工总承包二级，低于要求的一级' },
    ]);
    const r = await c.post('/ks/trade/registrations/save', user1, reg(fresh));
    expect(r.status).toBe(200);
    expect(r.body.data.matched).toEqual([
      expect.objectContaining({ requirement: '市政公用工程施工总承包二级', held: '市政公用工程施工总承包二级' }),
    ]);
    const twice = await c.post('/ks/trade/registrations/save', user1, reg(fresh));
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(REGISTRATION_MESSAGES.already);
    const b2 = await c.post('/ks/trade/registrations/save', bidder2, reg(fresh));
    expect(b2.status).toBe(200);
  });

  it('refuses, with the reason, an enterprise whose qualifications fall short under 且', async () => {
    const school = (await projects.list(db(), { where: { xmbh: 'SXGC-2026-1101' } }))[0]!.id;
    const [supervision] = await db()
      .select()
      .from(tenderSections)
      .where(and(eq(tenderSections.projectId, school), eq(tenderSections.code, 'BD-02')));
    const before = await db().select({ n: count() }).from(tenderRegistrations);
    const r = await c.post('/ks/trade/registrations/save', user1, reg(supervision!.id));
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('资质不符合招标公告的资格要求');
    expect(r.body.message).toContain('未持有房屋建筑工程监理资质');
    expect(await db().select({ n: count() }).from(tenderRegistrations)).toEqual(before);
    // a lapsed certificate does not count
    const [b2ent] = await db().select().from(users).where(eq(users.account, 'bidder2'));
    await db()
      .insert(qualifications)
      .values({
        ownerKind: 'enterprise',
        ownerId: b2ent!.enterpriseId!,
        name: '房屋建筑工程监理',
        level: '甲级',
        certNo: 'E114000009',
        validUntil: day(-3),
      });
    const b2 = await c.get(`/ks/trade/registrations/check?sectionId=${supervision!.id}`, bidder2);
    expect(b2.body.data.ok).toBe(false);
    expect(b2.body.data.lines[0].reason).toBe('房屋建筑工程监理资质证书已过有效期');
  });

  it('checks the performance requirement against the enterprise’s reviewed performances (企业业绩)', async () => {
    const bad = await c.post('/ks/xmrc/v1/bd/save', tenderee, {
      projectId: sewer,
      code: 'BD-03',
      name: '检测标段',
      estimate: 900_000,
      deposit: 15_000,
      docSaleStart: day(1),
      docSaleEnd: day(7),
      bidDeadline: deadline(30),
      perfCount: 2,
      perfMinAmount: 5_000_000,
      perfYears: 0,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fieldErrors.perfYears).toEqual(['业绩年限至少 1 年']);
    const saved = await c.post('/ks/xmrc/v1/bd/save', tenderee, {
      projectId: sewer,
      code: 'BD-03',
      name: '检测标段',
      estimate: 900_000,
      deposit: 15_000,
      docSaleStart: day(1),
      docSaleEnd: day(7),
      bidDeadline: deadline(30),
      perfCount: 2,
      perfMinAmount: 5_000_000,
      perfYears: 3,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ perfCount: 2, perfMinAmount: 5_000_000, perfYears: 3 });
    const perfSection = saved.body.data.id as string;
    expect(await logsLike('业绩要求：近 3 年内完成单项合同金额不低于 500 万元的工程业绩不少于 2 项')).toBe(1);
    // its notice published (the notice flow is tested above): no qualification requirements, only the performance
    await db().update(tenderSections).set({ noticePublishedAt: t.clock.now }).where(eq(tenderSections.id, perfSection));
    const [b2] = await db().select().from(users).where(eq(users.account, 'bidder2'));
    const perf = (projectName: string, amount: string, completedAt: string) => ({
      ownerKind: 'enterprise',
      ownerId: b2!.enterpriseId!,
      projectName,
      role: '施工总承包',
      amount,
      completedAt,
    });
    await db()
      .insert(performances)
      .values([
        perf('太原市晋阳湖公园配套道路工程', '12800000.00', day(-400)),
        // too small, too old, not yet completed: none counts
        perf('阳曲县村道硬化工程', '4999999.99', day(-100)),
        perf('太原市迎泽大街改造工程', '30000000.00', day(-3 * 366 - 5)),
        perf('晋中市榆次区综合管廊工程', '9000000.00', day(30)),
      ]);
    const short = await c.get(`/ks/trade/registrations/check?sectionId=${perfSection}`, bidder2);
    expect(short.status).toBe(200);
    expect(short.body.data.ok).toBe(false);
    expect(short.body.data.lines).toEqual([
      {
        requirement: '业绩要求：近 3 年内完成单项合同金额不低于 500 万元的工程业绩不少于 2 项',
        held: '符合要求的业绩 1 项：太原市晋阳湖公园配套道路工程',
        certNo: null,
        ok: false,
        reason: '符合要求的业绩 1 项，少于要求的 2 项',
      },
    ]);
    const refused = await c.post('/ks/trade/registrations/save', bidder2, reg(perfSection));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('符合要求的业绩 1 项，少于要求的 2 项');
    const open = await c.get('/ks/trade/registrations/sections', bidder2);
    expect(
      open.body.data.records.find((x: { sectionId: string }) => x.sectionId === perfSection)?.perfRequirement,
    ).toBe('近 3 年内完成单项合同金额不低于 500 万元的工程业绩不少于 2 项');
    // a second one exactly at the amount, completed today: now it holds, and the registration keeps the evidence
    await db()
      .insert(performances)
      .values(perf('清徐县污水处理厂提标改造工程', '5000000.00', day(0)));
    const ok = await c.post('/ks/trade/registrations/save', bidder2, reg(perfSection));
    expect(ok.status).toBe(200);
    expect(ok.body.data.matched).toEqual([
      expect.objectContaining({
        requirement: '业绩要求：近 3 年内完成单项合同金额不低于 500 万元的工程业绩不少于 2 项',
        held: expect.stringContaining('符合要求的业绩 2 项'),
      }),
    ]);
  });

  it('is for enterprises only, not for the project side, and not after the deadline', async () => {
    expect((await c.post('/ks/trade/registrations/save', admin, reg(fresh))).status).toBe(403);
    expect((await c.post('/ks/trade/registrations/save', auditor, reg(fresh))).body.message).toBe(
      REGISTRATION_MESSAGES.notEnterprise,
    );
    const side = await c.post('/ks/trade/registrations/save', tenderee, reg(fresh));
    expect(side.status).toBe(403);
    expect(side.body.message).toBe(REGISTRATION_MESSAGES.sideCannot);
  });

  it('keeps the tenderee, its agency and the registered bidders off the section’s expert committee', async () => {
    const at = (h: number) =>
      new Date(t.clock.now.getTime() + h * 3_600_000 + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    const r = await c.post('/ks/expert-extraction/v1/create', admin, {
      projectName: '大同市御河东路雨污分流改造工程',
      sectionName: 'BD-02 监理标段',
      sectionId: fresh,
      openingAt: at(24 * 40),
      evaluationStartAt: at(24 * 40 + 1),
      conditions: {
        tendereeReps: 1,
        lines: [
          { specialty: '市政公用工程', count: 4 },
          { specialty: '工程造价', count: 2 },
        ],
        regions: [],
        avoidEmployers: [],
        avoidExpertIds: [],
        recentDays: 30,
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.conditions.avoidEmployers).toEqual(
      expect.arrayContaining([
        '大同市市政设施管理中心',
        '山西诚信招标代理有限公司',
        '示例建设工程有限公司',
        '山西晋阳建设集团有限公司',
      ]),
    );
    expect(r.body.data.projectRef).toBe('SXGC-2026-1102 BD-02');
    expect(await logsLike('自动回避招标人、招标代理及 2 家报名单位')).toBe(1);
  });

  it('hides who registered from other bidders and from the tenderee until opening — counts only', async () => {
    const q = await c.get(`/ks/trade/registrations/quantity?sectionId=${fresh}`, bidder2);
    expect(q.body.data.quantity).toBe(2);
    for (const token of [user1, bidder2, tenderee, auditor]) {
      const r = await c.get(`/ks/trade/registrations/list?sectionId=${fresh}`, token);
      expect(r.status).toBe(403);
      expect(r.body.message).toBe(REGISTRATION_MESSAGES.hidden);
      expect(JSON.stringify(r.body)).not.toContain('晋阳');
    }
    const open = await c.get('/ks/trade/registrations/sections', bidder2);
    const mine = open.body.data.records.find((s: { sectionId: string }) => s.sectionId === fresh);
    expect(mine.registeredAt).not.toBeNull();
    expect(JSON.stringify(open.body)).not.toContain('示例建设工程');
    // the centre sees them
    const centre = await c.get(`/ks/trade/registrations/list?sectionId=${fresh}`, admin);
    expect(centre.body.data.records.map((r: { enterpriseName: string }) => r.enterpriseName).sort()).toEqual(
      ['山西晋阳建设集团有限公司', '示例建设工程有限公司'].sort(),
    );
    // at opening the tenderee does too; registering is over
    const saved = t.clock.now;
    try {
      t.clock.now = new Date((await sectionRow(fresh)).bidDeadline.getTime() + 60_000);
      // (sessions last 30 days at most: sign in again at opening)
      const [zbr1Now, user1Now, bidder2Now] = await Promise.all([
        loginToken(t.app, 'zbr1', 'U'),
        loginToken(t.app, 'user1', 'U'),
        loginToken(t.app, 'bidder2', 'U'),
      ]);
      const after = await c.get(`/ks/trade/registrations/list?sectionId=${fresh}`, zbr1Now);
      expect(after.status).toBe(200);
      expect(after.body.data.records).toHaveLength(2);
      expect((await c.get(`/ks/trade/registrations/list?sectionId=${fresh}`, user1Now)).status).toBe(403);
      const late = await c.post('/ks/trade/registrations/save', bidder2Now, reg(fresh));
      expect(late.status).toBe(409);
      expect(late.body.message).toBe(REGISTRATION_MESSAGES.deadlinePassed);
    } finally {
      t.clock.now = saved;
    }
  });
});
