import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import { accountLockedMessage } from './codes';
import {
  appNow,
  appTimeZone,
  appToday,
  canonicalTimeZone,
  DATE_FORMAT,
  DEFAULT_TIME_ZONE,
  dateIn,
  formatIn,
  isTimeZone,
  isValidDate,
  isValidDateTime,
  setAppTimeZone,
  wallClockText,
} from './dates';

afterEach(() => setAppTimeZone(DEFAULT_TIME_ZONE));

// 2026-01-01T17:00Z is 01:00 on 2 January in Beijing and still 1 January in UTC and New York
const LATE = new Date('2026-01-01T17:00:00Z');

describe('the platform’s zone', () => {
  it('is Asia/Shanghai unless set, and decides today whatever the process’s own zone', () => {
    expect(appTimeZone()).toBe('Asia/Shanghai');
    expect(appToday(LATE)).toBe('2026-01-02');
    expect(appNow(LATE)).toBe('2026-01-02 01:00');
    setAppTimeZone('UTC');
    expect(appToday(LATE)).toBe('2026-01-01');
    expect(appNow(LATE)).toBe('2026-01-01 17:00');
    expect(appToday(LATE, 'America/New_York')).toBe('2026-01-01');
    expect(dateIn('2026-01-01T16:00:00Z', 'Asia/Shanghai')).toBe('2026-01-02');
  });
  it('accepts IANA names only, in their canonical spelling', () => {
    expect(canonicalTimeZone('Asia/Shanghai')).toBe('Asia/Shanghai');
    expect(canonicalTimeZone('asia/shanghai')).toBe('Asia/Shanghai');
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    for (const bad of ['', '+08:00', 'GMT+8', 'Mars/Olympus', 'Asia/Shanghai; drop', 8, null]) {
      expect(isTimeZone(bad), String(bad)).toBe(false);
    }
    expect(() => setAppTimeZone('Mars/Olympus')).toThrow(RangeError);
    expect(appTimeZone()).toBe('Asia/Shanghai');
  });
  it('formats as the timezone plugin does, across daylight-saving changes', () => {
    const start = Date.UTC(2026, 2, 7);
    for (const tz of ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Shanghai', 'Asia/Kolkata']) {
      for (let h = 0; h < 24 * 60; h += 7) {
        const at = start + h * 3600_000 + 1234;
        expect(formatIn(at, 'YYYY-MM-DD HH:mm:ss Z', tz), `${tz} ${new Date(at).toISOString()}`).toBe(
          dayjs(at).tz(tz).format('YYYY-MM-DD HH:mm:ss Z'),
        );
      }
    }
    expect(formatIn('not a time', DATE_FORMAT)).toBe('Invalid Date');
  });
  it('formats instants in the zone', () => {
    expect(formatIn(LATE, 'YYYY-MM-DD HH:mm:ss')).toBe('2026-01-02 01:00:00');
    expect(formatIn(LATE.getTime(), 'YYYYMMDDHHmm', 'Europe/London')).toBe('202601011700');
    expect(accountLockedMessage(LATE)).toContain('2026-01-02 01:00:00');
  });
});

describe('stored dates', () => {
  it('checks the calendar strictly', () => {
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2023-02-29')).toBe(false);
    expect(isValidDate('1990-02-30')).toBe(false);
    expect(isValidDate('0999-01-01')).toBe(false);
    expect(isValidDate('2024-01-01T00:00:00.000Z')).toBe(false);
    expect(isValidDateTime('2024-02-29 00:00')).toBe(true);
    expect(isValidDateTime('2024-02-30 00:00')).toBe(false);
    expect(isValidDateTime('2024-02-29T10:00')).toBe(false);
  });
  it('wallClockText: a column’s text as the form keeps it', () => {
    expect(wallClockText('date', '2026-01-02')).toBe('2026-01-02');
    expect(wallClockText('datetime', '2026-01-02 09:15:00')).toBe('2026-01-02 09:15');
    expect(wallClockText('datetime', '2026-01-02 09:15:00.123456')).toBe('2026-01-02 09:15');
    expect(wallClockText('datetime', '2026-01-02T09:15')).toBe('2026-01-02 09:15');
    expect(wallClockText('datetime', '2026-01-02')).toBe('2026-01-02 00:00');
    expect(wallClockText('date', '2026-01-02 09:15:00')).toBe('2026-01-02');
    expect(wallClockText('datetime', 'garbage')).toBe('garbage');
  });
});
