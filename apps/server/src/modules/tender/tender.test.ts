import { TENDER_MESSAGES } from '@ks/contracts';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs, tenderSections } from '../../db/schema';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { projects } from './project';

/**
 * The five-in-one project and its sections through the API (issue 16): who may read a project (the record policy) and
 * change its sections (its side); every section held to the timeline settings — legal minimums by default, stricter
 * when the centre says so, never looser — with messages naming the rule, and nothing stored on a refusal; codes unique
 * per project; no change after the bid deadline; an operation-log row for each change.
 */
let t: TestApp;
const c = client(() => t);
const db = () => t.database.db;
let admin: string;
let user1: string;
let dev: string;
let auditor: string;
let supervisor: string;
let school: string;
let park: string;

const DAY = 86_400_000;
/** The centre's calendar date n days from the test clock. */
const day = (n: number) => new Date(t.clock.now.getTime() + n * DAY + 8 * 3_600_000).toISOString().slice(0, 10);
const deadline = (n: number) => new Date(`${day(n)}T09:30:00+08:00`).toISOString();
const section = (patch: object = {}) => ({
  projectId: park,
  code: 'BD-01',
  name: '绿化施工标段',
  estimate: 6_500_000,
  deposit: 130_000,
  docSaleStart: day(2),
  docSaleEnd: day(6),
  bidDeadline: deadline(22),
  ...patch,
});
const sectionsOf = async (projectId: string) =>
  Number((await db().select({ n: count() }).from(tenderSections).where(eq(tenderSections.projectId, projectId)))[0]!.n);
const logsLike = async (text: string) =>
  Number(
    (
      await db()
        .select({ n: count() })
        .from(operationLogs)
        .where(like(operationLogs.logbook, `%${text}%`))
    )[0]!.n,
  );

beforeAll(async () => {
  // the last test moves the clock past a bid deadline some 22 days on: sessions must outlive that
  t = await createTestApp({ env: { SINGLE_SESSION: '0', SESSION_TTL_MINUTES: String(60 * 24 * 30) } });
  [admin, user1, dev, auditor, supervisor] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'auditor', 'U'),
    loginToken(t.app, 'supervisor', 'U'),
  ]);
  const byNo = async (xmbh: string) => (await projects.list(db(), { where: { xmbh } }))[0]!.id;
  school = await byNo('SXGC-2026-1101');
  park = await byNo('SXGC-2026-1103');
});
afterAll(async () => t?.close());

