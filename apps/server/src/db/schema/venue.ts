import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, uuid, varchar } from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { createdAt, id, timestamptz, updatedAt } from './columns';

/**
 * Venue bookings (issue 16). A room is a record of the engine node 场地管理 (`room_id` is its id; engine tables are made
 * at run time, so no foreign key); the room's name is kept as it was when booked. What must hold whatever the
 * configuration is held here: two live bookings of one room never overlap — `venue_bookings_no_overlap`, an exclusion
 * constraint `EXCLUDE USING gist (room_id WITH =, tstzrange(starts_at, ends_at) WITH &&) WHERE (status = 'booked')`
 * (btree_gist), written by hand into migration 0030 since drizzle cannot declare one; the end after the start; a
 * cancellation has its reason.
 */
export const venueBookings = pgTable(
  'venue_bookings',
  {
    id: id(),
    roomId: uuid('room_id').notNull(),
    roomName: varchar('room_name', { length: 100 }).notNull(),
    /** the tender section the booking is for (five-in-one projects), when made from one */
    sectionId: uuid('section_id'),
    subject: varchar('subject', { length: 200 }).notNull(),
    bookedBy: uuid('booked_by')
      .notNull()
      .references(() => users.id),
    bookerName: varchar('booker_name', { length: 64 }).notNull(),
    /** the booker's enterprise (null: the trading centre's own staff) — whose booking it is */
    enterpriseId: uuid('enterprise_id').references(() => enterprises.id),
    startsAt: timestamptz('starts_at').notNull(),
    endsAt: timestamptz('ends_at').notNull(),
    /** booked | cancelled */
    status: varchar('status', { length: 10 }).notNull().default('booked'),
    cancelReason: varchar('cancel_reason', { length: 200 }),
    cancelledAt: timestamptz('cancelled_at'),
    cancelledBy: varchar('cancelled_by', { length: 64 }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('venue_bookings_starts_idx').on(t.startsAt, t.roomId),
    index('venue_bookings_enterprise_idx').on(t.enterpriseId, t.startsAt),
    index('venue_bookings_booker_idx').on(t.bookedBy, t.startsAt),
    index('venue_bookings_section_idx').on(t.sectionId),
    check('venue_bookings_range_ck', sql`${t.endsAt} > ${t.startsAt}`),
    check('venue_bookings_status_ck', sql`${t.status} in ('booked', 'cancelled')`),
    check(
      'venue_bookings_cancel_ck',
      sql`${t.status} <> 'cancelled' or (${t.cancelReason} is not null and length(btrim(${t.cancelReason})) > 0 and ${t.cancelledAt} is not null)`,
    ),
  ],
);

/** What happened to a booking: made, moved (from → to), cancelled; who, when and why. */
export const venueBookingHistory = pgTable(
  'venue_booking_history',
  {
    id: id(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => venueBookings.id, { onDelete: 'cascade' }),
    /** create | move | cancel */
    action: varchar('action', { length: 10 }).notNull(),
    fromRoomId: uuid('from_room_id'),
    fromRoomName: varchar('from_room_name', { length: 100 }),
    fromStartsAt: timestamptz('from_starts_at'),
    fromEndsAt: timestamptz('from_ends_at'),
    roomId: uuid('room_id'),
    roomName: varchar('room_name', { length: 100 }),
    startsAt: timestamptz('starts_at'),
    endsAt: timestamptz('ends_at'),
    reason: varchar('reason', { length: 200 }),
    actorId: uuid('actor_id'),
    actorName: varchar('actor_name', { length: 64 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('venue_booking_history_booking_idx').on(t.bookingId, t.createdAt),
    check('venue_booking_history_action_ck', sql`${t.action} in ('create', 'move', 'cancel')`),
  ],
);
