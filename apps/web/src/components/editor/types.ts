import type { IDomEditor } from '@wangeditor-next/editor';

/** Props of the rich-text editor (screen 12); the lazy wrapper and the editor share them. */
export interface RichTextEditorProps {
  /** HTML */
  value?: string | null;
  /** sanitised HTML; '' when the editor holds no content */
  onChange?: (html: string) => void;
  onBlur?: () => void;
  disabled?: boolean;
  /** default 请填写内容 */
  placeholder?: string;
  /** default 450 (px) */
  height?: number;
  /** the editor instance once created (to focus it, insert content …); it is destroyed on unmount */
  onCreated?: (editor: IDomEditor) => void;
  'data-testid'?: string;
}
