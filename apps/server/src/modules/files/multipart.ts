import { createHash, type Hash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import { Code, SNIFF_BYTES } from '@ks/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../platform/errors';
import { diskWriteError } from '../../platform/storage';
import type { WorkerMd5 } from './md5-worker';

/**
 * Reading multipart uploads as streams: text fields into a record, each file through a Meter (size limit, exact size,
 * MD5, first bytes for the signature check) into a spool file or straight into the store. Nothing holds a whole file
 * in memory.
 */

export const payloadTooLarge = (message: string) => new AppError(413, Code.PAYLOAD_TOO_LARGE, message);

/** Counts, limits and hashes bytes on their way; keeps the first SNIFF_BYTES for the signature check. */
export class Meter extends Transform {
  size = 0;
  private headParts: Buffer[] = [];
  private headLen = 0;
  private headChecked = false;

  constructor(
    private readonly opts: {
      /** more than this many bytes: 413 with `tooLarge` */
      max: number;
      tooLarge: string;
      /** exactly this many bytes, or 400 with `wrongSize` */
      exact?: number;
      wrongSize?: string;
      hash?: Hash | null;
      /** an MD5 on the worker thread: the bytes are handed over as they pass, and the stream waits when it lags */
      md5?: WorkerMd5 | null;
      /** called once with the first bytes (fewer for short files); throw to refuse the content */
      checkHead?: (head: Buffer) => void;
    },
  ) {
    super({ highWaterMark: 1024 * 1024 });
  }

  get head(): Buffer {
    return Buffer.concat(this.headParts, this.headLen);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.opts.max) {
      cb(payloadTooLarge(this.opts.tooLarge));
      return;
    }
    if (this.opts.exact !== undefined && this.size > this.opts.exact) {
      cb(badRequest(this.opts.wrongSize ?? '文件大小不正确'));
      return;
    }
    if (this.headLen < SNIFF_BYTES) {
      const take = chunk.subarray(0, SNIFF_BYTES - this.headLen);
      this.headParts.push(Buffer.from(take));
      this.headLen += take.length;
      const err = this.headLen >= SNIFF_BYTES ? this.runHeadCheck() : null;
      if (err) {
        cb(err);
        return;
      }
    }
    this.opts.hash?.update(chunk);
    const room = this.opts.md5?.write(chunk);
    if (room) {
      // on to the store at once; the next bytes only when the worker has caught up
      this.push(chunk);
      room.then(() => cb(), cb);
      return;
    }
    cb(null, chunk);
  }

  override _flush(cb: TransformCallback): void {
    if (this.opts.exact !== undefined && this.size !== this.opts.exact) {
      cb(badRequest(this.opts.wrongSize ?? '文件大小不正确'));
      return;
    }
    const err = this.runHeadCheck();
    if (!err) this.opts.md5?.flush();
    cb(err);
  }

  private runHeadCheck(): Error | null {
    if (this.headChecked || !this.opts.checkHead) return null;
    this.headChecked = true;
    try {
      this.opts.checkHead(this.head);
      return null;
    } catch (e) {
      return e as Error;
    }
  }
}

export interface Spooled {
  path: string;
  size: number;
  md5: string;
  head: Buffer;
}

/**
 * Write an upload to a spool file under `dir`, with its size, MD5 and first bytes. Removed again on failure; a disk that
 * is full or refuses the write answers 507 / 503 (`diskWriteError`), not a 500.
 */
export async function spool(file: Readable, dir: string, opts: { max: number; tooLarge: string }): Promise<Spooled> {
  await mkdir(dir, { recursive: true }).catch((e: unknown) => {
    file.resume();
    throw diskWriteError(e, 'mkdir');
  });
  const p = path.join(dir, randomUUID());
  const hash = createHash('md5');
  const meter = new Meter({ max: opts.max, tooLarge: opts.tooLarge, hash });
  try {
    await pipeline(file, meter, createWriteStream(p, { flags: 'wx', highWaterMark: 1024 * 1024 }));
  } catch (e) {
    await unlink(p).catch(() => undefined);
    throw diskWriteError(e);
  }
  return { path: p, size: meter.size, md5: hash.digest('hex'), head: meter.head };
}

export async function discard(s: Spooled | null | undefined): Promise<void> {
  if (s) await unlink(s.path).catch(() => undefined);
}

/** Remove spool files older than `maxAgeMs` (left by a crash). */
export async function sweepSpool(dir: string, maxAgeMs: number, now: number): Promise<number> {
  let n = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const p = path.join(dir, name);
    const s = await stat(p).catch(() => null);
    if (s && now - s.mtimeMs > maxAgeMs) {
      await unlink(p).catch(() => undefined);
      n++;
    }
  }
  return n;
}

/** A file part under a name the call does not take: refused (the parser stops reading). */
export async function unexpectedFile(part: { fieldname: string; file: Readable }): Promise<never> {
  part.file.resume();
  throw badRequest(`不支持的文件字段：${part.fieldname.slice(0, 40)}`);
}

export interface FormLimits {
  /** largest file, bytes */
  fileSize: number;
  files: number;
}

/**
 * Walk a multipart request: text fields go into `fields` (first value of a name wins); each file part is handed to
 * `onFile` with the fields read so far, which must consume its stream. Client file names are not basenamed by the
 * parser (preservePath): the service cleans them itself, so the rule is tested where it is written.
 */
export async function readForm<R>(
  req: FastifyRequest,
  limits: FormLimits,
  onFile: (part: MultipartFile, fields: Record<string, string>) => Promise<R>,
): Promise<{ fields: Record<string, string>; results: R[] }> {
  if (!req.isMultipart()) throw badRequest('请使用 multipart/form-data 上传文件');
  const declared = Number(req.headers['content-length'] ?? 0);
  // refuse an oversize body before reading it (64 KB for the fields and part headers)
  if (declared > limits.fileSize * limits.files + 65_536) throw payloadTooLarge('上传内容过大');
  const fields: Record<string, string> = {};
  const results: R[] = [];
  const parts = req.parts({
    preservePath: true,
    // file parts in 1 MB pieces: far fewer stream hand-overs than busboy's default 16 KB (measured ~35 % faster)
    fileHwm: 1024 * 1024,
    highWaterMark: 1024 * 1024,
    limits: { fileSize: limits.fileSize + 1, files: limits.files, fields: 30, fieldSize: 4096, parts: 40 },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (fields[part.fieldname] === undefined && typeof part.value === 'string') {
          fields[part.fieldname] = part.value;
        }
        continue;
      }
      results.push(await onFile(part, { ...fields }));
    }
  } catch (e) {
    // refused before the body was read to its end (a chunk of an unknown task, a field out of place): the rest is read
    // and dropped, as Node does with a body nobody reads — left paused, it would hold the keep-alive connection, and the
    // client's next request on it would wait behind the unread bytes for ever
    if (!req.raw.complete) {
      req.raw.unpipe();
      req.raw.resume();
    }
    const err = e as { code?: string; statusCode?: number };
    if (err.code === 'FST_FILES_LIMIT') throw payloadTooLarge(`单次最多上传${limits.files}个文件`);
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge('上传内容过大');
    if (err.code === 'FST_PARTS_LIMIT' || err.code === 'FST_FIELDS_LIMIT') throw badRequest('表单字段过多');
    throw e;
  }
  return { fields, results };
}
