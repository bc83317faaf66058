import { dateIn, dateTimeIn } from '@ks/contracts';

/**
 * Display formats (amounts in yuan arrive as decimal strings; times as ISO strings). Times read in the platform's zone
 * (APP_TZ, from index.html), so every visitor sees the trading centre's clock, wherever their browser is.
 */

const YI = 100_000_000;
const WAN = 10_000;

function trimZeros(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** A headline amount: 亿元 from 100 million, 万元 from 10 thousand, else 元; at most two decimals. */
export function formatYuanShort(value: string | number | null | undefined): { value: string; unit: string } {
  const n = typeof value === 'number' ? value : Number(value);
  if (value === null || value === undefined || value === '' || !Number.isFinite(n)) return { value: '0', unit: '元' };
  const abs = Math.abs(n);
  if (abs >= YI) return { value: trimZeros((n / YI).toFixed(2)), unit: '亿元' };
  if (abs >= WAN) return { value: trimZeros((n / WAN).toFixed(2)), unit: '万元' };
  return { value: trimZeros(n.toFixed(2)), unit: '元' };
}

/** A full amount with thousands separators, exact (string arithmetic): "1234567.5" → "1,234,567.50 元". */
export function formatYuan(value: string | null | undefined): string | null {
  if (!value) return null;
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return null;
  const int = m[2].replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const dec = (m[3] ?? '').padEnd(2, '0').slice(0, 2);
  return `${m[1]}${int}.${dec} 元`;
}

/** An amount in yuan given as a number, with thousands separators and two decimals: 1234567.5 → "1,234,567.50". */
export function formatMoney(n: number | null | undefined): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '';
  const text = formatYuan(n.toFixed(2));
  return text ? text.slice(0, -2) : '';
}

/** Whole numbers with thousands separators. */
export function formatCount(n: number | null | undefined): string {
  return typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('zh-CN') : '0';
}

const isInstant = (value: string) => !Number.isNaN(new Date(value).getTime());

/** YYYY-MM-DD in the platform's zone; a plain date string is kept as it is. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  return isInstant(value) ? dateIn(value) : value;
}

/** YYYY-MM-DD HH:mm in the platform's zone. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  return isInstant(value) ? dateTimeIn(value) : value;
}
