import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
  }
}

/** Migrate one PGlite once and dump it; every test database starts from that dump. */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DB === 'pg') {
    project.provide('pgliteDump', '');
    return;
  }
  const database = await openPglite();
  await database.migrate();
  const client = database.client;
  if (!client) throw new Error('openPglite must expose its client');
  const dump = await client.dumpDataDir('none');
  const file = path.join(tmpdir(), `ks-pglite-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteDump', file);
}
