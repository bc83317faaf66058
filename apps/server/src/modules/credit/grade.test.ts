import {
  CREDIT_DEFAULT_LEVELS,
  type CreditConduct,
  computeGrade,
  creditLevelOf,
  type GradeRecord,
} from '@ks/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditConductRecords, creditGrades, creditStandards, enterprises, operationLogs } from '../../db/schema';
import { rng } from '../../seed/portal';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { regrade, storedGrade, sweepExpired, todayOf } from './grade.service';
import { creditClient, dayFrom, newEnterprise, P, passedRecord, standardId } from './testkit';

/**
 * The grade (DOMAIN.md "Credit"): the SQL of `regrade` against the rule written once in contracts, expiry made visible
 * on read and by the sweep (the test clock moves), the regrade inside the transaction of the change, and thresholds
 * re-levelling every subject at once.
 */

let t: TestApp;
const api = creditClient(() => t);
const db = () => t.database.db;
let admin: string;
let user1: string;

/** Sign in again (sessions expire when the test clock moves on by days). */
async function signIn() {
  [admin, user1] = await Promise.all([loginToken(t.app, 'admin', 'M'), loginToken(t.app, 'user1', 'U')]);
}

/** Move the test clock on by whole days. */
async function daysPass(n: number) {
  t.clock.advance(n * 86_400_000);
  await signIn();
}

beforeAll(async () => {
  t = await createTestApp({ env: { SINGLE_SESSION: '0' } });
  await signIn();
});
afterAll(async () => t?.close());

describe('the regrade agrees with the grade rule', () => {
  it('for random records (caps, good and bad, statuses, windows) on several days', async () => {
    const r = rng(7);
    const standards = await db().select().from(creditStandards);
    const ent = await newEnterprise(db(), '随机记录测试有限公司');
    const records: GradeRecord[] = [];
    const now = t.clock.now;
    for (let i = 0; i < 80; i++) {
      const s = r.pick(standards.filter((x) => x.appliesTo !== 'person'));
      const status = r.pick(['passed', 'passed', 'passed', 'submitted', 'rejected', 'revoked', 'draft']);
      const start = dayFrom(now, r.int(-400, 60));
      const end = dayFrom(new Date(`${start}T12:00:00+08:00`), r.int(0, 500));
      // scores up to twice the highest: the cap must apply
      const score = r.int(0, Number(s.highest) * 4) / 2;
      await passedRecord(db(), ent, { standardId: s.id, score, startTime: start, endTime: end, status });
      records.push({
        conduct: s.conduct as CreditConduct,
        score,
        highest: Number(s.highest),
        startTime: start,
        endTime: end,
        status: status as GradeRecord['status'],
      });
    }
    for (const offset of [0, 30, 200, 500]) {
      const at = new Date(now.getTime() + offset * 86_400_000);
      const g = await db().transaction((tx) => regrade(tx, { kind: 'enterprise', id: ent }, at));
      const want = computeGrade(80, records, todayOf(at), CREDIT_DEFAULT_LEVELS);
      expect({
        good: g.goodPoints,
        bad: g.badPoints,
        counted: g.countedRecords,
        score: g.score,
        level: g.level,
        validUntil: g.validUntil,
      }).toEqual(want);
      // the portal's grade columns follow
      const [e] = await db().select().from(enterprises).where(eq(enterprises.id, ent));
      expect([Number(e!.creditScore), e!.creditGrade]).toEqual([want.score, want.level]);
    }
    // as of today again, for the next test
    await db().transaction((tx) => regrade(tx, { kind: 'enterprise', id: ent }, now));
  });

  it('the demo data: every subject’s stored grade is its records’ grade today', async () => {
    const today = todayOf(t.clock.now);
    const grades = await db().select().from(creditGrades);
    expect(grades.length).toBeGreaterThanOrEqual(37 + 24);
    const levels = new Set(grades.filter((g) => g.subjectKind === 'enterprise').map((g) => g.level));
    expect([...levels].sort()).toEqual(['A', 'AA', 'AAA', 'B', 'C']);
    const all = await db()
      .select({ r: creditConductRecords, conduct: creditStandards.conduct, highest: creditStandards.highest })
      .from(creditConductRecords)
      .innerJoin(creditStandards, eq(creditStandards.id, creditConductRecords.standardId));
    for (const g of grades) {
      const mine = all
        .filter((x) => x.r.subjectKind === g.subjectKind && x.r.subjectId === g.subjectId)
        .map((x) => ({
          conduct: x.conduct as CreditConduct,
          score: Number(x.r.score),
          highest: Number(x.highest),
          startTime: x.r.startTime,
          endTime: x.r.endTime,
          status: x.r.status as GradeRecord['status'],
        }));
      const want = computeGrade(80, mine, today, CREDIT_DEFAULT_LEVELS);
      expect([Number(g.score), g.level], `${g.subjectKind} ${g.subjectId}`).toEqual([want.score, want.level]);
    }
    const [demo] = await db().select().from(enterprises).where(eq(enterprises.name, '示例建设工程有限公司'));
    expect([Number(demo!.creditScore), demo!.creditGrade]).toEqual([88.5, 'AA']);
  });
});

