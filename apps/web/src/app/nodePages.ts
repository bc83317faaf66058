import { CODE_PATTERN, NODE_PROPERTIES } from '@ks/contracts';
import { PENDING_ROUTE_PREFIXES } from '../features/shell/pendingRoutes';

// Plain data (no UI kit).

/** Pages of a node that are not a sidebar target themselves: a record's detail and form. */
const DETAIL_PATHS = ['/dynamicPage/dynamicDetail', '/applyDetail'];

/** A record page of a node (its URL's gnCoding names the node). */
export function isRecordPage(pathname: string): boolean {
  return DETAIL_PATHS.includes(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
}

const NODE_PATHS = new Set<string>([
  ...NODE_PROPERTIES.filter((p) => p.value !== 'directory').flatMap((p) =>
    'adminPath' in p ? [p.path, p.adminPath] : [p.path],
  ),
  ...DETAIL_PATHS,
]);
const PENDING = new Set<string>(PENDING_ROUTE_PREFIXES);

/**
 * A business page of a node (what the sidebar's click routing opens, and the record pages below it): its URL's
 * systemCoding names the business system it belongs to, whose sidebar it shows.
 */
export function isNodePage(pathname: string): boolean {
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (NODE_PATHS.has(p)) return true;
  const first = p.split('/')[1] ?? '';
  return PENDING.has(first);
}

/** The business system a URL carries (a node page's systemCoding), or null. */
export function systemOfUrl(pathname: string, search: string): string | null {
  if (!isNodePage(pathname)) return null;
  const code = new URLSearchParams(search).get('systemCoding');
  return code && CODE_PATTERN.test(code) ? code : null;
}
