import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
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
/** A transaction handed to `db.transaction(fn)`'s callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** What a repository function takes: the database, or a transaction opened on it. */
export type DbOrTx = Db | Tx;

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Database {
  db: Db;
  /** The PGlite instance (embedded driver only), e.g. to dump it. */
  client?: PGlite;
  driver: 'pglite' | 'pg';
  migrate(): Promise<void>;
  /**
   * Call `fn(payload)` whenever a transaction that ran `select pg_notify(channel, payload)` commits, in this process
   * or another (PostgreSQL: one listening connection per database handle, reconnected after a loss — and then `fn`
   * is called once with '' since notices may have been missed). The embedded database is one process: PGlite
   * delivers its own notifications after the commit, so the same code runs on both.
   */
  listen(channel: string, fn: (payload: string) => void): Promise<void>;
  /**
   * The listening connection: 'up' while it listens, 'down' while it is lost and being re-opened, 'idle' before
   * anyone listens (the embedded database is always 'up').
   */
  listenerState(): ListenerState;
  close(): Promise<void>;
}
export type ListenerState = 'up' | 'down' | 'idle';

/**
 * PGlite: file-backed under dataDir when given, in memory otherwise; or from a dump (tests). Every open loads the
 * extensions the migrations create (pg_trgm, migration 0015; btree_gist, 0030; btree_gin, 0057): a database that has one cannot be used
 * without it.
 */
export async function openPglite(opts: { dataDir?: string; loadDataDir?: Blob | File } = {}): Promise<Database> {
  if (opts.dataDir) mkdirSync(path.dirname(opts.dataDir), { recursive: true });
  const client = new PGlite({
    dataDir: opts.dataDir,
    extensions: { pg_trgm, btree_gist, btree_gin },
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
  await client.waitReady;
  const db: Db = drizzlePglite(client, { schema });
  return {
    db,
    client,
    driver: 'pglite',
    async migrate() {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    },
    async listen(channel: string, fn: (payload: string) => void) {
      await client.listen(channel, (payload) => fn(payload ?? ''));
    },
    listenerState: () => 'up',
    async close() {
      await client.close();
    },
  };
}

/** How long a request waits for a connection to PostgreSQL before it fails (503). */
const CONNECT_TIMEOUT_MS = 5_000;

export async function openPostgres(
  url: string,
  poolSize = 20,
  onIdleError: (err: Error) => void = (err) => process.emitWarning(`PostgreSQL idle connection: ${err.message}`),
): Promise<Database> {
  // a database that does not answer fails the request within seconds (503) rather than holding it
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle pooled connection that the server closes (restart, failover, terminate) must not crash the process:
  // the pool drops it and opens a new one on the next query.
  pool.on('error', onIdleError);
  // Fail fast with a clear message when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db: Db = drizzlePg(pool, { schema });
  // a few connections on which every named statement keeps one generic plan (see genericPoolOf); opened when used
  const generic = new pg.Pool({
    connectionString: url,
    max: Math.max(2, Math.ceil(poolSize / 4)),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    options: '-c plan_cache_mode=force_generic_plan',
  });
  generic.on('error', onIdleError);
  genericPools.set(pool, generic);
  const listener = notificationListener(url, onIdleError);
  return {
    db,
    driver: 'pg',
    listen: listener.listen,
    listenerState: listener.state,
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
      await listener.close();
      await Promise.all([pool.end(), generic.end()]);
    },
  };
}

/**
 * Companion pools of the PostgreSQL pools: their connections plan every named statement once, generically
 * (`plan_cache_mode = force_generic_plan`). PostgreSQL otherwise re-plans a named statement for its values whenever
 * a custom plan looks cheaper than the generic one — a substring search of a rare term always does (≈ 1 ms a run).
 * Only statements known to suit one generic plan go there (engine list: substring terms the column's statistics call
 * rare); nothing else's plans change.
 */
const genericPools = new WeakMap<pg.Pool, pg.Pool>();
export const genericPoolOf = (pool: pg.Pool): pg.Pool | undefined => genericPools.get(pool);

/** LISTEN on a connection of its own; see Database.listen. */
function notificationListener(url: string, onError: (err: Error) => void) {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let client: pg.Client | null = null;
  /** channels the current connection listens on */
  let subscribed = new Set<string>();
  let connecting: Promise<void> | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  const callAll = () => {
    for (const set of handlers.values()) for (const fn of set) fn('');
  };
  const connect = (): Promise<void> => {
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString: url });
      c.on('notification', (msg) => {
        for (const fn of handlers.get(msg.channel) ?? []) fn(msg.payload ?? '');
      });
      const lost = (err?: Error) => {
        if (client !== c) return;
        client = null;
        if (err) onError(err);
        if (!closed) retry ??= setTimeout(reconnect, 1000);
      };
      c.on('error', lost);
      c.on('end', () => lost());
      await c.connect();
      const on = new Set<string>();
      for (const channel of handlers.keys()) {
        await c.query(`listen "${channel}"`);
        on.add(channel);
      }
      client = c;
      subscribed = on;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };
  const reconnect = () => {
    retry = null;
    if (closed) return;
    connect().then(
      // whatever was announced while no one listened: act as if everything changed
      callAll,
      (err: Error) => {
        onError(err);
        if (!closed) retry ??= setTimeout(reconnect, 1000);
      },
    );
  };
  return {
    state: (): ListenerState => (client ? 'up' : handlers.size ? 'down' : 'idle'),
    async listen(channel: string, fn: (payload: string) => void) {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
      if (!handlers.has(channel)) handlers.set(channel, new Set());
      handlers.get(channel)!.add(fn);
      if (closed) return;
      if (!client) await connect();
      if (client && !subscribed.has(channel)) {
        subscribed.add(channel);
        await client.query(`listen "${channel}"`);
      }
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      if (c) await c.end().catch(() => undefined);
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
