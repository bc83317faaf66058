import { isValidDate, isValidDateTime } from './dates';
import {
  codeList,
  FIELD_CODE_PATTERN,
  FIELD_TYPES,
  type FieldDef,
  type FieldOption,
  fieldCodeProblem,
  fieldRegex,
  fmt,
  isFieldValidator,
  isFilterType,
  MESSAGES,
  OPTION_SOURCE_TYPES,
  PULL_DOWN_SOURCES,
  TODAY,
  validatorFits,
} from './engine-rules';

/**
 * The rules of a developer's field list (spec §3 form field definition, option, date picker, filter definition),
 * zod-free: engine.ts builds the server's zod schemas from these limits, messages and checks, and the web's field
 * editor runs `fieldListProblems` before it sends anything, so both refuse the same lists with the same words.
 */

export const MAX_FIELDS = 200;
export const MAX_OPTIONS = 5000;

/** Limits of a field definition's properties. */
export const FIELD_LIMITS = {
  name: 50,
  tips: 500,
  prompt: 200,
  regex: 500,
  length: 100_000,
  col: 24,
  codeList: 1000,
  groupNumber: 63,
  key: 63,
  optionText: 500,
  stepMinutes: 1440,
} as const;

/** Messages of the field-list rules (MESSAGES in engine-rules.ts hold the ones records share). */
export const FIELD_MESSAGES = {
  nameRequired: '请输入字段名称',
  nameMax: `最多 ${FIELD_LIMITS.name} 个字符`,
  type: '字段类型不在可选范围内',
  required: '必填只能是 0、1 或 2',
  col: `栅格宽度须为 1 到 ${FIELD_LIMITS.col} 的整数`,
  tips: `提示最多 ${FIELD_LIMITS.tips} 个字符`,
  lengthMin: '长度至少为 1',
  lengthMax: `长度最多为 ${FIELD_LIMITS.length}`,
  prompt: `提示语最多 ${FIELD_LIMITS.prompt} 个字符`,
  codeList: '上级或下级字段编码格式有误',
  groupNumber: `分组编号最多 ${FIELD_LIMITS.groupNumber} 个字符`,
  regexMax: `正则表达式最多 ${FIELD_LIMITS.regex} 个字符`,
  regexInvalid: '正则表达式无效',
  keyMax: `最多 ${FIELD_LIMITS.key} 个字符`,
  step: '时间间隔格式有误',
  dateOrder: '最早日期不能晚于最晚日期',
  flag: '只能为是或否',
  filter: '筛选条件只能为是或否',
  optionSource: '选项来源不在可选范围内',
  optionText: `选项的文字与值最多 ${FIELD_LIMITS.optionText} 个字符`,
  optionsMax: `最多 ${MAX_OPTIONS} 个选项`,
  optionKey: '选项的键名须为 1 到 63 个字符',
  sourceName: '下拉数据源不存在',
  sourceOne: '下拉数据源须为一个节点或一个内置数据源',
  labelField: '请选择显示字段',
  valueField: '请选择取值字段',
  relation: '关联字段不存在：{code}',
  validator: '校验规则不在可选范围内',
  validatorType: '该校验规则不适用于此字段类型',
  fieldsMax: `一个节点最多 ${MAX_FIELDS} 个字段`,
} as const;

/** A limitStartDate / limitEndDate: empty, `today`, YYYY-MM-DD or YYYY-MM-DD HH:mm. */
export function isDateLimit(s: string): boolean {
  const t = s.trim();
  return t === '' || t === TODAY || isValidDate(t) || isValidDateTime(t);
}

/** The earliest date is not after the latest (by day; `today` is not compared). */
export function dateLimitsInOrder(start: string | undefined, end: string | undefined): boolean {
  return !start || !end || start === TODAY || end === TODAY || start.slice(0, 10) <= end.slice(0, 10);
}

/** A parentNode / childNode list: comma-separated field codes. */
export const isCodeList = (s: string) => codeList(s).every((c) => FIELD_CODE_PATTERN.test(c));

/** A datetime step: whole minutes 1–1440, or `HH:mm`. */
export function isTimeStep(step: unknown): boolean {
  if (typeof step === 'number') return Number.isInteger(step) && step >= 1 && step <= FIELD_LIMITS.stepMinutes;
  return typeof step === 'string' && /^\d{1,2}:\d{2}$/.test(step);
}

/** A scalar of an option (label, value): text of at most 500 characters, or a number. */
export const isOptionScalar = (v: unknown) =>
  typeof v === 'number' || (typeof v === 'string' && v.length <= FIELD_LIMITS.optionText);

