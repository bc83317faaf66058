import type { KeyboardEvent, ReactNode } from 'react';

/** The square icon at the left of a business system's card (系统选择 and 首页). */
export function TileIcon({ background, children }: { background: string; children: ReactNode }) {
  return (
    <span
      style={{
        flex: 'none',
        width: 44,
        height: 44,
        borderRadius: 10,
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        fontSize: 22,
        color: '#fff',
        background,
      }}
    >
      {children}
    </span>
  );
}

/** A card that acts as a button: Enter or Space presses it, as a click does. */
export const pressOnKey = (press: () => void) => (e: KeyboardEvent) => {
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    press();
  }
};
