import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, openAsBlob } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPglite } from '../db/client';
import { ObjectNotFound, STORAGE_KEY_PATTERN, type Storage } from '../platform/storage/storage';

/**
 * `npm run backup` / `npm run restore` (issue 20): one consistent snapshot of the database and of every stored file the
 * database refers to, with a manifest of hashes; and its restore into an empty database and a file store.
 *
 * A backup is a folder `ks-backup-<UTC time>/`:
 *   manifest.json         what is in it (MANIFEST_FORMAT): the dump's name, size and SHA-256, the rows of every table,
 *                         every file (key, bytes, SHA-256) and the keys the database names but the store lacks
 *   database.pgdump       PostgreSQL: `pg_dump --format=custom` of the snapshot, or
 *   pgdata.tar.gz         the embedded database (PGlite): its data directory (`dumpDataDir('gzip')`)
 *   files/<key>           the stored objects, read through the platform's Storage (local disk or S3)
 * It is written to `<name>.partial/` and renamed when complete, so a folder without the suffix is a whole backup.
 *
 * On PostgreSQL the snapshot is one repeatable-read transaction whose snapshot `pg_dump --snapshot` shares: the dump,
 * the row counts and the list of file keys all see the same committed state while the platform keeps running. Files
 * are written to the store before the rows that name them commit, so every key of the snapshot is in the store unless
 * it was deleted since. The embedded database belongs to one process: it is backed up with the server stopped.
 */

export const MANIFEST_FORMAT = 'ks-backup/1';

/** Where the database is: PostgreSQL at a URL, or the embedded database (a data directory, or an open instance). */
export type DbTarget =
  | { driver: 'pg'; url: string }
  | { driver: 'pglite'; dataDir: string }
  /** an open embedded database (tests): backed up as it is, left open */
  | { driver: 'pglite'; client: PGlite };

export interface ManifestFile {
  key: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  createdAt: string;
  driver: 'pg' | 'pglite';
  appVersion: string | null;
  /** the database server's version (`server_version`) */
  serverVersion: string;
  database: { file: string; format: 'pg_dump-custom' | 'pglite-datadir-tar-gz'; bytes: number; sha256: string };
  /** exact rows of every table, `schema.table` → count */
  tables: Record<string, number>;
  /** where the files were read from (Storage.location) */
  storage: string;
  files: ManifestFile[];
  /** keys the database refers to that the store does not hold (or that are not storage keys), with one reference */
  missing: { key: string; referencedBy: string; reason: 'not in store' | 'not a storage key' }[];
}

/** A refusal or failure with a message meant for the operator (the CLI prints it and exits 1). */
export class BackupError extends Error {}

export type Log = (line: string) => void;
const stderrLog: Log = (line) => process.stderr.write(`${line}\n`);

/**
 * Columns named like storage keys that are not backed up: an unfinished chunked upload's key names an object that does
 * not exist yet (its chunks are staging data); a finished one's object is also the key of its `files` row.
 */
const NOT_BACKED_UP = new Set(['public.upload_tasks.storage_key']);
/** Objects copied at once (S3 round trips overlap; local disk does not mind). */
const FILE_CONCURRENCY = 4;

// ---------------------------------------------------------------------------------------------------------------------
// backup

export interface BackupOptions {
  db: DbTarget;
  storage: Storage;
  /** the folder the backup folder is created in */
  outDir: string;
  /** the backup folder's name; default `ks-backup-<UTC time>` */
  name?: string;
  appVersion?: string | null;
  log?: Log;
  /** pg_dump to run (default: `pg_dump` on the PATH) */
  pgDump?: string;
}

