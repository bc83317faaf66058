import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Code, Msg } from '@ks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesUnder } from '../../test/fixtures';
import { createLocalStorage } from './local';
import { newStorageKey, StorageFull, StorageUnavailable } from './storage';

/**
 * Issue 20: a local file store that cannot take a write — full, or refused — answers a plain 507 / 503 and leaves no
 * partial file behind. Tests run as root here, where `chmod 0555` stops nothing: "full" is the file size limit of a
 * child process (RLIMIT_FSIZE, `ulimit -f`: a write past it fails with EFBIG, as a full disk fails with ENOSPC), and
 * "refused" is a file standing where the store's folder belongs (ENOTDIR / EEXIST for root too).
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ks-disk-faults-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const MB = 1024 * 1024;

/**
 * Runs the local adapter in a child process whose files may grow to 1 MB at most (`ulimit -f 1024`): a whole object
 * and a chunk of 3 MB each (the disk is "full" for them), then small ones that fit. Answers what each call did.
 */
async function underFileSizeLimit(root: string) {
  const here = import.meta.dirname;
  const script = `
    const { createLocalStorage } = await import(${JSON.stringify(path.join(here, 'local.ts'))});
    const { newStorageKey } = await import(${JSON.stringify(path.join(here, 'storage.ts'))});
    const { Readable } = await import('node:stream');
    const s = createLocalStorage(${JSON.stringify(root)});
    const outcome = async (fn) => {
      try {
        return { ok: await fn() ?? true };
      } catch (e) {
        return { error: e.constructor.name, httpStatus: e.httpStatus, code: e.code, message: e.message, cause: e.cause?.code };
      }
    };
    const big = Buffer.alloc(3 * ${MB}, 7);
    const small = Buffer.alloc(1000, 9);
    const keys = { big: newStorageKey(), chunked: newStorageKey(), small: newStorageKey() };
    const out = { keys };
    out.put = await outcome(() => s.put(keys.big, big, big.length, 'application/pdf'));
    const ref = await s.parts.create(keys.chunked, 'application/pdf');
    out.ref = ref;
    out.bigPart = await outcome(() =>
      s.parts.put(keys.chunked, ref, { index: 0, offset: 0, size: big.length }, Readable.from([big])),
    );
    // what fits still goes in: the store is full for this file, not broken
    out.smallPut = await outcome(() => s.put(keys.small, small, small.length, 'application/pdf'));
    out.smallPart = await outcome(async () =>
      (await s.parts.put(keys.chunked, ref, { index: 0, offset: 0, size: small.length }, Readable.from([small]))).etag,
    );
    process.stdout.write(JSON.stringify(out));
  `;
  const child = spawn(
    'bash',
    ['-c', 'ulimit -f 1024 && exec "$0" --import tsx --input-type=module -e "$1"', process.execPath, script],
    {
      cwd: path.resolve(here, '../../..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code, err).toBe(0);
  return JSON.parse(out);
}

describe('a local store on a full disk', () => {
  it('answers 507 with a plain message, keeps nothing of the write, and still takes what fits', async () => {
    const root = path.join(dir, 'full', 'files');
    const r = await underFileSizeLimit(root);
    const full = {
      error: 'StorageFull',
      httpStatus: 507,
      code: Code.INSUFFICIENT_STORAGE,
      message: Msg.STORAGE_FULL,
      cause: 'EFBIG',
    };
    expect(r.put).toEqual(full);
    expect(r.bigPart).toEqual(full);
    expect(r.smallPut).toEqual({ ok: true });
    expect(r.smallPart.ok).toMatch(/^[0-9a-f-]{36}$/);
    // no partial object, spool or part file: only the two small writes are on disk
    expect(filesUnder(root)).toEqual([r.keys.small, path.join('.staging', r.ref, `0.${r.smallPart.ok}`)].sort());
  }, 60_000);
});

describe('a local store that refuses writes', () => {
  it('a file where the store folder belongs (unwritable, even for root): 503 STORAGE_UNWRITABLE, and health says so', async () => {
    const root = path.join(dir, 'is-a-file');
    writeFileSync(root, 'not a folder');
    const s = createLocalStorage(root);
    const spooled = path.join(dir, 'spooled.pdf');
    writeFileSync(spooled, Buffer.alloc(5000, 1));
    for (const call of [
      () => s.put(newStorageKey(), Buffer.from('%PDF-1.7'), 8, 'application/pdf'),
      () => s.putFile(newStorageKey(), spooled, 5000, 'application/pdf'),
      () => s.parts.create(newStorageKey(), 'application/pdf'),
    ]) {
      const err = await call().catch((e) => e);
      expect(err).toBeInstanceOf(StorageUnavailable);
      expect(err).not.toBeInstanceOf(StorageFull);
      expect([err.httpStatus, err.code, err.message]).toEqual([503, Code.SERVICE_UNAVAILABLE, Msg.STORAGE_UNWRITABLE]);
      // the system's reason stays for the log
      expect(['ENOTDIR', 'EEXIST']).toContain(err.cause?.code);
    }
    // the spool file the caller handed over is still the caller's (it discards it)
    expect(statSync(spooled).size).toBe(5000);
    const h = await s.health();
    expect(h.ok).toBe(false);
    expect(h.message).toContain('本地文件目录不可写');
  });

  it('a staged upload whose folder cannot be written: the chunk write fails with 503 and leaves nothing', async () => {
    const root = path.join(dir, 'staged', 'files');
    const s = createLocalStorage(root);
    const key = newStorageKey();
    const ref = await s.parts.create(key, 'application/pdf');
    const staging = path.join(root, '.staging', ref);
    rmSync(staging, { recursive: true });
    writeFileSync(staging, '');
    const err = await s.parts
      .put(key, ref, { index: 0, offset: 0, size: 1000 }, Readable.from([Buffer.alloc(1000)]))
      .catch((e) => e);
    expect([err.constructor.name, err.httpStatus, err.message]).toEqual([
      'StorageUnavailable',
      503,
      Msg.STORAGE_UNWRITABLE,
    ]);
    expect(filesUnder(root)).toEqual([path.join('.staging', ref)]);
  });

  it.skipIf(process.getuid?.() === 0)('a folder without write permission (not as root): 503', async () => {
    const root = path.join(dir, 'read-only');
    mkdirSync(root);
    chmodSync(root, 0o555);
    try {
      const err = await createLocalStorage(root)
        .put(newStorageKey(), Buffer.from('x'), 1, 'text/plain')
        .catch((e) => e);
      expect([err.httpStatus, err.message]).toEqual([503, Msg.STORAGE_UNWRITABLE]);
      expect(filesUnder(root)).toEqual([]);
    } finally {
      chmodSync(root, 0o755);
    }
  });
});
