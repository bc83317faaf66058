import {
  type ApiData,
  addDays,
  instantOfWallClock,
  VENUE_MESSAGES as M,
  VENUE_ACTION_LABELS,
  VENUE_BOOKING_NODE,
  VENUE_HOURS,
  type VenueBooking,
  type VenueHistoryItem,
  venueRangeProblem,
  venueTimeProblem,
  wallClockOf,
} from '@ks/contracts';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { isDeadlock, isExclusionViolation } from '../../db/sql';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { canCall, findNode, type RequestMemo } from '../../platform/permissions';
import type { AuthContext } from '../auth/auth.service';
import { sectionForCaller } from '../tender/tender.service';
import { listRooms, roomById } from './rooms';
import * as repo from './venue.repo';

/**
 * Venue booking (issue 16). Who may do what: administrators (M) see, book, move and cancel everything; developers (D)
 * read everything and change nothing; an enterprise user (U) books with the 新增 function of 场地预约 and sees, moves
 * and cancels only their enterprise's bookings (their own when they have no enterprise) — another's is 404. That two
 * live bookings of one room never overlap is the database's to hold (exclusion constraint, 23P01 → 409): the checks
 * here only give the clearer messages first.
 */

export interface VenueCaller {
  id: string;
  userName: string;
  loginRoleType: string;
  enterpriseId: string | null;
  actor: Actor;
  memo?: RequestMemo;
}

export const venueCallerOf = (auth: AuthContext): VenueCaller => ({
  id: auth.user.id,
  userName: auth.user.userName,
  loginRoleType: auth.user.loginRoleType,
  enterpriseId: auth.user.enterpriseId ?? null,
  actor: auth.actor,
});

const isAdmin = (c: VenueCaller) => c.loginRoleType === 'M';
const scopeOf = (c: VenueCaller): repo.Scope =>
  c.loginRoleType === 'M' || c.loginRoleType === 'D' ? null : { enterpriseId: c.enterpriseId, userId: c.id };

function owns(c: VenueCaller, b: repo.BookingRow): boolean {
  if (isAdmin(c)) return true;
  if (c.loginRoleType !== 'U') return false;
  return c.enterpriseId ? b.enterpriseId === c.enterpriseId : b.enterpriseId === null && b.bookedBy === c.id;
}

/** May the caller book (and so move and cancel their side's bookings)? Administrators, and users granted 新增. */
export async function mayBook(db: Db, c: VenueCaller): Promise<boolean> {
  if (isAdmin(c)) return true;
  if (c.loginRoleType !== 'U') return false;
  const node = await findNode(db, VENUE_BOOKING_NODE);
  return !!node && canCall(db, c, node, 'add');
}

