import { sql } from 'drizzle-orm';
import { bigint, char, check, date, index, integer, pgTable, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

/**
 * The tamper-evident log of opening and evaluation (开评标日志, issue 17): one chain for the whole platform, append-only
 * (a trigger refuses every UPDATE and DELETE), each entry carrying the SHA-256 of the entry before it and its own
 * hash over its sequence number, that previous hash, its time, kind, section, actor and canonical JSON payload. A
 * change to any stored entry — or to the whole chain after it — no longer verifies (`modules/ledger`).
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    /** 1, 2, 3 … with no gap: the position in the chain */
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    /** SHA-256 (hex) of the entry before; 64 zeros for the first */
    prevHash: char('prev_hash', { length: 64 }).notNull(),
    hash: char('hash', { length: 64 }).notNull(),
    at: timestamptz('at').notNull(),
    /** what happened: opening.start, bid.decrypted, score.submitted … */
    kind: varchar('kind', { length: 40 }).notNull(),
    /** the tender section it concerns (no FK: the log outlives any row it names) */
    sectionId: uuid('section_id'),
    actorId: uuid('actor_id'),
    actorName: varchar('actor_name', { length: 64 }).notNull(),
    /** the event's data as canonical JSON (keys sorted): exactly the text that was hashed */
    payload: text('payload').notNull(),
  },
  (t) => [
    index('ledger_entries_section_idx').on(t.sectionId, t.seq),
    check('ledger_entries_seq_ck', sql`${t.seq} >= 1`),
    check('ledger_entries_hash_ck', sql`${t.hash} ~ '^[0-9a-f]{64}$' and ${t.prevHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/** The chain's head (one row, id 1): locked by every append, so entries are numbered in commit order. */
export const ledgerHead = pgTable(
  'ledger_head',
  {
    id: integer('id').primaryKey(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    hash: char('hash', { length: 64 }).notNull(),
  },
  (t) => [check('ledger_head_one_ck', sql`${t.id} = 1`)],
);

/**
 * Daily anchors: the head of the chain at the end of a day on the centre's calendar, published on the portal. A chain
 * rewritten from some entry on (every hash recomputed) still verifies by itself, but no longer ends in the published
 * anchors.
 */
export const ledgerAnchors = pgTable('ledger_anchors', {
  day: date('day').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: char('hash', { length: 64 }).notNull(),
  publishedAt: timestamptz('published_at').notNull(),
});
