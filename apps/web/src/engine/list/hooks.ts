import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@ks/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ACTION_LOCK_MS, PAGER_SESSION_KEY } from './constants';

/** A ref that always holds the latest value, so memoised callbacks and columns need not depend on it. */
export function useLatest<T>(value: T) {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}

/** Leading-edge throttle: the first call runs, further calls within `ms` are dropped. Stable identity. */
export function useThrottledCallback<A extends unknown[]>(fn: (...args: A) => void, ms: number) {
  const latest = useLatest(fn);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(
    (...args: A) => {
      if (timer.current) return;
      timer.current = setTimeout(() => {
        timer.current = null;
      }, ms);
      latest.current(...args);
    },
    [ms, latest],
  );
}

/** Trailing debounce: runs `ms` after the last call. Stable identity; a pending call is dropped on unmount. */
export function useDebouncedCallback<A extends unknown[]>(fn: (...args: A) => void, ms: number) {
  const latest = useLatest(fn);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(
    (...args: A) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        timer.current = null;
        latest.current(...args);
      }, ms);
    },
    [ms, latest],
  );
}

/**
 * Per-key click locks (§9: action buttons locked 1 s after a click). `run(key, fn)` runs fn unless the key is
 * locked, then locks it for `ms`; `locked` lists the keys locked now, for rendering.
 */
export function useActionLock(ms = ACTION_LOCK_MS) {
  const [locked, setLocked] = useState<ReadonlySet<string>>(() => new Set());
  const lockedRef = useRef(new Set<string>());
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const t of pending) clearTimeout(t);
      pending.clear();
    };
  }, []);
  const run = useCallback(
    (key: string, fn: () => void) => {
      if (lockedRef.current.has(key)) return;
      lockedRef.current.add(key);
      setLocked(new Set(lockedRef.current));
      const t = setTimeout(() => {
        timers.current.delete(t);
        lockedRef.current.delete(key);
        setLocked(new Set(lockedRef.current));
      }, ms);
      timers.current.add(t);
      fn();
    },
    [ms],
  );
  return { locked, run };
}

// ── pager state persisted in sessionStorage (§9: "state persisted as pager") ──────────────────────────────────

export interface PagerState {
  pageNum: number;
  pageSize: number;
}

function readAll(): Record<string, PagerState> {
  try {
    const raw = sessionStorage.getItem(PAGER_SESSION_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, PagerState>) : {};
  } catch {
    return {};
  }
}

/** The pager saved under `persistKey`, checked (page ≥ 1, a size of PAGE_SIZES), or null. */
export function readPager(persistKey: string | undefined): PagerState | null {
  if (!persistKey) return null;
  const saved = readAll()[persistKey];
  if (!saved || typeof saved !== 'object') return null;
  const pageNum = Number(saved.pageNum);
  const pageSize = Number(saved.pageSize);
  if (!Number.isInteger(pageNum) || pageNum < 1) return null;
  return {
    pageNum,
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}

export function writePager(persistKey: string | undefined, state: PagerState): void {
  if (!persistKey) return;
  try {
    const all = readAll();
    all[persistKey] = { pageNum: state.pageNum, pageSize: state.pageSize };
    sessionStorage.setItem(PAGER_SESSION_KEY, JSON.stringify(all));
  } catch {
    // storage full or unavailable: the pager simply is not remembered
  }
}

/**
 * A page's pager state, starting from the one saved under `persistKey` (else page 1, DEFAULT_PAGE_SIZE). Pass it
 * with its setter to DynamicTable, which saves every change.
 */
export function usePersistedPager(persistKey?: string) {
  const [pager, setPager] = useState<PagerState>(
    () => readPager(persistKey) ?? { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE },
  );
  const onPage = useCallback((pageNum: number, pageSize: number) => setPager({ pageNum, pageSize }), []);
  return [pager, onPage] as const;
}
