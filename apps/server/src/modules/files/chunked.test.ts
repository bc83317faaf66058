import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Code, Msg, UPLOAD_CHUNK_SIZE, UploadMsg } from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, operationLogs, uploadParts, uploadTasks, users } from '../../db/schema';
import { hashPassword } from '../../platform/password';
import { createStorage } from '../../platform/storage';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { forgetRunningHashes, readBackBytesForTests, sweep } from './chunked.service';
import { stopMd5WorkerForTests } from './md5-worker';
import { client, EXE, MP4, md5, otherEnterpriseUser, PDF, tmpDataDir } from './testkit';

let t: TestApp;
let dataDir: string;
let user: string;
let colleague: string;
let other: { token: string; userId: string };
const api = client(() => t);
const TASK = '/ks/upload/v1/upload-task';
const CHUNK = '/ks/upload/v1/chunk-upload';
const MERGE = '/ks/upload/v1/file-merge';
const CANCEL = '/ks/upload/v1/upload-cancel';
const MB12 = 12 * 1024 * 1024;

beforeAll(async () => {
  dataDir = tmpDataDir();
  t = await createTestApp({
    env: { DATA_DIR: dataDir, CHUNKED_UPLOAD_MAX_MB: '64', UPLOAD_TASK_TTL_HOURS: '1', SINGLE_SESSION: '0' },
  });
  user = await loginToken(t.app, 'user1', 'U');
  other = await otherEnterpriseUser(t, 'chunk-other');
  colleague = await sameEnterpriseColleague();
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A second account of user1's enterprise (示例建设工程有限公司). */
async function sameEnterpriseColleague() {
  const [u1] = await t.database.db.select().from(users).where(eq(users.account, 'user1'));
  await t.database.db.insert(users).values({
    account: 'user1b',
    userName: '李同事',
    loginRoleType: 'U',
    passwordHash: await hashPassword('Demo@2026'),
    enterpriseId: u1!.enterpriseId,
  });
  return loginToken(t.app, 'user1b', 'U');
}

const chunkOf = (data: Buffer, i: number) => data.subarray(i * UPLOAD_CHUNK_SIZE, (i + 1) * UPLOAD_CHUNK_SIZE);
const countOf = (size: number) => Math.ceil(size / UPLOAD_CHUNK_SIZE);

async function startTask(token: string, data: Buffer, fileName = '招标文件.pdf', extra: object = {}) {
  return api.post(TASK, token, {
    md5: md5(data),
    fileName,
    chunk: countOf(data.length),
    fileSize: data.length,
    ...extra,
  });
}
async function sendChunk(
  token: string,
  uploadId: string,
  data: Buffer,
  i: number,
  opts: { filesFirst?: boolean } = {},
) {
  return api.upload(
    CHUNK,
    token,
    { chunk: i, uploadId, md5: md5(data) },
    [{ name: 'blob', data: chunkOf(data, i) }],
    opts.filesFirst,
  );
}
const missingOf = (r: { body: { data: { uploadUrlList: { chunk: number }[] } } }) =>
  r.body.data.uploadUrlList.map((x) => x.chunk);
const stagingDirs = () => {
  const d = path.join(dataDir, 'files', '.staging');
  return existsSync(d) ? readdirSync(d) : [];
};

describe('chunked upload (§4, §7)', () => {
  it('lists every chunk, stores them with progress, merges after checking the md5, and logs the merge', async () => {
    const data = PDF(MB12);
    const task = await startTask(user, data);
    expect(task.status).toBe(200);
    expect(task.body.data).toMatchObject({ url: '', md5: md5(data), chunkSize: 5242880, total: 3, file: null });
    expect(task.body.data.uploadUrlList).toEqual([0, 1, 2].map((chunk) => ({ chunk, url: CHUNK })));
    const id = task.body.data.uploadId as string;
    const readBefore = readBackBytesForTests();
    const percents: number[] = [];
    for (const i of [0, 1, 2]) {
      const r = await sendChunk(user, id, data, i);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      percents.push(r.body.data.percent);
    }
    expect(percents).toEqual([33.33, 66.66, 100]);
    const merged = await api.post(MERGE, user, { uploadId: id, fileName: '招标文件.pdf', md5: md5(data) });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.data).toMatchObject({
      fileName: '招标文件.pdf',
      fileSize: MB12,
      md5: md5(data),
      preview: 'pdf',
    });
    // hashed as the chunks came in: the merge read nothing back
    expect(readBackBytesForTests() - readBefore).toBe(0);
    const dl = await api.get(merged.body.data.url, user);
    expect(md5(dl.res.rawPayload)).toBe(md5(data));
    // the chunk records are gone, the task is done; merging again answers the same file
    expect(await t.database.db.select().from(uploadParts).where(eq(uploadParts.taskId, id))).toEqual([]);
    const again = await api.post(MERGE, user, { uploadId: id, fileName: '招标文件.pdf', md5: md5(data) });
    expect(again.body.data.fileId).toBe(merged.body.data.fileId);
    const logs = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.glName, '文件'), eq(operationLogs.recordId, merged.body.data.fileId)));
    expect(logs.map((l) => l.logbook)).toEqual(['合并分片上传：招标文件.pdf（3 个分片，12582912 字节，MD5 校验通过）']);
  });

  it('resumes with only the missing chunks, also on a new app instance on the same DATA_DIR', async () => {
    const data = PDF(MB12 + 1234);
    const first = await startTask(user, data, '标书.pdf');
    const id = first.body.data.uploadId;
    expect(missingOf(first)).toEqual([0, 1, 2]);
    expect((await sendChunk(user, id, data, 0)).status).toBe(200);
    expect((await sendChunk(user, id, data, 2)).status).toBe(200);
    const resumed = await startTask(user, data, '标书.pdf');
    expect(resumed.body.data.uploadId).toBe(id);
    expect(missingOf(resumed)).toEqual([1]);

    // a restart: a new process on the same data dir and database, no in-memory state
    forgetRunningHashes();
    const t2 = await createTestApp({
      database: t.database,
      env: { DATA_DIR: dataDir, CHUNKED_UPLOAD_MAX_MB: '64', UPLOAD_TASK_TTL_HOURS: '1', SINGLE_SESSION: '0' },
    });
    try {
      const api2 = client(() => t2);
      const token = await loginToken(t2.app, 'user1', 'U');
      const r = await api2.post(TASK, token, {
        md5: md5(data),
        fileName: '标书.pdf',
        chunk: 3,
        fileSize: data.length,
      });
      expect(r.body.data.uploadId).toBe(id);
      expect(missingOf(r)).toEqual([1]);
      const parts = await api2.get(`/ks/upload/v1/upload-parts?uploadId=${id}`, token);
      expect(parts.body!.data.parts.map((p: { chunk: number }) => p.chunk)).toEqual([0, 2]);
      const c1 = await api2.upload(CHUNK, token, { chunk: 1, uploadId: id, md5: md5(data) }, [
        { name: 'blob', data: chunkOf(data, 1) },
      ]);
      expect(c1.body.data).toMatchObject({ percent: 100, uploaded: 3, total: 3 });
      const readBefore = readBackBytesForTests();
      const m = await api2.post(MERGE, token, { uploadId: id, fileName: '标书.pdf', md5: md5(data) });
      expect(m.status, JSON.stringify(m.body)).toBe(200);
      // nothing of the upload hashed in this process: every byte read back and verified
      expect(readBackBytesForTests() - readBefore).toBe(data.length);
      expect(md5((await api2.get(m.body.data.url, token)).res.rawPayload)).toBe(md5(data));
    } finally {
      await t2.app.close();
    }
  });

  it('merges at upload-task when every chunk is in but the merge never came (a reload)', async () => {
    const data = PDF(UPLOAD_CHUNK_SIZE + 10);
    const id = (await startTask(user, data, 'reload.pdf')).body.data.uploadId;
    await sendChunk(user, id, data, 0);
    await sendChunk(user, id, data, 1);
    const r = await startTask(user, data, 'reload.pdf');
    expect(r.body.data.uploadUrlList).toEqual([]);
    expect(r.body.data.url).toMatch(/^\/ks\/common\/common\/file\/download\?fileId=/);
    expect(r.body.data.file.md5).toBe(md5(data));
  });

  it('takes the node and attachment type given as extras at the merge, checked by the type rules', async () => {
    const data = PDF(UPLOAD_CHUNK_SIZE + 1);
    const id = (await startTask(user, data, '执业资格证书.pdf')).body.data.uploadId;
    await sendChunk(user, id, data, 0);
    await sendChunk(user, id, data, 1);
    const wrongType = await api.post(MERGE, user, {
      uploadId: id,
      fileName: '执业资格证书.pdf',
      md5: md5(data),
      gnCoding: 'XYGL_ZYZC',
      fileNo: '01',
    });
    expect(wrongType.status).toBe(413);
    expect(wrongType.body.message).toBe('文件大小不能超过【5 MB】!');
    const m = await api.post(MERGE, user, {
      uploadId: id,
      fileName: '执业资格证书.pdf',
      md5: md5(data),
      gnCoding: 'XYGL_ZYZC',
      fileNo: '02',
    });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(m.body.data).toMatchObject({ gnCoding: 'XYGL_ZYZC', fileNo: '02' });
  });

  it('verifies chunks sent out of order and with fields after the file', async () => {
    const data = PDF(MB12);
    const id = (await startTask(user, data, 'order.pdf')).body.data.uploadId;
    const readBefore = readBackBytesForTests();
    for (const i of [2, 0, 1]) expect((await sendChunk(user, id, data, i, { filesFirst: i === 1 })).status).toBe(200);
    const m = await api.post(MERGE, user, { uploadId: id, fileName: 'order.pdf', md5: md5(data) });
    expect(m.status).toBe(200);
    expect(readBackBytesForTests() - readBefore).toBe(0);
    expect(md5((await api.get(m.body.data.url, user)).res.rawPayload)).toBe(md5(data));
  });

  it('refuses a wrong md5 at merge and keeps nothing: no file, no task, no chunks, a log row with the reason', async () => {
    const data = PDF(MB12);
    const claimed = md5(PDF(10));
    const task = await api.post(TASK, user, { md5: claimed, fileName: '篡改.pdf', chunk: 3, fileSize: data.length });
    const id = task.body.data.uploadId;
    for (const i of [0, 1, 2]) {
      const r = await api.upload(CHUNK, user, { chunk: i, uploadId: id, md5: claimed }, [
        { name: 'blob', data: chunkOf(data, i) },
      ]);
      expect(r.status).toBe(200);
    }
    const [row] = await t.database.db.select().from(uploadTasks).where(eq(uploadTasks.id, id));
    const objects = path.join(dataDir, 'files', `${row!.storageKey}.parts`);
    const m = await api.post(MERGE, user, { uploadId: id, fileName: '篡改.pdf', md5: claimed });
    expect(m.status).toBe(400);
    expect(m.body.message).toBe(UploadMsg.MD5_MISMATCH);
    expect(await t.database.db.select().from(uploadTasks).where(eq(uploadTasks.id, id))).toEqual([]);
    expect(await t.database.db.select().from(uploadParts).where(eq(uploadParts.taskId, id))).toEqual([]);
    expect(await t.database.db.select().from(files).where(eq(files.storageKey, row!.storageKey))).toEqual([]);
    expect(existsSync(objects)).toBe(false);
    expect(stagingDirs()).not.toContain(row!.storageRef);
    const [log] = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.glName, '文件'), eq(operationLogs.recordId, id)));
    expect(log).toMatchObject({ logbook: '合并被拒绝：篡改.pdf' });
    expect(log!.failInfo).toContain(`实为 ${md5(data)}`);
    // the task is gone for the client too
    expect((await api.post(MERGE, user, { uploadId: id, fileName: '篡改.pdf', md5: claimed })).status).toBe(404);
  });

  it('refuses a merge that cannot complete and keeps the task: chunks missing, or another md5 than the task’s', async () => {
    const data = PDF(MB12);
    const id = (await startTask(user, data, 'keep.pdf')).body.data.uploadId;
    expect((await sendChunk(user, id, data, 0)).status).toBe(200);
    const [row] = await t.database.db.select().from(uploadTasks).where(eq(uploadTasks.id, id));
    // another md5 while chunks are still missing: 400, and nothing is thrown away
    const wrong = await api.post(MERGE, user, { uploadId: id, fileName: 'keep.pdf', md5: md5(PDF(10)) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(UploadMsg.TASK_MD5_DIFFERS);
    // the right md5 with chunks missing: 409 naming them, the task kept
    const early = await api.post(MERGE, user, { uploadId: id, fileName: 'keep.pdf', md5: md5(data) });
    expect(early.status).toBe(409);
    expect(early.body.data.missing).toEqual([1, 2]);
    expect(await t.database.db.select().from(uploadTasks).where(eq(uploadTasks.id, id))).toHaveLength(1);
    expect(await t.database.db.select().from(uploadParts).where(eq(uploadParts.taskId, id))).toHaveLength(1);
    expect(stagingDirs()).toContain(row!.storageRef);
    // the upload goes on where it was and completes, the bytes verified
    for (const i of [1, 2]) expect((await sendChunk(user, id, data, i)).status).toBe(200);
    const again = await api.post(MERGE, user, { uploadId: id, fileName: 'keep.pdf', md5: md5(PDF(10)) });
    expect(again.status).toBe(400);
    const m = await api.post(MERGE, user, { uploadId: id, fileName: 'keep.pdf', md5: md5(data) });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(md5((await api.get(m.body.data.url, user)).res.rawPayload)).toBe(md5(data));
  });

  it('cancel frees the stored chunks and always succeeds', async () => {
    const data = PDF(MB12);
    const id = (await startTask(user, data, 'cancel.pdf')).body.data.uploadId;
    await sendChunk(user, id, data, 0);
    const [row] = await t.database.db.select().from(uploadTasks).where(eq(uploadTasks.id, id));
    expect(stagingDirs()).toContain(row!.storageRef);
    // someone else cancelling answers success and changes nothing
    expect((await api.post(CANCEL, other.token, { uploadId: id })).status).toBe(200);
    expect(stagingDirs()).toContain(row!.storageRef);
    const r = await api.post(CANCEL, user, { uploadId: id });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('已取消上传');
    expect(stagingDirs()).not.toContain(row!.storageRef);
    expect(await t.database.db.select().from(uploadTasks).where(eq(uploadTasks.id, id))).toEqual([]);
    for (const uploadId of [id, 'nonsense', '']) expect((await api.post(CANCEL, user, { uploadId })).status).toBe(200);
    expect((await sendChunk(user, id, data, 1)).status).toBe(404);
    const logs = await t.database.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.glName, '文件'), eq(operationLogs.recordId, id)));
    expect(logs.map((l) => l.logbook)).toEqual(['取消上传：cancel.pdf']);
  });

  it('checks every chunk: its task and owner, the file md5, its index, its exact size, the first bytes', async () => {
    const data = PDF(MB12);
    const id = (await startTask(user, data, 'checks.pdf')).body.data.uploadId;
    const send = (token: string, fields: object, bytes: Buffer) =>
      api.upload(CHUNK, token, { chunk: 0, uploadId: id, md5: md5(data), ...fields }, [{ name: 'blob', data: bytes }]);
    expect((await send(other.token, {}, chunkOf(data, 0))).status).toBe(404);
    expect((await send(colleague, {}, chunkOf(data, 0))).status).toBe(404);
    expect((await send(user, { md5: md5(Buffer.from('x')) }, chunkOf(data, 0))).body.message).toBe(
      'md5 与上传任务不符',
    );
    expect((await send(user, { chunk: 3 }, chunkOf(data, 0))).body.message).toBe('分片序号有误');
    expect((await send(user, {}, chunkOf(data, 0).subarray(0, UPLOAD_CHUNK_SIZE - 1))).body.message).toBe(
      '分片大小不正确',
    );
    const tooBig = await send(user, { chunk: 2 }, chunkOf(data, 0));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('分片大小不正确');
    const exe = Buffer.concat([EXE(100), chunkOf(data, 0).subarray(100)]);
    expect((await send(user, {}, exe)).body.message).toBe('文件内容与扩展名不符，请上传真实的文件');
    // nothing of these was recorded
    expect(await t.database.db.select().from(uploadParts).where(eq(uploadParts.taskId, id))).toEqual([]);
    // merging before every chunk is in: 409 with the missing ones
    const early = await api.post(MERGE, user, { uploadId: id, fileName: 'checks.pdf', md5: md5(data) });
    expect(early.status).toBe(409);
    expect(early.body.data.missing).toEqual([0, 1, 2]);
  });

  it('checks the task: formats, chunk count, size limit (413)', async () => {
    const bad = await api.post(TASK, user, { md5: md5(EXE()), fileName: 'a.exe', chunk: 1, fileSize: 100 });
    expect(bad.body.message).toBe('请上传图片或PDF文件');
    const count = await api.post(TASK, user, { md5: md5(EXE()), fileName: 'a.pdf', chunk: 2, fileSize: 100 });
    expect(count.body.message).toBe('分片数量与文件大小不符');
    const huge = await api.post(TASK, user, {
      md5: md5(EXE()),
      fileName: 'a.pdf',
      chunk: 13,
      fileSize: 65 * 1024 * 1024,
    });
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBe('文件大小不能超过【64 MB】!');
    const typed = await api.post(TASK, user, {
      md5: md5(EXE()),
      fileName: '申请表.png',
      chunk: 1,
      fileSize: 100,
      gnCoding: 'XYGL_ZYZC',
      fileNo: '03',
    });
    expect(typed.body.message).toBe('格式错误，请上传【pdf】格式');
    const video = await api.post(TASK, user, {
      md5: md5(EXE()),
      fileName: 'a.pdf',
      chunk: 1,
      fileSize: 100,
      usage: 'video',
    });
    expect(video.body.message).toBe('请上传视频文件（mp4、webm）');
  });
});

