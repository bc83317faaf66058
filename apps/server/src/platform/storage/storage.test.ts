import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeS3, startFakeS3 } from '../../test/fake-s3';
import { createLocalStorage } from './local';
import { createS3Storage } from './s3';
import { newStorageKey, ObjectNotFound, STORAGE_KEY_PATTERN, type Storage, StorageUnavailable } from './storage';

const CHUNK = 5 * 1024 * 1024;

async function readAll(s: Readable): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const c of s) out.push(c as Buffer);
  return Buffer.concat(out);
}

let dir: string;
let fake: FakeS3;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ks-storage-'));
  fake = await startFakeS3();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await fake?.close();
});

const s3Of = (f: FakeS3, secret = f.secretAccessKey) =>
  createS3Storage({
    endpoint: f.url,
    region: 'us-east-1',
    bucket: f.bucket,
    accessKeyId: f.accessKeyId,
    secretAccessKey: secret,
    forcePathStyle: true,
  });

const adapters: [string, () => Storage][] = [
  ['local disk', () => createLocalStorage(path.join(dir, 'files'))],
  ['S3 (fake server checking SigV4)', () => s3Of(fake)],
];

describe.each(adapters)('storage: %s', (_name, make) => {
  it('stores, stats, streams whole and by range, and deletes', async () => {
    const s = make();
    const key = newStorageKey();
    const data = randomBytes(300_000);
    await s.put(key, data, data.length, 'application/pdf');
    expect(await s.stat(key)).toEqual({ size: data.length });
    expect((await readAll(await s.get(key))).equals(data)).toBe(true);
    expect((await readAll(await s.get(key, { start: 1000, end: 1999 }))).equals(data.subarray(1000, 2000))).toBe(true);
    await s.delete(key);
    expect(await s.stat(key)).toBeNull();
    await expect(s.get(key)).rejects.toBeInstanceOf(ObjectNotFound);
    await s.delete(key); // already gone: nothing happens
  });

  it('stores a spooled file', async () => {
    const s = make();
    const key = newStorageKey();
    const spool = path.join(dir, `spool-${Date.now()}`);
    const data = randomBytes(70_000);
    writeFileSync(spool, data);
    await s.putFile(key, spool, data.length, 'image/png');
    expect((await readAll(await s.get(key))).equals(data)).toBe(true);
  });

  it('joins chunks sent out of order into one object, readable across part borders', async () => {
    const s = make();
    const key = newStorageKey();
    const data = randomBytes(2 * CHUNK + 12_345);
    const ref = await s.parts.create(key, 'video/mp4');
    const tags: { index: number; etag: string | null }[] = [];
    for (const index of [2, 0, 1]) {
      const start = index * CHUNK;
      const part = data.subarray(start, Math.min(data.length, start + CHUNK));
      const t = await s.parts.put(key, ref, { index, offset: start, size: part.length }, Readable.from([part]));
      tags.push({ index, etag: t.etag });
    }
    await s.parts.complete(key, ref, tags, data.length);
    expect(await s.stat(key)).toEqual({ size: data.length });
    const all = await readAll(await s.get(key));
    expect(createHash('md5').update(all).digest('hex')).toBe(createHash('md5').update(data).digest('hex'));
    const across = await readAll(await s.get(key, { start: CHUNK - 10, end: CHUNK + 9 }));
    expect(across.equals(data.subarray(CHUNK - 10, CHUNK + 10))).toBe(true);
    await s.delete(key);
    expect(await s.stat(key)).toBeNull();
  });

  it('a chunk written twice keeps exactly the write that was recorded', async () => {
    const s = make();
    const key = newStorageKey();
    const first = randomBytes(1000);
    const second = randomBytes(1000);
    const ref = await s.parts.create(key, 'application/pdf');
    await s.parts.put(key, ref, { index: 0, offset: 0, size: 1000 }, Readable.from([first]));
    const t2 = await s.parts.put(key, ref, { index: 0, offset: 0, size: 1000 }, Readable.from([second]));
    await s.parts.complete(key, ref, [{ index: 0, etag: t2.etag }], 1000);
    expect((await readAll(await s.get(key))).equals(second)).toBe(true);
  });

  it('abort frees the parts; writing to an aborted upload fails', async () => {
    const s = make();
    const key = newStorageKey();
    const ref = await s.parts.create(key, 'application/pdf');
    await s.parts.put(key, ref, { index: 0, offset: 0, size: 10 }, Readable.from([Buffer.alloc(10)]));
    await s.parts.abort(key, ref);
    await s.parts.abort(key, ref); // twice: nothing happens
    await expect(
      s.parts.put(key, ref, { index: 1, offset: 10, size: 10 }, Readable.from([Buffer.alloc(10)])),
    ).rejects.toBeTruthy();
    expect(await s.stat(key)).toBeNull();
  });

  it('reports itself healthy', async () => {
    expect(await make().health()).toMatchObject({ ok: true });
  });
});

