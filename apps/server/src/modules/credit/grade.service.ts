import {
  appToday,
  CREDIT_DEFAULT_BASE_SCORE,
  CREDIT_NODE,
  type CreditGradeView,
  type CreditLevel,
  type CreditSubjectKind,
  creditMessage,
} from '@ks/contracts';
import { asc, desc, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { creditLevels } from '../../db/schema';
import { type Actor, SYSTEM_ACTOR, writeOpLog } from '../../platform/oplog';
import { putSetting } from '../../platform/settings';
import { rowsOf } from './credit.repo';

/**
 * The grade of a subject (DOMAIN.md "Credit"): the base score plus its valid passed good-conduct records minus its valid
 * passed bad-conduct records, each capped by its standard's highest score, never below 0; its level is the highest
 * level whose floor the score reaches. A record counts on the days [start_time, end_time] of the platform's calendar.
 *
 * `regrade` runs inside the transaction of the change that affects the grade (a record passed or revoked, a change
 * round written back), so the grade never disagrees with the records that committed with it. It is one statement:
 * the aggregate of the subject's passed records, the base score (a setting) and the level (the thresholds table),
 * written to `credit_grades` and to the enterprise's or practitioner's own grade columns (what the portal shows).
 *
 * Concurrency: regrades of one subject are serialised by a transaction-scoped advisory lock on the subject, taken
 * before its records are read (READ COMMITTED: the aggregate then sees every change committed before the lock was
 * granted). Changing the thresholds or the base score takes the configuration lock exclusively; regrades take it
 * shared, so no regrade computes a level from thresholds that are being replaced.
 *
 * Expiry: a grade holds through `valid_until` (the last day before a counted record ends or a passed one starts). A
 * grade read after that day is regraded on read (`freshen`), and a sweep regrades every grade that ran out
 * (`sweepExpired`, run every ten minutes by the routes), each with an operation-log row.
 */

export const GRADE_GL = '信用等级';
export const BASE_SCORE_KEY = 'credit.baseScore';
/** Advisory lock keys (two-int form): the level configuration, and one subject. */
const LOCK_CONFIG = sql`7313, 0`;
const LOCK_SUBJECT = 7314;
/** The portal's grade columns hold numeric(6,2). */
const PORTAL_SCORE_MAX = '9999.99';

export interface SubjectKey {
  kind: CreditSubjectKind;
  id: string;
}

export interface GradeRow {
  subjectKind: CreditSubjectKind;
  subjectId: string;
  enterpriseId: string;
  baseScore: number;
  goodPoints: number;
  badPoints: number;
  score: number;
  level: string;
  countedRecords: number;
  computedAt: Date;
  validUntil: string | null;
}

/** The platform's calendar day of an instant (records count by day). */
export const todayOf = (now: Date) => appToday(now);

export function gradeRowOf(r: Record<string, unknown>): GradeRow {
  return {
    subjectKind: String(r.subject_kind) as CreditSubjectKind,
    subjectId: String(r.subject_id),
    enterpriseId: String(r.enterprise_id),
    baseScore: Number(r.base_score),
    goodPoints: Number(r.good_points),
    badPoints: Number(r.bad_points),
    score: Number(r.score),
    level: String(r.level),
    countedRecords: Number(r.counted_records),
    computedAt: instant(r.computed_at),
    validUntil: r.valid_until === null || r.valid_until === undefined ? null : dayText(r.valid_until),
  };
}

/** A timestamptz as a Date whichever driver read it (node-postgres through drizzle answers PostgreSQL's text). */
export function instant(v: unknown): Date {
  if (v instanceof Date) return v;
  const s = String(v)
    .replace(' ', 'T')
    .replace(/([+-]\d\d)$/, '$1:00');
  return new Date(s);
}

/** A `date` column as YYYY-MM-DD whichever driver read it. */
export function dayText(v: unknown): string {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v).slice(0, 10);
}

export function gradeView(g: GradeRow): CreditGradeView {
  return {
    baseScore: g.baseScore,
    goodPoints: g.goodPoints,
    badPoints: g.badPoints,
    score: g.score,
    level: g.level,
    countedRecords: g.countedRecords,
    computedAt: g.computedAt.toISOString(),
    validUntil: g.validUntil,
  };
}

export async function baseScoreOf(db: DbOrTx): Promise<number> {
  const [r] = rowsOf(await db.execute(sql`select value from app_settings where key = ${BASE_SCORE_KEY}`));
  const v = r ? Number(r.value) : Number.NaN;
  return Number.isFinite(v) ? v : CREDIT_DEFAULT_BASE_SCORE;
}

