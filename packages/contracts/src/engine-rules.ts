/**
 * The schema engine's shared field rules (spec §2 screen 13, §3 form field definition / option / date picker /
 * filter definition, §4 switch-1/2, §5 dynamic form, required fields, dependent select, date picker, search, §9 joins).
 * Zod-free so that the web DynamicForm bundles it alone; the server validates records with the same functions, and
 * the zod schemas in engine.ts check developer input against the same rules.
 */

import { appNow, appToday, isValidDate, isValidDateTime } from './dates';
import { creditCodeProblem, idNumberProblem, isValidMobile } from './identifiers';

// ── field types ─────────────────────────────────────────────────────────────

/** Every field type of screen 13, verbatim. */
export const FIELD_TYPES = [
  'read-text',
  'select',
  'filter-select',
  'select-filter',
  'select-link',
  'select-m',
  'select-edit',
  'cascader',
  'cascader-1',
  'cascader-2',
  'cascader-3',
  'cascaders',
  'select-multiple',
  'multi-select',
  'selects',
  'checkbox',
  'radio',
  'transfer',
  'transfer-1',
  'switch',
  'switch-1',
  'switch-2',
  'y_n_ent',
  'editor',
  'text',
  'textarea',
  'number',
  'input-number',
  'sex',
  'datetime',
  'date',
  'daterange',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types whose value is a list joined with `;` (multi-select, checkbox group, transfer). */
export const MULTI_VALUE_TYPES = [
  'select-m',
  'select-multiple',
  'multi-select',
  'selects',
  'checkbox',
  'transfer',
  'transfer-1',
] as const satisfies readonly FieldType[];
/** Types whose value is a path joined with `/`; `cascaders` holds several paths, joined with `;`. */
export const CASCADER_TYPES = [
  'cascader',
  'cascader-1',
  'cascader-2',
  'cascader-3',
  'cascaders',
] as const satisfies readonly FieldType[];
export const DATE_TYPES = ['datetime', 'date', 'daterange'] as const satisfies readonly FieldType[];
export const SWITCH_TYPES = ['switch', 'switch-1', 'switch-2'] as const satisfies readonly FieldType[];
export const NUMBER_TYPES = ['number', 'input-number'] as const satisfies readonly FieldType[];
/** Free-text types: max length and regex apply. */
export const TEXT_TYPES = ['text', 'textarea', 'editor', 'select-edit'] as const satisfies readonly FieldType[];
/** Types chosen from options: values must be among options.list when given. */
export const OPTION_TYPES = [
  'select',
  'filter-select',
  'select-filter',
  'select-link',
  'select-m',
  'select-edit',
  'cascader',
  'cascader-1',
  'cascader-2',
  'cascader-3',
  'cascaders',
  'select-multiple',
  'multi-select',
  'selects',
  'checkbox',
  'radio',
  'transfer',
  'transfer-1',
  'y_n_ent',
  'sex',
] as const satisfies readonly FieldType[];
/**
 * Types a filter card offers as groups of chips (§3 filter definition): one value per record, compared by equality.
 */
export const FILTER_TYPES = [
  'select',
  'filter-select',
  'select-filter',
  'select-link',
  'radio',
  'sex',
  'y_n_ent',
  'switch',
  'switch-1',
  'switch-2',
] as const satisfies readonly FieldType[];
/** Options of a `sex` field (§5). */
export const SEX_OPTIONS = ['男', '女'] as const;
/** Switch values (§5: switches use 1 and 0). */
export const SWITCH_ON = '1';
export const SWITCH_OFF = '0';
/** Default minute step of a datetime picker (§5, §9: 00:00 to 23:59 in 15-minute steps). */
export const DEFAULT_TIME_STEP = 15;
/** Joins of list values (§9) and of date ranges in a search (§5). */
export const MULTI_JOIN = ';';
export const CASCADER_JOIN = '/';
export const RANGE_JOIN = ',';
/** A limitStartDate / limitEndDate of `today` means the current date (opts.today when given). */
export const TODAY = 'today';

const has = (list: readonly string[], type: string) => list.includes(type);
export const isFieldType = (t: unknown): t is FieldType => typeof t === 'string' && has(FIELD_TYPES, t);
export const isMultiValueType = (t: string) => has(MULTI_VALUE_TYPES, t);
export const isCascaderType = (t: string) => has(CASCADER_TYPES, t);
export const isDateType = (t: string) => has(DATE_TYPES, t);
export const isSwitchType = (t: string) => has(SWITCH_TYPES, t);
export const isNumberType = (t: string) => has(NUMBER_TYPES, t);
export const isTextType = (t: string) => has(TEXT_TYPES, t);
export const isOptionType = (t: string) => has(OPTION_TYPES, t);
export const isFilterType = (t: string) => has(FILTER_TYPES, t);

/**
 * The fields that are a node's filter-card groups (§3 filter definition), in field order: those flagged `filter: true`
 * when any field carries the flag, else every shown field of a FILTER_TYPES type.
 */
export function filterCardFields(fields: readonly FieldDef[]): FieldDef[] {
  const explicit = fields.some((f) => typeof f.filter === 'boolean');
  return fields.filter((f) => isFilterType(f.type) && (explicit ? f.filter === true : f.show !== false));
}

// ── definitions ─────────────────────────────────────────────────────────────

/** §3 Option. Lists may carry other keys, named by options.labelKey / valueKey. */
export interface FieldOption {
  label?: string | number;
  value?: string | number;
  isDisabled?: boolean;
  curInfo?: unknown;
  children?: FieldOption[];
  check?: boolean;
  [key: string]: unknown;
}

/**
 * Where a field's options come from (options.type). Shared by the web (which endpoint to call) and the server (how
 * to answer it and what a developer may save):
 * - `static` (or no type): the inline options.list;
 * - `pull-down`: POST common/pull-down, from the records of another node or a server-known source named by
 *   options.source (see OptionSource, PULL_DOWN_SOURCES);
 * - `dic`: POST base/dictionary/config/dic/pull-down, the dictionary whose code is the field's titleCoding;
 * - `cert`: POST common/cert-cascade, the qualification (资质) tree.
 */
export const OPTION_SOURCES = {
  static: 'static',
  pullDown: 'pull-down',
  dic: 'dic',
  cert: 'cert',
} as const;
export type OptionSourceType = (typeof OPTION_SOURCES)[keyof typeof OPTION_SOURCES];
export const OPTION_SOURCE_TYPES: readonly OptionSourceType[] = Object.values(OPTION_SOURCES);

/** Record states of an engine node and their labels (export, lists). */
export const RECORD_STATUS_LABELS: Readonly<Record<string, string>> = {
  draft: '草稿',
  pending: '审核中',
  passed: '已通过',
  rejected: '已驳回',
};

/** The option source type of a field: `static` when options.type is absent. */
export function optionSourceOf(field: Pick<FieldDef, 'options'>): OptionSourceType {
  const t = field.options?.type;
  return t && (OPTION_SOURCE_TYPES as readonly string[]).includes(t) ? (t as OptionSourceType) : OPTION_SOURCES.static;
}

/**
 * Server-known pull-down sources (options.source.name) and the fields each offers for labelField / valueField /
 * parents. `enterprises`: the registered enterprises (企业名称, 统一社会信用代码, 所在地区, 企业类型).
 */
export const PULL_DOWN_SOURCES = {
  enterprises: { label: '企业', fields: ['name', 'creditCode', 'region', 'enterpriseType'] },
} as const;
export type PullDownSourceName = keyof typeof PULL_DOWN_SOURCES;

/**
 * options.source of a `pull-down` field: either another node's records (gnCoding; its approved records the caller may
 * see, label and value taken from its field codes) or a server-known source (name). `parents` makes a dependent select:
 * `{<parent field code of this node>: <field of the source it must equal>}`; the web sends the parents' values as
 * whereStr (`{"<parentCode>": "<value>"}`).
 */
export interface OptionSource {
  gnCoding?: string;
  name?: PullDownSourceName;
  labelField: string;
  valueField: string;
  parents?: Record<string, string>;
}

export interface FieldOptions {
  list: FieldOption[];
  /** key of an item's label; default `label` */
  labelKey?: string;
  /** key of an item's value; default `value` */
  valueKey?: string;
  /** an OPTION_SOURCES value; absent means `static` */
  type?: string;
  /** for type `pull-down`: where the options come from */
  source?: OptionSource;
}

/** §3 Form field definition / schema item, with the date-picker settings. */
export interface FieldDef {
  /** the value key of the record, and its column: see FIELD_CODE_PATTERN */
  code: string;
  /** the value key of the selected option's code (bianma), where a field keeps one beside its label */
  bianma?: string;
  name: string;
  type: FieldType;
  /** false: not shown and not required (its value is kept) */
  show?: boolean;
  /** 1 or 2 means required */
  required?: 0 | 1 | 2;
  /** grid span, out of 24 */
  col?: number;
  tips?: string;
  readonly?: boolean;
  /** maximum length of a text value, in characters */
  length?: number;
  /** message shown when the value fails `regex` */
  prompt?: string;
  showPrompt?: boolean;
  /** comma-separated codes of parent fields */
  parentNode?: string;
  /** comma-separated codes of child fields */
  childNode?: string;
  /** a groupNumber containing `_x` marks a dependent select that needs its parents' values */
  groupNumber?: string;
  regex?: string;
  curInfo?: unknown;
  selectMode?: string;
  titleCoding?: string;
  options?: FieldOptions;
  /** YYYY-MM-DD (or YYYY-MM-DD HH:mm, or `today`): earliest allowed date */
  limitStartDate?: string;
  /** YYYY-MM-DD (or YYYY-MM-DD HH:mm, or `today`): latest allowed date */
  limitEndDate?: string;
  /** datetime minute step: minutes, or `HH:mm` as a time-select writes it; default 15 */
  step?: number | string;
  /**
   * §3 filter definition: whether the field is a group of the list's filter card. Only single-value option fields
   * (FILTER_TYPES) may be true. When any field of a node carries the flag (true or false), exactly the fields set to
   * true are the filter groups, in field order; when none does, every shown single-value option field is one.
   */
  filter?: boolean;
  /**
   * A check beyond the type's (FIELD_VALIDATORS): an identifier of a text field (resident ID number, unified social
   * credit code, mobile number) or, for a date field, a date not before / not after today.
   */
  validator?: FieldValidator;
}

export type FieldValues = Record<string, unknown>;

// ── validators ──────────────────────────────────────────────────────────────

/** Free-text types an identifier validator applies to. */
export const IDENTIFIER_TYPES = ['text', 'select-edit'] as const satisfies readonly FieldType[];

/**
 * Checks a developer may give a field (FieldDef.validator), with the types each applies to:
 * - `idCard`: a resident ID number (GB 11643-1999): 17 digits and a check character, a real birth date not in the future;
 * - `creditCode`: a unified social credit code (GB 32100-2015) with its check character;
 * - `mobile`: a mobile number, 11 digits starting with 1;
 * - `notPast` / `notFuture`: a date not before / not after today in the platform's zone (a datetime: not before / not
 *   after the current minute; a daterange: its start / its end).
 */
export const FIELD_VALIDATORS = {
  idCard: { label: '身份证号码（GB 11643，含校验位与出生日期）', types: IDENTIFIER_TYPES },
  creditCode: { label: '统一社会信用代码（GB 32100，含校验位）', types: IDENTIFIER_TYPES },
  mobile: { label: '手机号码（以1开头的11位数字）', types: IDENTIFIER_TYPES },
  notPast: { label: '不早于今天（日期时间：不早于当前时间）', types: DATE_TYPES },
  notFuture: { label: '不晚于今天（日期时间：不晚于当前时间）', types: DATE_TYPES },
} as const satisfies Record<string, { label: string; types: readonly FieldType[] }>;
export type FieldValidator = keyof typeof FIELD_VALIDATORS;
export const FIELD_VALIDATOR_CODES = Object.keys(FIELD_VALIDATORS) as FieldValidator[];

export const isFieldValidator = (v: unknown): v is FieldValidator =>
  typeof v === 'string' && Object.hasOwn(FIELD_VALIDATORS, v);

/** Whether a validator applies to a field type. */
export const validatorFits = (validator: string, type: string): boolean =>
  isFieldValidator(validator) && has(FIELD_VALIDATORS[validator].types, type);

/** The validators a field of this type may carry, in the order the field editor offers them. */
export const validatorsFor = (type: string): FieldValidator[] =>
  FIELD_VALIDATOR_CODES.filter((v) => validatorFits(v, type));

/** Why each identifier validator refuses a value, shown in its message. */
export const IDENTIFIER_REASONS = {
  idCard: {
    format: '应为18位，前17位为数字，末位为数字或X',
    birthDate: '出生日期无效',
    futureBirth: '出生日期晚于今天',
    checkDigit: '校验位不符',
  },
  creditCode: {
    format: '应为18位数字或大写字母，不含I、O、S、V、Z',
    checkDigit: '校验位不符',
  },
} as const;

// ── messages ────────────────────────────────────────────────────────────────

/** §5 messages, verbatim where the spec gives them. */
export const MESSAGES = {
  required: '{name}必填',
  select: '请选择{name}',
  dateFormat: '日期格式有误，请重新输入',
  parentFirst: '请先输入或选择上级条件后查询！',
  maxLength: '{name}不能超过{length}个字符',
  pattern: '{name}格式不正确',
  number: '{name}须为不小于1的整数',
  dateTooEarly: '{name}不能早于{date}',
  dateTooLate: '{name}不能晚于{date}',
  dateBeforeParent: '{name}不能早于{parent}',
  timeStep: '{name}的时间须按{step}分钟间隔选择',
  rangeOrder: '{name}的开始日期不能晚于结束日期',
  option: '{name}的值不在可选范围内',
  switchValue: '{name}只能为1或0',
  codeFormat: '字段编码须以小写字母开头，由小写字母、数字、下划线组成，最长63位',
  codeReserved: '字段编码不能使用数据库保留字：{code}',
  codeDuplicate: '字段编码不能重复：{code}',
  filterType: '只有单选类字段可作为筛选条件',
  idCard: '「{name}」不是有效的身份证号码（{reason}）',
  creditCode: '「{name}」不是有效的统一社会信用代码（{reason}）',
  mobile: '「{name}」不是有效的手机号码（应为以1开头的11位数字）',
  notPast: '「{name}」不能早于今天（{date}）',
  notPastTime: '「{name}」不能早于当前时间（{date}）',
  notFuture: '「{name}」不能晚于今天（{date}）',
  notFutureTime: '「{name}」不能晚于当前时间（{date}）',
} as const;

/** Fills `{key}` placeholders; unknown keys stay as written. */
export function fmt(template: string, vars: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (Object.hasOwn(vars, k) ? String(vars[k]) : m));
}

