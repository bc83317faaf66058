import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { createFakeServer, type Handler } from '../../test/server';
import {
  EDITOR_UPLOAD_FIELD,
  EDITOR_UPLOAD_TIMEOUT_MS,
  EDITOR_UPLOAD_URL,
  EditorUploadError,
  isEditorImage,
  uploadEditorImage,
} from './upload';

const image = (name = '现场照片.png', size = 10) => new File([new Uint8Array(size)], name, { type: 'image/png' });

function setup(handler: Handler, extra: { schedule?: (fn: () => void, ms: number) => () => void } = {}) {
  const server = createFakeServer({ [`POST ${EDITOR_UPLOAD_URL}`]: handler });
  const prompt = vi.fn();
  configureRequest({
    transport: server.transport,
    // a session that ends records its navigation and storage clearing instead of doing them
    effects: {
      prompt,
      getToken: () => 'tok-1',
      pathname: () => '/applyDetail',
      assign: vi.fn(),
      clearStorage: vi.fn(),
      navigate: vi.fn(),
      ...extra,
    },
  });
  return { ...server, prompt };
}

const failure = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EditorUploadError);
  return err as EditorUploadError;
};

afterEach(() => {
  configureRequest();
});

describe('editor image upload (§7, §9)', () => {
  it('posts the file as custom-fileName to /dev-api/common/upload with the bearer token; resolves data.url', async () => {
    const server = setup(() => ({ data: { url: '/files/2024/现场照片.png', fileName: '现场照片.png' } }));
    await expect(uploadEditorImage(image())).resolves.toEqual({ url: '/files/2024/现场照片.png', alt: '现场照片' });
    const req = server.callsTo(EDITOR_UPLOAD_URL)[0] as TransportRequest;
    expect(req.method).toBe('POST');
    expect(req.headers.Authorization).toBe('Bearer tok-1');
    expect(req.body).toBeInstanceOf(FormData);
    const sent = (req.body as FormData).get(EDITOR_UPLOAD_FIELD) as File;
    expect(EDITOR_UPLOAD_FIELD).toBe('custom-fileName');
    expect(sent.name).toBe('现场照片.png');
  });

  it('takes images only (jpg, png, jpeg, jpe, webp) and sends nothing otherwise', async () => {
    for (const ok of ['a.jpg', 'a.PNG', 'a.jpeg', 'a.jpe', 'a.webp']) expect(isEditorImage({ name: ok })).toBe(true);
    for (const bad of ['a.pdf', 'a.gif', 'a.svg', 'png', 'a.png.exe']) expect(isEditorImage({ name: bad })).toBe(false);
    const server = setup(() => ({ data: { url: '/x.png' } }));
    const err = await failure(uploadEditorImage(image('说明.pdf')));
    expect(err.kind).toBe('imageOnly');
    expect(err.message).toBe('请上传图片（jpg、png、jpeg、jpe、webp格式）');
    expect(server.calls).toHaveLength(0);
  });

  it('times out after 5000 ms: 当前网络拥堵，请重新上传！', async () => {
    const timers: { fn: () => void; ms: number }[] = [];
    const server = createFakeServer({});
    configureRequest({
      transport: () => new Promise(() => {}),
      effects: {
        prompt: vi.fn(),
        getToken: () => 'tok-1',
        schedule: (fn, ms) => {
          timers.push({ fn, ms });
          return () => {};
        },
      },
    });
    const pending = uploadEditorImage(image());
    await vi.waitFor(() => expect(timers).toHaveLength(1));
    expect(timers[0]?.ms).toBe(EDITOR_UPLOAD_TIMEOUT_MS);
    expect(EDITOR_UPLOAD_TIMEOUT_MS).toBe(5000);
    timers[0]?.fn();
    const err = await failure(pending);
    expect(err.kind).toBe('congested');
    expect(err.message).toBe('当前网络拥堵，请重新上传！');
    expect(server.calls).toHaveLength(0);
  });

  it('a refusal shows the server message, else 上传失败！; an answer without an address fails too', async () => {
    setup(() => ({ status: 413, code: 413, message: '文件过大' }));
    expect((await failure(uploadEditorImage(image()))).message).toBe('文件过大');
    setup(() => ({ status: 500, code: 500, message: '' }));
    expect((await failure(uploadEditorImage(image()))).message).toBe('上传失败！');
    setup(() => ({ data: { url: 'javascript:alert(1)' } }));
    expect((await failure(uploadEditorImage(image()))).message).toBe('上传失败！');
  });

  it('an ended session goes through the usual handling (dialog, then /login)', async () => {
    const { prompt } = setup(() => ({ status: 200, code: 10000, message: '登录已过期，请重新登录' }));
    expect((await failure(uploadEditorImage(image()))).kind).toBe('session');
    expect(prompt).toHaveBeenCalledWith({ message: '登录已过期，请重新登录', type: 1 });
  });
});
