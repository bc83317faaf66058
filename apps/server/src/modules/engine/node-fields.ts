import { type FieldDef, isNumberType, isTextType, type TableColumn } from '@ks/contracts';
import type { Catalog, FieldKind } from './sqlsafe';

/**
 * A node's field list as the engine reads it (pure: no database): each field's column kind, the catalogue of what a
 * client may filter and sort on, and the searchable list columns.
 */

export function kindOf(type: string): FieldKind {
  if (isNumberType(type)) return 'number';
  if (type === 'date') return 'date';
  if (type === 'datetime') return 'datetime';
  return 'text';
}

/**
 * The fields a client may filter and sort on: every field is a real column. Free-text fields are searched with like;
 * option fields (select, radio …) and the rest by equality, which their index answers.
 */
export function catalogOf(fields: readonly FieldDef[]): Catalog {
  const c: Catalog = new Map();
  for (const f of fields) {
    const kind = kindOf(f.type);
    c.set(f.code, { kind, searchable: kind === 'text' && isTextType(f.type), sortable: true });
  }
  c.set('createdAt', { kind: 'datetime', searchable: false, sortable: true, column: 'created_at' });
  c.set('updatedAt', { kind: 'datetime', searchable: false, sortable: true, column: 'updated_at' });
  return c;
}

export const fieldsOf = (n: { fields: unknown }): FieldDef[] =>
  Array.isArray(n.fields) ? (n.fields as FieldDef[]) : [];

/** The codes of a node's searchable list columns. */
export const searchCodesOf = (columns: unknown): string[] =>
  (Array.isArray(columns) ? (columns as TableColumn[]) : []).filter((c) => c.isSearch).map((c) => c.code);
