import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  checkExtension,
  checkTypedFile,
  chunkCountOf,
  chunkSizeOf,
  cleanFileName,
  contentMatchesExtension,
  extensionOf,
  HELP_FILE_EXTENSIONS,
  LIBRARY_UPLOAD_EXTENSIONS,
  MAX_CHUNKS,
  mimeOf,
  NOTICE_EXTENSIONS,
  paths,
  SNIFF_BYTES,
  UPLOAD_CHUNK_SIZE,
  UPLOAD_EXTENSIONS,
  type UploadedFile,
  UploadMsg,
  uploadPercent,
  VIDEO_EXTENSIONS,
} from '@ks/contracts';
import { createCache } from '../../platform/cache';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { newStorageKey, ObjectNotFound, StorageUnavailable } from '../../platform/storage';
import type { FileCaller } from './access';
import * as repo from './files.repo';
import {
  attachmentTypeOf,
  downloadUrl,
  type FilesDeps,
  GL_NAME,
  oversize,
  requireNoticeWriter,
  requireUploadNode,
  toUploaded,
} from './files.service';
import { WorkerHashLost, WorkerMd5 } from './md5-worker';
import { Meter, payloadTooLarge } from './multipart';

/**
 * Chunked, resumable uploads (spec §4, §7): upload-task → chunk-upload × n → file-merge, or upload-cancel.
 * Chunks and their records survive restarts (the store keeps the bytes, the database which chunks are in), so an
 * interrupted upload resumes from the chunks the server lists. The whole file's MD5 is verified before the file is
 * accepted; a mismatch keeps nothing. A task started in this process is hashed in order as its chunks come in, on
 * the MD5 worker thread (overlapping with receiving the next chunk), so the merge needs no second read:
 *  - chunks on local disk: each recorded chunk file is handed to the worker, which reads it back from the page cache;
 *    a chunk recorded ahead of the next one in order waits for it, so chunks sent a few at a time are hashed too;
 *  - chunks elsewhere (S3): the next chunk in order is hashed as it streams in, on a copy of the hash kept only once
 *    the chunk is recorded.
 * After a restart, when a hashed chunk was written again, or when the worker was lost, the merge reads the bytes back
 * (from where the in-order hash stops) and hashes those — the recorded writes are what gets verified, never what a
 * client says it sent.
 */

interface Running {
  hash: WorkerMd5;
  /** next index in order */
  next: number;
  /** the store's tag of each hashed write, by index */
  etags: (string | null)[];
  /** local disk: chunks recorded past `next`, by index — hashed once the chunks before them are */
  ahead: Map<number, { etag: string | null; path: string; size: number }>;
}

/**
 * In-order hashing state per task, in this process only (an accelerator; the database holds the truth). The least
 * recently used past 2,000 is evicted, its worker state freed; whoever deletes or replaces an entry frees its hash.
 */
const running = createCache<string, Running>('files.runningHashes', {
  max: 2_000,
  dispose: (r, _id, reason) => {
    if (reason === 'evict' || reason === 'expire') r.hash.dispose();
  },
});

function remember(id: string, r: Running) {
  const before = running.get(id);
  running.set(id, r);
  if (before && before.hash !== r.hash) before.hash.dispose();
}

/** Drop a task's in-order hash (its worker state too). */
function forget(id: string) {
  running.get(id)?.hash.dispose();
  running.delete(id);
}

const GONE = () => notFound(UploadMsg.TASK_GONE);

export interface TaskInput {
  md5: string;
  fileName: string;
  chunk: number;
  fileSize: number;
  gnCoding?: string;
  fileNo?: string;
  fileType?: string;
  usage: 'attachment' | 'video' | 'notice' | 'help' | 'library';
}

/**
 * Public files: the editor's videos and notice attachments; their rows say where they came from. Help files (PDF and
 * video help of the help viewer) are private until the help module binds them; then every signed-in user may read them
 * (modules/help registers their reader).
 */
const visibilityOf = (usage: string) => (usage === 'video' || usage === 'notice' ? 'public' : 'private');
const sourceOf = (usage: string) =>
  usage === 'notice' ? 'notice' : usage === 'help' ? 'help' : usage === 'library' ? 'library' : 'chunked';

