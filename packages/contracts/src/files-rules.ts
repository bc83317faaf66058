/**
 * Upload rules both sides run (spec §4 upload, §5 uploads and typed attachments, §8 upload errors, §9 constants):
 * accepted formats, typed attachments, content signatures (magic bytes), chunking, progress and the messages.
 * Zod-free, so the web imports it without the schemas; the server checks the same rules again on every upload.
 */
import { UPLOAD_CHUNK_SIZE } from './constants';

/** §5: what an upload accepts unless a typed attachment says otherwise. */
export const UPLOAD_EXTENSIONS = ['jpg', 'png', 'jpeg', 'jpe', 'webp', 'pdf'] as const;
/** §9 image preview types; also what the rich-text editor accepts. */
export const IMAGE_EXTENSIONS = ['jpg', 'png', 'jpeg', 'jpe', 'webp'] as const;
/** Videos for the video preview dialog (screen 5) and the editor's video upload. */
export const VIDEO_EXTENSIONS = ['mp4', 'webm'] as const;
/** Notice attachments (admins): documents and archives besides images and PDF. */
export const NOTICE_EXTENSIONS = [...UPLOAD_EXTENSIONS, 'doc', 'docx', 'xls', 'xlsx', 'zip', 'rar'] as const;
/** Every format an attachment type may list: each has a content signature the server checks. */
export const KNOWN_FORMATS = [...NOTICE_EXTENSIONS, 'gif', ...VIDEO_EXTENSIONS] as const;

/** Largest annexSize (MB) a developer may give an attachment type: the server's default chunked-upload limit. */
export const ANNEX_SIZE_MAX_MB = 4096;
/** Most attachment types one node may have. */
export const MAX_ATTACHMENT_TYPES = 50;

/** §5 / §9: default number of files of one uploader. */
export const DEFAULT_MAX_FILES = 3;
/** §5: a typed attachment's file name, extension included, in characters. */
export const TYPED_NAME_MAX = 64;
/** Longest file name kept as metadata (longer names are shortened, the extension kept). */
export const FILE_NAME_MAX = 200;
/** §4: files up to one chunk go in one request; larger ones are chunked (UPLOAD_CHUNK_SIZE = 5242880). */
export const SINGLE_REQUEST_MAX = UPLOAD_CHUNK_SIZE;
/** S3 allows 10,000 parts of a multipart upload. */
export const MAX_CHUNKS = 10_000;
/** Bytes the server reads to recognise a file's content. */
export const SNIFF_BYTES = 1024;

/** §4 / §9 progress: starts at 2, shows at least 5, and 100 shows as 99.9 until the merge answers. */
export const PROGRESS_START = 2;
export const PROGRESS_MIN = 5;
export const PROGRESS_BEFORE_MERGE = 99.9;
/** §4: a cancelled chunked upload waits 3 s before the uploader resets. */
export const CANCEL_WAIT_MS = 3_000;
/** §8: 当前网络拥堵 is shown after 1.5 s. */
export const NETWORK_CONGESTED_DELAY_MS = 1_500;

/** Screen 12: the rich-text editor's image upload (outside /ks, wangEditor's answer shape). */
export const EDITOR_UPLOAD_PATH = '/dev-api/common/upload';
export const EDITOR_UPLOAD_FIELD = 'custom-fileName';
export const EDITOR_UPLOAD_TIMEOUT_MS = 5_000;
export const EDITOR_HEIGHT = 450;
export const EDITOR_PLACEHOLDER = '请填写内容';
/** Screen 5: the video preview frame. */
export const VIDEO_PREVIEW_HEIGHT = 780;