// ── values ──────────────────────────────────────────────────────────────────

/** Empty: undefined, null, NaN, blank text, an empty array (or one of empty items), an empty plain object. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'number') return Number.isNaN(value);
  if (Array.isArray(value)) return value.every(isEmpty);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.keys(value).length === 0;
  }
  return false;
}

const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/**
 * The stored text of a value (§9): `;` for multi-value types, `/` for a cascader path, paths of `cascaders` joined
 * with `;`, `,` for a daterange; empty items dropped (a daterange keeps its two places). Other values as text.
 */
export function joinValue(type: string, value: unknown): string {
  if (!Array.isArray(value)) return text(value);
  if (type === 'daterange') return value.map(text).join(RANGE_JOIN);
  const items = value.filter((v) => !isEmpty(v));
  if (type === 'cascaders') {
    return items.map((p) => (Array.isArray(p) ? joinValue('cascader', p) : text(p))).join(MULTI_JOIN);
  }
  if (isCascaderType(type)) return items.map(text).join(CASCADER_JOIN);
  if (isMultiValueType(type)) return items.map(text).join(MULTI_JOIN);
  return items.map(text).join(RANGE_JOIN);
}

const parts = (s: string, sep: string) =>
  s
    .split(sep)
    .map((p) => p.trim())
    .filter((p) => p !== '');

