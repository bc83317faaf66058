import { act } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { md5OfBlob } from './md5';
import { FILE_PATHS, fileOf, formOf, setupFiles } from './testkit';
import { UploadJob, UploadStopped } from './uploader';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const MB = 1024 * 1024;
const target = { gnCoding: 'ZYZC', systemCoding: 'XYGL' };
const chunksSent = (calls: { url: string; body?: BodyInit }[]) =>
  calls.filter((c) => c.url === FILE_PATHS.chunk).map((c) => Number((c.body as FormData).get('chunk')));

describe('UploadJob: one request up to 5 MB', () => {
  it('sends the text fields before the file; typed attachments use the small-file call with fileNo and fileType', async () => {
    const server = setupFiles();
    const progress: number[] = [];
    const plain = new UploadJob(fileOf('照片.png'), { target, onProgress: (p) => progress.push(p) });
    expect(plain.chunked).toBe(false);
    const f = await plain.run();
    expect(f ? f.fileName : null).toBe('照片.png');
    expect(progress).toEqual([2, 100]);
    const sent = formOf(server.callsTo(FILE_PATHS.attachment)[0]);
    expect(sent.keys).toEqual(['gnCoding', 'systemCoding', 'file']);
    expect(sent.file?.name).toBe('照片.png');

    await new UploadJob(fileOf('证书.pdf'), { target: { ...target, fileNo: '02', fileType: 'pdf' } }).run();
    const typed = formOf(server.callsTo(FILE_PATHS.small)[0]);
    expect(typed.keys).toEqual(['fileType', 'gnCoding', 'systemCoding', 'fileNo', 'file']);
    expect(typed.fields).toMatchObject({ fileNo: '02', fileType: 'pdf' });
    expect(server.callsTo(FILE_PATHS.task)).toHaveLength(0);
  });

  it('resolves false when the answer carries no url', async () => {
    setupFiles({ [`POST ${FILE_PATHS.attachment}`]: () => ({ data: { fileId: 'x' } }) });
    expect(await new UploadJob(fileOf('a.png'), { target }).run()).toBe(false);
  });
});

