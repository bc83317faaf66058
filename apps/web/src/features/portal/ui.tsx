import { PAGE_SIZES, PORTAL_KEYWORD_MAX } from '@ks/contracts';
import { type FormEvent, type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';
import { Link } from 'react-router';

/** Light building blocks of the portal (plain React + portal.css; the portal loads no UI kit). */

export interface Crumb {
  label: string;
  to?: string;
}

export function Breadcrumb({ items }: { items: Crumb[] }) {
  return (
    <nav className="kp-breadcrumb" aria-label="面包屑" data-testid="breadcrumb">
      <ol>
        {items.map((c, i) => {
          const last = i === items.length - 1;
          return (
            <li key={c.label}>
              {c.to && !last ? (
                <Link to={c.to}>{c.label}</Link>
              ) : (
                <span aria-current={last ? 'page' : undefined}>{c.label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

export function Empty({ text = '暂无数据', testId = 'empty' }: { text?: string; testId?: string }) {
  return (
    <div className="kp-empty" data-testid={testId}>
      <svg width="64" height="41" viewBox="0 0 64 41" aria-hidden>
        <g fill="none" fillRule="evenodd" transform="translate(0 1)">
          <ellipse cx="32" cy="33" fill="#f0f2f5" rx="32" ry="7" />
          <g fillRule="nonzero" stroke="#d3d9e4">
            <path d="M55 12.8 44.9 1.3A2.6 2.6 0 0 0 43 .5H21c-.7 0-1.4.3-1.9.8L9 12.8V22h46z" />
            <path
              d="M41.6 16c0-1.7 1-3 2.2-3H55v18.1c0 2.1-1.3 3.9-3 3.9H12c-1.7 0-3-1.8-3-3.9V13h11.2c1.2 0 2.2 1.3 2.2 3s1 2.9 2.2 2.9h14.8c1.2 0 2.2-1.4 2.2-3z"
              fill="#fafbfc"
            />
          </g>
        </g>
      </svg>
      <p>{text}</p>
    </div>
  );
}

/** Grey placeholder bars shown while data loads. */
export function SkeletonLines({ rows = 5, testId = 'skeleton' }: { rows?: number; testId?: string }) {
  return (
    <div className="kp-skeleton" data-testid={testId} role="status" aria-busy="true" aria-label="加载中">
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <span key={i} className="kp-skeleton-line" style={{ width: `${92 - ((i * 17) % 35)}%` }} />
      ))}
    </div>
  );
}

export function ErrorState({ text = '数据加载失败', onRetry }: { text?: string; onRetry: () => void }) {
  return (
    <div className="kp-empty kp-error" data-testid="load-error">
      <p>{text}</p>
      <button type="button" className="ks-btn" onClick={onRetry}>
        重新加载
      </button>
    </div>
  );
}

export interface TabItem<K extends string> {
  key: K;
  label: string;
}

/** Tabs with the WAI-ARIA tab pattern (arrow keys move between tabs). */
export function Tabs<K extends string>({
  items,
  active,
  onChange,
  label,
  testId,
  extra,
}: {
  items: TabItem<K>[];
  active: K;
  onChange: (key: K) => void;
  label: string;
  testId?: string;
  extra?: ReactNode;
}) {
  const baseId = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    let next = -1;
    if (e.key === 'ArrowRight') next = (index + 1) % items.length;
    else if (e.key === 'ArrowLeft') next = (index - 1 + items.length) % items.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = items.length - 1;
    if (next < 0) return;
    e.preventDefault();
    onChange(items[next].key);
    refs.current[next]?.focus();
  };
  return (
    <div className="kp-tabs-bar">
      <div className="kp-tabs" role="tablist" aria-label={label} data-testid={testId}>
        {items.map((t, i) => {
          const selected = t.key === active;
          return (
            <button
              key={t.key}
              ref={(el) => {
                refs.current[i] = el;
              }}
              id={`${baseId}-${i}`}
              type="button"
              role="tab"
              aria-selected={selected}
              tabIndex={selected ? 0 : -1}
              className={selected ? 'kp-tab is-active' : 'kp-tab'}
              onClick={() => onChange(t.key)}
              onKeyDown={(e) => onKeyDown(e, i)}
            >
              {t.label}
            </button>
          );
        })}
      </div>
      {extra}
    </div>
  );
}

/** One choice among options, as a row of toggle chips with 全部 first. */
export function ChipGroup<V extends string>({
  label,
  options,
  value,
  onChange,
  testId,
}: {
  label: string;
  options: readonly (V | { label: string; value: V })[];
  value: V | undefined;
  onChange: (value: V | undefined) => void;
  testId: string;
}) {
  const items = options.map((o) => (typeof o === 'string' ? { label: o, value: o } : o));
  return (
    <fieldset className="kp-filter-row kp-fieldset" aria-label={label} data-testid={testId}>
      <span className="kp-filter-label" aria-hidden>
        {label}：
      </span>
      <div className="kp-chips">
        <button
          type="button"
          className={value === undefined ? 'kp-chip is-active' : 'kp-chip'}
          aria-pressed={value === undefined}
          onClick={() => onChange(undefined)}
        >
          全部
        </button>
        {items.map((o) => (
          <button
            key={o.value}
            type="button"
            className={value === o.value ? 'kp-chip is-active' : 'kp-chip'}
            aria-pressed={value === o.value}
            onClick={() => onChange(o.value)}
          >
            {o.label}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

type PageItem = number | 'prev-more' | 'next-more';

/** Page numbers to show: first, last, and two either side of the current one, with gaps as "…". */
export function pageItems(current: number, pages: number): PageItem[] {
  if (pages <= 7) return Array.from({ length: pages }, (_, i) => i + 1);
  const items: PageItem[] = [1];
  let from = Math.max(2, Math.min(current - 2, pages - 5));
  let to = Math.min(pages - 1, Math.max(current + 2, 6));
  // a gap of a single page shows that page rather than "…"
  if (from === 3) from = 2;
  if (to === pages - 2) to = pages - 1;
  if (from > 2) items.push('prev-more');
  for (let p = from; p <= to; p++) items.push(p);
  if (to < pages - 1) items.push('next-more');
  items.push(pages);
  return items;
}

/** Pager (spec §9 layout: total, sizes, prev, pager, next, jumper; sizes 10/20/30/50). */
export function Pagination({
  total,
  pageNum,
  pageSize,
  onChange,
  totalLabel,
}: {
  total: number;
  pageNum: number;
  pageSize: number;
  onChange: (pageNum: number, pageSize: number) => void;
  /** how the total reads when it is not the exact number (a count that stopped at a cap: "1000+") */
  totalLabel?: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(pageNum, pages);
  const [jump, setJump] = useState('');
  const go = (p: number) => {
    const target = Math.min(Math.max(1, p), pages);
    if (target !== current) onChange(target, pageSize);
  };
  const onJump = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(jump);
    setJump('');
    if (Number.isInteger(n) && n >= 1) go(n);
  };
  return (
    <nav className="kp-pagination" aria-label="分页" data-testid="pagination">
      <span className="kp-pagination-total" data-testid="pagination-total">
        共 {totalLabel ?? total} 条
      </span>
      <select
        className="kp-select kp-pagination-size"
        aria-label="每页条数"
        value={pageSize}
        onChange={(e) => onChange(1, Number(e.target.value))}
      >
        {PAGE_SIZES.map((s) => (
          <option key={s} value={s}>
            {s} 条/页
          </option>
        ))}
      </select>
      <button
        type="button"
        className="kp-pager-btn"
        aria-label="上一页"
        disabled={current <= 1}
        onClick={() => go(current - 1)}
      >
        ‹
      </button>
      {pageItems(current, pages).map((p) =>
        typeof p === 'number' ? (
          <button
            key={p}
            type="button"
            className={p === current ? 'kp-pager-btn is-active' : 'kp-pager-btn'}
            aria-label={`第 ${p} 页`}
            aria-current={p === current ? 'page' : undefined}
            onClick={() => go(p)}
          >
            {p}
          </button>
        ) : (
          <button
            key={p}
            type="button"
            className="kp-pager-btn kp-pager-more"
            aria-label={p === 'prev-more' ? '向前 5 页' : '向后 5 页'}
            onClick={() => go(p === 'prev-more' ? current - 5 : current + 5)}
          >
            …
          </button>
        ),
      )}
      <button
        type="button"
        className="kp-pager-btn"
        aria-label="下一页"
        disabled={current >= pages}
        onClick={() => go(current + 1)}
      >
        ›
      </button>
      <form className="kp-pagination-jump" onSubmit={onJump}>
        <label>
          跳至
          <input
            className="kp-input"
            inputMode="numeric"
            aria-label="跳至页码"
            value={jump}
            onChange={(e) => setJump(e.target.value.replace(/\D/g, '').slice(0, 6))}
          />
          页
        </label>
      </form>
    </nav>
  );
}

const GRADE_CLASS: Record<string, string> = { AAA: 'g-aaa', AA: 'g-aa', A: 'g-a', B: 'g-b', C: 'g-c' };

export function GradeTag({ grade }: { grade: string | null | undefined }) {
  if (!grade) return <span className="kp-muted">—</span>;
  return (
    <span className={`kp-grade ${GRADE_CLASS[grade] ?? ''}`} data-testid="credit-grade">
      {grade}
    </span>
  );
}

export function Tag({
  children,
  tone = 'blue',
  testId,
}: {
  children: ReactNode;
  tone?: 'blue' | 'green' | 'orange' | 'gray';
  testId?: string;
}) {
  return (
    <span className={`kp-tag kp-tag-${tone}`} data-testid={testId}>
      {children}
    </span>
  );
}

/** The keyword box with 搜索 / 重置 used by the portal's filter panels. */
export function KeywordForm({
  className,
  label,
  placeholder,
  value,
  onChange,
  onSubmit,
  onReset,
}: {
  className: string;
  label?: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  onReset: () => void;
}) {
  return (
    <form className={className} onSubmit={onSubmit}>
      {label ? <span className="kp-filter-label">{label}</span> : null}
      <input
        type="search"
        className="kp-input"
        placeholder={placeholder}
        aria-label="关键字"
        maxLength={PORTAL_KEYWORD_MAX}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid="filter-keyword"
      />
      <button type="submit" className="ks-btn ks-btn-primary" data-testid="filter-search">
        搜索
      </button>
      <button type="button" className="ks-btn" onClick={onReset} data-testid="filter-reset">
        重置
      </button>
    </form>
  );
}
