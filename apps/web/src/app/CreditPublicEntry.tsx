import { isSignedIn } from '../lib/session';
import { AntdShell, AppLayout, CreditPublicPortalPage } from './pages';

/**
 * `/credit/creditPublicList` (信用公示), a public path: a visitor gets the portal page (no UI kit); a signed-in user the
 * same list inside the shell — the header and the sidebar of the system they work in (信用等级公示 of 信用管理) — as
 * this route's child, which the shell's outlet renders.
 */
export function CreditPublicEntry() {
  if (!isSignedIn()) return <CreditPublicPortalPage />;
  return (
    <AntdShell>
      <AppLayout />
    </AntdShell>
  );
}
