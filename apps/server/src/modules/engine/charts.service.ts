import {
  CHART_BLANK,
  CHART_DATA_MSG,
  CHART_MAX_CATEGORIES,
  CHART_OTHER,
  type Chart,
  type ChartData,
  SUPERVISE_FUNCTION,
} from '@ks/contracts';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { menuNodes } from '../../db/schema';
import { nodeState, requireNode } from '../../platform/permissions';
import { listedNode } from './list.service';
import { labellers } from './options.service';
import type { EngineCaller } from './record-access';
import { scopeBranches } from './records.repo';
import { type Catalog, columnOf, ident, tableOf } from './sqlsafe';

/**
 * The numbers of a node's configured charts (/system/echartsSetting): each chart groups the node's records that the
 * caller may see (the list's scope: administrators, developers and supervisors all; others their enterprise's and
 * those they review) by its dimension field — a date by month — and measures each group (count, or sum, average,
 * maximum or minimum of a number field) in one SQL statement. Option values are shown by their labels; the largest
 * CHART_MAX_CATEGORIES groups are kept and the rest summed into 其他 (counts and sums; averages, maxima and minima
 * drop them). A field removed since the chart was configured gives the chart a problem instead of numbers.
 */

const AGG: Record<Chart['measure'], (col: SQL) => SQL> = {
  count: () => sql`count(*)`,
  sum: (c) => sql`coalesce(sum(${c}), 0)`,
  avg: (c) => sql`avg(${c})`,
  max: (c) => sql`max(${c})`,
  min: (c) => sql`min(${c})`,
};

const columnIn = (catalog: Catalog, code: string) => {
  const info = catalog.get(code);
  return info ? { info, col: ident(info.column ?? columnOf(code)) } : null;
};

const round = (v: number) => Math.round(v * 100) / 100;

export async function chartData(db: Db, c: EngineCaller, gnCoding: string, asked?: Chart[]): Promise<ChartData[]> {
  // a node without engine fields (a page of its own, or not configured yet) has no records to chart: no charts
  const ref = await requireNode(db, c, gnCoding);
  const state = await nodeState(db, c, ref.id);
  if (state?.dataSource !== 'engine' || state.fieldsVersion === 0) return [];
  const n = await listedNode(db, c, gnCoding);
  let charts = asked;
  if (!charts) {
    const [row] = await db.select({ charts: menuNodes.charts }).from(menuNodes).where(eq(menuNodes.id, n.id));
    charts = Array.isArray(row?.charts) ? (row.charts as Chart[]) : [];
  }
  if (!charts.length) return [];
  const supervises = state.granted.has(SUPERVISE_FUNCTION);
  const scope = scopeBranches({ ...c, supervises }, n.id);
  const where =
    scope.length === 1
      ? scope[0]!
      : sql.join(
          scope.map((s) => sql`(${s})`),
          sql` or `,
        );
  const table = ident(tableOf(n.gnCoding));
  const fields = new Map(n.fields.map((f) => [f.code, f]));
  const { label, prepare } = await labellers(db, c, n.fields);
  const [{ total } = { total: 0 }] = (
    (await db.execute(sql`select count(*)::int as "total" from ${table} where ${where}`)) as unknown as {
      rows: { total: number }[];
    }
  ).rows;

  const out: ChartData[] = [];
  for (const chart of charts) {
    const base = { ...chart, categories: [], values: [], records: Number(total) };
    const dim = columnIn(n.catalog, chart.dimension);
    if (!dim) {
      out.push({ ...base, problem: CHART_DATA_MSG.noDimension(chart.dimension) });
      continue;
    }
    let measured: SQL = sql`null`;
    if (chart.measure !== 'count') {
      const m = chart.measureField ? columnIn(n.catalog, chart.measureField) : null;
      if (!m) {
        out.push({ ...base, problem: CHART_DATA_MSG.noMeasureField(chart.measureField ?? '') });
        continue;
      }
      if (m.info.kind !== 'number') {
        out.push({ ...base, problem: CHART_DATA_MSG.notNumeric(chart.measureField ?? '') });
        continue;
      }
      measured = m.col;
    }
    const byMonth = dim.info.kind === 'date' || dim.info.kind === 'datetime';
    const key = byMonth ? sql`to_char(${dim.col}, 'YYYY-MM')` : sql`${dim.col}::text`;
    // time runs left to right; other groups largest first
    const tie = dim.info.kind === 'number' ? sql`min(${dim.col})` : sql`"k"`;
    const order = byMonth ? sql`"k" asc nulls last` : sql`"v" desc nulls last, ${tie} asc nulls last`;
    const rows = (
      (await db.execute(
        sql`select ${key} as "k", (${AGG[chart.measure](measured)})::float8 as "v" from ${table} where ${where} group by 1 order by ${order}`,
      )) as unknown as { rows: { k: string | null; v: number | null }[] }
    ).rows;
    const field = fields.get(chart.dimension);
    if (field) await prepare(rows.map((r) => ({ [field.code]: r.k })));
    const named = rows.map((r) => ({
      name: r.k === null || r.k === '' ? CHART_BLANK : field && !byMonth ? String(label(field, r.k) ?? r.k) : r.k,
      value: r.v === null ? 0 : round(Number(r.v)),
    }));
    let kept = named;
    if (!byMonth && named.length > CHART_MAX_CATEGORIES) {
      kept = named.slice(0, CHART_MAX_CATEGORIES - 1);
      if (chart.measure === 'count' || chart.measure === 'sum') {
        const rest = named.slice(CHART_MAX_CATEGORIES - 1).reduce((a, r) => a + r.value, 0);
        kept.push({ name: CHART_OTHER, value: round(rest) });
      }
    }
    out.push({ ...base, categories: kept.map((r) => r.name), values: kept.map((r) => r.value), problem: null });
  }
  return out;
}
