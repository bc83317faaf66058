import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

/**
 * The platform's calendar, zod-free, shared by the server and the web: which day "today" is, what a stored date or
 * date-time looks like, and how an instant reads. One setting decides the zone — the server's APP_TZ, which the web
 * reads from index.html — so a browser or a server elsewhere on the planet agrees on the day with everyone else.
 *
 * Stored values are wall-clock text in that zone: a date is `YYYY-MM-DD`, a date-time `YYYY-MM-DD HH:mm` (the
 * engine's `date` / `timestamp` columns, which carry no zone). Instants (created / updated times, ISO strings) are
 * shown in the zone with `formatIn`.
 */

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(customParseFormat);

/** The zone when APP_TZ is not set: China Standard Time, the calendar of the platform's users. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm';

/**
 * The IANA name of a zone the runtime knows, in its canonical spelling (`asia/shanghai` → `Asia/Shanghai`), or null:
 * offsets (`+08:00`, `GMT+8`) and unknown names are not zones.
 */
export function canonicalTimeZone(tz: unknown): string | null {
  if (typeof tz !== 'string' || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const isTimeZone = (tz: unknown): tz is string => canonicalTimeZone(tz) !== null;

let current = DEFAULT_TIME_ZONE;

/**
 * Sets the zone every date rule of this process (server) or page (web) uses by default. The server calls it with
 * APP_TZ when it builds the app; the web with the zone the server wrote into index.html. An invalid name is refused.
 */
export function setAppTimeZone(tz: string): void {
  const canonical = canonicalTimeZone(tz);
  if (!canonical) throw new RangeError(`not a time zone: ${tz}`);
  current = canonical;
}

/** The platform's zone (DEFAULT_TIME_ZONE until setAppTimeZone is called). */
export const appTimeZone = (): string => current;

type Instant = Date | number | string;

/**
 * Formatters that tell a zone's wall clock, one per zone. The timezone plugin's `.tz()` builds one per call (through
 * toLocaleString, ≈50 µs — 2.5 s for an export of 50,000 rows); this one is made once.
 */
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC, in minutes, at an instant (ms). */
function offsetAt(ms: number, tz: string): number {
  let dtf = wallClocks.get(tz);
  if (!dtf) {
    dtf = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClocks.set(tz, dtf);
  }
  const p: Record<string, number> = {};
  for (const { type, value } of dtf.formatToParts(ms)) p[type] = Number(value);
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!);
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** An instant as text in a zone (the app's by default), e.g. formatIn(date, 'YYYY-MM-DD HH:mm:ss'). */
export function formatIn(instant: Instant, format: string, tz: string = current): string {
  const d = dayjs(instant);
  if (!d.isValid()) return d.format(format);
  return d.utcOffset(offsetAt(d.valueOf(), tz)).format(format);
}

/** The day of an instant in the zone: YYYY-MM-DD. */
export const dateIn = (instant: Instant, tz: string = current) => formatIn(instant, DATE_FORMAT, tz);
/** The minute of an instant in the zone: YYYY-MM-DD HH:mm. */
export const dateTimeIn = (instant: Instant, tz: string = current) => formatIn(instant, DATETIME_FORMAT, tz);

/** Today in the platform's zone: YYYY-MM-DD. */
export const appToday = (now: Date | number = Date.now(), tz: string = current) => dateIn(now, tz);
/** Now in the platform's zone, to the minute: YYYY-MM-DD HH:mm. */
export const appNow = (now: Date | number = Date.now(), tz: string = current) => dateTimeIn(now, tz);

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_SHAPE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

/** YYYY-MM-DD, a real calendar day from the year 1000 on. */
export function isValidDate(s: unknown): boolean {
  return typeof s === 'string' && DATE_SHAPE.test(s) && s >= '1000' && dayjs(s, DATE_FORMAT, true).isValid();
}

/** YYYY-MM-DD HH:mm (16 characters, spec §5), a real day and a time 00:00–23:59. */
export function isValidDateTime(s: unknown): boolean {
  return typeof s === 'string' && DATETIME_SHAPE.test(s) && s >= '1000' && dayjs(s, DATETIME_FORMAT, true).isValid();
}

const WALL_CLOCK = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?)?$/;

/**
 * A date or date-time column's text as the engine stores and answers it: `YYYY-MM-DD` for a date, `YYYY-MM-DD HH:mm`
 * for a date-time (PostgreSQL writes `YYYY-MM-DD HH:mm:ss`, seconds that the form never sets). Text of another shape is
 * returned as it is, for validation to refuse.
 */
export function wallClockText(kind: 'date' | 'datetime', value: string): string {
  const m = WALL_CLOCK.exec(value.trim());
  if (!m) return value;
  if (kind === 'date') return m[1]!;
  return `${m[1]} ${m[2] ?? '00:00'}`;
}
