import {
  type FieldDef,
  type FieldOption,
  isCascaderType,
  isEmpty,
  isMultiValueType,
  isOptionType,
  isSwitchType,
  type Operation,
  SESSION_KEYS,
  splitValue,
  type TableColumn,
} from '@ks/contracts';
import dayjs from 'dayjs';
import type { AuditFlowStep, EngineRecord } from '../api/engine';
import { formatDate, formatDateTime } from '../lib/format';
import type { AuditStep, TableRow } from './list/DynamicTable';
import type { SearchTag } from './list/FilterCard';
import { textWidth, valueText } from './list/measure';
import type { SearchField } from './list/SearchBar';

/**
 * The engine pages' pure rules: record states and their labels, how a record becomes a table row or a card, the
 * columns and search fields of a node, the operations of a row, the search request (§5) and its persisted state.
 */

// ── texts (spec §5, §8 verbatim) ────────────────────────────────────────────

export const ENGINE_TEXTS = {
  saved: '保存成功',
  submitted: '提交成功',
  done: '操作成功',
  deleted: '删除成功',
  confirmSubmit: '确认提交？',
  confirmPass: '确认通过？',
  confirmReject: '确认不通过？',
  confirmDelete: '确认删除该记录？删除后不可恢复。',
  confirmRevoke: '确认撤回该提交？撤回后可修改后重新提交。',
  needSuggestion: '请填写审核建议',
  saveFirst: '请先保存！',
  stale: '该记录已被他人修改或处理，已为您重新加载最新数据',
  exported: '导出成功',
  assigned: '指派成功',
  noNode: '未找到该节点，请从左侧菜单进入',
  noFields: '该节点尚未配置字段',
} as const;

// ── record states ───────────────────────────────────────────────────────────

export interface StatusMeta {
  text: string;
  /** antd Tag preset */
  tag: string;
  /** a CSS colour (card border) */
  color: string;
}

export const STATUS_META: Record<string, StatusMeta> = {
  draft: { text: '草稿', tag: 'default', color: '#909399' },
  pending: { text: '审核中', tag: 'processing', color: '#409EFF' },
  passed: { text: '已通过', tag: 'success', color: '#67C23A' },
  rejected: { text: '已驳回', tag: 'error', color: '#F56C6C' },
};

export function statusMeta(status: string): StatusMeta {
  return STATUS_META[status] ?? { text: status, tag: 'default', color: '#909399' };
}

/** Editable (and submittable) states: a draft, or a record sent back. */
export const isEditableStatus = (status: string) => status === 'draft' || status === 'rejected';

export const AUDIT_ACTIONS: Record<string, string> = {
  submit: '提交',
  pass: '通过',
  reject: '驳回',
  revoke: '撤回',
  assign: '指派',
};

export const actionText = (action: string) => AUDIT_ACTIONS[action] ?? action;
export const levelText = (level: number) => (level > 0 ? `第${level}级审核` : '申请人');

/** An audit history as the table's auditFlow cell reads it. */
export function auditSteps(flow: readonly AuditFlowStep[] | undefined): AuditStep[] {
  return (flow ?? []).map((s) => ({
    level: s.level,
    name: s.action === 'submit' || s.action === 'revoke' ? '申请' : levelText(s.level),
    result: actionText(s.action),
    suggestion: s.suggestion,
    userName: s.userName,
    time: formatDateTime(s.time),
  }));
}

/**
 * The 审核流程 cell of a list row: the record's audit history when the server sent it, else where the record stands —
 * the level now reviewing it while pending (第1级审核 审核中), the outcome once decided. (List rows carry no history
 * today; a record detail does.)
 */
export function listAuditSteps(
  record: Pick<EngineRecord, 'status' | 'auditLevel'> & { auditFlow?: readonly AuditFlowStep[] },
): AuditStep[] {
  if (record.auditFlow?.length) return auditSteps(record.auditFlow);
  if (record.status === 'pending') {
    const level = record.auditLevel ?? 0;
    return [{ level, name: level > 0 ? levelText(level) : '审核', result: '审核中' }];
  }
  if (record.status === 'passed') return [{ name: '', result: '审核通过' }];
  if (record.status === 'rejected') return [{ name: '', result: '已驳回' }];
  return [];
}

// ── values as text ──────────────────────────────────────────────────────────