describe('expiry', () => {
  it('an expired record no longer counts: the grade read the day after has dropped it (on read, logged)', async () => {
    const ent = await newEnterprise(db(), '到期测试建设有限公司');
    const today = todayOf(t.clock.now);
    await passedRecord(db(), ent, {
      standardId: await standardId(db(), 'LH-GC-02'),
      score: 5,
      startTime: dayFrom(t.clock.now, -100),
      endTime: today,
    });
    await db().transaction((tx) => regrade(tx, { kind: 'enterprise', id: ent }, t.clock.now));
    const before = await api.post(P.info, admin, { subjectKind: 'enterprise', subjectId: ent });
    expect(before.body.data.grade).toMatchObject({ score: 85, level: 'AA', validUntil: today });

    await daysPass(1);
    const after = await api.post(P.info, admin, { subjectKind: 'enterprise', subjectId: ent });
    expect(after.body.data.grade).toMatchObject({ score: 80, level: 'AA', goodPoints: 0, validUntil: null });
    const [e] = await db().select().from(enterprises).where(eq(enterprises.id, ent));
    expect(Number(e!.creditScore)).toBe(80);
    const logs = await db()
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.glName, '信用等级'), eq(operationLogs.recordId, ent)));
    expect(logs.map((l) => l.logbook)).toEqual([expect.stringContaining('重新评定：85 → 80（AA → AA）')]);
  });

  it('the sweep regrades every grade that ran out, read or not', async () => {
    const ent = await newEnterprise(db(), '到期清扫测试有限公司');
    await passedRecord(db(), ent, {
      standardId: await standardId(db(), 'BL-HT-01'),
      score: 20,
      startTime: dayFrom(t.clock.now, -30),
      endTime: todayOf(t.clock.now),
    });
    await db().transaction((tx) => regrade(tx, { kind: 'enterprise', id: ent }, t.clock.now));
    expect((await storedGrade(db(), { kind: 'enterprise', id: ent }))!.level).toBe('B');
    await daysPass(1);
    expect(await sweepExpired(db(), t.clock.now)).toBeGreaterThanOrEqual(1);
    expect(await storedGrade(db(), { kind: 'enterprise', id: ent })).toMatchObject({ score: 80, level: 'AA' });
    expect(await sweepExpired(db(), t.clock.now)).toBe(0);
  });

  it('a passed record that starts later counts from its first day', async () => {
    const ent = await newEnterprise(db(), '未来生效测试有限公司');
    const start = dayFrom(t.clock.now, 3);
    await passedRecord(db(), ent, {
      standardId: await standardId(db(), 'LH-QY-01'),
      score: 4,
      startTime: start,
      endTime: dayFrom(t.clock.now, 200),
    });
    const g = await db().transaction((tx) => regrade(tx, { kind: 'enterprise', id: ent }, t.clock.now));
    expect(g).toMatchObject({ score: 80, validUntil: dayFrom(t.clock.now, 2) });
    await daysPass(3);
    const info = await api.post(P.info, admin, { subjectKind: 'enterprise', subjectId: ent });
    expect(info.body.data.grade.score).toBe(84);
  });
});

describe('the regrade belongs to the change’s transaction', () => {
  it('a failing write after it rolls back both the record and the grade', async () => {
    const ent = await newEnterprise(db(), '事务回滚测试有限公司');
    const id = await passedRecord(db(), ent, {
      standardId: await standardId(db(), 'LH-GC-02'),
      score: 6,
      startTime: dayFrom(t.clock.now, -1),
      endTime: dayFrom(t.clock.now, 100),
      status: 'submitted',
    });
    await db().transaction((tx) => regrade(tx, { kind: 'enterprise', id: ent }, t.clock.now));
    await expect(
      db().transaction(async (tx) => {
        await tx
          .update(creditConductRecords)
          .set({ status: 'passed', auditedAt: new Date(), auditedByName: 'x' })
          .where(eq(creditConductRecords.id, id));
        const g = await regrade(tx, { kind: 'enterprise', id: ent }, t.clock.now);
        expect(g.score).toBe(86);
        // the write after the regrade fails: a check constraint (a negative score)
        await tx.execute(sql`update credit_conduct_records set score = -1 where id = ${id}`);
      }),
    ).rejects.toThrow();
    const [r] = await db().select().from(creditConductRecords).where(eq(creditConductRecords.id, id));
    expect(r!.status).toBe('submitted');
    expect(await storedGrade(db(), { kind: 'enterprise', id: ent })).toMatchObject({ score: 80 });
    const [e] = await db().select().from(enterprises).where(eq(enterprises.id, ent));
    expect(Number(e!.creditScore)).toBe(80);
  });

  it('two changes of one subject at once both count (the regrades queue on the subject)', async () => {
    const ent = await newEnterprise(db(), '并发评定测试有限公司');
    const s = await standardId(db(), 'LH-QY-01');
    const ids = await Promise.all(
      [1, 2].map(() =>
        passedRecord(db(), ent, {
          standardId: s,
          score: 2,
          startTime: dayFrom(t.clock.now, -1),
          endTime: dayFrom(t.clock.now, 100),
          status: 'submitted',
        }),
      ),
    );
    await Promise.all(
      ids.map((id) =>
        db().transaction(async (tx) => {
          await tx
            .update(creditConductRecords)
            .set({ status: 'passed', auditedAt: new Date(), auditedByName: 'x' })
            .where(eq(creditConductRecords.id, id));
          await regrade(tx, { kind: 'enterprise', id: ent }, t.clock.now);
        }),
      ),
    );
    expect(await storedGrade(db(), { kind: 'enterprise', id: ent })).toMatchObject({ score: 84, countedRecords: 2 });
  });
});