/** Problems between the fields of a list: duplicate codes, and parent / child codes naming no other field. */
export function fieldListRelations(
  fields: readonly Pick<FieldDef, 'code' | 'parentNode' | 'childNode'>[],
): { index: number; key: 'code' | 'parentNode' | 'childNode'; message: string }[] {
  const out: { index: number; key: 'code' | 'parentNode' | 'childNode'; message: string }[] = [];
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (seen.has(f.code)) out.push({ index: i, key: 'code', message: fmt(MESSAGES.codeDuplicate, { code: f.code }) });
    seen.add(f.code);
  });
  const codes = new Set(fields.map((f) => f.code));
  fields.forEach((f, i) => {
    for (const key of ['parentNode', 'childNode'] as const) {
      for (const c of codeList(f[key])) {
        if (c === f.code || !codes.has(c))
          out.push({ index: i, key, message: fmt(FIELD_MESSAGES.relation, { code: c }) });
      }
    }
  });
  return out;
}

type Problems = Record<string, string>;

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const tooLong = (v: unknown, max: number) => typeof v === 'string' && v.length > max;

function optionListProblems(list: unknown, at: string, out: Problems, depth = 0): void {
  if (!Array.isArray(list)) return;
  if (list.length > MAX_OPTIONS) out[at] = FIELD_MESSAGES.optionsMax;
  if (depth > 20) return;
  list.forEach((o: FieldOption, j) => {
    if (!o || typeof o !== 'object') return;
    for (const key of ['label', 'value'] as const) {
      if (o[key] !== undefined && !isOptionScalar(o[key])) out[`${at}.${j}.${key}`] ??= FIELD_MESSAGES.optionText;
    }
    if (o.children !== undefined) optionListProblems(o.children, `${at}.${j}.children`, out, depth + 1);
  });
}

/**
 * The problems of one field definition, keyed by property path (`code`, `limitEndDate`, `options.source.labelField`,
 * `options.list.3.label` …), each the first message of that property: the rules of engine.ts's fieldDefSchema.
 */
