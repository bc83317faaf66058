import { Msg } from '@ks/contracts';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Dialog, StatusIcon } from '../components/Dialog';
import { browser } from '../lib/browser';
import { chunkLoadPromptVisible, subscribeChunkLoad } from '../lib/chunkLoad';

export const RELOAD_TEXT = '刷新页面';

/** A route that failed to load shows its own reload page a moment after the event; give it that moment. */
const OPEN_DELAY_MS = 300;

/** Offers a reload when page code failed to load outside a route (see installPreloadErrorHandler). Plain CSS. */
export function ChunkLoadPrompt() {
  const wanted = useSyncExternalStore(subscribeChunkLoad, chunkLoadPromptVisible, chunkLoadPromptVisible);
  const [open, setOpen] = useState(false);
  const reloadRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!wanted) {
      setOpen(false);
      return;
    }
    const timer = setTimeout(() => setOpen(true), OPEN_DELAY_MS);
    return () => clearTimeout(timer);
  }, [wanted]);
  return (
    <Dialog
      open={open}
      width={440}
      zIndex={2100}
      initialFocus={reloadRef}
      title={
        <>
          <StatusIcon kind="warning" />
          {Msg.PROMPT_TITLE}
        </>
      }
      footer={
        <button
          ref={reloadRef}
          type="button"
          className="ks-btn ks-btn-primary"
          data-testid="chunk-reload"
          onClick={() => browser.reload()}
        >
          {RELOAD_TEXT}
        </button>
      }
    >
      <div className="ks-dialog-body" data-testid="chunk-load-prompt">
        {Msg.CHUNK_LOAD_FAILED}
      </div>
    </Dialog>
  );
}
