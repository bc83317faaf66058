import { COST_DETECT_MSG, COST_MSG } from '@ks/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costDetections, costFiles, enterprises, tenderSections, userMessages, users } from '../../db/schema';
import { createStorage } from '../../platform/storage';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { client } from '../files/testkit';
import { projects } from '../tender/project';
import { COST_JOB_MAX_ATTEMPTS } from './cost.jobs';
import { costXml } from './cost.sample';
import { costXlsx } from './cost.sample-xlsx';

/**
 * Cost-file detection through the API (issue 18) on the demo's SXGC-2026-1005 BD-01 and its three bidders: one clean
 * file, one with its safety-civilised fee cut below the rate, and a file handed from one bidder to another (identical).
 */
let t: TestApp;
const c = client(() => t);
const db = () => t.database.db;
let admin: string;
let dev: string;
let bidder: string;
let sectionId: string;
let otherSection: string;
let ents: { enterpriseId: string; name: string }[];

const P = {
  dirs: '/ks/file/directories',
  status: '/ks/file/status',
  upload: '/ks/file/cost-upload',
  start: '/ks/file/detection',
  achievement: '/ks/file/achievement',
  score: '/ks/file/detection/score',
  parse: '/ks/file/parse-data',
  publish: '/ks/file/publicity',
  summary: '/ks/file/publicity/summary',
};
const xml = (o: Parameters<typeof costXml>[0]) => Buffer.from(costXml(o));
const upload = (token: string, enterpriseId: string, data: Buffer, name = '投标报价.xml', section = sectionId) =>
  c.upload(P.upload, token, { sectionId: section, enterpriseId }, [{ name, data, type: 'text/xml' }]);

async function sectionOf(xmbh: string) {
  const [p] = await projects.list(db(), { where: { xmbh } });
  const [s] = await db()
    .select()
    .from(tenderSections)
    .where(and(eq(tenderSections.projectId, p!.id), eq(tenderSections.code, 'BD-01')));
  return s!.id;
}

beforeAll(async () => {
  t = await createTestApp({ env: { SINGLE_SESSION: '0' } });
  [admin, dev, bidder] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
  ]);
  sectionId = await sectionOf('SXGC-2026-1005');
  otherSection = await sectionOf('SXGC-2026-1101');
});
afterAll(async () => t?.close());

describe('files', () => {
  it('lists the section with its three bidders for the centre, and refuses bidders', async () => {
    const s = await c.post(P.status, admin, { sectionId });
    expect(s.status).toBe(200);
    ents = s.body.data.bidders;
    expect(ents).toHaveLength(3);
    expect(s.body.data).toMatchObject({ files: [], detection: null, canManage: true });
    const dirs = await c.post(P.dirs, admin, { pageNum: 1, pageSize: 50 });
    expect(dirs.body.data.records.some((r: { sectionId: string }) => r.sectionId === sectionId)).toBe(true);
    expect((await c.post(P.status, bidder, { sectionId })).status).toBe(403);
    expect((await c.post(P.dirs, bidder, {})).status).toBe(403);
    expect((await c.post(P.status, dev, { sectionId })).body.data.canManage).toBe(false);
    expect((await c.post(P.status, admin, { sectionId: 'x' })).status).toBe(400);
  });

  it('takes a file that parses, refuses one that does not (naming its line), another type and the read-only', async () => {
    const broken = costXml({ bidder: 'x', seed: 1 }).split('\n');
    const at = broken.findIndex((l) => l.includes('<单位工程'));
    broken[at] = broken[at]!.replace(/ 规费="[^"]*"/, '');
    const bad = await upload(admin, ents[0]!.enterpriseId, Buffer.from(broken.join('\n')));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(COST_MSG.atLine(at + 1, COST_MSG.missing('单位工程', '规费')));
    const pdf = await upload(admin, ents[0]!.enterpriseId, Buffer.from('%PDF-1.4'), 'a.pdf');
    expect(pdf.status).toBe(400);
    expect(pdf.body.message).toBe(COST_MSG.wrongType);
    const d = await upload(dev, ents[0]!.enterpriseId, xml({ bidder: ents[0]!.name, seed: 51 }));
    expect(d.status).toBe(403);
    expect(d.body.message).toBe(COST_DETECT_MSG.readOnly);
    expect((await upload(bidder, ents[0]!.enterpriseId, xml({ bidder: 'x', seed: 51 }))).status).toBe(403);
    const noEnt = await upload(admin, '00000000-0000-4000-8000-000000000000', xml({ bidder: 'x', seed: 51 }));
    expect(noEnt.status).toBe(404);
    expect((await c.post(P.status, admin, { sectionId })).body.data.files).toEqual([]);
    // nothing can be detected with one file
    const one = await upload(admin, ents[0]!.enterpriseId, xml({ bidder: ents[0]!.name, seed: 51 }));
    expect(one.status).toBe(200);
    const few = await c.post(P.start, admin, { sectionId });
    expect(few.status).toBe(409);
    expect(few.body.message).toBe(COST_DETECT_MSG.tooFew);
  });

  it('replaces a bidder’s file on a new upload, and shows its tree', async () => {
    const [a, b, d] = ents as [(typeof ents)[0], (typeof ents)[0], (typeof ents)[0]];
    // the clean one (again: it replaces the first), the one under the rate, and the one handed over
    const handed = xml({ bidder: b.name, seed: 52 });
    expect((await upload(admin, a.enterpriseId, xml({ bidder: a.name, seed: 50 }))).status).toBe(200);
    expect((await upload(admin, b.enterpriseId, handed)).status).toBe(200);
    const r = await upload(admin, d.enterpriseId, handed);
    expect(r.status).toBe(200);
    expect(r.body.data.files).toHaveLength(3);
    // the one under the rate comes as an xlsx workbook: detection reads the two forms alike
    const workbook = await costXlsx({ bidder: a.name, seed: 50, safetyRate: 0.02 });
    const low = await upload(admin, a.enterpriseId, workbook, '投标报价.xlsx');
    expect(low.status).toBe(200);
    expect(low.body.data.files).toHaveLength(3);
    const fileA = low.body.data.files.find((f: { enterpriseId: string }) => f.enterpriseId === a.enterpriseId);
    expect(fileA).toMatchObject({ fileName: '投标报价.xlsx', size: workbook.length });
    const stored = await db().select().from(costFiles).where(eq(costFiles.id, fileA.id));
    const body = await createStorage(t.config).get(stored[0]!.storageKey);
    expect(Buffer.concat(await body.toArray())).toEqual(workbook);
    const tree = await c.post(P.parse, dev, { id: fileA.id });
    expect(tree.status).toBe(200);
    expect(tree.body.data.tree[0].children.map((s: { name: string }) => s.name)).toEqual([
      '学生公寓楼',
      '室外配套工程',
    ]);
    expect(tree.body.data.tree[0].zzj).toBe(fileA.bidPrice);
    expect((await c.post(P.parse, bidder, { id: fileA.id })).status).toBe(403);
  });
});