/** §5 and §8 messages, verbatim, plus the server's own upload messages. */
export const UploadMsg = {
  NOT_IMAGE_OR_PDF: '请上传图片或PDF文件',
  NAME_TOO_LONG: '文件名超过64位字符，请重新命名后上传！',
  NETWORK_CONGESTED: '当前网络拥堵，请重新上传！',
  FAILED: '上传失败！',
  TYPED_FAILED: '文件上传失败，请重新上传！',
  EMPTY_PREVIEW: '请先选择要查看的图片',
  NO_ATTACHMENT: '请至详情页添加附件再查看',
  IMAGE_ONLY: '请上传图片文件',
  VIDEO_ONLY: '请上传视频文件（mp4、webm）',
  EMPTY_NAME: '文件名不能为空',
  EMPTY_FILE: '不能上传空文件',
  CONTENT_MISMATCH: '文件内容与扩展名不符，请上传真实的文件',
  /** the joined file's content differs from its md5: the upload is discarded */
  MD5_MISMATCH: '文件校验失败：合并后的文件内容与 MD5 不一致，本次上传已作废，请重新上传',
  /** a merge (or chunk) naming another md5 than its task's: refused, the task kept */
  TASK_MD5_DIFFERS: 'md5 与上传任务不符',
  NO_FILE: '请选择要上传的文件',
  TASK_GONE: '上传任务不存在或已过期，请重新上传',
  CHUNK_COUNT: '分片数量与文件大小不符',
  CHUNK_SIZE: '分片大小不正确',
  CHUNKS_MISSING: '文件分片尚未上传完整',
  ADMIN_READ_ONLY: '管理员只能查看附件',
  CANCELLED: '已取消上传',
  DONE: '上传成功',
} as const;

/** 格式错误，请上传【formats】格式 */
export const badFormatMessage = (formats: readonly string[] | string): string =>
  `格式错误，请上传【${typeof formats === 'string' ? formats : formats.join(',')}】格式`;
/** 文件大小不能超过【n MB】! */
export const tooLargeMessage = (mb: number): string => `文件大小不能超过【${mb} MB】!`;
/** §5 change save: a required annex without a file. */
export const requiredAnnexMessage = (name: string): string => `附件为必填项，请上传【${name}】附件！`;
export const tooManyFilesMessage = (max: number): string => `最多只能上传${max}个文件`;

