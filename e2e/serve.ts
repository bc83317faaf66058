/**
 * Starts one end-to-end server (playwright.config.ts runs one per project slot).
 *
 * Without TEST_DATABASE_URL the server opens a fresh embedded database under its DATA_DIR and seeds it itself, as
 * `npm start` does. With TEST_DATABASE_URL (CI) the demo data is seeded ONCE per run into a template database, and
 * every server gets a PostgreSQL database of its own copied from it (`create database … template …`, a second or so)
 * and a copy of the seed's evidence files: the servers start sooner, and answer faster than on the embedded database.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openPostgres } from '../apps/server/src/db/client';
import { createLocalStorage } from '../apps/server/src/platform/storage/local';
import { seedDemo } from '../apps/server/src/seed/demo';

const root = path.resolve(import.meta.dirname, '..');
/** Serialises the servers of a run while the template is made (any number; chosen once). */
const TEMPLATE_LOCK = 7_715_015;
/** Templates of earlier runs are dropped once this old (a run on the same machine may still be using a newer one). */
const STALE_MS = 3 * 3600_000;

function dbUrl(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

async function prepareDatabase(base: string, runId: string, server: string): Promise<string> {
  const template = `ks_e2e_tpl_${runId}`;
  const own = `ks_e2e_${server.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${process.env.PORT ?? '0'}`;
  const seedFiles = path.join(root, `.data-e2e-seed-${runId}`, 'files');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [template]);
      if (!exists.rowCount) {
        const old = await admin.query<{ datname: string }>(
          "select datname from pg_database where datname like 'ks\\_e2e\\_tpl\\_%'",
        );
        for (const { datname } of old.rows) {
          const at = Number(datname.slice('ks_e2e_tpl_'.length));
          if (Number.isFinite(at) && Date.now() - at > STALE_MS) {
            await admin.query(`drop database if exists "${datname}" with (force)`);
            rmSync(path.join(root, `.data-e2e-seed-${at}`), { recursive: true, force: true });
          }
        }
        await admin.query(`create database "${template}"`);
        const database = await openPostgres(dbUrl(base, template), 4, () => undefined);
        try {
          await database.migrate();
          mkdirSync(seedFiles, { recursive: true });
          await seedDemo(database.db, { storage: createLocalStorage(seedFiles) });
        } finally {
          await database.close();
        }
      }
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
    await admin.query(`drop database if exists "${own}" with (force)`);
    await admin.query(`create database "${own}" template "${template}"`);
  } finally {
    await admin.end();
  }
  const dataDir = process.env.DATA_DIR;
  if (dataDir && existsSync(seedFiles)) cpSync(seedFiles, path.join(dataDir, 'files'), { recursive: true });
  return dbUrl(base, own);
}

const base = process.env.TEST_DATABASE_URL;
const runId = process.env.E2E_RUN_ID;
if (base && runId) {
  process.env.DATABASE_URL = await prepareDatabase(base, runId, process.env.E2E_SERVER_NAME ?? 'server');
}
await import('../apps/server/src/main');
