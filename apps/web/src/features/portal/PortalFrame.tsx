import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { DEFAULT_PLATFORM_NAME, platformQuery } from '../../api/platform';
import { usePortalConfig } from '../../api/portalConfig';
import { SiteFooter } from '../../components/SiteFooter';
import { homeUrlOrDefault, OPENING_PAGES } from '../../lib/paths';
import { getHomeUrl, isSignedIn } from '../../lib/session';
import './portal.css';

export type NavKey = 'home' | 'transac' | 'market' | 'material';

/** The navigation item a route belongs to (child routes included): /transac-news → 交易信息, /market-* → 市场主体. */
export function navKeyOf(pathname: string): NavKey | null {
  const p = pathname.replace(/\/+$/, '') || '/';
  if (p === '/') return 'home';
  if (p === '/transac' || p === '/transac-news') return 'transac';
  if (p === '/market' || p === '/market-list' || p === '/market-details') return 'market';
  if (p === '/materialPrices') return 'material';
  return null;
}

const NAV: { key: NavKey; label: string; to: string }[] = [
  { key: 'home', label: '首页', to: '/' },
  { key: 'transac', label: '交易信息', to: '/transac' },
  { key: 'market', label: '市场主体', to: '/market' },
  { key: 'material', label: '材料信息价', to: '/materialPrices' },
];

function Logo() {
  return (
    <svg width="34" height="34" viewBox="0 0 32 32" aria-hidden className="kp-logo">
      <rect width="32" height="32" rx="7" fill="rgba(255,255,255,0.18)" />
      <path d="M6 13 16 7l10 6v2H6zm2 4h3v7H8zm6.5 0h3v7h-3zM21 17h3v7h-3zM6 25h20v2H6z" fill="#fff" />
    </svg>
  );
}

/** The mark of a link that opens in a new window. */
function ExternalMark() {
  return (
    <>
      <svg width="11" height="11" viewBox="0 0 12 12" aria-hidden className="kp-ext">
        <path d="M4.5 2H2v8h8V7.5M7 1.5h3.5V5M10.3 1.7 5.5 6.5" fill="none" stroke="currentColor" />
      </svg>
      <span className="kp-sr-only">（在新窗口打开）</span>
    </>
  );
}

export function PortalHeader() {
  const { pathname } = useLocation();
  const active = navKeyOf(pathname);
  const transparent = active === 'home';
  const { data: platform } = useQuery(platformQuery);
  const config = usePortalConfig();
  const hall = config?.bidHallUrl ?? null;
  const signedIn = isSignedIn();
  return (
    <header
      className={transparent ? 'kp-header is-transparent' : 'kp-header'}
      data-testid="portal-header"
      data-transparent={transparent ? 'true' : 'false'}
    >
      <div className="kp-container kp-header-inner">
        <Link to="/" className="kp-brand" aria-label="首页">
          <Logo />
          <span className="kp-brand-name" data-testid="portal-platform-name">
            {platform?.platformName || DEFAULT_PLATFORM_NAME}
          </span>
        </Link>
        <nav className="kp-nav" aria-label="主导航">
          {NAV.map((n) => (
            <Link
              key={n.key}
              to={n.to}
              className={active === n.key ? 'kp-nav-item is-active' : 'kp-nav-item'}
              aria-current={active === n.key ? 'page' : undefined}
              data-testid={`nav-${n.key}`}
            >
              {n.label}
            </Link>
          ))}
          {hall ? (
            <a className="kp-nav-item" href={hall} target="_blank" rel="noopener noreferrer" data-testid="nav-hall">
              开标大厅
              <ExternalMark />
            </a>
          ) : (
            // no external hall: the platform's own remote opening hall. Same origin, so rel=opener: the new window gets
            // a copy of this tab's sessionStorage — the session — as browsers give it only to opener-linked windows
            <Link className="kp-nav-item" to={OPENING_PAGES.hall} target="_blank" rel="opener" data-testid="nav-hall">
              开标大厅
              <ExternalMark />
            </Link>
          )}
        </nav>
        <div className="kp-header-actions">
          {signedIn ? (
            <Link to={homeUrlOrDefault(getHomeUrl())} className="kp-login" data-testid="nav-workbench">
              进入系统
            </Link>
          ) : (
            <Link to="/login" className="kp-login" data-testid="nav-login">
              登录
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}

/** Every portal page: header, the page, footer. Scrolls to the top when the page (not just its query) changes. */
export function PortalFrame({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname) document.documentElement.scrollTop = 0;
  }, [pathname]);
  return (
    <div className="kp-page-root">
      <PortalHeader />
      <main className="kp-main">{children}</main>
      <SiteFooter tone="dark" />
    </div>
  );
}
