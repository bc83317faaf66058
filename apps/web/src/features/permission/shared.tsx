import type { UserBrief } from '@ks/contracts';
import { Select } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { searchUsers } from '../../api/permission';

export const permissConfigUrl = (subjectType: 'role' | 'user', subjectId: string, systemCoding?: string | null) => {
  const q = new URLSearchParams({ subjectType, subjectId });
  if (systemCoding) q.set('systemCoding', systemCoding);
  return `/system/permissConfig?${q.toString()}`;
};

// ── users ───────────────────────────────────────────────────────────────────

export const userLabel = (u: UserBrief) =>
  `${u.userName}（${u.account}）${u.enterpriseName ? ` · ${u.enterpriseName}` : ''}`;

export const USER_SEARCH_PAGE_SIZE = 50;
const SEARCH_DEBOUNCE_MS = 300;

/**
 * The users a page has met (search results, members), so that selected ids show names. `silent` searches leave
 * a refusal (403 for non-administrators) to the page instead of the prompt dialog.
 */
export function useUserDirectory({ silent = false, prime = false }: { silent?: boolean; prime?: boolean } = {}) {
  const [known, setKnown] = useState<Map<string, UserBrief>>(() => new Map());
  const [error, setError] = useState<string | null>(null);
  const remember = useCallback((users: readonly UserBrief[]) => {
    if (users.length === 0) return;
    setKnown((prev) => {
      const next = new Map(prev);
      for (const u of users) next.set(u.id, u);
      return next;
    });
  }, []);
  const search = useCallback(
    async (keyword: string) => {
      try {
        const page = await searchUsers(
          { keyword: keyword.trim() || undefined, pageNum: 1, pageSize: USER_SEARCH_PAGE_SIZE },
          silent,
        );
        setError(null);
        remember(page.records);
        return page.records;
      } catch (err) {
        setError(err instanceof Error ? err.message : '查询用户失败');
        return [];
      }
    },
    [silent, remember],
  );
  // the first page of users, so that saved reviewer ids show names without a search
  useEffect(() => {
    if (prime) void search('');
  }, [prime, search]);
  return { known, remember, search, error };
}

export type UserDirectory = ReturnType<typeof useUserDirectory>;

/** A user search Select (single or multiple), valued by user id. */
export function UserSelect({
  directory,
  value,
  onChange,
  multiple = false,
  placeholder = '输入账号或姓名查找用户',
  testId,
  width = 320,
  disabled = false,
}: {
  directory: UserDirectory;
  value: string | string[] | null | undefined;
  onChange: (value: string | string[] | null) => void;
  multiple?: boolean;
  placeholder?: string;
  testId: string;
  width?: number | string;
  disabled?: boolean;
}) {
  const [results, setResults] = useState<UserBrief[] | null>(null);
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const seq = useRef(0);
  useEffect(() => () => clearTimeout(timer.current), []);

  const run = (keyword: string, delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const n = ++seq.current;
      setLoading(true);
      void directory.search(keyword).then((records) => {
        if (n !== seq.current) return;
        setResults(records);
        setLoading(false);
      });
    }, delay);
  };

  const selected = value == null ? [] : Array.isArray(value) ? value : [value];
  const options = useMemo(() => {
    const seen = new Set<string>();
    const out: { value: string; label: string }[] = [];
    for (const u of results ?? []) {
      seen.add(u.id);
      out.push({ value: u.id, label: userLabel(u) });
    }
    // selected users stay labelled whatever the last search found
    for (const id of selected) {
      if (seen.has(id)) continue;
      const u = directory.known.get(id);
      out.push({ value: id, label: u ? userLabel(u) : `用户 ${id.slice(0, 8)}` });
    }
    return out;
  }, [results, selected, directory.known]);

  return (
    <Select<string | string[]>
      mode={multiple ? 'multiple' : undefined}
      allowClear
      showSearch={{ filterOption: false, onSearch: (kw) => run(kw, SEARCH_DEBOUNCE_MS) }}
      placeholder={placeholder}
      style={{ width }}
      disabled={disabled}
      loading={loading}
      value={multiple ? selected : (selected[0] ?? undefined)}
      onChange={(v) => onChange(v ?? (multiple ? [] : null))}
      onOpenChange={(open) => {
        if (open && results === null) run('', 0);
      }}
      options={options}
      notFoundContent={loading ? '查询中…' : (directory.error ?? '暂无数据')}
      data-testid={testId}
      aria-label="用户"
    />
  );
}