/** The half-open instant range of `days` days from `from` (the platform's calendar). */
function rangeOf(from: string, days: number) {
  const problem = venueRangeProblem(from, days);
  if (problem) throw badRequest(problem);
  return {
    start: instantOfWallClock(`${from} 00:00`),
    end: instantOfWallClock(`${addDays(from, days)} 00:00`),
  };
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function bookingOf(b: repo.BookingRow, c: VenueCaller, canBook: boolean, now: Date): VenueBooking {
  const live = b.status === 'booked' && new Date(b.endsAt) > now && canBook && owns(c, b);
  return {
    id: b.id,
    roomId: b.roomId,
    roomName: b.roomName,
    sectionId: b.sectionId,
    subject: b.subject,
    startsAt: wallClockOf(b.startsAt),
    endsAt: wallClockOf(b.endsAt),
    status: b.status as VenueBooking['status'],
    bookedBy: b.bookerName,
    enterpriseName: b.enterpriseName,
    createdAt: iso(b.createdAt)!,
    cancelReason: b.cancelReason,
    cancelledAt: iso(b.cancelledAt),
    version: b.version,
    operations: { cancel: live, move: live },
  };
}

const span = (startsAt: string, endsAt: string) => `${startsAt}–${endsAt.slice(11)}`;

export async function rooms(db: Db): Promise<ApiData<'venueRooms'>> {
  return { rooms: await listRooms(db) };
}

/** The public availability: enabled rooms and their busy slots, nothing about who booked. */
export async function availability(db: Db, from: string, days: number): Promise<ApiData<'venueAvailability'>> {
  const { start, end } = rangeOf(from, days);
  const [all, busy] = await Promise.all([listRooms(db), repo.busyBetween(db, start, end)]);
  const rooms = all.filter((r) => r.enabled);
  const shown = new Set(rooms.map((r) => r.id));
  return {
    from,
    days,
    hours: { open: VENUE_HOURS.open, close: VENUE_HOURS.close },
    rooms,
    busy: busy
      .filter((b) => shown.has(b.roomId))
      .map((b) => ({ roomId: b.roomId, startsAt: wallClockOf(b.startsAt), endsAt: wallClockOf(b.endsAt) })),
  };
}

export async function list(
  db: Db,
  c: VenueCaller,
  body: { from: string; days: number; roomId?: string; sectionId?: string; withCancelled?: boolean },
  now: Date,
): Promise<ApiData<'venueBookings'>> {
  const { start, end } = rangeOf(body.from, body.days);
  const [rows, canBook] = await Promise.all([
    repo.bookingsBetween(db, start, end, {
      scope: scopeOf(c),
      roomId: body.roomId,
      sectionId: body.sectionId,
      withCancelled: body.withCancelled,
    }),
    mayBook(db, c),
  ]);
  return { records: rows.map((r) => bookingOf(r, c, canBook, now)) };
}

/** The room to book: it exists and is enabled (else 400 with the reason). */
async function bookableRoom(db: DbOrTx, roomId: string) {
  const room = await roomById(db, roomId);
  if (!room) throw badRequest(M.roomMissing);
  if (!room.enabled) throw badRequest(M.roomDisabled);
  return room;
}

function checkTime(startsAt: string, endsAt: string, now: Date) {
  const problem = venueTimeProblem(startsAt, endsAt, wallClockOf(now));
  if (problem) throw badRequest(problem);
  return { start: instantOfWallClock(startsAt), end: instantOfWallClock(endsAt) };
}

/**
 * Runs a change; an overlap the database refuses becomes the 409 the client shows. Concurrent bookings of one slot
 * can deadlock on the exclusion constraint (each waits for the other's uncommitted row): the victim runs again and
 * then meets the winner's committed booking.
 */
async function refusingOverlap<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (isExclusionViolation(e, 'venue_bookings_no_overlap')) throw conflict(M.conflict);
    if (isDeadlock(e) && attempts > 1) return refusingOverlap(work, attempts - 1);
    throw e;
  }
}

export async function book(
  db: Db,
  c: VenueCaller,
  body: { roomId: string; startsAt: string; endsAt: string; subject: string; sectionId?: string },
  now: Date,
): Promise<VenueBooking> {
  const room = await bookableRoom(db, body.roomId);
  const { start, end } = checkTime(body.startsAt, body.endsAt, now);
  // a booking for a tender section is made by the section's project side (or the centre)
  if (body.sectionId) await sectionForCaller(db, c, body.sectionId);
  const who = { id: c.id, name: c.userName };
  const id = await refusingOverlap(() =>
    db.transaction(async (tx) => {
      await repo.lockRoom(tx, room.id);
      const id = await repo.insertBooking(
        tx,
        {
          roomId: room.id,
          roomName: room.name,
          sectionId: body.sectionId ?? null,
          subject: body.subject,
          bookedBy: c.id,
          bookerName: c.userName,
          enterpriseId: isAdmin(c) ? null : c.enterpriseId,
          startsAt: start,
          endsAt: end,
          createdAt: now,
          updatedAt: now,
        },
        who,
      );
      await writeOpLog(tx, c.actor, {
        glName: '场地预约',
        gnCoding: VENUE_BOOKING_NODE,
        recordId: id,
        logbook: `预约${room.name} ${span(body.startsAt, body.endsAt)}（${body.subject}）`,
      });
      return id;
    }),
  );
  return bookingOf((await repo.bookingById(db, id))!, c, true, now);
}

/**
 * The booking the caller may change, locked: 404 when they may not see it, 403 when they see it but may not act, 409
 * when it is no longer live (cancelled, ended, or changed since the caller read it).
 */