/** The inverse of joinValue: items of a stored text (an array is taken as already split). */
export function splitValue(type: 'cascaders', value: unknown): string[][];
export function splitValue(type: string, value: unknown): string[];
export function splitValue(type: string, value: unknown): string[] | string[][] {
  if (type === 'cascaders') {
    if (Array.isArray(value)) {
      return value.filter((p) => !isEmpty(p)).map((p) => (Array.isArray(p) ? p.map(text) : parts(text(p), '/')));
    }
    return parts(text(value), MULTI_JOIN).map((p) => parts(p, CASCADER_JOIN));
  }
  if (Array.isArray(value)) return type === 'daterange' ? value.map(text) : value.filter((v) => !isEmpty(v)).map(text);
  if (isEmpty(value)) return [];
  const s = text(value);
  if (type === 'daterange') return s.split(RANGE_JOIN).map((p) => p.trim());
  if (isCascaderType(type)) return parts(s, CASCADER_JOIN);
  if (isMultiValueType(type)) return parts(s, MULTI_JOIN);
  return [s.trim()];
}

/** required 1 or 2 (§5). */
export function isRequired(field: Pick<FieldDef, 'required'>): boolean {
  const r = Number(field.required);
  return r === 1 || r === 2;
}

/** A switch is on when its value is 1 (or `true`). */
export function isSwitchOn(value: unknown): boolean {
  return value === true || value === 1 || (typeof value === 'string' && (value.trim() === '1' || value === 'true'));
}

