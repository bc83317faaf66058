import {
  compareDates,
  dateBounds,
  type FieldDef,
  type FieldValues,
  isValidDate,
  isValidDateTime,
  MESSAGES,
  splitValue,
  timeStepMinutes,
  type ValidateOptions,
  validateField,
} from '@ks/contracts';
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { type InputHTMLAttributes, type Ref, useMemo } from 'react';
import { useLatest } from '../list/hooks';
import { DATE_FORMAT, DATE_INPUT_MAX, DATETIME_FORMAT, dateFormatOf } from './values';

/** Days a picker offers: not before `min`, not after `max` (compared by day, as compareDates does). */
export function dayDisabler(bounds: { min: string | null; max: string | null }) {
  return (day: Dayjs): boolean => {
    const d = day.format(DATE_FORMAT);
    return (!!bounds.min && compareDates(d, bounds.min) < 0) || (!!bounds.max && compareDates(d, bounds.max) > 0);
  };
}

/**
 * The times of a day a datetime field offers (§5, §9: 00:00 to 23:59 in steps of `step` minutes, 15 by default):
 * the hours that have an allowed minute, and in each hour the minutes on the step.
 */
export function timeDisabler(step: number) {
  const minuteOk = (h: number, m: number) => (h * 60 + m) % step === 0;
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  return () => ({
    disabledHours: () => range(24).filter((h) => !range(60).some((m) => minuteOk(h, m))),
    disabledMinutes: (h: number) => (h < 0 ? [] : range(60).filter((m) => !minuteOk(h, m))),
  });
}

const toDay = (s: string | null | undefined, format: string): Dayjs | null => {
  if (!s) return null;
  const d = dayjs(s, format);
  return d.isValid() ? d : null;
};

interface DateWidgetProps {
  field: FieldDef;
  fields: readonly FieldDef[];
  values: FieldValues;
  value: unknown;
  onChange: (v: string | null) => void;
  onBlur: () => void;
  /** a typed text that is no valid value: the form clears the field and shows the message */
  onInvalidText: (message: string) => void;
  disabled: boolean;
  status?: 'error';
  /** today and the current minute in the platform's zone */
  clock: ValidateOptions;
}

type InputProps = InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };

/**
 * The picker's text input, at most 16 characters (§5). On blur a typed text that is not a valid value of the field —
 * not YYYY-MM-DD (HH:mm), or outside the limits, before a parent date, off the time step — is reported with the same
 * message validation would give (日期格式有误，请重新输入 for the format), and the form clears the field.
 */
function useLimitedInput(check: (text: string) => void) {
  const latest = useLatest(check);
  return useMemo(
    () =>
      function LimitedDateInput({ ref, onBlur, onKeyDown, ...props }: InputProps) {
        return (
          <input
            {...props}
            ref={ref}
            maxLength={DATE_INPUT_MAX}
            // Tab and Enter: the picker drops a text it cannot take (a day out of limits) before the input loses focus,
            // so the text is checked first, as leaving the field with the mouse does
            onKeyDown={(e) => {
              if (e.key === 'Tab' || e.key === 'Enter') latest.current(e.currentTarget.value);
              onKeyDown?.(e);
            }}
            onBlur={(e) => {
              latest.current(e.currentTarget.value);
              onBlur?.(e);
            }}
          />
        );
      },
    [latest],
  );
}

function useTypedCheck(props: DateWidgetProps) {
  const { field, fields, values, value, clock, onInvalidText } = props;
  return (text: string) => {
    const typed = text.trim();
    if (!typed) return;
    if (field.type === 'daterange') {
      if (!isValidDate(typed)) onInvalidText(MESSAGES.dateFormat);
      return;
    }
    const format = dateFormatOf(field.type);
    if (typed === value) return;
    const ok = field.type === 'date' ? isValidDate(typed) : isValidDateTime(typed);
    if (!ok) {
      onInvalidText(MESSAGES.dateFormat);
      return;
    }
    const problem = validateField(field, fields, { ...values, [field.code]: typed }, clock);
    if (problem) onInvalidText(problem);
    else if (toDay(typed, format)) props.onChange(typed);
  };
}

/** date (YYYY-MM-DD) and datetime (YYYY-MM-DD HH:mm, minutes on the field's step). */
export function DateWidget(props: DateWidgetProps) {
  const { field, fields, values, value, onChange, onBlur, disabled, status, clock } = props;
  const isTime = field.type === 'datetime';
  const format = isTime ? DATETIME_FORMAT : DATE_FORMAT;
  const step = timeStepMinutes(field);
  const bounds = dateBounds(field, fields, values, clock);
  const input = useLimitedInput(useTypedCheck(props));
  const minuteStep = step < 60 && 60 % step === 0 ? (step as 15) : undefined;
  return (
    <DatePicker
      value={toDay(typeof value === 'string' ? value : null, format)}
      onChange={(d) => onChange(d ? d.format(format) : null)}
      onBlur={onBlur}
      format={format}
      disabled={disabled}
      status={status}
      disabledDate={dayDisabler(bounds)}
      disabledTime={isTime ? timeDisabler(step) : undefined}
      showTime={
        isTime
          ? { format: 'HH:mm', minuteStep, hideDisabledOptions: true, defaultOpenValue: dayjs('00:00', 'HH:mm') }
          : undefined
      }
      components={{ input }}
      placeholder={isTime ? '请选择日期时间' : '请选择日期'}
      style={{ width: '100%' }}
      allowClear
    />
  );
}

/** daterange: two days stored as `start,end`. */
export function DateRangeWidget(props: DateWidgetProps) {
  const { field, fields, values, value, onChange, onBlur, disabled, status, clock } = props;
  const bounds = dateBounds(field, fields, values, clock);
  const input = useLimitedInput(useTypedCheck(props));
  const [a, b] = splitValue('daterange', value);
  const start = toDay(a, DATE_FORMAT);
  const end = toDay(b, DATE_FORMAT);
  return (
    <DatePicker.RangePicker
      value={start && end ? [start, end] : null}
      onChange={(range) =>
        onChange(range?.[0] && range[1] ? `${range[0].format(DATE_FORMAT)},${range[1].format(DATE_FORMAT)}` : null)
      }
      onBlur={onBlur}
      format={DATE_FORMAT}
      disabled={disabled}
      status={status}
      disabledDate={dayDisabler(bounds)}
      components={{ input }}
      placeholder={['开始日期', '结束日期']}
      style={{ width: '100%' }}
      allowClear
    />
  );
}
