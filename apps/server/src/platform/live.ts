import type { LiveEventType } from '@ks/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { type LiveAudience, liveEvents } from '../db/schema';

export type { LiveAudience };

/** The channel of `pg_notify` that tells every process a live event was committed (payload: its id). */
export const LIVE_CHANNEL = 'ks_live';

/**
 * Announce a change to the signed-in tabs of its audience (issue 14's one event channel). Call it inside the
 * transaction that makes the change: the event is stored with it and delivered only once it commits — to this
 * process's streams and, through LISTEN/NOTIFY, to every other process on the database. `data` says what changed
 * (ids, codes), never what the reader may not see: the page re-reads through the API, which checks access.
 * An empty audience is a no-op.
 */
export async function publishEvent(
  q: DbOrTx,
  audience: LiveAudience,
  type: LiveEventType,
  data: Record<string, unknown> = {},
): Promise<void> {
  const a: LiveAudience = audience.everyone
    ? { everyone: true }
    : {
        ...(audience.users?.length ? { users: [...new Set(audience.users)] } : {}),
        ...(audience.roles?.length ? { roles: [...new Set(audience.roles)] } : {}),
        ...(audience.enterprises?.length ? { enterprises: [...new Set(audience.enterprises)] } : {}),
      };
  if (!a.everyone && !a.users && !a.roles && !a.enterprises) return;
  const [row] = await q.insert(liveEvents).values({ type, audience: a, data }).returning({ id: liveEvents.id });
  await q.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${String(row!.id)})`);
}