/** The codes of a comma-separated list (parentNode, childNode). */
export function codeList(list: string | undefined | null): string[] {
  return list ? parts(list, ',') : [];
}

/**
 * The switch-1 fields that show and hide `field` (§4): those listed in its parentNode, and those whose childNode
 * lists it.
 */
export function switchParents(field: FieldDef, fields: readonly FieldDef[]): FieldDef[] {
  const parents = new Set(codeList(field.parentNode));
  return fields.filter(
    (f) =>
      f.type === 'switch-1' &&
      f.code !== field.code &&
      (parents.has(f.code) || codeList(f.childNode).includes(field.code)),
  );
}

/**
 * Fields not hidden by a switch-1 (§4): a child of a switch-1 is active only while the switch is 1 and itself active.
 * Hidden children are neither validated nor kept.
 */
export function activeFields(fields: readonly FieldDef[], values: FieldValues): FieldDef[] {
  const memo = new Map<string, boolean>();
  const active = (f: FieldDef, path: Set<string>): boolean => {
    const known = memo.get(f.code);
    if (known !== undefined) return known;
    if (path.has(f.code)) return true; // a cycle of switches: treat as not hiding
    path.add(f.code);
    const on = switchParents(f, fields).every((p) => isSwitchOn(values[p.code]) && active(p, path));
    path.delete(f.code);
    memo.set(f.code, on);
    return on;
  };
  return fields.filter((f) => active(f, new Set()));
}

/** Fields the form shows: active (switch-1 parents on) and not `show: false`. */
export function visibleFields(fields: readonly FieldDef[], values: FieldValues): FieldDef[] {
  return activeFields(fields, values).filter((f) => f.show !== false);
}

/** Required in the form: required 1 or 2, or a shown child of a switch-1 (§4: the switch makes it required). */
export function isRequiredIn(field: FieldDef, fields: readonly FieldDef[]): boolean {
  return isRequired(field) || switchParents(field, fields).length > 0;
}

