import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres } from './client';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(process.env.TEST_DB !== 'pg' || !url)('PostgreSQL pool', () => {
  it('survives the server closing an idle connection and reconnects on the next query', async () => {
    const seen: Error[] = [];
    const database = await openPostgres(url as string, 2, (err) => seen.push(err));
    try {
      const res = (await database.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
        rows: { pid: number }[];
      };
      const pid = Number(res.rows[0]?.pid);
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await admin.end();
      await expect.poll(() => seen.length, { timeout: 5000 }).toBe(1);
      expect((seen[0] as Error & { code?: string }).code).toBe('57P01');
      const again = (await database.db.execute(sql`select 1 as one`)) as unknown as { rows: { one: number }[] };
      expect(Number(again.rows[0]?.one)).toBe(1);
    } finally {
      await database.close();
    }
  });
});
