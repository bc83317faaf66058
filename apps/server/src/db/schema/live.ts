import { bigserial, index, jsonb, pgTable, varchar } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/** Who an event is for: everyone signed in, or any of the users (ids), roles (codes) and enterprises (ids) named. */
export interface LiveAudience {
  everyone?: boolean;
  users?: string[];
  roles?: string[];
  enterprises?: string[];
}

/**
 * The shell's live events (issue 14): written in the transaction of the change they announce, then
 * `pg_notify('ks_live', id)` — so a process hears of it only once it has committed, and every process (on PostgreSQL)
 * reads the new rows in id order and hands each to its streams whose caller is in the audience. A tab that
 * reconnects with Last-Event-ID gets the rows it missed. Rows older than the replay window are deleted.
 */
export const liveEvents = pgTable(
  'live_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: varchar('type', { length: 32 }).notNull(),
    audience: jsonb('audience').$type<LiveAudience>().notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('live_events_created_idx').on(t.createdAt)],
);
