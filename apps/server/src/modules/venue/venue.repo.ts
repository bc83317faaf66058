import { and, asc, eq, gt, lt, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { enterprises, venueBookingHistory, venueBookings } from '../../db/schema';

/** Queries of venue bookings (no SQL in the service). Time ranges are half-open: [starts_at, ends_at). */

export type BookingRow = typeof venueBookings.$inferSelect & { enterpriseName: string | null };

const bookingColumns = {
  id: venueBookings.id,
  roomId: venueBookings.roomId,
  roomName: venueBookings.roomName,
  sectionId: venueBookings.sectionId,
  subject: venueBookings.subject,
  bookedBy: venueBookings.bookedBy,
  bookerName: venueBookings.bookerName,
  enterpriseId: venueBookings.enterpriseId,
  startsAt: venueBookings.startsAt,
  endsAt: venueBookings.endsAt,
  status: venueBookings.status,
  cancelReason: venueBookings.cancelReason,
  cancelledAt: venueBookings.cancelledAt,
  cancelledBy: venueBookings.cancelledBy,
  version: venueBookings.version,
  createdAt: venueBookings.createdAt,
  updatedAt: venueBookings.updatedAt,
  enterpriseName: enterprises.name,
};

/** Whose bookings a caller sees: null = all; else their enterprise's, or their own when they have none. */
export type Scope = null | { enterpriseId: string | null; userId: string };

function scopeCondition(scope: Scope): SQL | undefined {
  if (!scope) return undefined;
  return scope.enterpriseId
    ? eq(venueBookings.enterpriseId, scope.enterpriseId)
    : and(eq(venueBookings.bookedBy, scope.userId), sql`${venueBookings.enterpriseId} is null`);
}

/** Bookings overlapping [from, to), in the scope, by start and room. */
export async function bookingsBetween(
  q: DbOrTx,
  from: Date,
  to: Date,
  opts: { scope: Scope; roomId?: string; sectionId?: string; withCancelled?: boolean },
): Promise<BookingRow[]> {
  return q
    .select(bookingColumns)
    .from(venueBookings)
    .leftJoin(enterprises, eq(enterprises.id, venueBookings.enterpriseId))
    .where(
      and(
        lt(venueBookings.startsAt, to),
        gt(venueBookings.endsAt, from),
        opts.withCancelled ? undefined : eq(venueBookings.status, 'booked'),
        opts.roomId ? eq(venueBookings.roomId, opts.roomId) : undefined,
        opts.sectionId ? eq(venueBookings.sectionId, opts.sectionId) : undefined,
        scopeCondition(opts.scope),
      ),
    )
    .orderBy(asc(venueBookings.startsAt), asc(venueBookings.roomName), asc(venueBookings.id))
    .limit(5000);
}

/** Live bookings overlapping [from, to): room and time only (the public availability). */
export async function busyBetween(q: DbOrTx, from: Date, to: Date) {
  return q
    .select({ roomId: venueBookings.roomId, startsAt: venueBookings.startsAt, endsAt: venueBookings.endsAt })
    .from(venueBookings)
    .where(and(eq(venueBookings.status, 'booked'), lt(venueBookings.startsAt, to), gt(venueBookings.endsAt, from)))
    .orderBy(asc(venueBookings.startsAt), asc(venueBookings.roomId))
    .limit(5000);
}

export async function bookingById(q: DbOrTx, id: string, lock = false): Promise<BookingRow | null> {
  const base = q
    .select(bookingColumns)
    .from(venueBookings)
    .leftJoin(enterprises, eq(enterprises.id, venueBookings.enterpriseId))
    .where(eq(venueBookings.id, id));
  const [row] = lock ? await base.for('update', { of: venueBookings }) : await base;
  return row ?? null;
}

export type NewBooking = typeof venueBookings.$inferInsert;

/** Inserts a booking (the exclusion constraint refuses an overlap: 23P01) and its history line. */
/**
 * Takes the room's booking lock until the transaction ends: bookings of one room are written one at a time. The
 * exclusion constraint still decides overlaps; the lock keeps concurrent writers from deadlocking on it (each waiting
 * for the other's uncommitted row).
 */
export async function lockRoom(tx: DbOrTx, roomId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`venue-room:${roomId}`}, 0))`);
}

export async function insertBooking(tx: DbOrTx, b: NewBooking, actor: { id: string | null; name: string }) {
  const [row] = await tx.insert(venueBookings).values(b).returning({ id: venueBookings.id });
  await tx.insert(venueBookingHistory).values({
    bookingId: row!.id,
    action: 'create',
    roomId: b.roomId,
    roomName: b.roomName,
    startsAt: b.startsAt,
    endsAt: b.endsAt,
    actorId: actor.id,
    actorName: actor.name,
  });
  return row!.id;
}

/** Moves a live booking still at `version`; null when it is not (any more). */
export async function moveBooking(
  tx: DbOrTx,
  before: BookingRow,
  to: { roomId: string; roomName: string; startsAt: Date; endsAt: Date; reason: string | null; now: Date },
  actor: { id: string | null; name: string },
) {
  const [row] = await tx
    .update(venueBookings)
    .set({
      roomId: to.roomId,
      roomName: to.roomName,
      startsAt: to.startsAt,
      endsAt: to.endsAt,
      version: sql`${venueBookings.version} + 1`,
      updatedAt: to.now,
    })
    .where(
      and(
        eq(venueBookings.id, before.id),
        eq(venueBookings.status, 'booked'),
        eq(venueBookings.version, before.version),
      ),
    )
    .returning({ id: venueBookings.id });
  if (!row) return null;
  await tx.insert(venueBookingHistory).values({
    bookingId: before.id,
    action: 'move',
    fromRoomId: before.roomId,
    fromRoomName: before.roomName,
    fromStartsAt: before.startsAt,
    fromEndsAt: before.endsAt,
    roomId: to.roomId,
    roomName: to.roomName,
    startsAt: to.startsAt,
    endsAt: to.endsAt,
    reason: to.reason,
    actorId: actor.id,
    actorName: actor.name,
  });
  return row.id;
}

/** Cancels a live booking still at `version`; null when it is not (any more). */
export async function cancelBooking(
  tx: DbOrTx,
  before: BookingRow,
  reason: string,
  now: Date,
  actor: { id: string | null; name: string },
) {
  const [row] = await tx
    .update(venueBookings)
    .set({
      status: 'cancelled',
      cancelReason: reason,
      cancelledAt: now,
      cancelledBy: actor.name,
      version: sql`${venueBookings.version} + 1`,
      updatedAt: now,
    })
    .where(
      and(
        eq(venueBookings.id, before.id),
        eq(venueBookings.status, 'booked'),
        eq(venueBookings.version, before.version),
      ),
    )
    .returning({ id: venueBookings.id });
  if (!row) return null;
  await tx.insert(venueBookingHistory).values({
    bookingId: before.id,
    action: 'cancel',
    fromRoomId: before.roomId,
    fromRoomName: before.roomName,
    fromStartsAt: before.startsAt,
    fromEndsAt: before.endsAt,
    reason,
    actorId: actor.id,
    actorName: actor.name,
  });
  return row.id;
}

export async function historyOf(q: DbOrTx, bookingId: string) {
  return q
    .select()
    .from(venueBookingHistory)
    .where(eq(venueBookingHistory.bookingId, bookingId))
    .orderBy(asc(venueBookingHistory.createdAt), asc(venueBookingHistory.id));
}