describe('hashing on the way in (the MD5 worker thread)', () => {
  const merge = (id: string, name: string, sum: string) =>
    api.post(MERGE, user, { uploadId: id, fileName: name, md5: sum });

  it('hashes a chunk recorded ahead of the next one in order once the gap is filled, in order', async () => {
    const data = PDF(4 * UPLOAD_CHUNK_SIZE + 100);
    const id = (await startTask(user, data, 'gap.pdf')).body.data.uploadId;
    const readBefore = readBackBytesForTests();
    for (const i of [1, 0, 3, 4, 2]) expect((await sendChunk(user, id, data, i)).status).toBe(200);
    const m = await merge(id, 'gap.pdf', md5(data));
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(readBackBytesForTests() - readBefore).toBe(0);
    expect(m.body.data.md5).toBe(md5(data));
    expect(md5((await api.get(m.body.data.url, user)).res.rawPayload)).toBe(md5(data));
  });

  it('takes chunks sent two at a time, and still refuses bytes that are not the md5 named', async () => {
    const data = PDF(5 * UPLOAD_CHUNK_SIZE + 1);
    const id = (await startTask(user, data, 'pairs.pdf')).body.data.uploadId;
    const readBefore = readBackBytesForTests();
    for (const pair of [
      [0, 1],
      [2, 3],
      [4, 5],
    ]) {
      const rs = await Promise.all(pair.map((i) => sendChunk(user, id, data, i)));
      expect(rs.map((r) => r.status)).toEqual([200, 200]);
    }
    const m = await merge(id, 'pairs.pdf', md5(data));
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(m.body.data.md5).toBe(md5(data));
    expect(readBackBytesForTests() - readBefore).toBe(0);

    const claimed = md5(PDF(11));
    const task = await api.post(TASK, user, { md5: claimed, fileName: 'pairs2.pdf', chunk: 6, fileSize: data.length });
    const id2 = task.body.data.uploadId;
    for (const pair of [
      [1, 0],
      [3, 2],
      [5, 4],
    ]) {
      const rs = await Promise.all(
        pair.map((i) =>
          api.upload(CHUNK, user, { chunk: i, uploadId: id2, md5: claimed }, [
            { name: 'blob', data: chunkOf(data, i) },
          ]),
        ),
      );
      expect(rs.map((r) => r.status)).toEqual([200, 200]);
    }
    const refused = await merge(id2, 'pairs2.pdf', claimed);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(UploadMsg.MD5_MISMATCH);
  });

  it('a chunk refused half-way leaves the in-order hash as it was; the chunk sent again is hashed once', async () => {
    const data = PDF(MB12);
    const id = (await startTask(user, data, 'retry.pdf')).body.data.uploadId;
    expect((await sendChunk(user, id, data, 0)).status).toBe(200);
    const short = await api.upload(CHUNK, user, { chunk: 1, uploadId: id, md5: md5(data) }, [
      { name: 'blob', data: chunkOf(data, 1).subarray(0, UPLOAD_CHUNK_SIZE - 10) },
    ]);
    expect(short.body.message).toBe('分片大小不正确');
    for (const i of [1, 2]) expect((await sendChunk(user, id, data, i)).status).toBe(200);
    const readBefore = readBackBytesForTests();
    const m = await merge(id, 'retry.pdf', md5(data));
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(m.body.data.md5).toBe(md5(data));
    expect(readBackBytesForTests() - readBefore).toBe(0);
  });

  it('when the worker is lost mid-upload, the merge reads the chunks back: right bytes accepted, wrong refused', async () => {
    const data = PDF(MB12);
    const id = (await startTask(user, data, 'lost.pdf')).body.data.uploadId;
    expect((await sendChunk(user, id, data, 0)).status).toBe(200);
    await stopMd5WorkerForTests();
    for (const i of [1, 2]) expect((await sendChunk(user, id, data, i)).status).toBe(200);
    const readBefore = readBackBytesForTests();
    const m = await merge(id, 'lost.pdf', md5(data));
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(m.body.data.md5).toBe(md5(data));
    expect(readBackBytesForTests() - readBefore).toBe(data.length);

    const other = PDF(MB12 + 7);
    const claimed = md5(Buffer.concat([other.subarray(0, -1), Buffer.from([other.at(-1)! ^ 1])]));
    const task = await api.post(TASK, user, { md5: claimed, fileName: 'lost2.pdf', chunk: 3, fileSize: other.length });
    const id2 = task.body.data.uploadId;
    for (const i of [0, 1]) {
      const r = await api.upload(CHUNK, user, { chunk: i, uploadId: id2, md5: claimed }, [
        { name: 'blob', data: chunkOf(other, i) },
      ]);
      expect(r.status).toBe(200);
    }
    await stopMd5WorkerForTests();
    const last = await api.upload(CHUNK, user, { chunk: 2, uploadId: id2, md5: claimed }, [
      { name: 'blob', data: chunkOf(other, 2) },
    ]);
    expect(last.status).toBe(200);
    const refused = await merge(id2, 'lost2.pdf', claimed);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(UploadMsg.MD5_MISMATCH);
    expect(await t.database.db.select().from(uploadTasks).where(eq(uploadTasks.id, id2))).toEqual([]);
  });
});

