import { sql } from 'drizzle-orm';
import {
  char,
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
import { tenderSections } from './tender';

/**
 * The opening of a section (开标, issue 17): made when the host starts it at or after the bid deadline. `failed` is a
 * section that could not open (fewer than 3 sealed bids: re-tender). The order seed is drawn at the start and only its
 * SHA-256 shown (and logged) until the order is drawn, when the seed itself is revealed.
 */
export const bidOpenings = pgTable(
  'bid_openings',
  {
    sectionId: uuid('section_id')
      .primaryKey()
      .references(() => tenderSections.id),
    /** decrypting | reading | confirming | closed | failed */
    status: varchar('status', { length: 12 }).notNull(),
    hostId: uuid('host_id')
      .notNull()
      .references(() => users.id),
    startedAt: timestamptz('started_at').notNull(),
    decryptMinutes: integer('decrypt_minutes'),
    decryptDeadline: timestamptz('decrypt_deadline'),
    seed: char('seed', { length: 64 }),
    seedCommitment: char('seed_commitment', { length: 64 }),
    drawnAt: timestamptz('drawn_at'),
    /** 评审系数 K drawn with the order: the candidates offered and the value drawn */
    kCandidates: jsonb('k_candidates'),
    kValue: numeric('k_value', { precision: 4, scale: 2 }),
    closedAt: timestamptz('closed_at'),
    failureReason: varchar('failure_reason', { length: 200 }),
  },
  (t) => [
    check('bid_openings_status_ck', sql`${t.status} in ('decrypting', 'reading', 'confirming', 'closed', 'failed')`),
    check(
      'bid_openings_started_ck',
      sql`${t.status} = 'failed' or (${t.decryptDeadline} is not null and ${t.seed} is not null and ${t.seedCommitment} is not null)`,
    ),
  ],
);

/** Sign-ins (签到) of bidding enterprises in a section's hall: one per enterprise. */
export const bidOpeningSignins = pgTable(
  'bid_opening_signins',
  {
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    signedAt: timestamptz('signed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sectionId, t.enterpriseId] })],
);

/**
 * Each sealed bid of an opening: pending until its bidder hands over the file key (decrypted: the server checked the
 * hashes and opened the 开标一览表), or late (excluded when the order is drawn, with the reason). The 开标一览表 is
 * kept here but answered only once it has been read out (`read_at`).
 */
export const bidOpeningBids = pgTable(
  'bid_opening_bids',
  {
    bidId: uuid('bid_id')
      .primaryKey()
      .references(() => bidFiles.id),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    /** pending | decrypted | late */
    status: varchar('status', { length: 10 }).notNull().default('pending'),
    decryptedAt: timestamptz('decrypted_at'),
    reason: varchar('reason', { length: 200 }),
    /** the decrypted plaintext, stored under a generated key (for evaluation) */
    plainStorageKey: varchar('plain_storage_key', { length: 100 }),
    price: numeric('price', { precision: 15, scale: 2, mode: 'number' }),
    durationDays: integer('duration_days'),
    quality: varchar('quality', { length: 50 }),
    manager: varchar('manager', { length: 20 }),
    readOrder: integer('read_order'),
    readAt: timestamptz('read_at'),
  },
  (t) => [
    index('bid_opening_bids_section_idx').on(t.sectionId),
    uniqueIndex('bid_opening_bids_order_uq').on(t.sectionId, t.readOrder),
    check('bid_opening_bids_status_ck', sql`${t.status} in ('pending', 'decrypted', 'late')`),
    check(
      'bid_opening_bids_decrypted_ck',
      sql`${t.status} <> 'decrypted' or (${t.decryptedAt} is not null and ${t.price} is not null and ${t.plainStorageKey} is not null)`,
    ),
    check(
      'bid_opening_bids_read_ck',
      sql`${t.readAt} is null or (${t.status} = 'decrypted' and ${t.readOrder} is not null)`,
    ),
  ],
);

/** Bidders' confirmations of the reading (确认) and objections (异议) with the host's answers. */
export const bidOpeningResponses = pgTable(
  'bid_opening_responses',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** confirm | objection */
    kind: varchar('kind', { length: 10 }).notNull(),
    text: text('text'),
    at: createdAt(),
    answer: text('answer'),
    answeredAt: timestamptz('answered_at'),
    answeredBy: uuid('answered_by').references(() => users.id),
  },
  (t) => [
    index('bid_opening_responses_section_idx').on(t.sectionId, t.at),
    uniqueIndex('bid_opening_responses_confirm_uq').on(t.sectionId, t.enterpriseId).where(sql`${t.kind} = 'confirm'`),
    check('bid_opening_responses_kind_ck', sql`${t.kind} in ('confirm', 'objection')`),
    check('bid_opening_responses_text_ck', sql`${t.kind} = 'confirm' or ${t.text} is not null`),
  ],
);
