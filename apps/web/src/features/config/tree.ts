import type { MenuItem } from '@ks/contracts';

/** Pure helpers over a system's menu tree (the node-list answer). */

export interface Located {
  item: MenuItem;
  parentId: string | null;
  /** the item's siblings, itself included, in order */
  siblings: MenuItem[];
  index: number;
}

/** Finds an item by id with its parent and position. */
export function locate(tree: MenuItem[], id: string): Located | null {
  const walk = (list: MenuItem[], parentId: string | null): Located | null => {
    for (const [index, item] of list.entries()) {
      if (item.id === id) return { item, parentId, siblings: list, index };
      const hit = walk(item.children ?? [], item.id);
      if (hit) return hit;
    }
    return null;
  };
  return walk(tree, null);
}

/** Ids of an item and everything below it. */
export function subtreeIds(item: MenuItem): Set<string> {
  const ids = new Set<string>();
  const walk = (it: MenuItem) => {
    ids.add(it.id);
    for (const c of it.children ?? []) walk(c);
  };
  walk(item);
  return ids;
}

/** Every item, depth first. */
export function flatten(tree: MenuItem[]): MenuItem[] {
  const out: MenuItem[] = [];
  const walk = (list: MenuItem[]) => {
    for (const it of list) {
      out.push(it);
      walk(it.children ?? []);
    }
  };
  walk(tree);
  return out;
}

/** Ids of the items that have children (to expand the whole tree). */
export function parentIds(tree: MenuItem[]): string[] {
  return flatten(tree)
    .filter((it) => (it.children ?? []).length > 0)
    .map((it) => it.id);
}

export interface MoveRequest {
  id: string;
  parentId: string | null;
  /** 0-based position among the new siblings, the moved item left out (how the server inserts it) */
  index: number;
}

/** The part of antd Tree's onDrop info that decides the move. */
export interface DropInfo {
  node: { key: string | number | bigint; pos: string; expanded?: boolean };
  dragNode: { key: string | number | bigint };
  /** absolute: the drop node's index among its siblings plus the relative position -1 / 0 / 1 */
  dropPosition: number;
  dropToGap: boolean;
}

/**
 * Turns antd Tree's onDrop info into the move request: into the drop node (as its first child) when dropped on it,
 * else before or after it among its siblings. The index counts the new siblings without the moved item, as the
 * server removes the item before inserting it. Null when the drop changes nothing or is impossible (onto itself
 * or into its own subtree, unknown keys).
 */
export function dropToMove(info: DropInfo, tree: MenuItem[]): MoveRequest | null {
  const dragId = String(info.dragNode.key);
  const dropId = String(info.node.key);
  const drag = locate(tree, dragId);
  const drop = locate(tree, dropId);
  if (!drag || !drop || dragId === dropId) return null;
  if (subtreeIds(drag.item).has(dropId)) return null;

  const pos = info.node.pos.split('-');
  const relative = info.dropPosition - Number(pos[pos.length - 1]);
  const dropHasChildren = (drop.item.children ?? []).length > 0;

  let parentId: string | null;
  let index: number;
  if (!info.dropToGap || (relative === 1 && info.node.expanded && dropHasChildren)) {
    // onto the node, or just below an expanded node: its first child
    parentId = drop.item.id;
    index = 0;
  } else {
    parentId = drop.parentId;
    index = relative === -1 ? drop.index : drop.index + 1;
  }
  // the server takes the item out of its old place first: later siblings move up by one
  if (drag.parentId === parentId && drag.index < index) index -= 1;
  if (drag.parentId === parentId && drag.index === index) return null;
  return { id: dragId, parentId, index };
}

/** 上移 / 下移: the move request for one step up (-1) or down (+1) among the siblings, null at either end. */
export function stepMove(tree: MenuItem[], id: string, step: -1 | 1): MoveRequest | null {
  const at = locate(tree, id);
  if (!at) return null;
  const index = at.index + step;
  if (index < 0 || index >= at.siblings.length) return null;
  return { id, parentId: at.parentId, index };
}

/** 移动到: the move request that makes the item the last child of `parentId` (null: top level). */
export function moveUnder(tree: MenuItem[], id: string, parentId: string | null): MoveRequest | null {
  const at = locate(tree, id);
  if (!at) return null;
  if (parentId !== null) {
    if (subtreeIds(at.item).has(parentId)) return null;
    const parent = locate(tree, parentId);
    if (!parent) return null;
    if (at.parentId === parentId) return null;
    return { id, parentId, index: (parent.item.children ?? []).length };
  }
  if (at.parentId === null) return null;
  return { id, parentId: null, index: tree.length };
}
