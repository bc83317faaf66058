import { CODE_PATTERN, DEFAULT_HOME_URL, isPublicPath, NODE_PROPERTIES } from '@ks/contracts';

// The app's paths and what they mean, as plain data and functions (no UI kit): every layer may use them, so that no
// feature needs the route table (app/) to know where a page is.

// ── where pages are ─────────────────────────────────────────────────────────

/** The business system chooser (业务办理). */
export const JUDGE_PATH = '/judge';
export const MENU_SET_UP_PATH = '/system/menuSetUp';
export const SET_UP_FORM_PATH = '/system/setUpForm';
export const AUDIT_LEVEL_PATH = '/system/auditLevel';
export const AUDIT_WAY_PATH = '/system/auditWay';

/** The back-office sections as the breadcrumb names them. */
export const CONFIG_SECTION = { title: '系统配置', to: '/configPage/productConfig' } as const;
export const PERMISSION_SECTION = { title: '权限管理', to: '/system/permissionsSet' } as const;

/** The list and record pages of the engine's two page kinds: any node's records, and the caller's applications. */
export const ENGINE_PAGES = {
  dynamic: { list: '/dynamicPage/dynamicIndex', detail: '/dynamicPage/dynamicDetail' },
  apply: { list: '/applyIndex', detail: '/applyDetail' },
} as const;

/** A node page's address: its system (when known) and its node (when chosen). */
export function nodePageHref(path: string, gnCoding: string | null, systemCoding?: string | null): string {
  const q = new URLSearchParams();
  if (systemCoding) q.set('systemCoding', systemCoding);
  if (gnCoding) q.set('gnCoding', gnCoding);
  return `${path}?${q.toString()}`;
}

/** 菜单设置 of a system. */
export const menuSetUpHref = (systemCoding: string) => `${MENU_SET_UP_PATH}?${new URLSearchParams({ systemCoding })}`;

/**
 * The remote opening hall (不见面开标, issue 17): the sections the caller may enter (the sidebar's 开标大厅, node
 * property bidTab), and one section's hall (the portal's 开标大厅 link when no external hall is configured).
 */
export const OPENING_PAGES = { overview: '/bid/overview', hall: '/bid/bidMeet' } as const;
export const openingHallHref = (sectionId: string) => `${OPENING_PAGES.hall}?${new URLSearchParams({ sectionId })}`;

/**
 * Bid evaluation (评标, issue 17): the sections (the sidebar's 评审概览, node property reviewOverview; also
 * /bid/reviewProcess), one section by its code, the room's steps (/bidStep/<step>?sectionId=), the panel views and the
 * experts' workbench (待评项目 / 已评项目).
 */
export const EVAL_PAGES = {
  overview: '/bidEvaluationSys/overview',
  reviewProcess: '/bidEvaluationSys/reviewProcess',
  room: '/bidStep',
  expertPending: '/bidZj/KbZj',
  expertDone: '/bidZj/YsZj',
} as const;
export const evalRoomHref = (sectionId: string, step = 'bidOverview') =>
  `${EVAL_PAGES.room}/${step}?${new URLSearchParams({ sectionId })}`;

/** A notice on the portal (公告详情, /transac-news?id=): the candidates' publicity, the award's result notice. */
export const PORTAL_NOTICE_PATH = '/transac-news';
export const portalNoticeHref = (id: string) => `${PORTAL_NOTICE_PATH}?${new URLSearchParams({ id })}`;

// ── route prefixes and node pages ───────────────────────────────────────────

/** The business pages of the spec §2 route table that later releases build; the sidebar already routes to them. */
export const PENDING_ROUTE_PREFIXES = [
  'expertExtraction',
  'bid',
  'meetingVenue',
  'standardFile',
  'productCenter',
  'custom',
] as const;

/** The public credit list (信用公示): the portal links to it; signed in, the sidebar's 信用等级公示 opens it in the shell. */
export const CREDIT_PUBLIC_LIST_PATH = '/credit/creditPublicList';
/** One enterprise's credit commitment book, opened from the 信用承诺书 list. */
export const CREDIT_LETTER_DETAIL_PATH = '/credit/commitmentbookDetail';

