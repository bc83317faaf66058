import pg from 'pg';
import type { Db } from '../../db/client';
import { createCache } from '../../platform/cache';
import { columnStatistics } from './schema.repo';

/**
 * Is a substring term rare in its column — rare enough that one generic plan (the field's trigram index first) suits
 * it? Told from the column's statistics (`pg_stats`: most common values and the histogram), as PostgreSQL's own
 * `patternsel` estimates a `like`: the share of the common values containing the term by their frequencies, and of
 * the histogram's entries containing it for the rest. Terms of fewer than three characters have no trigram, and a
 * column without statistics (never analysed) tells nothing: both are not rare — such a search stays planned for its
 * value at every run.
 */
export interface ColumnStats {
  nullFrac: number;
  mcv: string[];
  mcf: number[];
  hist: string[];
}

/** At most this share of the rows may contain a rare term (one histogram entry in a hundred). */
export const RARE_SHARE = 0.01;

export function rareIn(stats: ColumnStats | undefined, term: string): boolean {
  if (!stats || [...term].length < 3) return false;
  if (!stats.hist.length && !stats.mcv.length) return false;
  let common = 0;
  let matched = 0;
  stats.mcv.forEach((v, i) => {
    const f = stats.mcf[i] ?? 0;
    common += f;
    if (v.includes(term)) matched += f;
  });
  const rest = Math.max(0, 1 - common - stats.nullFrac);
  const inHist = stats.hist.length ? stats.hist.filter((v) => v.includes(term)).length / stats.hist.length : 0;
  return matched + inHist * rest <= RARE_SHARE;
}

/** A table's column statistics, read at most once a minute per table. */
const tableStats = createCache<string, { cols: Map<string, ColumnStats> }>('engine.likeStats', {
  max: 1000,
  ttlMs: 60_000,
});

async function statsOf(db: Db, table: string): Promise<Map<string, ColumnStats>> {
  const hit = tableStats.get(table);
  if (hit) return hit.cols;
  const cols = new Map<string, ColumnStats>(
    (await columnStatistics(db, table)).map((r) => [
      r.attname,
      { nullFrac: Number(r.null_frac), mcv: r.mcv ?? [], mcf: (r.mcf ?? []).map(Number), hist: r.hist ?? [] },
    ]),
  );
  tableStats.set(table, { cols });
  return cols;
}

/**
 * Are all these substring terms (`column`: the table's column) rare? Only on PostgreSQL through a pool (where a
 * generic-plan connection exists); false otherwise.
 */
export async function allRare(db: Db, table: string, terms: { column: string; term: string }[]): Promise<boolean> {
  if (!terms.length || !((db as { $client?: unknown }).$client instanceof pg.Pool)) return false;
  const cols = await statsOf(db, table);
  return terms.every((t) => rareIn(cols.get(t.column), t.term));
}
