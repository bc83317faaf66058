import type { MenuItem } from '@ks/contracts';
import { routeForNode } from '@ks/contracts';
import { isRecordPage } from './paths';

/** Pure helpers over a (visible) menu tree: the default active item, the first leaf, route matching. */

/** The first leaf (depth first) that is not disabled, starting with the first menu. */
export function firstLeaf(items: readonly MenuItem[]): MenuItem | null {
  for (const item of items) {
    if (item.disabled) continue;
    if (!item.children?.length) return item;
    const hit = firstLeaf(item.children);
    if (hit) return hit;
  }
  return null;
}

/** Spec §4: the first menu's first child, or the first menu itself when it has no children. */
export function defaultActive(items: readonly MenuItem[]): MenuItem | null {
  const first = items[0];
  if (!first) return null;
  return first.children?.[0] ?? first;
}

/** The ids from the top of the tree down to the item with `id` (inclusive), or null when absent. */
export function pathTo(items: readonly MenuItem[], id: string): string[] | null {
  for (const item of items) {
    if (item.id === id) return [item.id];
    const below = pathTo(item.children ?? [], id);
    if (below) return [item.id, ...below];
  }
  return null;
}

export function findBy(items: readonly MenuItem[], pred: (m: MenuItem) => boolean): MenuItem | null {
  for (const item of items) {
    if (pred(item)) return item;
    const hit = findBy(item.children ?? [], pred);
    if (hit) return hit;
  }
  return null;
}

function leaves(items: readonly MenuItem[]): MenuItem[] {
  return items.flatMap((m) => (m.children?.length ? leaves(m.children) : [m]));
}

/**
 * The leaf whose page is the current location: its route (same path, same gnCoding), or — on a record page of a node
 * (detail, form) — the leaf whose gnCoding the URL names. Only nodes with a page of their own take part: directories
 * lead to the landing page, which highlights no item. `preferGnCoding` (the node last opened) decides between leaves
 * sharing a route.
 */
export function matchRoute(
  items: readonly MenuItem[],
  location: { pathname: string; search: string },
  systemCoding: string,
  isAdmin: boolean,
  preferGnCoding: string | null,
): MenuItem | null {
  const here = new URLSearchParams(location.search);
  const wanted = here.get('gnCoding');
  const all = leaves(items);
  const hits = all.filter((node) => {
    const url = new URL(routeForNode(node, systemCoding, isAdmin), 'http://x');
    const gn = url.searchParams.get('gnCoding');
    return gn !== null && url.pathname === location.pathname && wanted === gn;
  });
  const hit = hits.find((n) => n.gnCoding === preferGnCoding) ?? hits[0];
  if (hit) return hit;
  if (!wanted || !isRecordPage(location.pathname)) return null;
  return all.find((n) => n.gnCoding === wanted && n.nodeProperties !== 'directory') ?? null;
}
