import { and, eq, gt, inArray, isNull, lt, max } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { liveEvents, sessions, users } from '../../db/schema';

/** The SQL of the live channel: stored events, and which streamed sessions are still live. */

export type LiveEventRow = typeof liveEvents.$inferSelect;

export async function latestEventId(q: DbOrTx): Promise<number> {
  const [row] = await q.select({ id: max(liveEvents.id) }).from(liveEvents);
  return Number(row?.id ?? 0);
}

/** The events of these ids (the payloads of notifications), in id order. */
export function eventsByIds(q: DbOrTx, ids: readonly number[]): Promise<LiveEventRow[]> {
  return q
    .select()
    .from(liveEvents)
    .where(inArray(liveEvents.id, [...ids]))
    .orderBy(liveEvents.id);
}

/** Events stored since `since` (and after id `afterId`), oldest first, at most `limit`. */
export function eventsSince(q: DbOrTx, since: Date, afterId: number, limit: number): Promise<LiveEventRow[]> {
  return q
    .select()
    .from(liveEvents)
    .where(and(gt(liveEvents.createdAt, since), gt(liveEvents.id, afterId)))
    .orderBy(liveEvents.id)
    .limit(limit);
}

/** Forget events older than the replay window. */
export async function deleteEventsBefore(q: DbOrTx, before: Date): Promise<void> {
  await q.delete(liveEvents).where(lt(liveEvents.createdAt, before));
}

/** Of these sessions, the ids still live at `now`: not revoked, not expired, their user active. */
export async function liveSessionIds(q: DbOrTx, ids: readonly string[], now: Date): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await q
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        inArray(sessions.id, [...ids]),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        eq(users.status, 'active'),
      ),
    );
  return new Set(rows.map((r) => r.id));
}
