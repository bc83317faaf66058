import { describe, expect, it } from 'vitest';
import { f } from './test-utils';
import { canonicalValues, clearDependants, dateText, parentValues, spanFor } from './values';

describe('form values', () => {
  it('keep the stored form: ; and / joins, start,end, dates as text, switches 1/0, switch-2 1', () => {
    const fields = [
      f('a', 'checkbox'),
      f('b', 'cascader-2'),
      f('c', 'daterange'),
      f('d', 'datetime'),
      f('e', 'switch'),
      f('g', 'switch-2'),
      f('h', 'input-number'),
      f('i', 'text'),
    ];
    expect(
      canonicalValues(fields, {
        a: ['x', '', 'y'],
        b: ['sx', 'ty'],
        c: [null, null],
        d: '2024-01-02',
        e: true,
        h: '7',
      }),
    ).toEqual({ a: 'x;y', b: 'sx/ty', c: null, d: '2024-01-02 00:00', e: '1', g: '1', h: 7 });
    expect(canonicalValues(fields, undefined)).toEqual({ e: '0', g: '1' });
  });

  it('dates: YYYY-MM-DD kept, a datetime cut to its day, ISO times in the platform’s zone', () => {
    expect(dateText('date', '2024-03-05')).toBe('2024-03-05');
    expect(dateText('date', '2024-03-05 10:00')).toBe('2024-03-05');
    expect(dateText('datetime', new Date(2024, 2, 5, 9, 15))).toBe('2024-03-05 09:15');
    expect(dateText('date', new Date(2024, 2, 5).toISOString())).toBe('2024-03-05');
    expect(dateText('date', 'bad')).toBe('bad');
    expect(dateText('date', '')).toBeNull();
  });

  it('clearing dependants follows parentNode and childNode, transitively; switch-1 hides instead of clearing', () => {
    const fields = [
      f('p', 'select', { childNode: 'c1' }),
      f('c1', 'select'),
      f('c2', 'select', { parentNode: 'c1' }),
      f('x', 'text'),
      f('sw', 'switch-1', { childNode: 'k' }),
      f('k', 'text', { parentNode: 'sw' }),
    ];
    const values = { p: 'a', c1: 'b', c2: 'c', x: 'd', sw: '1', k: 'e' };
    expect(clearDependants(fields[0] as never, fields, values)).toEqual({ ...values, c1: null, c2: null });
    expect(clearDependants(fields[4] as never, fields, values)).toEqual(values);
  });

  it('parentValues: the whereStr object of a dependent select, empty parents left out', () => {
    const field = f('c', 'select', { parentNode: 'a,b,d' });
    expect(parentValues(field, { a: 'x', b: '', d: ['p', 'q'] })).toEqual({ a: 'x', d: 'p;q' });
    expect(parentValues(field, {})).toBeNull();
  });

  it('spans: 24 up to 1280, 12 up to 1536, the field col (default 8) above; wide types always 24', () => {
    expect(spanFor({ type: 'text', col: 6 }, 1000)).toBe(24);
    expect(spanFor({ type: 'text', col: 6 }, 1500)).toBe(12);
    expect(spanFor({ type: 'text', col: 6 }, 1600)).toBe(6);
    expect(spanFor({ type: 'text' }, 1600)).toBe(8);
    expect(spanFor({ type: 'text', col: 30 }, 1600)).toBe(8);
    expect(spanFor({ type: 'textarea', col: 6 }, 1600)).toBe(24);
    expect(spanFor({ type: 'text', col: 6 }, 1500, true)).toBe(24);
    expect(spanFor({ type: 'text', col: 6 }, 1700, true)).toBe(12);
  });
});
