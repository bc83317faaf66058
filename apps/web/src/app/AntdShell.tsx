import { type ReactNode, Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../components/PageLoading';
import { ChangePasswordDialog } from '../features/auth/ChangePasswordDialog';
import { AntdProviders } from './AntdProviders';

/**
 * Layout route (its own chunk) of every page built with antd: the sign-in pages and the back office.
 * Renders `children` when given (the landing route in the sign-in login modes), else the matched child route.
 */
export default function AntdShell({ children }: { children?: ReactNode }) {
  return (
    <AntdProviders>
      <Suspense fallback={<PageLoading />}>{children ?? <Outlet />}</Suspense>
      <ChangePasswordDialog />
    </AntdProviders>
  );
}
