import { chunkCountOf, type UploadedFile, uploadPercent } from '@ks/contracts';
import { configureRequest, type TransportRequest } from '../../api/request';
import { createFakeServer, type Handler } from '../../test/server';
import type { AttachmentFile } from './types';

/** A stateful fake of the files endpoints for the upload tests (test-only module). */

export const FILE_PATHS = {
  attachment: '/ks/common/common/upload/attachment',
  small: '/ks/upload/v1/file-upload',
  task: '/ks/upload/v1/upload-task',
  chunk: '/ks/upload/v1/chunk-upload',
  merge: '/ks/upload/v1/file-merge',
  cancel: '/ks/upload/v1/upload-cancel',
  parts: '/ks/upload/v1/upload-parts',
  preview: '/ks/common/common/file/preview-url',
  types: '/ks/common/common/att-description',
  annex: '/ks/common/common/attachment/list',
  ops: '/ks/common/common/upload/file-attachment',
  del: '/ks/common/common/attachment/delete',
} as const;

export const fid = (n: number) => `10000000-0000-4000-a000-${String(n).padStart(12, '0')}`;

export function uploaded(n: number, name: string, over: Partial<UploadedFile> = {}): UploadedFile {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return {
    fileId: fid(n),
    fileKey: fid(n),
    fileName: name,
    fileSize: 1024,
    fileType: ext,
    mime: ext === 'pdf' ? 'application/pdf' : 'image/png',
    md5: '0'.repeat(32),
    url: `/ks/common/common/file/download?fileId=${fid(n)}`,
    fileNo: null,
    preview: ext === 'pdf' ? 'pdf' : ext === 'mp4' ? 'video' : 'image',
    gnCoding: 'ZYZC',
    recordId: null,
    createdAt: '2026-03-01T00:00:00.000Z',
    fileOperationType: 'add',
    ...over,
  };
}

export const stored = (n: number, name: string, over: Partial<AttachmentFile> = {}): AttachmentFile => {
  const u = uploaded(n, name);
  return {
    fileId: u.fileId,
    fileName: u.fileName,
    fileSize: u.fileSize,
    url: u.url,
    preview: u.preview,
    annexNo: null,
    ...over,
  };
};

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PDF = Array.from('%PDF-1.4\n', (c) => c.charCodeAt(0));

/** A file whose first bytes are a real signature for its extension (png, jpg, pdf), `size` bytes long. */
export function fileOf(name: string, size = 2048, head?: number[]): File {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  const bytes = new Uint8Array(size);
  const sig = head ?? (ext === 'pdf' ? PDF : ext === 'png' ? PNG : ext === 'jpg' ? [0xff, 0xd8, 0xff] : []);
  bytes.set(sig.slice(0, size));
  for (let i = sig.length; i < size; i += 4096) bytes[i] = i % 251;
  return new File([bytes], name, { type: '' });
}

/** What a multipart call sent: its text fields (in order) and its file part. */
export function formOf(req: TransportRequest) {
  const fd = req.body as FormData;
  const keys: string[] = [];
  const fields: Record<string, string> = {};
  let file: File | null = null;
  for (const [k, v] of fd.entries()) {
    keys.push(k);
    if (typeof v === 'string') fields[k] = v;
    else file = v as File;
  }
  return { keys, fields, file };
}

const bodyOf = <T>(req: TransportRequest): T => JSON.parse(String(req.body)) as T;

export interface FakeTask {
  uploadId: string;
  md5: string;
  fileName: string;
  total: number;
  stored: Set<number>;
}

/**
 * Chunked uploads the way the server keeps them: one task per md5 (so choosing the same file again resumes it), the
 * chunks it holds, merge when all are in, cancel frees everything. Single-request uploads answer the next file id.
 */
export function setupFiles(handlers: Record<string, Handler> = {}) {
  const tasks = new Map<string, FakeTask>();
  let next = 500;
  const server = createFakeServer({
    [`POST ${FILE_PATHS.attachment}`]: (req) => ({ data: uploaded(next++, formOf(req).file?.name ?? 'x.png') }),
    [`POST ${FILE_PATHS.small}`]: (req) => {
      const f = formOf(req);
      return { data: uploaded(next++, f.file?.name ?? 'x.png', { fileNo: f.fields.fileNo ?? null }) };
    },
    [`POST ${FILE_PATHS.task}`]: (req) => {
      const b = bodyOf<{ md5: string; fileName: string; chunk: number; fileSize: number }>(req);
      if (b.chunk !== chunkCountOf(b.fileSize)) return { status: 400, code: 400, message: '分片数量与文件大小不符' };
      let t = [...tasks.values()].find((x) => x.md5 === b.md5);
      if (!t) {
        t = { uploadId: fid(9000 + tasks.size), md5: b.md5, fileName: b.fileName, total: b.chunk, stored: new Set() };
        tasks.set(t.uploadId, t);
      }
      const missing = Array.from({ length: t.total }, (_, i) => i).filter((i) => !t.stored.has(i));
      return {
        data: {
          uploadId: t.uploadId,
          url: '',
          uploadUrlList: missing.map((chunk) => ({ chunk, url: FILE_PATHS.chunk })),
          md5: b.md5,
          chunkSize: 5242880,
          total: t.total,
          file: null,
        },
      };
    },
    [`POST ${FILE_PATHS.chunk}`]: (req) => {
      const f = formOf(req);
      const t = tasks.get(f.fields.uploadId ?? '');
      if (!t) return { status: 404, code: 404, message: '上传任务不存在或已过期，请重新上传' };
      t.stored.add(Number(f.fields.chunk));
      return {
        data: {
          percent: uploadPercent(t.stored.size, t.total),
          chunk: Number(f.fields.chunk),
          uploaded: t.stored.size,
          total: t.total,
        },
      };
    },
    [`POST ${FILE_PATHS.merge}`]: (req) => {
      const b = bodyOf<{ uploadId: string; fileName: string; md5: string }>(req);
      const t = tasks.get(b.uploadId);
      if (!t) return { status: 404, code: 404, message: '上传任务不存在或已过期，请重新上传' };
      if (t.stored.size < t.total) return { status: 409, code: 409, message: '文件分片尚未上传完整' };
      tasks.delete(b.uploadId);
      return { data: uploaded(next++, b.fileName, { md5: b.md5, fileSize: t.total * 5242880 }) };
    },
    [`POST ${FILE_PATHS.cancel}`]: (req) => {
      tasks.delete(bodyOf<{ uploadId: string }>(req).uploadId);
      return { data: null, message: '已取消上传' };
    },
    [`GET ${FILE_PATHS.preview}`]: (req) => {
      const id = new URL(req.url, 'http://x').searchParams.get('fileId');
      return { data: { url: `/ks/common/common/file/download?fileId=${id}&inline=1&exp=1&sig=s`, expiresAt: '' } };
    },
    [`POST ${FILE_PATHS.del}`]: () => ({ data: null, message: '删除成功' }),
    ...handlers,
  });
  configureRequest({ transport: server.transport });
  return { ...server, tasks };
}
