import {
  checkExtension,
  EDITOR_UPLOAD_FIELD,
  EDITOR_UPLOAD_PATH,
  EDITOR_UPLOAD_TIMEOUT_MS,
  IMAGE_EXTENSIONS,
  NETWORK_CONGESTED_DELAY_MS,
  UploadMsg,
  VIDEO_EXTENSIONS,
} from '@ks/contracts';
import type { IEditorConfig } from '@wangeditor-next/editor';
import { ApiError, reportApiError } from '../../api/request';
import { safeHref } from '../../lib/sanitize';
import { getToken } from '../../lib/session';
import { reportUploadError } from '../upload/errors';
import { type UploadJobOptions, UploadStopped } from '../upload/uploader';

/**
 * Image upload of the rich-text editor (spec §7 "Editor image upload", §9; constants and messages shared with the
 * server in packages/contracts files-rules): wangEditor's own uploader (Uppy XHR) posts the image as multipart field
 * `custom-fileName` to /dev-api/common/upload, stalls out after 5000 ms without progress, images only (jpg, png,
 * jpeg, jpe, webp), about 1 GB at most, the bearer token in the headers. The server answers in wangEditor's shape,
 * outside the /ks envelope: `{errno: 0, data: {url, alt, href}}` or `{errno: 1, message}`.
 */

/** §9: "max about 1 GB". */
export const EDITOR_UPLOAD_MAX_BYTES = 1024 * 1024 * 1024;
/** The file chooser's accept list. */
export const EDITOR_IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

export const UPLOAD_MESSAGES = {
  congested: UploadMsg.NETWORK_CONGESTED,
  failed: UploadMsg.FAILED,
  tooLarge: '图片大小不能超过1GB',
  videoTooLarge: '视频大小不能超过1GB',
  cancelled: UploadMsg.CANCELLED,
} as const;

export type Notify = (message: string, type: 'error' | 'warning' | 'info' | 'success') => void;

/** Why a file cannot go into the editor (请上传图片文件 for anything but jpg, png, jpeg, jpe, webp), or null. */
export const imageProblem = (file: { name: string }): string | null => checkExtension(file.name, IMAGE_EXTENSIONS);

interface UploadFile {
  name: string;
  size?: number;
}
interface UploadAnswer {
  errno?: number;
  message?: string;
  data?: { url?: unknown; alt?: unknown; href?: unknown } | null;
}
type InsertFn = (src: string, alt?: string, href?: string) => void;

const messageOf = (body: unknown): string | null => {
  const m = body && typeof body === 'object' ? (body as { message?: unknown }).message : null;
  return typeof m === 'string' && m.trim() ? m : null;
};

/** The uploadImage menu configuration of the editor. */
export function imageUploadConfig(notify: Notify): NonNullable<IEditorConfig['MENU_CONF']>['uploadImage'] {
  return {
    server: EDITOR_UPLOAD_PATH,
    fieldName: EDITOR_UPLOAD_FIELD,
    timeout: EDITOR_UPLOAD_TIMEOUT_MS,
    maxFileSize: EDITOR_UPLOAD_MAX_BYTES,
    allowedFileTypes: EDITOR_IMAGE_MIME_TYPES,
    withCredentials: false,
    // read when each file goes, so a token renewed since the editor opened is the one sent
    headers: (): Record<string, string> => {
      const token = getToken();
      return token ? { Authorization: `Bearer ${token}` } : {};
    },
    onBeforeUpload(files: Record<string, UploadFile>) {
      const kept: Record<string, UploadFile> = {};
      for (const [id, file] of Object.entries(files)) {
        const problem = imageProblem(file);
        if (problem) notify(problem, 'warning');
        else if ((file.size ?? 0) > EDITOR_UPLOAD_MAX_BYTES) notify(UPLOAD_MESSAGES.tooLarge, 'warning');
        else kept[id] = file;
      }
      return Object.keys(kept).length ? kept : false;
    },
    // the answer: insert a safe address, or say why not
    customInsert(res: UploadAnswer, insertFn: InsertFn) {
      const url = res?.errno === 0 && typeof res.data?.url === 'string' ? safeHref(res.data.url) : null;
      if (!url) {
        notify(messageOf(res) ?? UPLOAD_MESSAGES.failed, 'error');
        return;
      }
      const alt = typeof res.data?.alt === 'string' ? res.data.alt.replace(/\.[^.]+$/, '') : '';
      insertFn(url, alt, '');
    },
    // no answer (timeout, network) → 当前网络拥堵 after 1.5 s; a refusal → its message; not signed in → §8 handling
    onError(_file: UploadFile, _err: unknown, res?: { status?: number; body?: unknown }) {
      if (!res) {
        setTimeout(() => notify(UPLOAD_MESSAGES.congested, 'error'), NETWORK_CONGESTED_DELAY_MS);
        return;
      }
      const message = messageOf(res.body);
      if (res.status === 401) {
        reportApiError(new ApiError('response', 401, 401, message ?? '未登录', null));
        return;
      }
      notify(message ?? UPLOAD_MESSAGES.failed, 'error');
    },
  } as NonNullable<IEditorConfig['MENU_CONF']>['uploadImage'];
}