/** Name and format rules of a chunked upload: typed attachment, video, or the default images and PDF. */
async function checkName(
  deps: FilesDeps,
  input: { fileName: string; fileSize: number; gnCoding?: string; fileNo?: string; usage: string },
) {
  const name = cleanFileName(input.fileName);
  if (!name) throw badRequest(UploadMsg.EMPTY_NAME);
  if (input.usage === 'video') {
    const msg = checkExtension(name, VIDEO_EXTENSIONS);
    if (msg) throw badRequest(msg);
  } else if (input.usage === 'notice') {
    const msg = checkExtension(name, NOTICE_EXTENSIONS);
    if (msg) throw badRequest(msg);
  } else if (input.usage === 'help') {
    const msg = checkExtension(name, HELP_FILE_EXTENSIONS);
    if (msg) throw badRequest(msg);
  } else if (input.usage === 'library') {
    // 资料库 (modules/library): tools, manuals, templates and videos; private until the library binds them
    const msg = checkExtension(name, LIBRARY_UPLOAD_EXTENSIONS);
    if (msg) throw badRequest(msg);
  } else if (input.fileNo && input.gnCoding) {
    const type = await attachmentTypeOf(deps.db, input.gnCoding, input.fileNo);
    const msg = checkTypedFile({ name, size: input.fileSize }, type);
    if (msg) throw msg.startsWith('文件大小') ? payloadTooLarge(msg) : badRequest(msg);
  } else {
    const msg = checkExtension(name, UPLOAD_EXTENSIONS);
    if (msg) throw badRequest(msg);
  }
  return { name, ext: extensionOf(name) };
}

async function readHead(deps: FilesDeps, key: string, size: number): Promise<Buffer> {
  const s = await deps.storage.get(key, { start: 0, end: Math.min(size, SNIFF_BYTES) - 1 });
  const out: Buffer[] = [];
  for await (const c of s) out.push(c as Buffer);
  return Buffer.concat(out);
}

/** upload-task: instant answer for bytes the caller's side already holds, else the task and the chunks it lacks. */
export async function uploadTask(deps: FilesDeps, c: FileCaller, input: TaskInput) {
  await requireUploadNode(deps, c, input.gnCoding);
  if (input.usage === 'notice') await requireNoticeWriter(deps, c);
  // help files are uploaded by administrators (the help administration)
  if ((input.usage === 'help' || input.usage === 'library') && c.loginRoleType !== 'M') throw forbidden();
  const { name, ext } = await checkName(deps, input);
  if (input.fileSize > deps.chunkedMaxBytes) throw payloadTooLarge(oversize(deps.chunkedMaxBytes));
  const total = chunkCountOf(input.fileSize);
  if (input.chunk !== total || total > MAX_CHUNKS) throw badRequest(UploadMsg.CHUNK_COUNT);
  const visibility = visibilityOf(input.usage);
  const base = { md5: input.md5, chunkSize: UPLOAD_CHUNK_SIZE, total };

  // instant upload: only from files of the caller's own enterprise (or account) — knowing an md5 proves nothing
  const same = await repo.sameBytesOf(deps.db, input.md5, input.fileSize, c);
  if (same) {
    const head = await readHead(deps, same.storageKey, same.fileSize).catch((e) => {
      if (e instanceof ObjectNotFound) return null;
      throw e;
    });
    if (head && contentMatchesExtension(ext, head)) {
      const row = await deps.db.transaction(async (tx) => {
        // the source must still exist: a delete of the same bytes locks them first, and this waits for it
        if (!(await repo.lockFileShared(tx, same.id))) return null;
        const f = await repo.insertFile(tx, {
          storageKey: same.storageKey,
          fileName: name,
          fileSize: same.fileSize,
          md5: same.md5,
          mime: mimeOf(ext),
          extension: ext,
          ownerId: c.id,
          enterpriseId: c.enterpriseId,
          gnCoding: input.gnCoding ?? null,
          annexNo: input.fileNo ?? null,
          fileType: input.fileType ?? null,
          visibility,
          source: sourceOf(input.usage),
        });
        await writeOpLog(tx, c.actor, {
          glName: GL_NAME,
          gnCoding: input.gnCoding,
          recordId: f.id,
          logbook: `秒传文件：${name}（${f.fileSize} 字节，与已有文件相同）`,
        });
        return f;
      });
      if (row)
        return { ...base, uploadId: null, url: downloadUrl(row.id), uploadUrlList: [], file: toUploaded(row, 'add') };
    }
  }

  const now = deps.now();
  let task = await repo.openTaskFor(deps.db, c.id, input.md5, input.fileSize, input.usage, now);
  if (task && extensionOf(task.fileName) !== ext) task = undefined;
  if (task) {
    const expiresAt = new Date(now.getTime() + deps.taskTtlMs);
    // the same bytes of the same account: resume, for the node and attachment type named now
    const now2 = {
      expiresAt,
      fileName: name,
      gnCoding: input.gnCoding ?? null,
      annexNo: input.fileNo ?? null,
      fileType: input.fileType ?? null,
    };
    await repo.updateTask(deps.db, task.id, now2);
    task = { ...task, ...now2 };
  } else {
    const key = newStorageKey();
    const ref = await deps.storage.parts.create(key, mimeOf(ext));
    task = await repo.insertTask(deps.db, {
      md5: input.md5,
      fileName: name,
      fileSize: input.fileSize,
      chunkCount: total,
      chunkSize: UPLOAD_CHUNK_SIZE,
      ownerId: c.id,
      enterpriseId: c.enterpriseId,
      gnCoding: input.gnCoding ?? null,
      annexNo: input.fileNo ?? null,
      fileType: input.fileType ?? null,
      usage: input.usage,
      storageKey: key,
      storageRef: ref,
      expiresAt: new Date(now.getTime() + deps.taskTtlMs),
    });
    remember(task.id, { hash: new WorkerMd5(), next: 0, etags: [], ahead: new Map() });
  }
  const t = task!;
  const stored = new Set((await repo.partsOf(deps.db, t.id)).map((p) => p.index));
  const missing = Array.from({ length: total }, (_, i) => i).filter((i) => !stored.has(i));
  if (!missing.length) {
    // every chunk is in (the merge did not happen, e.g. the page reloaded): merge now
    const file = await mergeTask(deps, c, t, name);
    return { ...base, uploadId: t.id, url: file.url, uploadUrlList: [], file };
  }
  return {
    ...base,
    uploadId: t.id,
    url: '',
    uploadUrlList: missing.map((chunk) => ({ chunk, url: paths.chunkUpload.path })),
    file: null,
  };
}

