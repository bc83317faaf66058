import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../db/client';
import * as schema from '../db/schema';
import { createTestDatabase, usingPostgres } from '../test/harness';
import { executePrepared, renderCached, statementName } from './prepared';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

describe('executePrepared', () => {
  it('binds the values and leaves times as the database writes them, as drizzle does', async () => {
    const rows = await executePrepared(
      database.db,
      sql`select ${41}::int + 1 as "n", ${'a%b'}::text as "s", timestamptz '2026-11-22 20:16:18.5+00' as "at", '{1.5}'::numeric[] as "nums"`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.n).toBe(42);
    expect(rows[0]!.s).toBe('a%b');
    expect(typeof rows[0]!.at).toBe('string');
    expect(new Date(rows[0]!.at as string).toISOString()).toBe('2026-11-22T20:16:18.500Z');
    // what drizzle's own execute answers for the same statement
    const viaDrizzle = await database.db.execute(sql`select timestamptz '2026-11-22 20:16:18.5+00' as "at"`);
    expect(rows[0]!.at).toBe((viaDrizzle as unknown as { rows: { at: unknown }[] }).rows[0]!.at);
  });

  it('runs text and parameters rendered before', async () => {
    const rows = await executePrepared(database.db, { sql: 'select $1::text || $2::text as "v"', params: ['x', 'y'] });
    expect(rows).toEqual([{ v: 'xy' }]);
  });

  it('inside a transaction runs on the transaction: it sees the transaction’s writes, and rendered text too', async () => {
    await database.db.execute(sql`create table if not exists prep_tx (v text)`);
    const seen = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into prep_tx values ('in-tx')`);
        const a = await executePrepared(tx as Db, sql`select count(*)::int as "n" from prep_tx where v = ${'in-tx'}`);
        const b = await executePrepared(tx as Db, {
          sql: 'select count(*)::int as "n" from prep_tx where v = $1 and $2::int = 2',
          params: ['in-tx', 2],
        });
        tx.rollback();
        return [a, b];
      })
      .catch((e: unknown) => e);
    expect(seen).toBeInstanceOf(Error); // rolled back on purpose
    const after = await executePrepared(database.db, sql`select count(*)::int as "n" from prep_tx`);
    expect(after).toEqual([{ n: 0 }]);
    const rows = await database.db.transaction(async (tx) =>
      executePrepared(tx as Db, { sql: 'select $1::text || $2::text as "v"', params: ['x', 'y'] }),
    );
    expect(rows).toEqual([{ v: 'xy' }]);
  });

  it.skipIf(!usingPostgres)('prepares the statement under its name on the connection (PostgreSQL)', async () => {
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      const db = drizzle(client, { schema }) as unknown as Db;
      const text = 'select $1::int * 2 as "twice"';
      expect(await executePrepared(db, { sql: text, params: [21] })).toEqual([{ twice: 42 }]);
      expect(await executePrepared(db, { sql: text, params: [5] })).toEqual([{ twice: 10 }]);
      const named = await client.query('select name from pg_prepared_statements where statement = $1', [text]);
      expect(named.rows.map((r) => r.name)).toEqual([statementName(text)]);
      // unnamed: planned for its values at each run, nothing kept on the connection
      const once = 'select $1::int * 3 as "thrice"';
      expect(await executePrepared(db, { sql: once, params: [2] }, { named: false })).toEqual([{ thrice: 6 }]);
      const kept = await client.query('select name from pg_prepared_statements where statement = $1', [once]);
      expect(kept.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });
});

describe('renderCached', () => {
  it('renders a shape once: with the same placeholder names the statement is not built again', () => {
    let builds = 0;
    const build = (bind: (key: string, value: unknown) => ReturnType<typeof sql>) => {
      builds++;
      return sql`select ${bind('a', 1)}::int as "a", ${bind('b', 'x')}::text as "b"`;
    };
    const first = renderCached(database.db, 'test.shape', build);
    expect(first.params).toEqual([1, 'x']);
    const second = renderCached(
      database.db,
      'test.shape',
      build,
      new Map<string, unknown>([
        ['a', 2],
        ['b', 'y'],
      ]),
    );
    expect(builds).toBe(1);
    expect(second).toEqual({ sql: first.sql, params: [2, 'y'] });
    // other names: built again
    renderCached(database.db, 'test.shape', build, new Map([['a', 3]]));
    expect(builds).toBe(2);
  });
});
