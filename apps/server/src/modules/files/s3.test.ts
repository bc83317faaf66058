import { rmSync } from 'node:fs';
import { UPLOAD_CHUNK_SIZE } from '@ks/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { files } from '../../db/schema';
import { clearNodeCache } from '../../platform/permissions';
import { type FakeS3, startFakeS3 } from '../../test/fake-s3';
import { createTestApp, json, loginToken, type TestApp } from '../../test/harness';
import { client, md5, PDF, PNG, tmpDataDir } from './testkit';

/** The same API on S3-compatible object storage: the fake server checks every request's SigV4 signature. */
let fake: FakeS3;
let t: TestApp;
let dataDir: string;
let user: string;
const api = client(() => t);

const s3Env = (f: FakeS3) => ({
  S3_ENDPOINT: f.url,
  S3_BUCKET: f.bucket,
  S3_ACCESS_KEY_ID: f.accessKeyId,
  S3_SECRET_ACCESS_KEY: f.secretAccessKey,
});

beforeAll(async () => {
  fake = await startFakeS3();
  dataDir = tmpDataDir();
  t = await createTestApp({ env: { DATA_DIR: dataDir, ...s3Env(fake) } });
  user = await loginToken(t.app, 'user1', 'U');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('files on S3-compatible storage', () => {
  it('reads the S3 settings from the environment, and refuses half of them', () => {
    expect(loadConfig(s3Env(fake)).files.s3).toMatchObject({
      bucket: 'ks-test',
      forcePathStyle: true,
      region: 'us-east-1',
    });
    expect(loadConfig({}).files.s3).toBeNull();
    expect(() => loadConfig({ S3_BUCKET: 'ks-test' })).toThrow(/S3_ACCESS_KEY_ID: required when S3_BUCKET is set/);
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_ENDPOINT: needs S3_BUCKET/);
    expect(() => loadConfig({ ...s3Env(fake), S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
  });

  it('stores an upload in the bucket under its generated key and serves it, ranges too', async () => {
    const data = PNG(50_000);
    const r = await api.upload('/ks/common/common/upload/attachment', user, { gnCoding: 'XYGL_ZYZC' }, [
      { name: '../../照片.png', data },
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [row] = await t.database.db.select().from(files).where(eq(files.id, r.body.data.fileId));
    expect(fake.objects.get(row!.storageKey)?.equals(data)).toBe(true);
    const dl = await api.get(r.body.data.url, user, { range: 'bytes=10-19' });
    expect(dl.status).toBe(206);
    expect(dl.res.rawPayload.equals(data.subarray(10, 20))).toBe(true);
  });

  it('runs a chunked upload as an S3 multipart upload and verifies it', async () => {
    const data = PDF(2 * UPLOAD_CHUNK_SIZE + 77);
    const before = fake.log.length;
    const task = await api.post('/ks/upload/v1/upload-task', user, {
      md5: md5(data),
      fileName: '大文件.pdf',
      chunk: 3,
      fileSize: data.length,
    });
    const id = task.body.data.uploadId;
    for (const i of [1, 0, 2]) {
      const part = data.subarray(i * UPLOAD_CHUNK_SIZE, (i + 1) * UPLOAD_CHUNK_SIZE);
      const r = await api.upload('/ks/upload/v1/chunk-upload', user, { chunk: i, uploadId: id, md5: md5(data) }, [
        { name: 'blob', data: part },
      ]);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const m = await api.post('/ks/upload/v1/file-merge', user, {
      uploadId: id,
      fileName: '大文件.pdf',
      md5: md5(data),
    });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(fake.log.slice(before)).toEqual(
      expect.arrayContaining([
        'POST CreateMultipartUpload',
        'PUT UploadPart',
        'POST CompleteMultipartUpload',
        'GET GetObject',
      ]),
    );
    expect(fake.log.slice(before)).not.toContain('PUT denied');
    const [row] = await t.database.db.select().from(files).where(eq(files.id, m.body.data.fileId));
    expect(md5(fake.objects.get(row!.storageKey)!)).toBe(md5(data));
    expect(fake.uploads.size).toBe(0);
  });

  it('cancel aborts the multipart upload', async () => {
    const data = PDF(UPLOAD_CHUNK_SIZE + 1);
    const id = (
      await api.post('/ks/upload/v1/upload-task', user, {
        md5: md5(data),
        fileName: 'c.pdf',
        chunk: 2,
        fileSize: data.length,
      })
    ).body.data.uploadId;
    await api.upload('/ks/upload/v1/chunk-upload', user, { chunk: 0, uploadId: id, md5: md5(data) }, [
      { name: 'blob', data: data.subarray(0, UPLOAD_CHUNK_SIZE) },
    ]);
    expect(fake.uploads.size).toBe(1);
    await api.post('/ks/upload/v1/upload-cancel', user, { uploadId: id });
    expect(fake.uploads.size).toBe(0);
  });
});

describe('S3 configured but unreachable', () => {
  it('says so plainly in upload errors and in /ks/health', async () => {
    const gone = await startFakeS3();
    await gone.close();
    const dir = tmpDataDir();
    const t2 = await createTestApp({ env: { DATA_DIR: dir, ...s3Env(gone) } });
    clearNodeCache(); // node ids of the other test database are cached in this process
    try {
      const api2 = client(() => t2);
      const token = await loginToken(t2.app, 'user1', 'U');
      const r = await api2.upload('/ks/common/common/upload/attachment', token, { gnCoding: 'XYGL_ZYZC' }, [
        { name: 'a.png', data: PNG() },
      ]);
      expect(r.status).toBe(503);
      expect(r.body.message).toBe(
        `对象存储（${gone.url}，存储桶 ks-test）无法连接（ECONNREFUSED），文件暂不能上传或下载，请联系管理员`,
      );
      const h = await api2.get('/ks/health', await loginToken(t2.app, 'admin', 'M'));
      expect(h.status).toBe(200);
      expect(json(await t2.app.inject({ method: 'GET', url: '/ks/health' })).data).toEqual({ status: 'degraded' });
      expect(h.body!.data).toMatchObject({ status: 'degraded', storage: { ok: false, kind: 's3' } });
      expect(h.body!.message).toContain('无法连接');
      const task = await api2.post('/ks/upload/v1/upload-task', token, {
        md5: md5(Buffer.from('x')),
        fileName: 'x.pdf',
        chunk: 1,
        fileSize: 10,
      });
      expect(task.status).toBe(503);
    } finally {
      await t2.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
