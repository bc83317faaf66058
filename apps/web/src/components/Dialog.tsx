import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  children: ReactNode;
  footer: ReactNode;
  zIndex?: number;
  width?: number;
  /** Receives the focus when the dialog opens (typically its one button). */
  initialFocus?: RefObject<HTMLElement | null>;
}

/**
 * A small modal dialog in plain CSS (no UI kit), for the global dialogs that must work on every page, the light
 * portal included. Not closable by the mask or Escape: the footer decides. Focus moves in on open and back on close.
 */
export function Dialog({ open, title, children, footer, zIndex = 2000, width = 420, initialFocus }: DialogProps) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    (initialFocus?.current ?? panelRef.current)?.focus();
    return () => {
      if (previous?.isConnected) previous.focus();
    };
  }, [open, initialFocus]);

  if (!open) return null;
  return createPortal(
    <div style={{ position: 'fixed', inset: 0, zIndex }}>
      <div className="ks-dialog-mask" />
      <div className="ks-dialog-wrap">
        <div
          ref={panelRef}
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          tabIndex={-1}
          className="ks-dialog"
          style={{ maxWidth: width }}
        >
          <h2 id={titleId} className="ks-dialog-title">
            {title}
          </h2>
          {children}
          <div className="ks-dialog-footer">{footer}</div>
        </div>
      </div>
    </div>,
    document.body,
  );
}

/** The filled "!" circle of warnings (amber) and the "i" circle of information (brand blue). */
export function StatusIcon({ kind, testId }: { kind: 'warning' | 'info'; testId?: string }) {
  const color = kind === 'warning' ? '#faad14' : '#1362fc';
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden data-testid={testId} style={{ flex: 'none' }}>
      <circle cx="10" cy="10" r="10" fill={color} />
      {kind === 'warning' ? (
        <>
          <rect x="9" y="4.5" width="2" height="7.5" rx="1" fill="#fff" />
          <circle cx="10" cy="14.6" r="1.2" fill="#fff" />
        </>
      ) : (
        <>
          <circle cx="10" cy="5.6" r="1.2" fill="#fff" />
          <rect x="9" y="8" width="2" height="7.5" rx="1" fill="#fff" />
        </>
      )}
    </svg>
  );
}
