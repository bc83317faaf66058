import { Skeleton } from 'antd';
import { Suspense } from 'react';
import { lazyPage } from '../../lib/chunkLoad';
import type { RichTextEditorProps } from './types';

export type { RichTextEditorProps } from './types';

/**
 * The rich-text editor (screen 12) in its own chunk: the editor library (wangEditor) is loaded the first time a form
 * shows an `editor` field, never with the portal or with forms that have none. A failed load goes to the nearest
 * error boundary like a page chunk (120 s timeout).
 */
export const RichTextEditorChunk = lazyPage<RichTextEditorProps>(() => import('./RichTextEditor'));

export function LazyRichTextEditor(props: RichTextEditorProps) {
  return (
    <Suspense
      fallback={
        <div style={{ height: props.height ?? 450 }} data-testid="rich-text-loading">
          <Skeleton active paragraph={{ rows: 6 }} />
        </div>
      }
    >
      <RichTextEditorChunk {...props} />
    </Suspense>
  );
}
