import { createHash } from 'node:crypto';
import { Code, type FieldDef, fmt, type UniqueKey, uniqueKeyTitles, uniqueViolationMessage } from '@ks/contracts';
import type { DbOrTx } from '../../db/client';
import { isUniqueViolation } from '../../db/sql';
import { AppError, validationFailed } from '../../platform/errors';
import { duplicateValues, holdWrites } from './schema.repo';
import { columnOf, type FieldKind, quoteIdent, tableOf } from './sqlsafe';

/**
 * A node's uniqueness constraints (contracts UniqueKey) as unique indexes on its record table, so that they hold
 * whatever runs at the same time: of two concurrent saves of the same value, the second waits for the first and is
 * refused by the index (SQLSTATE 23505), which a record save answers as a 409 naming the fields.
 *
 * The index is over the fields' columns (empty values are null, and nulls are never equal: a record with a field of
 * the key empty is not compared), text columns through `md5(…)::uuid` (16 bytes, whatever the length of the text: a
 * btree entry cannot hold more than about 2.7 kB), and for `withinEnterprise` the record's side first:
 * `coalesce(enterprise_id, owner_id)` — its enterprise, or its owner when it has none.
 */

export const uniqueKeysOf = (n: { uniqueKeys?: unknown }): UniqueKey[] =>
  Array.isArray(n.uniqueKeys) ? (n.uniqueKeys as UniqueKey[]) : [];

/** The name of a key's index on a node table: `u_` and 24 hex digits of its table, scope and fields. */
export function uniqueIndexName(nodeCode: string, key: UniqueKey): string {
  const shape = `${tableOf(nodeCode)}:unique:${key.withinEnterprise ? 'side' : 'all'}:${key.fields.join(',')}`;
  return `u_${createHash('sha1').update(shape).digest('hex').slice(0, 24)}`;
}

export interface PlannedUnique {
  name: string;
  ddl: string;
  /** which key of the node (its index in uniqueKeys) */
  index: number;
  key: UniqueKey;
}

/**
 * The unique indexes of a node table for its keys (whose fields the list has: uniqueKeyProblems checked that), built
 * from checked identifiers only. `kindOf` tells a field's column kind.
 */
export function uniqueIndexPlan(
  nodeCode: string,
  fields: readonly FieldDef[],
  keys: readonly UniqueKey[],
  kindOf: (type: string) => FieldKind,
): PlannedUnique[] {
  const table = quoteIdent(tableOf(nodeCode));
  return keys.map((key, index) => {
    const parts = key.fields.map((code) => {
      const f = fields.find((x) => x.code === code);
      if (!f) throw new Error(`unique key of ${nodeCode} names no field ${code}`);
      const col = quoteIdent(columnOf(code));
      return kindOf(f.type) === 'text' ? `(md5(${col})::uuid)` : col;
    });
    if (key.withinEnterprise) parts.unshift('(coalesce("enterprise_id", "owner_id"))');
    const name = uniqueIndexName(nodeCode, key);
    return {
      name,
      ddl: `create unique index if not exists ${quoteIdent(name)} on ${table} (${parts.join(', ')})`,
      index,
      key,
    };
  });
}

/**
 * Refuses (400, naming the duplicated values) to add unique indexes that the table's records already break. Takes
 * the table's share lock first (writes wait until the transaction ends), so nothing breaks the key between the check
 * and the index. `creating`: the planned indexes about to be created.
 */
export async function assertNoDuplicates(
  q: DbOrTx,
  nodeCode: string,
  fields: readonly FieldDef[],
  creating: readonly PlannedUnique[],
): Promise<void> {
  if (!creating.length) return;
  await holdWrites(q, nodeCode);
  for (const p of creating) {
    const dups = await duplicateValues(q, nodeCode, p.key.fields.map(columnOf), !!p.key.withinEnterprise, 3);
    if (!dups.length) continue;
    const values = dups
      .map((r) => `${p.key.fields.map((_, i) => String(r[`v${i}`]).slice(0, 40)).join(' / ')}：${r.n} 条`)
      .join('；');
    const message = fmt(DUPLICATES, {
      scope: p.key.withinEnterprise ? '同一企业内' : '',
      titles: uniqueKeyTitles(fields, p.key),
      values,
    });
    throw validationFailed({ [`uniqueKeys.${p.index}.fields`]: [message] }, message);
  }
}

const DUPLICATES = '已有记录{scope}的{titles}重复（{values}），不能设为唯一，请先处理这些记录';

/**
 * The answer to a record write that broke one of the node's unique keys: 409 with the message of contracts'
 * uniqueViolationMessage, also under each of the key's fields (`values.<code>`); null for any other error.
 */
export function uniqueViolationOf(
  e: unknown,
  n: { gnCoding: string; fields: unknown; uniqueKeys?: unknown },
): AppError | null {
  if (!isUniqueViolation(e)) return null;
  const fields = Array.isArray(n.fields) ? (n.fields as FieldDef[]) : [];
  for (const key of uniqueKeysOf(n)) {
    if (!isUniqueViolation(e, uniqueIndexName(n.gnCoding, key))) continue;
    const message = uniqueViolationMessage(fields, key);
    return new AppError(409, Code.CONFLICT, message, {
      fieldErrors: Object.fromEntries(key.fields.map((c) => [`values.${c}`, [message]])),
    });
  }
  return null;
}
