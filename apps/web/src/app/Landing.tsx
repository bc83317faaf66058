import { usePortalConfig } from '../api/portalConfig';
import { PageLoading } from '../components/PageLoading';
import { NotFoundView } from '../features/errors/NotFoundView';
import { AntdShell, LoginPage, PortalHome } from './pages';

export const BUSINESS_HEADING = '业务办理';

/**
 * The landing route `/` (anonymous visitors; the guard sends signed-in ones to their home URL): the public portal
 * in login mode ggfw, the sign-in page in modes login and ywbl.
 */
export function Landing() {
  const config = usePortalConfig();
  if (!config) return <PageLoading />;
  if (config.loginMode === 'ggfw') return <PortalHome />;
  return (
    <AntdShell>
      <LoginPage />
    </AntdShell>
  );
}

/** `/admin-business`: the business-handling sign-in entry, which exists only in login mode ywbl (404 otherwise). */
export function BusinessLanding() {
  const config = usePortalConfig();
  if (!config) return <PageLoading />;
  if (config.loginMode !== 'ywbl') return <NotFoundView />;
  return (
    <AntdShell>
      <LoginPage heading={BUSINESS_HEADING} />
    </AntdShell>
  );
}