const trimDeep = (v: unknown): unknown => {
  if (typeof v === 'string') return v.trim();
  if (Array.isArray(v)) return v.map(trimDeep);
  return v;
};

/**
 * The values to keep (§4, §5): only fields of the schema; children hidden by a switch-1 become null; switch-2 is
 * always '1'; switches are '1' or '0'; text is trimmed (also inside arrays); sex is only 男 or 女 (else '').
 * Other fields absent from `values` stay absent.
 */
export function normaliseValues(fields: readonly FieldDef[], values: FieldValues): FieldValues {
  const active = new Set(activeFields(fields, values).map((f) => f.code));
  const out: FieldValues = {};
  for (const f of fields) {
    if (!active.has(f.code)) {
      out[f.code] = null;
      continue;
    }
    const v = values[f.code];
    if (f.type === 'switch-2') out[f.code] = SWITCH_ON;
    else if (isSwitchType(f.type)) out[f.code] = isSwitchOn(v) ? SWITCH_ON : SWITCH_OFF;
    else if (!Object.hasOwn(values, f.code)) continue;
    else if (f.type === 'sex') {
      const s = text(v).trim();
      out[f.code] = (SEX_OPTIONS as readonly string[]).includes(s) ? s : '';
    } else if ((f.validator === 'idCard' || f.validator === 'creditCode') && typeof v === 'string') {
      // GB 11643 and GB 32100 write their letters in upper case; a lower-case x or letter is the same identifier
      out[f.code] = v.trim().toUpperCase();
    } else out[f.code] = trimDeep(v);
  }
  return out;
}

// ── dates ───────────────────────────────────────────────────────────────────

/** The minute step of a datetime field: `step` in minutes or `HH:mm`, default 15. */
export function timeStepMinutes(field: Pick<FieldDef, 'step'>): number {
  const s = field.step;
  if (typeof s === 'number' && Number.isInteger(s) && s > 0 && s <= 1440) return s;
  if (typeof s === 'string') {
    const m = /^(\d{1,2}):(\d{2})$/.exec(s.trim());
    const n = m ? Number(m[1]) * 60 + Number(m[2]) : /^\d+$/.test(s.trim()) ? Number(s) : 0;
    if (n > 0 && n <= 1440) return n;
  }
  return DEFAULT_TIME_STEP;
}

/** Compares two dates or datetimes: to the minute when both carry a time, else by day. */
export function compareDates(a: string, b: string): number {
  const [x, y] = a.length === 16 && b.length === 16 ? [a, b] : [a.slice(0, 10), b.slice(0, 10)];
  return x < y ? -1 : x > y ? 1 : 0;
}

function resolveLimit(limit: string | undefined, today: string): string | null {
  if (!limit) return null;
  const l = limit.trim();
  if (l === TODAY) return today;
  return isValidDate(l) || isValidDateTime(l) ? l : null;
}

/** The date and datetime fields a date field may not precede (§5): its parentNode fields of those types. */
function dateParents(field: FieldDef, fields: readonly FieldDef[]): FieldDef[] {
  return codeList(field.parentNode)
    .map((code) => fields.find((f) => f.code === code))
    .filter((p): p is FieldDef => !!p && (p.type === 'date' || p.type === 'datetime'));
}

/**
 * The range a date picker offers (§5 date picker): `min` is the latest of limitStartDate and the values of its active
 * parent dates, `max` its limitEndDate (YYYY-MM-DD or YYYY-MM-DD HH:mm, or null). Days outside are disabled; the same
 * limits make validateField refuse a value.
 */
export function dateBounds(
  field: FieldDef,
  fields: readonly FieldDef[],
  values: FieldValues,
  opts: ValidateOptions = {},
): { min: string | null; max: string | null } {
  const today = opts.today ?? appToday();
  const active = new Set(activeFields(fields, values).map((f) => f.code));
  // the later of two lower bounds (on the same day, the one with a time); the earlier of two upper bounds
  const later = (a: string | null, b: string) =>
    !a || compareDates(b, a) > 0 || (b.length > a.length && compareDates(b, a) === 0) ? b : a;
  const earlier = (a: string | null, b: string) =>
    !a || compareDates(b, a) < 0 || (b.length > a.length && compareDates(b, a) === 0) ? b : a;
  let min = resolveLimit(field.limitStartDate, today);
  let max = resolveLimit(field.limitEndDate, today);
  const ref = field.type === 'datetime' ? (opts.now ?? appNow()) : today;
  if (field.validator === 'notPast') min = later(min, ref);
  if (field.validator === 'notFuture') max = earlier(max, ref);
  for (const p of dateParents(field, fields)) {
    const pv = text(values[p.code]).trim();
    if (!active.has(p.code) || !(isValidDate(pv) || isValidDateTime(pv))) continue;
    min = later(min, pv);
  }
  return { min, max };
}

// ── regex ───────────────────────────────────────────────────────────────────

/**
 * A field's regex as source and flags: `^...$` or `/.../flags` (the g and y flags are dropped); null when absent. The
 * server compiles it with a linear-time engine (RE2), the browser with RegExp (fieldRegex).
 */
