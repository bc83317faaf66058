import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small S3-compatible server on node:http for tests (test-only module): exactly the calls the adapter makes —
 * HeadBucket, PutObject, GetObject (Range), HeadObject, DeleteObject, CreateMultipartUpload, UploadPart,
 * CompleteMultipartUpload, AbortMultipartUpload — with path-style addresses, objects in memory, and every request's
 * AWS Signature Version 4 checked against the secret (a wrong key or a tampered request is a 403, as on S3).
 */
export interface FakeS3 {
  url: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, Buffer>;
  uploads: Map<string, { key: string; parts: Map<number, Buffer> }>;
  /** method + S3 operation of every request, in order */
  log: string[];
  close(): Promise<void>;
}

export async function startFakeS3(
  opts: { bucket?: string; accessKeyId?: string; secretAccessKey?: string; region?: string } = {},
): Promise<FakeS3> {
  const bucket = opts.bucket ?? 'ks-test';
  const accessKeyId = opts.accessKeyId ?? 'AKIAKSTEST';
  const secretAccessKey = opts.secretAccessKey ?? 'ks-test-secret-key';
  const region = opts.region ?? 'us-east-1';
  const objects = new Map<string, Buffer>();
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  const log: string[] = [];

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks));
      } catch (e) {
        xmlError(res, 500, 'InternalError', (e as Error).message);
      }
    });
  });

  function handle(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const sigProblem = verifySignature(req, url, body, { accessKeyId, secretAccessKey, region });
    if (sigProblem) {
      log.push(`${req.method} denied`);
      return xmlError(res, 403, sigProblem, 'signature check failed');
    }
    const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== bucket) return xmlError(res, 404, 'NoSuchBucket', 'no such bucket');
    const key = segments.slice(1).join('/');
    const q = url.searchParams;
    const method = req.method ?? 'GET';

    if (!key) {
      log.push(`${method} HeadBucket`);
      if (method === 'HEAD') return end(res, 200);
      return xmlError(res, 400, 'NotImplemented', 'bucket operation');
    }
    if (method === 'POST' && q.has('uploads')) {
      log.push('POST CreateMultipartUpload');
      const id = randomUUID().replaceAll('-', '');
      uploads.set(id, { key, parts: new Map() });
      return xml(
        res,
        200,
        `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (method === 'PUT' && q.has('uploadId')) {
      log.push('PUT UploadPart');
      const up = uploads.get(q.get('uploadId') ?? '');
      if (!up) return xmlError(res, 404, 'NoSuchUpload', 'no such upload');
      const md5 = req.headers['content-md5'];
      if (md5 && md5 !== createHash('md5').update(body).digest('base64')) {
        return xmlError(res, 400, 'BadDigest', 'Content-MD5 mismatch');
      }
      up.parts.set(Number(q.get('partNumber')), body);
      res.setHeader('ETag', etagOf(body));
      return end(res, 200);
    }
    if (method === 'POST' && q.has('uploadId')) {
      log.push('POST CompleteMultipartUpload');
      const id = q.get('uploadId') ?? '';
      const up = uploads.get(id);
      if (!up) return xmlError(res, 404, 'NoSuchUpload', 'no such upload');
      const listed = [...body.toString('utf8').matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map(([, inner]) => [
        /<PartNumber>(\d+)<\/PartNumber>/.exec(inner!)?.[1] ?? '',
        /<ETag>([^<]*)<\/ETag>/.exec(inner!)?.[1] ?? '',
      ]);
      if (!listed.length) return xmlError(res, 400, 'MalformedXML', 'no parts');
      const buffers: Buffer[] = [];
      for (const [n, etag] of listed) {
        const part = up.parts.get(Number(n));
        if (!part || etagOf(part) !== etag!.replaceAll('&quot;', '"')) {
          return xmlError(res, 400, 'InvalidPart', `part ${n} missing or its ETag differs`);
        }
        buffers.push(part);
      }
      const data = Buffer.concat(buffers);
      objects.set(key, data);
      uploads.delete(id);
      return xml(
        res,
        200,
        `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>"${createHash('md5').update(data).digest('hex')}-${listed.length}"</ETag></CompleteMultipartUploadResult>`,
      );
    }
    if (method === 'DELETE' && q.has('uploadId')) {
      log.push('DELETE AbortMultipartUpload');
      if (!uploads.delete(q.get('uploadId') ?? '')) return xmlError(res, 404, 'NoSuchUpload', 'no such upload');
      return end(res, 204);
    }
    if (method === 'PUT') {
      log.push('PUT PutObject');
      const len = Number(req.headers['content-length'] ?? -1);
      if (len !== body.length) return xmlError(res, 400, 'IncompleteBody', 'length differs');
      objects.set(key, body);
      res.setHeader('ETag', etagOf(body));
      return end(res, 200);
    }
    if (method === 'DELETE') {
      log.push('DELETE DeleteObject');
      objects.delete(key);
      return end(res, 204);
    }
    const obj = objects.get(key);
    if (method === 'HEAD') {
      log.push('HEAD HeadObject');
      if (!obj) return end(res, 404);
      res.setHeader('Content-Length', obj.length);
      res.setHeader('ETag', etagOf(obj));
      return end(res, 200);
    }
    if (method === 'GET') {
      log.push('GET GetObject');
      if (!obj) return xmlError(res, 404, 'NoSuchKey', 'no such key');
      const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
      if (range) {
        const start = Number(range[1]);
        const last = range[2] ? Math.min(Number(range[2]), obj.length - 1) : obj.length - 1;
        if (start >= obj.length) return xmlError(res, 416, 'InvalidRange', 'range');
        res.writeHead(206, {
          'Content-Range': `bytes ${start}-${last}/${obj.length}`,
          'Content-Length': last - start + 1,
          ETag: etagOf(obj),
        });
        return res.end(obj.subarray(start, last + 1));
      }
      res.writeHead(200, { 'Content-Length': obj.length, ETag: etagOf(obj) });
      return res.end(obj);
    }
    return xmlError(res, 405, 'MethodNotAllowed', method);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    uploads,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const etagOf = (b: Buffer) => `"${createHash('md5').update(b).digest('hex')}"`;

function end(res: ServerResponse, status: number) {
  if (!res.hasHeader('Content-Length')) res.setHeader('Content-Length', 0);
  res.writeHead(status);
  res.end();
}
function xml(res: ServerResponse, status: number, text: string) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n${text}`;
  res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
function xmlError(res: ServerResponse, status: number, code: string, message: string) {
  if (res.req.method === 'HEAD') return end(res, status);
  xml(res, status, `<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
/** RFC 3986 encoding as SigV4 wants it. */
const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Check an AWS SigV4 Authorization header; returns an S3 error code, or null when the signature holds. */
function verifySignature(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  k: { accessKeyId: string; secretAccessKey: string; region: string },
): string | null {
  const auth = String(req.headers.authorization ?? '');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return 'AccessDenied';
  const [, keyId, date, region, signedHeaders, signature] = m;
  if (keyId !== k.accessKeyId) return 'InvalidAccessKeyId';
  if (region !== k.region) return 'AuthorizationHeaderMalformed';
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (!amzDate.startsWith(date!) || !payloadHash) return 'AccessDenied';
  const names = signedHeaders!.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date') || !names.includes('x-amz-content-sha256')) {
    return 'AccessDenied';
  }
  if (/^[0-9a-f]{64}$/.test(payloadHash) && payloadHash !== sha256(body)) return 'XAmzContentSHA256Mismatch';
  const query = [...url.searchParams.entries()]
    .map(([a, b]) => [enc(a), enc(b)] as const)
    .sort((x, y) => (x[0] === y[0] ? (x[1] < y[1] ? -1 : 1) : x[0] < y[0] ? -1 : 1))
    .map(([a, b]) => `${a}=${b}`)
    .join('&');
  const headers = names
    .map((h) => {
      const v = req.headers[h];
      return `${h}:${(Array.isArray(v) ? v.join(',') : String(v ?? '')).trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonical = [req.method, url.pathname, query, headers, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const kSigning = hmac(hmac(hmac(hmac(`AWS4${k.secretAccessKey}`, date!), region!), 's3'), 'aws4_request');
  return createHmac('sha256', kSigning).update(toSign).digest('hex') === signature ? null : 'SignatureDoesNotMatch';
}
