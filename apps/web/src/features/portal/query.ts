import {
  CREDIT_LEVEL_TITLE_MAX,
  DEFAULT_PAGE_SIZE,
  isValidDate as isCalendarDate,
  MARKET_KINDS,
  type MarketKind,
  NOTICE_CATEGORIES,
  type NoticeCategory,
  PAGE_SIZES,
  PORTAL_KEYWORD_MAX,
  REGIONS,
  TRADE_TYPES,
  type TradeType,
} from '@ks/contracts';

/**
 * List filters live in the URL query (so back/forward, reloads and shared links show the same list). These turn a
 * query string into filters the server accepts (unknown values are dropped) and back (defaults are left out).
 */

export interface NoticeFilters {
  category?: NoticeCategory;
  tradeType?: TradeType;
  region?: string;
  startDate?: string;
  endDate?: string;
  keyword?: string;
  pageNum: number;
  pageSize: number;
}

export interface MarketFilters {
  kind: MarketKind;
  enterpriseType?: string;
  practiceArea?: string;
  /** a level title (the administrators' titles: AAA … C by default) */
  creditGrade?: string;
  keyword?: string;
  pageNum: number;
  pageSize: number;
}

function oneOf<T extends string>(list: readonly T[], value: string | null): T | undefined {
  return value !== null && (list as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** A level title as administrators may name one (1 to 8 characters); anything longer names no level. */
function levelTitle(value: string | null): string | undefined {
  const v = value?.trim();
  return v && v.length <= CREDIT_LEVEL_TITLE_MAX ? v : undefined;
}

function text(value: string | null, max: number): string | undefined {
  const v = value?.trim().slice(0, max);
  return v ? v : undefined;
}

/** YYYY-MM-DD, a real calendar day (the contracts' rule). */
export function isValidDate(value: string | null | undefined): value is string {
  return isCalendarDate(value);
}

function pageNumOf(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

function pageSizeOf(value: string | null): number {
  const n = Number(value);
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : DEFAULT_PAGE_SIZE;
}

export function parseNoticeFilters(sp: URLSearchParams): NoticeFilters {
  let startDate = isValidDate(sp.get('startDate')) ? (sp.get('startDate') as string) : undefined;
  let endDate = isValidDate(sp.get('endDate')) ? (sp.get('endDate') as string) : undefined;
  if (startDate && endDate && startDate > endDate) [startDate, endDate] = [endDate, startDate];
  return {
    category: oneOf(NOTICE_CATEGORIES, sp.get('category')),
    tradeType: oneOf(TRADE_TYPES, sp.get('tradeType')),
    region: oneOf(REGIONS, sp.get('region')),
    startDate,
    endDate,
    keyword: text(sp.get('keyword'), PORTAL_KEYWORD_MAX),
    pageNum: pageNumOf(sp.get('pageNum')),
    pageSize: pageSizeOf(sp.get('pageSize')),
  };
}

function toSearch(entries: [string, string | number | undefined][]): URLSearchParams {
  const sp = new URLSearchParams();
  for (const [k, v] of entries) if (v !== undefined && v !== '') sp.set(k, String(v));
  return sp;
}

export function noticeFiltersToSearch(f: NoticeFilters): URLSearchParams {
  return toSearch([
    ['category', f.category],
    ['tradeType', f.tradeType],
    ['region', f.region],
    ['startDate', f.startDate],
    ['endDate', f.endDate],
    ['keyword', f.keyword],
    ['pageNum', f.pageNum > 1 ? f.pageNum : undefined],
    ['pageSize', f.pageSize !== DEFAULT_PAGE_SIZE ? f.pageSize : undefined],
  ]);
}

export function parseMarketKind(value: string | null): MarketKind {
  return oneOf(MARKET_KINDS, value) ?? 'enterprise';
}

export function parseMarketFilters(sp: URLSearchParams): MarketFilters {
  const kind = parseMarketKind(sp.get('kind'));
  return {
    kind,
    enterpriseType: kind === 'enterprise' ? text(sp.get('enterpriseType'), 40) : undefined,
    practiceArea: kind === 'practitioner' ? text(sp.get('practiceArea'), 40) : undefined,
    creditGrade: levelTitle(sp.get('creditGrade')),
    keyword: text(sp.get('keyword'), PORTAL_KEYWORD_MAX),
    pageNum: pageNumOf(sp.get('pageNum')),
    pageSize: pageSizeOf(sp.get('pageSize')),
  };
}

export function marketFiltersToSearch(f: MarketFilters): URLSearchParams {
  return toSearch([
    ['kind', f.kind],
    ['enterpriseType', f.kind === 'enterprise' ? f.enterpriseType : undefined],
    ['practiceArea', f.kind === 'practitioner' ? f.practiceArea : undefined],
    ['creditGrade', f.creditGrade],
    ['keyword', f.keyword],
    ['pageNum', f.pageNum > 1 ? f.pageNum : undefined],
    ['pageSize', f.pageSize !== DEFAULT_PAGE_SIZE ? f.pageSize : undefined],
  ]);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Record ids are UUIDs; anything else cannot exist, so it is not even asked for. */
export function isUuid(value: string | null | undefined): value is string {
  return !!value && UUID.test(value);
}
