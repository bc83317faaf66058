import { previewKind } from '@ks/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition } from '../../platform/content-disposition';
import type { ByteRange, Storage } from '../../platform/storage';

/**
 * One byte range of `Range: bytes=…` for a file of `size` bytes: the range, 'unsatisfiable', or null to send the
 * whole file (no header, a form we do not serve such as several ranges, or a malformed one).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

export interface Servable {
  storageKey: string;
  fileName: string;
  fileSize: number;
  mime: string;
  md5: string;
  extension: string;
}

/**
 * Send a stored file: inline only for what previews (images, PDF, video), with its content type and nosniff;
 * everything else as a download. Range requests answer 206 (video seeking), If-None-Match 304.
 */
export async function sendStored(
  req: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  f: Servable,
  opts: { inline: boolean; cacheControl: string },
) {
  const inline = opts.inline && previewKind(f.extension) !== null;
  const etag = `"${f.md5}"`;
  reply.header('Content-Disposition', contentDisposition(f.fileName, inline));
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Accept-Ranges', 'bytes');
  reply.header('ETag', etag);
  reply.header('Cache-Control', opts.cacheControl);
  reply.type(inline ? f.mime : 'application/octet-stream');
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  const range = parseRange(req.headers.range, f.fileSize);
  if (range === 'unsatisfiable') {
    reply.header('Content-Range', `bytes */${f.fileSize}`);
    return reply.code(416).type('text/plain; charset=utf-8').send('Range Not Satisfiable');
  }
  if (range) {
    const body = await storage.get(f.storageKey, range);
    reply.header('Content-Range', `bytes ${range.start}-${range.end}/${f.fileSize}`);
    reply.header('Content-Length', range.end - range.start + 1);
    return reply.code(206).send(body);
  }
  if (f.fileSize === 0) return reply.header('Content-Length', 0).send('');
  const body = await storage.get(f.storageKey);
  reply.header('Content-Length', f.fileSize);
  return reply.send(body);
}
