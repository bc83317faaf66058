import type { CSSProperties, ReactNode } from 'react';

export const EMPTY_TEXT = '暂无数据';

export interface EmptyProps {
  /** the message; default 暂无数据 (screen 2) */
  message?: ReactNode;
  /** below the message, e.g. a button */
  children?: ReactNode;
  /** smaller picture and spacing, for tables and cards */
  compact?: boolean;
  style?: CSSProperties;
  testId?: string;
}

/** An empty tray: the picture of an empty state, in plain markup. */
export function EmptyImage({ size = 64 }: { size?: number }) {
  return (
    <svg width={size} height={(size * 41) / 64} viewBox="0 0 64 41" aria-hidden focusable="false">
      <g fill="none" fillRule="evenodd" transform="translate(0 1)">
        <ellipse cx="32" cy="33" fill="#f1f3f7" rx="32" ry="7" />
        <g fillRule="nonzero" stroke="#d5dae3">
          <path d="M55 12.76 44.854 1.258C44.367.474 43.656 0 42.907 0H21.093c-.749 0-1.46.474-1.947 1.257L9 12.761V22h46z" />
          <path
            d="M41.613 15.931c0-1.605.994-2.93 2.227-2.931H55v18.137C55 33.26 53.68 35 52.05 35h-40.1C10.32 35 9 33.259 9 31.137V13h11.16c1.233 0 2.227 1.323 2.227 2.928v.022c0 1.605 1.005 2.901 2.237 2.901h14.752c1.232 0 2.237-1.308 2.237-2.913z"
            fill="#fafbfc"
          />
        </g>
      </g>
    </svg>
  );
}

/**
 * Empty-state placeholder (screen 2): a picture and a message, default 暂无数据. Plain markup, no UI kit, so the
 * light public portal can use it as well as the back office.
 */
export function Empty({ message = EMPTY_TEXT, children, compact = false, style, testId = 'empty' }: EmptyProps) {
  return (
    <div
      role="status"
      data-testid={testId}
      style={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: compact ? 6 : 10,
        padding: compact ? '16px 0' : '40px 0',
        color: '#909399',
        fontSize: 14,
        textAlign: 'center',
        ...style,
      }}
    >
      <EmptyImage size={compact ? 48 : 64} />
      <div data-testid={`${testId}-message`}>{message}</div>
      {children}
    </div>
  );
}