/** The thresholds, highest floor first. */
export async function levelsOf(db: DbOrTx): Promise<CreditLevel[]> {
  const rows = await db.select().from(creditLevels).orderBy(desc(creditLevels.minScore), asc(creditLevels.title));
  return rows.map((r) => ({ title: r.title, minScore: Number(r.minScore) }));
}

/** The grade columns as read back (dates as text: the drivers differ in how they parse them). */
const GRADE_COLUMNS = sql.raw(
  'subject_kind, subject_id, enterprise_id, base_score, good_points, bad_points, score, level, counted_records, computed_at, valid_until::text as valid_until',
);

/** The level of a score as SQL: the highest level whose floor it reaches (the lowest level otherwise). */
const levelSql = (score: ReturnType<typeof sql>) =>
  sql`coalesce((select l.title from credit_levels l where l.min_score <= ${score} order by l.min_score desc limit 1),
    (select l.title from credit_levels l order by l.min_score limit 1))`;

/**
 * Recompute one subject's grade inside `tx` (the transaction of the change that affects it) as of `now`, and write it
 * to the grade table and to the subject's own grade columns. Answers the grade written.
 */
export async function regrade(tx: DbOrTx, subject: SubjectKey, now: Date): Promise<GradeRow> {
  await tx.execute(
    sql`select pg_advisory_xact_lock_shared(${LOCK_CONFIG}), pg_advisory_xact_lock(${LOCK_SUBJECT}, hashtext(${`${subject.kind}:${subject.id}`}))`,
  );
  const today = todayOf(now);
  const counted = sql`r.start_time <= ${today}::date and r.end_time >= ${today}::date`;
  const base = sql`coalesce((select s.value::numeric from app_settings s where s.key = ${BASE_SCORE_KEY}), ${CREDIT_DEFAULT_BASE_SCORE})`;
  const owner =
    subject.kind === 'enterprise'
      ? sql`select e.id as enterprise_id, null::uuid as person_id from enterprises e where e.id = ${subject.id}`
      : sql`select p.enterprise_id, p.id as person_id from practitioners p where p.id = ${subject.id}`;
  const mirror =
    subject.kind === 'enterprise'
      ? sql`update enterprises set credit_score = least(g.score, ${PORTAL_SCORE_MAX}), credit_grade = g.level
          from g where enterprises.id = g.subject_id`
      : sql`update practitioners set credit_score = least(g.score, ${PORTAL_SCORE_MAX}), credit_grade = g.level
          from g where practitioners.id = g.subject_id`;
  const res = await tx.execute(sql`
    with a as (
      select coalesce(sum(least(r.score, s.highest)) filter (where s.conduct = 'good' and ${counted}), 0) as good,
             coalesce(sum(least(r.score, s.highest)) filter (where s.conduct = 'bad' and ${counted}), 0) as bad,
             count(*) filter (where ${counted})::int as n,
             least(min(r.end_time) filter (where ${counted}),
                   min(r.start_time) filter (where r.start_time > ${today}::date) - 1) as valid_until
      from credit_conduct_records r join credit_standards s on s.id = r.standard_id
      where r.subject_kind = ${subject.kind} and r.subject_id = ${subject.id} and r.status = 'passed'
    ), b as (select ${base} as base), o as (${owner}),
    g as (
      insert into credit_grades as cg (subject_kind, subject_id, enterprise_id, person_id, base_score, good_points,
        bad_points, score, level, counted_records, computed_at, valid_until)
      select ${subject.kind}, ${subject.id}, o.enterprise_id, o.person_id, b.base, a.good, a.bad,
             greatest(0, b.base + a.good - a.bad), ${levelSql(sql`greatest(0, b.base + a.good - a.bad)`)},
             a.n, ${now.toISOString()}::timestamptz, a.valid_until
      from a, b, o
      on conflict (subject_kind, subject_id) do update set
        enterprise_id = excluded.enterprise_id, base_score = excluded.base_score, good_points = excluded.good_points,
        bad_points = excluded.bad_points, score = excluded.score, level = excluded.level,
        counted_records = excluded.counted_records, computed_at = excluded.computed_at,
        valid_until = excluded.valid_until
      returning ${GRADE_COLUMNS}
    ), m as (${mirror})
    select * from g`);
  const [row] = rowsOf(res);
  if (!row) throw new Error(`credit subject not found: ${subject.kind} ${subject.id}`);
  return gradeRowOf(row);
}

/** The grade of a subject as stored (no recomputation), or null when it was never evaluated. */
export async function storedGrade(db: DbOrTx, subject: SubjectKey): Promise<GradeRow | null> {
  const [r] = rowsOf(
    await db.execute(
      sql`select ${GRADE_COLUMNS} from credit_grades where subject_kind = ${subject.kind} and subject_id = ${subject.id}`,
    ),
  );
  return r ? gradeRowOf(r) : null;
}

