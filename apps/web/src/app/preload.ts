import type { PortalConfig } from '@ks/contracts';
import type { LazyPage } from '../lib/chunkLoad';
import { guardRedirect } from '../lib/paths';
import {
  AntdShell,
  AppLayout,
  LoginPage,
  MarketDetailPage,
  MarketListPage,
  MarketPage,
  NoticeDetailPage,
  PageConfigPage,
  PortalHome,
  PortalNoticesPage,
  TransacPage,
} from './pages';

// biome-ignore lint/suspicious/noExplicitAny: pages with different props share one list
type AnyPage = LazyPage<any>;

const SIGN_IN: AnyPage[] = [AntdShell, LoginPage];

const PAGES: Record<string, AnyPage[]> = {
  '/transac': [TransacPage],
  '/transac-news': [NoticeDetailPage],
  '/market': [MarketPage],
  '/market-list': [MarketListPage],
  '/market-details': [MarketDetailPage],
  '/login': SIGN_IN,
  '/system/pageConfig': [AntdShell, AppLayout, PageConfigPage],
  '/system/portalNotices': [AntdShell, AppLayout, PortalNoticesPage],
};

function clean(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/**
 * The page code the first URL will show (after the guard's redirect), if known: it is loaded before the first
 * render so the page paints at once, without a spinner first (React keeps a shown spinner for at least 300 ms).
 * Nothing while the login mode is unknown (no meta tags: the Vite dev server), which the landing routes need.
 */
export function initialPages(
  pathname: string,
  signedIn: boolean,
  homeUrl: string | null,
  config: Pick<PortalConfig, 'loginMode'> | null,
): AnyPage[] {
  const path = clean((guardRedirect(pathname, signedIn, homeUrl) ?? pathname).split('?')[0]);
  if (path === '/' || path === '') {
    if (!config) return [];
    return config.loginMode === 'ggfw' ? [PortalHome] : SIGN_IN;
  }
  if (path === '/admin-business') return config?.loginMode === 'ywbl' ? SIGN_IN : [];
  const known = PAGES[path];
  if (known) return known;
  // any other page of the signed-in shell: at least its layout
  return signedIn && SHELL_PREFIXES.some((p) => path.startsWith(p)) ? [AntdShell, AppLayout] : [];
}

const SHELL_PREFIXES = ['/system/', '/judge', '/userCenter/', '/configPage/'];

/** Waits for the pages to load, at most `capMs`; never rejects (a failure shows on the page when it renders). */
export function preloadPages(pages: AnyPage[], capMs = 3000): Promise<void> {
  if (pages.length === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, capMs);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    Promise.all(pages.map((p) => p.preload())).then(done, done);
  });
}
