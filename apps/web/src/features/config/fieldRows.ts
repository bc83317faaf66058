import {
  type FieldDef,
  type FieldOption,
  type FieldType,
  filterCardFields,
  isFilterType,
  isOptionType,
  OPTION_SOURCES,
  optionSourceOf,
  PULL_DOWN_SOURCES,
  SEX_OPTIONS,
} from '@ks/contracts';
import type { FilterDefinition, FilterGroup } from '../../engine/list/FilterCard';

/**
 * The field editor's model (`/system/setUpForm`): rows of field definitions with stable keys, what is locked once
 * saved, the filter flags, problems by row, and what the previews are built from. Pure functions, tested alone.
 */

/** Chinese names of the field types of screen 13. */
export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  'read-text': '只读文本',
  select: '下拉单选',
  'filter-select': '远程搜索下拉',
  'select-filter': '可搜索下拉',
  'select-link': '联动下拉',
  'select-m': '下拉多选',
  'select-edit': '可输入下拉',
  cascader: '级联选择',
  'cascader-1': '级联（一级）',
  'cascader-2': '级联（二级）',
  'cascader-3': '级联（三级）',
  cascaders: '级联多选',
  'select-multiple': '可搜索多选',
  'multi-select': '树形多选',
  selects: '标签多选',
  checkbox: '复选框组',
  radio: '单选框组',
  transfer: '穿梭框',
  'transfer-1': '单向穿梭框',
  switch: '开关',
  'switch-1': '开关（控制下级）',
  'switch-2': '开关（固定开启）',
  y_n_ent: '是 / 否',
  editor: '富文本',
  text: '单行文本',
  textarea: '多行文本',
  number: '数字',
  'input-number': '数字（步进）',
  sex: '性别',
  datetime: '日期时间',
  date: '日期',
  daterange: '日期范围',
};

/** The type picker's groups. */
export const FIELD_TYPE_GROUPS: { label: string; types: FieldType[] }[] = [
  { label: '文本', types: ['text', 'textarea', 'editor', 'read-text'] },
  { label: '数字', types: ['number', 'input-number'] },
  { label: '日期', types: ['date', 'datetime', 'daterange'] },
  {
    label: '单选',
    types: ['select', 'filter-select', 'select-filter', 'select-link', 'select-edit', 'radio', 'sex', 'y_n_ent'],
  },
  {
    label: '多选',
    types: ['select-m', 'select-multiple', 'multi-select', 'selects', 'checkbox', 'transfer', 'transfer-1'],
  },
  { label: '级联', types: ['cascader', 'cascader-1', 'cascader-2', 'cascader-3', 'cascaders'] },
  { label: '开关', types: ['switch', 'switch-1', 'switch-2'] },
];

export const typeLabel = (t: string) => `${FIELD_TYPE_LABELS[t as FieldType] ?? t}（${t}）`;

export const REQUIRED_LABELS: Record<0 | 1 | 2, string> = { 0: '否', 1: '必填', 2: '必填（2）' };

/** Why a saved field's type (and code) cannot change. */
export const TYPE_LOCKED_TIP =
  '字段保存后已在数据表中生成列 f_<编码>，其存储类型由字段类型决定，保存后不能修改类型或编码；如需其他类型，请新建字段。';

/** Option types whose options a developer configures (sex has its own two, switches 是 / 否). */
export const hasOptionEditor = (type: string) => isOptionType(type) && type !== 'sex';

/** Names of the fields of the server-known pull-down sources. */
export const SOURCE_FIELD_LABELS: Record<string, string> = {
  name: '企业名称',
  creditCode: '统一社会信用代码',
  region: '所在地区',
  enterpriseType: '企业类型',
};

// ── rows ────────────────────────────────────────────────────────────────────

export interface FieldRow {
  /** stable while the row lives (codes change while editing) */
  key: string;
  def: FieldDef;
}

let seq = 0;
export const newRowKey = () => `row-${++seq}`;

export const rowsOf = (fields: readonly FieldDef[]): FieldRow[] =>
  fields.map((def) => ({ key: newRowKey(), def: structuredClone(def) }));

/** The saved definition of a code (its type is locked), or undefined for a new field. */
export const savedOf = (saved: readonly FieldDef[], code: string) => saved.find((f) => f.code === code.trim());

/** The list as it would be saved, compared to tell unsaved edits. */
export const listKey = (defs: readonly FieldDef[]) => JSON.stringify(defs);

export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const next = [...list];
  const [it] = next.splice(from, 1);
  next.splice(to, 0, it as T);
  return next;
}