describe('detection', () => {
  it('gives one job for two starts at once, runs it, and flags the identical pair and the low fee; the clean passes', async () => {
    const [s1, s2] = await Promise.all([c.post(P.start, admin, { sectionId }), c.post(P.start, admin, { sectionId })]);
    expect(s1.status).toBe(200);
    expect(s2.status).toBe(200);
    expect(s1.body.message).toBe(COST_DETECT_MSG.started);
    expect(s1.body.data.detection.id).toBe(s2.body.data.detection.id);
    const active = await db()
      .select()
      .from(costDetections)
      .where(and(eq(costDetections.sectionId, sectionId), inArray(costDetections.status, ['queued', 'running'])));
    expect(active.length).toBeLessThanOrEqual(1);
    await t.app.costRunner.settle();
    const st = (await c.post(P.status, admin, { sectionId })).body.data;
    expect(st.detection).toMatchObject({ status: 'done', progress: 4, total: 4, stale: false, error: null });
    const a = (await c.post(P.achievement, dev, { sectionId })).body.data.results;
    const by = (name: string) => a.bidders.find((b: { enterpriseName: string }) => b.enterpriseName === name);
    const checks = (name: string) => by(name).findings.map((f: { check: string }) => f.check);
    expect(checks(ents[0]!.name)).toEqual(['safetyRate']);
    expect(by(ents[0]!.name).risk).toBe('medium');
    for (const e of ents.slice(1)) {
      expect(checks(e.name)).toEqual(expect.arrayContaining(['identicalFile', 'fingerprint']));
      expect(by(e.name).risk).toBe('high');
    }
    const identical = a.pairs.find((p: { score: number }) => p.score === 100);
    expect(identical.findings[0].evidence[0]).toMatch(/^两份文件的 SHA-256 均为 [0-9a-f]{64}$/);
    const score = (await c.post(P.score, admin, { sectionId })).body.data;
    expect(score.files).toHaveLength(3);
    expect(score.score.flat().filter((x: number) => x === 100)).toHaveLength(5);
    expect((await c.post(P.achievement, bidder, { sectionId })).status).toBe(403);
    const none = await c.post(P.achievement, admin, { sectionId: otherSection });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe(COST_DETECT_MSG.notDone);
  });

  it('marks a finished detection stale once a file changes', async () => {
    await upload(admin, ents[0]!.enterpriseId, xml({ bidder: ents[0]!.name, seed: 50 }));
    expect((await c.post(P.status, admin, { sectionId })).body.data.detection.stale).toBe(true);
    const stale = await c.post(P.publish, admin, { sectionId, publish: true });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(COST_DETECT_MSG.staleResults);
  });
});

