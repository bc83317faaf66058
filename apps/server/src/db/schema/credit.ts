import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { practitioners } from './portal';

/**
 * Credit management (issue 13): the standard items records are scored by, the records of enterprises and persons,
 * the level thresholds and the grade of each subject, and the credit commitment letters. The rules that must hold
 * whatever the configuration are constraints here (scores, dates, statuses, who decided); the grade is recomputed in
 * the transaction of every change that affects it (modules/credit/grade.service.ts).
 */

/** Credit standard items (信用标准), grouped by xx_grouping. */
export const creditStandards = pgTable(
  'credit_standards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: varchar('code', { length: 32 }).notNull(),
    /** the group the item is listed under (the left tree's xxGrouping) */
    xxGrouping: varchar('xx_grouping', { length: 50 }).notNull(),
    name: varchar('name', { length: 200 }).notNull(),
    /** good | bad */
    conduct: varchar('conduct', { length: 8 }).notNull(),
    /** the points a record of the item usually carries */
    score: numeric('score', { precision: 6, scale: 2 }).notNull(),
    /** the most one record of the item counts (§3 credit standard: highest) */
    highest: numeric('highest', { precision: 6, scale: 2 }).notNull(),
    validityMonths: integer('validity_months').notNull(),
    /** enterprise | person | both */
    appliesTo: varchar('applies_to', { length: 10 }).notNull().default('enterprise'),
    /** words of a published decision's title that name this item (auto-retrieve) */
    keywords: jsonb('keywords').$type<string[]>().notNull().default([]),
    enabled: boolean('enabled').notNull().default(true),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('credit_standards_code_uq').on(t.code),
    check('credit_standards_conduct_ck', sql`${t.conduct} in ('good', 'bad')`),
    check('credit_standards_applies_ck', sql`${t.appliesTo} in ('enterprise', 'person', 'both')`),
    check('credit_standards_score_ck', sql`${t.score} >= 0 and ${t.highest} > 0 and ${t.score} <= ${t.highest}`),
    check('credit_standards_validity_ck', sql`${t.validityMonths} between 1 and 120`),
  ],
);

/** Level thresholds (level/titles): a subject's level is the highest level whose floor its score reaches. */
export const creditLevels = pgTable(
  'credit_levels',
  {
    title: varchar('title', { length: 8 }).primaryKey(),
    minScore: numeric('min_score', { precision: 6, scale: 2 }).notNull(),
  },
  (t) => [uniqueIndex('credit_levels_min_uq').on(t.minScore), check('credit_levels_min_ck', sql`${t.minScore} >= 0`)],
);

/**
 * Credit records (良好 / 不良行为记录) of an enterprise or of a person. `enterprise_id` is the side the record belongs
 * to: the enterprise itself, or the person's enterprise. Evidence files are rows of `files` bound to the record
 * (gn_coding = the credit node, record_id = the record), as the files module binds files to any business record.
 */
