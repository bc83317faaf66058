import { DATETIME_FORMAT, formatIn, isValidDate, isValidDateTime } from './dates';

/**
 * Venue booking (场地预约, issue 16): the rules both sides run, zod-free so the web bundles them alone. Rooms are the
 * records of the engine node VENUE_ROOM_NODE (场地管理); bookings live in the venue module's own table, where the
 * database refuses two live bookings of one room that overlap (an exclusion constraint).
 */

export const VENUE_SYSTEM = 'CDYY';
/** 场地管理: the rooms, an engine node whose fields the seed configures. */
export const VENUE_ROOM_NODE = 'CDYY_CDGL';
/** 场地预约: the booking node (node property `venue`); its 新增 grant lets an ordinary user book. */
export const VENUE_BOOKING_NODE = 'CDYY_CDYY';

/** The kinds of room (the engine field `lx`: value = label). */
export const VENUE_KINDS = ['开标室', '评标室'] as const;
export type VenueKind = (typeof VENUE_KINDS)[number];

/** Opening hours of the trading centre, every day, in the platform's time zone. */
export const VENUE_HOURS = { open: '08:00', close: '18:00' } as const;
/** Bookings start and end on the half hour. */
export const VENUE_SLOT_MINUTES = 30;
/** How far ahead one may book. */
export const VENUE_BOOK_AHEAD_DAYS = 90;
/** The longest range one availability or booking query covers. */
export const VENUE_MAX_RANGE_DAYS = 31;

export const VENUE_STATUSES = ['booked', 'cancelled'] as const;
export type VenueStatus = (typeof VENUE_STATUSES)[number];
export const VENUE_STATUS_LABELS: Record<VenueStatus, string> = { booked: '已预约', cancelled: '已取消' };
export const VENUE_ACTION_LABELS: Record<string, string> = { create: '预约', move: '改期', cancel: '取消' };

export const VENUE_MESSAGES = {
  conflict: '该场地在所选时段已被预约',
  invalidTime: '请选择有效的预约时间（YYYY-MM-DD HH:mm）',
  endBeforeStart: '结束时间须晚于开始时间',
  sameDay: '预约的开始与结束须在同一天',
  outsideHours: `预约时间须在开放时间 ${VENUE_HOURS.open}–${VENUE_HOURS.close} 之内`,
  slot: `预约时间须为整点或半点（以 ${VENUE_SLOT_MINUTES} 分钟为单位）`,
  past: '不能预约已经过去的时间',
  tooFar: `最多可提前 ${VENUE_BOOK_AHEAD_DAYS} 天预约`,
  roomRequired: '请选择场地',
  roomMissing: '场地不存在',
  roomDisabled: '该场地已停用，不可预约',
  subjectRequired: '请输入预约事由',
  reasonRequired: '请输入取消原因',
  bookingMissing: '预约不存在',
  notBooked: '该预约已取消，不能再修改',
  notOwner: '只能取消或改期本单位的预约',
  ended: '该预约已结束，不能取消或改期',
  unchanged: '新的场地与时段与原预约相同',
  stale: '预约已被修改，请刷新后重试',
  rangeInvalid: '请选择有效的日期',
  rangeTooLong: `一次最多查询 ${VENUE_MAX_RANGE_DAYS} 天`,
} as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** The day `n` days after `date` (YYYY-MM-DD; calendar arithmetic, no time zone involved). */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** The Monday of the week of `date`. */
export function weekStartOf(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const dow = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return addDays(date, -((dow + 6) % 7));
}

/** 周一…周日 of a day. */
export function weekdayLabel(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return ['周日', '周一', '周二', '周三', '周四', '周五', '周六'][new Date(Date.UTC(y, m - 1, d)).getUTCDay()]!;
}

/** Minutes since midnight of HH:mm. */
export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
/** HH:mm of minutes since midnight. */
export const hhmmOf = (minutes: number): string => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

/** The half-hour marks of the opening hours (08:00, 08:30 … 18:00). */
export function venueTimeMarks(): string[] {
  const marks: string[] = [];
  for (let m = minutesOf(VENUE_HOURS.open); m <= minutesOf(VENUE_HOURS.close); m += VENUE_SLOT_MINUTES) {
    marks.push(hhmmOf(m));
  }
  return marks;
}

/** The zone's offset from UTC in minutes at an instant (ms). */
function offsetMinutes(ms: number, tz?: string): number {
  const z = formatIn(ms, 'Z', tz);
  const sign = z.startsWith('-') ? -1 : 1;
  return sign * (Number(z.slice(1, 3)) * 60 + Number(z.slice(4, 6)));
}

/** The instant of a wall-clock time `YYYY-MM-DD HH:mm` in the zone (the app's by default). */
export function instantOfWallClock(wall: string, tz?: string): Date {
  const [date, time] = wall.split(' ') as [string, string];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d, Number(time.slice(0, 2)), Number(time.slice(3, 5)));
  let ms = guess - offsetMinutes(guess, tz) * 60_000;
  const again = guess - offsetMinutes(ms, tz) * 60_000;
  if (again !== ms) ms = again;
  return new Date(ms);
}

/** An instant as the wall clock of the zone: YYYY-MM-DD HH:mm. */
export const wallClockOf = (instant: Date | number | string, tz?: string): string =>
  formatIn(instant, DATETIME_FORMAT, tz);

/**
 * What is wrong with a booking's time range (wall-clock `YYYY-MM-DD HH:mm` in the platform's zone), or null: a real
 * time, start before end on one day, on the half hour, inside the opening hours, not in the past (`now`, the same
 * wall clock) and at most VENUE_BOOK_AHEAD_DAYS ahead.
 */
export function venueTimeProblem(startsAt: string, endsAt: string, now: string): string | null {
  if (!isValidDateTime(startsAt) || !isValidDateTime(endsAt)) return VENUE_MESSAGES.invalidTime;
  if (endsAt <= startsAt) return VENUE_MESSAGES.endBeforeStart;
  if (startsAt.slice(0, 10) !== endsAt.slice(0, 10)) return VENUE_MESSAGES.sameDay;
  const s = minutesOf(startsAt.slice(11));
  const e = minutesOf(endsAt.slice(11));
  if (s % VENUE_SLOT_MINUTES !== 0 || e % VENUE_SLOT_MINUTES !== 0) return VENUE_MESSAGES.slot;
  if (s < minutesOf(VENUE_HOURS.open) || e > minutesOf(VENUE_HOURS.close)) return VENUE_MESSAGES.outsideHours;
  if (startsAt < now) return VENUE_MESSAGES.past;
  if (startsAt.slice(0, 10) > addDays(now.slice(0, 10), VENUE_BOOK_AHEAD_DAYS)) return VENUE_MESSAGES.tooFar;
  return null;
}

/** Is `from` a real day and `days` within 1..VENUE_MAX_RANGE_DAYS? (the message, or null) */
export function venueRangeProblem(from: string, days: number): string | null {
  if (!isValidDate(from)) return VENUE_MESSAGES.rangeInvalid;
  if (!Number.isInteger(days) || days < 1 || days > VENUE_MAX_RANGE_DAYS) return VENUE_MESSAGES.rangeTooLong;
  return null;
}