export function fieldDefProblems(f: Partial<FieldDef>): Problems {
  const out: Problems = {};
  const code = str(f.code)?.trim();
  const codeProblem = fieldCodeProblem(code);
  if (codeProblem) out.code = codeProblem;
  if (f.bianma !== undefined) {
    const p = fieldCodeProblem(str(f.bianma)?.trim());
    if (p) out.bianma = p;
  }
  const name = str(f.name)?.trim() ?? '';
  if (!name) out.name = FIELD_MESSAGES.nameRequired;
  else if (name.length > FIELD_LIMITS.name) out.name = FIELD_MESSAGES.nameMax;
  if (!(FIELD_TYPES as readonly unknown[]).includes(f.type)) out.type = FIELD_MESSAGES.type;
  if (f.show !== undefined && typeof f.show !== 'boolean') out.show = FIELD_MESSAGES.flag;
  if (f.readonly !== undefined && typeof f.readonly !== 'boolean') out.readonly = FIELD_MESSAGES.flag;
  if (f.showPrompt !== undefined && typeof f.showPrompt !== 'boolean') out.showPrompt = FIELD_MESSAGES.flag;
  if (f.required !== undefined && ![0, 1, 2].includes(f.required as number)) out.required = FIELD_MESSAGES.required;
  if (f.col !== undefined && !(Number.isInteger(f.col) && f.col >= 1 && f.col <= FIELD_LIMITS.col)) {
    out.col = FIELD_MESSAGES.col;
  }
  if (f.tips !== undefined && (typeof f.tips !== 'string' || tooLong(f.tips, FIELD_LIMITS.tips))) {
    out.tips = FIELD_MESSAGES.tips;
  }
  if (f.length !== undefined) {
    if (!Number.isInteger(f.length) || (f.length as number) < 1) out.length = FIELD_MESSAGES.lengthMin;
    else if ((f.length as number) > FIELD_LIMITS.length) out.length = FIELD_MESSAGES.lengthMax;
  }
  if (f.prompt !== undefined && (typeof f.prompt !== 'string' || tooLong(f.prompt, FIELD_LIMITS.prompt))) {
    out.prompt = FIELD_MESSAGES.prompt;
  }
  for (const key of ['parentNode', 'childNode'] as const) {
    const v = f[key];
    if (v === undefined) continue;
    const s = str(v)?.trim();
    if (s === undefined || s.length > FIELD_LIMITS.codeList || !isCodeList(s)) out[key] = FIELD_MESSAGES.codeList;
  }
  if (f.groupNumber !== undefined) {
    const s = str(f.groupNumber)?.trim();
    if (s === undefined || s.length > FIELD_LIMITS.groupNumber) out.groupNumber = FIELD_MESSAGES.groupNumber;
  }
  if (f.regex !== undefined) {
    if (typeof f.regex !== 'string' || f.regex.length > FIELD_LIMITS.regex) out.regex = FIELD_MESSAGES.regexMax;
    else if (f.regex.trim() !== '' && fieldRegex({ regex: f.regex }) === null) out.regex = FIELD_MESSAGES.regexInvalid;
  }
  for (const key of ['selectMode', 'titleCoding'] as const) {
    if (f[key] !== undefined && (typeof f[key] !== 'string' || tooLong(f[key], FIELD_LIMITS.key))) {
      out[key] = FIELD_MESSAGES.keyMax;
    }
  }
  for (const key of ['limitStartDate', 'limitEndDate'] as const) {
    const v = f[key];
    if (v !== undefined && (typeof v !== 'string' || !isDateLimit(v))) out[key] = MESSAGES.dateFormat;
  }
  if (f.step !== undefined && !isTimeStep(f.step)) out.step = FIELD_MESSAGES.step;
  if (f.filter !== undefined && typeof f.filter !== 'boolean') out.filter = FIELD_MESSAGES.filter;
  if (f.validator !== undefined && !isFieldValidator(f.validator)) out.validator = FIELD_MESSAGES.validator;
  const options = f.options;
  if (options !== undefined) {
    if (options.type !== undefined && !(OPTION_SOURCE_TYPES as readonly unknown[]).includes(options.type)) {
      out['options.type'] = FIELD_MESSAGES.optionSource;
    }
    for (const key of ['labelKey', 'valueKey'] as const) {
      const k = options[key];
      if (k !== undefined && (typeof k !== 'string' || !k.trim() || k.trim().length > FIELD_LIMITS.key)) {
        out[`options.${key}`] = FIELD_MESSAGES.optionKey;
      }
    }
    if (options.list !== undefined && !Array.isArray(options.list)) out['options.list'] = FIELD_MESSAGES.optionText;
    optionListProblems(options.list, 'options.list', out);
    const src = options.source;
    if (src !== undefined) {
      if (src.name !== undefined && !Object.hasOwn(PULL_DOWN_SOURCES, src.name)) {
        out['options.source.name'] = FIELD_MESSAGES.sourceName;
      }
      if (tooLong(src.gnCoding, FIELD_LIMITS.key)) out['options.source.gnCoding'] = FIELD_MESSAGES.keyMax;
      if (!str(src.labelField)?.trim()) out['options.source.labelField'] = FIELD_MESSAGES.labelField;
      else if (tooLong(src.labelField.trim(), FIELD_LIMITS.key))
        out['options.source.labelField'] = FIELD_MESSAGES.keyMax;
      if (!str(src.valueField)?.trim()) out['options.source.valueField'] = FIELD_MESSAGES.valueField;
      else if (tooLong(src.valueField.trim(), FIELD_LIMITS.key))
        out['options.source.valueField'] = FIELD_MESSAGES.keyMax;
      if (!str(src.gnCoding)?.trim() === !src.name) out['options.source.gnCoding'] ??= FIELD_MESSAGES.sourceOne;
    }
  }
  // the cross-property rules (the schema's refinements, which zod runs once the properties parse)
  if (f.filter === true && !isFilterType(String(f.type))) out.filter ??= MESSAGES.filterType;
  if (f.validator !== undefined && !out.validator && !validatorFits(f.validator, String(f.type))) {
    out.validator = FIELD_MESSAGES.validatorType;
  }
  const start = str(f.limitStartDate)?.trim();
  const end = str(f.limitEndDate)?.trim();
  if (!out.limitStartDate && !dateLimitsInOrder(start, end)) out.limitEndDate ??= FIELD_MESSAGES.dateOrder;
  return out;
}

/**
 * Every problem of a field list, keyed `<index>.<property path>` (the keys of the server's 400 fieldErrors under
 * `fields.`), the list's own under `''`: each field's rules, duplicate codes and relations. It refuses exactly the
 * lists engine.ts's fieldListSchema refuses; where zod stops at a field's first failing stage, this goes on, so it
 * may name more problems at once.
 */
export function fieldListProblems(fields: readonly Partial<FieldDef>[]): Problems {
  const out: Problems = {};
  if (fields.length > MAX_FIELDS) out[''] = FIELD_MESSAGES.fieldsMax;
  fields.forEach((f, i) => {
    for (const [k, m] of Object.entries(fieldDefProblems(f))) out[`${i}.${k}`] = m;
  });
  const trimmed = fields.map((f) => ({
    code: String(f.code ?? '').trim(),
    parentNode: str(f.parentNode) ?? undefined,
    childNode: str(f.childNode) ?? undefined,
  }));
  for (const r of fieldListRelations(trimmed)) out[`${r.index}.${r.key}`] ??= r.message;
  return out;
}

