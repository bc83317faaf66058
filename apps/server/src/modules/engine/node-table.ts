import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { nodeDataVersions } from '../../db/schema';
import { conflict } from '../../platform/errors';
import { rowsOf } from './record-row';
import { COLUMN_TYPE, type FieldKind, quoteIdent, tableOf } from './sqlsafe';

/**
 * A node's record table as it really is in the database (not as its field list says it should be): its columns with
 * their types, read from pg_attribute. Schema changes compare against this, so a table or column left behind by an
 * earlier node of the same code is never silently taken over (`create … if not exists` would have kept its rows and
 * its column types).
 */

/** The type names pg_attribute / format_type give for COLUMN_TYPE. */
export const PG_TYPE_NAME: Readonly<Record<FieldKind, string>> = {
  text: 'text',
  number: 'numeric',
  date: 'date',
  datetime: 'timestamp without time zone',
};
if (Object.keys(PG_TYPE_NAME).some((k) => !(k in COLUMN_TYPE))) throw new Error('PG_TYPE_NAME out of step');

/** The node table's name, or null when the code cannot name one (a reserved word: the engine never made a table). */
export function tableNameOf(nodeCode: string): string | null {
  try {
    return tableOf(nodeCode);
  } catch {
    return null;
  }
}

/** The table's columns (name → format_type), or null when the node has no table. */
export async function tableColumns(q: DbOrTx, nodeCode: string): Promise<Map<string, string> | null> {
  const table = tableNameOf(nodeCode);
  if (!table) return null;
  const rows = rowsOf(
    await q.execute(
      sql`select a.attname as "name", format_type(a.atttypid, a.atttypmod) as "type" from pg_attribute a join pg_class c on c.oid = a.attrelid where c.relname = ${table} and c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`,
    ),
  );
  return rows.length ? new Map(rows.map((r) => [String(r.name), String(r.type)])) : null;
}

/** How many rows the table holds, counted up to `cap` (the table must exist). */
export async function rowCount(q: DbOrTx, table: string, cap = 1_000_000): Promise<number> {
  const [r] = rowsOf(
    await q.execute(sql.raw(`select count(*)::int as n from (select 1 from ${quoteIdent(table)} limit ${cap}) t`)),
  );
  return Number(r?.n ?? 0);
}

/** How many rows hold a value in the column, counted up to 1,000. */
export async function valuesIn(q: DbOrTx, table: string, column: string): Promise<number> {
  const [r] = rowsOf(
    await q.execute(
      sql.raw(
        `select count(*)::int as n from (select 1 from ${quoteIdent(table)} where ${quoteIdent(column)} is not null limit 1000) t`,
      ),
    ),
  );
  return Number(r?.n ?? 0);
}

/**
 * The statements that put a table left behind by an earlier node of this code out of the way before the node's own
 * table is made: an empty one is dropped; one with records is archived under a new name (`ks_archive_<time>_<hash>`)
 * with its constraint, its managed indexes and its data-version trigger out of the new table's way. Answers the
 * statements (run them in the caller's transaction) and a line for the log.
 */
export async function leftoverTableChanges(
  q: DbOrTx,
  nodeCode: string,
  now: Date,
): Promise<{ ddl: string[]; log: string } | null> {
  const table = tableNameOf(nodeCode);
  if (!table || !(await tableColumns(q, nodeCode))) return null;
  // nothing may write to it while it is inspected and moved
  await q.execute(sql.raw(`lock table ${quoteIdent(table)} in access exclusive mode`));
  const rows = await rowCount(q, table);
  if (rows === 0) return { ddl: [`drop table ${quoteIdent(table)}`], log: `删除遗留的空数据表 ${table}` };
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  const hash = createHash('sha1').update(`${table}:${now.getTime()}`).digest('hex').slice(0, 8);
  const archive = `ks_archive_${stamp}_${hash}`;
  const indexes = rowsOf(
    await q.execute(
      sql`select indexname as "name" from pg_indexes where schemaname = current_schema() and tablename = ${table} and indexname <> ${`${table}_pkey`}`,
    ),
  ).map((r) => String(r.name));
  const ddl = [
    `drop trigger if exists "ks_data_version" on ${quoteIdent(table)}`,
    ...indexes.map((i) => `drop index if exists ${quoteIdent(i)}`),
    `alter table ${quoteIdent(table)} rename constraint ${quoteIdent(`${table}_pkey`)} to ${quoteIdent(`${archive}_pkey`)}`,
    `alter table ${quoteIdent(table)} rename to ${quoteIdent(archive)}`,
  ];
  return { ddl, log: `归档遗留数据表 ${table}（${rows} 条记录）为 ${archive}` };
}

/**
 * Deleting a node: its table goes with it when it holds no record; a node with records is refused (409), so that a new
 * node of the same code never shows them. Run inside the deleting transaction; answers the statements it ran.
 */
export async function dropNodeTable(
  q: DbOrTx,
  node: { id: string; gnCoding: string; title: string },
): Promise<string[]> {
  const table = tableNameOf(node.gnCoding);
  if (!table || !(await tableColumns(q, node.gnCoding))) return [];
  await q.execute(sql.raw(`lock table ${quoteIdent(table)} in access exclusive mode`));
  const rows = await rowCount(q, table, 1000);
  if (rows > 0) {
    throw conflict(
      `节点「${node.title}」已有 ${rows >= 1000 ? '1000 条以上' : `${rows} 条`}业务记录，不能删除；如不再使用，请在菜单设置中禁用或隐藏该节点`,
    );
  }
  const ddl = [`drop table ${quoteIdent(table)}`];
  for (const stmt of ddl) await q.execute(sql.raw(stmt));
  await q.delete(nodeDataVersions).where(sql`${nodeDataVersions.nodeId} = ${node.id}::uuid`);
  return ddl;
}