/** The caller's unfinished task, or 404. */
async function ownTask(deps: FilesDeps, c: FileCaller, uploadId: string) {
  const t = await repo.taskById(deps.db, uploadId);
  if (!t || t.ownerId !== c.id) throw GONE();
  return t;
}

/** The caller's task for a chunk, with how many chunks it holds and whether it holds this one (one query). */
export async function checkChunkTarget(
  deps: FilesDeps,
  c: FileCaller,
  f: { uploadId: string; chunk: number; md5: string },
): Promise<ChunkTarget> {
  const found = await repo.taskForChunk(deps.db, f.uploadId, f.chunk);
  const t = found?.task;
  if (!t || t.ownerId !== c.id) throw GONE();
  if (t.status !== 'uploading' || t.expiresAt.getTime() < deps.now().getTime()) throw GONE();
  if (f.md5 !== t.md5) throw badRequest(UploadMsg.TASK_MD5_DIFFERS);
  if (f.chunk >= t.chunkCount) throw badRequest('分片序号有误');
  return { task: t, stored: found.stored, has: found.has };
}

export interface ChunkTarget {
  task: repo.TaskRow;
  /** chunks recorded when the target was checked */
  stored: number;
  /** this chunk among them */
  has: boolean;
}

/**
 * chunk-upload: store one chunk (exactly its size; the first one must carry the format's signature), record it, and
 * answer the percent of chunks stored. A chunk already recorded is not written again.
 */
