import {
  CASCADER_JOIN,
  codeList,
  compareDates,
  DATE_FORMAT,
  DATETIME_FORMAT,
  dateIn,
  dateTimeIn,
  type FieldDef,
  type FieldValues,
  isCascaderType,
  isEmpty,
  isMultiValueType,
  isNumberType,
  isSwitchOn,
  isSwitchType,
  isValidDate,
  isValidDateTime,
  joinValue,
  SWITCH_OFF,
  SWITCH_ON,
  wallClockText,
} from '@ks/contracts';
import dayjs from 'dayjs';

/**
 * The form's values are kept in the form the server stores and validates (§9): multi values joined with `;`, cascader
 * paths with `/` (several paths of `cascaders` with `;`), a daterange as `start,end`, dates as YYYY-MM-DD and
 * datetimes as YYYY-MM-DD HH:mm, switches as '1' / '0', numbers as numbers. So the contracts' validateRecord runs on
 * exactly what the server will receive, and normaliseValues only trims and applies switch-1 / switch-2.
 */

export { DATE_FORMAT, DATETIME_FORMAT };
/** §5: a date picker's input takes at most 16 characters (YYYY-MM-DD HH:mm). */
export const DATE_INPUT_MAX = 16;

export const dateFormatOf = (type: string) => (type === 'datetime' ? DATETIME_FORMAT : DATE_FORMAT);

/**
 * A date value as text in the field's format: YYYY-MM-DD (HH:mm) as is; an instant (ISO time with a zone) as its day or
 * minute in the platform's zone; a Date or Dayjs from a picker as the wall-clock time it shows.
 */
export function dateText(type: 'date' | 'datetime', v: unknown): string | null {
  if (isEmpty(v)) return null;
  const format = dateFormatOf(type);
  if (typeof v === 'string') {
    const s = v.trim();
    if (type === 'date' && isValidDate(s)) return s;
    if (type === 'datetime' && isValidDateTime(s)) return s;
    if (type === 'datetime' && isValidDate(s)) return `${s} 00:00`;
    if (type === 'date' && isValidDateTime(s)) return s.slice(0, 10);
    // an instant (ISO with Z or an offset): its day / minute in the platform's zone, not the browser's
    if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(s) && dayjs(s).isValid()) {
      return type === 'date' ? dateIn(s) : dateTimeIn(s);
    }
    // wall-clock text with seconds or a T (a column's own text): the same day and minute
    const wall = wallClockText(type, s);
    return type === 'date' ? (isValidDate(wall) ? wall : s) : isValidDateTime(wall) ? wall : s;
  }
  if (v instanceof Date || dayjs.isDayjs(v)) {
    const d = dayjs(v as Date);
    return d.isValid() ? d.format(format) : null;
  }
  return String(v);
}

/** One value in the stored form of its field's type (see above). Unknown shapes are left for validation to refuse. */
export function canonicalValue(field: FieldDef, v: unknown): unknown {
  const { type } = field;
  if (type === 'switch-2') return SWITCH_ON;
  if (isSwitchType(type)) return isSwitchOn(v) ? SWITCH_ON : SWITCH_OFF;
  if (v === undefined || v === null) return v;
  if (type === 'date' || type === 'datetime') return dateText(type, v);
  if (type === 'daterange') {
    if (Array.isArray(v)) {
      if (v.every(isEmpty)) return null;
      return v.map((d) => dateText('date', d) ?? '').join(',');
    }
    return v;
  }
  if (isNumberType(type)) {
    if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
    return v;
  }
  if (type === 'cascaders' && Array.isArray(v)) return joinValue(type, v);
  if ((isCascaderType(type) || isMultiValueType(type)) && Array.isArray(v)) return joinValue(type, v);
  return v;
}