describe('the project', () => {
  it('shows its fields and its sections to its side, who may change them', async () => {
    const r = await c.get(`/ks/xmrc/v1/project?id=${school}`, admin);
    expect(r.status).toBe(200);
    expect(r.body.data.values.xmmc).toBe('太原市晋源区第二实验小学教学综合楼建设工程');
    expect(r.body.data.status).toBe('passed');
    expect(r.body.data.canEdit).toBe(true);
    expect(r.body.data.sections.map((s: { code: string }) => s.code)).toEqual(['BD-01', 'BD-02']);
    expect(r.body.data.sections[0]).toMatchObject({ estimate: 38_500_000, deposit: 770_000 });
  });

  it('is read but not changed by its reviewer and by a developer', async () => {
    const a = await c.get(`/ks/xmrc/v1/project?id=${school}`, auditor);
    expect(a.status).toBe(200);
    expect(a.body.data.canEdit).toBe(false);
    const d = await c.get(`/ks/xmrc/v1/project?id=${school}`, dev);
    expect(d.body.data.canEdit).toBe(false);
    const before = await sectionsOf(school);
    const s = await c.post('/ks/xmrc/v1/bd/save', auditor, section({ projectId: school, code: 'BD-09' }));
    expect(s.status).toBe(403);
    expect((await c.post('/ks/xmrc/v1/bd/save', dev, section({ projectId: school, code: 'BD-09' }))).status).toBe(403);
    expect(await sectionsOf(school)).toBe(before);
  });

  it('is listed and read by the supervisor (监督), who changes nothing and sees no bidder before the opening', async () => {
    // the engine's list of 项目进场登记: every project, with no button but 详情
    const list = await c.post('/ks/engine/v1/records/list', supervisor, { gnCoding: 'ZBTB_XMDJ', pageSize: 50 });
    expect(list.status).toBe(200);
    const all = await c.post('/ks/engine/v1/records/list', admin, { gnCoding: 'ZBTB_XMDJ', pageSize: 50 });
    const ids = (r: typeof list) => r.body.data.records.map((x: { id: string }) => x.id).sort();
    expect(ids(list)).toEqual(ids(all));
    expect(ids(list)).toContain(school);
    for (const r of list.body.data.records)
      expect(r.operations.map((o: { code: string }) => o.code)).toEqual(['detail']);
    // the project and its sections, read-only
    const p = await c.get(`/ks/xmrc/v1/project?id=${school}`, supervisor);
    expect(p.status).toBe(200);
    expect(p.body.data.canEdit).toBe(false);
    const before = await sectionsOf(school);
    const s = await c.post('/ks/xmrc/v1/bd/save', supervisor, section({ projectId: school, code: 'BD-09' }));
    expect(s.status).toBe(403);
    const [bd] = await db().select().from(tenderSections).where(eq(tenderSections.projectId, school));
    expect((await c.post('/ks/xmrc/v1/bd/delete', supervisor, { id: bd!.id })).status).toBe(403);
    expect(await sectionsOf(school)).toBe(before);
    // the record itself: 编辑 is not granted to 监督 (the policy would refuse it too, see policy.test)
    const version = list.body.data.records.find((x: { id: string }) => x.id === school).version;
    const edit = await c.post('/ks/engine/v1/records/save', supervisor, {
      gnCoding: 'ZBTB_XMDJ',
      id: school,
      version,
      values: { xmmc: '改' },
    });
    expect([edit.status, edit.body.message]).toEqual([403, '无权进行此操作']);
    // who registered stays hidden before the deadline; the counts of deposits are shown
    const names = await c.get(`/ks/trade/registrations/list?sectionId=${bd!.id}`, supervisor);
    expect(names.status).toBe(403);
    const deposits = await c.post('/ks/trade/deposit/payment-status', supervisor, { sectionId: bd!.id });
    expect(deposits.status).toBe(200);
    expect(deposits.body.data.records).toEqual([]);
    expect(deposits.body.data.counts.registered).toBeGreaterThanOrEqual(0);
  });

  it('does not exist for an enterprise that is not of its side', async () => {
    const r = await c.get(`/ks/xmrc/v1/project?id=${school}`, user1);
    expect(r.status).toBe(404);
    const s = await c.post('/ks/xmrc/v1/bd/save', user1, section({ projectId: school, code: 'BD-09' }));
    expect(s.status).toBe(404);
    const [bd] = await db().select().from(tenderSections).where(eq(tenderSections.projectId, school));
    expect((await c.post('/ks/xmrc/v1/bd/delete', user1, { id: bd!.id })).status).toBe(404);
    expect(await sectionsOf(school)).toBe(2);
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect((await c.get('/ks/xmrc/v1/project?id=1%20or%201=1', admin)).status).toBe(400);
    expect((await c.get('/ks/xmrc/v1/project?id=3f0a8a38-6f1e-4a53-9d43-1b6a3e1f2c11', admin)).status).toBe(404);
  });
});

