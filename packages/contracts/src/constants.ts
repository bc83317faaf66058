/** Business constants and limits (spec §9) shared by web and server. */
export const REQUEST_TIMEOUT_MS = 300_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const DOWNLOAD_TIMEOUT_MS = 60_000;
/** Delay before a session-ending code clears storage and navigates (spec §2, §8). */
export const SESSION_END_DELAY_MS = 500;
export const UPLOAD_CHUNK_SIZE = 5_242_880;
export const PAGE_SIZES = [10, 20, 30, 50] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const PRACTICE_REASON_MAX = 16;

/** Keys in sessionStorage (spec §9). */
export const SESSION_KEYS = {
  token: 'token',
  userInfo: 'userInfo',
  roles: 'roles',
  homeUrl: 'homeUrl',
  gnCoding: 'gnCoding',
  bidInfo: 'bidInfo',
  bidSolution: 'bidSolution',
  searchParams: 'searchParams',
  /** the business system chosen on the landing page */
  systemCoding: 'systemCoding',
} as const;
/** localStorage key for the platform version last seen (spec §4: a different version forces a reload). */
export const VERSION_STORAGE_KEY = 'platformVersion';

export const DEFAULT_HOME_URL = '/system/pageConfig';

/** Paths an anonymous visitor may open (spec §2 route guard), besides `/`. */
export const PUBLIC_PATHS: readonly string[] = [
  '/login',
  '/realName',
  '/creditCode',
  '/auth',
  '/admin-business',
  '/caLogin',
  '/caLoginPage',
  '/caRegister',
  '/venue',
  // the developers' SMS outbox (issue 15); the page says 生产环境不可用 when the server answers 404
  '/smsOutbox',
  // public portal child paths
  '/transac',
  '/transac-news',
  '/market',
  '/market-list',
  '/market-details',
  // the public credit list (信用公示), linked from the portal
  '/credit/creditPublicList',
  // the expert extraction verification (issue 16): anyone with the record's id
  '/expertExtraction/verify',
  // the opening-and-evaluation log's verification and daily anchors (issue 17)
  '/bid/ledger',
  // 材料信息价 (issue 19): the published material prices and their history, linked from the portal's navigation
  '/materialPrices',
];

export function isPublicPath(pathname: string): boolean {
  if (pathname === '/' || pathname === '') return true;
  return PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

// Theme defaults (§9) live in shell-constants.ts (THEME_DEFAULTS).