describe('UploadJob: chunked over 5 MB (§4)', () => {
  it('sends a video of any size in chunks with usage video (the small-file call takes only images and PDF)', async () => {
    const file = fileOf('宣传片.mp4', 1000);
    const md5 = await md5OfBlob(file);
    const server = setupFiles({
      [`POST ${FILE_PATHS.task}`]: () => ({
        data: {
          uploadId: 'v-1',
          url: '',
          uploadUrlList: [{ chunk: 0, url: FILE_PATHS.chunk }],
          md5,
          chunkSize: 5 * MB,
          total: 1,
          file: null,
        },
      }),
      [`POST ${FILE_PATHS.chunk}`]: () => ({ data: { percent: 100, chunk: 0, uploaded: 1, total: 1 } }),
      [`POST ${FILE_PATHS.merge}`]: () => ({
        data: { fileId: 'v', url: '/ks/files/public/v', fileName: '宣传片.mp4' },
      }),
    });
    const job = new UploadJob(file, { target: {}, usage: 'video' });
    expect(job.chunked).toBe(true);
    const out = await job.run();
    expect(out ? out.url : null).toBe('/ks/files/public/v');
    expect(JSON.parse(String(server.callsTo(FILE_PATHS.task)[0].body))).toMatchObject({ usage: 'video', chunk: 1 });
    expect(server.callsTo(FILE_PATHS.small)).toHaveLength(0);
    expect(server.callsTo(FILE_PATHS.attachment)).toHaveLength(0);
    expect(new UploadJob(fileOf('a.png', 1000), { target: {} }).chunked).toBe(false);
  });

  it('hashes the whole file, asks upload-task, sends only the listed chunks, then merges; progress 2, ≥5, 99.9 until the merge, 100', async () => {
    const file = fileOf('招标文件.pdf', 12 * MB);
    const md5 = await md5OfBlob(file);
    let mergeSeen: number[] = [];
    const progress: number[] = [];
    const server = setupFiles({
      [`POST ${FILE_PATHS.task}`]: () => ({
        // the server has chunk 1 already: only 0 and 2 are missing
        data: {
          uploadId: 'task-1',
          url: '',
          uploadUrlList: [
            { chunk: 0, url: FILE_PATHS.chunk },
            { chunk: 2, url: FILE_PATHS.chunk },
          ],
          md5,
          chunkSize: 5 * MB,
          total: 3,
          file: null,
        },
      }),
      [`POST ${FILE_PATHS.chunk}`]: (req) => {
        const n = Number(formOf(req).fields.chunk);
        return { data: { percent: n === 0 ? 66.66 : 100, chunk: n, uploaded: n === 0 ? 2 : 3, total: 3 } };
      },
      [`POST ${FILE_PATHS.merge}`]: () => {
        mergeSeen = [...progress];
        return { data: { fileId: 'f-1', url: '/ks/common/common/file/download?fileId=f-1', fileName: '招标文件.pdf' } };
      },
    });
    const job = new UploadJob(file, { target: { ...target, fileNo: '03' }, onProgress: (p) => progress.push(p) });
    expect(job.chunked).toBe(true);
    const out = await job.run();
    expect(out ? out.fileId : null).toBe('f-1');

    const task = JSON.parse(String(server.callsTo(FILE_PATHS.task)[0].body));
    expect(task).toMatchObject({
      md5,
      fileName: '招标文件.pdf',
      chunk: 3,
      fileSize: 12 * MB,
      fileNo: '03',
      usage: 'attachment',
    });
    expect(chunksSent(server.calls)).toEqual([0, 2]);
    const c2 = formOf(server.callsTo(FILE_PATHS.chunk)[1]);
    expect(c2.keys).toEqual(['chunk', 'uploadId', 'md5', 'file']);
    expect(c2.fields).toEqual({ chunk: '2', uploadId: 'task-1', md5 });
    expect(c2.file?.size).toBe(2 * MB);
    expect(JSON.parse(String(server.callsTo(FILE_PATHS.merge)[0].body))).toMatchObject({
      uploadId: 'task-1',
      fileName: '招标文件.pdf',
      md5,
      fileNo: '03',
    });
    // starts at 2; the resumed third shows as 33.3; at least 5; 100 shows as 99.9 until the merge answers
    expect(progress[0]).toBe(2);
    expect(progress).toEqual([2, 33.3, 66.7, 99.9, 99.9, 100]);
    expect(mergeSeen.at(-1)).toBe(99.9);
    expect(progress.slice(1).every((p) => p >= 5)).toBe(true);
  });

  it('shows at least 5 for a small share of a big file', async () => {
    const file = fileOf('大.pdf', 5 * MB + 10);
    const progress: number[] = [];
    setupFiles({
      [`POST ${FILE_PATHS.chunk}`]: (req) => ({
        data: { percent: 1.5, chunk: Number(formOf(req).fields.chunk), uploaded: 1, total: 2 },
      }),
      [`POST ${FILE_PATHS.merge}`]: () => ({ data: { fileId: 'f', url: '/u', fileName: '大.pdf' } }),
    });
    await new UploadJob(file, { target, hash: async () => 'a'.repeat(32), onProgress: (p) => progress.push(p) }).run();
    expect(progress).toEqual([2, 5, 5, 99.9, 100]);
  });

  it('resumes: the same file again sends only the chunks the server still lacks', async () => {
    const file = fileOf('续传.pdf', 12 * MB);
    const first = new UploadJob(file, { target });
    // the page goes away after the first chunk: the stop flag ends the loop, the stored chunk stays
    const stopAfterFirst = setupFiles({
      [`POST ${FILE_PATHS.chunk}`]: (req) => {
        const f = formOf(req);
        const t = stopAfterFirst.tasks.get(f.fields.uploadId ?? '');
        t?.stored.add(Number(f.fields.chunk));
        first.stop();
        return { data: { percent: 33.33, chunk: Number(f.fields.chunk), uploaded: 1, total: 3 } };
      },
    });
    await expect(first.run()).rejects.toBeInstanceOf(UploadStopped);
    expect(chunksSent(stopAfterFirst.calls)).toEqual([0]);
    expect(stopAfterFirst.callsTo(FILE_PATHS.merge)).toHaveLength(0);
    expect(stopAfterFirst.callsTo(FILE_PATHS.cancel)).toHaveLength(0);

    // a new page (same fake server state): choose the file again
    const tasks = stopAfterFirst.tasks;
    const again = setupFiles();
    for (const [k, v] of tasks) again.tasks.set(k, v);
    const out = await new UploadJob(file, { target }).run();
    expect(out ? out.fileName : null).toBe('续传.pdf');
    expect(chunksSent(again.calls)).toEqual([1, 2]);
    expect(again.callsTo(FILE_PATHS.merge)).toHaveLength(1);
  });

  it('the stop flag aborts before the next chunk', async () => {
    const file = fileOf('停.pdf', 16 * MB);
    let job: UploadJob | null = null;
    const server = setupFiles({
      [`POST ${FILE_PATHS.chunk}`]: (req) => {
        const n = Number(formOf(req).fields.chunk);
        if (n === 1) job?.stop();
        return { data: { percent: (n + 1) * 25, chunk: n, uploaded: n + 1, total: 4 } };
      },
    });
    job = new UploadJob(file, { target, hash: async () => 'b'.repeat(32) });
    await expect(job.run()).rejects.toBeInstanceOf(UploadStopped);
    expect(chunksSent(server.calls)).toEqual([0, 1]);
    expect(server.callsTo(FILE_PATHS.merge)).toHaveLength(0);
  });

  it('cancel: stops, sends upload-cancel with the uploadId, counts as success even when it fails, waits 3 s', async () => {
    const file = fileOf('取消.pdf', 11 * MB);
    const waits: number[] = [];
    let job: UploadJob | null = null;
    let cancelling: Promise<void> | null = null;
    const server = setupFiles({
      [`POST ${FILE_PATHS.chunk}`]: (req) => {
        cancelling = job?.cancel() ?? null;
        return { data: { percent: 33.33, chunk: Number(formOf(req).fields.chunk), uploaded: 1, total: 3 } };
      },
      [`POST ${FILE_PATHS.cancel}`]: () => ({ status: 500, code: 500, message: '服务器错误' }),
    });
    job = new UploadJob(file, {
      target,
      hash: async () => 'c'.repeat(32),
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await expect(job.run()).rejects.toBeInstanceOf(UploadStopped);
    await expect(cancelling).resolves.toBeUndefined();
    const cancel = server.callsTo(FILE_PATHS.cancel);
    expect(cancel).toHaveLength(1);
    expect(JSON.parse(String(cancel[0].body))).toEqual({ uploadId: job.uploadId });
    expect(waits).toEqual([3000]);
    expect(chunksSent(server.calls)).toEqual([0]);
    // the failed cancel showed nothing: it counts as success
    expect(document.body.textContent).not.toContain('服务器错误');
  });

  it('instant upload: upload-task answers the file at once and no chunk is sent', async () => {
    const server = setupFiles({
      [`POST ${FILE_PATHS.task}`]: () => ({
        data: {
          uploadId: null,
          url: '/ks/common/common/file/download?fileId=same',
          uploadUrlList: [],
          md5: 'd'.repeat(32),
          chunkSize: 5 * MB,
          total: 2,
          file: { fileId: 'same', url: '/ks/common/common/file/download?fileId=same', fileName: '秒传.pdf' },
        },
      }),
    });
    const progress: number[] = [];
    const out = await new UploadJob(fileOf('秒传.pdf', 6 * MB), {
      target,
      hash: async () => 'd'.repeat(32),
      onProgress: (p) => progress.push(p),
    }).run();
    expect(out ? out.fileId : null).toBe('same');
    expect(server.callsTo(FILE_PATHS.chunk)).toHaveLength(0);
    expect(progress).toEqual([2, 100]);
  });

  it('resolves false when upload-task gives neither a url nor an upload list (§8)', async () => {
    setupFiles({
      [`POST ${FILE_PATHS.task}`]: () => ({
        data: { uploadId: 't', url: '', uploadUrlList: [], md5: 'e', chunkSize: 1, total: 2, file: null },
      }),
    });
    expect(await new UploadJob(fileOf('空.pdf', 6 * MB), { target, hash: async () => 'e'.repeat(32) }).run()).toBe(
      false,
    );
  });

  it('a merge that finds chunks missing (409 with the list) sends those and merges again', async () => {
    let merges = 0;
    const server = setupFiles({
      [`POST ${FILE_PATHS.merge}`]: () => {
        merges += 1;
        if (merges === 1) return { status: 409, code: 409, message: '文件分片尚未上传完整', data: { missing: [1] } };
        return { data: { fileId: 'm', url: '/u', fileName: '补.pdf' } };
      },
    });
    const out = await new UploadJob(fileOf('补.pdf', 6 * MB), { target, hash: async () => 'f'.repeat(32) }).run();
    expect(out ? out.fileId : null).toBe('m');
    expect(chunksSent(server.calls)).toEqual([0, 1, 1]);
  });

  it('a refused chunk rejects with the server error (the uploader shows its message)', async () => {
    setupFiles({
      [`POST ${FILE_PATHS.chunk}`]: () => ({
        status: 400,
        code: 400,
        message: '文件内容与扩展名不符，请上传真实的文件',
      }),
    });
    const run = new UploadJob(fileOf('假.pdf', 6 * MB), { target, hash: async () => '1'.repeat(32) }).run();
    await expect(run).rejects.toMatchObject({ status: 400, message: '文件内容与扩展名不符，请上传真实的文件' });
  });
});