export function fieldRegexParts(field: Pick<FieldDef, 'regex'>): { source: string; flags: string } | null {
  const r = field.regex?.trim();
  if (!r) return null;
  const lit = /^\/(.+)\/([dgimsuvy]*)$/s.exec(r);
  return lit ? { source: lit[1]!, flags: lit[2]!.replace(/[gy]/g, '') } : { source: r, flags: '' };
}

/** A field's regex compiled by RegExp (see fieldRegexParts); null when absent or invalid. */
export function fieldRegex(field: Pick<FieldDef, 'regex'>): RegExp | null {
  const parts = fieldRegexParts(field);
  if (!parts) return null;
  try {
    return new RegExp(parts.source, parts.flags);
  } catch {
    return null;
  }
}

/** The message a text fails its regex with: the field's prompt, else {name}格式不正确. */
export function regexMessage(field: Pick<FieldDef, 'name' | 'prompt'>): string {
  return field.prompt?.trim() || fmt(MESSAGES.pattern, { name: field.name });
}

// ── options ─────────────────────────────────────────────────────────────────

const optionValue = (o: FieldOption, key: string) => text(o[key]);

function findPath(list: readonly FieldOption[], path: readonly string[], key: string): boolean {
  let level: readonly FieldOption[] | undefined = list;
  for (const step of path) {
    const hit: FieldOption | undefined = level?.find((o) => optionValue(o, key) === step);
    if (!hit) return false;
    level = hit.children;
  }
  return true;
}

function anywhere(list: readonly FieldOption[], value: string, key: string): boolean {
  return list.some((o) => optionValue(o, key) === value || (!!o.children && anywhere(o.children, value, key)));
}

/**
 * Whether a value is among a field's options (only checked when options.list is non-empty; select-edit takes free
 * text). A cascader path must follow the tree from its root; a single value anywhere in the tree also counts.
 */
export function inOptions(field: FieldDef, value: unknown): boolean {
  if (field.type === 'sex' && !splitValue('sex', value).every((v) => (SEX_OPTIONS as readonly string[]).includes(v))) {
    return false;
  }
  const list = field.options?.list;
  if (!list?.length || field.type === 'select-edit') return true;
  const key = field.options?.valueKey || 'value';
  if (isCascaderType(field.type)) {
    const paths =
      field.type === 'cascaders'
        ? splitValue('cascaders', value)
        : [Array.isArray(value) ? value.map((v) => text(v).trim()) : splitValue(field.type, value)];
    return paths.every((p) => findPath(list, p, key) || (p.length === 1 && anywhere(list, p[0]!, key)));
  }
  if (isMultiValueType(field.type)) return splitValue(field.type, value).every((v) => anywhere(list, v, key));
  if (Array.isArray(value) || typeof value === 'object') return false;
  return list.some((o) => optionValue(o, key) === text(value).trim());
}

// ── validation ──────────────────────────────────────────────────────────────

export interface ValidateOptions {
  /**
   * today as YYYY-MM-DD, for limits written `today`, notPast / notFuture and birth dates (the server passes the
   * platform's date by its clock); the platform's today (appToday) when absent
   */
  today?: string;
  /**
   * Does the text match the field's regex? By default RegExp (the browser); the server passes a linear-time engine
   * (RE2), so that no configured pattern can stall it by backtracking.
   */
  matchesRegex?: (field: Pick<FieldDef, 'regex'>, text: string) => boolean;
  /** now as YYYY-MM-DD HH:mm, for notPast / notFuture on date-times; the platform's now (appNow) when absent */
  now?: string;
}

/** The clock of a validation at an instant, in a zone (the platform's by default): today and the current minute. */
export function validationClock(at: Date | number = Date.now(), tz?: string): { today: string; now: string } {
  return { today: appToday(at, tz), now: appNow(at, tz) };
}

/** The day or minute a notPast / notFuture validator compares a date with: the current minute for a date-time. */
const clockFor = (d: string, opts: ValidateOptions) =>
  d.length === 16 ? (opts.now ?? appNow()) : (opts.today ?? appToday());

/**
 * A field that is required only because a switch-1 shows it (§4): its empty message is 请选择{name}, shown on blur or
 * change; every field required by `required` 1 or 2 reads {name}必填 (§5), whatever its type.
 */
export function isNewlyRequired(field: FieldDef, fields: readonly FieldDef[]): boolean {
  return !isRequired(field) && switchParents(field, fields).length > 0;
}

function requiredMessage(field: FieldDef, fields: readonly FieldDef[]): string {
  return fmt(isNewlyRequired(field, fields) ? MESSAGES.select : MESSAGES.required, { name: field.name });
}

