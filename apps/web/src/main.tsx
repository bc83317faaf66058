import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { platformQuery } from './api/platform';
import { initAppTimeZone, portalConfigQuery, readPortalConfigMeta } from './api/portalConfig';
import { AppProviders, createQueryClient } from './app/AppProviders';
import { initialPages, preloadPages } from './app/preload';
import { routes } from './app/routes';
import { checkPlatformVersion } from './app/version';
import { installPreloadErrorHandler } from './lib/chunkLoad';
import { setNavigator } from './lib/navigation';
import { getHomeUrl, isSignedIn } from './lib/session';
import './styles/base.css';

const queryClient = createQueryClient();
const router = createBrowserRouter(routes);

setNavigator((to) => {
  void router.navigate(to);
});
installPreloadErrorHandler();
void checkPlatformVersion({ fetchPlatform: () => queryClient.fetchQuery(platformQuery) });

// The first page loads its code, then renders once (fast first paint, no spinner in between). Before that, every date
// rule learns the platform's zone (APP_TZ): from index.html, or — on the Vite dev server — from the API.
const firstPages = initialPages(window.location.pathname, isSignedIn(), getHomeUrl(), readPortalConfigMeta());
const zone = initAppTimeZone().then((config) => queryClient.setQueryData(portalConfigQuery.queryKey, config));
void Promise.all([preloadPages(firstPages), zone]).then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
});
