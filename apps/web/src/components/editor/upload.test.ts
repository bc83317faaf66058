import { SESSION_KEYS } from '@ks/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { imageProblem, imageUploadConfig } from './upload';

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
