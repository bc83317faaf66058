import {
  MATERIAL_CITIES,
  MATERIAL_CITY_WIDE,
  MATERIAL_CLASSIFICATIONS,
  MATERIAL_COUNT_CAP,
  type MaterialCountOption,
  type MaterialPeriod,
  type MaterialPrice,
  type MaterialStatus,
  type MaterialTitle,
  materialPeriodLabel,
} from '@ks/contracts';
import { and, asc, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { materialPeriods, materialPrices, users } from '../../db/schema';
import { likePattern } from '../../db/sql';
import type { MaterialRow } from './material.xlsx';

/** The SQL of 材料信息价: periods, the price pages and their facets. Values are always bound, never spliced. */

type PeriodRow = typeof materialPeriods.$inferSelect;

export const periodOut = (p: PeriodRow, importedByName: string): MaterialPeriod => ({
  id: p.id,
  period: p.period,
  label: materialPeriodLabel(p.period),
  city: p.city,
  status: p.status as MaterialStatus,
  rowCount: p.rowCount,
  fileName: p.fileName,
  importedAt: p.importedAt.toISOString(),
  importedByName,
  publishedAt: p.publishedAt?.toISOString() ?? null,
});

const periodSelect = { p: materialPeriods, importedByName: users.userName };

export async function periodById(q: DbOrTx, id: string) {
  const [r] = await q
    .select(periodSelect)
    .from(materialPeriods)
    .innerJoin(users, eq(users.id, materialPeriods.importedById))
    .where(eq(materialPeriods.id, id));
  return r ? periodOut(r.p, r.importedByName) : null;
}

/** Published periods (of a city), newest first — or oldest first. */
export async function publishedPeriods(q: DbOrTx, city: string | undefined, oldestFirst = false) {
  const rows = await q
    .select(periodSelect)
    .from(materialPeriods)
    .innerJoin(users, eq(users.id, materialPeriods.importedById))
    .where(and(eq(materialPeriods.status, 'published'), city ? eq(materialPeriods.city, city) : undefined))
    .orderBy(
      oldestFirst ? asc(materialPeriods.period) : desc(materialPeriods.period),
      asc(materialPeriods.city),
      asc(materialPeriods.id),
    );
  return rows.map((r) => periodOut(r.p, r.importedByName));
}

/** The published period of a city: the one named, or the newest. */
export async function publishedPeriodOf(q: DbOrTx, city: string, period?: string) {
  const [r] = await q
    .select(periodSelect)
    .from(materialPeriods)
    .innerJoin(users, eq(users.id, materialPeriods.importedById))
    .where(
      and(
        eq(materialPeriods.status, 'published'),
        eq(materialPeriods.city, city),
        period ? eq(materialPeriods.period, period) : undefined,
      ),
    )
    .orderBy(desc(materialPeriods.period))
    .limit(1);
  return r ? periodOut(r.p, r.importedByName) : null;
}

/** The ids of a city's published periods between from and to (inclusive). */
export async function publishedPeriodIds(q: DbOrTx, city: string, from?: string, to?: string) {
  const rows = await q
    .select({ id: materialPeriods.id })
    .from(materialPeriods)
    .where(
      and(
        eq(materialPeriods.status, 'published'),
        eq(materialPeriods.city, city),
        from ? gte(materialPeriods.period, from) : undefined,
        to ? lte(materialPeriods.period, to) : undefined,
      ),
    );
  return rows.map((r) => r.id);
}

export async function citiesWithPublished(q: DbOrTx, period?: string) {
  const rows = await q
    .select({ city: materialPeriods.city, periods: sql<number>`count(*)::int` })
    .from(materialPeriods)
    .where(and(eq(materialPeriods.status, 'published'), period ? eq(materialPeriods.period, period) : undefined))
    .groupBy(materialPeriods.city);
  const order = Object.keys(MATERIAL_CITIES);
  return rows.sort((a, b) => order.indexOf(a.city) - order.indexOf(b.city));
}

export async function adminPeriods(
  q: DbOrTx,
  f: { city?: string; status?: MaterialStatus; pageNum: number; pageSize: number },
) {
  const where = and(
    f.city ? eq(materialPeriods.city, f.city) : undefined,
    f.status ? eq(materialPeriods.status, f.status) : undefined,
  );
  const [{ n }] = (await q.select({ n: sql<number>`count(*)::int` }).from(materialPeriods).where(where)) as [
    { n: number },
  ];
  const rows = await q
    .select(periodSelect)
    .from(materialPeriods)
    .innerJoin(users, eq(users.id, materialPeriods.importedById))
    .where(where)
    .orderBy(desc(materialPeriods.period), asc(materialPeriods.city), desc(materialPeriods.importedAt))
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize);
  return { records: rows.map((r) => periodOut(r.p, r.importedByName)), total: n };
}

