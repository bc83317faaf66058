import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Code, Msg } from '@ks/contracts';
import { AppError } from '../errors';

/**
 * Where file bytes live: one interface, two adapters — local disk under DATA_DIR (default) and S3-compatible object
 * storage. Keys are generated here (`aa/bb/<uuid>`), never derived from a client's file name, which stays metadata
 * in the database. Chunked uploads go through `parts`: local disk writes each chunk to a staging file of its own;
 * S3 uses a multipart upload (5 MB chunks are S3's minimum part size).
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** where files go, for logs and /ks/health ("local disk /srv/data/files", "S3 bucket b at http://…") */
  readonly location: string;
  /** Store a file already on local disk (spooled upload); the local adapter moves it, S3 streams it. */
  putFile(key: string, localPath: string, size: number, contentType: string): Promise<void>;
  /** Store bytes from a stream of known size. */
  put(key: string, body: Readable | Buffer, size: number, contentType: string): Promise<void>;
  /** Stream an object, or the inclusive byte range of it; NotFound when there is none. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  /** Remove an object; nothing happens when it is already gone. */
  delete(key: string): Promise<void>;
  parts: MultipartStore;
  /** Can files be stored right now? A plain message when not. */
  health(): Promise<StorageHealth>;
}

export interface MultipartStore {
  /** Start a chunked upload of `key`; returns the adapter's reference for it (kept with the upload task). */
  create(key: string, contentType: string): Promise<string>;
  /** Store part `index` (0-based) at `offset`; `body` yields exactly `size` bytes. */
  put(
    key: string,
    ref: string,
    part: { index: number; offset: number; size: number },
    body: Readable,
  ): Promise<PartTag>;
  /** Join the parts into the object `key` (every part, in order, `totalSize` bytes in all). */
  complete(key: string, ref: string, parts: { index: number; etag: string | null }[], totalSize: number): Promise<void>;
  /** Free the parts of an unfinished upload; nothing happens when they are already gone. */
  abort(key: string, ref: string): Promise<void>;
  /**
   * Where parts are files on this machine: the file holding the part `put` just wrote (named by its tag), so it can be
   * read back cheaply from the page cache. Absent where parts live elsewhere (S3).
   */
  localPath?(ref: string, part: { index: number; etag: string | null }): string | null;
}

export interface PartTag {
  /** S3's ETag of the part (its MD5); on local disk the id of the file this write went to */
  etag: string | null;
}

/** Inclusive byte range, as in HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StorageHealth {
  ok: boolean;
  kind: 'local' | 's3';
  message: string;
}

/** A generated storage key: two shard levels from the uuid, then the uuid. */
export function newStorageKey(): string {
  const id = randomUUID();
  return `${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
}

export const STORAGE_KEY_PATTERN =
  /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UPLOAD_REF_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function assertKey(key: string): void {
  if (!STORAGE_KEY_PATTERN.test(key)) throw new Error(`not a storage key: ${JSON.stringify(key).slice(0, 80)}`);
}

/** The object is not in the store. */
export class ObjectNotFound extends AppError {
  constructor() {
    super(404, 404, '文件不存在或已被删除');
  }
}

/**
 * The store cannot be reached or refuses us: a plain 503 that names the store and the cause. `cause` (the system's
 * error, with its path) is for the log, never for the client.
 */
export class StorageUnavailable extends AppError {
  constructor(message: string, cause?: unknown, httpStatus = 503, code: number = Code.SERVICE_UNAVAILABLE) {
    super(httpStatus, code, message);
    if (cause !== undefined) this.cause = cause;
  }
}

/**
 * The store has no room for the bytes (disk full, quota, the process's file size limit): a 507 with
 * `Msg.STORAGE_FULL`. A StorageUnavailable too, so whoever keeps an upload for a retry when the store is away keeps it
 * here as well.
 */
export class StorageFull extends StorageUnavailable {
  constructor(cause?: unknown) {
    super(Msg.STORAGE_FULL, cause, 507, Code.INSUFFICIENT_STORAGE);
  }
}

/** errno codes of a write that found no room: no space, a quota, RLIMIT_FSIZE */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
/** errno codes of a write the disk refused: permissions, a read-only file system, a file where a folder belongs */
const REFUSED = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR']);

/**
 * A failed write to local disk as the client should hear it: no room → StorageFull (507); refused →
 * StorageUnavailable (503, `Msg.STORAGE_UNWRITABLE`); anything else (the client went away, a bad part) unchanged.
 * `mkdir` adds EEXIST: a file stands where the folder belongs.
 */
export function diskWriteError(e: unknown, op: 'write' | 'mkdir' = 'write'): unknown {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (!code || e instanceof AppError) return e;
  if (NO_ROOM.has(code)) return new StorageFull(e);
  if (REFUSED.has(code) || (op === 'mkdir' && code === 'EEXIST')) {
    return new StorageUnavailable(Msg.STORAGE_UNWRITABLE, e);
  }
  return e;
}
