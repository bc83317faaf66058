import { wallClockOf } from '@ks/contracts';

/** Money in yuan with thousands separators, times as the platform's wall clock; empty shows as —. */
export const yuan = (n: number) => n.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const when = (iso: string | null) => (iso ? wallClockOf(iso) : '—');
