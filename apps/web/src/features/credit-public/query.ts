import { DEFAULT_PAGE_SIZE, PAGE_SIZES, PORTAL_KEYWORD_MAX } from '@ks/contracts';

/** The public credit list's filters, kept in the URL query (a search can be shared, and Back undoes it). */
export interface PublicListFilters {
  keyword?: string;
  /** a name is matched at its start (the default) or anywhere */
  match: 'prefix' | 'contains';
  level?: string;
  pageNum: number;
  pageSize: number;
}

/** The server reads at most this many pages of a search (its message asks for a more specific name). */
export const PUBLIC_MAX_PAGES = 100;

const FILTER_KEYS = ['keyword', 'match', 'level', 'pageNum', 'pageSize'] as const;

export function parsePublicFilters(sp: URLSearchParams): PublicListFilters {
  const keyword = sp.get('keyword')?.trim().slice(0, PORTAL_KEYWORD_MAX) || undefined;
  const level = sp.get('level')?.trim() || undefined;
  const size = Number(sp.get('pageSize'));
  const page = Number(sp.get('pageNum'));
  return {
    keyword,
    match: sp.get('match') === 'contains' ? 'contains' : 'prefix',
    level,
    pageNum: Number.isInteger(page) && page >= 1 ? Math.min(page, PUBLIC_MAX_PAGES) : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/**
 * The URL query of these filters: only what differs from the defaults, and every other parameter of the current query
 * kept (inside the shell the page's systemCoding and gnCoding name its system and node).
 */
export function publicFiltersToSearch(f: PublicListFilters, current = new URLSearchParams()): URLSearchParams {
  const sp = new URLSearchParams(current);
  for (const k of FILTER_KEYS) sp.delete(k);
  if (f.keyword) sp.set('keyword', f.keyword);
  if (f.match === 'contains') sp.set('match', 'contains');
  if (f.level) sp.set('level', f.level);
  if (f.pageNum > 1) sp.set('pageNum', String(f.pageNum));
  if (f.pageSize !== DEFAULT_PAGE_SIZE) sp.set('pageSize', String(f.pageSize));
  return sp;
}

/** The query the list call sends (the server's defaults are left out). */
export function publicListParams(f: PublicListFilters) {
  return {
    keyword: f.keyword,
    match: f.keyword && f.match === 'contains' ? ('contains' as const) : undefined,
    level: f.level,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}

/** "共 n 条", or "1000+" when the server stopped counting. */
export function totalText(total: number, capped: boolean): string {
  return capped ? `${total}+` : String(total);
}

/** How long a grade holds, as the list says it: until a day, or until the next evaluation. */
export function validityText(validUntil: string | null, evaluatedOn: string | null): string {
  if (!evaluatedOn) return '—';
  return validUntil ?? '至下次评定';
}