describe('publicity', () => {
  let demo: string;
  let agent: string;
  beforeAll(async () => {
    demo = await sectionOf('SXGC-2026-1006');
    agent = await loginToken(t.app, 'agent', 'U');
  });

  it('is the demo’s: published, user1 reads it with its own file’s findings and has the message; others may not', async () => {
    const mine = await c.post(P.summary, bidder, { sectionId: demo });
    expect(mine.status).toBe(200);
    expect(mine.body.data.publishedAt).not.toBeNull();
    expect(mine.body.data.own.enterpriseName).toBe('示例建设工程有限公司');
    expect(mine.body.data.own.findings.map((f: { check: string }) => f.check)).toEqual(['safetyRate']);
    expect(mine.body.data.own.findings[0].evidence.length).toBeGreaterThan(0);
    const [u1] = await db().select().from(users).where(eq(users.account, 'user1'));
    const told = await db()
      .select()
      .from(userMessages)
      .where(and(eq(userMessages.userId, u1!.id), eq(userMessages.link, `/fileAnalysis/publicity?sectionId=${demo}`)));
    expect(told).toHaveLength(1);
    expect(told[0]!.title).toMatch(/^造价文件检测结果公示：BD-01 /);
    expect(told[0]!.body).toContain('中风险');
    const stranger = await c.post(P.summary, agent, { sectionId: demo });
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toBe(COST_DETECT_MSG.publicityDenied);
    const again = await c.post(P.publish, admin, { sectionId: demo, publish: true });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(COST_DETECT_MSG.alreadyPublished);
  });

  it('is withdrawn by an administrator only, after which a bidder hears it is not published', async () => {
    expect((await c.post(P.publish, dev, { sectionId: demo, publish: false })).status).toBe(403);
    expect((await c.post(P.publish, bidder, { sectionId: demo, publish: false })).status).toBe(403);
    expect((await c.post(P.publish, admin, { sectionId: demo })).status).toBe(400);
    const w = await c.post(P.publish, admin, { sectionId: demo, publish: false });
    expect(w.status).toBe(200);
    expect(w.body.data.publishedAt).toBeNull();
    const [row] = await db()
      .select()
      .from(costDetections)
      .where(and(eq(costDetections.sectionId, demo), eq(costDetections.status, 'done')));
    expect(row!.publishedAt).toBeNull();
    const early = await c.post(P.summary, bidder, { sectionId: demo });
    expect(early.status).toBe(404);
    expect(early.body.message).toBe(COST_DETECT_MSG.notPublished);
    expect((await c.post(P.summary, agent, { sectionId: demo })).status).toBe(403);
    const none = await c.post(P.publish, admin, { sectionId: demo, publish: false });
    expect(none.status).toBe(409);
    expect(none.body.message).toBe(COST_DETECT_MSG.notPublished);
  });

  it('previews the permitted summary to the centre, and publishes it again with the bidders told', async () => {
    const pre = await c.post(P.summary, dev, { sectionId: demo });
    expect(pre.status).toBe(200);
    expect(pre.body.data).toMatchObject({ publishedAt: null, own: null, canManage: false });
    expect(pre.body.data.bidders).toHaveLength(3);
    const flagged = pre.body.data.bidders.find(
      (b: { enterpriseName: string }) => b.enterpriseName === '示例建设工程有限公司',
    );
    expect(flagged).toEqual({
      enterpriseName: '示例建设工程有限公司',
      risk: 'medium',
      checks: [{ check: 'safetyRate', count: 1 }],
    });
    // no evidence of anyone's file in the summary
    expect(JSON.stringify(pre.body.data)).not.toMatch(/evidence|¥|SHA-256/);
    expect((await c.post(P.publish, dev, { sectionId: demo, publish: true })).status).toBe(403);
    const noDetection = await c.post(P.publish, admin, { sectionId: otherSection, publish: true });
    expect(noDetection.status).toBe(404);
    const [u1] = await db().select().from(users).where(eq(users.account, 'user1'));
    const before = await db().select().from(userMessages).where(eq(userMessages.userId, u1!.id));
    const pub = await c.post(P.publish, admin, { sectionId: demo, publish: true });
    expect(pub.status).toBe(200);
    expect(pub.body.data.publishedAt).not.toBeNull();
    const after = await db().select().from(userMessages).where(eq(userMessages.userId, u1!.id));
    expect(after.filter((m) => !before.some((b) => b.id === m.id))).toHaveLength(1);
    expect((await c.post(P.summary, bidder, { sectionId: demo })).status).toBe(200);
  });
});