describe('level thresholds', () => {
  it('administrators change them; every subject is re-levelled at once, the portal’s grades too', async () => {
    const custom = [
      { title: '优秀', minScore: 95 },
      { title: '良好', minScore: 85 },
      { title: '合格', minScore: 60 },
      { title: '不合格', minScore: 0 },
    ];
    expect((await api.put(P.levels, user1, { baseScore: 80, levels: custom })).status).toBe(403);
    const saved = await api.put(P.levels, admin, { baseScore: 82, levels: custom });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({
      baseScore: 82,
      levels: [
        { title: '优秀', minScore: 95, maxScore: null },
        { title: '良好', minScore: 85, maxScore: 95 },
        { title: '合格', minScore: 60, maxScore: 85 },
        { title: '不合格', minScore: 0, maxScore: 60 },
      ],
    });
    // the public list's level filter (no sign-in) offers the new titles at once
    const open = await api.get(P.publicLevels, null);
    expect(open.body!.data.levels).toEqual(saved.body.data.levels);
    const grades = await db().select().from(creditGrades);
    for (const g of grades) {
      const want = Math.max(0, 82 + Number(g.goodPoints) - Number(g.badPoints));
      expect(Number(g.score)).toBe(want);
      expect(g.level).toBe(creditLevelOf(want, custom));
    }
    const mismatched = await db().execute(
      sql`select count(*)::int as n from enterprises e join credit_grades g on g.subject_kind = 'enterprise' and g.subject_id = e.id
        where e.credit_grade <> g.level or e.credit_score <> g.score`,
    );
    expect((mismatched as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    const log = await db().select().from(operationLogs).where(eq(operationLogs.glName, '信用等级'));
    expect(log.some((l) => l.logbook.includes('优秀≥95') && l.logbook.includes('基础分 82'))).toBe(true);

    // back to the defaults (the other tests of this file expect them)
    const back = await api.put(P.levels, admin, { baseScore: 80, levels: CREDIT_DEFAULT_LEVELS });
    expect(back.status).toBe(200);
    const [demo] = await db().select().from(enterprises).where(eq(enterprises.name, '示例建设工程有限公司'));
    expect([Number(demo!.creditScore), demo!.creditGrade]).toEqual([88.5, 'AA']);
  });

  it('refuses thresholds that overlap, are out of order or leave scores without a level', async () => {
    const bad = async (levels: { title: string; minScore: number }[], msg: string) => {
      const r = await api.put(P.levels, admin, { baseScore: 80, levels });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(msg);
    };
    await bad(
      [
        { title: 'A', minScore: 80 },
        { title: 'B', minScore: 90 },
        { title: 'C', minScore: 0 },
      ],
      '等级须按分数线从高到低排列，且分数线不能重叠：B',
    );
    await bad(
      [
        { title: 'A', minScore: 80 },
        { title: 'B', minScore: 80 },
        { title: 'C', minScore: 0 },
      ],
      '等级须按分数线从高到低排列，且分数线不能重叠：B',
    );
    await bad(
      [
        { title: 'A', minScore: 80 },
        { title: 'B', minScore: 20 },
      ],
      '最低等级的分数线须为 0，使每个分数都有对应等级',
    );
    const r = await api.put(P.levels, admin, { baseScore: -1, levels: CREDIT_DEFAULT_LEVELS });
    expect(r.body.message).toBe('基础分须在 0 到 1000 之间，最多两位小数');
    const read = await api.post(P.levels, user1, {});
    expect(read.body.data.levels.map((l: { title: string }) => l.title)).toEqual(['AAA', 'AA', 'A', 'B', 'C']);
  });
});
