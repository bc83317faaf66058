import { SESSION_KEYS } from '@ks/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { type IDomEditor, SlateEditor } from '@wangeditor-next/editor';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { renderUi } from '../../engine/list/test-utils';
import { LazyRichTextEditor } from './LazyRichTextEditor';
import { EDITOR_HEIGHT, EDITOR_PLACEHOLDER, outputHtml, TOOLBAR_KEYS, VideoProgress } from './RichTextEditor';

/** A stand-in for XMLHttpRequest, which the editor's uploader (Uppy) uses: records what is sent, answers on demand. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  readyState = 0;
  responseText = '';
  response = '';
  responseType = '';
  withCredentials = false;
  upload = new EventTarget();
  private events = new EventTarget();
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {}
  addEventListener(type: string, fn: EventListener) {
    this.events.addEventListener(type, fn);
  }
  removeEventListener(type: string, fn: EventListener) {
    this.events.removeEventListener(type, fn);
  }
  getAllResponseHeaders() {
    return 'content-type: application/json\r\n';
  }
  getResponseHeader() {
    return 'application/json';
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.readyState = 4;
    this.responseText = JSON.stringify(body);
    this.response = this.responseText;
    this.events.dispatchEvent(new Event('load'));
  }
}

afterEach(() => {
  configureRequest();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  FakeXhr.sent = [];
});

const area = () => screen.getByTestId('rich-text-editor-area');

describe('RichTextEditor (screen 12)', () => {
  it('loads in its own chunk: height 450px, placeholder 请填写内容, a toolbar, the value shown', async () => {
    renderUi(<LazyRichTextEditor value="<p>已有内容</p>" />);
    await waitFor(() => expect(area().querySelector('[data-slate-editor]')).not.toBeNull(), { timeout: 10_000 });
    expect(EDITOR_HEIGHT).toBe(450);
    expect(area().style.height).toBe('450px');
    expect(area().textContent).toContain('已有内容');
    expect(screen.getByTestId('rich-text-editor-toolbar').querySelector('.w-e-bar-item')).not.toBeNull();
  });

  it('shows the placeholder when empty; disabled is not editable', async () => {
    let editor: IDomEditor | null = null;
    const onCreated = (e: IDomEditor) => {
      editor = e;
    };
    const { rerenderUi } = renderUi(<LazyRichTextEditor value="" onCreated={onCreated} />);
    await waitFor(() => expect(editor).not.toBeNull(), { timeout: 10_000 });
    expect(EDITOR_PLACEHOLDER).toBe('请填写内容');
    await waitFor(() => expect(area().textContent).toContain('请填写内容'));
    expect((editor as unknown as IDomEditor).isDisabled()).toBe(false);
    rerenderUi(<LazyRichTextEditor value="" disabled onCreated={onCreated} />);
    await waitFor(() => expect((editor as unknown as IDomEditor).isDisabled()).toBe(true));
  });

  it('hands out sanitised HTML when its content changes, not when its value is set from outside', async () => {
    const onChange = vi.fn();
    let editor: IDomEditor | null = null;
    const onCreated = (e: IDomEditor) => {
      editor = e;
    };
    const { rerenderUi } = renderUi(<LazyRichTextEditor value="<p>一</p>" onChange={onChange} onCreated={onCreated} />);
    await waitFor(() => expect(editor).not.toBeNull(), { timeout: 10_000 });
    rerenderUi(<LazyRichTextEditor value="<p>二</p>" onChange={onChange} onCreated={onCreated} />);
    await waitFor(() => expect(area().textContent).toContain('二'));
    await new Promise((r) => setTimeout(r, 20));
    expect(onChange).not.toHaveBeenCalled();
    // content changed inside the editor (here HTML with a script link and handlers, set on the instance)
    act(() => {
      (editor as unknown as IDomEditor).setHtml(
        '<p>三<a href="javascript:alert(1)" onclick="x()">链接</a><img src="/f/a.png" onerror="alert(1)"></p>',
      );
    });
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    const out = onChange.mock.lastCall?.[0] as string;
    expect(out).toContain('三');
    expect(out).not.toMatch(/script|onerror|onclick|javascript:/);
    expect(area().innerHTML).not.toContain('javascript:');
  });

  it('outputHtml: sanitised, and empty content gives an empty string', () => {
    expect(outputHtml({ isEmpty: () => true, getHtml: () => '<p><br></p>' })).toBe('');
    const out = outputHtml({
      isEmpty: () => false,
      getHtml: () => '<p style="color:red">文<script>alert(1)</script><img src="x" onerror="alert(1)"></p>',
    });
    expect(out).toBe('<p>文<img src="x"></p>');
  });

  it('offers only formats the server keeps (no colours, fonts, alignment, videos by address) and video upload', () => {
    for (const k of ['color', 'bgColor', 'fontSize', 'fontFamily', 'lineHeight', 'group-justify', 'insertVideo']) {
      expect(TOOLBAR_KEYS).not.toContain(k);
    }
    expect(TOOLBAR_KEYS).toContain('uploadImage');
    expect(TOOLBAR_KEYS).toContain('uploadVideo');
  });

  it('uploads a pasted image to /dev-api/common/upload (custom-fileName, bearer) and inserts the answered address', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok-7');
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const onChange = vi.fn();
    let editor: IDomEditor | null = null;
    renderUi(
      <LazyRichTextEditor
        value="<p>正文</p>"
        onChange={onChange}
        onCreated={(e) => {
          editor = e;
        }}
      />,
    );
    await waitFor(() => expect(editor).not.toBeNull(), { timeout: 10_000 });
    const ed = editor as unknown as IDomEditor;
    act(() => {
      ed.select(SlateEditor.end(ed, []));
      ed.insertData({
        getData: () => '',
        files: [new File([new Uint8Array(64)], '现场.png', { type: 'image/png' })],
      } as unknown as DataTransfer);
    });
    const xhr = await waitFor(() => {
      const x = FakeXhr.sent[0];
      if (!x) throw new Error('nothing sent');
      return x;
    });
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/dev-api/common/upload');
    expect(xhr.headers.Authorization).toBe('Bearer tok-7');
    expect(((xhr.body as FormData).get('custom-fileName') as File).name).toBe('现场.png');
    act(() => xhr.respond(200, { errno: 0, data: { url: '/ks/files/public/abc', alt: '现场.png', href: '' } }));
    await waitFor(() => expect(onChange.mock.lastCall?.[0]).toContain('src="/ks/files/public/abc"'));
  });

  it('a refused upload inserts nothing and shows the server message', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const onChange = vi.fn();
    let editor: IDomEditor | null = null;
    renderUi(
      <LazyRichTextEditor
        value="<p>正文</p>"
        onChange={onChange}
        onCreated={(e) => {
          editor = e;
        }}
      />,
    );
    await waitFor(() => expect(editor).not.toBeNull(), { timeout: 10_000 });
    const ed = editor as unknown as IDomEditor;
    act(() => {
      ed.select(SlateEditor.end(ed, []));
      ed.insertData({
        getData: () => '',
        files: [new File([new Uint8Array(64)], '伪装.png', { type: 'image/png' })],
      } as unknown as DataTransfer);
    });
    const xhr = await waitFor(() => {
      const x = FakeXhr.sent[0];
      if (!x) throw new Error('nothing sent');
      return x;
    });
    act(() => xhr.respond(400, { errno: 1, message: '文件内容与扩展名不符，请上传真实的文件' }));
    expect(await screen.findByText('文件内容与扩展名不符，请上传真实的文件')).toBeTruthy();
    expect(area().querySelector('img')).toBeNull();
  });
});

describe('video upload progress', () => {
  it('shows the percentage and cancels after asking; the dialog waits for the cancel', async () => {
    let finish: () => void = () => undefined;
    const cancel = vi.fn(() => new Promise<void>((r) => (finish = r)));
    renderUi(<VideoProgress percent={42.7} upload={{ name: '宣传片.mp4', cancel }} />);
    expect(screen.getByText('视频上传中 42%')).toBeTruthy();
    act(() => screen.getByTestId('editor-video-cancel').click());
    expect(await screen.findByText('确定取消上传「宣传片.mp4」吗？已上传的部分将被删除。')).toBeTruthy();
    expect(cancel).not.toHaveBeenCalled();
    act(() => screen.getByRole('button', { name: '确定' }).click());
    await waitFor(() => expect(cancel).toHaveBeenCalledTimes(1));
    // still open while the parts are being freed
    expect(screen.getByText('确定取消上传「宣传片.mp4」吗？已上传的部分将被删除。')).toBeTruthy();
    await act(async () => finish());
    await waitFor(() => expect(screen.queryByText('确定取消上传「宣传片.mp4」吗？已上传的部分将被删除。')).toBeNull());
  });

  it('keeps going when the question is answered 继续上传, and has no button without an upload', async () => {
    const cancel = vi.fn(async () => undefined);
    const { rerenderUi } = renderUi(<VideoProgress percent={5} upload={{ name: 'a.webm', cancel }} />);
    act(() => screen.getByTestId('editor-video-cancel').click());
    act(() => screen.getByRole('button', { name: '继续上传' }).click());
    await waitFor(() => expect(screen.queryByText(/确定取消上传/)).toBeNull());
    expect(cancel).not.toHaveBeenCalled();
    rerenderUi(<VideoProgress percent={5} />);
    expect(screen.queryByTestId('editor-video-cancel')).toBeNull();
  });
});