export async function backup(opts: BackupOptions): Promise<{ dir: string; manifest: Manifest }> {
  const log = opts.log ?? stderrLog;
  const name = opts.name ?? `ks-backup-${utcStamp(new Date())}`;
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name)) throw new BackupError(`备份名称不合法 / bad backup name: ${name}`);
  const dir = path.resolve(opts.outDir, name);
  const partial = `${dir}.partial`;
  if (existsSync(dir) || existsSync(partial)) {
    throw new BackupError(`备份目录已存在 / backup folder exists already: ${dir}`);
  }
  const started = Date.now();
  await mkdir(path.join(partial, 'files'), { recursive: true });
  try {
    const manifest =
      opts.db.driver === 'pg'
        ? await backupPostgres(opts.db.url, partial, opts, log)
        : await backupPglite(opts.db, partial, opts, log);
    await writeFile(path.join(partial, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(partial, dir);
    const fileBytes = manifest.files.reduce((a, f) => a + f.bytes, 0);
    if (manifest.missing.length) {
      log(
        `⚠ ${manifest.missing.length} referenced file(s) missing from the store (listed in manifest.json "missing"): ` +
          manifest.missing
            .slice(0, 5)
            .map((m) => `${m.key} (${m.referencedBy}, ${m.reason})`)
            .join(', ') +
          (manifest.missing.length > 5 ? ' …' : ''),
      );
    }
    log(
      `backup done: ${dir} — ${Object.keys(manifest.tables).length} tables, ` +
        `${sumRows(manifest.tables)} rows, database ${human(manifest.database.bytes)}, ` +
        `${manifest.files.length} files ${human(fileBytes)}, ${manifest.missing.length} missing, ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return { dir, manifest };
  } catch (e) {
    await rm(partial, { recursive: true, force: true });
    throw e;
  }
}

async function backupPostgres(url: string, dir: string, opts: BackupOptions, log: Log): Promise<Manifest> {
  const client = new pg.Client({ connectionString: url });
  await connectOrExplain(client, url);
  try {
    // one snapshot for everything: the dump, the counts and the file keys
    await client.query('begin isolation level repeatable read, read only');
    const snapshot = (await client.query<{ s: string }>('select pg_export_snapshot() as s')).rows[0]!.s;
    const version = await client.query<{ v: string }>("select current_setting('server_version') as v");
    const serverVersion = version.rows[0]!.v;
    const file = 'database.pgdump';
    log(`database: pg_dump (PostgreSQL ${serverVersion}) …`);
    const dumping = runPgTool(
      opts.pgDump ?? 'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${snapshot}`, `--file=${path.join(dir, file)}`],
      url,
    );
    // the transaction stays open until pg_dump is done (it imports the snapshot at its start); its failure is
    // awaited below, not an unhandled rejection meanwhile
    dumping.catch(() => undefined);
    const sql: Sql = async (text) => (await client.query(text)).rows;
    let files: Pick<Manifest, 'files' | 'missing'>;
    let tables: Record<string, number>;
    try {
      tables = await countRows(sql, log);
      files = await copyFiles(await referencedKeys(sql), opts.storage, dir, log);
    } catch (e) {
      dumping.kill();
      throw e;
    }
    await dumping;
    await client.query('commit');
    const dump = await hashFile(path.join(dir, file));
    return {
      format: MANIFEST_FORMAT,
      createdAt: new Date().toISOString(),
      driver: 'pg',
      appVersion: opts.appVersion ?? null,
      serverVersion,
      database: { file, format: 'pg_dump-custom', ...dump },
      tables,
      storage: opts.storage.location,
      ...files,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function backupPglite(
  target: Extract<DbTarget, { driver: 'pglite' }>,
  dir: string,
  opts: BackupOptions,
  log: Log,
): Promise<Manifest> {
  let client: PGlite;
  let close = async () => {};
  if ('client' in target) client = target.client;
  else {
    await assertPgliteStopped(target.dataDir);
    const database = await openPglite({ dataDir: target.dataDir });
    client = database.client!;
    close = () => database.close();
  }
  try {
    const sql: Sql = async (text) => (await client.query<Record<string, unknown>>(text)).rows;
    const serverVersion = String((await sql("select current_setting('server_version') as v"))[0]!.v);
    const tables = await countRows(sql, log);
    const keys = await referencedKeys(sql);
    const files = await copyFiles(keys, opts.storage, dir, log);
    log('database: PGlite data directory (gzip) …');
    const file = 'pgdata.tar.gz';
    const blob = await client.dumpDataDir('gzip');
    const hasher = hashing();
    await pipeline(
      Readable.fromWeb(blob.stream() as import('node:stream/web').ReadableStream),
      hasher.stream,
      createWriteStream(path.join(dir, file), { flags: 'wx' }),
    );
    return {
      format: MANIFEST_FORMAT,
      createdAt: new Date().toISOString(),
      driver: 'pglite',
      appVersion: opts.appVersion ?? null,
      serverVersion,
      database: { file, format: 'pglite-datadir-tar-gz', ...hasher.result() },
      tables,
      storage: opts.storage.location,
      ...files,
    };
  } finally {
    await close();
  }
}

/**
 * The embedded database is one process's: PGlite writes `postmaster.pid` into its data directory while it is open and
 * removes it when closed, so its presence means a server is running on it (or one was killed and did not close it).
 */
async function assertPgliteStopped(dataDir: string) {
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new BackupError(
      `内嵌数据库不存在 / no embedded database at ${dataDir} (check DATA_DIR, or set DATABASE_URL)`,
    );
  }
  if (existsSync(path.join(dataDir, 'postmaster.pid'))) {
    throw new BackupError(
      `内嵌数据库正在使用中：请先停止服务器再备份 / the embedded database at ${dataDir} is in use ` +
        '(postmaster.pid present): stop the server first. If no server is running, it was not shut down cleanly: ' +
        'start it once and stop it with Ctrl+C or SIGTERM, then back up.',
    );
  }
}

type Sql = (text: string) => Promise<Record<string, unknown>[]>;

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;

async function listTables(sql: Sql): Promise<{ schema: string; table: string }[]> {
  const rows = await sql(
    `select table_schema as s, table_name as t from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
       and table_schema not like 'pg\\_%'
     order by 1, 2`,
  );
  return rows.map((r) => ({ schema: String(r.s), table: String(r.t) }));
}

/** Exact rows of every table (all schemas but the system's: public, and drizzle's migration journal). */
async function countRows(sql: Sql, log: Log): Promise<Record<string, number>> {
  const tables = await listTables(sql);
  const counts: Record<string, number> = {};
  const tick = progress(log, 'tables', tables.length);
  for (const { schema, table } of tables) {
    const [row] = await sql(`select count(*)::text as n from ${quoteIdent(schema)}.${quoteIdent(table)}`);
    counts[`${schema}.${table}`] = Number(row!.n);
    tick();
  }
  return counts;
}

/**
 * Every distinct storage key the database names, with one column that names it: the columns `storage_key` and
 * `*_storage_key` of every table in public (found in information_schema, so a new table's keys are covered).
 */
async function referencedKeys(sql: Sql): Promise<Map<string, string>> {
  const cols = await sql(
    `select c.table_name as t, c.column_name as c from information_schema.columns c
     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
       and (c.column_name = 'storage_key' or c.column_name like '%\\_storage\\_key')
     order by 1, 2`,
  );
  const keys = new Map<string, string>();
  for (const r of cols) {
    const ref = `public.${String(r.t)}.${String(r.c)}`;
    if (NOT_BACKED_UP.has(ref)) continue;
    const col = quoteIdent(String(r.c));
    const rows = await sql(
      `select distinct ${col}::text as k from public.${quoteIdent(String(r.t))} where ${col} is not null`,
    );
    for (const row of rows) {
      const k = String(row.k);
      if (!keys.has(k)) keys.set(k, ref);
    }
  }
  return keys;
}

async function copyFiles(
  keys: Map<string, string>,
  storage: Storage,
  dir: string,
  log: Log,
): Promise<Pick<Manifest, 'files' | 'missing'>> {
  const files: ManifestFile[] = [];
  const missing: Manifest['missing'] = [];
  const list = [...keys.keys()].sort();
  const tick = progress(log, 'files', list.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < list.length; i = next++) {
      const key = list[i]!;
      if (!STORAGE_KEY_PATTERN.test(key)) {
        missing.push({ key, referencedBy: keys.get(key)!, reason: 'not a storage key' });
      } else {
        const got = await copyOne(key, storage, dir);
        if (got) files.push(got);
        else missing.push({ key, referencedBy: keys.get(key)!, reason: 'not in store' });
      }
      tick();
    }
  };
  await Promise.all(Array.from({ length: Math.min(FILE_CONCURRENCY, list.length) }, worker));
  files.sort((a, b) => (a.key < b.key ? -1 : 1));
  missing.sort((a, b) => (a.key < b.key ? -1 : 1));
  return { files, missing };
}

/** Stream one object into files/<key>, hashing it on the way; null when the store does not have it. */
async function copyOne(key: string, storage: Storage, dir: string): Promise<ManifestFile | null> {
  let src: Readable;
  try {
    src = await storage.get(key);
  } catch (e) {
    if (e instanceof ObjectNotFound) return null;
    throw e;
  }
  const dest = path.join(dir, 'files', key);
  await mkdir(path.dirname(dest), { recursive: true });
  const hasher = hashing();
  await pipeline(src, hasher.stream, createWriteStream(dest, { flags: 'wx' }));
  return { key, ...hasher.result() };
}

// ---------------------------------------------------------------------------------------------------------------------
// restore

export interface RestoreOptions {
  /** the backup folder (holding manifest.json) */
  from: string;
  /** an empty database: PostgreSQL without tables, or an embedded data directory that does not exist yet */
  db: Extract<DbTarget, { driver: 'pg' } | { driver: 'pglite'; dataDir: string }>;
  storage: Storage;
  log?: Log;
  /** pg_restore to run (default: `pg_restore` on the PATH) */
  pgRestore?: string;
}

export interface RestoreResult {
  manifest: Manifest;
  /** tables whose rows differ from the manifest after the restore (none: the restore is complete) */
  differences: { table: string; expected: number | null; actual: number | null }[];
  ok: boolean;
}

export async function restore(opts: RestoreOptions): Promise<RestoreResult> {
  const log = opts.log ?? stderrLog;
  const started = Date.now();
  const dir = path.resolve(opts.from);
  const manifest = await readManifest(dir);
  if (manifest.driver !== opts.db.driver) {
    throw new BackupError(
      manifest.driver === 'pg'
        ? '该备份来自 PostgreSQL，只能还原到 PostgreSQL / this backup is of PostgreSQL: set DATABASE_URL to an empty database'
        : '该备份来自内嵌数据库，只能还原到内嵌数据库 / this backup is of the embedded database: unset DATABASE_URL',
    );
  }
  // nothing is written before the target is known to be empty and every byte of the backup is verified
  await assertEmptyTarget(opts.db);
  await verifyBackup(dir, manifest, log);

  log(`database: restoring ${manifest.database.file} …`);
  const dumpPath = path.join(dir, manifest.database.file);
  let actual: Record<string, number>;
  if (opts.db.driver === 'pg') {
    await runPgTool(
      opts.pgRestore ?? 'pg_restore',
      ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', dumpPath],
      opts.db.url,
    );
    const client = new pg.Client({ connectionString: opts.db.url });
    await connectOrExplain(client, opts.db.url);
    try {
      actual = await countRows(async (text) => (await client.query(text)).rows, log);
    } finally {
      await client.end().catch(() => undefined);
    }
  } else {
    const dataDir = opts.db.dataDir;
    try {
      const database = await openPglite({ dataDir, loadDataDir: await openAsBlob(dumpPath) });
      try {
        actual = await countRows(
          async (text) => (await database.client!.query<Record<string, unknown>>(text)).rows,
          log,
        );
      } finally {
        await database.close();
      }
    } catch (e) {
      // it was empty or absent before: leave nothing half-restored
      await rm(dataDir, { recursive: true, force: true });
      throw e;
    }
  }

  const tick = progress(log, 'files', manifest.files.length);
  for (const f of manifest.files) {
    await putOne(dir, f, opts.storage);
    tick();
  }

  const differences: RestoreResult['differences'] = [];
  for (const table of new Set([...Object.keys(manifest.tables), ...Object.keys(actual)])) {
    const expected = manifest.tables[table] ?? null;
    const got = actual[table] ?? null;
    if (expected !== got) differences.push({ table, expected, actual: got });
  }
  const bytes = manifest.files.reduce((a, f) => a + f.bytes, 0);
  if (differences.length) {
    log(
      `restore: rows differ from the manifest in ${differences.length} table(s): ` +
        differences.map((d) => `${d.table} expected ${d.expected ?? '—'}, got ${d.actual ?? '—'}`).join('; '),
    );
  } else {
    log(
      `restore OK: ${Object.keys(actual).length} tables, ${sumRows(actual)} rows as in the manifest, ` +
        `${manifest.files.length} files ${human(bytes)} verified (SHA-256), ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s` +
        (manifest.missing.length ? ` — ${manifest.missing.length} file(s) were already missing at backup time` : ''),
    );
  }
  return { manifest, differences, ok: differences.length === 0 };
}

async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(path.join(dir, 'manifest.json'), 'utf8');
  } catch {
    throw new BackupError(`不是备份目录（缺少 manifest.json）/ not a backup folder (no manifest.json): ${dir}`);
  }
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw new BackupError(`manifest.json 无法解析 / manifest.json is not valid JSON: ${dir}`);
  }
  if (m?.format !== MANIFEST_FORMAT) {
    throw new BackupError(
      `不支持的备份格式 / unsupported backup format ${JSON.stringify(m?.format)} (expected ${MANIFEST_FORMAT})`,
    );
  }
  const dbFiles = { pg: 'database.pgdump', pglite: 'pgdata.tar.gz' } as const;
  if (m.database?.file !== dbFiles[m.driver] || !Array.isArray(m.files) || typeof m.tables !== 'object') {
    throw new BackupError(`manifest.json 不完整 / manifest.json is incomplete: ${dir}`);
  }
  for (const f of m.files) {
    // keys become paths here and in the store: only generated keys
    if (!STORAGE_KEY_PATTERN.test(f.key)) throw new BackupError(`manifest.json 中的文件键不合法 / bad key: ${f.key}`);
  }
  return m;
}