/** value → label of a field's static options (the whole tree), read through labelKey / valueKey. */
export function optionLabels(field: Pick<FieldDef, 'options' | 'type'>): Map<string, string> {
  const out = new Map<string, string>();
  const labelKey = field.options?.labelKey || 'label';
  const valueKey = field.options?.valueKey || 'value';
  const walk = (list: FieldOption[] | undefined) => {
    for (const o of list ?? []) {
      const value = o[valueKey] ?? o.value ?? o[labelKey];
      const label = o[labelKey] ?? o.label ?? value;
      if (value !== undefined && value !== null) out.set(String(value), String(label ?? ''));
      walk(o.children);
    }
  };
  walk(field.options?.list);
  return out;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T/;

/**
 * A number field's value with thousands separators from five digits on (合同金额 18,653,200), so that amounts read at
 * a glance while years and small counts (2026, 120) stay as written; anything not a plain integer is shown as stored.
 */
function groupedNumber(value: unknown): string {
  const text = String(value).trim();
  if (!/^-?\d{5,}$/.test(text)) return String(value);
  return text.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A stored value as the list and the card show it: option labels, 是/否 for switches, dates without the time zone. */
export function displayValue(field: FieldDef, value: unknown, labels = optionLabels(field)): string {
  if (isEmpty(value)) return '';
  const label = (v: string) => labels.get(v) ?? v;
  const { type } = field;
  if (isSwitchType(type)) return String(value) === '1' || value === true ? '是' : '否';
  if (type === 'date') return ISO_TIME.test(String(value)) ? formatDate(String(value)) : String(value);
  if (type === 'datetime') return ISO_TIME.test(String(value)) ? formatDateTime(String(value)) : String(value);
  if (type === 'daterange') return splitValue('daterange', value).filter(Boolean).join(' 至 ');
  if (type === 'cascaders') {
    return splitValue('cascaders', value)
      .map((path) => path.map(label).join('/'))
      .join(';');
  }
  if (isCascaderType(type)) return splitValue(type, value).map(label).join('/');
  if (isMultiValueType(type)) return splitValue(type, value).map(label).join(';');
  if (isOptionType(type)) return label(String(value));
  if (type === 'number' || type === 'input-number') return groupedNumber(value);
  if (Array.isArray(value)) return value.map(String).join(';');
  if (typeof value === 'object') return '';
  return String(value);
}

// ── columns ─────────────────────────────────────────────────────────────────

/** Column codes of the record's own attributes (not fields of the node). */
export const STATUS_COLUMN = '__status';
export const OPERATIONS_COLUMN = '__ops';
export const SYSTEM_TIME_COLUMNS = ['createdAt', 'updatedAt'] as const;

const LIST_HIDDEN_TYPES = new Set(['editor', 'textarea', 'transfer', 'transfer-1', 'read-text']);

const column = (over: Partial<TableColumn> & Pick<TableColumn, 'code' | 'name'>): TableColumn => ({
  type: 'text',
  show: true,
  isSearch: false,
  isStatus: false,
  listAlignment: '居中',
  width: null,
  ...over,
});

/**
 * The columns of a node that has none configured: its first six listable fields (text fields searchable in the
 * header), the status, the last change and the operations.
 */
export function defaultColumns(fields: readonly FieldDef[]): TableColumn[] {
  const shown = fields.filter((f) => f.show !== false && !LIST_HIDDEN_TYPES.has(f.type)).slice(0, 6);
  return [
    ...shown.map((f, i) =>
      column({
        code: f.code,
        name: f.name,
        isSearch: f.type === 'text',
        listAlignment: i === 0 ? '左对齐' : '居中',
        width: i === 0 ? 200 : null,
      }),
    ),
    column({ code: STATUS_COLUMN, name: '状态', type: 'status', isStatus: true, width: 96 }),
    column({ code: 'updatedAt', name: '更新时间', width: 150 }),
    column({ code: OPERATIONS_COLUMN, name: '操作', type: 'operations', width: 240 }),
  ];
}

const isStatusColumn = (c: TableColumn) => c.type === 'status' || c.type === 'statusIcon' || c.isStatus;

/**
 * The columns a list shows: the configured ones (or the defaults), with a status column added where the page needs
 * one (the applicant's list), and an operations column at the end when none is configured: a record's actions
 * must always be reachable.
 */
export function listColumns(
  configured: readonly TableColumn[] | undefined,
  fields: readonly FieldDef[],
  options: { requireStatus?: boolean } = {},
): TableColumn[] {
  const base = configured?.length ? [...configured] : defaultColumns(fields);
  if (options.requireStatus && !base.some((c) => c.show && isStatusColumn(c))) {
    const opsAt = base.findIndex((c) => c.type === 'operations');
    const status = column({ code: STATUS_COLUMN, name: '状态', type: 'status', isStatus: true, width: 96 });
    base.splice(opsAt < 0 ? base.length : opsAt, 0, status);
  }
  if (!base.some((c) => c.show && c.type === 'operations')) {
    base.push(column({ code: OPERATIONS_COLUMN, name: '操作', type: 'operations', width: 240 }));
  }
  return base;
}

const TYPE_MIN_WIDTH: Record<string, number> = { date: 110, datetime: 150, daterange: 210 };

/** The width a row's operations take as link buttons (14 px a character, 12 px padding and gap each). */
export function operationsWidth(ops: readonly Pick<Operation, 'name' | 'show'>[] | undefined): number {
  return (ops ?? []).filter((o) => o.show).reduce((w, o) => w + o.name.length * 14 + 12, 24);
}

/** The width a heading's sorter arrows take. */
const SORTER_WIDTH = 22;

/** A column fitted to its values grows to at most this; longer values wrap. */
const CONTENT_MAX_WIDTH = 320;
/** A cell's padding and line (the small table: 8 px each side). */
const CELL_EXTRA = 17;
/**
 * Columns without a configured width get one that fits their heading (with the header search icon and the sorter
 * arrows of a sortable column), for dates their value, and, given the rows shown, their widest value up to 320 px
 * (rounded up to 20 px, so paging rarely changes it) — the table lays out with these fixed widths, so a value such as
 * an ID number stays on one line. Headings never break into one character a line; the operations column is at least
 * as wide as the widest row's buttons (`opsWidth`). Configured widths are otherwise kept.
 */
export function withMinWidths(
  columns: readonly TableColumn[],
  fields: readonly FieldDef[] = [],
  opsWidth = 0,
  rows: readonly TableRow[] = [],
): TableColumn[] {
  const types = new Map(fields.map((f) => [f.code, f.type]));
  const codes = new Set(types.keys());
  return columns.map((c) => {
    if (c.type === 'operations') return { ...c, width: Math.max(c.width ?? 0, opsWidth, 120) };
    if (c.width) return c;
    const heading = c.name.length * 14 + (c.isSearch ? 52 : 32) + (isSortableColumn(c, codes) ? SORTER_WIDTH : 0);
    let content = 0;
    for (const row of rows) content = Math.max(content, textWidth(valueText(row[c.code])));
    const fitted = content ? Math.ceil(Math.min(CONTENT_MAX_WIDTH, content + CELL_EXTRA) / 20) * 20 : 0;
    return { ...c, width: Math.max(88, heading, TYPE_MIN_WIDTH[types.get(c.code) ?? ''] ?? 0, fitted) };
  });
}

// ── rows ────────────────────────────────────────────────────────────────────

export type RecordRow = TableRow & { id: string; __record: EngineRecord };

export interface RowContext {
  fields: readonly FieldDef[];
  columns: readonly TableColumn[];
  /** form buttons of the node: `submit` among them adds 提交 to editable rows */
  formButtons?: readonly Operation[];
}

const LOG_OPERATION: Operation = { code: 'logs', name: '操作日志', color: '#909399', show: true };
const SUBMIT_FALLBACK: Operation = { code: 'submit', name: '提交', color: '#409EFF', show: true };

/**
 * The operations of a record: the server's row buttons (granted and allowed by its status), 提交 on an editable
 * record the caller may edit when the node's form buttons include it, and 操作日志 always (the server checks who may
 * read it).
 */
export function recordOperations(record: EngineRecord, formButtons: readonly Operation[] = []): Operation[] {
  const ops = (record.operations ?? []).filter((o) => o.show);
  const out = [...ops];
  const submit = formButtons.find((b) => b.code === 'submit' && b.show);
  const editable = ops.some((o) => o.code === 'edit') && isEditableStatus(record.status);
  if (submit && editable && !out.some((o) => o.code === 'submit')) {
    const at = out.findIndex((o) => o.code === 'edit');
    out.splice(at + 1, 0, {
      ...SUBMIT_FALLBACK,
      ...submit,
      name: record.status === 'rejected' ? '重新提交' : submit.name,
    });
  }
  out.push(LOG_OPERATION);
  return out;
}

/** A record as a table row: each column's text by its code, the status colour, the operations. */
export function recordRow(
  record: EngineRecord,
  ctx: RowContext,
  labelCache?: Map<string, Map<string, string>>,
): RecordRow {
  const byCode = new Map(ctx.fields.map((f) => [f.code, f]));
  const labels = labelCache ?? new Map<string, Map<string, string>>();
  const meta = statusMeta(record.status);
  const row: RecordRow = {
    id: record.id,
    __record: record,
    statusColor: meta.tag,
    operations: recordOperations(record, ctx.formButtons),
  };
  for (const f of ctx.fields) {
    let l = labels.get(f.code);
    if (!l) {
      l = optionLabels(f);
      labels.set(f.code, l);
    }
    row[f.code] = displayValue(f, record.values[f.code], l);
  }
  for (const c of ctx.columns) {
    if (byCode.has(c.code)) continue;
    if (c.type === 'operations') continue;
    if (c.type === 'auditFlow') row[c.code] = listAuditSteps(record);
    else if (c.code === 'createdAt' || c.code === 'updatedAt') row[c.code] = formatDateTime(record[c.code]);
    else if (isStatusColumn(c) || c.type === 'state') row[c.code] = meta.text;
  }
  return row;
}

/** The status text of a card (CardList reads it by statusKey). */
export const CARD_STATUS_KEY = '__statusText';

/** A record as a card: the row, with a CSS status colour for the card's border. */
export function recordCard(record: EngineRecord, ctx: RowContext, labelCache?: Map<string, Map<string, string>>) {
  const meta = statusMeta(record.status);
  return { ...recordRow(record, ctx, labelCache), statusColor: meta.color, [CARD_STATUS_KEY]: meta.text };
}

// ── search ──────────────────────────────────────────────────────────────────

const SEARCHABLE_TYPES = new Set([
  'text',
  'textarea',
  'select-edit',
  'number',
  'input-number',
  'date',
  'datetime',
  'daterange',
]);

/** A field as a search input: option fields as selects, dates (and date-times) as a range. */
function asSearchField(f: FieldDef): SearchField {
  const type = f.type === 'date' || f.type === 'datetime' ? 'daterange' : f.type;
  const options =
    f.type === 'sex' && !f.options?.list?.length
      ? {
          list: [
            { label: '男', value: '男' },
            { label: '女', value: '女' },
          ],
        }
      : f.options;
  return { code: f.code, name: f.name, type, options };
}

const searchable = (f: FieldDef) =>
  f.show !== false && (SEARCHABLE_TYPES.has(f.type) || isOptionType(f.type)) && !f.type.startsWith('transfer');

/**
 * The search bar's fields: the fields of the columns marked isSearch, in column order; a node without any gets its
 * first three searchable fields.
 */
export function searchFieldsOf(fields: readonly FieldDef[], columns: readonly TableColumn[]): SearchField[] {
  const byCode = new Map(fields.map((f) => [f.code, f]));
  const marked = columns
    .filter((c) => c.isSearch)
    .map((c) => byCode.get(c.code))
    .filter((f): f is FieldDef => Boolean(f && searchable(f)));
  const chosen = marked.length ? marked : fields.filter(searchable).slice(0, 3);
  return chosen.map(asSearchField);
}

/** The search popup (高级搜索): every searchable field of the node. */
export function popupFieldsOf(fields: readonly FieldDef[]): SearchField[] {
  return fields.filter(searchable).map(asSearchField);
}

/** A list's sort: a column code and antd's sort order. */
export interface ListSort {
  field: string;
  order: 'ascend' | 'descend';
}

/** Column types that show something other than the stored value: they never sort. */
const UNSORTABLE_TYPES = new Set(['operations', 'auditFlow', 'preview', 'download', 'link']);

/**
 * Whether the server can sort a list by this column: a field of the node (each is a column of the node's table and
 * whitelisted as a sort field) or the record's creation / last change time.
 */
export function isSortableColumn(column: TableColumn, fieldCodes: ReadonlySet<string>): boolean {
  if (UNSORTABLE_TYPES.has(column.type)) return false;
  return fieldCodes.has(column.code) || (SYSTEM_TIME_COLUMNS as readonly string[]).includes(column.code);
}

/** The state of a list's search, kept per list in session storage (searchParams). */
export interface SearchState {
  /** the search bar's and popup's normalised values */
  bar: Record<string, string>;
  /** header searches by column code */
  header: Record<string, string>;
  /** the filter card's tags */
  tags: SearchTag[];
  /** the left tree's choice */
  tree: { code: string; value: string } | null;
  /** the column the list is sorted by (the server's default order without) */
  sort?: ListSort | null;
}

export const EMPTY_SEARCH: SearchState = { bar: {}, header: {}, tags: [], tree: null };

function readAll(): Record<string, SearchState> {
  try {
    const raw = sessionStorage.getItem(SESSION_KEYS.searchParams);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, SearchState>)
      : {};
  } catch {
    return {};
  }
}

const stringMap = (v: unknown): Record<string, string> =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};

