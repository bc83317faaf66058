import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoading } from '../components/PageLoading';
import { guardRedirect } from '../lib/paths';
import { getHomeUrl, isSignedIn } from '../lib/session';

/** Root layout route: applies the guard on every navigation and shows a spinner while page code loads. */
export function RouteGuard() {
  const { pathname } = useLocation();
  const target = guardRedirect(pathname, isSignedIn(), getHomeUrl());
  if (target !== null) return <Navigate to={target} replace />;
  return (
    <Suspense fallback={<PageLoading />}>
      <Outlet />
    </Suspense>
  );
}