const levelChange = (before: GradeRow | null, after: GradeRow) =>
  before ? `${before.score} → ${after.score}（${before.level} → ${after.level}）` : `${after.score}（${after.level}）`;

/** Regrade a subject whose grade ran out, in a transaction of its own, with a log row saying why. */
async function regradeExpired(db: Db, subject: SubjectKey, now: Date): Promise<GradeRow> {
  return db.transaction(async (tx) => {
    const before = await storedGrade(tx, subject);
    // another process may have regraded it meanwhile
    if (before && (before.validUntil === null || before.validUntil >= todayOf(now))) return before;
    const after = await regrade(tx, subject, now);
    await writeOpLog(tx, SYSTEM_ACTOR, {
      glName: GRADE_GL,
      gnCoding: CREDIT_NODE,
      recordId: subject.id,
      logbook: `信用记录有效期变化（${before?.validUntil ?? '—'} 之后），重新评定：${levelChange(before, after)}`,
    });
    return after;
  });
}

/**
 * Grades that ran out before `now` among these subjects are regraded first (on read). Answers how many were.
 */
export async function freshen(db: Db, subjects: SubjectKey[], now: Date): Promise<number> {
  if (!subjects.length) return 0;
  const today = todayOf(now);
  const ids = subjects.map((s) => s.id);
  const stale = rowsOf(
    await db.execute(
      sql`select subject_kind, subject_id from credit_grades
        where subject_id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) and valid_until < ${today}::date`,
    ),
  ).filter((r) => subjects.some((s) => s.kind === r.subject_kind && s.id === r.subject_id));
  for (const r of stale) {
    await regradeExpired(db, { kind: r.subject_kind as CreditSubjectKind, id: String(r.subject_id) }, now);
  }
  return stale.length;
}

/** Regrade every grade that ran out before `now` (at most `limit` per call). Answers how many were. */
export async function sweepExpired(db: Db, now: Date, limit = 500): Promise<number> {
  const stale = rowsOf(
    await db.execute(
      sql`select subject_kind, subject_id from credit_grades where valid_until < ${todayOf(now)}::date
        order by valid_until limit ${limit}`,
    ),
  );
  for (const r of stale) {
    await regradeExpired(db, { kind: r.subject_kind as CreditSubjectKind, id: String(r.subject_id) }, now);
  }
  return stale.length;
}

/**
 * Replace the thresholds and the base score (validated by the contract: ordered, non-overlapping, lowest 0) and
 * re-level every graded subject in the same transaction with set-based statements: the score moves with the base,
 * the level with the thresholds; the portal's grade columns follow. Answers how many grades changed.
 */
export async function setLevels(
  tx: DbOrTx,
  actor: Actor,
  input: { baseScore: number; levels: CreditLevel[] },
  now: Date,
): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CONFIG})`);
  const beforeLevels = await levelsOf(tx);
  const beforeBase = await baseScoreOf(tx);
  await tx.delete(creditLevels);
  await tx.insert(creditLevels).values(input.levels.map((l) => ({ title: l.title, minScore: String(l.minScore) })));
  await putSetting(tx, BASE_SCORE_KEY, String(input.baseScore));
  const base = sql`${input.baseScore}::numeric`;
  const newScore = sql`greatest(0, ${base} + g.good_points - g.bad_points)`;
  const changed = rowsOf(
    await tx.execute(sql`
      with u as (
        update credit_grades g set base_score = ${base}, score = ${newScore}, level = ${levelSql(newScore)},
          computed_at = ${now.toISOString()}::timestamptz
        where g.base_score <> ${base} or g.level is distinct from ${levelSql(newScore)}
        returning g.subject_kind, g.subject_id, g.score, g.level
      ), e as (
        update enterprises set credit_score = least(u.score, ${PORTAL_SCORE_MAX}), credit_grade = u.level
        from u where u.subject_kind = 'enterprise' and enterprises.id = u.subject_id
      ), p as (
        update practitioners set credit_score = least(u.score, ${PORTAL_SCORE_MAX}), credit_grade = u.level
        from u where u.subject_kind = 'person' and practitioners.id = u.subject_id
      )
      select count(*)::int as n from u`),
  );
  const n = Number(changed[0]?.n ?? 0);
  const text = (ls: CreditLevel[]) => ls.map((l) => `${l.title}≥${l.minScore}`).join('，');
  await writeOpLog(tx, actor, {
    glName: GRADE_GL,
    gnCoding: CREDIT_NODE,
    logbook: creditMessage('设置信用等级：{before}（基础分 {b0}）→ {after}（基础分 {b1}）；重新定级 {n} 个主体', {
      before: text(beforeLevels),
      after: text(input.levels),
      b0: beforeBase,
      b1: input.baseScore,
      n,
    }),
  });
  return n;
}
