import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { enterprises, feedbackScores, feedbackSubmissions, users } from '../../db/schema';

/** Submissions from `startDate` to `endDate` (days in zone `tz`, both included; either may be absent). */
export interface DayRange {
  startDate?: string;
  endDate?: string;
  tz: string;
}

function rangeConditions(r: DayRange): SQL[] {
  const conds: SQL[] = [];
  // the wall-clock midnight of the day in the platform's zone, as an instant: the index on created_at serves it
  if (r.startDate)
    conds.push(sql`${feedbackSubmissions.createdAt} >= (${r.startDate}::date::timestamp at time zone ${r.tz})`);
  if (r.endDate) {
    conds.push(sql`${feedbackSubmissions.createdAt} < ((${r.endDate}::date + 1)::timestamp at time zone ${r.tz})`);
  }
  return conds;
}

export async function insertSubmission(
  tx: DbOrTx,
  row: { userId: string; text: string | null; createdAt: Date },
  scores: { evaluateType: string; question: string; score: number }[],
): Promise<string> {
  const [s] = await tx.insert(feedbackSubmissions).values(row).returning({ id: feedbackSubmissions.id });
  if (!s) throw new Error('feedback submission not inserted');
  await tx.insert(feedbackScores).values(scores.map((x) => ({ ...x, submissionId: s.id })));
  return s.id;
}

/** How many submissions the range holds, and how many of them carry a text. */
export async function countSubmissions(db: DbOrTx, r: DayRange): Promise<{ submissions: number; withText: number }> {
  const conds = rangeConditions(r);
  const [row] = await db
    .select({
      submissions: count(),
      withText: sql<number>`count(${feedbackSubmissions.text})::int`,
    })
    .from(feedbackSubmissions)
    .where(conds.length ? and(...conds) : undefined);
  return { submissions: Number(row?.submissions ?? 0), withText: Number(row?.withText ?? 0) };
}

/** Per question and score: how many ratings in the range. */
export async function scoreCounts(
  db: DbOrTx,
  r: DayRange,
): Promise<{ evaluateType: string; question: string; score: number; n: number }[]> {
  const conds = rangeConditions(r);
  const rows = await db
    .select({
      evaluateType: feedbackScores.evaluateType,
      question: feedbackScores.question,
      score: feedbackScores.score,
      n: sql<number>`count(*)::int`,
    })
    .from(feedbackScores)
    .innerJoin(feedbackSubmissions, eq(feedbackSubmissions.id, feedbackScores.submissionId))
    .where(conds.length ? and(...conds) : undefined)
    .groupBy(feedbackScores.evaluateType, feedbackScores.question, feedbackScores.score);
  return rows.map((x) => ({ ...x, n: Number(x.n) }));
}

const submissionColumns = {
  id: feedbackSubmissions.id,
  text: feedbackSubmissions.text,
  createdAt: feedbackSubmissions.createdAt,
  userName: users.userName,
  account: users.account,
  enterpriseName: enterprises.name,
  average: sql<
    string | null
  >`(select avg(${feedbackScores.score})::numeric(4,2)::text from ${feedbackScores} where ${feedbackScores.submissionId} = ${feedbackSubmissions.id})`,
};
export type SubmissionRow = {
  id: string;
  text: string | null;
  createdAt: Date;
  userName: string;
  account: string;
  enterpriseName: string | null;
  average: string | null;
};

/** Submissions with a text, newest first, one page. */
export async function textPage(
  db: DbOrTx,
  r: DayRange,
  page: { pageNum: number; pageSize: number },
): Promise<{ records: SubmissionRow[]; total: number }> {
  const where = and(...rangeConditions(r), sql`${feedbackSubmissions.text} is not null`);
  const [records, [total]] = await Promise.all([
    db
      .select(submissionColumns)
      .from(feedbackSubmissions)
      .innerJoin(users, eq(users.id, feedbackSubmissions.userId))
      .leftJoin(enterprises, eq(enterprises.id, users.enterpriseId))
      .where(where)
      .orderBy(desc(feedbackSubmissions.createdAt), desc(feedbackSubmissions.id))
      .limit(page.pageSize)
      .offset((page.pageNum - 1) * page.pageSize),
    db.select({ n: count() }).from(feedbackSubmissions).where(where),
  ]);
  return { records, total: Number(total?.n ?? 0) };
}

/** Every submission of the range (at most `limit`), newest first, with its scores: for the export. */
export async function submissionsWithScores(
  db: DbOrTx,
  r: DayRange,
  limit: number,
): Promise<(SubmissionRow & { scores: { evaluateType: string; question: string; score: number }[] })[]> {
  const conds = rangeConditions(r);
  const rows = await db
    .select({
      ...submissionColumns,
      scores: sql<
        { evaluateType: string; question: string; score: number }[]
      >`coalesce((select json_agg(json_build_object('evaluateType', ${feedbackScores.evaluateType}, 'question', ${feedbackScores.question}, 'score', ${feedbackScores.score})) from ${feedbackScores} where ${feedbackScores.submissionId} = ${feedbackSubmissions.id}), '[]'::json)`,
    })
    .from(feedbackSubmissions)
    .innerJoin(users, eq(users.id, feedbackSubmissions.userId))
    .leftJoin(enterprises, eq(enterprises.id, users.enterpriseId))
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(desc(feedbackSubmissions.createdAt), desc(feedbackSubmissions.id))
    .limit(limit);
  return rows.map((x) => ({ ...x, scores: typeof x.scores === 'string' ? JSON.parse(x.scores) : x.scores }));
}