/** Every value of `values` in its stored form; a switch without a value is '0', a switch-2 always '1'. */
export function canonicalValues(fields: readonly FieldDef[], values: FieldValues | undefined): FieldValues {
  const out: FieldValues = { ...(values ?? {}) };
  for (const f of fields) {
    if (isSwitchType(f.type)) out[f.code] = canonicalValue(f, out[f.code] ?? SWITCH_OFF);
    else if (Object.hasOwn(out, f.code)) out[f.code] = canonicalValue(f, out[f.code]);
  }
  return out;
}

// ── dependencies (§5 dependent select) ──────────────────────────────────────

/**
 * The fields that depend on `field`: those naming it in parentNode and those its childNode lists. A switch-1 shows
 * and hides its children instead (activeFields), so it has no dependants to clear.
 */
export function dependantsOf(field: FieldDef, fields: readonly FieldDef[]): FieldDef[] {
  if (field.type === 'switch-1') return [];
  const children = new Set(codeList(field.childNode));
  return fields.filter(
    (f) => f.code !== field.code && (children.has(f.code) || codeList(f.parentNode).includes(field.code)),
  );
}

const isDay = (s: unknown): s is string => typeof s === 'string' && (isValidDate(s) || isValidDateTime(s));

/**
 * After `changed` took a new value: its dependants are cleared (null), and theirs in turn. A date that depends on a
 * date is only cleared when it now lies before its parent (the rest of it is still a valid choice).
 */
export function clearDependants(changed: FieldDef, fields: readonly FieldDef[], values: FieldValues): FieldValues {
  const out = { ...values };
  const seen = new Set<string>([changed.code]);
  const queue = [changed];
  while (queue.length) {
    const parent = queue.shift() as FieldDef;
    for (const child of dependantsOf(parent, fields)) {
      if (seen.has(child.code)) continue;
      seen.add(child.code);
      if (isEmpty(out[child.code])) continue;
      const dateOnDate =
        (child.type === 'date' || child.type === 'datetime' || child.type === 'daterange') &&
        (parent.type === 'date' || parent.type === 'datetime');
      if (dateOnDate) {
        const pv = out[parent.code];
        const first = String(out[child.code]).split(',')[0]?.trim() ?? '';
        if (!isDay(pv) || !isDay(first) || compareDates(first, pv) >= 0) continue;
      }
      out[child.code] = null;
      queue.push(child);
    }
  }
  return out;
}

/** The parents' values a dependent select sends as whereStr: `{"<parentCode>": "<value>"}`, empty ones left out. */
export function parentValues(field: FieldDef, values: FieldValues): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const code of codeList(field.parentNode)) {
    const v = values[code];
    if (!isEmpty(v)) out[code] = Array.isArray(v) ? v.join(';') : String(v);
  }
  return Object.keys(out).length ? out : null;
}

// ── columns (§9 form columns) ───────────────────────────────────────────────

/**
 * Window widths at which form fields go full width (24) and half width (12); above `half` a field takes its own
 * `col` (default DEFAULT_COL). A fixed detail panel (fixedDetail) leaves the form less room beside it, so its
 * thresholds sit one step higher.
 */
export const COLUMN_THRESHOLDS = {
  normal: { full: 1280, half: 1536 },
  fixedDetail: { full: 1536, half: 1920 },
} as const;
export const DEFAULT_COL = 8;
/** Types that always take the whole row: a rich-text editor, a text area and the two-list transfers. */
export const WIDE_TYPES: readonly string[] = ['editor', 'textarea', 'transfer', 'transfer-1'];

export function spanFor(field: Pick<FieldDef, 'col' | 'type'>, width: number, fixedDetail = false): number {
  if (WIDE_TYPES.includes(field.type)) return 24;
  const t = fixedDetail ? COLUMN_THRESHOLDS.fixedDetail : COLUMN_THRESHOLDS.normal;
  if (width <= t.full) return 24;
  if (width <= t.half) return 12;
  const col = Number(field.col);
  return Number.isInteger(col) && col >= 1 && col <= 24 ? col : DEFAULT_COL;
}

/** The path items of a cascader value (`a/b/c`), for display. */
export const cascaderPath = (v: string) => v.split(CASCADER_JOIN).filter(Boolean);
