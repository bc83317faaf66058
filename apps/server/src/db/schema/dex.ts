import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
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

/**
 * 监管审核 — a pull of enterprise registrations from the upstream (issue 19): a job a process runs in the background
 * (`queued` → `running` under a lease → `done` | `failed`). It pages through the upstream first (`phase` fetching, with
 * `fetched` of `total`), then writes everything in one transaction (applying) — a failed pull writes nothing. At most
 * one job is queued or running (partial unique index). `cursor` is the newest upstream `updated_at` it saw: the next
 * incremental pull asks for what changed since then.
 */
export const dexSyncJobs = pgTable(
  'dex_sync_jobs',
  {
    id: id(),
    status: varchar('status', { length: 10 }).notNull().default('queued'),
    full: boolean('full').notNull().default(false),
    phase: varchar('phase', { length: 10 }),
    since: timestamptz('since'),
    cursor: timestamptz('cursor'),
    pages: integer('pages').notNull().default(0),
    fetched: integer('fetched').notNull().default(0),
    total: integer('total'),
    newCount: integer('new_count').notNull().default(0),
    changedCount: integer('changed_count').notNull().default(0),
    unchangedCount: integer('unchanged_count').notNull().default(0),
    rejectedCount: integer('rejected_count').notNull().default(0),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: timestamptz('lease_until'),
    startedById: uuid('started_by_id').references(() => users.id),
    startedByName: varchar('started_by_name', { length: 64 }).notNull(),
    createdAt: createdAt(),
    startedAt: timestamptz('started_at'),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    uniqueIndex('dex_sync_jobs_active_uq').on(sql`(true)`).where(sql`${t.status} in ('queued', 'running')`),
    index('dex_sync_jobs_created_ix').on(t.createdAt),
    check('dex_sync_jobs_status_ck', sql`${t.status} in ('queued','running','done','failed')`),
  ],
);

/**
 * The registrations pulled from the upstream, one row per upstream id (a re-pull updates it, never duplicates it). The
 * typed columns hold the last pulled values (for a record refused at intake: as far as they fit); `raw` the record as
 * received. `state` is the review: pending (new or changed, waiting) → approved (written into `enterprises`) or
 * dismissed (with a reason); invalid: refused at intake (`reason`). `diff` is what the last sync changed. Nothing here
 * changes `enterprises` until an administrator approves it.
 */
export const dexRegistrations = pgTable(
  'dex_registrations',
  {
    id: id(),
    upstreamId: varchar('upstream_id', { length: 64 }).notNull(),
    name: varchar('name', { length: 200 }).notNull(),
    creditCode: varchar('credit_code', { length: 64 }).notNull(),
    legalPerson: varchar('legal_person', { length: 50 }),
    registeredCapital: numeric('registered_capital', { precision: 16, scale: 2 }),
    region: varchar('region', { length: 50 }),
    address: varchar('address', { length: 200 }),
    establishedAt: date('established_at'),
    entType: varchar('ent_type', { length: 40 }),
    regType: varchar('reg_type', { length: 20 }),
    regStatus: varchar('reg_status', { length: 20 }),
    upstreamUpdatedAt: timestamptz('upstream_updated_at'),
    raw: jsonb('raw').notNull(),
    state: varchar('state', { length: 10 }).notNull(),
    lastChange: varchar('last_change', { length: 10 }).notNull(),
    reason: text('reason'),
    diff: jsonb('diff').notNull().default([]),
    enterpriseId: uuid('enterprise_id').references(() => enterprises.id),
    version: integer('version').notNull().default(1),
    lastJobId: uuid('last_job_id').references(() => dexSyncJobs.id),
    decidedById: uuid('decided_by_id').references(() => users.id),
    decidedByName: varchar('decided_by_name', { length: 64 }),
    decidedAt: timestamptz('decided_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('dex_registrations_upstream_uq').on(t.upstreamId),
    index('dex_registrations_state_ix').on(t.state, t.updatedAt, t.id),
    index('dex_registrations_updated_ix').on(t.upstreamUpdatedAt, t.id),
    index('dex_registrations_credit_ix').on(t.creditCode),
    check('dex_registrations_state_ck', sql`${t.state} in ('pending','approved','dismissed','invalid')`),
    check('dex_registrations_change_ck', sql`${t.lastChange} in ('new','changed','unchanged','rejected')`),
    // a dismissal says why
    check('dex_registrations_reason_ck', sql`${t.state} not in ('dismissed','invalid') or ${t.reason} is not null`),
  ],
);

/**
 * The registration-audit log (append-only): per sync one row for every record it received — new, changed (with the
 * field diff), unchanged, rejected (with the reason; `registration_id` null when the record had no upstream id) — and
 * one row per administrator's decision (approved with what it changed in `enterprises`, dismissed with the reason).
 */
export const dexRegAudits = pgTable(
  'dex_reg_audits',
  {
    id: id(),
    registrationId: uuid('registration_id').references(() => dexRegistrations.id, { onDelete: 'cascade' }),
    jobId: uuid('job_id').references(() => dexSyncJobs.id),
    upstreamId: varchar('upstream_id', { length: 64 }),
    action: varchar('action', { length: 10 }).notNull(),
    diff: jsonb('diff').notNull().default([]),
    reason: text('reason'),
    actorId: uuid('actor_id').references(() => users.id),
    actorName: varchar('actor_name', { length: 64 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('dex_reg_audits_registration_ix').on(t.registrationId, t.createdAt),
    index('dex_reg_audits_job_ix').on(t.jobId),
    check(
      'dex_reg_audits_action_ck',
      sql`${t.action} in ('new','changed','unchanged','rejected','approved','dismissed')`,
    ),
  ],
);