describe('the demo', () => {
  it('has the evaluation demo’s three cost files and a finished detection flagging user1’s cut safety fee', async () => {
    const demo = await sectionOf('SXGC-2026-1006');
    const st = (await c.post(P.status, admin, { sectionId: demo })).body.data;
    expect(st.files).toHaveLength(3);
    expect(st.detection).toMatchObject({ status: 'done', stale: false });
    const r = (await c.post(P.achievement, admin, { sectionId: demo })).body.data.results;
    const risks = Object.fromEntries(
      r.bidders.map((b: { enterpriseName: string; risk: string; findings: { check: string }[] }) => [
        b.enterpriseName,
        `${b.risk}:${b.findings.map((f) => f.check).join(',')}`,
      ]),
    );
    expect(risks.示例建设工程有限公司).toBe('medium:safetyRate');
    expect(Object.values(risks).filter((v) => v === 'low:')).toHaveLength(2);
    // its files are in the store: the tree reads back
    const tree = await c.post(P.parse, admin, { id: st.files[0].id });
    expect(tree.body.data.tree[0].code).toBe('SXGC-2026-1006');
  });
});

describe('a server that stops in the middle of a detection', () => {
  async function orphan(attempts: number) {
    const [adminRow] = await db().select().from(users).where(eq(users.account, 'admin'));
    // the section's files as they are now (a detection's snapshot names each by its stored key)
    const snapshot = (
      await db()
        .select({ f: costFiles, enterpriseName: enterprises.name })
        .from(costFiles)
        .innerJoin(enterprises, eq(enterprises.id, costFiles.enterpriseId))
        .where(eq(costFiles.sectionId, sectionId))
    ).map(({ f, enterpriseName }) => ({
      id: f.id,
      enterpriseId: f.enterpriseId,
      enterpriseName,
      fileName: f.fileName,
      storageKey: f.storageKey,
      sha256: f.sha256,
    }));
    // as a process that died left it: running, its lease run out
    const [row] = await db()
      .insert(costDetections)
      .values({
        sectionId,
        status: 'running',
        total: snapshot.length + 1,
        attempts,
        leaseUntil: new Date(Date.now() - 60_000),
        startedAt: new Date(Date.now() - 120_000),
        startedById: adminRow!.id,
        files: snapshot,
      })
      .returning();
    return row!.id;
  }

  it('is taken up again by a running server and finished; no file is replaced under it meanwhile', async () => {
    const id = await orphan(1);
    const busy = await upload(admin, ents[0]!.enterpriseId, xml({ bidder: ents[0]!.name, seed: 50 }));
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe(COST_DETECT_MSG.running);
    await t.app.costRunner.kick();
    const [row] = await db().select().from(costDetections).where(eq(costDetections.id, id));
    expect(row).toMatchObject({ status: 'done', attempts: 2, error: null });
  });

  it('is failed with the reason once it was interrupted too often', async () => {
    const id = await orphan(COST_JOB_MAX_ATTEMPTS);
    await t.app.costRunner.kick();
    const [row] = await db().select().from(costDetections).where(eq(costDetections.id, id));
    expect(row).toMatchObject({ status: 'failed', error: COST_DETECT_MSG.interrupted(COST_JOB_MAX_ATTEMPTS) });
    expect((await c.post(P.status, admin, { sectionId })).body.data.detection.status).toBe('failed');
  });
});

describe('settings', () => {
  it('keeps the thresholds the next detection uses; the administrator’s, checked; read by developers', async () => {
    const S = '/ks/file/detection/settings';
    const got = await c.get(S, dev);
    expect(got.status).toBe(200);
    expect(got.body!.data.settings).toEqual(got.body!.data.defaults);
    const raised = { ...got.body!.data.defaults, safetyRateMin: 0.04 };
    expect((await c.post(S, dev, raised)).status).toBe(403);
    expect((await c.post(S, bidder, raised)).status).toBe(403);
    const bad = await c.post(S, admin, { ...raised, feeRateMin: 0.5 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('规费最低费率不能大于 20%');
    expect((await c.post(S, admin, raised)).status).toBe(200);
    expect((await c.get(S, admin)).body!.data.settings.safetyRateMin).toBe(0.04);
    // the clean file (3.5 %) now falls under the rate
    expect((await c.post(P.start, admin, { sectionId })).status).toBe(200);
    await t.app.costRunner.settle();
    const r = (await c.post(P.achievement, admin, { sectionId })).body.data.results;
    expect(r.settings.safetyRateMin).toBe(0.04);
    const clean = r.bidders.find((b: { enterpriseId: string }) => b.enterpriseId === ents[0]!.enterpriseId);
    expect(clean.findings.map((f: { check: string }) => f.check)).toEqual(['safetyRate']);
  });
});