describe('local disk layout', () => {
  it('generates sharded uuid keys and refuses anything else as a key', async () => {
    const key = newStorageKey();
    expect(key).toMatch(STORAGE_KEY_PATTERN);
    expect(key.slice(0, 2)).toBe(key.slice(6, 8));
    const s = createLocalStorage(path.join(dir, 'files'));
    for (const bad of ['../../etc/passwd', '/etc/passwd', 'aa/bb/../../x', `${key}/../..`, `${key}\u0000`]) {
      await expect(s.stat(bad)).rejects.toThrow(/not a storage key/);
      await expect(s.put(bad, Buffer.from('x'), 1, 'text/plain')).rejects.toThrow(/not a storage key/);
    }
    await expect(s.parts.abort(key, '../../etc')).rejects.toThrow(/not an upload reference/);
  });

  it('keeps unfinished uploads in .staging and removes them on abort', async () => {
    const s = createLocalStorage(path.join(dir, 'files2'));
    const key = newStorageKey();
    const ref = await s.parts.create(key, 'application/pdf');
    await s.parts.put(key, ref, { index: 0, offset: 0, size: 3 }, Readable.from([Buffer.from('abc')]));
    expect(readdirSync(path.join(dir, 'files2', '.staging', ref))).toHaveLength(1);
    await s.parts.abort(key, ref);
    expect(existsSync(path.join(dir, 'files2', '.staging', ref))).toBe(false);
  });

  it('names the file a part was written to (for reading it back), and nothing for a tag it did not give', async () => {
    const s = createLocalStorage(path.join(dir, 'files3'));
    const key = newStorageKey();
    const ref = await s.parts.create(key, 'application/pdf');
    const data = randomBytes(1000);
    const tag = await s.parts.put(key, ref, { index: 2, offset: 0, size: 1000 }, Readable.from([data]));
    const file = s.parts.localPath?.(ref, { index: 2, etag: tag.etag });
    expect(file).toBe(path.join(dir, 'files3', '.staging', ref, `2.${tag.etag}`));
    expect(readFileSync(file!).equals(data)).toBe(true);
    for (const etag of [null, '../x', `${tag.etag}/..`])
      expect(s.parts.localPath?.(ref, { index: 2, etag })).toBeNull();
    expect(s.parts.localPath?.(ref, { index: -1, etag: tag.etag })).toBeNull();
    expect(() => s.parts.localPath?.('../../etc', { index: 2, etag: tag.etag })).toThrow(/not an upload reference/);
    expect(s3Of(fake).parts.localPath).toBeUndefined();
  });
});

describe('S3 adapter errors', () => {
  it('signs every request (the fake server checks SigV4), and a wrong secret is a plain 503', async () => {
    const before = fake.log.length;
    const s = s3Of(fake);
    await s.put(newStorageKey(), Buffer.from('signed'), 6, 'text/plain');
    expect(fake.log.slice(before)).toEqual(['PUT PutObject']);
    const wrong = s3Of(fake, 'not-the-secret');
    const err = await wrong.put(newStorageKey(), Buffer.from('x'), 1, 'text/plain').catch((e) => e);
    expect(err).toBeInstanceOf(StorageUnavailable);
    expect(err.message).toMatch(/拒绝访问（SignatureDoesNotMatch）/);
    expect(err.httpStatus).toBe(503);
    expect(await wrong.health()).toMatchObject({ ok: false, kind: 's3' });
  });

  it('says plainly that an unreachable store cannot be reached', async () => {
    const gone = await startFakeS3();
    await gone.close();
    const s = s3Of(gone);
    const err = await s.stat(newStorageKey()).catch((e) => e);
    expect(err).toBeInstanceOf(StorageUnavailable);
    expect(err.message).toContain(`对象存储（${gone.url}，存储桶 ks-test）无法连接`);
    const h = await s.health();
    expect(h.ok).toBe(false);
    expect(h.message).toContain('无法连接');
  });
});
