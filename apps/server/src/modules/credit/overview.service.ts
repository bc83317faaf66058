import {
  appTimeZone,
  CREDIT_CONDUCT_LABELS,
  CREDIT_CONDUCTS,
  CREDIT_RECORD_SOURCE_LABELS,
  CREDIT_RECORD_STATUS_LABELS,
  CREDIT_RECORD_STATUSES,
  CREDIT_SUBJECT_LABELS,
  type CreditConduct,
  type CreditLevel,
  type CreditRecordStatus,
  type CreditSubjectKind,
  dateIn,
  scoreText,
} from '@ks/contracts';
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creditConductRecords, creditGrades, creditStandards, enterprises, practitioners } from '../../db/schema';
import { notFound } from '../../platform/errors';
import { type CreditCaller, readsAll, requireReader, resolveSubject } from './access';
import * as repo from './credit.repo';
import {
  baseScoreOf,
  freshen,
  type GradeRow,
  gradeRowOf,
  gradeView,
  levelsOf,
  type SubjectKey,
  storedGrade,
  todayOf,
} from './grade.service';

/**
 * What the credit pages read: the left tree of standard items (screen 20), the management header and overview charts,
 * the lists of subjects with their grades, one subject's information, the rules text, the filter options and the
 * pull-downs of enterprises and persons. A grade whose validity ran out is regraded before it is shown (`freshen`).
 */

/** Levels with their ranges: [minScore, the next level's floor). */
export function levelRows(levels: CreditLevel[]) {
  const sorted = [...levels].sort((a, b) => b.minScore - a.minScore);
  return sorted.map((l, i) => ({
    title: l.title,
    minScore: l.minScore,
    maxScore: i === 0 ? null : sorted[i - 1]!.minScore,
  }));
}

const GRADE_COLS = sql.raw(
  'g.subject_kind, g.subject_id, g.enterprise_id, g.base_score, g.good_points, g.bad_points, g.score, g.level, g.counted_records, g.computed_at, g.valid_until::text as valid_until',
);

/** Grades of subjects, by subject id. */
async function gradesOf(db: Db, kind: CreditSubjectKind, ids: string[]): Promise<Map<string, GradeRow>> {
  if (!ids.length) return new Map();
  const rows = repo.rowsOf(
    await db.execute(sql`select ${GRADE_COLS} from credit_grades g where g.subject_kind = ${kind}
      and g.subject_id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`),
  );
  return new Map(rows.map((r) => [String(r.subject_id), gradeRowOf(r)]));
}

/** The grade of one subject, regraded first when its validity ran out. */
export async function currentGrade(db: Db, subject: SubjectKey, now: Date): Promise<GradeRow | null> {
  await freshen(db, [subject], now);
  return storedGrade(db, subject);
}

// ---- left tree (screen 20) -----------------------------------------------------------------------------------------

