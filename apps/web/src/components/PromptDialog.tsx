import { Msg } from '@ks/contracts';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Dialog, StatusIcon } from './Dialog';
import { confirmPrompt, currentPrompt, subscribePrompt } from './prompt';

/** Label of the prompt's one button, written with the space as the spec does. */
export const PROMPT_OK_TEXT = '确 定';

/**
 * The global prompt dialog (spec screen 22). Mounted once at the root; shows the queue filled by `prompt()`
 * one item at a time. Enter confirms. Plain CSS, so it works on every page (the portal loads no UI kit) and even
 * when further page code cannot be loaded.
 */
export function PromptHost() {
  const item = useSyncExternalStore(subscribePrompt, currentPrompt, currentPrompt);
  const okRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!item) return;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Enter' || e.isComposing) return;
      e.preventDefault();
      e.stopPropagation();
      confirmPrompt(item.id);
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [item]);

  const warning = item?.type === 1;
  return (
    <Dialog
      open={item !== null}
      initialFocus={okRef}
      title={
        <>
          <StatusIcon
            kind={warning ? 'warning' : 'info'}
            testId={warning ? 'prompt-icon-warning' : 'prompt-icon-info'}
          />
          {Msg.PROMPT_TITLE}
        </>
      }
      footer={
        <button
          ref={okRef}
          type="button"
          className="ks-btn ks-btn-primary"
          data-testid="prompt-ok"
          onClick={() => item && confirmPrompt(item.id)}
        >
          {PROMPT_OK_TEXT}
        </button>
      }
    >
      <div className="ks-dialog-body" data-testid="prompt-dialog" data-prompt-type={item?.type}>
        {item?.message ?? Msg.PROMPT_DEFAULT}
      </div>
    </Dialog>
  );
}