describe('a section', () => {
  it('is added at the legal minimums, and logged', async () => {
    const r = await c.post('/ks/xmrc/v1/bd/save', admin, section({ docSaleEnd: day(6), bidDeadline: deadline(22) }));
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(TENDER_MESSAGES.saved);
    expect(r.body.data).toMatchObject({ code: 'BD-01', estimate: 6_500_000, deposit: 130_000, version: 1 });
    expect(await sectionsOf(park)).toBe(1);
    expect(await logsLike('新增标段 BD-01 绿化施工标段')).toBe(1);
  });

  it('is refused with the rule named when the sale is shorter than 5 days, and nothing is stored', async () => {
    const r = await c.post('/ks/xmrc/v1/bd/save', admin, section({ code: 'BD-02', docSaleEnd: day(5) }));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('招标文件发售期不得少于 5 日（招标投标法实施条例第十六条），当前为 4 日');
    expect(r.body.data.fieldErrors.docSaleEnd).toHaveLength(1);
    expect(await sectionsOf(park)).toBe(1);
  });

  it('is refused when fewer than 20 days lie between the first issue and the deadline', async () => {
    const r = await c.post('/ks/xmrc/v1/bd/save', admin, section({ code: 'BD-02', bidDeadline: deadline(21) }));
    expect(r.status).toBe(400);
    expect(r.body.data.fieldErrors.bidDeadline[0]).toContain('招标投标法第二十四条');
  });

  it('is refused when the deposit exceeds 2% of the estimate', async () => {
    const r = await c.post('/ks/xmrc/v1/bd/save', admin, section({ code: 'BD-02', deposit: 130_000.01 }));
    expect(r.status).toBe(400);
    expect(r.body.data.fieldErrors.deposit[0]).toContain('不得超过标段估算价的 2%');
  });

  it('is refused with a deadline in the past, a code taken in the project, or a bad body', async () => {
    const past = await c.post(
      '/ks/xmrc/v1/bd/save',
      admin,
      section({ code: 'BD-02', docSaleStart: day(-30), docSaleEnd: day(-20), bidDeadline: deadline(-1) }),
    );
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(TENDER_MESSAGES.deadlineInPast);
    const taken = await c.post('/ks/xmrc/v1/bd/save', admin, section());
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe(TENDER_MESSAGES.sectionCodeTaken);
    const bad = await c.post('/ks/xmrc/v1/bd/save', admin, section({ code: 'BD-03', estimate: -5, extra: 1 }));
    expect(bad.status).toBe(400);
    expect(await sectionsOf(park)).toBe(1);
  });

  it('is changed from the version it was read at; a stale version is a 409', async () => {
    const [bd] = await db().select().from(tenderSections).where(eq(tenderSections.projectId, park));
    const r = await c.post(
      '/ks/xmrc/v1/bd/save',
      admin,
      section({ id: bd!.id, version: 1, name: '绿化及景观施工标段' }),
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ name: '绿化及景观施工标段', version: 2 });
    const stale = await c.post('/ks/xmrc/v1/bd/save', admin, section({ id: bd!.id, version: 1, name: '旧名称' }));
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(TENDER_MESSAGES.sectionStale);
    expect(await logsLike('修改标段 BD-01 绿化及景观施工标段')).toBe(1);
  });
});