function dateProblem(
  field: FieldDef,
  fields: readonly FieldDef[],
  values: FieldValues,
  value: unknown,
  opts: ValidateOptions,
  active: Set<string>,
): string | null {
  const today = opts.today ?? appToday();
  const name = field.name;
  let dates: string[];
  if (field.type === 'daterange') {
    dates = splitValue('daterange', value).map((d) => d.trim());
    const ok = dates.length === 2 && (dates.every(isValidDate) || dates.every(isValidDateTime));
    if (!ok) return MESSAGES.dateFormat;
    if (compareDates(dates[0]!, dates[1]!) > 0) return fmt(MESSAGES.rangeOrder, { name });
  } else {
    const s = text(value).trim();
    if (!(field.type === 'date' ? isValidDate(s) : isValidDateTime(s))) return MESSAGES.dateFormat;
    dates = [s];
  }
  const step = timeStepMinutes(field);
  for (const d of dates) {
    if (d.length !== 16) continue;
    const minutes = Number(d.slice(11, 13)) * 60 + Number(d.slice(14, 16));
    if (minutes % step !== 0) return fmt(MESSAGES.timeStep, { name, step });
  }
  const start = resolveLimit(field.limitStartDate, today);
  const end = resolveLimit(field.limitEndDate, today);
  const first = dates[0]!;
  const last = dates[dates.length - 1]!;
  if (start && compareDates(first, start) < 0) return fmt(MESSAGES.dateTooEarly, { name, date: start });
  if (end && compareDates(last, end) > 0) return fmt(MESSAGES.dateTooLate, { name, date: end });
  if (field.validator === 'notPast') {
    const ref = clockFor(first, { ...opts, today });
    if (compareDates(first, ref) < 0) {
      return fmt(ref.length === 16 ? MESSAGES.notPastTime : MESSAGES.notPast, { name, date: ref });
    }
  }
  if (field.validator === 'notFuture') {
    const ref = clockFor(last, { ...opts, today });
    if (compareDates(last, ref) > 0) {
      return fmt(ref.length === 16 ? MESSAGES.notFutureTime : MESSAGES.notFuture, { name, date: ref });
    }
  }
  for (const parent of dateParents(field, fields)) {
    if (!active.has(parent.code)) continue;
    const pv = text(values[parent.code]).trim();
    if (!(isValidDate(pv) || isValidDateTime(pv))) continue;
    if (compareDates(dates[0]!, pv) < 0) return fmt(MESSAGES.dateBeforeParent, { name, parent: parent.name });
  }
  return null;
}

/**
 * The first problem of one field, or null (§5). `fields` is the whole schema (for switch-1 parents and parent dates).
 * read-text is display only; fields hidden by a switch-1 are not validated; `show: false` fields are not required.
 */
export function validateField(
  field: FieldDef,
  fields: readonly FieldDef[],
  values: FieldValues,
  opts: ValidateOptions = {},
  active: Set<string> = new Set(activeFields(fields, values).map((f) => f.code)),
): string | null {
  if (field.type === 'read-text' || !active.has(field.code)) return null;
  const value = values[field.code];
  const name = field.name;
  if (isEmpty(value)) {
    return field.show !== false && isRequiredIn(field, fields) ? requiredMessage(field, fields) : null;
  }
  const type = field.type;
  if (isSwitchType(type)) {
    return ['1', '0'].includes(text(value).trim()) && typeof value !== 'boolean'
      ? null
      : fmt(MESSAGES.switchValue, { name });
  }
  if (isNumberType(type)) {
    const n =
      typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
    return Number.isSafeInteger(n) && n >= 1 ? null : fmt(MESSAGES.number, { name });
  }
  if (isDateType(type)) return dateProblem(field, fields, values, value, opts, active);
  if (isOptionType(type) && !inOptions(field, value)) return fmt(MESSAGES.option, { name });
  if (isTextType(type)) {
    if (typeof value !== 'string' && typeof value !== 'number') return fmt(MESSAGES.pattern, { name });
    const s = String(value).trim();
    if (field.length && field.length > 0 && [...s].length > field.length) {
      return fmt(MESSAGES.maxLength, { name, length: field.length });
    }
    if (opts.matchesRegex) {
      if (field.regex?.trim() && !opts.matchesRegex(field, s)) return regexMessage(field);
    } else {
      const re = fieldRegex(field);
      if (re && !re.test(s)) return regexMessage(field);
    }
    return identifierProblem(field, s, opts);
  }
  return null;
}

/** The message of a text failing its identifier validator (idCard, creditCode, mobile), or null. */
function identifierProblem(field: FieldDef, s: string, opts: ValidateOptions): string | null {
  const name = field.name;
  switch (field.validator) {
    case 'idCard': {
      const why = idNumberProblem(s.toUpperCase(), opts.today ?? appToday());
      return why ? fmt(MESSAGES.idCard, { name, reason: IDENTIFIER_REASONS.idCard[why] }) : null;
    }
    case 'creditCode': {
      const why = creditCodeProblem(s.toUpperCase());
      return why ? fmt(MESSAGES.creditCode, { name, reason: IDENTIFIER_REASONS.creditCode[why] }) : null;
    }
    case 'mobile':
      return isValidMobile(s) ? null : fmt(MESSAGES.mobile, { name });
    default:
      return null;
  }
}

