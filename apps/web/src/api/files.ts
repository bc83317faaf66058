import type { Annex, ApiBody, ApiData, AttachmentType, AttachmentTypeInput, UploadedFile } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { saveBlob } from './engine';
import { type DownloadResult, download } from './request';

/**
 * The files client (spec §7 File, upload; shapes in packages/contracts/src/files-api.ts): attachment types and
 * templates, a record's attachments, single-request and chunked uploads, attachment operations, previews and
 * downloads. Uploads are `silent`: the uploader shows the §8 upload messages itself (components/upload/errors.ts).
 */

export type { Annex, AttachmentType, UploadedFile };

/** One upload request (a file up to 5 MB, or one chunk): past this without an answer the network counts as stalled. */
export const UPLOAD_REQUEST_TIMEOUT_MS = 120_000;

/** A node's attachment types, and the first type's template (for pages with one 模板下载 button). */
export type AttDescription = ApiData<'attDescription'>;

/** upload-task's answer: the chunks still missing, or the finished file (instant upload / all chunks stored). */
export type UploadTaskResult = ApiData<'uploadTask'>;

export type ChunkUploadResult = ApiData<'chunkUpload'>;

/** Where an upload belongs: the node (and system), and for typed attachments the type (annexNo) and its fileType. */
export interface UploadTarget {
  gnCoding?: string;
  systemCoding?: string;
  /** attachment type (annexNo) */
  fileNo?: string;
  fileType?: string;
}

// ── reads ───────────────────────────────────────────────────────────────────

export const FILES_KEY = ['files'] as const;
export const recordFilesKey = (gnCoding: string, id: string) => [...FILES_KEY, 'record', gnCoding, id] as const;

/** A node's attachment types with their templates (att-description). */
export const attDescriptionQuery = (gnCoding: string, systemCoding?: string) =>
  queryOptions({
    queryKey: [...FILES_KEY, 'types', gnCoding],
    queryFn: () => call('attDescription', { params: { gnCoding, systemCoding }, silent: true }),
    staleTime: 60_000,
    retry: false,
  });

/** Developers replace a node's whole list of attachment types; answers the saved list (as att-description). */
export const saveAttachmentTypes = (gnCoding: string, list: AttachmentTypeInput[]) =>
  call('saveAttachmentTypes', { data: { gnCoding, list }, silent: true });

/** §3 annex rows of a record: its files by type, a row with url null for each type without a file. */
export const attachmentListQuery = (gnCoding: string, id: string) =>
  queryOptions({
    queryKey: [...recordFilesKey(gnCoding, id), 'annex'],
    queryFn: () => call('attachmentList', { params: { gnCoding, id }, silent: true }),
    retry: false,
  });

/** A 10-minute address of a stored file for <img>, <iframe> and <video> (they send no bearer token). */
export const previewUrlQuery = (fileId: string) =>
  queryOptions({
    queryKey: [...FILES_KEY, 'preview', fileId],
    queryFn: () => call('filePreviewUrl', { params: { fileId }, silent: true }),
    // refreshed well before the address expires
    staleTime: 5 * 60_000,
    gcTime: 8 * 60_000,
    retry: false,
  });

// ── uploads ─────────────────────────────────────────────────────────────────

/** Multipart form with the text fields BEFORE the file, so the server checks them before it reads the bytes. */
function form(fields: Record<string, string | number | undefined | null>, file: Blob, fileName: string): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== null && v !== '') fd.append(k, String(v));
  fd.append('file', file, fileName);
  return fd;
}

/** POST upload/attachment (dxCode, gnCoding, systemCoding, file): the default uploader's single request. */
export const uploadAttachment = (file: File, target: UploadTarget & { gnCoding: string }) =>
  call('attachmentUpload', {
    data: form(
      { dxCode: target.fileNo, gnCoding: target.gnCoding, systemCoding: target.systemCoding },
      file,
      file.name,
    ),
    silent: true,
    timeout: UPLOAD_REQUEST_TIMEOUT_MS,
  });

/** upload-notice (file): a portal notice's attachment, public once stored (those who may write notices only). */
export const uploadNoticeFile = (file: File) =>
  call('uploadNotice', {
    data: form({}, file, file.name),
    silent: true,
    timeout: UPLOAD_REQUEST_TIMEOUT_MS,
  });

/** The small-file call (fileType, gnCoding, systemCoding, fileNo, file): a typed attachment up to 5 MB. */
export const uploadSmallFile = (file: File, target: UploadTarget) =>
  call('smallUpload', {
    data: form(
      {
        fileType: target.fileType,
        gnCoding: target.gnCoding,
        systemCoding: target.systemCoding,
        fileNo: target.fileNo,
      },
      file,
      file.name,
    ),
    silent: true,
    timeout: UPLOAD_REQUEST_TIMEOUT_MS,
  });

export type UploadTaskBody = ApiBody<'uploadTask'>;

export const createUploadTask = (body: UploadTaskBody) => call('uploadTask', { data: body, silent: true });

/** chunk-upload: chunk (0-based index), uploadId, md5 of the whole file, then the chunk's bytes. */
export const uploadChunk = (args: { chunk: number; uploadId: string; md5: string; blob: Blob; fileName: string }) =>
  call('chunkUpload', {
    data: form({ chunk: args.chunk, uploadId: args.uploadId, md5: args.md5 }, args.blob, args.fileName),
    silent: true,
    timeout: UPLOAD_REQUEST_TIMEOUT_MS,
  });

export const mergeFile = (body: { uploadId: string; fileName: string; md5: string } & UploadTarget) =>
  call('fileMerge', { data: body, silent: true });

/** upload-cancel frees the parts; it always counts as success (§4), whatever the answer. */
export async function cancelUpload(uploadId: string): Promise<void> {
  try {
    await call('uploadCancel', { data: { uploadId }, silent: true });
  } catch {
    // nothing to do: the server frees an abandoned task when it expires
  }
}

// ── a record's attachments ──────────────────────────────────────────────────

export type AttachmentOp = ApiBody<'fileAttachment'>['fileList'][number];

/** §4 attachment operations on a record (add / del / ''); answers the record's annex rows. */
export const applyAttachmentOps = (body: { gnCoding: string; id: string; fileList: AttachmentOp[] }) =>
  call('fileAttachment', { data: body, silent: true });

/** Removes an uploaded file of the caller's side that no record holds (yet). */
export const deleteUploadedFile = (fileId: string) => call('attachmentDelete', { data: { fileId }, silent: true });

/** Downloads a stored file with the bearer token and hands it to the browser under its stored name. */
export async function downloadStoredFile(file: { url: string; fileName?: string | null }): Promise<DownloadResult> {
  const result = await download({ url: file.url });
  saveBlob(result, file.fileName || '附件');
  return result;
}
