import { render } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { AntdProviders } from '../app/AntdProviders';
import { AppProviders, createQueryClient } from '../app/AppProviders';

/**
 * Renders routes in a memory router inside the app's root providers (query client, global dialogs). Pages rendered
 * on their own get the antd providers the AntdShell route gives them in the app (`antd: false` leaves them out).
 */
export function renderRoutes(routes: RouteObject[], initialPath = '/', options: { antd?: boolean } = {}) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const app = <RouterProvider router={router} />;
  const view = render(
    <AppProviders queryClient={queryClient}>
      {options.antd === false ? app : <AntdProviders>{app}</AntdProviders>}
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}