async function assertEmptyTarget(db: RestoreOptions['db']) {
  if (db.driver === 'pglite') {
    const entries = await readdir(db.dataDir).catch(() => null);
    if (entries && entries.length > 0) {
      throw new BackupError(
        `目标内嵌数据库目录已存在且不为空，拒绝覆盖 / refusing to restore: ${db.dataDir} exists and is not empty ` +
          '(restore into a DATA_DIR without pgdata/)',
      );
    }
    return;
  }
  const client = new pg.Client({ connectionString: db.url });
  await connectOrExplain(client, db.url);
  try {
    const tables = await listTables(async (text) => (await client.query(text)).rows);
    if (tables.length) {
      throw new BackupError(
        `目标数据库不是空的（已有 ${tables.length} 张表，如 ${tables
          .slice(0, 3)
          .map((t) => `${t.schema}.${t.table}`)
          .join('、')}），拒绝还原 / refusing to restore: the target database is not empty. ` +
          'Restore into a new empty database (createdb … ; DATABASE_URL=…).',
      );
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Every byte of the backup against the manifest, before anything is written: the dump, then each file. */
async function verifyBackup(dir: string, m: Manifest, log: Log) {
  const bad: string[] = [];
  const dump = await hashFile(path.join(dir, m.database.file)).catch(() => null);
  if (!dump) bad.push(`${m.database.file}（缺失 / missing）`);
  else if (dump.sha256 !== m.database.sha256 || dump.bytes !== m.database.bytes) {
    bad.push(`${m.database.file}（SHA-256 不符 / hash differs）`);
  }
  const tick = progress(log, 'verify files', m.files.length);
  for (const f of m.files) {
    const got = await hashFile(path.join(dir, 'files', f.key)).catch(() => null);
    if (!got) bad.push(`files/${f.key}（缺失 / missing）`);
    else if (got.sha256 !== f.sha256 || got.bytes !== f.bytes)
      bad.push(`files/${f.key}（SHA-256 不符 / hash differs）`);
    tick();
  }
  if (bad.length) {
    throw new BackupError(
      `备份已损坏，未还原任何内容 / the backup is damaged, nothing was restored: ${bad.length} file(s) differ from ` +
        `manifest.json: ${bad.slice(0, 10).join(', ')}${bad.length > 10 ? ' …' : ''}`,
    );
  }
}

/** Put one file back into the store, hashing it again on the way (it must not change after the check). */
async function putOne(dir: string, f: ManifestFile, storage: Storage) {
  const file = path.join(dir, 'files', f.key);
  const src = createReadStream(file, { highWaterMark: 1024 * 1024 });
  const hasher = hashing();
  src.on('error', (e) => hasher.stream.destroy(e));
  await storage.put(f.key, src.pipe(hasher.stream), f.bytes, 'application/octet-stream');
  const got = hasher.result();
  if (got.sha256 !== f.sha256 || got.bytes !== f.bytes) {
    await storage.delete(f.key).catch(() => undefined);
    throw new BackupError(`files/${f.key} 在还原时被改动 / changed while being restored`);
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// helpers

/**
 * Run pg_dump / pg_restore against `url`: the password goes in PGPASSWORD, not on the command line (where `ps` shows
 * it). The URL (without the password) is the `--dbname` argument, so host, port, user and sslmode mean the same.
 */
function runPgTool(bin: string, args: string[], url: string): Promise<void> & { kill(): void } {
  const u = new URL(url);
  const env = { ...process.env };
  if (u.password) {
    env.PGPASSWORD = decodeURIComponent(u.password);
    u.password = '';
  }
  const tool = path.basename(bin);
  const child = spawn(bin, [...args, `--dbname=${u.toString()}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const done = new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 8000) err += d.toString('utf8');
    });
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'ENOENT'
          ? new BackupError(
              `找不到 ${tool} / ${tool} not found: install the PostgreSQL client tools of the server's major version ` +
                '(Debian: apt-get install postgresql-client-15)',
            )
          : e,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${tool} 失败 / ${tool} failed (exit ${code ?? 'killed'}): ${err.trim()}`));
    });
  });
  return Object.assign(done, { kill: () => void child.kill('SIGTERM') });
}

async function connectOrExplain(client: pg.Client, url: string) {
  try {
    await client.connect();
  } catch (e) {
    const u = new URL(url);
    u.password = u.password ? '***' : '';
    throw new BackupError(`无法连接数据库 / cannot connect to ${u.toString()}: ${(e as Error).message}`);
  }
}

function hashing() {
  const h = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      h.update(chunk);
      bytes += chunk.length;
      cb(null, chunk);
    },
  });
  let digest: string | null = null;
  return {
    stream,
    result: () => {
      digest ??= h.digest('hex');
      return { bytes, sha256: digest };
    },
  };
}

async function hashFile(file: string): Promise<{ bytes: number; sha256: string }> {
  await stat(file);
  const h = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    h.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: h.digest('hex') };
}

/** A progress line for `what` at most every second, and at the end. */
function progress(log: Log, what: string, total: number) {
  let done = 0;
  let last = Date.now();
  return () => {
    done++;
    const now = Date.now();
    if (done === total || now - last >= 1000) {
      last = now;
      log(`  ${what} ${done}/${total}`);
    }
  };
}

function utcStamp(d: Date) {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

const sumRows = (t: Record<string, number>) => Object.values(t).reduce((a, b) => a + b, 0);

function human(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}
