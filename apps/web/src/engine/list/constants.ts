import { SESSION_KEYS } from '@ks/contracts';

/** The list views' constants (spec §9) that packages/contracts does not carry yet. */

/** Action buttons are locked for 1 s after a click. */
export const ACTION_LOCK_MS = 1000;
/** 搜索 and 重置 are throttled to one press a second. */
export const SEARCH_THROTTLE_MS = 1000;
/** The card list asks for more at most once per 500 ms of scrolling. */
export const CARD_DEBOUNCE_MS = 500;
/** The filter card's reset animation. */
export const FILTER_RESET_MS = 500;
/** How long the card's "no attachment" tooltip stays up. */
export const NO_ANNEX_TIP_MS = 2000;

/** Screen 21: the search bar shows its first 3 fields; spans out of 24, collapsed and expanded. */
export const SEARCH_VISIBLE_FIELDS = 3;
export const SEARCH_SPAN = { collapsed: 8, expanded: 6 } as const;

/** sessionStorage key of the persisted pagers (`SESSION_KEYS.pager` once contracts names it). */
export const PAGER_SESSION_KEY: string = (SESSION_KEYS as Record<string, string>).pager ?? 'pager';

export const TEXTS = {
  empty: '暂无数据',
  loading: '加载中...',
  noMore: '没有更多了~',
  moreAnnex: '更多附件',
  noAnnex: '请至详情页添加附件再查看',
  more: '更多...',
  less: '收起',
  search: '搜索',
  reset: '重置',
  confirm: '确定',
  close: '关闭',
  serial: '序号',
  requestFailed: '请求失败',
  notStarted: '流程尚未开始',
  noDataOrNotSubmitted: '暂无数据或未提交',
  assignTitle: '任务指派',
} as const;

/** §3 change status codes (§4). */
export const CHANGE_STATUS: Record<string, { text: string; color: string }> = {
  '1': { text: '正在变更', color: 'processing' },
  '2': { text: '变更通过', color: 'success' },
  '-1': { text: '变更驳回', color: 'error' },
};

/**
 * §9 more-annex thresholds: a card shows at most this many files before 更多附件 — over 2 files for 33.3% cards,
 * over 3 for 50%, over 7 otherwise.
 */
export function annexLimit(width: string | undefined): number {
  if (width === '33.3%') return 2;
  if (width === '50%') return 3;
  return 7;
}
