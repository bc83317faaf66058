import { lazyPage } from './chunkLoad';

// Every page is its own chunk, loaded with the 120 s chunk timeout. Portal pages import no antd; everything built
// with antd sits below the AntdShell layout route (or inside it, on the sign-in landing routes).
export const AntdShell = lazyPage(() => import('./AntdShell'));
export const LoginPage = lazyPage(() => import('../features/auth/LoginPage'));
export const AppLayout = lazyPage(() => import('../shell/AppLayout'));
export const PageConfigPage = lazyPage(() => import('../features/system/PageConfigPage'));
export const PortalNoticesPage = lazyPage(() => import('../features/system/PortalNoticesPage'));
// @pages:shell
// @pages:config
// @pages:permission
// @pages:accounts

export const PortalHome = lazyPage(() => import('../features/portal/HomePage'));
export const TransacPage = lazyPage(() => import('../features/portal/TransacPage'));
export const NoticeDetailPage = lazyPage(() => import('../features/portal/NoticeDetailPage'));
export const MarketPage = lazyPage(() => import('../features/portal/MarketPage'));
export const MarketListPage = lazyPage(() => import('../features/portal/MarketListPage'));
export const MarketDetailPage = lazyPage(() => import('../features/portal/MarketDetailPage'));