export async function putChunk(deps: FilesDeps, target: ChunkTarget, index: number, file: Readable) {
  const { task: t, ...state } = target;
  const expected = chunkSizeOf(t.fileSize, index, t.chunkSize);
  if (state.has) {
    file.resume();
    await new Promise((r) => file.once('end', r).once('error', r));
    return progressOf(t, index, state.stored);
  }
  // where chunks are local files, the worker reads each one once it is recorded; elsewhere it hashes the next one in
  // order as it streams in, on a copy of the hash
  const localPath = deps.storage.parts.localPath?.bind(deps.storage.parts);
  const entry = running.get(t.id);
  const hash = !localPath && entry && entry.next === index && !entry.hash.lost ? entry.hash.copy() : null;
  const ext = extensionOf(t.fileName);
  const meter = new Meter({
    max: expected,
    tooLarge: UploadMsg.CHUNK_SIZE,
    exact: expected,
    wrongSize: UploadMsg.CHUNK_SIZE,
    md5: hash,
    checkHead:
      index === 0
        ? (head) => {
            if (!contentMatchesExtension(ext, head)) throw badRequest(UploadMsg.CONTENT_MISMATCH);
          }
        : undefined,
  });
  // the request stream may still fail after the store gave up on it (the parser destroys it): never crash on that
  const onFileError = (e: Error) => meter.destroy(e);
  file.once('error', onFileError);
  meter.on('error', () => undefined);
  const body = file.pipe(meter);
  let tag: { etag: string | null };
  let kept = false;
  try {
    try {
      tag = await deps.storage.parts.put(
        t.storageKey,
        t.storageRef,
        { index, offset: index * t.chunkSize, size: expected },
        body,
      );
    } catch (e) {
      file.resume();
      if (e instanceof ObjectNotFound) throw GONE();
      if (e instanceof AppError) throw e;
      // a client that went away mid-chunk: nothing recorded, the chunk stays missing
      throw badRequest(UploadMsg.NETWORK_CONGESTED);
    } finally {
      file.off('error', onFileError);
    }
    await repo.recordPart(deps.db, { taskId: t.id, index, size: expected, etag: tag.etag });
    const cur = running.get(t.id);
    if (cur && index < cur.next) {
      // an index already hashed was written again: the hash no longer speaks for the recorded writes
      forget(t.id);
    } else if (localPath && cur) {
      const file = localPath(t.storageRef, { index, etag: tag.etag });
      if (!file) forget(t.id);
      else {
        // the latest recorded write of an index is the one hashed; then every chunk that is next in order
        cur.ahead.set(index, { etag: tag.etag, path: file, size: expected });
        for (let a = cur.ahead.get(cur.next); a; a = cur.ahead.get(cur.next)) {
          cur.ahead.delete(cur.next);
          cur.hash.addFile(a.path, a.size);
          cur.etags.push(a.etag);
          cur.next++;
        }
      }
    } else if (hash && cur === entry && entry) {
      // advance the streamed in-order hash only when nothing else moved it meanwhile
      remember(t.id, { ...entry, hash, next: index + 1, etags: [...entry.etags, tag.etag] });
      kept = true;
    }
  } finally {
    if (!kept) hash?.dispose();
  }
  // chunks stored before this one, plus this one (a simultaneous chunk may be counted on its own answer only)
  return progressOf(t, index, Math.min(t.chunkCount, state.stored + 1));
}

function progressOf(t: repo.TaskRow, index: number, uploaded: number) {
  return { percent: uploadPercent(uploaded, t.chunkCount), chunk: index, uploaded, total: t.chunkCount };
}

/** file-merge: the caller's task, every chunk recorded, then join and verify. Merging a finished task returns it. */
export async function merge(
  deps: FilesDeps,
  c: FileCaller,
  input: { uploadId: string; fileName: string; md5: string; gnCoding?: string; fileNo?: string },
) {
  const t = await ownTask(deps, c, input.uploadId);
  if (t.status === 'done' && t.fileId) {
    const f = await repo.fileById(deps.db, t.fileId);
    if (f) return toUploaded(f, 'add');
  }
  if (t.status !== 'uploading') throw conflict('文件正在合并，请稍候');
  // a merge that cannot complete refuses and keeps the task (its stored chunks stay, the upload goes on); only a
  // joined file whose content differs from the task's md5 is discarded (below)
  if (input.md5 !== t.md5) throw badRequest(UploadMsg.TASK_MD5_DIFFERS);
  const name = cleanFileName(input.fileName);
  if (!name || extensionOf(name) !== extensionOf(t.fileName)) throw badRequest('文件名与上传任务不符');
  // extras given at the merge name where the file belongs (checked as at upload-task)
  if (input.gnCoding || input.fileNo) {
    const gnCoding = input.gnCoding ?? t.gnCoding ?? undefined;
    await requireUploadNode(deps, c, gnCoding);
    await checkName(deps, { fileName: name, fileSize: t.fileSize, gnCoding, fileNo: input.fileNo, usage: t.usage });
    const set = { gnCoding: gnCoding ?? null, annexNo: input.fileNo ?? t.annexNo };
    await repo.updateTask(deps.db, t.id, set);
    return mergeTask(deps, c, { ...t, ...set }, name);
  }
  return mergeTask(deps, c, t, name);
}