/** Every field's first problem (§5), keyed by code; empty when the record is valid. */
export function validateRecord(
  fields: readonly FieldDef[],
  values: FieldValues,
  opts: ValidateOptions = {},
): Record<string, string> {
  const active = new Set(activeFields(fields, values).map((f) => f.code));
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const problem = validateField(f, fields, values, opts, active);
    if (problem) errors[f.code] = problem;
  }
  return errors;
}

// ── search and dependent selects ────────────────────────────────────────────

const DATE_START_RE = /^\d{4}-\d{2}-\d{2}/;

/**
 * Search values as sent (§5): empty values dropped; a date range (an array of two dates) joined with a comma; any
 * other array takes its last element; text trimmed.
 */
export function normaliseSearch(values: FieldValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    if (isEmpty(v)) continue;
    let s: string;
    if (Array.isArray(v)) {
      const isRange =
        v.length === 2 &&
        v.every((d) => typeof d === 'string' && DATE_START_RE.test(d.trim()) && d.trim().length <= 19);
      s = isRange ? v.map((d) => text(d).trim()).join(RANGE_JOIN) : text(v[v.length - 1]).trim();
    } else {
      s = text(v).trim();
    }
    if (s !== '') out[k] = s;
  }
  return out;
}

/**
 * §5 dependent select: a field whose groupNumber contains `_x` may not query its options while a parent (parentNode)
 * has no value. Returns the message to show, or null when the query may go ahead.
 */
export function dependentQueryBlocked(field: Pick<FieldDef, 'groupNumber' | 'parentNode'>, values: FieldValues) {
  if (!field.groupNumber?.includes('_x')) return null;
  return codeList(field.parentNode).some((p) => isEmpty(values[p])) ? MESSAGES.parentFirst : null;
}

// ── field codes ─────────────────────────────────────────────────────────────

/** A field code becomes a column name: lower case letter first, then lower case letters, digits, _; at most 63. */
export const FIELD_CODE_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * PostgreSQL 15 key words classed "reserved" or "reserved (can be function or type)" (documentation appendix C,
 * Table C.1; RESERVED_KEYWORD and TYPE_FUNC_NAME_KEYWORD in src/include/parser/kwlist.h) — the 100 words
 * `select word from pg_get_keywords() where catcode in ('R', 'T')` gives on PostgreSQL 15 — plus `system_user`,
 * reserved from PostgreSQL 16 on, which the embedded PGlite (PostgreSQL 18) already refuses. They cannot be column
 * names without quoting. The one list: the web's field editor and the server's identifier checks (sqlsafe.ts) read it.
 */
export const PG_RESERVED_WORDS: ReadonlySet<string> = new Set([
  // reserved
  'all',
  'analyse',
  'analyze',
  'and',
  'any',
  'array',
  'as',
  'asc',
  'asymmetric',
  'both',
  'case',
  'cast',
  'check',
  'collate',
  'column',
  'constraint',
  'create',
  'current_catalog',
  'current_date',
  'current_role',
  'current_time',
  'current_timestamp',
  'current_user',
  'default',
  'deferrable',
  'desc',
  'distinct',
  'do',
  'else',
  'end',
  'except',
  'false',
  'fetch',
  'for',
  'foreign',
  'from',
  'grant',
  'group',
  'having',
  'in',
  'initially',
  'intersect',
  'into',
  'lateral',
  'leading',
  'limit',
  'localtime',
  'localtimestamp',
  'not',
  'null',
  'offset',
  'on',
  'only',
  'or',
  'order',
  'placing',
  'primary',
  'references',
  'returning',
  'select',
  'session_user',
  'some',
  'symmetric',
  'table',
  'then',
  'to',
  'trailing',
  'true',
  'union',
  'unique',
  'user',
  'using',
  'variadic',
  'when',
  'where',
  'window',
  'with',
  // reserved (can be function or type)
  'authorization',
  'binary',
  'collation',
  'concurrently',
  'cross',
  'current_schema',
  'freeze',
  'full',
  'ilike',
  'inner',
  'is',
  'isnull',
  'join',
  'left',
  'like',
  'natural',
  'notnull',
  'outer',
  'overlaps',
  'right',
  'similar',
  'tablesample',
  'verbose',
  // reserved from PostgreSQL 16
  'system_user',
]);

export function isReservedWord(code: string): boolean {
  return PG_RESERVED_WORDS.has(code.trim().toLowerCase());
}

/**
 * Why a code cannot be a field code (and so a column name), or null. `extraReserved` adds names the caller keeps for
 * itself (for example the record table's own columns).
 */
export function fieldCodeProblem(code: unknown, extraReserved: readonly string[] = []): string | null {
  if (typeof code !== 'string' || !FIELD_CODE_PATTERN.test(code)) return MESSAGES.codeFormat;
  if (isReservedWord(code) || extraReserved.includes(code)) return fmt(MESSAGES.codeReserved, { code });
  return null;
}