export interface PriceFilters {
  county?: string;
  classification?: string;
  materialGroup?: string;
  keyWord?: string;
}

/** the where clause of a page or a facet; `except`: the filter a facet lists the values of */
function whereOf(periodIds: string[], f: PriceFilters, except?: keyof PriceFilters): SQL | undefined {
  const p = materialPrices;
  const county = f.county === MATERIAL_CITY_WIDE ? '' : f.county;
  return and(
    periodIds.length === 1 ? eq(p.periodId, periodIds[0]!) : inArray(p.periodId, periodIds),
    county !== undefined && county !== null && f.county && except !== 'county' ? eq(p.county, county) : undefined,
    f.classification && except !== 'classification' ? eq(p.classification, f.classification) : undefined,
    f.materialGroup && except !== 'materialGroup' ? eq(p.materialGroup, f.materialGroup) : undefined,
    f.keyWord ? keywordWhere(f.keyWord) : undefined,
  );
}

/** The character pairs of a text, as material_grams (migration 0052) makes them: by code point. */
export function gramsOf(text: string): string[] {
  const chars = Array.from(text);
  const out = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
  return [...out].sort();
}

/** A text[] literal of these values (each quoted, `"` and `\` escaped): bound as one parameter. */
const textArray = (values: string[]) => `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;

/**
 * Name or code holding the keyword. An ASCII keyword of three characters or more (a code: CL001002, HRB) is a `like`
 * the trigram index serves — its pairs (00, 01) are in most rows, and reading their long GIN lists cost more than the
 * trigrams' (bench:material). Any other keyword of two characters or more — Chinese above all, where 钢管 has no
 * trigram — first goes through the GIN index of its character pairs (`grams`), then the `like` checks it; one
 * character: the `like` alone.
 */
function keywordWhere(keyWord: string): SQL {
  const k = keyWord.toLowerCase();
  const like = sql`${materialPrices.searchText} like ${likePattern(k)}`;
  if (k.length >= 3 && /^[\x20-\x7e]+$/.test(k)) return like;
  const grams = gramsOf(k);
  return grams.length ? sql`${materialPrices.grams} @> ${textArray(grams)}::text[] and ${like}` : like;
}

const SORTS = {
  code: materialPrices.code,
  name: materialPrices.name,
  priceIn: materialPrices.priceIn,
  priceEx: materialPrices.priceEx,
} as const;

/** A page of prices of these periods, counted up to MATERIAL_COUNT_CAP. */
export async function pricePage(
  q: DbOrTx,
  periodIds: string[],
  f: PriceFilters & {
    pageNum: number;
    pageSize: number;
    sort?: keyof typeof SORTS;
    order?: 'asc' | 'desc';
  },
): Promise<{ records: MaterialPrice[]; total: number; capped: boolean }> {
  if (!periodIds.length) return { records: [], total: 0, capped: false };
  const p = materialPrices;
  const where = whereOf(periodIds, f);
  const dir = f.order === 'desc' ? desc : asc;
  const order = [
    dir(SORTS[f.sort ?? 'code']),
    ...(periodIds.length > 1 ? [desc(materialPeriods.period)] : []),
    asc(p.id),
  ];
  const columns = {
    id: p.id,
    period: materialPeriods.period,
    city: materialPeriods.city,
    county: p.county,
    classification: p.classification,
    materialGroup: p.materialGroup,
    code: p.code,
    name: p.name,
    spec: p.spec,
    unit: p.unit,
    priceEx: p.priceEx,
    priceIn: p.priceIn,
    remark: p.remark,
  };
  const rowsOf = (cond: SQL | undefined) =>
    q.select(columns).from(p).innerJoin(materialPeriods, eq(materialPeriods.id, p.periodId)).where(cond);
  const toRecord = (r: Awaited<ReturnType<typeof rowsOf>>[number]): MaterialPrice => ({
    ...r,
    id: String(r.id),
    county: r.county || MATERIAL_CITY_WIDE,
  });

  if (f.keyWord) {
    // a search: its matches (at most CAP + 1) are collected once, through the filters' GIN index of period, county,
    // class and character pairs, then counted and sorted in one statement; only the page's rows are read in full.
    // Left to itself the planner would count and sort in two passes, or walk the code index in order and test every
    // row of the period for a rare keyword (bench:material).
    const sortKey = SORTS[f.sort ?? 'code'];
    const m = q
      .select({ id: p.id, key: sql`${sortKey}`.as('sort_key'), periodId: p.periodId })
      .from(p)
      .where(where)
      .limit(MATERIAL_COUNT_CAP + 1)
      .as('m');
    const top = await q
      .select({ id: m.id, n: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(m)
      .innerJoin(materialPeriods, eq(materialPeriods.id, m.periodId))
      .orderBy(dir(m.key), ...(periodIds.length > 1 ? [desc(materialPeriods.period)] : []), asc(m.id))
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize);
    const n = top[0]?.n ?? (f.pageNum > 1 ? await countOf(q, where) : 0);
    if (n <= MATERIAL_COUNT_CAP) {
      const ids = top.map((t) => t.id);
      const byId = new Map((ids.length ? await rowsOf(inArray(p.id, ids)) : []).map((r) => [r.id, r]));
      return {
        records: ids.flatMap((id) => {
          const r = byId.get(id);
          return r ? [toRecord(r)] : [];
        }),
        total: n,
        capped: false,
      };
    }
  }
  // no search, or one matching more than CAP rows: counted up to CAP through the filters' composite index (index
  // only), and the page read in index order
  const n = await countOf(q, where);
  const rows = await rowsOf(where)
    .orderBy(...order)
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize);
  return {
    records: rows.map(toRecord),
    total: Math.min(n, MATERIAL_COUNT_CAP),
    capped: n > MATERIAL_COUNT_CAP,
  };
}

/** The rows matching `where`, counted up to MATERIAL_COUNT_CAP + 1. */
async function countOf(q: DbOrTx, where: SQL | undefined): Promise<number> {
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${materialPrices} where ${where} limit ${MATERIAL_COUNT_CAP + 1}) s`,
  );
  return Number((counted as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

/** The values of one column among these periods' rows (the other filters applied), with their row counts. */
export async function facet(
  q: DbOrTx,
  periodIds: string[],
  column: 'county' | 'classification' | 'materialGroup',
  f: PriceFilters = {},
): Promise<MaterialCountOption[]> {
  if (!periodIds.length) return [];
  const col = materialPrices[column];
  const rows = await q
    .select({ value: col, count: sql<number>`count(*)::int` })
    .from(materialPrices)
    .where(whereOf(periodIds, f, column))
    .groupBy(col);
  if (column === 'classification') {
    const order: readonly string[] = MATERIAL_CLASSIFICATIONS;
    return rows.sort((a, b) => order.indexOf(a.value) - order.indexOf(b.value));
  }
  if (column === 'county') {
    return rows
      .map((r) => ({ value: r.value || MATERIAL_CITY_WIDE, count: r.count }))
      .sort((a, b) =>
        a.value === MATERIAL_CITY_WIDE ? -1 : b.value === MATERIAL_CITY_WIDE ? 1 : a.value.localeCompare(b.value, 'zh'),
      );
  }
  return rows.sort((a, b) => a.value.localeCompare(b.value, 'zh'));
}

/** Materials (code and spec) of these periods whose name or code holds the keyword: at most 20, in code order. */
export async function titles(q: DbOrTx, periodIds: string[], keyWord?: string): Promise<MaterialTitle[]> {
  if (!periodIds.length) return [];
  const p = materialPrices;
  const r = await q.execute<MaterialTitle>(
    sql`select distinct on (${p.code}, ${p.spec}) ${p.code} as code, ${p.name} as name, ${p.spec} as spec, ${p.unit} as unit
      from ${p} where ${whereOf(periodIds, { keyWord })} order by ${p.code}, ${p.spec} limit 20`,
  );
  return (r as unknown as { rows: MaterialTitle[] }).rows;
}

/** One material's prices across a city's published periods, oldest first. */
export async function history(q: DbOrTx, m: { city: string; county: string; code: string; spec: string }) {
  const county = m.county === MATERIAL_CITY_WIDE ? '' : m.county;
  return q
    .select({
      period: materialPeriods.period,
      name: materialPrices.name,
      unit: materialPrices.unit,
      priceEx: materialPrices.priceEx,
      priceIn: materialPrices.priceIn,
    })
    .from(materialPrices)
    .innerJoin(materialPeriods, eq(materialPeriods.id, materialPrices.periodId))
    .where(
      and(
        eq(materialPeriods.status, 'published'),
        eq(materialPeriods.city, m.city),
        eq(materialPrices.county, county),
        eq(materialPrices.code, m.code),
        eq(materialPrices.spec, m.spec),
      ),
    )
    .orderBy(asc(materialPeriods.period));
}

/** Inserts a period's rows in batches (12 values a row: well under the driver's 65,535 parameters). */
export async function insertRows(q: DbOrTx, periodId: string, rows: MaterialRow[], batch = 2000) {
  for (let i = 0; i < rows.length; i += batch) {
    await q.insert(materialPrices).values(rows.slice(i, i + batch).map((r) => ({ ...r, periodId })));
  }
}