describe('two writes of one chunk at once', () => {
  it('never accepts a file whose stored bytes differ from its md5', async () => {
    const a = PDF(UPLOAD_CHUNK_SIZE + 100);
    const b = Buffer.from(a);
    b[500] = (b[500]! + 1) % 256; // same size and signature, one byte different
    const id = (await startTask(user, a, 'race.pdf')).body.data.uploadId;
    const [ra, rb] = await Promise.all([
      api.upload(CHUNK, user, { chunk: 0, uploadId: id, md5: md5(a) }, [{ name: 'blob', data: chunkOf(a, 0) }]),
      api.upload(CHUNK, user, { chunk: 0, uploadId: id, md5: md5(a) }, [{ name: 'blob', data: chunkOf(b, 0) }]),
    ]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    await sendChunk(user, id, a, 1);
    const m = await api.post(MERGE, user, { uploadId: id, fileName: 'race.pdf', md5: md5(a) });
    if (m.status === 200) {
      // accepted: then what is stored is exactly the file the md5 names
      expect(md5((await api.get(m.body.data.url, user)).res.rawPayload)).toBe(md5(a));
    } else {
      expect(m.body.message).toBe(UploadMsg.MD5_MISMATCH);
    }
  });
});

describe('a store that cannot take the write (issue 20)', () => {
  // tests run as root, where chmod stops no write: a file standing where the upload's folder belongs does
  it('a chunk the disk refuses: a plain 503, nothing recorded or left; sent again once it can be written, the upload completes', async () => {
    const data = PDF(UPLOAD_CHUNK_SIZE + 1000);
    const id = (await startTask(user, data, '写入失败.pdf')).body.data.uploadId as string;
    const [task] = await t.database.db.select().from(uploadTasks).where(eq(uploadTasks.id, id));
    const staging = path.join(dataDir, 'files', '.staging', task!.storageRef);
    rmSync(staging, { recursive: true });
    writeFileSync(staging, '');
    const refused = await sendChunk(user, id, data, 0);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: Code.SERVICE_UNAVAILABLE, message: Msg.STORAGE_UNWRITABLE });
    expect(await t.database.db.select().from(uploadParts).where(eq(uploadParts.taskId, id))).toEqual([]);
    const [still] = await t.database.db.select().from(uploadTasks).where(eq(uploadTasks.id, id));
    expect(still).toMatchObject({ status: 'uploading', fileId: null });
    // writable again: the same chunks go in and the merge verifies them
    rmSync(staging);
    mkdirSync(staging);
    for (const i of [0, 1]) expect((await sendChunk(user, id, data, i)).status).toBe(200);
    const merged = await api.post(MERGE, user, { uploadId: id, fileName: '写入失败.pdf', md5: md5(data) });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.data).toMatchObject({ fileSize: data.length, md5: md5(data) });
  });

  it('an upload-task whose folder cannot be made: a plain 503 and no task', async () => {
    const stagingRoot = path.join(dataDir, 'files', '.staging');
    const away = `${stagingRoot}-away`;
    renameSync(stagingRoot, away);
    writeFileSync(stagingRoot, '');
    try {
      const before = await t.database.db.select({ id: uploadTasks.id }).from(uploadTasks);
      const r = await startTask(user, PDF(2000), '无法建目录.pdf');
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ code: Code.SERVICE_UNAVAILABLE, message: Msg.STORAGE_UNWRITABLE });
      expect(await t.database.db.select({ id: uploadTasks.id }).from(uploadTasks)).toEqual(before);
    } finally {
      rmSync(stagingRoot);
      renameSync(away, stagingRoot);
    }
  });
});

