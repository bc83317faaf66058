/**
 * The SQL-safety core of the schema engine (ARCHITECTURE.md, Data and Security).
 *
 * - Identifiers: a node's table and its fields' columns are derived from validated codes (`n_<node>`, `f_<field>`)
 *   and quoted only after a strict check, so no configured code can reach DDL or SQL as text.
 * - Client filters (`whereStr`, search forms, sort) are parsed into a whitelist of known fields and operators;
 *   values only ever travel as bound parameters.
 */
import { isValidDate, PG_RESERVED_WORDS } from '@ks/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { badRequest, validationFailed } from '../../platform/errors';

// ---------------------------------------------------------------------------------------------------------------
// Identifiers

/**
 * PostgreSQL's reserved key words (contracts PG_RESERVED_WORDS: PostgreSQL 15's, and `system_user` from 16 on): no
 * field or node code may be one.
 */
export const RESERVED: ReadonlySet<string> = PG_RESERVED_WORDS;

/** PostgreSQL keeps the first 63 bytes of an identifier (NAMEDATALEN - 1) and silently drops the rest. */
export const MAX_IDENTIFIER = 63;
/** `f_` + code stays within 63 characters, so two codes can never be truncated into one column. */
export const MAX_FIELD_CODE = MAX_IDENTIFIER - 2;
/** `n_` + code stays within 63 characters. */
export const MAX_NODE_CODE = MAX_IDENTIFIER - 2;

/** The columns every node table has besides its fields; field columns are prefixed so they never collide. */
export const SYSTEM_COLUMNS = [
  'id',
  'owner_id',
  'enterprise_id',
  'status',
  'audit_level',
  'round',
  'version',
  'created_at',
  'updated_at',
] as const;

const FIELD_CODE = /^[a-z][a-z0-9_]*$/;
const NODE_CODE = /^[A-Za-z][A-Za-z0-9_]*$/;
const SAFE_IDENT = /^[a-z_][a-z0-9_]*$/;

/** A field code: a lower-case letter, then lower-case letters, digits or underscores, ≤ 61, not a reserved word. */
// (module-level, not a closure per call: these checks run for every column of every listed row)
const failOn = (key: string, message: string) => validationFailed({ [key]: [message] }, message);

export function assertFieldCode(code: unknown, key = 'code'): asserts code is string {
  if (typeof code !== 'string' || code === '') throw failOn(key, '字段编码不能为空');
  if (code.length > MAX_FIELD_CODE) throw failOn(key, `字段编码最多 ${MAX_FIELD_CODE} 个字符`);
  if (!FIELD_CODE.test(code)) throw failOn(key, '字段编码须以小写字母开头，只能包含小写字母、数字和下划线');
  if (RESERVED.has(code)) throw failOn(key, `字段编码“${code}”是数据库保留字，请换一个`);
}

/** A node code: a letter, then letters, digits or underscores, ≤ 61 (so that `n_<code>` fits in 63), not reserved. */
export function assertNodeCode(code: unknown, key = 'gnCoding'): asserts code is string {
  if (typeof code !== 'string' || code === '') throw failOn(key, '节点编码不能为空');
  if (code.length > MAX_NODE_CODE) throw failOn(key, `节点编码最多 ${MAX_NODE_CODE} 个字符`);
  if (!NODE_CODE.test(code)) throw failOn(key, '节点编码须以字母开头，只能包含字母、数字和下划线');
  // the `n_` prefix would make a reserved word a safe table name, but the issue's rule is plain: no reserved words
  if (RESERVED.has(code.toLowerCase())) throw failOn(key, `节点编码“${code}”是数据库保留字，请换一个`);
}

/** The column of a field: `f_<code>`. */
export function columnOf(code: string): string {
  assertFieldCode(code);
  return `f_${code}`;
}

/**
 * The table of a node: `n_<lower(nodeCode)>`. Node codes differing only in case share a table, so the caller must
 * keep node codes unique case-insensitively.
 */
export function tableOf(nodeCode: string): string {
  assertNodeCode(nodeCode);
  return `n_${nodeCode.toLowerCase()}`;
}

/** The last line of defence: only plain lower-case identifiers are ever quoted. Throws a server error otherwise. */
export function quoteIdent(name: string): string {
  if (typeof name !== 'string' || name.length > MAX_IDENTIFIER || !SAFE_IDENT.test(name)) {
    throw new Error(`refusing to quote identifier ${JSON.stringify(String(name).slice(0, 80))}`);
  }
  return `"${name}"`;
}