// ── uniqueness constraints ──────────────────────────────────────────────────

/**
 * A node's uniqueness constraint (唯一约束): no two records with the same values of these fields. Records with any of
 * the fields empty are not compared. `withinEnterprise`: only among the records of one enterprise (a record without
 * one: of its owner) — e.g. 身份证号 once per enterprise. The server keeps it with a unique index on the node's
 * table, so it holds under concurrent saves.
 */
export interface UniqueKey {
  fields: string[];
  withinEnterprise?: boolean;
}

export const MAX_UNIQUE_KEYS = 10;
export const MAX_UNIQUE_KEY_FIELDS = 5;

/** Types whose fields may be in a unique key: one plain value each (no lists, paths, ranges or rich text). */
export const UNIQUE_TYPES = [
  'text',
  'select',
  'filter-select',
  'select-filter',
  'select-link',
  'select-edit',
  'radio',
  'sex',
  'switch',
  'switch-1',
  'switch-2',
  'y_n_ent',
  'number',
  'input-number',
  'date',
  'datetime',
] as const satisfies readonly (typeof FIELD_TYPES)[number][];
export const isUniqueType = (t: string) => (UNIQUE_TYPES as readonly string[]).includes(t);

export const UNIQUE_MESSAGES = {
  keysMax: `一个节点最多 ${MAX_UNIQUE_KEYS} 个唯一约束`,
  fieldsMin: '唯一约束至少包含一个字段',
  fieldsMax: `一个唯一约束最多 ${MAX_UNIQUE_KEY_FIELDS} 个字段`,
  noField: '唯一约束的字段不存在：{code}',
  type: '字段「{name}」的类型不能设为唯一（多选、级联、日期范围、多行文本和富文本不能）',
  repeated: '唯一约束中字段「{name}」重复',
  sameKey: '与第 {n} 个唯一约束相同',
} as const;

/** The fields of a key as their titles, e.g. 「姓名」「身份证号」 (codes the list lacks are shown as codes). */
export function uniqueKeyTitles(fields: readonly Pick<FieldDef, 'code' | 'name'>[], key: UniqueKey): string {
  return key.fields.map((c) => `「${fields.find((f) => f.code === c)?.name ?? c}」`).join('');
}

/** What a record save that breaks the key is told, e.g. 「统一社会信用代码」已存在. */
export function uniqueViolationMessage(fields: readonly Pick<FieldDef, 'code' | 'name'>[], key: UniqueKey): string {
  const titles = uniqueKeyTitles(fields, key);
  const what = key.fields.length > 1 ? `${titles}的组合` : titles;
  return key.withinEnterprise ? `本企业已有${what}相同的记录` : `${what}已存在`;
}

/**
 * The problems of a node's unique keys against its field list, keyed `<index>.fields` (the keys of the server's 400
 * fieldErrors under `uniqueKeys.`), the list's own under `''`: each key names 1–5 distinct fields of the list, of a
 * type that holds one plain value, and no two keys are the same.
 */
export function uniqueKeyProblems(
  fields: readonly Pick<FieldDef, 'code' | 'name' | 'type'>[],
  keys: readonly UniqueKey[],
): Problems {
  const out: Problems = {};
  if (keys.length > MAX_UNIQUE_KEYS) out[''] = UNIQUE_MESSAGES.keysMax;
  const seen: string[] = [];
  keys.forEach((k, i) => {
    const at = `${i}.fields`;
    const codes = Array.isArray(k.fields) ? k.fields : [];
    if (!codes.length) out[at] = UNIQUE_MESSAGES.fieldsMin;
    else if (codes.length > MAX_UNIQUE_KEY_FIELDS) out[at] = UNIQUE_MESSAGES.fieldsMax;
    for (const [j, code] of codes.entries()) {
      const f = fields.find((x) => x.code === code);
      if (!f) out[at] ??= fmt(UNIQUE_MESSAGES.noField, { code: String(code) });
      else if (!isUniqueType(f.type)) out[at] ??= fmt(UNIQUE_MESSAGES.type, { name: f.name });
      else if (codes.indexOf(code) !== j) out[at] ??= fmt(UNIQUE_MESSAGES.repeated, { name: f.name });
    }
    const sig = `${k.withinEnterprise ? 1 : 0}:${[...codes].sort().join(',')}`;
    const same = seen.indexOf(sig);
    if (same >= 0) out[at] ??= fmt(UNIQUE_MESSAGES.sameKey, { n: same + 1 });
    seen.push(sig);
  });
  return out;
}
