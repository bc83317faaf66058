import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { type Database, openPglite, openPostgres } from '../db/client';
import { createLocalStorage } from '../platform/storage/local';
import { seedDemo } from '../seed/demo';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: a dump of a migrated database, and of a migrated and seeded one */
    pgliteDump: string;
    pgliteSeededDump: string;
    /** PostgreSQL: template databases, migrated, and migrated and seeded */
    pgTemplate: string;
    pgSeededTemplate: string;
    /** the DATA_DIR whose files/ holds the seeded databases' evidence files (read only) */
    seedDataDir: string;
  }
}

async function dumpOf(database: Database, file: string): Promise<string> {
  const client = database.client;
  if (!client) throw new Error('openPglite must expose its client');
  const dump = await client.dumpDataDir('none');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return file;
}

/**
 * Migrating (and seeding) a database costs more than most test files' tests: do it once per run. On PGlite two dumps
 * are written that every test database is loaded from; on PostgreSQL two template databases are created that every
 * test database is copied from (`create database … template …`), and dropped at the end.
 */
export default async function setup(project: TestProject) {
  project.provide('pgliteDump', '');
  project.provide('pgliteSeededDump', '');
  project.provide('pgTemplate', '');
  project.provide('pgSeededTemplate', '');
  // the seeded databases' evidence files: a DATA_DIR of the run's own (a test reads them with DATA_DIR set to it)
  const seedDataDir = mkdtempSync(path.join(tmpdir(), 'ks-seed-data-'));
  project.provide('seedDataDir', seedDataDir);
  const storage = createLocalStorage(path.join(seedDataDir, 'files'));
  if (process.env.TEST_DB === 'pg') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DB=pg needs TEST_DATABASE_URL');
    const tag = `${process.pid}_${randomBytes(3).toString('hex')}`;
    const names = { plain: `ks_tpl_${tag}`, seeded: `ks_tpls_${tag}` };
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      for (const [kind, name] of Object.entries(names)) {
        await admin.query(`create database ${name}`);
        const u = new URL(url);
        u.pathname = `/${name}`;
        const database = await openPostgres(u.toString(), 2, () => undefined);
        try {
          await database.migrate();
          if (kind === 'seeded') await seedDemo(database.db, { storage });
        } finally {
          await database.close();
        }
      }
    } finally {
      await admin.end();
    }
    project.provide('pgTemplate', names.plain);
    project.provide('pgSeededTemplate', names.seeded);
    return async () => {
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      for (const name of Object.values(names)) await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
      rmSync(seedDataDir, { recursive: true, force: true });
    };
  }
  const files = {
    plain: path.join(tmpdir(), `ks-pglite-${process.pid}.tar`),
    seeded: path.join(tmpdir(), `ks-pglite-seeded-${process.pid}.tar`),
  };
  const database = await openPglite();
  try {
    await database.migrate();
    await dumpOf(database, files.plain);
    await seedDemo(database.db, { storage });
    await dumpOf(database, files.seeded);
  } finally {
    await database.close();
  }
  project.provide('pgliteDump', files.plain);
  project.provide('pgliteSeededDump', files.seeded);
  return () => {
    for (const f of Object.values(files)) rmSync(f, { force: true });
    rmSync(seedDataDir, { recursive: true, force: true });
  };
}
