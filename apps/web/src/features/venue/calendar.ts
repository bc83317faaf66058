import {
  addDays,
  minutesOf,
  VENUE_HOURS,
  type VenueBooking,
  type VenueBusy,
  type VenueRoom,
  weekdayLabel,
} from '@ks/contracts';

/** Pure helpers of the venue pages (no UI kit): the week's days, cells of rooms × days, a slot's place on a day bar. */

export interface DayColumn {
  date: string;
  /** 周一 11-23 */
  label: string;
  isToday: boolean;
}

export function weekDays(monday: string, today: string, days = 7): DayColumn[] {
  return Array.from({ length: days }, (_, i) => {
    const date = addDays(monday, i);
    return { date, label: `${weekdayLabel(date)} ${date.slice(5)}`, isToday: date === today };
  });
}

/** `2026-11-23 至 2026-11-29` */
export const weekLabel = (monday: string, days = 7) => `${monday} 至 ${addDays(monday, days - 1)}`;

/** What falls on one room and day, by start. */
export function cellOf<T extends { roomId: string; startsAt: string }>(items: T[], roomId: string, date: string): T[] {
  return items
    .filter((b) => b.roomId === roomId && b.startsAt.slice(0, 10) === date)
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt));
}

/** `09:00–10:30` of a booking or busy slot. */
export const timeSpan = (b: { startsAt: string; endsAt: string }) => `${b.startsAt.slice(11)}–${b.endsAt.slice(11)}`;

/** Where a slot sits on a day bar of the opening hours, as percentages (left, width). */
export function barPlace(b: { startsAt: string; endsAt: string }): { left: number; width: number } {
  const open = minutesOf(VENUE_HOURS.open);
  const total = minutesOf(VENUE_HOURS.close) - open;
  const s = Math.max(0, minutesOf(b.startsAt.slice(11)) - open);
  const e = Math.min(total, minutesOf(b.endsAt.slice(11)) - open);
  return { left: (s / total) * 100, width: (Math.max(0, e - s) / total) * 100 };
}

/** Free minutes of a day (opening hours less the busy slots), for the public page's 空闲 hint. */
export function freeMinutes(busy: { startsAt: string; endsAt: string }[]): number {
  const total = minutesOf(VENUE_HOURS.close) - minutesOf(VENUE_HOURS.open);
  const used = busy.reduce((sum, b) => {
    const p = barPlace(b);
    return sum + (p.width / 100) * total;
  }, 0);
  return Math.max(0, Math.round(total - used));
}

/** Do two wall-clock ranges overlap (half-open, as the database holds them)? */
export const overlaps = (a: { startsAt: string; endsAt: string }, b: { startsAt: string; endsAt: string }) =>
  a.startsAt < b.endsAt && b.startsAt < a.endsAt;

/** The room's label in selects: 第一开标室（开标室 · 80 人） */
export const roomLabel = (r: VenueRoom) =>
  `${r.name}（${r.kind}${r.capacity === null ? '' : ` · ${r.capacity} 人`}）${r.enabled ? '' : ' — 已停用'}`;

export type { VenueBooking, VenueBusy };
