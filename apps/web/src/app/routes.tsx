import { Navigate, type RouteObject } from 'react-router';
import { NotFoundView } from '../features/errors/NotFoundView';
import { BusinessLanding, Landing } from './Landing';
import {
  AntdShell,
  AppLayout,
  LoginPage,
  MarketDetailPage,
  MarketListPage,
  MarketPage,
  NoticeDetailPage,
  PageConfigPage,
  PortalNoticesPage,
  TransacPage,
} from './pages';
import { RouteErrorPage } from './RouteErrorPage';
import { RouteGuard } from './RouteGuard';

/**
 * The route table (spec §2). Only routes whose pages exist are registered; add new ones here (above the catch-all).
 * The root layout route applies the guard. `/` is the public portal in login mode ggfw and the sign-in page in
 * modes login and ywbl; `/admin-business` exists in mode ywbl only (see Landing).
 */
export const routes: RouteObject[] = [
  {
    element: <RouteGuard />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <Landing /> },
      // public portal (plain CSS, no antd)
      { path: 'transac', element: <TransacPage /> },
      { path: 'transac-news', element: <NoticeDetailPage /> },
      { path: 'market', element: <MarketPage /> },
      { path: 'market-list', element: <MarketListPage /> },
      { path: 'market-details', element: <MarketDetailPage /> },
      { path: 'admin-business', element: <BusinessLanding /> },
      {
        // everything built with antd
        element: <AntdShell />,
        children: [
          { path: 'login', element: <LoginPage /> },
          {
            // the signed-in shell: header, user dropdown, and the chosen system's sidebar
            element: <AppLayout />,
            children: [
              {
                // errors inside the signed-in layout keep the header
                errorElement: <RouteErrorPage />,
                children: [
                  { path: 'system', element: <Navigate to="pageConfig" replace /> },
                  { path: 'system/pageConfig', element: <PageConfigPage /> },
                  { path: 'system/portalNotices', element: <PortalNoticesPage /> },
                  // @routes:shell
                  // @routes:config
                  // @routes:permission
                  // @routes:accounts
                ],
              },
            ],
          },
        ],
      },
      // unknown paths (the guard has already sent anonymous visitors to / unless the path is public)
      { path: '*', element: <NotFoundView /> },
    ],
  },
];
