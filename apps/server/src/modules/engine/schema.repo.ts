import type { FieldDef, UniqueKey } from '@ks/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { menuNodes, nodeSchemaHistory } from '../../db/schema';
import { notFound } from '../../platform/errors';
import { fieldsOf } from './node-fields';
import { rowsOf } from './record-row';
import { quoteIdent, tableOf } from './sqlsafe';

/**
 * The SQL of a node's schema: its row in menu_nodes (fields, unique keys, version), its history, and what the
 * catalogue says about its table (indexes, trigger). DDL statements come from schema.service, built from checked
 * identifiers only; this module runs them.
 */

export async function nodeForEngine(q: DbOrTx, gnCoding: string) {
  const [n] = await q.select().from(menuNodes).where(eq(menuNodes.gnCoding, gnCoding));
  if (!n) throw notFound('节点不存在');
  return n;
}

/** Every node whose records the engine keeps (with fields saved). */
export function engineNodes(q: DbOrTx) {
  return q
    .select()
    .from(menuNodes)
    .where(and(eq(menuNodes.dataSource, 'engine'), sql`${menuNodes.fieldsVersion} > 0`));
}

/** The fields of an engine node with fields, or null (another source, none yet, no such node). */
export async function nodeFieldsOrNull(q: DbOrTx, gnCoding: string): Promise<FieldDef[] | null> {
  const [n] = await q
    .select({ fields: menuNodes.fields, fieldsVersion: menuNodes.fieldsVersion, dataSource: menuNodes.dataSource })
    .from(menuNodes)
    .where(eq(menuNodes.gnCoding, gnCoding));
  if (n?.dataSource !== 'engine' || n.fieldsVersion === 0) return null;
  return fieldsOf(n);
}

/** Saves the node's fields and unique keys as version `version + 1`, if it is still at `version`; the row or none. */
export async function updateNodeSchema(
  q: DbOrTx,
  nodeId: string,
  version: number,
  set: { fields: FieldDef[]; uniqueKeys: UniqueKey[] },
) {
  const [u] = await q
    .update(menuNodes)
    .set({ ...set, fieldsVersion: version + 1, updatedAt: new Date() })
    .where(and(eq(menuNodes.id, nodeId), eq(menuNodes.fieldsVersion, version)))
    .returning();
  return u;
}

export async function insertSchemaHistory(
  q: DbOrTx,
  h: { nodeId: string; version: number; fields: FieldDef[]; ddl: string[]; createdBy: string | null },
) {
  await q.insert(nodeSchemaHistory).values(h);
}

/** The names of the indexes on a node's table. */
export async function indexNamesOf(q: DbOrTx, nodeCode: string): Promise<Set<string>> {
  const res = await q.execute(
    sql`select indexname as "name" from pg_indexes where schemaname = current_schema() and tablename = ${tableOf(nodeCode)}`,
  );
  return new Set(rowsOf(res).map((r) => String(r.name)));
}

/** Has the node's table its data-version trigger (schema.service dataVersionTriggerDdl)? */
export async function hasDataVersionTrigger(q: DbOrTx, nodeCode: string): Promise<boolean> {
  const res = await q.execute(
    sql`select 1 from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relname = ${tableOf(nodeCode)} and c.relnamespace = current_schema()::regnamespace and t.tgname = 'ks_data_version'`,
  );
  return rowsOf(res).length > 0;
}

/** Runs DDL statements built by schema.service (from checked identifiers and constant types only). */
export async function runDdl(q: DbOrTx, statements: readonly string[]) {
  for (const stmt of statements) await q.execute(sql.raw(stmt));
}

/** Serialises schema changes between processes until the transaction ends. */
export async function schemaLock(q: DbOrTx) {
  await q.execute(sql`select pg_advisory_xact_lock(7301002)`);
}

/** Holds off writes to the node's table until the transaction ends (share lock). */
export async function holdWrites(q: DbOrTx, nodeCode: string) {
  await q.execute(sql.raw(`lock table ${quoteIdent(tableOf(nodeCode))} in share mode`));
}

/**
 * Values of `columns` that more than one row holds (every column filled; `withinSide`: within one record side,
 * `coalesce(enterprise_id, owner_id)`), the most repeated first, at most `limit`: `v0`, `v1` … as text, and `n`.
 */
export async function duplicateValues(
  q: DbOrTx,
  nodeCode: string,
  columns: readonly string[],
  withinSide: boolean,
  limit: number,
) {
  const cols = columns.map(quoteIdent);
  const groups = [...(withinSide ? ['coalesce("enterprise_id", "owner_id")'] : []), ...cols];
  const shown = cols.map((c, i) => `${c}::text as "v${i}"`).join(', ');
  return rowsOf(
    await q.execute(
      sql.raw(
        `select ${shown}, count(*)::int as "n" from ${quoteIdent(tableOf(nodeCode))} where ${cols.map((c) => `${c} is not null`).join(' and ')} group by ${groups.join(', ')} having count(*) > 1 order by count(*) desc limit ${Math.trunc(limit)}`,
      ),
    ),
  );
}

/** A node table's column statistics as PostgreSQL keeps them (`pg_stats`; none before the table is analysed). */
export async function columnStatistics(db: DbOrTx, table: string) {
  type Row = { attname: string; null_frac: number; mcv: string[] | null; mcf: number[] | null; hist: string[] | null };
  return rowsOf(
    await db.execute(sql`select attname, null_frac, most_common_vals::text::text[] as mcv, most_common_freqs as mcf,
      histogram_bounds::text::text[] as hist from pg_stats where schemaname = current_schema() and tablename = ${table}`),
  ) as unknown as Row[];
}
