import type { MenuItem } from '@ks/contracts';
import type { NodeRow } from './nodes.repo';

/** Menu trees from node rows (pure: the rows are read by nodes.repo). */

export function toMenuItem(r: NodeRow, systemCoding: string, children: MenuItem[] = []): MenuItem {
  return {
    id: r.id,
    parentId: r.parentId,
    systemCoding,
    gnCoding: r.gnCoding,
    title: r.title,
    icon: r.icon,
    itShows: r.itShows === '否' ? '否' : '是',
    nodeProperties: r.nodeProperties,
    style: r.style,
    nodeSetFlag: r.nodeSetFlag,
    disabled: r.disabled,
    groupName: r.groupName,
    dataSource: r.dataSource,
    sort: r.sort,
    badge: 0,
    score: r.score === null || r.score === undefined ? null : Number(r.score),
    children,
  };
}

/** Builds the tree from rows already in order; `keep` decides which rows take part (their ancestors come along). */
export function buildTree(
  rows: NodeRow[],
  systemCoding: string,
  keep: (r: NodeRow) => boolean = () => true,
  /** rows that leave out their whole subtree (a hidden menu hides what is under it) */
  prune: (r: NodeRow) => boolean = () => false,
) {
  const byParent = new Map<string | null, NodeRow[]>();
  for (const r of rows) {
    const list = byParent.get(r.parentId) ?? [];
    list.push(r);
    byParent.set(r.parentId, list);
  }
  const walk = (parentId: string | null): MenuItem[] => {
    const out: MenuItem[] = [];
    for (const r of byParent.get(parentId) ?? []) {
      if (prune(r)) continue;
      const children = walk(r.id);
      if (keep(r) || children.length > 0) out.push(toMenuItem(r, systemCoding, children));
    }
    return out;
  };
  return walk(null);
}

/** The ids of a node and everything below it. */
export function subtreeIds(rows: NodeRow[], rootId: string): Set<string> {
  const ids = new Set([rootId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const r of rows) {
      if (r.parentId && ids.has(r.parentId) && !ids.has(r.id)) {
        ids.add(r.id);
        grew = true;
      }
    }
  }
  return ids;
}

/** The subtree under the item `id` (its children), or null when the tree has no such item. */
export function childrenOf(tree: MenuItem[], id: string): MenuItem[] | null {
  for (const it of tree) {
    if (it.id === id) return it.children;
    const hit = childrenOf(it.children, id);
    if (hit) return hit;
  }
  return null;
}

/**
 * Sets each item's badge: its own count (`byNode`, e.g. the caller's open to-dos on the node) plus its children's, so
 * a menu shows the sum of what is under it. Answers the tree.
 */
export function withBadges(tree: MenuItem[], byNode: ReadonlyMap<string, number>): MenuItem[] {
  const mark = (list: MenuItem[]): number =>
    list.reduce((sum, m) => {
      m.badge = (byNode.get(m.id) ?? 0) + mark(m.children);
      return sum + m.badge;
    }, 0);
  mark(tree);
  return tree;
}
