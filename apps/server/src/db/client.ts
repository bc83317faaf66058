import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type every repo takes: the shared Postgres base of both drivers. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Database {
  db: Db;
  /** The PGlite instance (embedded driver only), e.g. to dump it. */
  client?: PGlite;
  driver: 'pglite' | 'pg';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** PGlite: file-backed under dataDir when given, in memory otherwise; or from a dump (tests). */
export async function openPglite(opts: { dataDir?: string; loadDataDir?: Blob | File } = {}): Promise<Database> {
  if (opts.dataDir) mkdirSync(path.dirname(opts.dataDir), { recursive: true });
  const client = new PGlite({ dataDir: opts.dataDir, ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  await client.waitReady;
  const db: Db = drizzlePglite(client, { schema });
  return {
    db,
    client,
    driver: 'pglite',
    async migrate() {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    },
    async close() {
      await client.close();
    },
  };
}

export async function openPostgres(
  url: string,
  poolSize = 20,
  onIdleError: (err: Error) => void = (err) => process.emitWarning(`PostgreSQL idle connection: ${err.message}`),
): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle pooled connection that the server closes (restart, failover, terminate) must not crash the process:
  // the pool drops it and opens a new one on the next query.
  pool.on('error', onIdleError);
  // Fail fast with a clear message when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db: Db = drizzlePg(pool, { schema });
  return {
    db,
    driver: 'pg',
    async migrate() {
      // Several processes may start at once: one migrates, the others wait on the lock.
      const conn = await pool.connect();
      try {
        await conn.query('select pg_advisory_lock(7301001)');
        await migratePg(drizzlePg(conn, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await conn.query('select pg_advisory_unlock(7301001)').catch(() => undefined);
        conn.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

export async function openDatabase(
  cfg: { databaseUrl: string | null; dataDir: string; dbPoolSize?: number },
  onIdleError?: (err: Error) => void,
): Promise<Database> {
  if (cfg.databaseUrl) return openPostgres(cfg.databaseUrl, cfg.dbPoolSize ?? 20, onIdleError);
  return openPglite({ dataDir: path.join(cfg.dataDir, 'pgdata') });
}

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
