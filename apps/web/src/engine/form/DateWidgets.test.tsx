import { act, fireEvent, waitFor } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { dayDisabler, timeDisabler } from './DateWidgets';
import { col, errorOf, f, inputOf, renderForm } from './test-utils';

/** Opens the picker of a field; returns its popup. */
async function openPicker(code: string, index = 0): Promise<HTMLElement> {
  const input = col(code).querySelectorAll('input')[index] as HTMLInputElement;
  act(() => {
    fireEvent.mouseDown(input);
    fireEvent.focus(input);
    fireEvent.click(input);
  });
  return waitFor(() => {
    const open = Array.from(
      document.querySelectorAll<HTMLElement>('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)'),
    );
    const last = open[open.length - 1];
    if (!last) throw new Error(`picker of ${code} did not open`);
    return last;
  });
}

const cell = (popup: HTMLElement, day: string) => {
  const el = popup.querySelector<HTMLElement>(`td[title="${day}"]`);
  if (!el) throw new Error(`no cell ${day}`);
  return el;
};
const disabled = (popup: HTMLElement, day: string) => cell(popup, day).className.includes('ant-picker-cell-disabled');

describe('date pickers (§5)', () => {
  it('disable days outside limitStartDate / limitEndDate and before the parent date', async () => {
    const fields = [
      f('ks', 'date', { name: '开始日期' }),
      f('js', 'date', { name: '结束日期', parentNode: 'ks', limitStartDate: '2024-03-10', limitEndDate: '2024-03-20' }),
    ];
    const first = renderForm({ fields, initialValues: { js: '2024-03-15' } });
    let popup = await openPicker('js');
    expect(disabled(popup, '2024-03-09')).toBe(true);
    expect(disabled(popup, '2024-03-10')).toBe(false);
    expect(disabled(popup, '2024-03-20')).toBe(false);
    expect(disabled(popup, '2024-03-21')).toBe(true);
    first.unmount();
    // with a start date, the days before it are disabled too
    const r = renderForm({ fields, initialValues: { ks: '2024-03-12', js: '2024-03-15' } });
    popup = await openPicker('js');
    expect(disabled(popup, '2024-03-11')).toBe(true);
    expect(disabled(popup, '2024-03-12')).toBe(false);
    r.unmount();
  });

  it('a later parent date clears a child date that now lies before it; an earlier one keeps it', async () => {
    const fields = [f('ks', 'date', { name: '开始日期' }), f('js', 'date', { name: '结束日期', parentNode: 'ks' })];
    const { handle } = renderForm({ fields, initialValues: { ks: '2024-03-01', js: '2024-03-15' } });
    let popup = await openPicker('ks');
    act(() => {
      fireEvent.click(cell(popup, '2024-03-10'));
    });
    expect(handle().getValues()).toEqual({ ks: '2024-03-10', js: '2024-03-15' });
    popup = await openPicker('ks');
    act(() => {
      fireEvent.click(cell(popup, '2024-03-20'));
    });
    expect(handle().getValues()).toEqual({ ks: '2024-03-20', js: null });
  });

  it('typed input: at most 16 characters; a bad date reads 日期格式有误，请重新输入 and is cleared, so is a day out of limits', async () => {
    const fields = [f('rq', 'date', { name: '日期', limitEndDate: '2024-12-31' })];
    const { handle } = renderForm({ fields, initialValues: { rq: '2024-05-01' } });
    const input = inputOf('rq');
    expect(input.maxLength).toBe(16);
    act(() => {
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value: '2024-13-45' } });
    });
    act(() => {
      fireEvent.blur(input);
    });
    await waitFor(() => expect(errorOf('rq')).toBe('日期格式有误，请重新输入'));
    expect(handle().getValues().rq).toBeNull();
    act(() => {
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value: '2025-01-02' } });
    });
    act(() => {
      fireEvent.blur(input);
    });
    await waitFor(() => expect(errorOf('rq')).toBe('日期不能晚于2024-12-31'));
    expect(handle().getValues().rq).toBeNull();
    act(() => {
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value: '2024-06-01' } });
    });
    act(() => {
      fireEvent.blur(input);
    });
    await waitFor(() => expect(handle().getValues().rq).toBe('2024-06-01'));
    expect(errorOf('rq')).toBeNull();
  });

  it('a typed day out of limits left with Tab or Enter is refused with its message too (the picker drops it first)', async () => {
    const fields = [f('rq', 'date', { name: '发证日期', limitEndDate: '2024-12-31' })];
    const { handle } = renderForm({ fields });
    for (const key of ['Tab', 'Enter']) {
      const input = inputOf('rq');
      act(() => {
        fireEvent.focus(input);
        fireEvent.change(input, { target: { value: '2099-01-01' } });
      });
      act(() => {
        fireEvent.keyDown(input, { key });
      });
      await waitFor(() => expect(errorOf('rq'), key).toBe('发证日期不能晚于2024-12-31'));
      expect(handle().getValues().rq).toBeNull();
    }
    // a day within the limits is taken on Enter
    const input = inputOf('rq');
    act(() => {
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value: '2024-06-01' } });
    });
    act(() => {
      fireEvent.keyDown(input, { key: 'Enter' });
    });
    await waitFor(() => expect(handle().getValues().rq).toBe('2024-06-01'));
    expect(errorOf('rq')).toBeNull();
  });

  it('a typed datetime off the 15-minute step is refused with the step message', async () => {
    const { handle } = renderForm({ fields: [f('sj', 'datetime', { name: '开标时间' })] });
    const input = inputOf('sj');
    act(() => {
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value: '2024-03-05 09:10' } });
    });
    act(() => {
      fireEvent.blur(input);
    });
    await waitFor(() => expect(errorOf('sj')).toBe('开标时间的时间须按15分钟间隔选择'));
    expect(handle().getValues().sj).toBeNull();
  });

  it('datetime offers 00:00 to 23:45 in 15-minute steps (or the field step) and keeps YYYY-MM-DD HH:mm', async () => {
    const fields = [f('sj', 'datetime', { name: '开标时间' }), f('bs', 'datetime', { name: '半点', step: '00:30' })];
    const { handle } = renderForm({ fields, initialValues: { sj: '2024-03-05 09:15', bs: '2024-03-05 10:30' } });
    expect(inputOf('sj').value).toBe('2024-03-05 09:15');
    const popup = await openPicker('sj');
    const columns = popup.querySelectorAll('.ant-picker-time-panel-column');
    const texts = (i: number) => Array.from(columns[i]?.querySelectorAll('li') ?? []).map((li) => li.textContent);
    expect(texts(0)).toHaveLength(24);
    expect(texts(0)[0]).toBe('00');
    expect(texts(0)[23]).toBe('23');
    expect(texts(1)).toEqual(['00', '15', '30', '45']);
    act(() => {
      fireEvent.keyDown(inputOf('sj'), { key: 'Escape' });
    });
    const half = await openPicker('bs');
    const minutes = Array.from(half.querySelectorAll('.ant-picker-time-panel-column')[1]?.querySelectorAll('li') ?? []);
    expect(minutes.map((li) => li.textContent)).toEqual(['00', '30']);
    expect(handle().getValues()).toEqual({ sj: '2024-03-05 09:15', bs: '2024-03-05 10:30' });
  });

  it('daterange keeps start,end and offers only days within the limits', async () => {
    const fields = [f('qj', 'daterange', { name: '有效期', limitStartDate: '2024-03-05' })];
    const { handle } = renderForm({ fields, initialValues: { qj: ['2024-03-08', '2024-03-18'] } });
    const inputs = col('qj').querySelectorAll('input');
    expect([inputs[0]?.value, inputs[1]?.value]).toEqual(['2024-03-08', '2024-03-18']);
    expect(handle().getValues().qj).toBe('2024-03-08,2024-03-18');
    const popup = await openPicker('qj');
    expect(disabled(popup, '2024-03-04')).toBe(true);
    expect(disabled(popup, '2024-03-05')).toBe(false);
  });
});

describe('picker rules', () => {
  it('dayDisabler compares by day, with datetime limits too', () => {
    const off = dayDisabler({ min: '2024-03-10 12:00', max: '2024-03-20' });
    expect(off(dayjs('2024-03-09'))).toBe(true);
    expect(off(dayjs('2024-03-10'))).toBe(false);
    expect(off(dayjs('2024-03-20'))).toBe(false);
    expect(off(dayjs('2024-03-21'))).toBe(true);
    expect(dayDisabler({ min: null, max: null })(dayjs('1900-01-01'))).toBe(false);
  });

  it('timeDisabler keeps the minutes on the step and the hours that have one', () => {
    const every15 = timeDisabler(15)();
    expect(every15.disabledHours()).toEqual([]);
    expect(60 - every15.disabledMinutes(9).length).toBe(4);
    expect(every15.disabledMinutes(9)).not.toContain(45);
    const hourly = timeDisabler(120)();
    expect(hourly.disabledHours()).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23]);
    expect(hourly.disabledMinutes(2)).not.toContain(0);
    expect(hourly.disabledMinutes(2)).toContain(30);
  });
});
