import { DEFAULT_HOME_URL, isPublicPath } from '@ks/contracts';

/** Where a signed-in visitor lands: the stored home URL when it is a usable in-app path, else the default. */
export function homeUrlOrDefault(homeUrl: string | null): string {
  if (homeUrl?.startsWith('/') && !homeUrl.startsWith('//') && homeUrl !== '/') return homeUrl;
  return DEFAULT_HOME_URL;
}

/**
 * The route guard of spec §2 as a pure decision: the path to redirect to, or null to stay.
 * - anonymous: only `/` and the public paths; any other path (unknown ones included) goes to `/`;
 * - signed in: `/` goes to the stored home URL (default /system/pageConfig); unknown paths show the 404 page.
 */
export function guardRedirect(pathname: string, signedIn: boolean, homeUrl: string | null): string | null {
  if (!signedIn) return isPublicPath(pathname) ? null : '/';
  if (pathname === '/' || pathname === '') return homeUrlOrDefault(homeUrl);
  return null;
}
