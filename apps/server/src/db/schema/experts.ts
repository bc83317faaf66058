import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { users } from './account';
import { createdAt, id, timestamptz, updatedAt } from './columns';

/**
 * Expert extraction (issue 16). The expert pool is the engine node ZJCQ_ZJK; what must hold whatever its
 * configuration lives here. An extraction moves draft → drawn → confirmed → published; the seed's commitment
 * (SHA-256), the seed and the pool snapshot are written together when the seed is committed — before any draw — and
 * never change afterwards (the service's conditional updates, and checks here that a drawn record has all three).
 */
export const expertExtractions = pgTable(
  'expert_extractions',
  {
    id: id(),
    /** CQ + day + sequence of the day, e.g. CQ20261127-0001 */
    code: varchar('code', { length: 32 }).notNull(),
    projectName: varchar('project_name', { length: 200 }).notNull(),
    sectionName: varchar('section_name', { length: 200 }).notNull(),
    projectRef: varchar('project_ref', { length: 64 }).notNull().default(''),
    location: varchar('location', { length: 200 }).notNull().default(''),
    /** wall-clock times in the platform's zone, YYYY-MM-DD HH:mm (as the engine stores date-times) */
    openingAt: varchar('opening_at', { length: 16 }).notNull(),
    evaluationStartAt: varchar('evaluation_start_at', { length: 16 }).notNull(),
    /** DrawConditions (contracts/experts-rules.ts) */
    conditions: jsonb('conditions').notNull(),
    /** draft | drawn | confirmed | published */
    status: varchar('status', { length: 10 }).notNull().default('draft'),
    seedHash: varchar('seed_hash', { length: 64 }),
    /** the seed (hex); answered to nobody but the extraction administrator until the list is public */
    seed: varchar('seed', { length: 64 }),
    committedAt: timestamptz('committed_at'),
    poolHash: varchar('pool_hash', { length: 64 }),
    /** PoolSnapshot: the draw-relevant facts of every expert, sorted by id (no names, no phones) */
    poolSnapshot: jsonb('pool_snapshot'),
    poolSize: integer('pool_size'),
    /** per line, how many experts were eligible when drawn */
    eligible: jsonb('eligible').$type<number[]>(),
    drawnAt: timestamptz('drawn_at'),
    confirmedAt: timestamptz('confirmed_at'),
    publishedAt: timestamptz('published_at'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: varchar('created_by_name', { length: 64 }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('expert_extractions_code_uq').on(t.code),
    index('expert_extractions_created_idx').on(t.createdAt, t.id),
    index('expert_extractions_status_idx').on(t.status, t.createdAt),
    check('expert_extractions_status_ck', sql`${t.status} in ('draft', 'drawn', 'confirmed', 'published')`),
    check(
      'expert_extractions_commit_ck',
      sql`(${t.seedHash} is null) = (${t.seed} is null) and (${t.seed} is null) = (${t.committedAt} is null) and (${t.seed} is null) = (${t.poolHash} is null) and (${t.seed} is null) = (${t.poolSnapshot} is null)`,
    ),
    check(
      'expert_extractions_drawn_ck',
      sql`${t.status} = 'draft' or (${t.seed} is not null and ${t.drawnAt} is not null)`,
    ),
    check(
      'expert_extractions_hex_ck',
      sql`${t.seed} is null or (${t.seed} ~ '^[0-9a-f]{64}$' and ${t.seedHash} ~ '^[0-9a-f]{64}$')`,
    ),
  ],
);

/**
 * The experts drawn for an extraction, in the order of each line's permutation (`line`, `seq`): the draw's first
 * `count` of a line, then one replacement per decline. The expert's facts are copied as drawn (the printed record).
 */
export const expertExtractionMembers = pgTable(
  'expert_extraction_members',
  {
    id: id(),
    extractionId: uuid('extraction_id')
      .notNull()
      .references(() => expertExtractions.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    seq: integer('seq').notNull(),
    /** the record id of the expert in the pool node (ZJCQ_ZJK) */
    expertId: uuid('expert_id').notNull(),
    specialty: varchar('specialty', { length: 40 }).notNull(),
    name: varchar('name', { length: 40 }).notNull(),
    gender: varchar('gender', { length: 4 }).notNull().default(''),
    phone: varchar('phone', { length: 20 }).notNull().default(''),
    employer: varchar('employer', { length: 200 }).notNull().default(''),
    title: varchar('title', { length: 40 }).notNull().default(''),
    region: varchar('region', { length: 20 }).notNull().default(''),
    /** pending | confirmed | declined */
    answer: varchar('answer', { length: 10 }).notNull().default('pending'),
    note: varchar('note', { length: 500 }).notNull().default(''),
    answeredAt: timestamptz('answered_at'),
    answeredBy: varchar('answered_by', { length: 64 }),
    replacement: boolean('replacement').notNull().default(false),
    drawnAt: timestamptz('drawn_at').notNull(),
  },
  (t) => [
    uniqueIndex('expert_extraction_members_seq_uq').on(t.extractionId, t.line, t.seq),
    uniqueIndex('expert_extraction_members_expert_uq').on(t.extractionId, t.expertId),
    index('expert_extraction_members_recent_idx').on(t.expertId, t.drawnAt),
    check('expert_extraction_members_answer_ck', sql`${t.answer} in ('pending', 'confirmed', 'declined')`),
    check('expert_extraction_members_decline_ck', sql`${t.answer} <> 'declined' or length(btrim(${t.note})) > 0`),
    check('expert_extraction_members_answered_ck', sql`(${t.answer} = 'pending') = (${t.answeredAt} is null)`),
  ],
);
