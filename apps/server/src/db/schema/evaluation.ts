import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { bidFiles } from './bids';
import { createdAt, id, timestamptz } from './columns';
import { expertExtractions } from './experts';
import { tenderSections } from './tender';

/**
 * The evaluation of a section (评标, issue 17): begun by the host after the opening closed, with the confirmed experts
 * of one extraction. `signing` until the committee elects its chair; `scoring`; `reporting` once the chair rendered the
 * result (kept here with its working); `done` when every member signed the report.
 */
export const bidEvaluations = pgTable(
  'bid_evaluations',
  {
    sectionId: uuid('section_id')
      .primaryKey()
      .references(() => tenderSections.id),
    extractionId: uuid('extraction_id')
      .notNull()
      .references(() => expertExtractions.id),
    status: varchar('status', { length: 10 }).notNull(),
    /** EvalCriteria (contracts/evaluation-rules.ts) */
    criteria: jsonb('criteria').notNull(),
    hostId: uuid('host_id')
      .notNull()
      .references(() => users.id),
    chairMemberId: uuid('chair_member_id'),
    startedAt: timestamptz('started_at').notNull(),
    renderedAt: timestamptz('rendered_at'),
    /** EvalResult with the enterprise names, as rendered */
    result: jsonb('result'),
    doneAt: timestamptz('done_at'),
    /** the candidates' publicity (中标候选人公示) on the portal, and its period */
    publicityNoticeId: uuid('publicity_notice_id'),
    publicityStart: timestamptz('publicity_start'),
    publicityEnd: timestamptz('publicity_end'),
    /** the award: the winning bid, the result notice (中标结果公告) on the portal */
    awardBidId: uuid('award_bid_id').references(() => bidFiles.id),
    awardedAt: timestamptz('awarded_at'),
    resultNoticeId: uuid('result_notice_id'),
  },
  (t) => [
    check('bid_evaluations_status_ck', sql`${t.status} in ('signing', 'scoring', 'reporting', 'done')`),
    check(
      'bid_evaluations_result_ck',
      sql`(${t.status} in ('reporting', 'done')) = (${t.result} is not null and ${t.renderedAt} is not null)`,
    ),
    check('bid_evaluations_chair_ck', sql`${t.status} = 'signing' or ${t.chairMemberId} is not null`),
    check(
      'bid_evaluations_publicity_ck',
      sql`${t.publicityNoticeId} is null or (${t.status} = 'done' and ${t.publicityEnd} > ${t.publicityStart})`,
    ),
    check(
      'bid_evaluations_award_ck',
      sql`${t.awardBidId} is null or (${t.publicityNoticeId} is not null and ${t.awardedAt} >= ${t.publicityEnd})`,
    ),
  ],
);

/** A member of the committee: one confirmed expert of the extraction, with the account that signs in as them. */
export const bidEvaluationMembers = pgTable(
  'bid_evaluation_members',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => bidEvaluations.sectionId),
    expertId: uuid('expert_id').notNull(),
    userId: uuid('user_id').references(() => users.id),
    name: varchar('name', { length: 40 }).notNull(),
    specialty: varchar('specialty', { length: 40 }).notNull(),
    employer: varchar('employer', { length: 200 }).notNull().default(''),
    /** ZS, JS, SW */
    panels: jsonb('panels').$type<string[]>().notNull(),
    declaredAt: timestamptz('declared_at'),
    /** the conflict declared (the member is recused) */
    conflict: text('conflict'),
    voteFor: uuid('vote_for'),
    reportSignedAt: timestamptz('report_signed_at'),
    dissent: text('dissent'),
  },
  (t) => [
    uniqueIndex('bid_evaluation_members_expert_uq').on(t.sectionId, t.expertId),
    uniqueIndex('bid_evaluation_members_user_uq').on(t.sectionId, t.userId),
    index('bid_evaluation_members_user_idx').on(t.userId),
    check('bid_evaluation_members_conflict_ck', sql`${t.conflict} is null or ${t.declaredAt} is not null`),
  ],
);

/** A member's sign-in to a panel, and when they submitted it (null: open for scoring). */
export const bidEvaluationPanels = pgTable(
  'bid_evaluation_panels',
  {
    memberId: uuid('member_id')
      .notNull()
      .references(() => bidEvaluationMembers.id),
    panel: varchar('panel', { length: 2 }).notNull(),
    signedAt: timestamptz('signed_at').notNull(),
    submittedAt: timestamptz('submitted_at'),
    reopened: integer('reopened').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.panel] }),
    check('bid_evaluation_panels_panel_ck', sql`${t.panel} in ('ZS', 'JS', 'SW')`),
  ],
);