/** Lower-case extension after the last dot of the name's last segment; '' when there is none. */
export function extensionOf(name: string): string {
  const base = baseName(name);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The last segment of a name that may carry a path (either slash). */
export function baseName(name: string): string {
  const parts = name.split(/[\\/]/);
  return parts[parts.length - 1] ?? '';
}

// C0/C1 controls, and the bidirectional overrides that make `gpj.exe` read as `exe.jpg`
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The name kept as metadata for a client's file name: its last segment, without control or bidi characters, trimmed,
 * at most FILE_NAME_MAX characters with the extension kept. '' when nothing is left. It never becomes a path.
 */
export function cleanFileName(name: string): string {
  let n = baseName(name.replace(UNSAFE_CHARS, '')).trim();
  if (n === '.' || n === '..') n = '';
  const chars = Array.from(n);
  if (chars.length <= FILE_NAME_MAX) return n;
  const ext = extensionOf(n);
  const keep = ext && ext.length < 16 ? `.${ext}` : '';
  return chars.slice(0, FILE_NAME_MAX - keep.length).join('') + keep;
}

/** Characters of a name as people count them (a Chinese character is one). */
export const nameLength = (name: string): number => Array.from(name).length;

/** The list of an attachment type's annexFormat ("pdf,jpg", "PDF、JPG", ".pdf;.doc"), lower case, no dots. */
export function parseFormats(annexFormat: string | null | undefined): string[] {
  if (!annexFormat) return [];
  const out: string[] = [];
  for (const raw of annexFormat.split(/[\s,;，；、|/]+/)) {
    const f = raw
      .trim()
      .replace(/^\*?\./, '')
      .toLowerCase();
    if (f && !out.includes(f)) out.push(f);
  }
  return out;
}

/**
 * §5: does the name's extension fall within the accepted list? Returns the message to show, or null.
 * The default list answers 请上传图片或PDF文件; any other list 格式错误，请上传【…】格式.
 */
export function checkExtension(name: string, allowed: readonly string[] = UPLOAD_EXTENSIONS): string | null {
  if (!cleanFileName(name)) return UploadMsg.EMPTY_NAME;
  const ext = extensionOf(name);
  if (allowed.includes(ext)) return null;
  if (sameList(allowed, UPLOAD_EXTENSIONS)) return UploadMsg.NOT_IMAGE_OR_PDF;
  if (sameList(allowed, IMAGE_EXTENSIONS)) return UploadMsg.IMAGE_ONLY;
  if (sameList(allowed, VIDEO_EXTENSIONS)) return UploadMsg.VIDEO_ONLY;
  return badFormatMessage(allowed);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

export interface AttachmentTypeRule {
  annexName?: string;
  /** formats, e.g. "pdf,jpg,png" */
  annexFormat: string;
  /** MB; 0 or absent: no limit of its own */
  annexSize?: number | null;
}

/**
 * §5 typed attachments, in the order the user meets them: name at most 64 characters, extension within the type's
 * formats, size within the type's MB. Returns the message to show, or null.
 */
export function checkTypedFile(file: { name: string; size: number }, type: AttachmentTypeRule): string | null {
  const name = cleanFileName(file.name);
  if (!name) return UploadMsg.EMPTY_NAME;
  if (nameLength(name) > TYPED_NAME_MAX) return UploadMsg.NAME_TOO_LONG;
  const formats = parseFormats(type.annexFormat);
  if (formats.length && !formats.includes(extensionOf(name))) return badFormatMessage(formats);
  if (type.annexSize && type.annexSize > 0 && file.size > type.annexSize * 1024 * 1024) {
    return tooLargeMessage(type.annexSize);
  }
  return null;
}

/** §5 default max 3 files: may `adding` more files join `existing` ones? Message or null. */
export function checkFileCount(existing: number, adding: number, max: number = DEFAULT_MAX_FILES): string | null {
  return existing + adding > max ? tooManyFilesMessage(max) : null;
}

// ---- content signatures -------------------------------------------------------------------------------------------

export type SniffedFormat =
  | 'jpg'
  | 'png'
  | 'webp'
  | 'gif'
  | 'pdf'
  | 'mp4'
  | 'webm'
  | 'zip'
  | 'ole'
  | 'rar'
  | '7z'
  | 'exe';

/** The content family each known extension must have. docx/xlsx are zip containers, doc/xls OLE compound files. */
const FAMILY: Record<string, SniffedFormat> = {
  jpg: 'jpg',
  jpeg: 'jpg',
  jpe: 'jpg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  pdf: 'pdf',
  mp4: 'mp4',
  webm: 'webm',
  zip: 'zip',
  docx: 'zip',
  xlsx: 'zip',
  doc: 'ole',
  xls: 'ole',
  rar: 'rar',
  // the library's client tools (资料库): 7-Zip archives, Windows executables (MZ) and installers (OLE compound files)
  '7z': '7z',
  exe: 'exe',
  msi: 'ole',
};

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) =>
  b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

/** What the first bytes of a file are (SNIFF_BYTES is enough), by signature; null when none is recognised. */
export function sniffFormat(head: Uint8Array): SniffedFormat | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'webp';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'gif';
  if (startsWith(head, ascii('ftyp'), 4)) return 'mp4';
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return 'webm';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(head, ascii('Rar!\u001a\u0007'))) return 'rar';
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return '7z';
  // PDF readers accept a header within the first 1024 bytes (a BOM or junk before it happens in the wild)
  const pdf = ascii('%PDF-');
  for (let i = 0; i + pdf.length <= Math.min(head.length, SNIFF_BYTES); i++) {
    if (startsWith(head, pdf, i)) return 'pdf';
  }
  // a DOS/PE executable: two bytes only, so it is tried last
  if (startsWith(head, ascii('MZ'))) return 'exe';
  return null;
}

