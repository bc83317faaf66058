import {
  DATETIME_FORMAT,
  EVALUATE_TYPES,
  FEEDBACK_QUESTIONNAIRES,
  type FeedbackAddBody,
  type FeedbackQuestionStat,
  type FeedbackRange,
  type FeedbackSummary,
  type FeedbackText,
  type FeedbackTextsQuery,
  formatIn,
  type Page,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import * as repo from './feedback.repo';

/**
 * Feedback surveys (screen 24): anyone signed in rates the product and service questions 1–5 and may add a text (kept
 * only when it is not blank); administrators read the averages, the distribution per question and the texts. A user's
 * feedback writes no operation-log row; the export does (export.service.ts).
 */

/** Stores one submission of `userId` (checked by the contract: ratings 1–5 of known questions, each once). */
export async function addFeedback(db: Db, userId: string, body: FeedbackAddBody, now: Date) {
  const text = body.text?.trim() ? body.text.trim() : null;
  const id = await db.transaction((tx) =>
    repo.insertSubmission(
      tx,
      { userId, text, createdAt: now },
      body.list.map((i) => ({ evaluateType: i.evaluateType, question: i.question, score: i.score })),
    ),
  );
  return { id };
}

const key = (evaluateType: string, question: string) => `${evaluateType}\u0001${question}`;
const round2 = (n: number) => Math.round(n * 100) / 100;

export async function feedbackSummary(db: Db, range: FeedbackRange, tz: string): Promise<FeedbackSummary> {
  const r = { ...range, tz };
  const [totals, counts] = await Promise.all([repo.countSubmissions(db, r), repo.scoreCounts(db, r)]);
  const stats = new Map<string, FeedbackQuestionStat>();
  const statOf = (evaluateType: string, question: string) => {
    const k = key(evaluateType, question);
    let s = stats.get(k);
    if (!s) {
      s = { evaluateType, question, count: 0, average: null, distribution: [0, 0, 0, 0, 0] };
      stats.set(k, s);
    }
    return s;
  };
  // the questionnaires' questions in their order, then any question of an earlier wording that has ratings
  for (const t of EVALUATE_TYPES) for (const q of FEEDBACK_QUESTIONNAIRES[t].questions) statOf(t, q);
  const sums = new Map<string, number>();
  for (const c of counts) {
    const s = statOf(c.evaluateType, c.question);
    s.count += c.n;
    s.distribution[c.score - 1] = (s.distribution[c.score - 1] ?? 0) + c.n;
    sums.set(key(c.evaluateType, c.question), (sums.get(key(c.evaluateType, c.question)) ?? 0) + c.score * c.n);
  }
  for (const [k, s] of stats) if (s.count > 0) s.average = round2((sums.get(k) ?? 0) / s.count);
  return { ...totals, questions: [...stats.values()] };
}

export const averageOf = (v: string | null) => (v === null ? null : round2(Number(v)));

export async function feedbackTexts(db: Db, q: FeedbackTextsQuery, tz: string): Promise<Page<FeedbackText>> {
  const page = await repo.textPage(db, { startDate: q.startDate, endDate: q.endDate, tz }, q);
  return {
    total: page.total,
    records: page.records.map((r) => ({
      id: r.id,
      text: r.text ?? '',
      userName: r.userName,
      account: r.account,
      enterpriseName: r.enterpriseName,
      average: averageOf(r.average),
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

export const timeText = (d: Date) => formatIn(d, DATETIME_FORMAT);