describe('instant upload', () => {
  it('answers at once for bytes of the same enterprise, never across enterprises', async () => {
    const data = PDF(UPLOAD_CHUNK_SIZE + 100);
    const id = (await startTask(user, data, '原件.pdf')).body.data.uploadId;
    await sendChunk(user, id, data, 0);
    await sendChunk(user, id, data, 1);
    const first = await api.post(MERGE, user, { uploadId: id, fileName: '原件.pdf', md5: md5(data) });
    expect(first.status).toBe(200);

    // a colleague of the same enterprise: instant
    const mine = await startTask(colleague, data, '同一份.pdf');
    expect(mine.body.data).toMatchObject({ uploadId: null, uploadUrlList: [] });
    expect(mine.body.data.file).toMatchObject({ fileName: '同一份.pdf', md5: md5(data) });
    expect((await api.get(mine.body.data.url, colleague)).status).toBe(200);

    // another enterprise that knows the md5: no shortcut, every chunk is asked for, and the file is not readable
    const theirs = await startTask(other.token, data, '别人的.pdf');
    expect(theirs.body.data.uploadId).not.toBeNull();
    expect(missingOf(theirs)).toEqual([0, 1]);
    expect(theirs.body.data.url).toBe('');
    expect((await api.get(first.body.data.url, other.token)).status).toBe(404);

    // the bytes stay while one row uses them
    await api.post('/ks/common/common/attachment/delete', user, { fileId: first.body.data.fileId });
    expect((await api.get(mine.body.data.url, colleague)).status).toBe(200);
  });
});

