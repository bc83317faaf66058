import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { asc, eq, type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, type Db, openPglite, openPostgres } from '../db/client';
import { bidFiles, bidOpeningBids, costFiles, files, users } from '../db/schema';
import { newStorageKey, type Storage } from '../platform/storage';
import { createLocalStorage } from '../platform/storage/local';
import { type FakeS3, startFakeS3 } from '../test/fake-s3';
import { createTestDatabase, usingPostgres } from '../test/harness';
import { BackupError, backup, type DbTarget, type Manifest, restore } from './backup';

/**
 * Backup and restore (issue 20): a seeded database and a file store holding the demo's evidence files (plus a 3 MB
 * file, a file joined from chunks, and a row whose file is gone) are backed up, restored into a new empty database and
 * an empty store, and compared: every table's rows, records field by field, every file's bytes. Refusals: a database
 * that is not empty, an embedded database in use, a damaged backup (nothing written). The CLI (`npm run backup` /
 * `npm run restore`) runs the same on the restored copy, putting the files into S3-compatible object storage.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
async function bytesOf(storage: Storage, key: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of await storage.get(key)) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

type Target = Extract<DbTarget, { driver: 'pg' } | { driver: 'pglite'; dataDir: string }>;
/** A new empty database and file store: a DATA_DIR of its own (pgdata/ not yet there) or a new PostgreSQL database. */
interface Empty {
  target: Target;
  dataDir: string;
  storage: ReturnType<typeof createLocalStorage>;
  open(): Promise<Database>;
  /** tables in the database (0: empty) */
  tableCount(): Promise<number>;
  drop(): Promise<void>;
}

const adminUrl = process.env.TEST_DATABASE_URL ?? '';
async function adminQuery(text: string) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