/** An identifier as a drizzle SQL chunk, after the strict check. */
export function ident(name: string): SQL {
  quoteIdent(name);
  return sql`${sql.identifier(name)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Field catalogue

export type FieldKind = 'text' | 'number' | 'date' | 'datetime';

/**
 * The column type of each kind. The DDL should create these types: filter values are cast to them, so an index on
 * the column matches the comparison exactly. Dates and times are wall-clock values (no time zone).
 */
export const COLUMN_TYPE: Readonly<Record<FieldKind, string>> = {
  text: 'text',
  number: 'numeric',
  date: 'date',
  datetime: 'timestamp',
};

export interface FieldInfo {
  kind: FieldKind;
  /** Text fields: searched with `like` from the search form (others: equality). */
  searchable: boolean;
  /** May be sorted on. */
  sortable: boolean;
  /**
   * Server-side override of the column (e.g. `created_at` for a system column exposed as a field); it still passes
   * the strict identifier check. Default: `columnOf(code)`.
   */
  column?: string;
}

/**
 * The fields a client may filter and sort on: field code → info (every one a real column of the table).
 */
export type Catalog = Map<string, FieldInfo>;

const columnFor = (code: string, info: FieldInfo) => info.column ?? columnOf(code);

// ---------------------------------------------------------------------------------------------------------------
// Conditions

export const OPERATORS = ['eq', 'ne', 'like', 'in', 'gt', 'gte', 'lt', 'lte', 'between', 'isNull', 'notNull'] as const;
export type Operator = (typeof OPERATORS)[number];
export type Scalar = string | number;

export type Condition =
  | { field: string; op: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte'; value: Scalar }
  | { field: string; op: 'like'; value: string }
  | { field: string; op: 'in'; value: Scalar[] }
  | { field: string; op: 'between'; value: [Scalar, Scalar] }
  | { field: string; op: 'isNull' | 'notNull' };

export const MAX_CONDITIONS = 20;
export const MAX_IN_VALUES = 100;
export const MAX_TEXT_VALUE = 200;
/** A whereStr longer than this is refused before parsing. */
export const MAX_WHERE_STR = 20_000;

const OPERATOR_SET: ReadonlySet<string> = new Set(OPERATORS);

/** Client text shown back in a message: short, one line. */
const shown = (s: string) => {
  const one = s.replace(/\s+/g, ' ');
  return one.length > 40 ? `${one.slice(0, 40)}…` : one;
};

function fieldOf(code: unknown, catalog: Catalog): FieldInfo {
  if (typeof code !== 'string' || code === '') throw badRequest('查询条件缺少字段名');
  const info = catalog.get(code);
  if (!info) throw badRequest(`未知的查询字段：${shown(code)}`);
  return info;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A real calendar day, by the contracts' rule (the one the form and record validation use). */
const validDate = (y: string, m: string, d: string): boolean => isValidDate(`${y}-${m}-${d}`);

type Bound = 'low' | 'high';

/**
 * One value checked against the field's kind, in the form bound as a parameter. `bound` says which end of a range
 * a date-only value stands for on a datetime field: the start of the day or its end.
 */
function valueFor(code: string, info: FieldInfo, raw: unknown, bound: Bound = 'low'): Scalar {
  const wrong = (hint: string) => badRequest(`字段 ${code} 的查询值不正确：${hint}`);
  if (raw === null || raw === undefined) throw wrong('不能为空');
  if (typeof raw === 'object') throw wrong('不能是数组或对象');
  if (typeof raw === 'string' && raw.includes('\u0000')) throw wrong('不能包含空字符');
  switch (info.kind) {
    case 'text': {
      if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
      if (typeof raw !== 'string') throw wrong('应为文本');
      if (raw.length > MAX_TEXT_VALUE) throw wrong(`最多 ${MAX_TEXT_VALUE} 个字符`);
      return raw;
    }
    case 'number': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' && NUMBER_TEXT.test(raw.trim()) ? Number(raw) : NaN;
      if (!Number.isFinite(n)) throw wrong('应为数字');
      return n;
    }
    case 'date': {
      if (typeof raw !== 'string') throw wrong('日期格式应为 YYYY-MM-DD');
      const m = DATE.exec(raw) ?? DATETIME.exec(raw);
      if (!m || !validDate(m[1]!, m[2]!, m[3]!) || !validTime(m[4], m[5], m[6])) {
        throw wrong('日期格式应为 YYYY-MM-DD');
      }
      return `${m[1]}-${m[2]}-${m[3]}`;
    }
    case 'datetime': {
      if (typeof raw !== 'string') throw wrong('时间格式应为 YYYY-MM-DD HH:mm');
      const d = DATE.exec(raw);
      if (d && validDate(d[1]!, d[2]!, d[3]!)) {
        return `${raw} ${bound === 'low' ? '00:00:00' : '23:59:59.999999'}`;
      }
      const t = DATETIME.exec(raw);
      if (!t || !validDate(t[1]!, t[2]!, t[3]!) || !validTime(t[4], t[5], t[6])) {
        throw wrong('时间格式应为 YYYY-MM-DD HH:mm');
      }
      return `${t[1]}-${t[2]}-${t[3]} ${t[4]}:${t[5]}:${t[6] ?? '00'}`;
    }
  }
}

function validTime(h?: string, mi?: string, s?: string): boolean {
  if (h === undefined) return true;
  return Number(h) <= 23 && Number(mi) <= 59 && (s === undefined || Number(s) <= 59);
}

const isDateOnly = (info: FieldInfo, raw: unknown) =>
  info.kind === 'datetime' && typeof raw === 'string' && DATE.test(raw);

/** One condition from its parts, checked against the catalogue. */
function conditionOf(code: unknown, opRaw: unknown, raw: unknown, catalog: Catalog): Condition {
  const info = fieldOf(code, catalog);
  const field = code as string;
  if (typeof opRaw !== 'string' || !OPERATOR_SET.has(opRaw)) {
    throw badRequest(`不支持的查询运算符：${shown(String(typeof opRaw === 'string' ? opRaw : JSON.stringify(opRaw)))}`);
  }
  const op = opRaw as Operator;
  if (op === 'like' && info.kind !== 'text') throw badRequest(`字段 ${field} 不支持模糊查询`);
  switch (op) {
    case 'isNull':
    case 'notNull':
      if (raw !== undefined && raw !== null) throw badRequest(`运算符 ${op} 不需要查询值`);
      return { field, op };
    case 'like':
      return { field, op, value: valueFor(field, info, raw) as string };
    case 'in': {
      if (!Array.isArray(raw) || raw.length === 0) throw badRequest(`运算符 in 的查询值应为非空数组`);
      if (raw.length > MAX_IN_VALUES) throw badRequest(`运算符 in 最多 ${MAX_IN_VALUES} 个值`);
      return { field, op, value: raw.map((v) => valueFor(field, info, v)) };
    }
    case 'between': {
      const pair = typeof raw === 'string' ? raw.split(',') : raw;
      if (!Array.isArray(pair) || pair.length !== 2) throw badRequest(`运算符 between 的查询值应为两个值`);
      return { field, op, value: [valueFor(field, info, pair[0], 'low'), valueFor(field, info, pair[1], 'high')] };
    }
    case 'eq':
      // A date on a datetime field means the whole day.
      if (isDateOnly(info, raw)) {
        return { field, op: 'between', value: [valueFor(field, info, raw, 'low'), valueFor(field, info, raw, 'high')] };
      }
      return { field, op, value: valueFor(field, info, raw) };
    case 'lte':
    case 'gt':
      // `<= day` and `> day` on a datetime field are about the end of that day.
      return { field, op, value: valueFor(field, info, raw, 'high') };
    default:
      return { field, op, value: valueFor(field, info, raw) };
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/**
 * `whereStr`: a JSON string, either `{field: value}` (equality) or `[{field, op, value}]`. Never SQL: anything that
 * is not a known field with a known operator and a value of the field's kind is a 400.
 */
export function parseWhereStr(whereStr: string | undefined | null, catalog: Catalog): Condition[] {
  if (whereStr === undefined || whereStr === null) return [];
  if (typeof whereStr !== 'string') throw badRequest('whereStr 应为 JSON 字符串');
  if (whereStr.trim() === '') return [];
  if (whereStr.length > MAX_WHERE_STR) throw badRequest('查询条件过长');
  let parsed: unknown;
  try {
    parsed = JSON.parse(whereStr);
  } catch {
    throw badRequest('whereStr 不是有效的 JSON');
  }
  if (Array.isArray(parsed)) {
    if (parsed.length > MAX_CONDITIONS) throw badRequest(`查询条件过多（最多 ${MAX_CONDITIONS} 个）`);
    return parsed.map((item) => {
      if (!isPlainObject(item)) throw badRequest('查询条件应为 {field, op, value} 对象');
      for (const k of Object.keys(item)) {
        if (k !== 'field' && k !== 'op' && k !== 'value') throw badRequest(`查询条件含有未知的属性：${shown(k)}`);
      }
      return conditionOf(item.field, item.op === undefined ? 'eq' : item.op, item.value, catalog);
    });
  }
  if (isPlainObject(parsed)) {
    const entries = Object.entries(parsed);
    if (entries.length > MAX_CONDITIONS) throw badRequest(`查询条件过多（最多 ${MAX_CONDITIONS} 个）`);
    return entries.map(([field, value]) => conditionOf(field, 'eq', value, catalog));
  }
  throw badRequest('whereStr 应为对象或数组');
}

// ---------------------------------------------------------------------------------------------------------------
// Sort

export interface Sort {
  column: string;
  dir: 'asc' | 'desc';
}

/** A whitelisted sort: a sortable field of the catalogue, asc/desc (or antd's ascend/descend). */
export function parseSort(
  sortField: string | undefined | null,
  order: string | undefined | null,
  catalog: Catalog,
): Sort | null {
  if (sortField === undefined || sortField === null || sortField === '') return null;
  if (typeof sortField !== 'string') throw badRequest('排序字段不正确');
  const info = catalog.get(sortField);
  if (!info) throw badRequest(`未知的排序字段：${shown(sortField)}`);
  if (!info.sortable) throw badRequest(`字段 ${sortField} 不支持排序`);
  let dir: Sort['dir'];
  if (order === undefined || order === null || order === '' || order === 'asc' || order === 'ascend') dir = 'asc';
  else if (order === 'desc' || order === 'descend') dir = 'desc';
  else throw badRequest('排序方式只能是 asc 或 desc');
  return { column: columnFor(sortField, info), dir };
}

// ---------------------------------------------------------------------------------------------------------------
// SQL

/** A LIKE pattern matching `text` anywhere, with `\`, `%` and `_` taken literally (backslash is LIKE's escape). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * How a value enters a statement: by default as a bound parameter; a caller that caches the statement's text binds a
 * named placeholder instead and fills it per run (see records.service). `key` names the value's place.
 */
export type Bind = (key: string, value: unknown) => SQL;
export const bindValue: Bind = (_key, value) => sql`${value}`;

/** The conditions as one SQL expression (`true` when there are none); every value is a bound parameter. */
export function whereSql(conditions: readonly Condition[], catalog: Catalog, bind: Bind = bindValue): SQL {
  if (conditions.length === 0) return sql`true`;
  return sql.join(
    conditions.map((c, i) => sql`(${conditionSql(c, catalog, (j, v) => bind(`w${i}_${j}`, v))})`),
    sql` and `,
  );
}

/** What decides the text `whereSql` writes for these conditions (not their values): fields, operators, counts. */
export function whereShape(conditions: readonly Condition[], catalog: Catalog): string {
  return conditions
    .map((c) => {
      const info = catalog.get(c.field);
      const n = c.op === 'in' ? c.value.length : 0;
      return `${c.field}:${info?.column ?? ''}:${info?.kind ?? ''}:${c.op}:${n}`;
    })
    .join('|');
}

/** The values a condition binds, in the order `conditionSql` binds them (j = 0, 1, …). */
export function conditionValues(c: Condition): unknown[] {
  switch (c.op) {
    case 'like':
      return [likePattern(c.value)];
    case 'in':
      return c.value;
    case 'between':
      return [c.value[0], c.value[1]];
    case 'isNull':
    case 'notNull':
      return [];
    default:
      return [c.value];
  }
}

/** The values `whereSql` binds for these conditions, under the keys it gives them. */
export function whereValues(conditions: readonly Condition[], into: Map<string, unknown>) {
  conditions.forEach((c, i) => {
    conditionValues(c).forEach((v, j) => {
      into.set(`w${i}_${j}`, v);
    });
  });
}

function conditionSql(c: Condition, catalog: Catalog, bind: (j: number, v: unknown) => SQL): SQL {
  const info = catalog.get(c.field);
  if (!info) throw new Error(`condition on a field outside the catalogue: ${c.field}`);
  const col = ident(columnFor(c.field, info));
  const type = sql.raw(COLUMN_TYPE[info.kind]);
  const values = conditionValues(c);
  const p = (j: number) => sql`${bind(j, values[j])}::${type}`;
  switch (c.op) {
    case 'eq':
      return sql`${col} = ${p(0)}`;
    case 'ne':
      return sql`${col} is distinct from ${p(0)}`;
    case 'gt':
      return sql`${col} > ${p(0)}`;
    case 'gte':
      return sql`${col} >= ${p(0)}`;
    case 'lt':
      return sql`${col} < ${p(0)}`;
    case 'lte':
      return sql`${col} <= ${p(0)}`;
    case 'like':
      return sql`${col} like ${bind(0, values[0])}::text`;
    case 'in':
      return sql`${col} in (${sql.join(
        values.map((_, j) => p(j)),
        sql`, `,
      )})`;
    case 'between':
      return sql`${col} between ${p(0)} and ${p(1)}`;
    case 'isNull':
      return sql`${col} is null`;
    case 'notNull':
      return sql`${col} is not null`;
  }
}

/**
 * ORDER BY for a sort (or the default: newest first), with the id as the tie-breaker so that pages are stable.
 * The default matches the `(…, created_at desc, id desc)` index of STACK.md.
 */
const dirSql = (d: Sort['dir']) => (d === 'desc' ? sql`desc` : sql`asc`);
const qualified = (name: string, qualifier?: string) =>
  qualifier ? sql`${ident(qualifier)}.${ident(name)}` : ident(name);

export function orderSql(sort: Sort | null, tieBreaker = 'id', qualifier?: string): SQL {
  if (!sort) return sql`${qualified('created_at', qualifier)} desc, ${qualified(tieBreaker, qualifier)} desc`;
  const dir = dirSql(sort.dir);
  if (sort.column === tieBreaker) return sql`${qualified(sort.column, qualifier)} ${dir}`;
  return sql`${qualified(sort.column, qualifier)} ${dir}, ${qualified(tieBreaker, qualifier)} ${dir}`;
}

/** The columns `orderSql(sort)` reads: the tie-breaker and the sort column (created_at by default). */
export function sortColumns(sort: Sort | null, tieBreaker = 'id'): string[] {
  const first = sort ? sort.column : 'created_at';
  return first === tieBreaker ? [tieBreaker] : [tieBreaker, first];
}

// ---------------------------------------------------------------------------------------------------------------
// Search forms (§5)

export type SearchParams = Record<string, string>;

const SEARCH_DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/;

function scalarText(key: string, v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw badRequest(`查询项 ${shown(key)} 的值不正确`);
    return String(v);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  throw badRequest(`查询项 ${shown(key)} 的值不正确`);
}

/**
 * A search form's values as §5 sends them: empty values dropped, a date range `[a, b]` joined with a comma (an
 * open end stays empty: `a,` or `,b`), any other array takes its last element. Objects are a 400.
 */
export function normaliseSearchParams(values: unknown): SearchParams {
  if (values === undefined || values === null) return {};
  if (!isPlainObject(values)) throw badRequest('查询参数格式不正确');
  const out: [string, string][] = [];
  for (const [key, v] of Object.entries(values)) {
    let text: string | null;
    if (Array.isArray(v)) {
      const items = v.map((x) => scalarText(key, x));
      const isRange =
        items.length === 2 && items.some((x) => x !== null) && items.every((x) => x === null || SEARCH_DATE.test(x));
      if (isRange) text = `${items[0] ?? ''},${items[1] ?? ''}`;
      else text = items.length ? (items[items.length - 1] ?? null) : null;
    } else {
      text = scalarText(key, v);
    }
    if (text !== null) out.push([key, text]);
  }
  // fromEntries defines own properties, so a key such as __proto__ stays plain data
  return Object.fromEntries(out);
}

/**
 * Normalised search values as conditions: a comma-joined range on a date or datetime field → between (or gte / lte
 * for an open end), text on a searchable text field → like, anything else → eq. Unknown fields are a 400.
 */
export function searchToConditions(params: SearchParams, catalog: Catalog): Condition[] {
  const entries = Object.entries(params);
  if (entries.length > MAX_CONDITIONS) throw badRequest(`查询条件过多（最多 ${MAX_CONDITIONS} 个）`);
  return entries.map(([field, value]) => {
    const info = fieldOf(field, catalog);
    if ((info.kind === 'date' || info.kind === 'datetime') && value.includes(',')) {
      const parts = value.split(',');
      if (parts.length !== 2) throw badRequest(`字段 ${field} 的日期范围不正确`);
      const [a, b] = parts as [string, string];
      if (a && b) return conditionOf(field, 'between', [a, b], catalog);
      if (a) return conditionOf(field, 'gte', a, catalog);
      if (b) return conditionOf(field, 'lte', b, catalog);
      throw badRequest(`字段 ${field} 的日期范围不正确`);
    }
    if (info.kind === 'text' && info.searchable) return conditionOf(field, 'like', value, catalog);
    return conditionOf(field, 'eq', value, catalog);
  });
}
