import {
  COMMITTEE_MESSAGES,
  dateTimeIn,
  EXTRACTION_MESSAGES,
  EXTRACTION_NODE,
  normaliseEmployer,
  type PoolSnapshot,
  seedCommitment,
  snapshotHash,
  verifyDraw,
} from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expertExtractions, ledgerEntries, operationLogs } from '../../db/schema';
import { DEMO_EXPERT_COUNT } from '../../seed/experts';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { zjk } from './pool';

/**
 * Expert extraction (issue 16) through the API: conditions checked against the committee rules, the seed committed
 * (hash logged) before the draw, avoided experts never drawn, declines replaced from the same seed chain, names and
 * the seed kept from everyone but the extraction administrator until evaluation starts, and a verification that
 * re-runs the draw from the revealed seed.
 */

let t: TestApp;
const api = client(() => t);
const db = () => t.database.db;
const P = {
  options: '/ks/expert-extraction/v1/options',
  list: '/ks/expert-extraction/v1/list',
  detail: '/ks/expert-extraction/v1/detail',
  create: '/ks/expert-extraction/v1/create',
  del: '/ks/expert-extraction/v1/delete',
  commit: '/ks/expert-extraction/v1/commit',
  draw: '/ks/expert-extraction/v1/draw',
  answer: '/ks/expert-extraction/v1/answer',
  finalize: '/ks/expert-extraction/v1/finalize',
  publish: '/ks/expert-extraction/v1/publish',
  verify: '/ks/expert-extraction/v1/verify',
};
let admin: string;
let dev: string;
let user: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await loginToken(t.app, 'admin', 'M');
  dev = await loginToken(t.app, 'dev', 'D');
  user = await loginToken(t.app, 'user1', 'U');
});
afterAll(async () => t?.close());

const inHours = (h: number) => dateTimeIn(new Date(t.clock.now.getTime() + h * 3_600_000));
const AVOIDED = '示例建设工程有限公司';
const body = (over: Record<string, unknown> = {}, cond: Record<string, unknown> = {}) => ({
  projectName: '太原市滨河东路综合管廊工程',
  sectionName: '第一标段',
  projectRef: 'TY-2026-0815',
  openingAt: inHours(24),
  evaluationStartAt: inHours(26),
  location: '太原市公共资源交易中心 3 号评标室',
  ...over,
  conditions: {
    tendereeReps: 1,
    lines: [
      { specialty: '房屋建筑工程', count: 4 },
      { specialty: '工程造价', count: 2 },
    ],
    regions: [],
    avoidEmployers: [AVOIDED, '山西建筑工程集团有限公司'],
    avoidExpertIds: [],
    recentDays: 30,
    ...cond,
  },
});

async function created(over: Record<string, unknown> = {}, cond: Record<string, unknown> = {}) {
  const r = await api.post(P.create, admin, body(over, cond));
  expect(r.status, r.res.body).toBe(200);
  return r.body.data as { id: string; code: string };
}
const detail = async (id: string, token: string | null) => api.get(`${P.detail}?id=${id}`, token);

