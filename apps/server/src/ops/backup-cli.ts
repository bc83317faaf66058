import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import type { DbTarget } from './backup';

/**
 * `npm run backup -- [--out <dir>]` and `npm run restore -- <backup folder>` (run from the repository root as
 * `node --import tsx apps/server/src/ops/backup-cli.ts backup|restore …`). The database and the file store are the
 * server's: DATABASE_URL, DATA_DIR and S3_* mean what they mean for `npm start` (config.ts). Progress and the summary go
 * to stderr; the backup folder's path is printed on stdout. Exit 0: done; 1: refused or failed (the message says why);
 * 2: wrong usage.
 */

const USAGE = `usage:
  npm run backup -- [--out <dir>]            back up the database and its files into <dir>/ks-backup-<UTC time>/ (default ./backups)
  npm run restore -- <backup folder>         restore a backup into the configured empty database and file store

The database and file store are the server's (DATABASE_URL, or the embedded database under DATA_DIR; DATA_DIR/files or S3_*).
The embedded database must not be in use: stop the server first.`;

function serverVersion(): string | null {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return null;
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const args = (() => {
    try {
      return parseArgs({
        args: rest,
        options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
        allowPositionals: true,
      });
    } catch (e) {
      return e as Error;
    }
  })();
  if (args instanceof Error) {
    console.error(`${args.message}\n\n${USAGE}`);
    return 2;
  }
  if (args.values.help || (command !== 'backup' && command !== 'restore')) {
    console.error(USAGE);
    return args.values.help ? 0 : 2;
  }
  const positionals = args.positionals;
  if (command === 'backup' ? positionals.length > 0 : positionals.length !== 1 || args.values.out !== undefined) {
    console.error(USAGE);
    return 2;
  }

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`\n${e.message}\nFix the environment variables above (see README, Configuration).\n`);
      return 1;
    }
    throw e;
  }
  const db: Extract<DbTarget, { driver: 'pg' } | { driver: 'pglite'; dataDir: string }> = config.databaseUrl
    ? { driver: 'pg', url: config.databaseUrl }
    : { driver: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') };
  // the database drivers and the storage adapters load only now: usage and configuration errors answer at once
  const { createStorage } = await import('../platform/storage');
  const { BackupError, backup, restore } = await import('./backup');
  const storage = createStorage(config);
  const where = db.driver === 'pg' ? 'PostgreSQL (DATABASE_URL)' : `the embedded database ${db.dataDir}`;

  try {
    if (command === 'backup') {
      console.error(`backup of ${where} and the files in ${storage.location}`);
      const { dir } = await backup({
        db,
        storage,
        outDir: path.resolve(args.values.out ?? 'backups'),
        appVersion: serverVersion(),
      });
      console.info(dir);
      return 0;
    }
    console.error(`restore into ${where} and the files into ${storage.location}`);
    const result = await restore({ from: path.resolve(positionals[0]!), db, storage });
    return result.ok ? 0 : 1;
  } catch (e) {
    if (e instanceof BackupError) {
      console.error(`✖ ${e.message}`);
      return 1;
    }
    console.error(e);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
