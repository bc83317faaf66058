import {
  type EngineRecord,
  type FieldDef,
  isCascaderType,
  isMultiValueType,
  joinValue,
  type Operation,
  wallClockText,
} from '@ks/contracts';
import { sanitizeRichText } from '../../platform/sanitize';
import { fieldsOf, kindOf } from './node-fields';
import { columnOf, SYSTEM_COLUMNS } from './sqlsafe';

/**
 * A row of a node's table and a record as the API answers it (pure: no database): values read from their columns in
 * the form a form saves them, and values stored in the form their columns keep.
 */

export const rowsOf = (res: unknown) => (res as { rows: Record<string, unknown>[] }).rows;

/** PostgreSQL's text form of a UTC timestamptz, e.g. `2026-11-22 20:16:18.787654+00`. */
const PG_UTC = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/** A time as ISO 8601 in UTC; PostgreSQL's UTC text is rewritten directly (parsing a Date per cell is slow). */
export function iso(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  const s = String(v);
  const m = PG_UTC.exec(s);
  if (m) return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  return new Date(s).toISOString();
}

type Reader = { code: string; col: string; kind: ReturnType<typeof kindOf> };
/** Each field's column and kind, worked out once per field list (lists reuse theirs). */
const readers = new WeakMap<readonly FieldDef[], Reader[]>();
function readersOf(fields: readonly FieldDef[]) {
  let r = readers.get(fields);
  if (!r) {
    r = fields.map((f) => ({ code: f.code, col: columnOf(f.code), kind: kindOf(f.type) }));
    readers.set(fields, r);
  }
  return r;
}

/** The columns a record is read from: the system columns and its fields' columns. */
export const recordColumns = (fields: readonly FieldDef[]) => [
  ...SYSTEM_COLUMNS,
  ...readersOf(fields).map((r) => r.col),
];

/**
 * A column's value in the form the record is saved in, so that what a form loads it can save again unchanged: numbers
 * as numbers; a date as YYYY-MM-DD and a date-time as YYYY-MM-DD HH:mm — wall-clock text in the platform's zone, as
 * the `date` and `timestamp` columns (no zone) hold it; the drivers answer these columns as text.
 */
function answered(r: Reader, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (r.kind === 'number') return Number(v);
  if (r.kind === 'date' || r.kind === 'datetime') return wallClockText(r.kind, String(v));
  return v;
}

export function toRecord(row: Record<string, unknown>, fields: FieldDef[], operations: Operation[]): EngineRecord {
  const values: Record<string, unknown> = {};
  for (const f of readersOf(fields)) values[f.code] = answered(f, row[f.col]);
  return {
    id: String(row.id),
    status: String(row.status),
    version: Number(row.version),
    ownerId: String(row.owner_id),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    // the level under review (0 when none): a list's 审核流程 column shows it while the record is pending
    auditLevel: Number(row.audit_level ?? 0),
    values,
    operations,
  };
}

/** A record's state and values (as toRecord reads them) with its review round and enterprise: what modules see. */
export function recordStateOf(row: Record<string, unknown>, fields: FieldDef[]) {
  const r = toRecord(row, fields, []);
  return {
    id: r.id,
    status: r.status,
    version: r.version,
    round: Number(row.round),
    auditLevel: Number(row.audit_level),
    ownerId: r.ownerId,
    enterpriseId: row.enterprise_id === null || row.enterprise_id === undefined ? null : String(row.enterprise_id),
    values: r.values,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The stored form of a value: multi-values and cascader paths joined, numbers as numbers, empty as null. */
export function storedValue(f: FieldDef, v: unknown): unknown {
  if (v === undefined || v === null || v === '') return null;
  if (Array.isArray(v))
    return isMultiValueType(f.type) || isCascaderType(f.type) || f.type === 'daterange'
      ? joinValue(f.type, v)
      : String(v.at(-1) ?? '');
  if (kindOf(f.type) === 'number') return Number(v);
  // rich text: scripts, event handlers and javascript: URLs never reach the table
  if (f.type === 'editor') return sanitizeRichText(String(v));
  return String(v);
}

/** The name a record goes by in to-dos: the node's title and its first filled text field. */
export function businessNameOf(n: { title: string; fields: unknown }, row: Record<string, unknown>): string {
  const first = fieldsOf(n).find((f) => f.type === 'text' && row[`f_${f.code}`]);
  return first ? `${n.title}：${String(row[`f_${first.code}`])}`.slice(0, 200) : n.title;
}