describe('video usage and expiry', () => {
  it('stores videos with a public address (the editor) and serves ranges', async () => {
    const data = MP4(UPLOAD_CHUNK_SIZE + 5000);
    const id = (await startTask(user, data, '宣传片.mp4', { usage: 'video' })).body.data.uploadId;
    await sendChunk(user, id, data, 0);
    await sendChunk(user, id, data, 1);
    const m = await api.post(MERGE, user, { uploadId: id, fileName: '宣传片.mp4', md5: md5(data) });
    expect(m.body.data.preview).toBe('video');
    const r = await api.get(m.body.data.url, null, {
      range: `bytes=${UPLOAD_CHUNK_SIZE - 5}-${UPLOAD_CHUNK_SIZE + 4}`,
    });
    expect(r.status).toBe(206);
    expect(r.res.headers['content-type']).toBe('video/mp4');
    expect(r.res.rawPayload.equals(data.subarray(UPLOAD_CHUNK_SIZE - 5, UPLOAD_CHUNK_SIZE + 5))).toBe(true);
  });

  it('stores large notice attachments as public notice files, for those who may write notices only', async () => {
    const data = PDF(UPLOAD_CHUNK_SIZE + 7000);
    // an enterprise user may not write notices
    const refused = await startTask(user, data, '招标文件（第二册）.pdf', { usage: 'notice' });
    expect(refused.status).toBe(403);
    const admin = await loginToken(t.app, 'admin', 'M');
    const task = await startTask(admin, data, '招标文件（第二册）.pdf', { usage: 'notice' });
    expect(task.status).toBe(200);
    const id = task.body.data.uploadId;
    await sendChunk(admin, id, data, 0);
    await sendChunk(admin, id, data, 1);
    const m = await api.post(MERGE, admin, { uploadId: id, fileName: '招标文件（第二册）.pdf', md5: md5(data) });
    expect(m.status).toBe(200);
    const [row] = await t.database.db.select().from(files).where(eq(files.id, m.body.data.fileId));
    expect(row).toMatchObject({ visibility: 'public', source: 'notice' });
    // anyone may download it from the notice
    expect((await api.get(m.body.data.url, null)).status).toBe(200);
    // a notice takes it as an attachment
    const saved = await api.post('/ks/portal/v1/admin/notices/save', admin, {
      title: '大附件公告',
      category: '招标公告',
      tradeType: '工程建设',
      region: '太原市',
      bodyHtml: '<p>正文</p>',
      attachments: [{ name: '招标文件（第二册）.pdf', url: m.body.data.url }],
    });
    expect(saved.status).toBe(200);
    // notice formats only: a video is no notice attachment
    expect((await startTask(admin, MP4(UPLOAD_CHUNK_SIZE + 10), '宣传片.mp4', { usage: 'notice' })).status).toBe(400);
  });

  it('frees expired unfinished uploads', async () => {
    const data = PDF(MB12);
    const id = (await startTask(user, data, 'expire.pdf')).body.data.uploadId;
    await sendChunk(user, id, data, 0);
    const [row] = await t.database.db.select().from(uploadTasks).where(eq(uploadTasks.id, id));
    t.clock.advance(61 * 60_000);
    const deps = {
      db: t.database.db,
      storage: createStorage(t.config),
      spoolDir: path.join(dataDir, 'files', '.tmp'),
      uploadMaxBytes: t.config.files.uploadMaxBytes,
      chunkedMaxBytes: t.config.files.chunkedMaxBytes,
      taskTtlMs: t.config.files.taskTtlMs,
      now: () => t.clock.now,
    };
    expect(await sweep(deps)).toBeGreaterThan(0);
    expect(stagingDirs()).not.toContain(row!.storageRef);
    expect(await t.database.db.select().from(uploadTasks).where(eq(uploadTasks.id, id))).toEqual([]);
    expect((await sendChunk(user, id, data, 1)).status).toBe(404);
  });
});