const EMPTY_KEYS = [
  'tips',
  'prompt',
  'regex',
  'parentNode',
  'childNode',
  'groupNumber',
  'titleCoding',
  'limitStartDate',
  'limitEndDate',
] as const;

/** A definition without empty optional text (what the server would keep anyway, minus the noise). */
export function cleanDef(def: FieldDef): FieldDef {
  const out: FieldDef = { ...def, code: def.code.trim(), name: def.name.trim() };
  for (const k of EMPTY_KEYS) {
    const v = out[k];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) delete out[k];
  }
  for (const k of ['col', 'length', 'step'] as const) {
    if (out[k] === undefined || out[k] === null || out[k] === '') delete out[k];
  }
  if (!out.showPrompt) delete out.showPrompt;
  if (!out.readonly) delete out.readonly;
  if (!isFilterType(out.type) && out.filter !== undefined) delete out.filter;
  if (!isOptionType(out.type) && out.type !== 'read-text') delete out.options;
  return out;
}

/** Who refers to `code` as a parent or child (the fields a delete would leave with a dangling relation). */
export function referrers(defs: readonly FieldDef[], code: string): FieldDef[] {
  const has = (list: string | undefined) =>
    (list ?? '')
      .split(',')
      .map((c) => c.trim())
      .includes(code);
  return defs.filter((f) => f.code !== code && (has(f.parentNode) || has(f.childNode)));
}

// ── filter flags (§3 filter definition) ─────────────────────────────────────

/** Whether the list chooses its filter groups itself: any field carries the flag. */
export const explicitFilters = (defs: readonly FieldDef[]) => defs.some((f) => typeof f.filter === 'boolean');

/** Whether a field is a filter-card group now (its flag, or the default). */
export function isFilterGroup(defs: readonly FieldDef[], code: string): boolean {
  return filterCardFields(defs).some((f) => f.code === code);
}

/**
 * The list with one field's filter flag set. The first flag makes the choice explicit: every other single-value
 * option field keeps what the default gave it, so only the clicked field changes.
 */
export function withFilterFlag(defs: readonly FieldDef[], code: string, on: boolean): FieldDef[] {
  const groups = new Set(filterCardFields(defs).map((f) => f.code));
  const explicit = explicitFilters(defs);
  return defs.map((f) => {
    if (f.code === code) return { ...f, filter: on };
    if (!explicit && isFilterType(f.type)) return { ...f, filter: groups.has(f.code) };
    return f;
  });
}

/** Back to the default filter groups: no field carries the flag. */
export const withoutFilterFlags = (defs: readonly FieldDef[]): FieldDef[] =>
  defs.map((f) => {
    if (f.filter === undefined) return f;
    const { filter: _drop, ...rest } = f;
    return rest as FieldDef;
  });

// ── option sources ──────────────────────────────────────────────────────────

/** Where a field's options come from, in words. */
export function sourceText(def: FieldDef): string {
  const type = optionSourceOf(def);
  if (type === OPTION_SOURCES.dic) return `字典 ${def.titleCoding?.trim() || '（未选择）'}`;
  if (type === OPTION_SOURCES.cert) return '资质树';
  if (type === OPTION_SOURCES.pullDown) {
    const src = def.options?.source;
    if (src?.name) return `数据源「${PULL_DOWN_SOURCES[src.name]?.label ?? src.name}」`;
    if (src?.gnCoding) return `节点 ${src.gnCoding} 的字段 ${src.labelField || '?'} / ${src.valueField || '?'}`;
    return '下拉数据源（未选择）';
  }
  const n = countOptions(def.options?.list ?? []);
  return n ? `${n} 个选项` : '未配置选项';
}

export function countOptions(list: readonly FieldOption[]): number {
  return list.reduce((n, o) => n + 1 + countOptions(o.children ?? []), 0);
}

const YES_NO: FieldOption[] = [
  { label: '是', value: '1' },
  { label: '否', value: '0' },
];

/** An option list as {label, value} (children kept), read through labelKey / valueKey. */
function plain(list: readonly FieldOption[], labelKey = 'label', valueKey = 'value'): FieldOption[] {
  return list.map((o) => {
    const value = o[valueKey] ?? o.value ?? o[labelKey] ?? o.label;
    const out: FieldOption = { label: String(o[labelKey] ?? o.label ?? value ?? ''), value: String(value ?? '') };
    if (o.children?.length) out.children = plain(o.children, labelKey, valueKey);
    return out;
  });
}