async function mergeTask(deps: FilesDeps, c: FileCaller, t: repo.TaskRow, name: string): Promise<UploadedFile> {
  const parts = await repo.partsOf(deps.db, t.id);
  if (parts.length < t.chunkCount) {
    const have = new Set(parts.map((p) => p.index));
    const missing = Array.from({ length: t.chunkCount }, (_, i) => i).filter((i) => !have.has(i));
    throw new AppError(409, 409, UploadMsg.CHUNKS_MISSING, { missing });
  }
  const claimed = await repo.claimForMerge(deps.db, t.id, deps.now());
  if (!claimed) throw conflict('文件正在合并，请稍候');
  // the worker may still be reading the last chunk files: let it finish before completing moves them
  await running.get(t.id)?.hash.settled();
  try {
    await deps.storage.parts.complete(
      t.storageKey,
      t.storageRef,
      parts.map((p) => ({ index: p.index, etag: p.etag })),
      t.fileSize,
    );
  } catch (e) {
    if (e instanceof StorageUnavailable) {
      await repo.releaseMerge(deps.db, t.id, new Date(deps.now().getTime() + deps.taskTtlMs));
      throw e;
    }
    await drop(deps, c, t, `合并失败：${(e as Error).message}`);
    throw badRequest(UploadMsg.TYPED_FAILED);
  }
  // verify what was recorded: the in-order hash when it covers exactly the recorded writes, the rest read back (the
  // entry leaves the cache, its hash kept for that)
  const entry = running.get(t.id);
  running.delete(t.id);
  const covers = entry && !entry.hash.lost && entry.etags.every((etag, i) => parts[i]?.etag === etag);
  if (entry && !covers) entry.hash.dispose();
  let md5: string;
  let head: Buffer;
  try {
    md5 = await storedMd5(deps, t, covers ? entry : undefined);
    head = await readHead(deps, t.storageKey, t.fileSize);
  } catch (e) {
    if (e instanceof StorageUnavailable) {
      await deps.storage.delete(t.storageKey).catch(() => undefined);
      await drop(deps, c, t, (e as Error).message);
    }
    throw e;
  }
  if (md5 !== t.md5) {
    await drop(deps, c, t, `MD5 不一致：应为 ${t.md5}，实为 ${md5}`, true);
    throw badRequest(UploadMsg.MD5_MISMATCH);
  }
  const ext = extensionOf(name);
  if (!contentMatchesExtension(ext, head)) {
    await drop(deps, c, t, '文件内容与扩展名不符', true);
    throw badRequest(UploadMsg.CONTENT_MISMATCH);
  }
  try {
    const row = await deps.db.transaction(async (tx) => {
      const f = await repo.insertFile(tx, {
        storageKey: t.storageKey,
        fileName: name,
        fileSize: t.fileSize,
        md5,
        mime: mimeOf(ext),
        extension: ext,
        ownerId: t.ownerId,
        enterpriseId: t.enterpriseId,
        gnCoding: t.gnCoding,
        annexNo: t.annexNo,
        fileType: t.fileType,
        visibility: visibilityOf(t.usage),
        source: sourceOf(t.usage),
      });
      await repo.finishTask(tx, t.id, f.id, new Date(deps.now().getTime() + deps.taskTtlMs));
      await writeOpLog(tx, c.actor, {
        glName: GL_NAME,
        gnCoding: t.gnCoding ?? undefined,
        recordId: f.id,
        logbook: `合并分片上传：${name}（${t.chunkCount} 个分片，${t.fileSize} 字节，MD5 校验通过）`,
      });
      return f;
    });
    return toUploaded(row, 'add');
  } catch (e) {
    await deps.storage.delete(t.storageKey).catch(() => undefined);
    await repo.releaseMerge(deps.db, t.id, new Date(deps.now().getTime() + deps.taskTtlMs)).catch(() => undefined);
    throw e;
  }
}

interface Md5Sink {
  write(data: Uint8Array): Promise<void> | undefined;
  digest(): Promise<string>;
  dispose(): void;
}

function mainThreadMd5(): Md5Sink {
  const h = createHash('md5');
  return {
    write: (data) => {
      h.update(data);
      return undefined;
    },
    digest: async () => h.digest('hex'),
    dispose: () => undefined,
  };
}

/**
 * The MD5 of the stored object: the in-order hash with the rest read back; when that hash is lost (the worker stopped,
 * a chunk file could not be read), every byte again on a new worker, and failing that on this thread.
 */
