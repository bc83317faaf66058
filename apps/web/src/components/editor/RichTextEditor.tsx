import '@wangeditor-next/editor/dist/css/style.css';
import { EDITOR_HEIGHT, EDITOR_PLACEHOLDER } from '@ks/contracts';
import {
  createEditor,
  createToolbar,
  type IDomEditor,
  type IEditorConfig,
  type IToolbarConfig,
  type Toolbar,
} from '@wangeditor-next/editor';
import { App, Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { sanitizeHtml } from '../../lib/sanitize';
import { UploadJob } from '../upload/uploader';
import type { RichTextEditorProps } from './types';
import { imageUploadConfig, type Notify, type VideoUpload, videoUploadConfig } from './upload';

/**
 * The rich-text editor (spec screen 12): wangEditor v5 through its maintained fork @wangeditor-next/editor (the
 * original package is no longer maintained; the fork keeps its API, including the upload settings the spec names:
 * field name custom-fileName, 5000 ms timeout, and the answer shape the server gives). It has no eval and no inline
 * script, so it runs under the app's CSP
 * (`script-src 'self'`). Height 450px, placeholder 请填写内容.
 *
 * Only formats that survive the server's sanitiser are offered (it keeps no style attributes): headings, quotes,
 * bold / italic / underline / strike, sub- and superscript, lists, links, tables, code, dividers, uploaded images and uploaded videos (chunked, to the configured storage).
 * HTML going in (initial value, setHtml, paste) and coming out (onChange) passes through the app's DOMPurify
 * sanitiser; an empty editor gives ''.
 */

export { EDITOR_HEIGHT, EDITOR_PLACEHOLDER };

export const TOOLBAR_KEYS = [
  'headerSelect',
  'blockquote',
  '|',
  'bold',
  'italic',
  'underline',
  'through',
  'sup',
  'sub',
  'code',
  'clearStyle',
  '|',
  'bulletedList',
  'numberedList',
  '|',
  'insertLink',
  'uploadImage',
  'uploadVideo',
  'insertTable',
  'codeBlock',
  'divider',
  '|',
  'undo',
  'redo',
  '|',
  'fullScreen',
];

const VIDEO_PROGRESS_KEY = 'editor-video-upload';
export const VIDEO_UPLOADING = '视频上传中 ';
/** The question before a video upload is cancelled (as the attachment uploader asks it). */
export const cancelQuestion = (name: string) => `确定取消上传「${name}」吗？已上传的部分将被删除。`;

/** A video upload's progress message: the percentage, and 取消上传 (asked first; the dialog waits for the cancel). */
export function VideoProgress({ percent, upload }: { percent: number; upload?: VideoUpload }) {
  const { modal } = App.useApp();
  return (
    <span>
      {`${VIDEO_UPLOADING}${Math.floor(percent)}%`}
      {upload ? (
        <Button
          type="link"
          size="small"
          data-testid="editor-video-cancel"
          onClick={() =>
            modal.confirm({
              title: '取消上传',
              content: cancelQuestion(upload.name),
              okText: '确定',
              cancelText: '继续上传',
              onOk: () => upload.cancel(),
            })
          }
        >
          取消上传
        </Button>
      ) : null}
    </span>
  );
}

export const TOOLBAR_CONFIG: Partial<IToolbarConfig> = { toolbarKeys: TOOLBAR_KEYS, modalAppendToBody: false };

/** The HTML an editor hands out: sanitised, '' when it holds nothing. */
export function outputHtml(editor: Pick<IDomEditor, 'isEmpty' | 'getHtml'>): string {
  return editor.isEmpty() ? '' : sanitizeHtml(editor.getHtml());
}

export interface EditorHandlers {
  placeholder: string;
  onChange: (editor: IDomEditor) => void;
  onBlur: (editor: IDomEditor) => void;
  /** a message for the user (upload failures, the editor's own alerts) */
  notify: Notify;
  /** a video upload's progress in percent (and the upload, to cancel it), null when it has ended */
  onVideoProgress?: (percent: number | null, upload?: VideoUpload) => void;
}

const createVideoJob = (file: File, options: ConstructorParameters<typeof UploadJob>[1]) =>
  new UploadJob(file, options);

/** The editor's configuration: placeholder, sanitising, image upload (upload.ts). */
export function editorConfig(h: EditorHandlers): Partial<IEditorConfig> {
  return {
    placeholder: h.placeholder,
    scroll: true,
    sanitizeHtml,
    onChange: h.onChange,
    onBlur: h.onBlur,
    customAlert: (info, type) => h.notify(info, type === 'error' || type === 'warning' ? type : 'info'),
    MENU_CONF: {
      uploadImage: imageUploadConfig(h.notify),
      uploadVideo: videoUploadConfig(h.notify, h.onVideoProgress ?? (() => undefined), createVideoJob),
    },
  };
}

export default function RichTextEditor({
  value,
  onChange,
  onBlur,
  disabled = false,
  placeholder = EDITOR_PLACEHOLDER,
  height = EDITOR_HEIGHT,
  onCreated,
  'data-testid': testId = 'rich-text-editor',
}: RichTextEditorProps) {
  const { message } = App.useApp();
  const toolbarHost = useRef<HTMLDivElement>(null);
  const editorHost = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<IDomEditor | null>(null);
  /** the HTML last handed out (or taken in), so a value that comes back from the parent is not set again */
  const emitted = useRef<string>(value ?? '');
  const latest = useRef({ onChange, onBlur, onCreated, value, disabled, notify: message });
  latest.current = { onChange, onBlur, onCreated, value, disabled, notify: message };

  useEffect(() => {
    let created: IDomEditor | null = null;
    let toolbar: Toolbar | null = null;
    // created on the next task: StrictMode's mount-unmount-mount then creates one editor, not two
    const timer = setTimeout(() => {
      if (!editorHost.current || !toolbarHost.current) return;
      created = createEditor({
        selector: editorHost.current,
        html: sanitizeHtml(latest.current.value ?? ''),
        mode: 'default',
        config: editorConfig({
          placeholder,
          onChange: (e) => {
            const html = outputHtml(e);
            if (html === emitted.current) return;
            emitted.current = html;
            latest.current.onChange?.(html);
          },
          onBlur: () => latest.current.onBlur?.(),
          notify: (text, type) => void latest.current.notify[type](text),
          onVideoProgress: (percent, upload) => {
            if (percent === null) latest.current.notify.destroy(VIDEO_PROGRESS_KEY);
            else
              void latest.current.notify.open({
                key: VIDEO_PROGRESS_KEY,
                type: 'loading',
                content: <VideoProgress percent={percent} upload={upload} />,
                duration: 0,
              });
          },
        }),
      });
      // the content it starts with is not a change of the user's
      emitted.current = outputHtml(created);
      toolbar = createToolbar({
        editor: created,
        selector: toolbarHost.current,
        mode: 'default',
        config: TOOLBAR_CONFIG,
      });
      if (latest.current.disabled) created.disable();
      setEditor(created);
      latest.current.onCreated?.(created);
    }, 0);
    return () => {
      clearTimeout(timer);
      toolbar?.destroy();
      created?.destroy();
    };
  }, [placeholder]);

  // a new value from outside (another record, a reset) replaces the content
  useEffect(() => {
    if (!editor) return;
    const next = value ?? '';
    if (next === emitted.current || (next === '' && editor.isEmpty())) return;
    editor.setHtml(sanitizeHtml(next));
    // content set from outside is not handed back as a change
    emitted.current = outputHtml(editor);
  }, [editor, value]);

  useEffect(() => {
    if (!editor) return;
    if (disabled) editor.disable();
    else editor.enable();
  }, [editor, disabled]);

  return (
    <div
      data-testid={testId}
      style={{ border: '1px solid #d9d9d9', borderRadius: 6, overflow: 'hidden', background: '#fff' }}
    >
      <div ref={toolbarHost} style={{ borderBottom: '1px solid #d9d9d9' }} data-testid={`${testId}-toolbar`} />
      <div ref={editorHost} style={{ height, overflowY: 'hidden' }} data-testid={`${testId}-area`} />
    </div>
  );
}
