import {
  CANCEL_WAIT_MS,
  chunkCountOf,
  chunkRange,
  displayProgress,
  needsChunking,
  PROGRESS_START,
  uploadPercent,
} from '@ks/contracts';
import {
  cancelUpload,
  createUploadTask,
  mergeFile,
  type UploadedFile,
  type UploadTarget,
  uploadAttachment,
  uploadChunk,
  uploadNoticeFile,
  uploadSmallFile,
} from '../../api/files';
import { isApiError } from '../../api/request';
import { type HashFn, hashFile } from './hashFile';

/**
 * One upload (spec §4): progress starts at 2; files up to 5 MB go in one request; larger ones are chunked —
 * md5 of the whole file (in a worker) → upload-task → only the chunks the server lists → file-merge — with the
 * progress the server answers (at least 5; 100 shows as 99.9 until the merge has answered). A stop flag aborts the
 * loop between chunks (the stored chunks stay, so choosing the file again resumes); cancel also frees them
 * (upload-cancel, which always counts as success). The upload resolves false when the server gives neither a url nor
 * an upload list (§8).
 */

export type UploadPhase = 'hashing' | 'uploading' | 'merging' | 'done';

export class UploadStopped extends Error {
  override name = 'UploadStopped';
  constructor() {
    super('已停止上传');
  }
}

export interface UploadJobOptions {
  target: UploadTarget;
  /**
   * attachment (default), video (the editor's, always chunked), notice (a portal notice's public attachment) or help
   * (a help file of the help administration, always chunked)
   */
  usage?: 'attachment' | 'video' | 'notice' | 'help' | 'library';
  /** the number shown on the progress bar */
  onProgress?: (progress: number) => void;
  onPhase?: (phase: UploadPhase) => void;
  /** md5 of the file (default: the md5 worker) */
  hash?: HashFn;
  /** the wait after a cancel (default 3 s) */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class UploadJob {
  /** over 5 MB, or a video (the small-file call takes only images and PDF): chunked, with a cancellable progress bar */
  readonly chunked: boolean;
  /** the server's task, once upload-task has answered */
  uploadId: string | null = null;
  /** chunks sent by this job (not those the server had already) */
  readonly sent: number[] = [];
  private stopped = false;
  private cancelled = false;
  private readonly hashAbort = new AbortController();

  constructor(
    readonly file: File,
    private readonly options: UploadJobOptions,
  ) {
    this.chunked =
      options.usage === 'video' || options.usage === 'help' || options.usage === 'library' || needsChunking(file.size);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** The stop flag: the loop ends before its next request; stored chunks stay for a later resume. */
  stop(): void {
    this.stopped = true;
    this.hashAbort.abort();
  }

  /** Stop and free the server's parts (upload-cancel, always a success), then wait 3 s (§4). */
  async cancel(): Promise<void> {
    this.cancelled = true;
    this.stop();
    if (this.uploadId) await cancelUpload(this.uploadId);
    await (this.options.sleep ?? defaultSleep)(CANCEL_WAIT_MS);
  }

  private progress(n: number) {
    if (!this.stopped) this.options.onProgress?.(n);
  }

  private check() {
    if (this.stopped) throw new UploadStopped();
  }

  /** The stored file, or false when the server answered with neither a url nor an upload list. */
  async run(): Promise<UploadedFile | false> {
    this.progress(PROGRESS_START);
    try {
      const out = this.chunked ? await this.runChunked() : await this.runSingle();
      if (out) {
        this.options.onPhase?.('done');
        this.options.onProgress?.(100);
      }
      return out;
    } catch (e) {
      // whatever failed after a stop (a chunk of a cancelled task answers 404) is the stop itself
      if (this.stopped) throw new UploadStopped();
      throw e;
    }
  }

  private async runSingle(): Promise<UploadedFile | false> {
    const { target } = this.options;
    this.options.onPhase?.('uploading');
    const file =
      this.options.usage === 'notice'
        ? await uploadNoticeFile(this.file)
        : target.gnCoding && !target.fileNo
          ? await uploadAttachment(this.file, { ...target, gnCoding: target.gnCoding })
          : await uploadSmallFile(this.file, target);
    this.check();
    return file?.url ? file : false;
  }

  private async runChunked(): Promise<UploadedFile | false> {
    const { target } = this.options;
    this.options.onPhase?.('hashing');
    const md5 = await (this.options.hash ?? hashFile)(this.file, { signal: this.hashAbort.signal });
    this.check();
    const total = chunkCountOf(this.file.size);
    const task = await createUploadTask({
      md5,
      fileName: this.file.name,
      chunk: total,
      fileSize: this.file.size,
      ...target,
      usage: this.options.usage ?? 'attachment',
    });
    this.uploadId = task?.uploadId ?? null;
    if (this.cancelled && this.uploadId) await cancelUpload(this.uploadId);
    this.check();
    // instant upload, or every chunk was stored already and the server merged
    if (task?.url) return task.file?.url ? task.file : false;
    const missing = (task?.uploadUrlList ?? []).map((u) => u.chunk);
    if (!missing.length || !this.uploadId) return false;
    this.options.onPhase?.('uploading');
    const stored = total - missing.length;
    if (stored > 0) this.progress(displayProgress(uploadPercent(stored, total)));
    await this.sendChunks(this.uploadId, md5, missing);
    this.options.onPhase?.('merging');
    this.progress(displayProgress(100));
    let file: UploadedFile;
    try {
      file = await mergeFile({ uploadId: this.uploadId, fileName: this.file.name, md5, ...target });
    } catch (e) {
      // 409 with the chunks the server still lacks (one went missing on the way): send them, merge once more
      const lacking = isApiError(e) && e.status === 409 ? (e.data as { missing?: unknown } | null)?.missing : null;
      if (!Array.isArray(lacking) || !lacking.length) throw e;
      await this.sendChunks(
        this.uploadId,
        md5,
        lacking.filter((n): n is number => Number.isInteger(n)),
      );
      file = await mergeFile({ uploadId: this.uploadId, fileName: this.file.name, md5, ...target });
    }
    this.check();
    return file?.url ? file : false;
  }

  private async sendChunks(uploadId: string, md5: string, chunks: number[]) {
    for (const chunk of chunks) {
      this.check();
      const { start, end } = chunkRange(this.file.size, chunk);
      const res = await uploadChunk({
        chunk,
        uploadId,
        md5,
        blob: this.file.slice(start, end),
        fileName: this.file.name,
      });
      this.sent.push(chunk);
      this.progress(displayProgress(Math.min(res?.percent ?? 0, 100)));
    }
  }
}