/** A filter group's choices as the editor knows them: inline lists, sex, 是 / 否; a source's come at run time. */
export function knownFilterOptions(def: FieldDef): FieldOption[] | null {
  if (def.type === 'sex') return SEX_OPTIONS.map((s) => ({ label: s, value: s }));
  if (optionSourceOf(def) !== OPTION_SOURCES.static) return null;
  if (def.options?.list?.length) return plain(def.options.list, def.options.labelKey, def.options.valueKey);
  if (['switch', 'switch-1', 'switch-2', 'y_n_ent'].includes(def.type)) return YES_NO;
  return [];
}

export interface FilterPreview {
  definition: FilterDefinition;
  /** per group code: why its chips are not all shown here */
  notes: { code: string; name: string; text: string }[];
}

/** The filter card the list would show with these fields (the groups of filterCardFields, as the server picks them). */
export function filterPreview(gnCoding: string, defs: readonly FieldDef[]): FilterPreview {
  const notes: FilterPreview['notes'] = [];
  const groups: FilterGroup[] = [];
  let tree = false;
  for (const f of filterCardFields(defs)) {
    const known = knownFilterOptions(f);
    // as the server: a dependent pull-down has no options of its own, an empty inline list none at all
    const src = f.options?.source;
    if (
      optionSourceOf(f) === OPTION_SOURCES.pullDown &&
      (f.groupNumber?.includes('_x') || Object.keys(src?.parents ?? {}).length)
    ) {
      notes.push({ code: f.code, name: f.name, text: '选项依赖上级字段的取值，列表的筛选卡片不显示该组' });
      continue;
    }
    if (known !== null && known.length === 0) {
      notes.push({ code: f.code, name: f.name, text: '未配置选项，列表的筛选卡片不显示该组' });
      continue;
    }
    if (known === null) notes.push({ code: f.code, name: f.name, text: `选项来自${sourceText(f)}，运行时加载` });
    // the list shows the first group whose choices nest as its left tree, not as chips
    if (!tree && known?.some((o) => o.children?.length)) {
      tree = true;
      notes.push({ code: f.code, name: f.name, text: '选项有下级，列表中显示为左侧树' });
      continue;
    }
    groups.push({ name: f.name, code: f.code, type: f.type, dataList: (known ?? []) as FilterGroup['dataList'] });
  }
  return { definition: { displayCode: gnCoding, displayList: groups }, notes };
}

// ── the form preview ────────────────────────────────────────────────────────

const sourceShape = (f: FieldDef | undefined) =>
  f ? JSON.stringify([f.type, f.options?.type, f.options?.source, f.titleCoding, f.parentNode, f.groupNumber]) : null;

/**
 * The fields the preview form renders. A field whose options come from a source is asked for on the server by its
 * saved definition; one that is new or whose source changed cannot be, so it is shown with no options and listed.
 */
export function previewFields(
  defs: readonly FieldDef[],
  saved: readonly FieldDef[],
): { fields: FieldDef[]; pending: FieldDef[] } {
  const pending: FieldDef[] = [];
  const fields = defs.map((f) => {
    if (optionSourceOf(f) === OPTION_SOURCES.static) return f;
    if (sourceShape(f) === sourceShape(saved.find((s) => s.code === f.code))) return f;
    pending.push(f);
    const { type: _t, source: _s, ...rest } = f.options ?? { list: [] };
    return { ...f, options: { ...rest, list: [] } };
  });
  return { fields, pending };
}

// ── problems ────────────────────────────────────────────────────────────────

/** Problems keyed `<index>.<path>` (fieldListProblems, or the server's `fields.<index>.<path>`) → by row key. */
export function problemsByRow(
  problems: Record<string, string | string[]>,
  rows: readonly FieldRow[],
): { byRow: Record<string, Record<string, string>>; rest: string[] } {
  const byRow: Record<string, Record<string, string>> = {};
  const rest: string[] = [];
  for (const [rawKey, raw] of Object.entries(problems)) {
    const msg = Array.isArray(raw) ? raw.join('；') : raw;
    const key = rawKey.startsWith('fields.') ? rawKey.slice('fields.'.length) : rawKey;
    const m = /^(\d+)\.(.+)$/.exec(key);
    const row = m ? rows[Number(m[1])] : undefined;
    if (!m || !row) {
      // the node's unique keys (uniqueKeys.<i>.fields) are named by their messages
      rest.push(key && key !== 'fields' && !key.startsWith('uniqueKeys') ? `${key}：${msg}` : msg);
      continue;
    }
    byRow[row.key] = { ...byRow[row.key], [m[2]!]: msg };
  }
  return { byRow, rest };
}
