import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness';
import { type Database, MIGRATIONS_FOLDER } from './client';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase({ seeded: true });
});
afterAll(async () => database?.close());

const rows = async <T>(q: ReturnType<typeof sql>) => (await database.db.execute(q)) as unknown as { rows: T[] };
const tablesWithData = async () =>
  (
    await rows<{ t: string }>(
      sql`select c.relname as "t" from pg_class c join pg_attribute a on a.attrelid = c.oid
          where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and a.attname = 'data'
            and c.relname like 'n\_%' and not a.attisdropped order by 1`,
    )
  ).rows.map((r) => r.t);

describe('migration 0014: the unused "data" column of node tables', () => {
  it('goes from the record table of every node, and from no other table', async () => {
    // what the engine created before (a node's table with "data"), and a table of the same name shape that no node owns
    await database.db.execute(
      sql`alter table "n_dzbh_bhsq" add column if not exists "data" jsonb not null default '{}'`,
    );
    await database.db.execute(sql`create table "n_not_a_node" ("id" int, "data" jsonb)`);
    expect(await tablesWithData()).toEqual(expect.arrayContaining(['n_dzbh_bhsq', 'n_not_a_node']));
    const migration = readFileSync(path.join(MIGRATIONS_FOLDER, '0014_drop_node_data.sql'), 'utf8');
    await database.db.execute(sql.raw(migration));
    expect(await tablesWithData()).toEqual(['n_not_a_node']);
    // the record table keeps its rows and the engine's own columns
    const cols = (
      await rows<{ c: string }>(
        sql`select column_name as "c" from information_schema.columns where table_name = 'n_dzbh_bhsq' order by 1`,
      )
    ).rows.map((r) => r.c);
    expect(cols).toEqual(expect.arrayContaining(['id', 'owner_id', 'status', 'version']));
  });
});
