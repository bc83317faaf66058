import { DEFAULT_TIME_ZONE, setAppTimeZone } from '@ks/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime, formatYuan, formatYuanShort } from './format';

afterEach(() => setAppTimeZone(DEFAULT_TIME_ZONE));

describe('formatYuanShort (headline amounts)', () => {
  it('uses 亿元 from 100 million, 万元 from 10 thousand, else 元, with at most two decimals', () => {
    expect(formatYuanShort('1234567890.12')).toEqual({ value: '12.35', unit: '亿元' });
    expect(formatYuanShort('100000000')).toEqual({ value: '1', unit: '亿元' });
    expect(formatYuanShort('56780000')).toEqual({ value: '5678', unit: '万元' });
    expect(formatYuanShort('12345')).toEqual({ value: '1.23', unit: '万元' });
    expect(formatYuanShort('9999.5')).toEqual({ value: '9999.5', unit: '元' });
    expect(formatYuanShort('0')).toEqual({ value: '0', unit: '元' });
  });

  it('shows 0 元 for missing or malformed values', () => {
    expect(formatYuanShort(undefined)).toEqual({ value: '0', unit: '元' });
    expect(formatYuanShort('abc')).toEqual({ value: '0', unit: '元' });
  });
});

describe('formatYuan (exact amounts)', () => {
  it('adds thousands separators and two decimals without floating-point rounding', () => {
    expect(formatYuan('1234567.5')).toBe('1,234,567.50 元');
    expect(formatYuan('99999999999999.99')).toBe('99,999,999,999,999.99 元');
    expect(formatYuan('100')).toBe('100.00 元');
    expect(formatYuan('0012')).toBe('12.00 元');
  });

  it('returns null for empty or malformed values', () => {
    expect(formatYuan(null)).toBeNull();
    expect(formatYuan('')).toBeNull();
    expect(formatYuan('1e5')).toBeNull();
  });
});

describe('dates and counts', () => {
  it('formats ISO times in the platform’s zone, not the browser’s, and keeps plain dates', () => {
    // 17:07 UTC on 4 March is 01:07 on 5 March in Beijing (the test browser runs in UTC)
    const iso = '2026-03-04T17:07:00.000Z';
    expect(formatDate(iso)).toBe('2026-03-05');
    expect(formatDateTime(iso)).toBe('2026-03-05 01:07');
    setAppTimeZone('Europe/London');
    expect(formatDate(iso)).toBe('2026-03-04');
    expect(formatDateTime(iso)).toBe('2026-03-04 17:07');
    expect(formatDate('2026-01-02')).toBe('2026-01-02');
    expect(formatDate(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('not a date');
  });

  it('formats counts with separators', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(undefined)).toBe('0');
  });
});
