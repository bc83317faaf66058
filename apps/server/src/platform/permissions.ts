import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { businessSystems, grants, menuNodes, roles, userRoles } from '../db/schema';
import { createCache } from './cache';
import { forbidden, notFound } from './errors';
import { executePrepared, renderCached } from './prepared';

/**
 * Server-side permissions (issue: configurable shell). A caller's subjects are their user id and their roles: the
 * built-in role of their login type (M → admin, D → developer, U → user) plus the roles administrators gave them.
 * Administrators (M) may see and call everything; developers (D) see every menu but call functions only when granted.
 * Grants are read from the database on every request, so a change takes effect on the caller's next request. Within
 * one request they may be read once: a caller that carries a `memo` (see `requestMemo`) keeps its role codes and its
 * grants on each node for the rest of that request only. Across requests a state is only ever reused after the
 * database confirmed, in the same statement that relies on it, that `access_version` has not moved since it was read
 * (see `lastNodeState`): any change to grants, roles, role members, functions or nodes moves it.
 */

export interface Caller {
  id: string;
  loginRoleType: string;
  /** what this request already read about the caller; never shared between requests */
  memo?: RequestMemo;
}

/** A node as one caller sees it right now: its live state, its functions, and what the caller was granted on it. */
export interface NodeState {
  /** the node's schema version (`menu_nodes.fields_version`) and data source, read live */
  fieldsVersion: number;
  dataSource: string;
  disabled: boolean;
  /** the node's functions (buttons), in their order */
  functions: { code: string; name: string; color: string; show: boolean; kind: 'table' | 'form' }[];
  /** function codes granted to the caller's subjects on the node ('' = visible) */
  granted: Set<string>;
  /**
   * the caller's role codes in the same snapshot (the built-in one first, then those assigned): exact while
   * `access_version` holds, since a change to user_roles or roles moves it
   */
  roleCodes: string[];
  /** `access_version.v` in the snapshot the state was read from */
  accessVersion: number;
}

export interface RequestMemo {
  roleCodes?: Promise<string[]>;
  nodes: Map<string, Promise<NodeState | null>>;
}

const memos = new WeakMap<object, RequestMemo>();

/**
 * The memo of one request, keyed by an object that lives exactly as long as that request (its AuthContext, made
 * fresh by every authentication). Permission reads made through a caller carrying it happen once per request.
 */
