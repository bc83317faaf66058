import { Code, Msg, SESSION_END_CODES } from '@ks/contracts';
import { isApiError, reportApiError, request } from '../../api/request';
import { safeHref } from '../../lib/sanitize';

/**
 * Image upload of the rich-text editor (spec §7 "Editor image upload", §9): POST multipart to /dev-api/common/upload
 * with the file under `custom-fileName`, 5000 ms timeout, images only (jpg, png, jpeg, jpe, webp), about 1 GB at most,
 * the bearer token sent. It goes through the app's one request client (token, envelope, timeout), not through the
 * editor's own XHR uploader, so it shares the error handling and the tests drive it with a fake transport.
 */
export const EDITOR_UPLOAD_URL = '/dev-api/common/upload';
export const EDITOR_UPLOAD_FIELD = 'custom-fileName';
export const EDITOR_UPLOAD_TIMEOUT_MS = 5000;
/** §9: "max about 1 GB". */
export const EDITOR_UPLOAD_MAX_BYTES = 1024 * 1024 * 1024;
/** §9 image preview types: the editor takes images only. */
export const EDITOR_IMAGE_EXTENSIONS = ['jpg', 'png', 'jpeg', 'jpe', 'webp'] as const;
/** The file chooser's accept list. */
export const EDITOR_IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
/** §8: the congestion message appears 1.5 s after the timeout. */
export const CONGESTED_NOTICE_DELAY_MS = 1500;

export const UPLOAD_MESSAGES = {
  congested: '当前网络拥堵，请重新上传！',
  failed: '上传失败！',
  imageOnly: `请上传图片（${EDITOR_IMAGE_EXTENSIONS.join('、')}格式）`,
  tooLarge: '图片大小不能超过1GB',
} as const;

export type UploadFailure = 'congested' | 'failed' | 'imageOnly' | 'tooLarge' | 'session';

/** A failed editor upload, with the message to show (§8: server message, else 上传失败！). */
export class EditorUploadError extends Error {
  override name = 'EditorUploadError';
  constructor(
    readonly kind: UploadFailure,
    message: string,
  ) {
    super(message);
  }
}

export function isEditorImage(file: Pick<File, 'name'>): boolean {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  return file.name.includes('.') && (EDITOR_IMAGE_EXTENSIONS as readonly string[]).includes(ext);
}

/** The image address in the server's answer: `data.url` (§3 upload result), or data itself when it is text. */
function urlOf(data: unknown): string | null {
  const raw =
    typeof data === 'string'
      ? data
      : data && typeof data === 'object'
        ? ((data as { url?: unknown }).url ?? (data as { fileUrl?: unknown }).fileUrl)
        : null;
  return typeof raw === 'string' ? safeHref(raw) : null;
}

/** Uploads one image; resolves its address and alt text, or rejects with EditorUploadError. */
export async function uploadEditorImage(file: File): Promise<{ url: string; alt: string }> {
  if (!isEditorImage(file)) throw new EditorUploadError('imageOnly', UPLOAD_MESSAGES.imageOnly);
  if (file.size > EDITOR_UPLOAD_MAX_BYTES) throw new EditorUploadError('tooLarge', UPLOAD_MESSAGES.tooLarge);
  const form = new FormData();
  form.append(EDITOR_UPLOAD_FIELD, file, file.name);
  let data: unknown;
  try {
    data = await request<unknown>({
      url: EDITOR_UPLOAD_URL,
      method: 'POST',
      data: form,
      timeout: EDITOR_UPLOAD_TIMEOUT_MS,
      silent: true,
    });
  } catch (err) {
    if (!isApiError(err)) throw new EditorUploadError('failed', UPLOAD_MESSAGES.failed);
    if (SESSION_END_CODES.includes(err.code) || err.status === Code.UNAUTHORIZED) {
      reportApiError(err);
      throw new EditorUploadError('session', err.message);
    }
    if (err.kind === 'timeout' || err.kind === 'network') {
      throw new EditorUploadError('congested', UPLOAD_MESSAGES.congested);
    }
    const serverMessage = err.message && err.message !== Msg.REQUEST_FAILED ? err.message : null;
    throw new EditorUploadError('failed', serverMessage ?? UPLOAD_MESSAGES.failed);
  }
  const url = urlOf(data);
  if (!url) throw new EditorUploadError('failed', UPLOAD_MESSAGES.failed);
  return { url, alt: file.name.replace(/\.[^.]+$/, '') };
}
