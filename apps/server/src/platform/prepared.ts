import { createHash } from 'node:crypto';
import { Placeholder, SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * Hot queries as named prepared statements (STACK.md: parsing and planning a list query cost about as much as running
 * it). The statement's name is a hash of its text, so the same SQL shape is parsed once per connection and, after a
 * few runs, PostgreSQL may keep one generic plan for it; values always travel as bound parameters. Shapes are bounded:
 * past MAX_NAMED distinct texts in this process, further ones run unnamed. PGlite ignores the name.
 */

export const MAX_NAMED = 500;

interface DrizzleInternals {
  dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      q: { sql: string; params: unknown[] },
      fields: undefined,
      name: string | undefined,
      arrayMode: boolean,
    ): { execute(): Promise<unknown> };
  };
}

/** The name a statement text runs under (undefined once the process holds MAX_NAMED of them). */
const names = new Map<string, string>();
export function statementName(text: string): string | undefined {
  const known = names.get(text);
  if (known) return known;
  if (names.size >= MAX_NAMED) return undefined;
  const name = `ks_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  names.set(text, name);
  return name;
}

/**
 * Runs `query` (a drizzle `sql` template: identifiers checked, values bound — or one already rendered to text and
 * parameters) as a named statement; its rows.
 */
export async function executePrepared(
  db: Db,
  query: SQL | { sql: string; params: unknown[] },
): Promise<Record<string, unknown>[]> {
  const d = db as unknown as DrizzleInternals;
  const built = query instanceof SQL ? d.dialect.sqlToQuery(query) : query;
  const res = await d.session.prepareQuery(built, undefined, statementName(built.sql), false).execute();
  return (res as { rows: Record<string, unknown>[] }).rows;
}

/** How a value enters a statement built for `renderCached`: a named placeholder, its value kept under the name. */
export const placeholderBind =
  (values: Map<string, unknown>) =>
  (key: string, value: unknown): SQL => {
    values.set(key, value);
    return sql`${sql.placeholder(key)}`;
  };

/** Rendered statements by shape (bounded; cleared when full). */
const rendered = new Map<string, { sql: string; params: unknown[]; names: Set<string> }>();
const MAX_RENDERED = 500;

/**
 * A statement as text and parameters, its text kept per `shape` — a key the caller derives from everything that
 * decides the text (rendering a drizzle template costs more than running it). `build` makes the statement with the
 * given bind; `known`, when given, are the values it would bind: with the shape already rendered and exactly these
 * placeholder names, the statement is not even built. Otherwise it is built, rendered and kept.
 */
export function renderCached(
  db: Db,
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
      const built = (db as unknown as DrizzleInternals).dialect.sqlToQuery(query);
      r = {
        sql: built.sql,
        params: built.params,
        names: new Set(built.params.flatMap((p) => (p instanceof Placeholder ? [p.name] : []))),
      };
      if (rendered.size >= MAX_RENDERED) rendered.clear();
      rendered.set(shape, r);
    }
  }
  const v = values;
  return { sql: r!.sql, params: r!.params.map((p) => (p instanceof Placeholder ? v.get(p.name) : p)) };
}
