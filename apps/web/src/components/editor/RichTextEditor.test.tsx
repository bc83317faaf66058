import { act, screen, waitFor } from '@testing-library/react';
import type { IDomEditor } from '@wangeditor-next/editor';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { renderUi } from '../../engine/list/test-utils';
import { createFakeServer } from '../../test/server';
import { LazyRichTextEditor } from './LazyRichTextEditor';
import { EDITOR_HEIGHT, EDITOR_PLACEHOLDER, editorConfig, outputHtml, TOOLBAR_KEYS } from './RichTextEditor';

afterEach(() => {
  configureRequest();
  vi.useRealTimers();
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

  it('offers only formats the server keeps (no colours, fonts, alignment, videos)', () => {
    for (const k of [
      'color',
      'bgColor',
      'fontSize',
      'fontFamily',
      'lineHeight',
      'group-justify',
      'insertVideo',
      'uploadVideo',
    ]) {
      expect(TOOLBAR_KEYS).not.toContain(k);
    }
    expect(TOOLBAR_KEYS).toContain('uploadImage');
  });

  it('uploads images with the spec settings and inserts the returned address; failures are told', async () => {
    const server = createFakeServer({
      'POST /dev-api/common/upload': () => ({ data: { url: '/files/现场.png' } }),
    });
    configureRequest({ transport: server.transport, effects: { getToken: () => 't', prompt: vi.fn() } });
    const notify = vi.fn();
    const config = editorConfig({ placeholder: '请填写内容', onChange: vi.fn(), onBlur: vi.fn(), notify });
    const upload = config.MENU_CONF?.uploadImage;
    expect(upload).toMatchObject({
      server: '/dev-api/common/upload',
      fieldName: 'custom-fileName',
      timeout: 5000,
      allowedFileTypes: ['image/jpeg', 'image/png', 'image/webp'],
    });
    const insert = vi.fn();
    const customUpload = upload?.customUpload as (file: File, insert: (...a: string[]) => void) => Promise<void>;
    await customUpload(new File(['x'], '现场.png', { type: 'image/png' }), insert);
    expect(insert).toHaveBeenCalledWith('/files/现场.png', '现场', '');
    await customUpload(new File(['x'], '说明.pdf', { type: 'application/pdf' }), insert);
    expect(insert).toHaveBeenCalledTimes(1);
    expect(notify).toHaveBeenCalledWith('请上传图片（jpg、png、jpeg、jpe、webp格式）', 'warning');
  });

  it('a timed-out upload tells 当前网络拥堵，请重新上传！ after 1.5 s', async () => {
    vi.useFakeTimers();
    configureRequest({ transport: () => new Promise(() => {}), effects: { getToken: () => 't', prompt: vi.fn() } });
    const notify = vi.fn();
    const config = editorConfig({ placeholder: '', onChange: vi.fn(), onBlur: vi.fn(), notify });
    const customUpload = config.MENU_CONF?.uploadImage?.customUpload as unknown as (
      f: File,
      i: () => void,
    ) => Promise<void>;
    const done = customUpload(new File(['x'], 'a.png', { type: 'image/png' }), vi.fn());
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    await done;
    expect(notify).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1500);
    });
    expect(notify).toHaveBeenCalledWith('当前网络拥堵，请重新上传！', 'error');
  });
});