export function requestMemo(request: object): RequestMemo {
  let m = memos.get(request);
  if (!m) {
    m = { nodes: new Map() };
    memos.set(request, m);
  }
  return m;
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
const nodeCache = createCache<string, NodeRef>('permissions.nodes', { max: 10_000, ttlMs: 30_000 });

export function clearNodeCache(): number {
  const n = nodeCache.size;
  nodeCache.clear();
  return n;
}

export async function findNode(db: Db, gnCoding: string): Promise<NodeRef | null> {
  const hit = nodeCache.get(gnCoding);
  if (hit) return hit;
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
  nodeCache.set(gnCoding, row);
  return row;
}

export async function requireNodeRef(db: Db, gnCoding: string): Promise<NodeRef> {
  const node = await findNode(db, gnCoding);
  if (!node) throw notFound('节点不存在');
  return node;
}

/** Role codes of a caller: the built-in one and those assigned (once per request with a memo). */
export function roleCodesOf(db: Db, c: Caller): Promise<string[]> {
  if (!c.memo) return readRoleCodes(db, c);
  c.memo.roleCodes ??= readRoleCodes(db, c);
  return c.memo.roleCodes;
}

async function readRoleCodes(db: Db, c: Caller): Promise<string[]> {
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

/**
 * The node's live state and the caller's grants on it, in one prepared statement: the caller's subjects (user id,
 * built-in role, assigned roles) are resolved inside it. Read once per request when the caller carries a memo.
 */
export function nodeState(db: Db, c: Caller, nodeId: string): Promise<NodeState | null> {
  if (!c.memo) return readNodeState(db, c, nodeId);
  let hit = c.memo.nodes.get(nodeId);
  if (!hit) {
    hit = readNodeState(db, c, nodeId);
    // a failed read is not remembered
    hit.catch(() => c.memo?.nodes.delete(nodeId));
    c.memo.nodes.set(nodeId, hit);
  }
  return hit;
}

/**
 * The node-state read as a fragment (the list statement embeds it): one row of the node's schema version `v`, data
 * source `ds`, `off` (disabled), its functions `fns` and the codes `granted` to the caller's subjects, which are
 * resolved inside it (user id, built-in role of their login type, assigned roles).
 */
export function nodeStateSelect(c: Caller, nodeId: string, bind: (key: string, value: unknown) => SQL): SQL {
  const me = bind('me', c.id);
  const builtin = bind('role', BUILTIN_ROLE_BY_TYPE[c.loginRoleType] ?? 'user');
  return sql`select n."fields_version" as "v", n."data_source" as "ds", n."disabled" as "off",
  coalesce((select json_agg(json_build_object('code', f."code", 'name', f."name", 'color', f."color", 'show', f."show", 'kind', f."kind") order by f."sort", f."code")
    from "node_functions" f where f."node_id" = n."id"), '[]'::json) as "fns",
  array(select distinct g."function_code" from "grants" g where g."node_id" = n."id" and (
    (g."subject_type" = 'user' and g."subject_id" = ${me}::text)
    or (g."subject_type" = 'role' and g."subject_id" in (
      select ${builtin}::text union all
      select r."code" from "user_roles" ur join "roles" r on r."id" = ur."role_id" where ur."user_id" = ${me}::uuid)))) as "granted",
  array(select ${builtin}::text union all
    select r."code" from "user_roles" ur join "roles" r on r."id" = ur."role_id"
    where ur."user_id" = ${me}::uuid and r."code" <> ${builtin}::text) as "roles",
  (select av."v" from "access_version" av where av."id" = 1) as "av"
from "menu_nodes" n where n."id" = ${bind('node', nodeId)}::uuid`;
}

/** A node-state row (see nodeStateSelect) as a NodeState. */
export function nodeStateOf(row: Record<string, unknown>): NodeState {
  const fns = (typeof row.fns === 'string' ? JSON.parse(row.fns) : row.fns) as NodeState['functions'];
  return {
    fieldsVersion: Number(row.v),
    dataSource: String(row.ds),
    disabled: Boolean(row.off),
    functions: fns.map((f) => ({ ...f, kind: f.kind === 'form' ? 'form' : 'table' })),
    granted: new Set(row.granted as string[]),
    roleCodes: [...(row.roles as string[])],
    accessVersion: Number(row.av),
  };
}

/**
 * The node state each caller last read, by caller and node: a hint, never an answer by itself. Whoever uses one must
 * have the database confirm `access_version` still equals its `accessVersion` in the statement that relies on it.
 */
const lastStates = createCache<string, NodeState>('permissions.lastStates', { max: 20_000 });
const stateKey = (c: Caller, nodeId: string) => `${c.id}|${c.loginRoleType}|${nodeId}`;

function keepLastState(c: Caller, nodeId: string, state: NodeState | null) {
  const key = stateKey(c, nodeId);
  if (state) lastStates.set(key, state);
  else lastStates.delete(key);
}

/** The state this caller last read of the node (see lastStates), if any. */
export function lastNodeState(c: Caller, nodeId: string): NodeState | undefined {
  return lastStates.get(stateKey(c, nodeId));
}

/** Forget a last-read state that the database said is out of date. */
export function forgetNodeState(c: Caller, nodeId: string) {
  lastStates.delete(stateKey(c, nodeId));
}

/** Keeps a node state read along with something else as this request's read of it (callers with a memo only). */
export function rememberNodeState(c: Caller, nodeId: string, state: NodeState | null) {
  c.memo?.nodes.set(nodeId, Promise.resolve(state));
  keepRoleCodes(c, state);
  keepLastState(c, nodeId, state);
}

/** A node state read or confirmed in this request carries the caller's role codes of that moment: the request's. */
function keepRoleCodes(c: Caller, state: NodeState | null) {
  if (c.memo && state) c.memo.roleCodes ??= Promise.resolve(state.roleCodes);
}

/** The values nodeStateSelect binds. */
export function nodeStateValues(c: Caller, nodeId: string, into: Map<string, unknown>) {
  into.set('me', c.id);
  into.set('role', BUILTIN_ROLE_BY_TYPE[c.loginRoleType] ?? 'user');
  into.set('node', nodeId);
}

async function readNodeState(db: Db, c: Caller, nodeId: string): Promise<NodeState | null> {
  const known = new Map<string, unknown>();
  nodeStateValues(c, nodeId, known);
  const statement = renderCached(db, 'node-state', (bind) => nodeStateSelect(c, nodeId, bind), known);
  const [row] = await executePrepared(db, statement);
  const state = row ? nodeStateOf(row) : null;
  keepRoleCodes(c, state);
  keepLastState(c, nodeId, state);
  return state;
}

async function hasGrant(db: Db, c: Caller, nodeId: string, functionCode: string | null): Promise<boolean> {
  const granted = (await nodeState(db, c, nodeId))?.granted;
  if (!granted) return false;
  // a function grant implies the node is visible
  return functionCode === null ? granted.size > 0 : granted.has(functionCode);
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

/**
 * Throws 403 unless the caller is an administrator or was granted the node itself (visible or any function) — a
 * developer's view of every menu does not count. For what is not public beyond the node, such as draft notices.
 */
export async function requireGranted(db: Db, c: Caller, gnCoding: string): Promise<NodeRef> {
  const node = await findNode(db, gnCoding);
  if (!node) throw forbidden();
  if (isAdmin(c)) return node;
  if (node.disabled || !(await hasGrant(db, c, node.id, null))) throw forbidden();
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