export const creditConductRecords = pgTable(
  'credit_conduct_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** enterprise | person */
    subjectKind: varchar('subject_kind', { length: 10 }).notNull(),
    /** the enterprise's id, or the person's (practitioners.id) */
    subjectId: uuid('subject_id').notNull(),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    personId: uuid('person_id').references(() => practitioners.id),
    standardId: uuid('standard_id')
      .notNull()
      .references(() => creditStandards.id),
    score: numeric('score', { precision: 6, scale: 2 }).notNull(),
    startTime: date('start_time').notNull(),
    endTime: date('end_time').notNull(),
    /** what happened (事由) */
    title: varchar('title', { length: 200 }).notNull(),
    /** who decided it (认定单位) */
    issuer: varchar('issuer', { length: 100 }),
    remark: text('remark'),
    /** declared | retrieved | imported */
    source: varchar('source', { length: 10 }).notNull().default('declared'),
    /** retrieved: the published decision it came from (credit_records.id of the portal) */
    sourceRef: varchar('source_ref', { length: 64 }),
    /** draft | submitted | passed | rejected | revoked */
    status: varchar('status', { length: 10 }).notNull().default('draft'),
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id),
    createdByName: varchar('created_by_name', { length: 64 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    submittedBy: uuid('submitted_by').references(() => users.id),
    submittedByName: varchar('submitted_by_name', { length: 64 }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    auditedBy: uuid('audited_by').references(() => users.id),
    auditedByName: varchar('audited_by_name', { length: 64 }),
    auditedAt: timestamp('audited_at', { withTimezone: true }),
    auditSuggestion: varchar('audit_suggestion', { length: 500 }),
    revokedBy: uuid('revoked_by').references(() => users.id),
    revokedByName: varchar('revoked_by_name', { length: 64 }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokeReason: varchar('revoke_reason', { length: 500 }),
  },
  (t) => [
    check('credit_records_kind_ck', sql`${t.subjectKind} in ('enterprise', 'person')`),
    check(
      'credit_records_subject_ck',
      sql`(${t.subjectKind} = 'enterprise' and ${t.personId} is null and ${t.subjectId} = ${t.enterpriseId})
        or (${t.subjectKind} = 'person' and ${t.personId} is not null and ${t.subjectId} = ${t.personId})`,
    ),
    check('credit_records_score_ck', sql`${t.score} >= 0`),
    check('credit_records_dates_ck', sql`${t.endTime} >= ${t.startTime}`),
    check('credit_records_source_ck', sql`${t.source} in ('declared', 'retrieved', 'imported')`),
    check('credit_records_status_ck', sql`${t.status} in ('draft', 'submitted', 'passed', 'rejected', 'revoked')`),
    check('credit_records_version_ck', sql`${t.version} >= 1`),
    // whoever decided is recorded with the decision; a rejection and a revocation say why
    check(
      'credit_records_decided_ck',
      sql`${t.status} not in ('passed', 'rejected', 'revoked') or (${t.auditedAt} is not null and ${t.auditedByName} is not null)`,
    ),
    check(
      'credit_records_rejected_ck',
      sql`${t.status} <> 'rejected' or coalesce(btrim(${t.auditSuggestion}), '') <> ''`,
    ),
    check(
      'credit_records_revoked_ck',
      sql`${t.status} <> 'revoked' or (${t.revokedAt} is not null and coalesce(btrim(${t.revokeReason}), '') <> '')`,
    ),
    check('credit_records_submitted_ck', sql`${t.status} <> 'submitted' or ${t.submittedAt} is not null`),
    uniqueIndex('credit_records_source_uq').on(t.sourceRef).where(sql`${t.sourceRef} is not null`),
    // the regrade: a subject's passed records
    index('credit_records_grade_idx')
      .on(t.subjectKind, t.subjectId, t.startTime, t.endTime)
      .where(sql`${t.status} = 'passed'`),
    index('credit_records_subject_idx').on(t.subjectKind, t.subjectId, t.createdAt.desc(), t.id.desc()),
    index('credit_records_enterprise_idx').on(t.enterpriseId, t.createdAt.desc(), t.id.desc()),
    index('credit_records_status_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('credit_records_standard_idx').on(t.standardId),
  ],
);

/**
 * The grade of a subject: base score + good points − bad points (never below 0) and its level, as computed at
 * `computed_at`; it holds through `valid_until` (a counted record ends, or a passed one starts, the day after).
 */
export const creditGrades = pgTable(
  'credit_grades',
  {
    subjectKind: varchar('subject_kind', { length: 10 }).notNull(),
    subjectId: uuid('subject_id').notNull(),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    personId: uuid('person_id').references(() => practitioners.id),
    baseScore: numeric('base_score', { precision: 6, scale: 2 }).notNull(),
    goodPoints: numeric('good_points', { precision: 10, scale: 2 }).notNull(),
    badPoints: numeric('bad_points', { precision: 10, scale: 2 }).notNull(),
    score: numeric('score', { precision: 10, scale: 2 }).notNull(),
    level: varchar('level', { length: 8 }).notNull(),
    countedRecords: integer('counted_records').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
    validUntil: date('valid_until'),
  },
  (t) => [
    primaryKey({ columns: [t.subjectKind, t.subjectId] }),
    check('credit_grades_kind_ck', sql`${t.subjectKind} in ('enterprise', 'person')`),
    check(
      'credit_grades_subject_ck',
      sql`(${t.subjectKind} = 'enterprise' and ${t.personId} is null and ${t.subjectId} = ${t.enterpriseId})
        or (${t.subjectKind} = 'person' and ${t.personId} is not null and ${t.subjectId} = ${t.personId})`,
    ),
    check(
      'credit_grades_points_ck',
      sql`${t.goodPoints} >= 0 and ${t.badPoints} >= 0 and ${t.score} >= 0 and ${t.baseScore} >= 0`,
    ),
    check('credit_grades_score_ck', sql`${t.score} = greatest(0, ${t.baseScore} + ${t.goodPoints} - ${t.badPoints})`),
    check('credit_grades_counted_ck', sql`${t.countedRecords} >= 0`),
    // the expiry sweep: grades whose validity ran out
    index('credit_grades_valid_idx').on(t.validUntil).where(sql`${t.validUntil} is not null`),
    index('credit_grades_level_idx').on(t.subjectKind, t.level),
    index('credit_grades_enterprise_idx').on(t.enterpriseId),
  ],
);

/** Credit commitment letters (信用承诺书): one per enterprise once signed; the text is kept as signed. */
export const creditLetters = pgTable('credit_letters', {
  enterpriseId: uuid('enterprise_id')
    .primaryKey()
    .references(() => enterprises.id),
  content: text('content').notNull(),
  signerId: uuid('signer_id')
    .notNull()
    .references(() => users.id),
  signerName: varchar('signer_name', { length: 64 }).notNull(),
  signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
});

/**
 * One row whose `v` moves with every statement that may change what the public credit list counts (enterprises added,
 * removed, renamed or re-coded; grades written): a count kept by a process is answered only while `v` still has the
 * value it was counted at (statement triggers, migration 0014).
 */
export const creditListVersion = pgTable('credit_list_version', {
  id: integer('id').primaryKey(),
  v: bigint('v', { mode: 'number' }).notNull().default(0),
});
