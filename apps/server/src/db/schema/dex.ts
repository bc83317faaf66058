import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz, updatedAt } from './columns';

/**
 * 数据交换 — the outbox of pushes to the upstream public-resource platform (issue 19). One row per business key
 * (`notice:<id>`, `result:<sectionId>`): enqueueing the same key twice keeps one row. `queued` → `sending` (a runner
 * holds it until `lease_until`; a row whose lease ran out is taken again) → `sent`, or back to `queued` with
 * `next_attempt_at` pushed out (exponential back-off), or `failed` after the last attempt.
 */
export const dexOutbox = pgTable(
  'dex_outbox',
  {
    id: id(),
    businessKey: varchar('business_key', { length: 120 }).notNull(),
    kind: varchar('kind', { length: 20 }).notNull(),
    title: varchar('title', { length: 500 }).notNull(),
    payload: jsonb('payload').notNull(),
    status: varchar('status', { length: 10 }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    leaseUntil: timestamptz('lease_until'),
    lastError: text('last_error'),
    lastStatus: smallint('last_status'),
    sentAt: timestamptz('sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('dex_outbox_key_uq').on(t.businessKey),
    index('dex_outbox_due_ix').on(t.status, t.nextAttemptAt),
    check('dex_outbox_status_ck', sql`${t.status} in ('queued','sending','sent','failed')`),
  ],
);

/** Every attempt of a push: when, the HTTP status (null: no answer), how long, and the error. */
export const dexPushAttempts = pgTable(
  'dex_push_attempts',
  {
    id: id(),
    outboxId: uuid('outbox_id')
      .notNull()
      .references(() => dexOutbox.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    startedAt: timestamptz('started_at').notNull(),
    httpStatus: smallint('http_status'),
    durationMs: integer('duration_ms').notNull(),
    ok: boolean('ok').notNull(),
    error: text('error'),
  },
  (t) => [index('dex_push_attempts_outbox_ix').on(t.outboxId, t.attempt)],
);
