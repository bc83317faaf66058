import { useState } from 'react';

/**
 * The create / edit dialog of a list: whether it is open and the record it edits (null: a new one). `props` go to the
 * dialog as they are (`open`, `record`, `onClose`, `onSaved`); a save closes it and refreshes the list. Closing keeps
 * the record until the next opening, so the dialog does not change under its closing animation.
 */
export function useEditDialog<R>(refresh: () => void) {
  const [state, setState] = useState<{ open: boolean; record: R | null }>({ open: false, record: null });
  const close = () => setState((s) => ({ ...s, open: false }));
  return {
    ...state,
    create: () => setState({ open: true, record: null }),
    edit: (record: R) => setState({ open: true, record }),
    props: {
      open: state.open,
      record: state.record,
      onClose: close,
      onSaved: () => {
        close();
        refresh();
      },
    },
  };
}

/**
 * A dialog about one row of a list (reset a password, assign roles …) — or any value a dialog opens with — the row it
 * is open for, or null when closed. `props` go to a dialog that takes `row`, `onClose` and `onSaved`; a save closes
 * it and refreshes the list.
 */
export function useRowDialog<R>(refresh: () => void) {
  const [row, setRow] = useState<R | null>(null);
  const close = () => setRow(null);
  const saved = () => {
    setRow(null);
    refresh();
  };
  return { row, open: (r: R) => setRow(r), close, saved, props: { row, onClose: close, onSaved: saved } };
}
