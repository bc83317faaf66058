import { SESSION_KEYS } from '@ks/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, configureRequest } from '../../api/request';
import { UploadStopped } from '../upload/uploader';
import { type CreateVideoJob, imageProblem, imageUploadConfig, videoProblem, videoUploadConfig } from './upload';

type Config = {
  server: string;
  fieldName: string;
  timeout: number;
  maxFileSize: number;
  allowedFileTypes: string[];
  headers: () => Record<string, string>;
  onBeforeUpload: (files: Record<string, { name: string; size?: number }>) => unknown;
  customInsert: (res: unknown, insert: (src: string, alt?: string, href?: string) => void) => void;
  onError: (file: unknown, err: unknown, res?: { status?: number; body?: unknown }) => void;
};
const config = (notify = vi.fn()) => ({ notify, c: imageUploadConfig(notify) as unknown as Config });

afterEach(() => {
  configureRequest();
  vi.useRealTimers();
});

describe('editor image upload settings (§7, §9)', () => {
  it('custom-fileName to /dev-api/common/upload, 5000 ms, images only up to 1 GB, the bearer token read at upload time', () => {
    const { c } = config();
    expect(c).toMatchObject({
      server: '/dev-api/common/upload',
      fieldName: 'custom-fileName',
      timeout: 5000,
      maxFileSize: 1024 ** 3,
      allowedFileTypes: ['image/jpeg', 'image/png', 'image/webp'],
    });
    expect(c.headers()).toEqual({});
    sessionStorage.setItem(SESSION_KEYS.token, 'tok-9');
    expect(c.headers()).toEqual({ Authorization: 'Bearer tok-9' });
  });

  it('lets only jpg, png, jpeg, jpe and webp go, and says so for the rest', () => {
    for (const ok of ['a.jpg', 'a.PNG', 'a.jpeg', 'a.jpe', 'a.webp']) expect(imageProblem({ name: ok })).toBeNull();
    for (const bad of ['a.pdf', 'a.gif', 'a.svg', 'png', 'a.png.exe']) {
      expect(imageProblem({ name: bad })).toBe('请上传图片文件');
    }
    const { c, notify } = config();
    expect(c.onBeforeUpload({ x: { name: '说明.pdf', size: 10 } })).toBe(false);
    expect(notify).toHaveBeenCalledWith('请上传图片文件', 'warning');
    expect(c.onBeforeUpload({ x: { name: 'a.pdf' }, y: { name: '图.png', size: 3 } })).toEqual({
      y: { name: '图.png', size: 3 },
    });
    expect(c.onBeforeUpload({ z: { name: '大.png', size: 1024 ** 3 + 1 } })).toBe(false);
    expect(notify).toHaveBeenLastCalledWith('图片大小不能超过1GB', 'warning');
  });

  it('inserts the answered address; errno 1 or an unsafe address is refused with the server message or 上传失败！', () => {
    const { c, notify } = config();
    const insert = vi.fn();
    c.customInsert({ errno: 0, data: { url: '/ks/files/public/1', alt: '现场.png', href: '' } }, insert);
    expect(insert).toHaveBeenCalledWith('/ks/files/public/1', '现场', '');
    c.customInsert({ errno: 1, message: '请上传图片文件' }, insert);
    expect(notify).toHaveBeenLastCalledWith('请上传图片文件', 'error');
    c.customInsert({ errno: 0, data: { url: 'javascript:alert(1)' } }, insert);
    expect(notify).toHaveBeenLastCalledWith('上传失败！', 'error');
    expect(insert).toHaveBeenCalledTimes(1);
  });

  it('no answer (stalled 5 s, network): 当前网络拥堵，请重新上传！ after 1.5 s; a refusal: its message', () => {
    vi.useFakeTimers();
    const { c, notify } = config();
    c.onError({ name: 'a.png' }, new Error('Upload stalled for 5 seconds, aborting.'));
    vi.advanceTimersByTime(1499);
    expect(notify).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(notify).toHaveBeenCalledWith('当前网络拥堵，请重新上传！', 'error');
    c.onError({ name: 'a.png' }, new Error('Upload error'), {
      status: 413,
      body: { errno: 1, message: '上传内容过大' },
    });
    expect(notify).toHaveBeenLastCalledWith('上传内容过大', 'error');
    c.onError({ name: 'a.png' }, new Error('Upload error'), { status: 500, body: null });
    expect(notify).toHaveBeenLastCalledWith('上传失败！', 'error');
  });

  it('401 ends the session the usual way (§8)', () => {
    const assign = vi.fn();
    const schedule = vi.fn((fn: () => void) => {
      fn();
      return () => {};
    });
    configureRequest({ effects: { prompt: vi.fn(), assign, clearStorage: vi.fn(), schedule } });
    const { c, notify } = config();
    c.onError({ name: 'a.png' }, new Error('Upload error'), { status: 401, body: { errno: 1, message: '未登录' } });
    expect(assign).toHaveBeenCalledWith('/');
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('editor video upload (screen 12: video to the object storage)', () => {
  type VideoConfig = {
    allowedFileTypes: string[];
    maxFileSize: number;
    customUpload: (file: File, insert: (src: string, poster?: string) => void) => Promise<void>;
  };
  const setup = (run: () => Promise<{ url?: string | null } | false>) => {
    const notify = vi.fn();
    const progress = vi.fn();
    const createJob = vi.fn<CreateVideoJob>((_file, options) => ({
      run: async () => {
        options.onProgress?.(2);
        options.onProgress?.(50);
        return run();
      },
      cancel: async () => undefined,
    }));
    const c = videoUploadConfig(notify, progress, createJob) as unknown as VideoConfig;
    return { c, notify, progress, createJob, insert: vi.fn() };
  };
  const video = (name = '宣传片.mp4', size = 2048) => new File([new Uint8Array(size)], name, { type: 'video/mp4' });

  it('mp4 and webm only, at most 1 GB; others are refused before anything is sent', async () => {
    expect(videoProblem({ name: 'a.mp4' })).toBeNull();
    expect(videoProblem({ name: 'a.WEBM' })).toBeNull();
    expect(videoProblem({ name: 'a.avi' })).toBe('请上传视频文件（mp4、webm）');
    const { c, notify, createJob, insert } = setup(async () => ({ url: '/x' }));
    expect(c.allowedFileTypes).toEqual(['video/mp4', 'video/webm']);
    await c.customUpload(video('片.avi'), insert);
    expect(notify).toHaveBeenLastCalledWith('请上传视频文件（mp4、webm）', 'warning');
    const big = video('大.mp4');
    Object.defineProperty(big, 'size', { value: 1024 ** 3 + 1 });
    await c.customUpload(big, insert);
    expect(notify).toHaveBeenLastCalledWith('视频大小不能超过1GB', 'warning');
    expect(createJob).not.toHaveBeenCalled();
    expect(insert).not.toHaveBeenCalled();
  });

  it('goes through the chunked upload with usage video, reports progress, and inserts the stored address', async () => {
    const { c, notify, progress, createJob, insert } = setup(async () => ({ url: '/ks/files/public/v-1' }));
    const file = video();
    await c.customUpload(file, insert);
    expect(createJob).toHaveBeenCalledTimes(1);
    expect(createJob.mock.calls[0]?.[0]).toBe(file);
    expect(createJob.mock.calls[0]?.[1]).toMatchObject({ usage: 'video', target: {} });
    expect(insert).toHaveBeenCalledWith('/ks/files/public/v-1', '');
    expect(progress.mock.calls.map((a) => a[0])).toEqual([0, 2, 50, null]);
    expect(notify).not.toHaveBeenCalled();
  });

  it('no address, an unsafe one, or a refusal: nothing is inserted and the user is told why', async () => {
    for (const answer of [false as const, { url: 'javascript:alert(1)' }, { url: null }]) {
      const { c, notify, insert, progress } = setup(async () => answer);
      await c.customUpload(video(), insert);
      expect(insert).not.toHaveBeenCalled();
      expect(notify).toHaveBeenLastCalledWith('上传失败！', 'error');
      expect(progress).toHaveBeenLastCalledWith(null);
    }
    const refused = setup(async () => {
      throw new ApiError('response', 400, 400, '请上传视频文件（mp4、webm）', null);
    });
    await refused.c.customUpload(video(), refused.insert);
    expect(refused.notify).toHaveBeenLastCalledWith('请上传视频文件（mp4、webm）', 'error');
    const stopped = setup(async () => {
      throw new UploadStopped();
    });
    await stopped.c.customUpload(video(), stopped.insert);
    expect(stopped.notify).not.toHaveBeenCalled();
    expect(stopped.progress).toHaveBeenLastCalledWith(null);
  });

  it('cancels on request: the job stops and frees its parts, nothing is inserted, the user is told 已取消上传', async () => {
    const notify = vi.fn();
    const progress = vi.fn();
    let stop: (() => void) | null = null;
    const cancel = vi.fn(async () => stop?.());
    const createJob = vi.fn<CreateVideoJob>((_file, options) => ({
      run: () =>
        new Promise((_resolve, reject) => {
          options.onProgress?.(10);
          stop = () => reject(new UploadStopped());
        }),
      cancel,
    }));
    const c = videoUploadConfig(notify, progress, createJob) as unknown as VideoConfig;
    const insert = vi.fn();
    const done = c.customUpload(video('宣传片.webm'), insert);
    // the progress hands out the upload: its name and how to cancel it
    const upload = progress.mock.calls.at(-1)?.[1];
    expect(progress.mock.calls.at(-1)?.[0]).toBe(10);
    expect(upload.name).toBe('宣传片.webm');
    await upload.cancel();
    await done;
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(insert).not.toHaveBeenCalled();
    expect(notify).toHaveBeenCalledWith('已取消上传', 'info');
    expect(notify).toHaveBeenCalledTimes(1);
    expect(progress).toHaveBeenLastCalledWith(null);
  });
});