/** The saved search of a list (checked: anything malformed is dropped). */
export function readSearch(key: string): SearchState {
  const s = readAll()[key] as Partial<SearchState> | undefined;
  if (!s || typeof s !== 'object') return EMPTY_SEARCH;
  const tags = Array.isArray(s.tags)
    ? s.tags.filter(
        (t): t is SearchTag =>
          Boolean(t) && typeof t.code === 'string' && typeof t.bianma === 'string' && typeof t.val === 'string',
      )
    : [];
  const tree =
    s.tree && typeof s.tree.code === 'string' && typeof s.tree.value === 'string'
      ? { code: s.tree.code, value: s.tree.value }
      : null;
  const sort =
    s.sort && typeof s.sort.field === 'string' && (s.sort.order === 'ascend' || s.sort.order === 'descend')
      ? { field: s.sort.field, order: s.sort.order }
      : null;
  return { bar: stringMap(s.bar), header: stringMap(s.header), tags, tree, ...(sort ? { sort } : {}) };
}

export function writeSearch(key: string, state: SearchState): void {
  try {
    const all = readAll();
    all[key] = state;
    sessionStorage.setItem(SESSION_KEYS.searchParams, JSON.stringify(all));
  } catch {
    // storage unavailable: the search simply is not remembered
  }
}

