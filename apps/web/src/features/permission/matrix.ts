import type { GrantMatrixRow } from '@ks/contracts';
import type { MatrixGrant } from '../../api/permission';

/**
 * The editing rules of the permission matrix (roles × nodes × functions), kept pure:
 * - a granted function implies the node is visible;
 * - clearing 可见 clears the node's functions;
 * - the 可见 checkbox of a node with children acts on its whole subtree.
 */

export interface NodeGrant {
  visible: boolean;
  /** granted function codes, in the node's function order */
  codes: string[];
}

export type Grants = Record<string, NodeGrant>;

export function grantsFromRows(rows: readonly GrantMatrixRow[]): Grants {
  const out: Grants = {};
  for (const r of rows) {
    const codes = r.functions.filter((f) => f.granted).map((f) => f.code);
    out[r.gnCoding] = { visible: r.visible || codes.length > 0, codes };
  }
  return out;
}

/** gnCoding → the node and all its descendants (by parentId), in row order. */
export function subtrees(rows: readonly GrantMatrixRow[]): Map<string, string[]> {
  const children = new Map<string | null, GrantMatrixRow[]>();
  for (const r of rows) {
    const list = children.get(r.parentId) ?? [];
    list.push(r);
    children.set(r.parentId, list);
  }
  const out = new Map<string, string[]>();
  const collect = (r: GrantMatrixRow, seen: Set<string>): string[] => {
    const cached = out.get(r.gnCoding);
    if (cached) return cached;
    if (seen.has(r.id)) return [r.gnCoding];
    seen.add(r.id);
    const list = [r.gnCoding, ...(children.get(r.id) ?? []).flatMap((c) => collect(c, seen))];
    out.set(r.gnCoding, list);
    return list;
  };
  for (const r of rows) collect(r, new Set());
  return out;
}

const grantOf = (grants: Grants, gnCoding: string): NodeGrant => grants[gnCoding] ?? { visible: false, codes: [] };

/** Grants or revokes one function; granting makes the node visible. */
export function setFunction(grants: Grants, row: GrantMatrixRow, code: string, checked: boolean): Grants {
  const g = grantOf(grants, row.gnCoding);
  const set = new Set(g.codes);
  if (checked) set.add(code);
  else set.delete(code);
  const codes = row.functions.map((f) => f.code).filter((c) => set.has(c));
  return { ...grants, [row.gnCoding]: { visible: g.visible || checked, codes } };
}

/** Sets 可见 of the given nodes (a node's subtree); clearing it clears their functions too. */
export function setVisible(grants: Grants, gnCodings: readonly string[], checked: boolean): Grants {
  const next = { ...grants };
  for (const code of gnCodings) {
    const g = grantOf(grants, code);
    next[code] = checked ? { visible: true, codes: g.codes } : { visible: false, codes: [] };
  }
  return next;
}

/** 全选 of a row: visible and every function. */
export const selectRow = (grants: Grants, row: GrantMatrixRow): Grants => ({
  ...grants,
  [row.gnCoding]: { visible: true, codes: row.functions.map((f) => f.code) },
});

/** 清空 of a row: neither visible nor any function. */
export const clearRow = (grants: Grants, row: GrantMatrixRow): Grants => ({
  ...grants,
  [row.gnCoding]: { visible: false, codes: [] },
});

export type Coverage = 'all' | 'some' | 'none';

/** How many of the nodes are visible. */
export function coverage(grants: Grants, gnCodings: readonly string[]): Coverage {
  const n = gnCodings.filter((c) => grantOf(grants, c).visible).length;
  return n === 0 ? 'none' : n === gnCodings.length ? 'all' : 'some';
}

/** The save-matrix grants: one per node, in row order. */
export function toSaveGrants(rows: readonly GrantMatrixRow[], grants: Grants): MatrixGrant[] {
  return rows.map((r) => {
    const g = grantOf(grants, r.gnCoding);
    return { gnCoding: r.gnCoding, visible: g.visible || g.codes.length > 0, functionCodes: [...g.codes] };
  });
}

export function sameGrants(a: Grants, b: Grants): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const x = grantOf(a, k);
    const y = grantOf(b, k);
    if (x.visible !== y.visible || x.codes.length !== y.codes.length || x.codes.some((c, i) => c !== y.codes[i])) {
      return false;
    }
  }
  return true;
}

export function summary(grants: Grants): { nodes: number; functions: number } {
  let nodes = 0;
  let functions = 0;
  for (const g of Object.values(grants)) {
    if (g.visible) nodes += 1;
    functions += g.codes.length;
  }
  return { nodes, functions };
}