/** Does the content match the extension? An unknown extension never matches (a renamed .exe is refused). */
export function contentMatchesExtension(ext: string, head: Uint8Array): boolean {
  const family = FAMILY[ext.toLowerCase()];
  return family !== undefined && sniffFormat(head) === family;
}

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
  exe: 'application/vnd.microsoft.portable-executable',
  msi: 'application/x-msi',
};

/** The content type served for an extension (the client's claimed type is never used). */
export const mimeOf = (ext: string): string => MIME[ext.toLowerCase()] ?? 'application/octet-stream';

/** How a file previews: images and PDF inline (screen 7), videos in the video dialog (screen 5); null: download only. */
export function previewKind(nameOrExt: string): 'image' | 'pdf' | 'video' | null {
  const ext = nameOrExt.includes('.') ? extensionOf(nameOrExt) : nameOrExt.toLowerCase();
  if ((IMAGE_EXTENSIONS as readonly string[]).includes(ext) || ext === 'gif') return 'image';
  if (ext === 'pdf') return 'pdf';
  if ((VIDEO_EXTENSIONS as readonly string[]).includes(ext)) return 'video';
  return null;
}

// ---- chunks and progress ------------------------------------------------------------------------------------------

/** Should this file go in chunks (§4: larger than one chunk) rather than one request? */
export const needsChunking = (size: number, chunkSize: number = UPLOAD_CHUNK_SIZE): boolean => size > chunkSize;

/** Number of chunks of a file: the upload-task's `chunk`. */
export const chunkCountOf = (size: number, chunkSize: number = UPLOAD_CHUNK_SIZE): number =>
  Math.max(1, Math.ceil(size / chunkSize));

/** Byte range [start, end) of the 0-based chunk `index`: what chunk-upload sends as `file`. */
export function chunkRange(size: number, index: number, chunkSize: number = UPLOAD_CHUNK_SIZE) {
  const start = index * chunkSize;
  return { start, end: Math.min(size, start + chunkSize) };
}

/** Size in bytes of chunk `index` of a file of `size` bytes. */
export const chunkSizeOf = (size: number, index: number, chunkSize: number = UPLOAD_CHUNK_SIZE): number => {
  const r = chunkRange(size, index, chunkSize);
  return Math.max(0, r.end - r.start);
};

/** Chunks stored out of the total, as the percent chunk-upload answers (two decimals, 0–100). */
export const uploadPercent = (stored: number, total: number): number =>
  total <= 0 ? 0 : Math.floor((Math.min(stored, total) / total) * 10_000) / 100;

/** §4 / §9: the number the progress bar shows: at least 5, and 99.9 for 100 until the merge has answered. */
export function displayProgress(percent: number, merged = false): number {
  if (merged) return 100;
  if (percent >= 100) return PROGRESS_BEFORE_MERGE;
  return Math.max(PROGRESS_MIN, Math.round(percent * 10) / 10);
}

// ---- attachments of a record --------------------------------------------------------------------------------------

export type FileOperationType = 'add' | 'del' | '';

/**
 * §4 attachment operation: `add` for a file uploaded in this edit, `del` for one removed, '' for one kept.
 * `before` are the file ids the record had, `after` those it has now.
 */
export function attachmentOperations(
  before: readonly string[],
  after: readonly string[],
): { fileId: string; fileOperationType: FileOperationType }[] {
  const out: { fileId: string; fileOperationType: FileOperationType }[] = [];
  for (const id of after) out.push({ fileId: id, fileOperationType: before.includes(id) ? '' : 'add' });
  for (const id of before) if (!after.includes(id)) out.push({ fileId: id, fileOperationType: 'del' });
  return out;
}

/** §5: names of required attachment types that have no file (url) yet. */
export function missingRequiredAnnexes(
  types: readonly { annexName: string; annexNo: string; isRequired: boolean }[],
  files: readonly { annexNo?: string | null; url?: string | null }[],
): string[] {
  return types
    .filter((t) => t.isRequired && !files.some((f) => f.annexNo === t.annexNo && f.url))
    .map((t) => t.annexName);
}
