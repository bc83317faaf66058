import { DEFAULT_TIME_ZONE, type FieldDef, setAppTimeZone } from '@ks/contracts';
import { act, fireEvent, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { col, errorOf, f, renderForm } from './test-utils';
import { canonicalValues, dateText } from './values';

/**
 * Issue 11: every date, datetime and daterange value survives load → edit → save unchanged, and "today" is the
 * platform's day (APP_TZ from index.html), not the browser's.
 */

afterEach(() => {
  vi.useRealTimers();
  setAppTimeZone(DEFAULT_TIME_ZONE);
});

/** What the server answers for a record of one field of each date type (the stored form). */
const FIELDS: FieldDef[] = [
  f('rq', 'date', { name: '申请日期' }),
  f('sj', 'datetime', { name: '开标时间' }),
  f('qj', 'daterange', { name: '保函有效期' }),
];
const STORED = { rq: '2026-03-02', sj: '2026-03-02 09:30', qj: '2026-02-27,2026-06-30' };

describe('date values: the stored form in, the same form out', () => {
  it('keeps what the server answers exactly as it is', () => {
    expect(canonicalValues(FIELDS, STORED)).toEqual(STORED);
    // twice: what the form holds after a save is what it loads next
    expect(canonicalValues(FIELDS, canonicalValues(FIELDS, STORED))).toEqual(STORED);
  });

  it('reads a column’s own text (seconds, a T) as the same day and minute', () => {
    expect(dateText('datetime', '2026-03-02 09:30:00')).toBe('2026-03-02 09:30');
    expect(dateText('datetime', '2026-03-02T09:30:00')).toBe('2026-03-02 09:30');
    expect(dateText('date', '2026-03-02 09:30:00')).toBe('2026-03-02');
    expect(dateText('datetime', '2026-03-02')).toBe('2026-03-02 00:00');
  });

  it('reads an instant in the platform’s zone, not the browser’s (this test browser runs in UTC)', () => {
    expect(dateText('datetime', '2026-01-01T17:00:00.000Z')).toBe('2026-01-02 01:00');
    expect(dateText('date', '2026-01-01T17:00:00Z')).toBe('2026-01-02');
    expect(dateText('datetime', '2026-01-01T17:00:00+08:00')).toBe('2026-01-01 17:00');
    setAppTimeZone('UTC');
    expect(dateText('date', '2026-01-01T17:00:00Z')).toBe('2026-01-01');
  });

  it('a form loaded with the stored values validates and saves them unchanged, twice', async () => {
    const { handle, rerenderForm } = renderForm({ fields: FIELDS, initialValues: STORED });
    let saved: unknown;
    await act(async () => {
      saved = await handle().validate();
    });
    expect(saved).toEqual(STORED);
    for (const code of Object.keys(STORED)) expect(errorOf(code)).toBeNull();
    // the saved record comes back (the same values) and is saved again
    rerenderForm({ fields: FIELDS, initialValues: { ...(saved as object) } });
    await act(async () => {
      saved = await handle().validate();
    });
    expect(saved).toEqual(STORED);
    expect(col('sj').querySelector('input')?.value).toBe('2026-03-02 09:30');
    expect(col('rq').querySelector('input')?.value).toBe('2026-03-02');
  });
});

describe('today is the platform’s day', () => {
  // 2026-01-01T17:00Z: 01:00 on 2 January in Beijing, still 1 January in the (UTC) test browser
  const LATE = new Date('2026-01-01T17:00:00Z');
  const fields = [
    f('kbrq', 'date', { name: '开标日期', validator: 'notPast' }),
    f('tbrq', 'date', { name: '递交日期', limitStartDate: 'today' }),
  ];

  it('at 01:00 on 2 January in Beijing, 1 January is past and 2 January is today', async () => {
    vi.useFakeTimers({ now: LATE, toFake: ['Date'] });
    const first = renderForm({ fields, initialValues: { kbrq: '2026-01-01', tbrq: '2026-01-01' } });
    await act(async () => {
      expect(await first.handle().validate()).toBeNull();
    });
    expect(errorOf('kbrq')).toBe('「开标日期」不能早于今天（2026-01-02）');
    expect(errorOf('tbrq')).toBe('递交日期不能早于2026-01-02');
    first.unmount();
    const second = renderForm({ fields, initialValues: { kbrq: '2026-01-02', tbrq: '2026-01-02' } });
    await act(async () => {
      expect(await second.handle().validate()).toEqual({ kbrq: '2026-01-02', tbrq: '2026-01-02' });
    });
  });

  it('the picker disables 1 January and offers 2 January', async () => {
    vi.useFakeTimers({ now: LATE, toFake: ['Date'] });
    renderForm({ fields, initialValues: { kbrq: '2026-01-05' } });
    const input = col('kbrq').querySelector('input') as HTMLInputElement;
    act(() => {
      fireEvent.mouseDown(input);
      fireEvent.focus(input);
      fireEvent.click(input);
    });
    const popup = await waitFor(() => {
      const open = document.querySelector<HTMLElement>('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
      if (!open) throw new Error('picker did not open');
      return open;
    });
    const cellOf = (day: string) => popup.querySelector<HTMLElement>(`td[title="${day}"]`)!;
    expect(cellOf('2026-01-01').className).toContain('ant-picker-cell-disabled');
    expect(cellOf('2026-01-02').className).not.toContain('ant-picker-cell-disabled');
  });

  it('with another zone configured, the same instant is still 1 January', async () => {
    vi.useFakeTimers({ now: LATE, toFake: ['Date'] });
    setAppTimeZone('America/New_York');
    const { handle } = renderForm({ fields, initialValues: { kbrq: '2026-01-01', tbrq: '2026-01-01' } });
    await act(async () => {
      expect(await handle().validate()).toEqual({ kbrq: '2026-01-01', tbrq: '2026-01-01' });
    });
  });
});

describe('identifier validators in the form', () => {
  it('says nothing while typing, names the problem when the field is left, and follows the value from then on', () => {
    renderForm({ fields: [f('sfzh', 'text', { name: '身份证号', validator: 'idCard' })] });
    const input = col('sfzh').querySelector('input')!;
    fireEvent.change(input, { target: { value: '1401051990' } });
    expect(errorOf('sfzh')).toBeNull();
    act(() => {
      fireEvent.blur(input);
    });
    expect(errorOf('sfzh')).toBe('「身份证号」不是有效的身份证号码（应为18位，前17位为数字，末位为数字或X）');
    // the value is kept (the user corrects it), and the message follows it
    expect(input.value).toBe('1401051990');
    fireEvent.change(input, { target: { value: '140105199001011234' } });
    expect(errorOf('sfzh')).toBe('「身份证号」不是有效的身份证号码（校验位不符）');
    fireEvent.change(input, { target: { value: '140105199001011238' } });
    expect(errorOf('sfzh')).toBeNull();
  });

  it('shows the message naming the field on save, and clears it once the value is right', async () => {
    const fields = [
      f('sfzh', 'text', { name: '身份证号', validator: 'idCard' }),
      f('xydm', 'text', { name: '统一社会信用代码', validator: 'creditCode' }),
      f('lxdh', 'text', { name: '联系电话', validator: 'mobile' }),
    ];
    const { handle } = renderForm({
      fields,
      initialValues: { sfzh: '140105199001011234', xydm: '91110000802100433C', lxdh: '0351-5218800' },
    });
    await act(async () => {
      expect(await handle().validate()).toBeNull();
    });
    expect(errorOf('sfzh')).toBe('「身份证号」不是有效的身份证号码（校验位不符）');
    expect(errorOf('xydm')).toBe('「统一社会信用代码」不是有效的统一社会信用代码（校验位不符）');
    expect(errorOf('lxdh')).toBe('「联系电话」不是有效的手机号码（应为以1开头的11位数字）');
    fireEvent.change(col('sfzh').querySelector('input')!, { target: { value: '140105199002301237' } });
    expect(errorOf('sfzh')).toBe('「身份证号」不是有效的身份证号码（出生日期无效）');
    fireEvent.change(col('sfzh').querySelector('input')!, { target: { value: '11010519491231002x' } });
    expect(errorOf('sfzh')).toBeNull();
    fireEvent.change(col('xydm').querySelector('input')!, { target: { value: '91110000802100433B' } });
    fireEvent.change(col('lxdh').querySelector('input')!, { target: { value: '13800138000' } });
    await act(async () => {
      expect(await handle().validate()).toEqual({
        sfzh: '11010519491231002X',
        xydm: '91110000802100433B',
        lxdh: '13800138000',
      });
    });
  });
});