const created: Empty[] = [];
async function emptyTarget(): Promise<Empty> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ks-restore-'));
  const storage = createLocalStorage(path.join(dataDir, 'files'));
  let e: Empty;
  if (usingPostgres) {
    const name = `ks_restore_${process.pid}_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${name} template template0`);
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    const url = u.toString();
    e = {
      target: { driver: 'pg', url },
      dataDir,
      storage,
      open: () => openPostgres(url, 2, () => undefined),
      async tableCount() {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        const r = await c.query(
          "select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
        );
        await c.end();
        return r.rows[0].n as number;
      },
      async drop() {
        await adminQuery(`drop database if exists ${name} with (force)`);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } else {
    const pgdata = path.join(dataDir, 'pgdata');
    e = {
      target: { driver: 'pglite', dataDir: pgdata },
      dataDir,
      storage,
      open: () => openPglite({ dataDir: pgdata }),
      tableCount: async () => (existsSync(pgdata) ? 1 : 0),
      async drop() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  created.push(e);
  return e;
}

/** Rows of a raw query (both drivers answer `{ rows }`). */
async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Every table's exact rows, `schema.table` → count, asked directly. */
async function tableCounts(db: Db): Promise<Record<string, number>> {
  const tables = await rowsOf<{ s: string; t: string }>(
    db,
    sql`select table_schema as s, table_name as t from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
  );
  const out: Record<string, number> = {};
  for (const { s, t } of tables) {
    const [r] = await rowsOf<{ n: string }>(db, sql.raw(`select count(*)::text as n from "${s}"."${t}"`));
    out[`${s}.${t}`] = Number(r!.n);
  }
  return out;
}

/** The keys the database names, read from the tables that hold them (the backup finds them by column name). */
async function storedKeys(db: Db): Promise<string[]> {
  const keys = new Set<string>();
  for (const r of await db.select({ k: files.storageKey }).from(files)) keys.add(r.k);
  for (const r of await db.select({ k: bidFiles.storageKey }).from(bidFiles)) keys.add(r.k);
  for (const r of await db.select({ k: costFiles.storageKey }).from(costFiles)) keys.add(r.k);
  for (const r of await db.select({ k: bidOpeningBids.plainStorageKey }).from(bidOpeningBids)) if (r.k) keys.add(r.k);
  return [...keys].sort();
}

const lines: string[] = [];
const log = (line: string) => lines.push(line);

let source: Database & { url?: string };
let srcDataDir: string;
let srcStorage: ReturnType<typeof createLocalStorage>;
let work: string;
const big = randomBytes(3 * 1024 * 1024 + 17);
const bigKey = newStorageKey();
const chunks = [randomBytes(700_000), randomBytes(123_457)];
const chunkedKey = newStorageKey();
const goneKey = newStorageKey();
/** the first restore: the CLI backs it up again */
let restored: Empty;
let backupDir: string;
let manifest: Manifest;

beforeAll(async () => {
  source = await createTestDatabase({ seeded: true });
  work = await mkdtemp(path.join(tmpdir(), 'ks-backups-'));
  // the seed's evidence files, in a store of this file's own
  srcDataDir = await mkdtemp(path.join(tmpdir(), 'ks-backup-src-'));
  cpSync(path.join(inject('seedDataDir'), 'files'), path.join(srcDataDir, 'files'), { recursive: true });
  srcStorage = createLocalStorage(path.join(srcDataDir, 'files'));
  // a file larger than a stream's buffers, one joined from chunks, and a row whose bytes are gone
  await srcStorage.put(bigKey, Readable.from([big]), big.length, 'application/pdf');
  const ref = await srcStorage.parts.create(chunkedKey, 'video/mp4');
  const tags: { index: number; etag: string | null }[] = [];
  let offset = 0;
  for (const [index, c] of chunks.entries()) {
    tags.push({
      index,
      ...(await srcStorage.parts.put(chunkedKey, ref, { index, offset, size: c.length }, Readable.from([c]))),
    });
    offset += c.length;
  }
  await srcStorage.parts.complete(chunkedKey, ref, tags, offset);
  const [admin] = await source.db.select().from(users).where(eq(users.account, 'admin'));
  const row = (key: string, name: string, size: number) => ({
    storageKey: key,
    fileName: name,
    fileSize: size,
    md5: '0'.repeat(32),
    mime: 'application/octet-stream',
    extension: 'bin',
    ownerId: admin!.id,
    source: 'attachment',
  });
  await source.db
    .insert(files)
    .values([
      row(bigKey, '大文件.bin', big.length),
      row(chunkedKey, '分片文件.bin', offset),
      row(goneKey, '已丢失.bin', 10),
    ]);
}, 60_000);

afterAll(async () => {
  await source?.close();
  for (const e of created) await e.drop();
  for (const d of [work, srcDataDir]) if (d) rmSync(d, { recursive: true, force: true });
});

const sourceTarget = (): DbTarget =>
  usingPostgres ? { driver: 'pg', url: source.url! } : { driver: 'pglite', client: source.client! };

describe('backup and restore', () => {
  it('backs up, wipes, restores into an empty database and store, and everything is equal', async () => {
    const b = await backup({ db: sourceTarget(), storage: srcStorage, outDir: work, log });
    backupDir = b.dir;
    manifest = b.manifest;
    expect(path.basename(backupDir)).toMatch(/^ks-backup-\d{8}T\d{6}Z$/);
    expect(existsSync(`${backupDir}.partial`)).toBe(false);
    expect(manifest.driver).toBe(usingPostgres ? 'pg' : 'pglite');
    expect(manifest.serverVersion).toMatch(/^\d+\.\d+/);
    expect(manifest.database.file).toBe(usingPostgres ? 'database.pgdump' : 'pgdata.tar.gz');
    expect(manifest.database.sha256).toBe(sha256(readFileSync(path.join(backupDir, manifest.database.file))));
    // every table, counted exactly
    expect(manifest.tables).toEqual(await tableCounts(source.db));
    expect(manifest.tables['public.users']).toBeGreaterThan(10);
    // every referenced key: a file with its hash, or listed as missing (and said so)
    const keys = await storedKeys(source.db);
    expect([...manifest.files.map((f) => f.key), ...manifest.missing.map((m) => m.key)].sort()).toEqual(keys);
    expect(manifest.missing).toEqual([
      { key: goneKey, referencedBy: 'public.files.storage_key', reason: 'not in store' },
    ]);
    expect(manifest.files.find((f) => f.key === bigKey)).toEqual({
      key: bigKey,
      bytes: big.length,
      sha256: sha256(big),
    });
    const joined = Buffer.concat(chunks);
    expect(manifest.files.find((f) => f.key === chunkedKey)).toEqual({
      key: chunkedKey,
      bytes: joined.length,
      sha256: sha256(joined),
    });
    expect(manifest.files.length).toBeGreaterThan(20);
    expect(readFileSync(path.join(backupDir, 'files', bigKey)).equals(big)).toBe(true);
    expect(lines.some((l) => l.includes('missing from the store') && l.includes(goneKey))).toBe(true);
    expect(lines.at(-1)).toMatch(/^backup done: .* 1 missing/);

    // wipe: a new empty database and an empty store
    restored = await emptyTarget();
    const result = await restore({ from: backupDir, db: restored.target, storage: restored.storage, log });
    expect(result.differences).toEqual([]);
    expect(result.ok).toBe(true);
    expect(lines.at(-1)).toMatch(/^restore OK: /);

    const again = await restored.open();
    try {
      expect(await tableCounts(again.db)).toEqual(await tableCounts(source.db));
      // records, field by field
      const byId = (db: Db) => db.select().from(users).orderBy(asc(users.id));
      expect(await byId(again.db)).toEqual(await byId(source.db));
      const bigRow = (db: Db) => db.select().from(files).where(eq(files.storageKey, bigKey));
      expect(await bigRow(again.db)).toEqual(await bigRow(source.db));
      expect((await bigRow(again.db))[0]!.fileName).toBe('大文件.bin');
      // sequences and constraints came along: the restored database takes new rows
      const [admin] = await again.db.select().from(users).where(eq(users.account, 'admin'));
      await again.db.insert(files).values({
        storageKey: newStorageKey(),
        fileName: 'new.bin',
        fileSize: 1,
        md5: '0'.repeat(32),
        mime: 'application/octet-stream',
        extension: 'bin',
        ownerId: admin!.id,
        source: 'attachment',
      });
    } finally {
      await again.close();
    }
    // every file's bytes, read back through the store
    for (const key of await storedKeys(source.db)) {
      if (key === goneKey) {
        expect(await restored.storage.stat(key)).toBeNull();
        continue;
      }
      expect(sha256(await bytesOf(restored.storage, key)), key).toBe(sha256(await bytesOf(srcStorage, key)));
    }
  }, 90_000);

  it('refuses to restore into a database that is not empty, writing nothing', async () => {
    const into: Target = usingPostgres ? { driver: 'pg', url: source.url! } : restored.target;
    const store = createLocalStorage(path.join(work, 'unused-store'));
    const before = usingPostgres ? await tableCounts(source.db) : null;
    await expect(restore({ from: backupDir, db: into, storage: store, log })).rejects.toThrow(
      usingPostgres ? /目标数据库不是空的.*not empty/ : /已存在且不为空.*not empty/,
    );
    expect(existsSync(path.join(work, 'unused-store'))).toBe(false);
    if (before) expect(await tableCounts(source.db)).toEqual(before);
    // a backup of the other driver is refused too
    const other: Target = usingPostgres
      ? { driver: 'pglite', dataDir: path.join(work, 'nowhere', 'pgdata') }
      : { driver: 'pg', url: 'postgres://127.0.0.1:1/none' };
    await expect(restore({ from: backupDir, db: other, storage: store, log })).rejects.toThrow(
      usingPostgres ? /来自 PostgreSQL/ : /来自内嵌数据库/,
    );
  });

  it('refuses a damaged backup, naming the file, before anything is written', async () => {
    // one byte changed in one stored file
    const damaged = path.join(work, 'damaged-file');
    cpSync(backupDir, damaged, { recursive: true });
    const victim = path.join(damaged, 'files', bigKey);
    const bytes = readFileSync(victim);
    bytes[1_000_000] = (bytes[1_000_000]! + 1) % 256;
    writeFileSync(victim, bytes);
    const target = await emptyTarget();
    const err = await restore({ from: damaged, db: target.target, storage: target.storage, log }).catch((e) => e);
    expect(err).toBeInstanceOf(BackupError);
    expect((err as Error).message).toContain(`files/${bigKey}`);
    expect((err as Error).message).toContain('nothing was restored');
    expect(await target.tableCount()).toBe(0);
    expect(existsSync(path.join(target.dataDir, 'files'))).toBe(false);

    // the database dump changed
    const damagedDump = path.join(work, 'damaged-dump');
    cpSync(backupDir, damagedDump, { recursive: true });
    const dump = path.join(damagedDump, manifest.database.file);
    const d = readFileSync(dump);
    d[d.length - 10] = (d[d.length - 10]! + 1) % 256;
    writeFileSync(dump, d);
    await expect(restore({ from: damagedDump, db: target.target, storage: target.storage, log })).rejects.toThrow(
      manifest.database.file,
    );
    expect(await target.tableCount()).toBe(0);

    // a file of the backup deleted
    rmSync(path.join(damaged, 'files', chunkedKey));
    writeFileSync(victim, readFileSync(path.join(backupDir, 'files', bigKey)));
    await expect(restore({ from: damaged, db: target.target, storage: target.storage, log })).rejects.toThrow(
      `files/${chunkedKey}（缺失 / missing）`,
    );
    expect(await target.tableCount()).toBe(0);
  });

  it.skipIf(usingPostgres)('refuses to back up an embedded database a server has open', async () => {
    const target = restored.target as Extract<Target, { driver: 'pglite' }>;
    const running = await openPglite({ dataDir: target.dataDir });
    try {
      await expect(
        backup({ db: target, storage: restored.storage, outDir: path.join(work, 'busy'), log }),
      ).rejects.toThrow(/正在使用中.*stop the server first/);
      expect(existsSync(path.join(work, 'busy'))).toBe(true);
      expect(readdirSync(path.join(work, 'busy'))).toEqual([]);
    } finally {
      await running.close();
    }
  });
});

describe('npm run backup / npm run restore', () => {
  let s3: FakeS3;
  beforeAll(async () => {
    s3 = await startFakeS3();
  });
  afterAll(async () => {
    await s3?.close();
  });

  /** Run the CLI as `npm run backup|restore` does, with the server's environment for `target`. */
  function cli(args: string[], target: Empty, extra: Record<string, string> = {}) {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^(DATABASE_URL|DATA_DIR|S3_)/.test(k)) env[k] = v;
    Object.assign(env, { DATA_DIR: target.dataDir, ...extra });
    if (target.target.driver === 'pg') env.DATABASE_URL = target.target.url;
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'backup-cli.ts'), ...args], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d;
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d;
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('backs up the configured database and files and restores them into object storage', async () => {
    const out = path.join(work, 'cli');
    const b = await cli(['backup', '--out', out], restored);
    expect(b.stderr).toMatch(/backup done: /);
    expect(b.code).toBe(0);
    const dir = b.stdout.trim();
    expect(path.dirname(dir)).toBe(out);
    const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
    expect(m.appVersion).toMatch(/^\d+\.\d+\.\d+/);
    // the restored copy took one new row in the first test
    expect(m.tables['public.files']).toBe(manifest.tables['public.files']! + 1);
    expect(m.files.map((f) => f.key)).toEqual(manifest.files.map((f) => f.key));

    const target = await emptyTarget();
    const s3env = {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.url,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    };
    const r = await cli(['restore', dir], target, s3env);
    expect(r.stderr).toMatch(/restore OK: /);
    expect(r.code).toBe(0);
    expect(s3.objects.size).toBe(m.files.length);
    for (const f of m.files) expect(sha256(s3.objects.get(f.key)!), f.key).toBe(f.sha256);

    // again into the same database: refused, exit 1
    const again = await cli(['restore', dir], target, s3env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not empty/);
    // wrong usage
    expect((await cli(['restore'], target)).code).toBe(2);
  }, 120_000);
});