describe('the pool and the conditions', () => {
  it('the demo pool is the engine node ZJCQ_ZJK; names of the pool go to the administrator only', async () => {
    const a = await api.get(P.options, admin);
    expect(a.status).toBe(200);
    expect(a.body.data.poolSize).toBe(DEMO_EXPERT_COUNT);
    expect(a.body.data.experts.length).toBe(DEMO_EXPERT_COUNT);
    const house = a.body.data.specialties.find((s: { value: string }) => s.value === '房屋建筑工程');
    expect(house.available).toBeGreaterThan(20);
    expect(a.body.data.recentDays).toBe(30);
    const d = await api.get(P.options, dev);
    expect(d.body.data.experts).toEqual([]);
    expect((await api.get(P.options, user)).status).toBe(403);
  });

  it('refuses an unlawful committee with the rule named, and changes nothing', async () => {
    const before = await db().select().from(expertExtractions);
    const even = await api.post(P.create, admin, body({}, { tendereeReps: 0 }));
    expect(even.status).toBe(400);
    expect(even.body.message).toBe(COMMITTEE_MESSAGES.odd(6));
    const small = await api.post(
      P.create,
      admin,
      body({}, { tendereeReps: 0, lines: [{ specialty: '公路工程', count: 3 }] }),
    );
    expect(small.body.message).toBe(COMMITTEE_MESSAGES.min(3));
    const reps = await api.post(
      P.create,
      admin,
      body({}, { tendereeReps: 3, lines: [{ specialty: '工程造价', count: 4 }] }),
    );
    expect(reps.body.message).toBe(COMMITTEE_MESSAGES.twoThirds(4, 7, 5));
    const times = await api.post(P.create, admin, body({ evaluationStartAt: inHours(1) }));
    expect(times.body.message).toBe(EXTRACTION_MESSAGES.evaluationBeforeOpening);
    const region = await api.post(P.create, admin, body({}, { regions: ['北京市'] }));
    expect(region.status).toBe(400);
    expect(await db().select().from(expertExtractions)).toHaveLength(before.length);
  });

  it('only the extraction administrator changes anything; user1 without the node reads nothing', async () => {
    expect((await api.post(P.create, dev, body())).status).toBe(403);
    expect((await api.post(P.create, user, body())).status).toBe(403);
    expect((await api.post(P.list, user, {})).status).toBe(403);
    const x = await created();
    expect((await api.post(P.commit, dev, { id: x.id })).status).toBe(403);
    expect((await detail(x.id, user)).status).toBe(403);
    expect((await api.post(P.list, dev, {})).status).toBe(200);
    // a draft can be deleted (logged); a committed one cannot
    expect((await api.post(P.del, admin, { id: x.id })).status).toBe(200);
    expect((await detail(x.id, admin)).status).toBe(404);
    const logs = await db()
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.gnCoding, EXTRACTION_NODE), eq(operationLogs.recordId, x.id)));
    expect(logs.map((l) => l.logbook)).toEqual([
      expect.stringContaining('新建抽取'),
      expect.stringContaining('删除抽取草稿'),
    ]);
    // numbers of the day are never given twice, even after an earlier draft was deleted
    const a = await created();
    const b = await created();
    expect((await api.post(P.del, admin, { id: a.id })).status).toBe(200);
    const c = await created();
    expect(Number(c.code.slice(-4))).toBe(Number(b.code.slice(-4)) + 1);
    await api.post(P.del, admin, { id: b.id });
    await api.post(P.del, admin, { id: c.id });
  });

  it('a line without enough eligible experts is refused at commit, before any seed exists', async () => {
    const x = await created(
      {},
      { regions: ['朔州市'], lines: [{ specialty: '钢结构工程', count: 5 }], tendereeReps: 0 },
    );
    const r = await api.post(P.commit, admin, { id: x.id });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/钢结构工程/);
    const [row] = await db().select().from(expertExtractions).where(eq(expertExtractions.id, x.id));
    expect(row!.seed).toBeNull();
    expect((await api.post(P.draw, admin, { id: x.id })).body.message).toBe(EXTRACTION_MESSAGES.notCommitted);
  });
});

