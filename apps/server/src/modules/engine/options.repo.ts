import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { dictionaries } from '../../db/schema';
import { rowsOf } from './record-row';
import { ident, likePattern } from './sqlsafe';

/**
 * The SQL of option sources: dictionaries (and the qualification tree, one of them), the options of a pull-down
 * source (another node's records, or a table such as the enterprises), and an enterprise's own details.
 */

export interface DicItem {
  label: string;
  value: string;
  parent: string;
}

/** The enabled items of a dictionary, in their order. */
export async function dictionaryItems(q: DbOrTx, code: string): Promise<DicItem[]> {
  return q
    .select({ label: dictionaries.label, value: dictionaries.value, parent: dictionaries.parent })
    .from(dictionaries)
    .where(and(eq(dictionaries.code, code), eq(dictionaries.enabled, true)))
    .orderBy(asc(dictionaries.sort), asc(dictionaries.id));
}

/** Which of these dictionary codes exist (have at least one enabled item). */
export async function existingDictionaries(q: DbOrTx, codes: string[]): Promise<Set<string>> {
  if (!codes.length) return new Set();
  const rows = await q
    .selectDistinct({ code: dictionaries.code })
    .from(dictionaries)
    .where(and(inArray(dictionaries.code, codes), eq(dictionaries.enabled, true)));
  return new Set(rows.map((r) => r.code));
}

/** Every dictionary with enabled items: its code, item count and first top-level labels. */
export async function dictionarySummaries(q: DbOrTx): Promise<{ code: string; count: number; sample: string[] }[]> {
  const res = await q.execute(
    sql`select ${dictionaries.code} as "code", count(*)::int as "count",
      (array_agg(${dictionaries.label} order by ${dictionaries.sort}, ${dictionaries.id})
        filter (where ${dictionaries.parent} = ''))[1:3] as "sample"
      from ${dictionaries} where ${dictionaries.enabled} group by ${dictionaries.code} order by ${dictionaries.code}`,
  );
  return rowsOf(res).map((r) => ({
    code: String(r.code),
    count: Number(r.count),
    sample: Array.isArray(r.sample) ? r.sample.map(String) : [],
  }));
}

export interface OptionSourceQuery {
  /** the source table and its label and value columns (checked identifiers) */
  table: string;
  labelColumn: string;
  valueColumn: string;
  /** column → accepted values (compared as text) */
  where: readonly [string, readonly string[]][];
  /** only these values */
  values?: readonly string[];
  /** labels containing this text (LIKE wildcards taken literally) */
  key?: string;
  /** the rows the caller may take: one enterprise (`id`; none: nothing), or a node's passed records in `passedIn` */
  only?: { id: string | null } | { passedIn: SQL };
  limit: number;
}

/** Distinct {label, value} pairs (as text) of a source, every condition holding, in order, at most `limit`. */
export async function optionRows(q: DbOrTx, p: OptionSourceQuery): Promise<{ label: unknown; value: unknown }[]> {
  const label = sql`${ident(p.labelColumn)}::text`;
  const value = sql`${ident(p.valueColumn)}::text`;
  const list = (values: readonly string[]) =>
    sql.join(
      values.map((v) => sql`${v}`),
      sql`, `,
    );
  const where: SQL[] = [];
  if (p.only && 'id' in p.only) where.push(p.only.id ? sql`"id" = ${p.only.id}::uuid` : sql`false`);
  if (p.only && 'passedIn' in p.only) where.push(sql`"status" = 'passed'`, p.only.passedIn);
  for (const [column, values] of p.where) where.push(sql`${ident(column)}::text in (${list(values)})`);
  if (p.values) where.push(p.values.length ? sql`${value} in (${list(p.values)})` : sql`false`);
  if (p.key) where.push(sql`${label} like ${likePattern(p.key)}`);
  where.push(sql`${value} is not null`);
  const res = await q.execute(
    sql`select distinct ${label} as "label", ${value} as "value" from ${ident(p.table)} where ${sql.join(where, sql` and `)} order by 1, 2 limit ${p.limit}`,
  );
  return rowsOf(res).map((r) => ({ label: r.label, value: r.value }));
}

/** An enterprise's details as the pull-down source `enterprises` offers them (by column name), or undefined. */
export async function enterpriseRow(q: DbOrTx, id: string): Promise<Record<string, unknown> | undefined> {
  const [row] = rowsOf(
    await q.execute(
      sql`select "name", "credit_code", "region", "enterprise_type" from "enterprises" where "id" = ${id}::uuid`,
    ),
  );
  return row;
}
