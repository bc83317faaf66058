import { isValidDate, isValidDateTime } from './dates';
import { VENUE_MESSAGES as M, VENUE_MAX_RANGE_DAYS, VENUE_STATUSES } from './venue-rules';
import { z } from './zod';

/** Schemas of venue booking (issue 16). Rules and messages in venue-rules.ts. */

const noNul = (v: string) => !v.includes('\u0000');
const text = (message: string, max: number) =>
  z
    .string({ error: message })
    .refine(noNul, '不能包含空字符（\\0）')
    .transform((v) => v.trim())
    .pipe(z.string().min(1, message).max(max, `最多 ${max} 个字符`));
const wallClock = z.string({ error: M.invalidTime }).refine(isValidDateTime, M.invalidTime);
const day = z.string({ error: M.rangeInvalid }).refine(isValidDate, M.rangeInvalid);
const days = z.coerce
  .number({ error: M.rangeTooLong })
  .int(M.rangeTooLong)
  .min(1, M.rangeTooLong)
  .max(VENUE_MAX_RANGE_DAYS, M.rangeTooLong)
  .default(7);
const bookingId = z.string({ error: M.bookingMissing }).uuid(M.bookingMissing);
const roomId = z.string({ error: M.roomRequired }).uuid(M.roomMissing);

/** A room as 场地管理 holds it. */
export const venueRoomSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  capacity: z.number().nullable(),
  equipment: z.string().nullable(),
  location: z.string().nullable(),
  enabled: z.boolean(),
});
export type VenueRoom = z.infer<typeof venueRoomSchema>;

export const venueRangeQuerySchema = z.object({ from: day, days });

/** A busy slot of the public availability: a room and a time range, nothing about who booked it. */
export const venueBusySchema = z.strictObject({ roomId: z.string(), startsAt: z.string(), endsAt: z.string() });
export type VenueBusy = z.infer<typeof venueBusySchema>;

export const venueAvailabilitySchema = z.strictObject({
  from: z.string(),
  days: z.number(),
  hours: z.strictObject({ open: z.string(), close: z.string() }),
  rooms: z.array(venueRoomSchema),
  busy: z.array(venueBusySchema),
});
export type VenueAvailability = z.infer<typeof venueAvailabilitySchema>;

export const venueBookingSchema = z.object({
  id: z.string(),
  roomId: z.string(),
  roomName: z.string(),
  sectionId: z.string().nullable(),
  subject: z.string(),
  /** wall clock in the platform's zone, YYYY-MM-DD HH:mm */
  startsAt: z.string(),
  endsAt: z.string(),
  status: z.enum(VENUE_STATUSES),
  bookedBy: z.string(),
  enterpriseName: z.string().nullable(),
  createdAt: z.string(),
  cancelReason: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  version: z.number(),
  /** what the caller may do with it now */
  operations: z.object({ cancel: z.boolean(), move: z.boolean() }),
});
export type VenueBooking = z.infer<typeof venueBookingSchema>;

export const venueBookingListSchema = z.object({
  from: day,
  days,
  roomId: z.string().uuid(M.roomMissing).optional(),
  sectionId: z.string().uuid('标段不存在').optional(),
  /** include cancelled bookings (the calendar shows live ones only) */
  withCancelled: z.boolean().optional(),
});
export type VenueBookingListBody = z.input<typeof venueBookingListSchema>;

export const venueBookingPageSchema = z.object({ records: z.array(venueBookingSchema) });

export const venueBookSchema = z.object({
  roomId,
  startsAt: wallClock,
  endsAt: wallClock,
  subject: text(M.subjectRequired, 200),
  sectionId: z.string().uuid('标段不存在').optional(),
});
export type VenueBookBody = z.input<typeof venueBookSchema>;

export const venueCancelSchema = z.object({
  id: bookingId,
  reason: text(M.reasonRequired, 200),
  version: z.number().int().optional(),
});

export const venueMoveSchema = z.object({
  id: bookingId,
  /** another room (the same one when absent) */
  roomId: roomId.optional(),
  startsAt: wallClock,
  endsAt: wallClock,
  reason: z.string().refine(noNul).max(200, '最多 200 个字符').optional(),
  version: z.number().int().optional(),
});

export const venueHistoryQuerySchema = z.object({ id: bookingId });
export const venueHistoryItemSchema = z.object({
  action: z.string(),
  roomName: z.string().nullable(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  fromRoomName: z.string().nullable(),
  fromStartsAt: z.string().nullable(),
  fromEndsAt: z.string().nullable(),
  reason: z.string().nullable(),
  actorName: z.string(),
  at: z.string(),
});
export type VenueHistoryItem = z.infer<typeof venueHistoryItemSchema>;
export const venueHistorySchema = z.object({ records: z.array(venueHistoryItemSchema) });
export const venueRoomsSchema = z.object({ rooms: z.array(venueRoomSchema) });
