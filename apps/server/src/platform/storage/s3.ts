import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { assertKey, type MultipartStore, ObjectNotFound, type Storage, StorageUnavailable } from './storage';

export interface S3Settings {
  endpoint: string | null;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/**
 * Files in a bucket of S3-compatible object storage (AWS S3, MinIO, Ceph RGW, OSS/COS/OBS in S3 mode), through the
 * AWS SDK v3. Checksums are sent only where the API requires them, so stores without the newer CRC headers work.
 * Chunks are S3 multipart parts (part number = index + 1; S3's ETag of each is kept and checked on completion).
 * A store that cannot be reached or refuses the keys gives a 503 that says so, naming the endpoint and the bucket.
 */
export function createS3Storage(s: S3Settings): Storage {
  const client = new S3Client({
    region: s.region,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    forcePathStyle: s.forcePathStyle,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 120_000 },
  });
  const Bucket = s.bucket;
  const where = `对象存储（${s.endpoint ?? `AWS S3 ${s.region}`}，存储桶 ${s.bucket}）`;

  /** Turn SDK and network failures into plain errors; null for "no such object". */
  function explain(e: unknown): Error {
    if (e instanceof S3ServiceException) {
      const status = e.$metadata?.httpStatusCode;
      if (e.name === 'NoSuchKey' || e.name === 'NotFound' || e.name === 'NoSuchUpload' || status === 404) {
        if (e.name === 'NoSuchBucket') return new StorageUnavailable(`${where}：存储桶不存在`);
        return new ObjectNotFound();
      }
      if (status === 403 || /AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch/.test(e.name)) {
        return new StorageUnavailable(`${where}拒绝访问（${e.name}），请检查 S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY`);
      }
      return new StorageUnavailable(`${where}出错：${e.name}${status ? `（HTTP ${status}）` : ''}`);
    }
    const err = e as NodeJS.ErrnoException;
    const code = err?.code ?? err?.name ?? 'Error';
    if (
      /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENETUNREACH|TimeoutError|socket/i.test(
        `${code} ${err?.message ?? ''}`,
      )
    ) {
      return new StorageUnavailable(`${where}无法连接（${code}），文件暂不能上传或下载，请联系管理员`);
    }
    return err instanceof Error ? err : new Error(String(e));
  }
  async function call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw explain(e);
    }
  }

  const parts: MultipartStore = {
    async create(key, contentType) {
      assertKey(key);
      const r = await call(() =>
        client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType })),
      );
      if (!r.UploadId) throw new StorageUnavailable(`${where}未返回分片上传编号`);
      return r.UploadId;
    },
    async put(key, ref, part, body) {
      assertKey(key);
      // a part is at most one 5 MB chunk: hold it to send it with its length and MD5 (S3 checks both)
      const buffers: Buffer[] = [];
      for await (const c of body) buffers.push(c as Buffer);
      const data = Buffer.concat(buffers);
      if (data.length !== part.size) throw new Error(`part ${part.index}: ${data.length} bytes, expected ${part.size}`);
      const md5 = createHash('md5').update(data).digest('base64');
      const r = await call(() =>
        client.send(
          new UploadPartCommand({
            Bucket,
            Key: key,
            UploadId: ref,
            PartNumber: part.index + 1,
            Body: data,
            ContentLength: data.length,
            ContentMD5: md5,
          }),
        ),
      );
      return { etag: r.ETag ?? null };
    },
    async complete(key, ref, list) {
      assertKey(key);
      const ordered = [...list].sort((a, b) => a.index - b.index);
      await call(() =>
        client.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key: key,
            UploadId: ref,
            MultipartUpload: { Parts: ordered.map((p) => ({ PartNumber: p.index + 1, ETag: p.etag ?? undefined })) },
          }),
        ),
      );
    },
    async abort(key, ref) {
      assertKey(key);
      try {
        await call(() => client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: ref })));
      } catch (e) {
        if (!(e instanceof ObjectNotFound)) throw e;
      }
    },
  };

  return {
    kind: 's3',
    location: `S3 bucket ${s.bucket} at ${s.endpoint ?? `AWS ${s.region}`}`,
    async putFile(key, localPath, size, contentType) {
      assertKey(key);
      await call(() =>
        client.send(
          new PutObjectCommand({
            Bucket,
            Key: key,
            Body: createReadStream(localPath),
            ContentLength: size,
            ContentType: contentType,
          }),
        ),
      );
    },
    async put(key, body, size, contentType) {
      assertKey(key);
      await call(() =>
        client.send(
          new PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: size, ContentType: contentType }),
        ),
      );
    },
    async get(key, range) {
      assertKey(key);
      const r = await call(() =>
        client.send(
          new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        ),
      );
      if (!r.Body) throw new ObjectNotFound();
      return r.Body as Readable;
    },
    async stat(key) {
      assertKey(key);
      try {
        const r = await call(() => client.send(new HeadObjectCommand({ Bucket, Key: key })));
        return { size: Number(r.ContentLength ?? 0) };
      } catch (e) {
        if (e instanceof ObjectNotFound) return null;
        throw e;
      }
    },
    async delete(key) {
      assertKey(key);
      await call(() => client.send(new DeleteObjectCommand({ Bucket, Key: key })));
    },
    parts,
    async health() {
      try {
        await call(() => client.send(new HeadBucketCommand({ Bucket })));
        return { ok: true, kind: 's3', message: where };
      } catch (e) {
        const msg = e instanceof ObjectNotFound ? `${where}：存储桶不存在` : (e as Error).message;
        return { ok: false, kind: 's3', message: msg };
      }
    },
  };
}