/** One member's score of one bid on one item (qualification: pass / fail). */
export const bidEvaluationScores = pgTable(
  'bid_evaluation_scores',
  {
    memberId: uuid('member_id')
      .notNull()
      .references(() => bidEvaluationMembers.id),
    bidId: uuid('bid_id')
      .notNull()
      .references(() => bidFiles.id),
    itemId: varchar('item_id', { length: 10 }).notNull(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => bidEvaluations.sectionId),
    panel: varchar('panel', { length: 2 }).notNull(),
    score: numeric('score', { precision: 6, scale: 2, mode: 'number' }),
    pass: varchar('pass', { length: 1 }),
    reason: text('reason').notNull().default(''),
    updatedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.bidId, t.itemId] }),
    index('bid_evaluation_scores_section_idx').on(t.sectionId, t.panel),
    check('bid_evaluation_scores_pass_ck', sql`${t.pass} is null or ${t.pass} in ('Y', 'N')`),
    check('bid_evaluation_scores_one_ck', sql`(${t.score} is null) <> (${t.pass} is null)`),
  ],
);

/** The chair's reopenings of a member's submitted panel, with the reason. */
export const bidEvaluationReopens = pgTable(
  'bid_evaluation_reopens',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => bidEvaluations.sectionId),
    memberId: uuid('member_id')
      .notNull()
      .references(() => bidEvaluationMembers.id),
    panel: varchar('panel', { length: 2 }).notNull(),
    reason: text('reason').notNull(),
    byUserId: uuid('by_user_id')
      .notNull()
      .references(() => users.id),
    byName: varchar('by_name', { length: 64 }).notNull(),
    at: createdAt(),
  },
  (t) => [index('bid_evaluation_reopens_section_idx').on(t.sectionId, t.at)],
);

/** Objections (异议) of bidders to the published candidates, and the host's answers. */
export const bidResultObjections = pgTable(
  'bid_result_objections',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => bidEvaluations.sectionId),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    text: text('text').notNull(),
    at: createdAt(),
    answer: text('answer'),
    answeredAt: timestamptz('answered_at'),
    answeredBy: uuid('answered_by').references(() => users.id),
  },
  (t) => [
    index('bid_result_objections_section_idx').on(t.sectionId, t.at),
    check('bid_result_objections_answer_ck', sql`(${t.answer} is null) = (${t.answeredAt} is null)`),
  ],
);

/**
 * 评标澄清 (issue 17): the chair asks a bidder, on the committee's behalf, to clarify its bid in writing before a
 * deadline; the bidder answers once (text, files bound to the row through the files module); an unanswered question
 * may be revoked with a reason. Past the deadline unanswered, it reads as expired.
 */
export const bidEvaluationClarifications = pgTable(
  'bid_evaluation_clarifications',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => bidEvaluations.sectionId),
    bidId: uuid('bid_id')
      .notNull()
      .references(() => bidFiles.id),
    question: text('question').notNull(),
    deadline: timestamptz('deadline').notNull(),
    askedByMemberId: uuid('asked_by_member_id')
      .notNull()
      .references(() => bidEvaluationMembers.id),
    at: createdAt(),
    answer: text('answer'),
    answeredAt: timestamptz('answered_at'),
    answeredBy: uuid('answered_by').references(() => users.id),
    revokedAt: timestamptz('revoked_at'),
    revokeReason: text('revoke_reason'),
  },
  (t) => [
    index('bid_evaluation_clarifications_section_idx').on(t.sectionId, t.at),
    index('bid_evaluation_clarifications_bid_idx').on(t.bidId),
    check('bid_evaluation_clarifications_answer_ck', sql`(${t.answer} is null) = (${t.answeredAt} is null)`),
    check('bid_evaluation_clarifications_revoke_ck', sql`(${t.revokedAt} is null) = (${t.revokeReason} is null)`),
    check('bid_evaluation_clarifications_once_ck', sql`${t.answer} is null or ${t.revokedAt} is null`),
    check('bid_evaluation_clarifications_deadline_ck', sql`${t.deadline} > ${t.at}`),
  ],
);
