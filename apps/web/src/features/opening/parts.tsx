import { formatIn, OPENING_STATUS_LABELS, type OpeningHall, type OpeningStatus } from '@ks/contracts';
import { Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';

/** Pieces shared by the opening pages (issue 17). */

export const TITLE = '开标大厅';
export const SECTION = { title: '开评标' } as const;

export const ROLE_LABELS: Record<OpeningHall['role'], string> = {
  host: '主持人',
  bidder: '投标人',
  viewer: '监督查看',
};

const STATUS_COLORS: Record<OpeningStatus, string> = {
  waiting: 'default',
  decrypting: 'processing',
  reading: 'orange',
  confirming: 'gold',
  closed: 'success',
  failed: 'error',
};

export function StatusTag({ status, testId }: { status: OpeningStatus; testId?: string }) {
  return (
    <Tag color={STATUS_COLORS[status]} data-testid={testId} style={{ marginInlineEnd: 0 }}>
      {OPENING_STATUS_LABELS[status]}
    </Tag>
  );
}

/** An instant to the second in the trading centre's zone. */
export const formatSeconds = (iso: string | null | undefined) => (iso ? formatIn(iso, 'YYYY-MM-DD HH:mm:ss') : '');

/** 1 天 02:03:04, or 02:03:04 */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const two = (n: number) => String(n).padStart(2, '0');
  const hms = `${two(Math.floor((total % 86_400) / 3600))}:${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}`;
  return days > 0 ? `${days} 天 ${hms}` : hms;
}

/**
 * A countdown to `target` by the server's clock (`offset`: the server's time minus the browser's when the hall was
 * read), ticking each second; `onZero` once when it runs out while shown.
 */
export function Countdown({
  target,
  offset,
  onZero,
  testId,
}: {
  target: string;
  offset: number;
  onZero: () => void;
  testId?: string;
}) {
  const end = Date.parse(target);
  const [now, setNow] = useState(() => Date.now() + offset);
  useEffect(() => {
    setNow(Date.now() + offset);
    const id = setInterval(() => setNow(Date.now() + offset), 1000);
    return () => clearInterval(id);
  }, [offset]);
  const left = end - now;
  const zero = useRef(onZero);
  zero.current = onZero;
  const fired = useRef(left <= 0);
  useEffect(() => {
    if (left > 0) fired.current = false;
    else if (!fired.current) {
      fired.current = true;
      zero.current();
    }
  }, [left]);
  return (
    <span data-testid={testId} style={{ fontVariantNumeric: 'tabular-nums', fontWeight: 600 }}>
      {formatRemaining(left)}
    </span>
  );
}