describe('commit → draw → answers → confirm → publish', () => {
  let id: string;
  let committedHash: string;

  it('commits the seed: its SHA-256 and the snapshot hash are stored and logged before the draw; the seed is not answered', async () => {
    id = (await created()).id;
    const r = await api.post(P.commit, admin, { id });
    expect(r.status, r.res.body).toBe(200);
    committedHash = r.body.data.seedHash;
    expect(committedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(r.body.data.seed).toBeNull();
    expect(r.body.data.members).toEqual([]);
    expect(r.body.data.poolSize).toBe(DEMO_EXPERT_COUNT);
    const logs = await db()
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.gnCoding, EXTRACTION_NODE), eq(operationLogs.recordId, id)));
    expect(logs.at(-1)!.logbook).toContain(committedHash);
    // the commitment is an entry of the tamper-evident log too, before any draw
    const entries = await db().select().from(ledgerEntries).where(eq(ledgerEntries.kind, 'experts.extraction'));
    const mine = entries.filter((e) => JSON.parse(e.payload).extractionId === id);
    expect(mine.at(-1)!.payload).toContain(committedHash);
    expect(r.res.body).not.toMatch(/"seed":"[0-9a-f]{64}"/);
    expect((await api.post(P.commit, admin, { id })).status).toBe(409);
  });

  it('draws: the counts of each line, nobody from an avoided employer; names hidden from the developer', async () => {
    const r = await api.post(P.draw, admin, { id });
    expect(r.status, r.res.body).toBe(200);
    const d = r.body.data;
    expect(d.status).toBe('drawn');
    expect(d.seedHash).toBe(committedHash);
    expect(d.seed).toBeNull();
    expect(d.members).toHaveLength(6);
    expect(d.members.filter((m: { line: number }) => m.line === 0)).toHaveLength(4);
    for (const m of d.members) {
      expect(m.name).toBeTruthy();
      expect([AVOIDED, '山西建筑工程集团有限公司'].map(normaliseEmployer)).not.toContain(normaliseEmployer(m.employer));
      const e = await zjk.get(db(), m.expertId);
      expect(e!.values.zt).toBe('在库');
      expect(e!.values.zy).toBe(m.specialty);
    }
    const asDev = await detail(id, dev);
    expect(asDev.status).toBe(200);
    expect(asDev.body.data.namesVisible).toBe(false);
    for (const m of asDev.body.data.members) {
      expect(m).toMatchObject({ name: null, phone: null, employer: null, expertId: null });
    }
    for (const m of d.members) expect(asDev.res.body).not.toContain(m.name);
    expect((await api.post(P.draw, admin, { id })).status).toBe(409);
  });

  it('a decline needs a reason and draws a replacement of the same line from the same seed chain', async () => {
    const d = (await detail(id, admin)).body.data;
    const first = d.members[0];
    const noNote = await api.post(P.answer, admin, { id, memberId: first.id, answer: 'declined', note: ' ' });
    expect(noNote.status).toBe(400);
    expect(noNote.body.message).toBe(EXTRACTION_MESSAGES.declineNote);
    const r = await api.post(P.answer, admin, {
      id,
      memberId: first.id,
      answer: 'declined',
      note: '出差在外，无法参加',
    });
    expect(r.status, r.res.body).toBe(200);
    expect(r.body.data.exhausted).toBe(false);
    const after = r.body.data.detail;
    expect(after.members).toHaveLength(7);
    const rep = after.members.find((m: { id: string }) => m.id === r.body.data.replacementId);
    expect(rep).toMatchObject({ line: 0, seq: 4, replacement: true, answer: 'pending', specialty: '房屋建筑工程' });
    expect(d.members.map((m: { expertId: string }) => m.expertId)).not.toContain(rep.expertId);
    expect(normaliseEmployer(rep.employer)).not.toBe(normaliseEmployer(AVOIDED));
    // answered once only
    const again = await api.post(P.answer, admin, { id, memberId: first.id, answer: 'confirmed', note: '' });
    expect(again.status).toBe(409);
    // not complete yet
    expect((await api.post(P.finalize, admin, { id })).body.message).toBe(EXTRACTION_MESSAGES.notComplete);
  });

  it('confirms the rest, finalises; the administrator sees the seed, which hashes to the commitment', async () => {
    const d = (await detail(id, admin)).body.data;
    for (const m of d.members.filter((x: { answer: string }) => x.answer === 'pending')) {
      const r = await api.post(P.answer, admin, { id, memberId: m.id, answer: 'confirmed', note: '电话确认' });
      expect(r.status).toBe(200);
    }
    const f = await api.post(P.finalize, admin, { id });
    expect(f.status, f.res.body).toBe(200);
    expect(f.body.data.status).toBe('confirmed');
    expect(seedCommitment(f.body.data.seed)).toBe(committedHash);
    // before evaluation starts: no publication, and nobody else sees names or the seed
    expect((await api.post(P.publish, admin, { id })).status).toBe(409);
    const asDev = await detail(id, dev);
    expect(asDev.body.data.seed).toBeNull();
    expect(asDev.body.data.members[0].name).toBeNull();
    const anon = await api.get(`${P.verify}?id=${id}`, null);
    expect(anon.status).toBe(200);
    expect(anon.body.data).toMatchObject({ seed: null, snapshot: null, members: [], seedHash: committedHash });
    expect(anon.body.data.hiddenReason).toContain('评标开始');
  });

  it('the administrator verifies at once: the server re-runs the draw and so can anyone with the data', async () => {
    const v = await api.get(`${P.verify}?id=${id}`, admin);
    expect(v.body.data.outcome).toEqual({ seedMatches: true, poolMatches: true, listMatches: true, problems: [] });
    const data = v.body.data;
    expect(snapshotHash(data.snapshot as PoolSnapshot)).toBe(data.poolHash);
    const again = verifyDraw({
      seedHex: data.seed,
      seedHash: data.seedHash,
      snapshot: data.snapshot,
      poolHash: data.poolHash,
      conditions: data.conditions,
      members: data.members,
    });
    expect(again.problems).toEqual([]);
    expect(again.recomputed).toHaveLength(7);
  });

  it('once evaluation starts, everyone sees the names and the seed; publication is logged with the seed', async () => {
    t.clock.advance(27 * 3_600_000);
    // sessions do not last a day: sign in again
    admin = await loginToken(t.app, 'admin', 'M');
    dev = await loginToken(t.app, 'dev', 'D');
    const asDev = await detail(id, dev);
    expect(asDev.body.data.namesVisible).toBe(true);
    expect(asDev.body.data.members[0].name).toBeTruthy();
    const anon = await api.get(`${P.verify}?id=${id}`, null);
    expect(anon.body.data.outcome.listMatches).toBe(true);
    expect(anon.body.data.members[0].name).toBeTruthy();
    const p = await api.post(P.publish, admin, { id });
    expect(p.status, p.res.body).toBe(200);
    expect(p.body.data.status).toBe('published');
    expect(p.body.data.log.at(-1).logbook).toContain(p.body.data.seed);
    // every step left its log line, in order
    expect(p.body.data.log.map((l: { logbook: string }) => l.logbook.slice(0, 4))).toEqual([
      '新建抽取',
      '提交种子',
      '抽取专家',
      '登记答复',
      ...Array(6).fill('登记答复'),
      '确认专家',
      '公开专家',
    ]);
  });

  it('experts drawn within the last 30 days are avoided by the next extraction', async () => {
    const prev = (await detail(id, admin)).body.data.members.map((m: { expertId: string }) => m.expertId);
    const x = await created(
      { openingAt: inHours(48), evaluationStartAt: inHours(50) },
      {
        lines: [
          { specialty: '房屋建筑工程', count: 4 },
          { specialty: '工程造价', count: 2 },
        ],
        avoidEmployers: [],
      },
    );
    await api.post(P.commit, admin, { id: x.id });
    const d = (await api.post(P.draw, admin, { id: x.id })).body.data;
    for (const m of d.members) expect(prev).not.toContain(m.expertId);
    // the snapshot says when each of them was drawn
    const [row] = await db().select().from(expertExtractions).where(eq(expertExtractions.id, x.id));
    const snap = row!.poolSnapshot as PoolSnapshot;
    for (const e of prev) expect(snap.experts.find((p) => p.id === e)!.lastDrawnAt).not.toBeNull();
  });

  it('lists with keyword and status', async () => {
    const r = await api.post(P.list, admin, { keyword: '综合管廊', status: 'published' });
    expect(r.body.data.total).toBe(1);
    expect(r.body.data.records[0]).toMatchObject({ id, statusLabel: '已公开', committeeSize: 7, expertCount: 6 });
  });
});