// ── video ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** The video chooser's accept list: mp4 and webm. */
export const EDITOR_VIDEO_MIME_TYPES = ['video/mp4', 'video/webm'];

/** Why a file cannot go into the editor as a video (请上传视频文件（mp4、webm）), or null. */
export const videoProblem = (file: { name: string }): string | null => checkExtension(file.name, VIDEO_EXTENSIONS);

/** What the video upload needs of the chunked uploader (components/upload/uploader.ts). */
export interface VideoJob {
  run(): Promise<{ url?: string | null } | false>;
  /** stop it and free the server's parts (run() then ends with UploadStopped) */
  cancel(): Promise<void>;
}

/** The video upload in flight, as its progress reports it: the file's name and how to cancel it. */
export interface VideoUpload {
  name: string;
  /** stops the upload, frees what the server stored of it, then says 已取消上传 */
  cancel(): Promise<void>;
}
export type CreateVideoJob = (file: File, options: UploadJobOptions) => VideoJob;

/**
 * The uploadVideo menu configuration (spec §7: "video goes to a cloud object storage"): the video goes through the
 * chunked upload (md5 in a worker, 5 MB chunks, resumable) with usage `video`, so the server stores it in the
 * configured storage — the S3-compatible object storage when one is set, else the local store — under a public
 * address that serves ranges; that address is inserted as the editor's <video>. `progress` gets the percentage (and
 * the upload, to cancel it) while it runs and null when it has ended.
 */
export function videoUploadConfig(
  notify: Notify,
  progress: (percent: number | null, upload?: VideoUpload) => void,
  createJob: CreateVideoJob,
): NonNullable<IEditorConfig['MENU_CONF']>['uploadVideo'] {
  return {
    allowedFileTypes: EDITOR_VIDEO_MIME_TYPES,
    maxFileSize: EDITOR_UPLOAD_MAX_BYTES,
    async customUpload(file: File, insertFn: (src: string, poster?: string) => void) {
      const problem = videoProblem(file);
      if (problem) return notify(problem, 'warning');
      if (file.size > EDITOR_UPLOAD_MAX_BYTES) return notify(UPLOAD_MESSAGES.videoTooLarge, 'warning');
      let job: VideoJob | null = null;
      const upload: VideoUpload = {
        name: file.name,
        async cancel() {
          if (!job) return;
          await job.cancel();
          notify(UPLOAD_MESSAGES.cancelled, 'info');
        },
      };
      progress(0, upload);
      try {
        job = createJob(file, { target: {}, usage: 'video', onProgress: (p) => progress(p, upload) });
        const stored = await job.run();
        const url = stored && typeof stored.url === 'string' ? safeHref(stored.url) : null;
        if (url) insertFn(url, '');
        else notify(UPLOAD_MESSAGES.failed, 'error');
      } catch (e) {
        // §8: the server's refusal, 当前网络拥堵 after a lost connection, the session handling for 401
        if (!(e instanceof UploadStopped)) reportUploadError(e, false, { notify });
      } finally {
        progress(null);
      }
    },
  } as NonNullable<IEditorConfig['MENU_CONF']>['uploadVideo'];
}