describe('the timeline settings', () => {
  it('default to the law and are read by anyone signed in', async () => {
    const r = await c.get('/ks/xmrc/v1/settings', user1);
    expect(r.status).toBe(200);
    expect(r.body.data.settings).toEqual({
      docSaleDays: 5,
      issueToDeadlineDays: 20,
      depositMaxPercent: 2,
      clarifyDays: 15,
      publicityWithinDays: 3,
      publicityDays: 3,
      // no legal value: the centre's default candidates of 评审系数 K
      kCandidates: [0.92, 0.93, 0.94, 0.95, 0.96, 0.97, 0.98],
    });
    expect(r.body.data.legal).toEqual(r.body.data.settings);
  });

  it('are changed by administrators only, never below the law', async () => {
    expect(
      (
        await c.post('/ks/xmrc/v1/settings', user1, {
          docSaleDays: 7,
          issueToDeadlineDays: 20,
          depositMaxPercent: 2,
          clarifyDays: 15,
        })
      ).status,
    ).toBe(403);
    const looser = await c.post('/ks/xmrc/v1/settings', admin, {
      docSaleDays: 3,
      issueToDeadlineDays: 20,
      depositMaxPercent: 2,
      clarifyDays: 15,
    });
    expect(looser.status).toBe(400);
    expect(looser.body.message).toBe('招标文件发售期不得少于法定的 5 日');
    expect((await c.get('/ks/xmrc/v1/settings', admin)).body.data.settings.docSaleDays).toBe(5);
  });

  it('once stricter, refuse what the law alone would allow', async () => {
    const r = await c.post('/ks/xmrc/v1/settings', admin, {
      docSaleDays: 7,
      issueToDeadlineDays: 20,
      depositMaxPercent: 2,
      clarifyDays: 15,
    });
    expect(r.status).toBe(200);
    expect(await logsLike('招标文件发售不少于 7 日')).toBe(1);
    const s = await c.post('/ks/xmrc/v1/bd/save', admin, section({ code: 'BD-02' }));
    expect(s.status).toBe(400);
    expect(s.body.message).toContain('不得少于 7 日');
    await c.post('/ks/xmrc/v1/settings', admin, {
      docSaleDays: 5,
      issueToDeadlineDays: 20,
      depositMaxPercent: 2,
      clarifyDays: 15,
    });
  });

  it('keep the centre’s 评审系数 K candidates: distinct, 0.80 to 1, two decimals', async () => {
    const base = { docSaleDays: 5, issueToDeadlineDays: 20, depositMaxPercent: 2, clarifyDays: 15 };
    for (const [kCandidates, message] of [
      [[0.95, 0.95], '评审系数 K 备选值不能重复'],
      [[0.75, 0.95], '评审系数 K 不小于 0.80'],
      [[0.955, 0.96], '评审系数 K 最多两位小数'],
      [[0.95], '评审系数 K 至少 2 个备选值'],
    ] as const) {
      const r = await c.post('/ks/xmrc/v1/settings', admin, { ...base, kCandidates });
      expect(r.status, message).toBe(400);
      expect(r.body.message).toBe(message);
    }
    const ok = await c.post('/ks/xmrc/v1/settings', admin, { ...base, kCandidates: [0.9, 0.95, 1] });
    expect(ok.status).toBe(200);
    expect((await c.get('/ks/xmrc/v1/settings', user1)).body.data.settings.kCandidates).toEqual([0.9, 0.95, 1]);
    expect(await logsLike('评审系数 K 备选值 0.90、0.95、1.00')).toBe(1);
    await c.post('/ks/xmrc/v1/settings', admin, base);
    expect((await c.get('/ks/xmrc/v1/settings', user1)).body.data.settings.kCandidates).toHaveLength(7);
  });
});

describe('after the bid deadline', () => {
  it('a section can be neither changed nor deleted; before it, it is deleted and logged', async () => {
    const extra = await c.post(
      '/ks/xmrc/v1/bd/save',
      admin,
      section({ code: 'BD-05', name: '临时标段', bidDeadline: deadline(23) }),
    );
    expect(extra.status).toBe(200);
    const del = await c.post('/ks/xmrc/v1/bd/delete', admin, { id: extra.body.data.id });
    expect(del.status).toBe(200);
    expect(await logsLike('删除标段 BD-05 临时标段')).toBe(1);

    const [bd] = await db()
      .select()
      .from(tenderSections)
      .where(and(eq(tenderSections.projectId, park), eq(tenderSections.code, 'BD-01')));
    const saved = t.clock.now;
    t.clock.now = new Date(bd!.bidDeadline.getTime() + 60_000);
    try {
      const edit = await c.post(
        '/ks/xmrc/v1/bd/save',
        admin,
        section({ id: bd!.id, docSaleStart: day(2), docSaleEnd: day(8), bidDeadline: deadline(25) }),
      );
      expect(edit.status).toBe(409);
      expect(edit.body.message).toBe(TENDER_MESSAGES.deadlinePassed);
      const gone = await c.post('/ks/xmrc/v1/bd/delete', admin, { id: bd!.id });
      expect(gone.status).toBe(409);
      expect(await sectionsOf(park)).toBe(1);
    } finally {
      t.clock.now = saved;
    }
  });
});