export interface Condition {
  field: string;
  op: 'eq' | 'in';
  value: string | string[];
}

/**
 * What a search state asks of the server: `search` holds the bar's values and the header searches on fields (§5
 * normalised already; other columns have nothing to search); the filter tags (one value: eq, several: in) and the
 * left tree's choice go as whereStr conditions; the sort as sortField / order (asc | desc) on a field or a time.
 */
export function searchRequest(
  state: SearchState,
  fields: readonly FieldDef[],
): { search?: Record<string, string>; whereStr?: string; sortField?: string; order?: 'asc' | 'desc' } {
  const codes = new Set(fields.map((f) => f.code));
  const search: Record<string, string> = {};
  for (const [k, v] of Object.entries(state.bar)) if (codes.has(k) && v !== '') search[k] = v;
  for (const [k, v] of Object.entries(state.header)) if (codes.has(k) && v.trim() !== '') search[k] = v.trim();
  const grouped = new Map<string, string[]>();
  for (const t of state.tags) {
    if (!codes.has(t.code)) continue;
    grouped.set(t.code, [...(grouped.get(t.code) ?? []), t.bianma]);
  }
  const conditions: Condition[] = [...grouped].map(([field, values]) =>
    values.length === 1 ? { field, op: 'eq', value: values[0] } : { field, op: 'in', value: values },
  );
  if (state.tree && codes.has(state.tree.code)) {
    conditions.push({ field: state.tree.code, op: 'eq', value: state.tree.value });
  }
  const sort = state.sort;
  const sortable = sort && (codes.has(sort.field) || (SYSTEM_TIME_COLUMNS as readonly string[]).includes(sort.field));
  return {
    ...(Object.keys(search).length ? { search } : {}),
    ...(conditions.length ? { whereStr: JSON.stringify(conditions) } : {}),
    ...(sortable ? { sortField: sort.field, order: sort.order === 'descend' ? 'desc' : 'asc' } : {}),
  };
}