export async function leftTree(
  db: Db,
  c: CreditCaller,
  ref: { subjectKind?: CreditSubjectKind; subjectId?: string },
  now: Date,
) {
  const standards = await repo.standardsOf(db);
  const today = todayOf(now);
  // reviewers and developers without a subject: what waits for review under each item
  const overall = !ref.subjectId && (!c.enterpriseId || ref.subjectKind === 'person') && (await readsAll(db, c));
  let header: { nodeName: string; score: number | null; level: string | null };
  let stats: Map<string, { n: number; pts: number }>;
  let kind: CreditSubjectKind | null = null;
  if (overall) {
    const rows = await db
      .select({ id: creditConductRecords.standardId, n: sql<number>`count(*)::int` })
      .from(creditConductRecords)
      .where(eq(creditConductRecords.status, 'submitted'))
      .groupBy(creditConductRecords.standardId);
    stats = new Map(rows.map((r) => [r.id, { n: Number(r.n), pts: 0 }]));
    header = { nodeName: '信用评价标准', score: null, level: null };
  } else {
    const subject = await resolveSubject(db, c, ref);
    kind = subject.kind;
    const grade = await currentGrade(db, subject, now);
    const counted = sql`r.status = 'passed' and r.start_time <= ${today}::date and r.end_time >= ${today}::date`;
    const rows = repo.rowsOf(
      await db.execute(sql`select r.standard_id, count(*) filter (where r.status <> 'revoked')::int as n,
          coalesce(sum(least(r.score, s.highest)) filter (where ${counted}), 0) as pts
        from credit_conduct_records r join credit_standards s on s.id = r.standard_id
        where r.subject_kind = ${subject.kind} and r.subject_id = ${subject.id}
        group by r.standard_id`),
    );
    stats = new Map(rows.map((r) => [String(r.standard_id), { n: Number(r.n), pts: Number(r.pts) }]));
    header = { nodeName: subject.name, score: grade?.score ?? null, level: grade?.level ?? null };
  }
  const shown = standards.filter(
    (s) => stats.has(s.id) || (s.enabled && (kind === null || s.appliesTo === 'both' || s.appliesTo === kind)),
  );
  const round = (n: number) => Math.round(n * 100) / 100;
  const groups = new Map<string, ReturnType<typeof groupOf>>();
  function groupOf(s: repo.StandardRow) {
    return {
      primaryKey: `${s.conduct}:${s.xxGrouping}`,
      xxGrouping: s.xxGrouping,
      nodeName: s.xxGrouping,
      conduct: s.conduct as CreditConduct,
      badge: 0,
      score: 0,
      children: [] as {
        primaryKey: string;
        xxGrouping: string;
        nodeName: string;
        conduct: CreditConduct;
        highest: number;
        validityMonths: number;
        badge: number;
        score: number;
      }[],
    };
  }
  for (const conduct of CREDIT_CONDUCTS) {
    for (const s of shown.filter((x) => x.conduct === conduct)) {
      const key = `${s.conduct}:${s.xxGrouping}`;
      const g = groups.get(key) ?? groupOf(s);
      groups.set(key, g);
      const st = stats.get(s.id) ?? { n: 0, pts: 0 };
      // good conduct adds, bad conduct takes away; the management tree shows what an item carries
      const score = overall ? Number(s.score) : st.pts;
      const signed = round(conduct === 'good' ? score : -score);
      g.children.push({
        primaryKey: s.id,
        xxGrouping: s.xxGrouping,
        nodeName: s.name,
        conduct,
        highest: Number(s.highest),
        validityMonths: s.validityMonths,
        badge: st.n,
        score: signed,
      });
      g.badge += st.n;
      g.score = round(g.score + (overall ? 0 : signed));
    }
  }
  return { ...header, badgeOf: overall ? ('waiting' as const) : ('records' as const), children: [...groups.values()] };
}

// ---- management header and charts ----------------------------------------------------------------------------------

export async function topTitles(db: Db, c: CreditCaller, now: Date) {
  await requireReader(db, c);
  const levels = levelRows(await levelsOf(db));
  const byLevel = await db
    .select({ kind: creditGrades.subjectKind, level: creditGrades.level, n: sql<number>`count(*)::int` })
    .from(creditGrades)
    .groupBy(creditGrades.subjectKind, creditGrades.level);
  const n = (kind: string, level: string) => Number(byLevel.find((r) => r.kind === kind && r.level === level)?.n ?? 0);
  const today = todayOf(now);
  const [t] = repo.rowsOf(
    await db.execute(sql`select
        (select count(*)::int from credit_conduct_records where status = 'submitted') as waiting,
        (select count(*)::int from credit_conduct_records r join credit_standards s on s.id = r.standard_id
          where r.status = 'passed' and s.conduct = 'good' and r.start_time <= ${today}::date and r.end_time >= ${today}::date) as good,
        (select count(*)::int from credit_conduct_records r join credit_standards s on s.id = r.standard_id
          where r.status = 'passed' and s.conduct = 'bad' and r.start_time <= ${today}::date and r.end_time >= ${today}::date) as bad,
        (select round(avg(score), 2) from credit_grades where subject_kind = 'enterprise') as avg`),
  );
  const sum = (kind: string) => byLevel.filter((r) => r.kind === kind).reduce((s, r) => s + Number(r.n), 0);
  return {
    levels: levels.map((l) => ({ ...l, enterprises: n('enterprise', l.title), persons: n('person', l.title) })),
    totals: [
      { key: 'enterprises', title: '参评企业', value: sum('enterprise') },
      { key: 'persons', title: '参评人员', value: sum('person') },
      { key: 'waiting', title: '待审核记录', value: Number(t?.waiting ?? 0) },
      { key: 'good', title: '有效良好行为记录', value: Number(t?.good ?? 0) },
      { key: 'bad', title: '有效不良行为记录', value: Number(t?.bad ?? 0) },
      { key: 'average', title: '企业平均信用分', value: t?.avg === null || t?.avg === undefined ? 0 : Number(t.avg) },
    ],
  };
}