/** The five-in-one entry (五位一体): the projects of 项目进场登记, and one project with its tabs. */
export const FIVE_IN_ONE_PAGES = {
  list: '/fiveInOne/list',
  detail: '/fiveInOne/detail',
  registration: '/fiveInOne/registration',
} as const;

/** Pages of a node that are not a sidebar target themselves: a record's detail and form, a commitment book. */
const DETAIL_PATHS: readonly string[] = [
  ENGINE_PAGES.dynamic.detail,
  ENGINE_PAGES.apply.detail,
  CREDIT_LETTER_DETAIL_PATH,
  FIVE_IN_ONE_PAGES.detail,
];

/** A record page of a node (its URL's gnCoding names the node). */
export function isRecordPage(pathname: string): boolean {
  return DETAIL_PATHS.includes(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
}

const NODE_PATHS = new Set<string>([
  ...NODE_PROPERTIES.filter((p) => p.value !== 'directory').flatMap((p) =>
    'adminPath' in p ? [p.path, p.adminPath] : [p.path],
  ),
  ...DETAIL_PATHS,
]);
/**
 * Business areas whose pages are built under a prefix of their own (bid evaluation, issue 17; the public data pages,
 * issue 19): node pages too.
 */
export const BUSINESS_ROUTE_PREFIXES = ['bidEvaluationSys', 'bidZj', 'bidStep', 'demoPublicPage'] as const;
const NODE_PREFIXES = new Set<string>([...PENDING_ROUTE_PREFIXES, ...BUSINESS_ROUTE_PREFIXES]);

/**
 * A business page of a node (what the sidebar's click routing opens, and the record pages below it): its URL's
 * systemCoding names the business system it belongs to, whose sidebar it shows.
 */
export function isNodePage(pathname: string): boolean {
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (NODE_PATHS.has(p)) return true;
  const first = p.split('/')[1] ?? '';
  return NODE_PREFIXES.has(first);
}

/** The business system a URL carries (a node page's systemCoding), or null. */
export function systemOfUrl(pathname: string, search: string): string | null {
  if (!isNodePage(pathname)) return null;
  const code = new URLSearchParams(search).get('systemCoding');
  return code && CODE_PATTERN.test(code) ? code : null;
}

// ── the guard of spec §2 ────────────────────────────────────────────────────

/** Where a signed-in visitor lands: the stored home URL when it is a usable in-app path, else the default. */
export function homeUrlOrDefault(homeUrl: string | null): string {
  if (homeUrl?.startsWith('/') && !homeUrl.startsWith('//') && homeUrl !== '/') return homeUrl;
  return DEFAULT_HOME_URL;
}

/**
 * The route guard of spec §2 as a pure decision: the path to redirect to, or null to stay.
 * - anonymous: only `/` and the public paths; any other path (unknown ones included) goes to `/`;
 * - signed in: `/` goes to the stored home URL (default /system/pageConfig); unknown paths show the 404 page.
 */
export function guardRedirect(pathname: string, signedIn: boolean, homeUrl: string | null): string | null {
  if (!signedIn) return isPublicPath(pathname) ? null : '/';
  if (pathname === '/' || pathname === '') return homeUrlOrDefault(homeUrl);
  return null;
}

/** 文件分析 (issue 18): the sections and their cost-file detection; one file's cost tree (the spec's spelling). */
export const COST_INDEX_PATH = '/fileAnalysis/index';
export const COST_TREE_PATH = '/fileAnalysis/deatil';
export const COST_PUBLICITY_PATH = '/fileAnalysis/publicity';
export const costPublicityHref = (sectionId: string) => `${COST_PUBLICITY_PATH}?${new URLSearchParams({ sectionId })}`;
export const costTreeHref = (id: string, sectionId?: string) =>
  `${COST_TREE_PATH}?${new URLSearchParams(sectionId ? { id, sectionId } : { id })}`;