// ── table or cards ──────────────────────────────────────────────────────────

export type ListView = 'table' | 'card';
/** localStorage: the view each node's list was last shown in, by node code. */
export const LIST_VIEW_STORAGE_KEY = 'engineListView';

function readViews(): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(LIST_VIEW_STORAGE_KEY) ?? 'null');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The view a node's list was last switched to, or null. */
export function readListView(gnCoding: string): ListView | null {
  const v = readViews()[gnCoding];
  return v === 'table' || v === 'card' ? v : null;
}

export function writeListView(gnCoding: string, view: ListView): void {
  try {
    localStorage.setItem(LIST_VIEW_STORAGE_KEY, JSON.stringify({ ...readViews(), [gnCoding]: view }));
  } catch {
    // storage unavailable: the view simply is not remembered
  }
}

/** Normalised search values back as form values (dates as dayjs) for the search bar and popup. */
export function searchFormValues(values: Record<string, string>, fields: readonly SearchField[]) {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.code];
    if (v === undefined || v === '') continue;
    if (f.type === 'daterange') {
      const [a, b] = v.split(',');
      out[f.code] = [a ? dayjs(a) : null, b ? dayjs(b) : null];
    } else if (f.type === 'date' || f.type === 'datetime') out[f.code] = dayjs(v);
    else if (isCascaderType(f.type)) out[f.code] = [v];
    else out[f.code] = v;
  }
  return out;
}
