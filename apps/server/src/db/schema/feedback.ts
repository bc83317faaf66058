import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, smallint, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { users } from './account';
import { createdAt, id } from './columns';

/**
 * Feedback surveys (issue 14, screen 24): one row per submission — who and when, and the free text when it was not
 * blank — and one row per rated question. The questionnaires themselves are constants of the contracts; each score
 * keeps the question's text, so results survive a later rewording.
 */
export const feedbackSubmissions = pgTable(
  'feedback_submissions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    text: text('text'),
    createdAt: createdAt(),
  },
  (t) => [
    index('feedback_submissions_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check('feedback_submissions_text_ck', sql`${t.text} is null or length(btrim(${t.text})) > 0`),
  ],
);

export const feedbackScores = pgTable(
  'feedback_scores',
  {
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => feedbackSubmissions.id, { onDelete: 'cascade' }),
    evaluateType: varchar('evaluate_type', { length: 16 }).notNull(),
    question: varchar('question', { length: 100 }).notNull(),
    score: smallint('score').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.submissionId, t.evaluateType, t.question] }),
    check('feedback_scores_score_ck', sql`${t.score} between 1 and 5`),
  ],
);
