import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { businessSystems, grants, menuNodes, roles, userRoles } from '../db/schema';
import { forbidden, notFound } from './errors';

/**
 * Server-side permissions (issue: configurable shell). A caller's subjects are their user id and their roles: the
 * built-in role of their login type (M → admin, D → developer, U → user) plus the roles administrators gave them.
 * Administrators (M) may see and call everything; developers (D) see every menu but call functions only when granted.
 * Grants are read from the database on every check, so a change takes effect on the caller's next request.
 */

export interface Caller {
  id: string;
  loginRoleType: string;
}

export const BUILTIN_ROLE_BY_TYPE: Record<string, string> = { M: 'admin', D: 'developer', U: 'user' };
export const BUILTIN_ROLES = [
  { code: 'admin', name: '管理员', loginRoleType: 'M' },
  { code: 'developer', name: '开发者', loginRoleType: 'D' },
  { code: 'user', name: '企业/个人', loginRoleType: 'U' },
] as const;

export const isAdmin = (c: Caller) => c.loginRoleType === 'M';
export const isDeveloper = (c: Caller) => c.loginRoleType === 'D';
/** Admins and developers see every node (the sidebar still hides itShows 否). */
export const seesAllNodes = (c: Caller) => isAdmin(c) || isDeveloper(c);

export interface NodeRef {
  id: string;
  gnCoding: string;
  systemId: string;
  systemCoding: string;
  disabled: boolean;
  itShows: string;
}

/**
 * gnCoding → node. A small per-process cache: entries are dropped by every configuration change in this process and
 * by GET /ks/cache/refresh, and expire after 30 s so that other processes' changes arrive too. Grants are never cached.
 */
const NODE_TTL_MS = 30_000;
const nodeCache = new Map<string, { node: NodeRef; at: number }>();

export function clearNodeCache(): number {
  const n = nodeCache.size;
  nodeCache.clear();
  return n;
}

export async function findNode(db: Db, gnCoding: string): Promise<NodeRef | null> {
  const hit = nodeCache.get(gnCoding);
  if (hit && Date.now() - hit.at < NODE_TTL_MS) return hit.node;
  const [row] = await db
    .select({
      id: menuNodes.id,
      gnCoding: menuNodes.gnCoding,
      systemId: menuNodes.systemId,
      systemCoding: businessSystems.gnCoding,
      disabled: menuNodes.disabled,
      itShows: menuNodes.itShows,
    })
    .from(menuNodes)
    .innerJoin(businessSystems, eq(businessSystems.id, menuNodes.systemId))
    .where(eq(menuNodes.gnCoding, gnCoding));
  if (!row) {
    nodeCache.delete(gnCoding);
    return null;
  }
  nodeCache.set(gnCoding, { node: row, at: Date.now() });
  return row;
}

export async function requireNodeRef(db: Db, gnCoding: string): Promise<NodeRef> {
  const node = await findNode(db, gnCoding);
  if (!node) throw notFound('节点不存在');
  return node;
}

/** Role codes of a caller: the built-in one and those assigned. */
export async function roleCodesOf(db: Db, c: Caller): Promise<string[]> {
  const rows = await db
    .select({ code: roles.code })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, c.id));
  const builtin = BUILTIN_ROLE_BY_TYPE[c.loginRoleType] ?? 'user';
  return [builtin, ...rows.map((r) => r.code).filter((code) => code !== builtin)];
}

/** SQL condition: the grant belongs to one of the caller's subjects. */
export function subjectCondition(userId: string, roleCodes: string[]) {
  return or(
    and(eq(grants.subjectType, 'user'), eq(grants.subjectId, userId)),
    and(eq(grants.subjectType, 'role'), inArray(grants.subjectId, roleCodes)),
  );
}

/**
 * Everything a caller was granted in a system (or everywhere): node id → granted function codes ('' = visible).
 */
export async function grantsOf(db: Db, c: Caller, systemId?: string): Promise<Map<string, Set<string>>> {
  const codes = await roleCodesOf(db, c);
  const rows = await db
    .select({ nodeId: grants.nodeId, functionCode: grants.functionCode })
    .from(grants)
    .innerJoin(menuNodes, eq(menuNodes.id, grants.nodeId))
    .where(and(subjectCondition(c.id, codes), systemId ? eq(menuNodes.systemId, systemId) : sql`true`));
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    const set = out.get(r.nodeId) ?? new Set<string>();
    set.add(r.functionCode);
    out.set(r.nodeId, set);
  }
  return out;
}

async function hasGrant(db: Db, c: Caller, nodeId: string, functionCode: string | null): Promise<boolean> {
  const codes = await roleCodesOf(db, c);
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(grants)
    .where(
      and(
        eq(grants.nodeId, nodeId),
        // a function grant implies the node is visible
        functionCode === null ? sql`true` : eq(grants.functionCode, functionCode),
        subjectCondition(c.id, codes),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** May the caller see this node (its menu, its list)? */
export async function canSeeNode(db: Db, c: Caller, node: NodeRef): Promise<boolean> {
  if (seesAllNodes(c)) return true;
  if (node.disabled) return false;
  return hasGrant(db, c, node.id, null);
}

export async function requireNode(db: Db, c: Caller, gnCoding: string): Promise<NodeRef> {
  const node = await findNode(db, gnCoding);
  // an unknown node and a node the caller may not see answer the same, so codes cannot be probed
  if (!node || !(await canSeeNode(db, c, node))) throw forbidden();
  return node;
}

/** May the caller press this function of this node? */
export async function canCall(db: Db, c: Caller, node: NodeRef, functionCode: string): Promise<boolean> {
  if (isAdmin(c)) return true;
  if (node.disabled) return false;
  return hasGrant(db, c, node.id, functionCode);
}

/** Throws 403 unless the caller holds the function; use before reading the input of the call. */
export async function requireFunction(db: Db, c: Caller, gnCoding: string, functionCode: string): Promise<NodeRef> {
  const node = await findNode(db, gnCoding);
  if (!node || !(await canCall(db, c, node, functionCode))) throw forbidden();
  return node;
}
