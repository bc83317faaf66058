import { randomUUID } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, copyFile, mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertKey,
  type ByteRange,
  diskWriteError,
  type MultipartStore,
  ObjectNotFound,
  type Storage,
  type StorageHealth,
  UPLOAD_REF_PATTERN,
} from './storage';

/**
 * Files on local disk under `<root>` (DATA_DIR/files). Layout:
 *   aa/bb/<uuid>            an object stored whole
 *   aa/bb/<uuid>.parts/     an object joined from chunks: manifest.json and the part files it names, in order
 *   .staging/<ref>/         an unfinished chunked upload: one file per written chunk, `<index>.<writeId>`
 *   .tmp/                   spooled single-request uploads before they are accepted
 * Each chunk write goes to a file of its own, so two writers of the same chunk never mix bytes; completing names the
 * writes the database recorded (their writeId is the part's etag) and moves the folder into place — no copy. Every
 * path comes from a validated key or reference; nothing a client sends reaches a path.
 * A write the disk cannot take (full, or refused) removes what it wrote and fails with StorageFull (507) or
 * StorageUnavailable (503) — `diskWriteError` — so no partial file is ever left under a key or a part's name.
 */
export function createLocalStorage(rootDir: string): Storage & { tmpDir: string; root: string } {
  const root = path.resolve(rootDir);
  const stagingRoot = path.join(root, '.staging');
  const tmpDir = path.join(root, '.tmp');

  const inside = (p: string) => {
    const resolved = path.resolve(p);
    if (!resolved.startsWith(root + path.sep)) throw new Error('storage path escapes the store');
    return resolved;
  };
  const fileOf = (key: string) => {
    assertKey(key);
    return inside(path.join(root, key));
  };
  const partsDirOf = (key: string) => `${fileOf(key)}.parts`;
  const stagingOf = (ref: string) => {
    if (!UPLOAD_REF_PATTERN.test(ref)) throw new Error('not an upload reference');
    return inside(path.join(stagingRoot, ref));
  };
  /** a folder of the store, made when missing (a file in its place: unwritable) */
  const folder = (dir: string) =>
    mkdir(dir, { recursive: true }).catch((e: unknown) => {
      throw diskWriteError(e, 'mkdir');
    });

  interface Manifest {
    size: number;
    parts: { name: string; size: number }[];
  }
  async function manifestOf(key: string): Promise<Manifest | null> {
    try {
      return JSON.parse(await readFile(path.join(partsDirOf(key), 'manifest.json'), 'utf8')) as Manifest;
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  async function fsyncPath(p: string, flags = 'r') {
    const fh = await open(p, flags);
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  }

  /** Move a finished file into place atomically (copy when the spool is on another file system). */
  async function moveInto(src: string, dest: string) {
    await folder(path.dirname(dest));
    try {
      await rename(src, dest);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw diskWriteError(e);
      try {
        await copyFile(src, `${dest}.tmp`);
        await fsyncPath(`${dest}.tmp`);
        await rename(`${dest}.tmp`, dest);
      } catch (e2) {
        // a copy the disk could not take is not left beside the key
        await rm(`${dest}.tmp`, { recursive: true, force: true }).catch(() => undefined);
        throw diskWriteError(e2);
      }
      await unlink(src);
    }
    await fsyncPath(path.dirname(dest)).catch(() => undefined);
  }

  /**
   * Chunk files just written, flushed to disk in the background one at a time: the disk works while the next chunks
   * arrive, so the merge's fsync (which makes the file durable, and is still done for every part) finds little left to
   * write. Best effort: a file gone meanwhile or a full queue is simply left to the merge.
   */
  const toFlush: string[] = [];
  let flushing = false;
  function flushLater(file: string) {
    if (toFlush.length >= 64) return;
    toFlush.push(file);
    if (flushing) return;
    flushing = true;
    void (async () => {
      for (let f = toFlush.shift(); f; f = toFlush.shift()) await fsyncPath(f).catch(() => undefined);
      flushing = false;
    })();
  }

  /** Stream the parts of a joined object, the inclusive range [start, end] of it. */
  async function* streamParts(key: string, m: Manifest, start: number, end: number) {
    const dir = partsDirOf(key);
    let offset = 0;
    for (const p of m.parts) {
      const pStart = offset;
      const pEnd = offset + p.size - 1;
      offset += p.size;
      if (pEnd < start || p.size === 0) continue;
      if (pStart > end) break;
      if (!/^\d{1,5}\.[0-9a-f-]{36}$/.test(p.name)) throw new Error('bad part name in manifest');
      const s = createReadStream(path.join(dir, p.name), {
        start: Math.max(0, start - pStart),
        end: Math.min(p.size - 1, end - pStart),
        highWaterMark: 1024 * 1024,
      });
      for await (const chunk of s) yield chunk as Buffer;
    }
  }

  const parts: MultipartStore = {
    async create() {
      const ref = randomUUID();
      await folder(stagingOf(ref));
      return ref;
    },
    async put(_key, ref, part, body) {
      const dir = stagingOf(ref);
      // the upload was cancelled, expired or completed: its folder is gone
      await access(dir).catch(() => {
        throw new ObjectNotFound();
      });
      const writeId = randomUUID();
      const file = path.join(dir, `${part.index}.${writeId}`);
      try {
        await pipeline(body, createWriteStream(file, { flags: 'wx', highWaterMark: 1024 * 1024 }));
      } catch (e) {
        // nothing of a failed write stays: the chunk is simply still missing
        await unlink(file).catch(() => undefined);
        throw diskWriteError(e);
      }
      flushLater(file);
      return { etag: writeId };
    },
    async complete(key, ref, list, totalSize) {
      const dir = stagingOf(ref);
      const ordered = [...list].sort((a, b) => a.index - b.index);
      const names = ordered.map((p, i) => {
        if (p.index !== i || !p.etag || !UPLOAD_REF_PATTERN.test(p.etag)) throw new Error('parts must be 0..n-1');
        return `${p.index}.${p.etag}`;
      });
      const sizes = await Promise.all(names.map(async (n) => (await stat(path.join(dir, n))).size));
      const sum = sizes.reduce((a, b) => a + b, 0);
      if (sum !== totalSize) throw new Error(`parts hold ${sum} bytes, expected ${totalSize}`);
      // durable before the database says the file exists
      for (let i = 0; i < names.length; i += 16) {
        await Promise.all(names.slice(i, i + 16).map((n) => fsyncPath(path.join(dir, n)))).catch((e: unknown) => {
          throw diskWriteError(e);
        });
      }
      const keep = new Set(names);
      for (const f of await readdir(dir)) if (!keep.has(f)) await rm(path.join(dir, f), { force: true });
      const manifest: Manifest = { size: totalSize, parts: names.map((name, i) => ({ name, size: sizes[i]! })) };
      const mf = path.join(dir, 'manifest.json');
      try {
        const fh = await open(mf, 'w');
        try {
          await fh.writeFile(JSON.stringify(manifest));
          await fh.sync();
        } finally {
          await fh.close();
        }
      } catch (e) {
        // the parts stay staged (the upload can be completed again); a half-written manifest does not
        await rm(mf, { force: true }).catch(() => undefined);
        throw diskWriteError(e);
      }
      await moveInto(dir, partsDirOf(key));
    },
    async abort(_key, ref) {
      await rm(stagingOf(ref), { recursive: true, force: true });
    },
    localPath(ref, part) {
      if (!part.etag || !UPLOAD_REF_PATTERN.test(part.etag) || !Number.isSafeInteger(part.index) || part.index < 0) {
        return null;
      }
      return path.join(stagingOf(ref), `${part.index}.${part.etag}`);
    },
  };

  return {
    kind: 'local',
    location: `local disk ${root}`,
    root,
    tmpDir,
    async putFile(key, localPath) {
      const dest = fileOf(key);
      await fsyncPath(localPath).catch((e: unknown) => {
        throw diskWriteError(e);
      });
      await moveInto(localPath, dest);
    },
    async put(key, body) {
      const dest = fileOf(key);
      await folder(path.dirname(dest));
      const tmp = path.join(tmpDir, randomUUID());
      await folder(tmpDir);
      try {
        await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(tmp, { flags: 'wx' }));
        await fsyncPath(tmp);
        await moveInto(tmp, dest);
      } catch (e) {
        await unlink(tmp).catch(() => undefined);
        throw diskWriteError(e);
      }
    },
    async get(key, range?: ByteRange) {
      const file = fileOf(key);
      const whole = await stat(file).catch((e) => {
        if (isMissing(e)) return null;
        throw e;
      });
      if (whole) {
        return createReadStream(file, {
          ...(range ? { start: range.start, end: range.end } : {}),
          highWaterMark: 1024 * 1024,
        });
      }
      const m = await manifestOf(key);
      if (!m) throw new ObjectNotFound();
      return Readable.from(streamParts(key, m, range?.start ?? 0, range?.end ?? m.size - 1), { objectMode: false });
    },
    async stat(key) {
      const s = await stat(fileOf(key)).catch((e) => {
        if (isMissing(e)) return null;
        throw e;
      });
      if (s) return { size: s.size };
      const m = await manifestOf(key);
      return m ? { size: m.size } : null;
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
      await rm(partsDirOf(key), { recursive: true, force: true });
    },
    parts,
    async health(): Promise<StorageHealth> {
      try {
        // the folder, or the nearest existing one above it (created on the first upload), must be a writable folder
        let dir = root;
        while (!(await exists(dir)) && path.dirname(dir) !== dir) dir = path.dirname(dir);
        if (!(await stat(dir)).isDirectory()) throw new Error(`${dir} 不是目录`);
        await access(dir, constants.W_OK);
        return { ok: true, kind: 'local', message: `本地磁盘 ${root}` };
      } catch (e) {
        return { ok: false, kind: 'local', message: `本地文件目录不可写：${root}（${(e as Error).message}）` };
      }
    },
  };
}

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
