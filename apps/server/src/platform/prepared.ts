import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { Placeholder, SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { type Db, genericPoolOf } from '../db/client';
import { createCache } from './cache';

/**
 * Hot queries as named prepared statements (STACK.md: parsing and planning a list query cost about as much as running
 * it). The statement's name is a hash of its text, so the same SQL shape is parsed once per connection and, after a
 * few runs, PostgreSQL may keep one generic plan for it; values always travel as bound parameters. Shapes are bounded:
 * past MAX_NAMED distinct texts in this process, further ones run unnamed. PGlite has no named statements.
 *
 * Public APIs only: drizzle's PgDialect renders a `sql` template to text and parameters; the statement runs on the
 * driver's client that drizzle exposes as `$client` — node-postgres' `pool.query({ name, text, values })`, PGlite's
 * `query(text, params)` — with drizzle's own type parsing (dates, times and intervals stay text).
 */

export const MAX_NAMED = 500;

const dialect = new PgDialect();

/** The name a statement text runs under (undefined once the process holds MAX_NAMED of them). */
const names = new Map<string, string>();
export function statementName(text: string): string | undefined {
  const known = names.get(text);
  if (known) return known;
  // not a cache: a quota on the statements each connection prepares (a name once given is never taken back)
  if (names.size >= MAX_NAMED) return undefined;
  const name = `ks_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  names.set(text, name);
  return name;
}

/** Types drizzle leaves as the database's text (its own sessions do the same): dates, times, intervals, their arrays. */
const RAW_TYPES = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
]);
const raw = (value: string) => value;
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    RAW_TYPES.has(oid) ? raw : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
const pgliteParsers = Object.fromEntries([...RAW_TYPES].map((oid) => [oid, raw]));

/**
 * Runs `query` (a drizzle `sql` template: identifiers checked, values bound — or one already rendered to text and
 * parameters) as a named statement — or, with `named: false`, unnamed: planned for its values at this run — its rows. Inside a transaction (a domain module checking a permission while it
 * writes) the statement runs unnamed on the transaction's connection.
 */
/** Statements run on a generic-plan connection (tests). */
export const genericRuns = { n: 0 };

export async function executePrepared(
  db: Db,
  query: SQL | { sql: string; params: unknown[] },
  opts: { named?: boolean; generic?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const built = query instanceof SQL ? dialect.sqlToQuery(query) : query;
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool || client instanceof pg.Client) {
    // `generic`: named, on a connection that keeps one generic plan for it (db/client genericPoolOf)
    const generic = opts.generic && client instanceof pg.Pool ? genericPoolOf(client) : undefined;
    if (generic) genericRuns.n++;
    const res = await (generic ?? client).query<Record<string, unknown>>({
      name: opts.named === false && !generic ? undefined : statementName(built.sql),
      text: built.sql,
      values: built.params,
      types: pgTypes,
    });
    return res.rows;
  }
  if (client instanceof PGlite) {
    const res = await client.query<Record<string, unknown>>(built.sql, built.params, { parsers: pgliteParsers });
    return res.rows;
  }
  // a transaction: no client of its own to name a statement on — the same statement runs unnamed on its connection
  const res = (await db.execute(query instanceof SQL ? query : unrendered(built))) as {
    rows: Record<string, unknown>[];
  };
  return res.rows;
}

/** A statement rendered to text and parameters as a drizzle template again (`$n` placeholders bound anew). */
function unrendered(q: { sql: string; params: unknown[] }): SQL {
  const parts = q.sql.split(/\$(\d+)/);
  const out = sql.empty();
  parts.forEach((part, i) => {
    if (i % 2 === 0) out.append(sql.raw(part));
    else out.append(sql`${q.params[Number(part) - 1]}`);
  });
  return out;
}

/** How a value enters a statement built for `renderCached`: a named placeholder, its value kept under the name. */
export const placeholderBind =
  (values: Map<string, unknown>) =>
  (key: string, value: unknown): SQL => {
    values.set(key, value);
    return sql`${sql.placeholder(key)}`;
  };

/** Rendered statements by shape. */
const rendered = createCache<string, { sql: string; params: unknown[]; names: Set<string> }>('prepared.statements', {
  max: 500,
});

/**
 * A statement as text and parameters, its text kept per `shape` — a key the caller derives from everything that
 * decides the text (rendering a drizzle template costs more than running it). `build` makes the statement with the
 * given bind; `known`, when given, are the values it would bind: with the shape already rendered and exactly these
 * placeholder names, the statement is not even built. Otherwise it is built, rendered and kept.
 */
export function renderCached(
  _db: Db,
  shape: string,
  build: (bind: (key: string, value: unknown) => SQL) => SQL,
  known?: Map<string, unknown>,
) {
  let r = rendered.get(shape);
  const fits = (values: Map<string, unknown>) =>
    r !== undefined && r.names.size === values.size && [...values.keys()].every((k) => r!.names.has(k));
  let values = known;
  if (!values || !fits(values)) {
    values = new Map<string, unknown>();
    const query = build(placeholderBind(values));
    if (!fits(values)) {
      const built = dialect.sqlToQuery(query);
      r = {
        sql: built.sql,
        params: built.params,
        names: new Set(built.params.flatMap((p) => (p instanceof Placeholder ? [p.name] : []))),
      };
      rendered.set(shape, r);
    }
  }
  const v = values;
  return { sql: r!.sql, params: r!.params.map((p) => (p instanceof Placeholder ? v.get(p.name) : p)) };
}
