import {
  checkExtension,
  EDITOR_UPLOAD_FIELD,
  EDITOR_UPLOAD_PATH,
  EDITOR_UPLOAD_TIMEOUT_MS,
  IMAGE_EXTENSIONS,
  NETWORK_CONGESTED_DELAY_MS,
  UploadMsg,
} from '@ks/contracts';
import type { IEditorConfig } from '@wangeditor-next/editor';
import { ApiError, reportApiError } from '../../api/request';
import { getToken } from '../../app/session';
import { safeHref } from '../../lib/sanitize';

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