async function storedMd5(deps: FilesDeps, t: repo.TaskRow, inOrder: Running | undefined): Promise<string> {
  const tries: [() => Md5Sink, number][] = [
    ...(inOrder ? [[() => inOrder.hash, inOrder.next] as [() => Md5Sink, number]] : []),
    [() => new WorkerMd5(), 0],
    [mainThreadMd5, 0],
  ];
  for (let i = 0; ; i++) {
    const [make, from] = tries[i]!;
    try {
      return await hashStored(deps, t, make(), from);
    } catch (e) {
      if (!(e instanceof WorkerHashLost) || i === tries.length - 1) throw e;
    }
  }
}

/** Bytes the merges of this process read back to hash them (the in-order hash did not cover them). */
let readBack = 0;

/** The MD5 of the stored object: `hash` holds its chunks before `from`, the rest is read back from the store. */
async function hashStored(deps: FilesDeps, t: repo.TaskRow, hash: Md5Sink, from: number): Promise<string> {
  try {
    if (from < t.chunkCount) {
      const rest = await deps.storage.get(t.storageKey, { start: from * t.chunkSize, end: t.fileSize - 1 });
      for await (const chunk of rest) {
        readBack += (chunk as Buffer).length;
        const room = hash.write(chunk as Buffer);
        if (room) await room;
      }
    }
  } catch (e) {
    hash.dispose();
    throw e;
  }
  return hash.digest();
}

/** Refuse a task for good: free its parts or its joined object, remove its records, log why. Nothing is kept. */
async function drop(deps: FilesDeps, c: FileCaller, t: repo.TaskRow, why: string, joined = false) {
  forget(t.id);
  if (joined) await deps.storage.delete(t.storageKey).catch(() => undefined);
  else await deps.storage.parts.abort(t.storageKey, t.storageRef).catch(() => undefined);
  await deps.db.transaction(async (tx) => {
    await repo.deleteTask(tx, t.id);
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      gnCoding: t.gnCoding ?? undefined,
      recordId: t.id,
      logbook: `合并被拒绝：${t.fileName}`,
      failInfo: why,
    });
  });
}

/** upload-cancel: free the caller's unfinished task; always succeeds. */
export async function cancel(deps: FilesDeps, c: FileCaller, uploadId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(uploadId)) return;
  const t = await repo.taskById(deps.db, uploadId);
  if (!t || t.ownerId !== c.id || t.status !== 'uploading') return;
  forget(t.id);
  try {
    await deps.storage.parts.abort(t.storageKey, t.storageRef);
  } catch {
    // the store is away: the sweeper frees the parts when the task expires
    await repo.updateTask(deps.db, t.id, { expiresAt: deps.now() });
    return;
  }
  await deps.db.transaction(async (tx) => {
    await repo.deleteTask(tx, t.id);
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      gnCoding: t.gnCoding ?? undefined,
      recordId: t.id,
      logbook: `取消上传：${t.fileName}`,
    });
  });
}

export async function taskParts(deps: FilesDeps, c: FileCaller, uploadId: string) {
  const t = await ownTask(deps, c, uploadId);
  const parts = await repo.partsOf(deps.db, t.id);
  return {
    uploadId: t.id,
    status: t.status,
    total: t.chunkCount,
    parts: parts.map((p) => ({ chunk: p.index, size: p.size, createdAt: p.createdAt.toISOString() })),
  };
}

/** Free what expired: unfinished uploads past their time, merges a crash interrupted, finished task records. */
export async function sweep(deps: FilesDeps): Promise<number> {
  const stale = await repo.staleTasks(deps.db, deps.now());
  for (const t of stale) {
    forget(t.id);
    try {
      if (t.status === 'uploading') await deps.storage.parts.abort(t.storageKey, t.storageRef);
      if (t.status === 'merging' && !t.fileId) {
        await deps.storage.parts.abort(t.storageKey, t.storageRef).catch(() => undefined);
        await deps.storage.delete(t.storageKey);
      }
    } catch {
      continue; // the store is away: try again next time
    }
    await repo.deleteTask(deps.db, t.id);
  }
  return stale.length;
}

/** For tests: how many bytes merges have read back so far. */
export function readBackBytesForTests(): number {
  return readBack;
}

/** For tests: forget the in-order hashes, as a restarted process would. */
export function forgetRunningHashes() {
  for (const id of [...running.keys()]) forget(id);
}