async function changeable(tx: Tx, c: VenueCaller, id: string, version: number | undefined, now: Date) {
  const b = await repo.bookingById(tx, id, true);
  if (!b) throw notFound(M.bookingMissing);
  const scope = scopeOf(c);
  if (scope && !owns(c, b)) throw notFound(M.bookingMissing);
  if (!owns(c, b)) throw forbidden(M.notOwner);
  if (b.status !== 'booked') throw conflict(M.notBooked);
  if (version !== undefined && version !== b.version) throw conflict(M.stale);
  if (new Date(b.endsAt) <= now) throw conflict(M.ended);
  return b;
}

export async function cancel(
  db: Db,
  c: VenueCaller,
  body: { id: string; reason: string; version?: number },
  now: Date,
): Promise<VenueBooking> {
  await db.transaction(async (tx) => {
    const b = await changeable(tx, c, body.id, body.version, now);
    const done = await repo.cancelBooking(tx, b, body.reason, now, { id: c.id, name: c.userName });
    if (!done) throw conflict(M.stale);
    await writeOpLog(tx, c.actor, {
      glName: '场地预约',
      gnCoding: VENUE_BOOKING_NODE,
      recordId: b.id,
      logbook: `取消预约${b.roomName} ${span(wallClockOf(b.startsAt), wallClockOf(b.endsAt))}（原因：${body.reason}）`,
    });
  });
  return bookingOf((await repo.bookingById(db, body.id))!, c, true, now);
}

export async function move(
  db: Db,
  c: VenueCaller,
  body: { id: string; roomId?: string; startsAt: string; endsAt: string; reason?: string; version?: number },
  now: Date,
): Promise<VenueBooking> {
  const { start, end } = checkTime(body.startsAt, body.endsAt, now);
  const reason = body.reason?.trim() || null;
  await refusingOverlap(() =>
    db.transaction(async (tx) => {
      const b = await changeable(tx, c, body.id, body.version, now);
      const room = body.roomId && body.roomId !== b.roomId ? await bookableRoom(tx, body.roomId) : null;
      const roomId = room?.id ?? b.roomId;
      const roomName = room?.name ?? b.roomName;
      if (
        roomId === b.roomId &&
        start.getTime() === new Date(b.startsAt).getTime() &&
        end.getTime() === new Date(b.endsAt).getTime()
      ) {
        throw badRequest(M.unchanged);
      }
      await repo.lockRoom(tx, roomId);
      const done = await repo.moveBooking(
        tx,
        b,
        { roomId, roomName, startsAt: start, endsAt: end, reason, now },
        {
          id: c.id,
          name: c.userName,
        },
      );
      if (!done) throw conflict(M.stale);
      const from = `${b.roomName} ${span(wallClockOf(b.startsAt), wallClockOf(b.endsAt))}`;
      await writeOpLog(tx, c.actor, {
        glName: '场地预约',
        gnCoding: VENUE_BOOKING_NODE,
        recordId: b.id,
        logbook: `改期：${from} → ${roomName} ${span(body.startsAt, body.endsAt)}${reason ? `（原因：${reason}）` : ''}`,
      });
    }),
  );
  return bookingOf((await repo.bookingById(db, body.id))!, c, true, now);
}

export async function history(db: Db, c: VenueCaller, id: string): Promise<{ records: VenueHistoryItem[] }> {
  const b = await repo.bookingById(db, id);
  if (!b) throw notFound(M.bookingMissing);
  const scope = scopeOf(c);
  if (scope && !owns(c, b)) throw notFound(M.bookingMissing);
  const rows = await repo.historyOf(db, id);
  const wc = (d: Date | null) => (d ? wallClockOf(d) : null);
  return {
    records: rows.map((h) => ({
      action: VENUE_ACTION_LABELS[h.action] ?? h.action,
      roomName: h.roomName,
      startsAt: wc(h.startsAt),
      endsAt: wc(h.endsAt),
      fromRoomName: h.fromRoomName,
      fromStartsAt: wc(h.fromStartsAt),
      fromEndsAt: wc(h.fromEndsAt),
      reason: h.reason,
      actorName: h.actorName,
      at: wallClockOf(h.createdAt),
    })),
  };
}