/** The last `n` months as YYYY-MM in the platform's zone, oldest first. */
function lastMonths(now: Date, n: number): string[] {
  const [y, m] = dateIn(now).split('-').map(Number) as [number, number];
  return Array.from({ length: n }, (_, i) => {
    const total = y * 12 + (m - 1) - (n - 1 - i);
    return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}`;
  });
}

export async function gradeOverview(db: Db, c: CreditCaller, kind: CreditSubjectKind, now: Date) {
  await requireReader(db, c);
  const levels = levelRows(await levelsOf(db));
  const [subjects] = await db.select({ n: count() }).from(kind === 'enterprise' ? enterprises : practitioners);
  const dist = await db
    .select({ level: creditGrades.level, n: sql<number>`count(*)::int`, avg: sql<string>`avg(${creditGrades.score})` })
    .from(creditGrades)
    .where(eq(creditGrades.subjectKind, kind))
    .groupBy(creditGrades.level);
  const graded = dist.reduce((s, r) => s + Number(r.n), 0);
  const total = dist.reduce((s, r) => s + Number(r.avg) * Number(r.n), 0);
  const months = lastMonths(now, 12);
  const rows = repo.rowsOf(
    await db.execute(sql`select to_char(r.audited_at at time zone ${appTimeZone()}, 'YYYY-MM') as m,
        count(*) filter (where s.conduct = 'good')::int as good, count(*) filter (where s.conduct = 'bad')::int as bad
      from credit_conduct_records r join credit_standards s on s.id = r.standard_id
      where r.subject_kind = ${kind} and r.status in ('passed', 'revoked')
        and to_char(r.audited_at at time zone ${appTimeZone()}, 'YYYY-MM') >= ${months[0]!}
      group by 1`),
  );
  return {
    subjectKind: kind,
    subjects: Number(subjects?.n ?? 0),
    graded,
    averageScore: graded ? Math.round((total / graded) * 100) / 100 : null,
    distribution: levels.map((l) => {
      const k = Number(dist.find((d) => d.level === l.title)?.n ?? 0);
      return { title: l.title, count: k, ratio: graded ? Math.round((k / graded) * 10000) / 10000 : 0 };
    }),
    trend: months.map((month) => {
      const r = rows.find((x) => x.m === month);
      return { month, good: Number(r?.good ?? 0), bad: Number(r?.bad ?? 0) };
    }),
  };
}

// ---- subjects ------------------------------------------------------------------------------------------------------

interface SubjectListQuery {
  subjectKind: CreditSubjectKind;
  keyword?: string;
  level?: string;
  enterpriseType?: string;
}

/** The subjects a caller may list with the filter, as SQL over `e` (enterprises), `p` (practitioners) and `g`. */
async function subjectFilter(db: Db, c: CreditCaller, q: SubjectListQuery): Promise<SQL> {
  const conds: SQL[] = [];
  if (!(await readsAll(db, c))) conds.push(c.enterpriseId ? sql`e.id = ${c.enterpriseId}::uuid` : sql`false`);
  if (q.keyword) {
    const p = repo.likeContains(q.keyword);
    conds.push(
      q.subjectKind === 'enterprise'
        ? sql`(e.name ilike ${p} or e.credit_code ilike ${p})`
        : sql`(p.name ilike ${p} or p.cert_no ilike ${p} or e.name ilike ${p})`,
    );
  }
  if (q.level) conds.push(sql`g.level = ${q.level}`);
  if (q.enterpriseType) conds.push(sql`e.enterprise_type = ${q.enterpriseType}`);
  return conds.length ? sql.join(conds, sql` and `) : sql`true`;
}

function subjectFrom(kind: CreditSubjectKind): SQL {
  return kind === 'enterprise'
    ? sql`enterprises e left join credit_grades g on g.subject_kind = 'enterprise' and g.subject_id = e.id`
    : sql`practitioners p join enterprises e on e.id = p.enterprise_id
        left join credit_grades g on g.subject_kind = 'person' and g.subject_id = p.id`;
}

const SUBJECT_COLS = (kind: CreditSubjectKind) =>
  kind === 'enterprise'
    ? sql`e.id, e.name, e.credit_code as code, e.enterprise_type as type, e.region, e.id as enterprise_id, e.name as enterprise_name`
    : sql`p.id, p.name, p.cert_no as code, p.practice_area as type, p.region, e.id as enterprise_id, e.name as enterprise_name`;

export async function subjectList(
  db: Db,
  c: CreditCaller,
  q: SubjectListQuery & { pageNum: number; pageSize: number },
  now: Date,
) {
  const where = await subjectFilter(db, c, q);
  const from = subjectFrom(q.subjectKind);
  const page = async () =>
    repo.rowsOf(
      await db.execute(sql`select ${SUBJECT_COLS(q.subjectKind)}, g.valid_until::text as valid_until from ${from}
        where ${where} order by g.score desc nulls last, ${q.subjectKind === 'enterprise' ? sql`e.name` : sql`p.name`}, 1
        limit ${q.pageSize} offset ${(q.pageNum - 1) * q.pageSize}`),
    );
  let rows = await page();
  const today = todayOf(now);
  if (rows.some((r) => r.valid_until !== null && String(r.valid_until) < today)) {
    await freshen(
      db,
      rows.map((r) => ({ kind: q.subjectKind, id: String(r.id) })),
      now,
    );
    rows = await page();
  }
  const [total] = repo.rowsOf(await db.execute(sql`select count(*)::int as n from ${from} where ${where}`));
  const ids = rows.map((r) => String(r.id));
  const grades = await gradesOf(db, q.subjectKind, ids);
  const waiting = ids.length
    ? await db
        .select({ id: creditConductRecords.subjectId, n: sql<number>`count(*)::int` })
        .from(creditConductRecords)
        .where(
          and(
            eq(creditConductRecords.subjectKind, q.subjectKind),
            eq(creditConductRecords.status, 'submitted'),
            sql`${creditConductRecords.subjectId} in (${sql.join(
              ids.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`,
          ),
        )
        .groupBy(creditConductRecords.subjectId)
    : [];
  return {
    records: rows.map((r) => {
      const g = grades.get(String(r.id));
      return {
        kind: q.subjectKind,
        id: String(r.id),
        name: String(r.name),
        code: String(r.code),
        type: String(r.type),
        region: r.region === null ? null : String(r.region),
        enterpriseId: String(r.enterprise_id),
        enterpriseName: String(r.enterprise_name),
        grade: g ? gradeView(g) : null,
        waiting: Number(waiting.find((w) => w.id === r.id)?.n ?? 0),
      };
    }),
    total: Number(total?.n ?? 0),
  };
}

export async function subjectInfo(
  db: Db,
  c: CreditCaller,
  ref: { subjectKind?: CreditSubjectKind; subjectId?: string },
  now: Date,
) {
  const subject = await resolveSubject(db, c, ref);
  const grade = await currentGrade(db, subject, now);
  const byStatus = await db
    .select({ status: creditConductRecords.status, n: sql<number>`count(*)::int` })
    .from(creditConductRecords)
    .where(and(eq(creditConductRecords.subjectKind, subject.kind), eq(creditConductRecords.subjectId, subject.id)))
    .groupBy(creditConductRecords.status);
  const counts = Object.fromEntries(
    CREDIT_RECORD_STATUSES.map((s) => [s, Number(byStatus.find((b) => b.status === s)?.n ?? 0)]),
  ) as Record<CreditRecordStatus, number>;
  return {
    subject,
    grade: grade ? gradeView(grade) : null,
    levels: levelRows(await levelsOf(db)),
    counts,
  };
}

// ---- rules, options ------------------------------------------------------------------------------------------------

export async function description(db: Db) {
  const base = await baseScoreOf(db);
  const levels = levelRows(await levelsOf(db));
  const [n] = await db.select({ n: count() }).from(creditStandards).where(eq(creditStandards.enabled, true));
  return {
    baseScore: base,
    levels,
    standards: Number(n?.n ?? 0),
    rules: [
      `信用分 = 基础分 ${scoreText(base)} 分 + 有效的良好行为记录分值 − 有效的不良行为记录分值，最低为 0 分。`,
      '每条记录按其信用标准项的最高分封顶计分；只有审核通过的记录计分，被撤销的记录不再计分。',
      '记录在开始时间至结束时间（含）内有效；到期或尚未开始的记录不计分，信用等级随之自动重新评定。',
      `信用等级：${levels
        .map((l) =>
          l.maxScore === null
            ? `${l.title} ${scoreText(l.minScore)} 分及以上`
            : `${l.title} ${scoreText(l.minScore)}–${scoreText(l.maxScore)} 分`,
        )
        .join('；')}。`,
      '企业申报的记录须上传至少一个证明附件；分值不能超过该标准项的最高分，不能为负数；结束时间不能早于开始时间，且不超过标准项规定的有效期。',
      '自动获取的记录来自平台已公开的认定结果，由审核人员审核后计分。',
    ],
  };
}

export async function selectTypes(db: Db, c: CreditCaller) {
  await requireReader(db, c);
  const standards = await repo.standardsOf(db);
  const levels = await levelsOf(db);
  const groups = new Map<
    string,
    {
      label: string;
      value: string;
      conduct: CreditConduct;
      children: { label: string; value: string; highest: number; validityMonths: number }[];
    }
  >();
  for (const s of standards) {
    const key = `${s.conduct}:${s.xxGrouping}`;
    const g = groups.get(key) ?? {
      label: s.xxGrouping,
      value: s.xxGrouping,
      conduct: s.conduct as CreditConduct,
      children: [],
    };
    g.children.push({ label: s.name, value: s.id, highest: Number(s.highest), validityMonths: s.validityMonths });
    groups.set(key, g);
  }
  const opts = (o: Record<string, string>) => Object.entries(o).map(([value, label]) => ({ label, value }));
  return {
    subjectKinds: opts(CREDIT_SUBJECT_LABELS),
    conducts: opts(CREDIT_CONDUCT_LABELS),
    statuses: opts(CREDIT_RECORD_STATUS_LABELS),
    sources: opts(CREDIT_RECORD_SOURCE_LABELS),
    levels: levels.map((l) => ({ label: l.title, value: l.title })),
    groups: [...groups.values()],
  };
}

export async function enterpriseTypes(db: Db) {
  const rows = await db
    .select({ t: enterprises.enterpriseType, n: sql<number>`count(*)::int` })
    .from(enterprises)
    .groupBy(enterprises.enterpriseType)
    .orderBy(asc(enterprises.enterpriseType));
  return rows.map((r) => ({ label: r.t, value: r.t, count: Number(r.n) }));
}

export async function participation(db: Db, c: CreditCaller, now: Date) {
  if (!c.enterpriseId) {
    return { enterpriseId: null, participated: false, graded: false, letterSigned: false, level: null, score: null };
  }
  const grade = await currentGrade(db, { kind: 'enterprise', id: c.enterpriseId }, now);
  const [letter] = repo.rowsOf(
    await db.execute(sql`select 1 as one from credit_letters where enterprise_id = ${c.enterpriseId}`),
  );
  return {
    enterpriseId: c.enterpriseId,
    participated: Boolean(grade || letter),
    graded: Boolean(grade),
    letterSigned: Boolean(letter),
    level: grade?.level ?? null,
    score: grade?.score ?? null,
  };
}

// ---- pull-downs and persons ----------------------------------------------------------------------------------------

const PULL_DOWN_MAX = 50;

export async function enterprisePullDown(db: Db, c: CreditCaller, q: { keyword?: string }) {
  const all = await readsAll(db, c);
  if (!all && !c.enterpriseId) return [];
  const conds: SQL[] = [];
  if (!all) conds.push(eq(enterprises.id, c.enterpriseId!));
  if (q.keyword) {
    const p = repo.likeContains(q.keyword);
    conds.push(or(ilike(enterprises.name, p), ilike(enterprises.creditCode, p))!);
  }
  const rows = await db
    .select({ id: enterprises.id, name: enterprises.name, code: enterprises.creditCode, level: creditGrades.level })
    .from(enterprises)
    .leftJoin(creditGrades, and(eq(creditGrades.subjectKind, 'enterprise'), eq(creditGrades.subjectId, enterprises.id)))
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(asc(enterprises.name))
    .limit(PULL_DOWN_MAX);
  return rows.map((r) => ({ label: r.name, value: r.id, creditCode: r.code, level: r.level }));
}

async function personRows(db: Db, c: CreditCaller, q: { keyword?: string; enterpriseId?: string }, extra?: SQL) {
  const all = await readsAll(db, c);
  if (!all && !c.enterpriseId) return [];
  const conds: SQL[] = [];
  if (!all) {
    if (q.enterpriseId && q.enterpriseId !== c.enterpriseId) throw notFound('企业不存在');
    conds.push(eq(practitioners.enterpriseId, c.enterpriseId!));
  } else if (q.enterpriseId) conds.push(eq(practitioners.enterpriseId, q.enterpriseId));
  if (q.keyword) {
    const p = repo.likeContains(q.keyword);
    conds.push(or(ilike(practitioners.name, p), ilike(practitioners.certNo, p))!);
  }
  if (extra) conds.push(extra);
  const rows = await db
    .select({ p: practitioners, enterpriseName: enterprises.name })
    .from(practitioners)
    .innerJoin(enterprises, eq(enterprises.id, practitioners.enterpriseId))
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(asc(practitioners.name), asc(practitioners.id))
    .limit(PULL_DOWN_MAX);
  return rows.map((r) => ({
    label: r.p.name,
    value: r.p.id,
    certNo: r.p.certNo,
    practiceArea: r.p.practiceArea,
    enterpriseName: r.enterpriseName,
  }));
}

export const personPullDown = (db: Db, c: CreditCaller, q: { keyword?: string; enterpriseId?: string }) =>
  personRows(db, c, q);

/** Registered cost engineers (注册造价工程师) of an enterprise: the caller's own unless a reader names one. */
export async function costEngineers(db: Db, c: CreditCaller, q: { keyword?: string; enterpriseId?: string }) {
  const enterpriseId = q.enterpriseId ?? c.enterpriseId ?? undefined;
  if (!enterpriseId) return [];
  return personRows(db, c, { ...q, enterpriseId }, ilike(practitioners.practiceArea, '%造价工程师%'));
}

export async function personInfo(db: Db, c: CreditCaller, id: string, now: Date) {
  const subject = await resolveSubject(db, c, { subjectKind: 'person', subjectId: id });
  const grade = await currentGrade(db, subject, now);
  const [n] = await db
    .select({ n: count() })
    .from(creditConductRecords)
    .where(and(eq(creditConductRecords.subjectKind, 'person'), eq(creditConductRecords.subjectId, id)));
  return {
    id: subject.id,
    name: subject.name,
    certNo: subject.code,
    practiceArea: subject.type,
    region: subject.region,
    enterpriseId: subject.enterpriseId,
    enterpriseName: subject.enterpriseName,
    grade: grade ? gradeView(grade) : null,
    records: Number(n?.n ?? 0),
  };
}
