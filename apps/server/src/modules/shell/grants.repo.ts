import { and, asc, count, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { enterprises, grants, roles, userRoles, users } from '../../db/schema';
import { likePattern } from '../../db/sql';

/** Database access of permissions: grants of roles and users on nodes, roles and their members. */

export type RoleRow = typeof roles.$inferSelect;
export interface Subject {
  subjectType: 'role' | 'user';
  subjectId: string;
}

const ofSubject = (s: Subject) => and(eq(grants.subjectType, s.subjectType), eq(grants.subjectId, s.subjectId));

/** A subject's grants on these nodes: node id → granted function codes ('' = visible). */
export async function grantsOfSubject(db: DbOrTx, s: Subject, nodeIds: string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (!nodeIds.length) return out;
  const rows = await db
    .select({ nodeId: grants.nodeId, functionCode: grants.functionCode })
    .from(grants)
    .where(and(ofSubject(s), inArray(grants.nodeId, nodeIds)));
  for (const r of rows) {
    const set = out.get(r.nodeId) ?? new Set<string>();
    set.add(r.functionCode);
    out.set(r.nodeId, set);
  }
  return out;
}

/** A subject's grants on these nodes become `values` (each a node id and a function code, '' = visible). */
export async function replaceGrantsOfSubject(
  tx: Tx,
  s: Subject,
  nodeIds: string[],
  values: { nodeId: string; functionCode: string }[],
): Promise<void> {
  if (nodeIds.length) await tx.delete(grants).where(and(ofSubject(s), inArray(grants.nodeId, nodeIds)));
  if (values.length) await tx.insert(grants).values(values.map((v) => ({ ...s, ...v })));
}

/** Grants of a node's functions other than `codes` go (the functions were removed). */
export async function deleteGrantsOfOtherFunctions(tx: Tx, nodeId: string, codes: string[]): Promise<void> {
  await tx
    .delete(grants)
    .where(
      and(
        eq(grants.nodeId, nodeId),
        ne(grants.functionCode, ''),
        codes.length ? sql`${grants.functionCode} not in ${codes}` : sql`true`,
      ),
    );
}

// ── roles ───────────────────────────────────────────────────────────────────

export async function findRoleByCode(db: DbOrTx, code: string): Promise<RoleRow | undefined> {
  const [r] = await db.select().from(roles).where(eq(roles.code, code));
  return r;
}

export async function findRoleById(db: DbOrTx, id: string): Promise<RoleRow | undefined> {
  const [r] = await db.select().from(roles).where(eq(roles.id, id));
  return r;
}

/** Is a role code taken (case-insensitive)? */
export async function roleCodeTaken(db: DbOrTx, code: string): Promise<boolean> {
  const [dup] = await db.select({ id: roles.id }).from(roles).where(sql`lower(${roles.code}) = ${code.toLowerCase()}`);
  return Boolean(dup);
}

/** Of these role codes, those that exist. */
export async function existingRoleCodes(db: DbOrTx, codes: string[]): Promise<Set<string>> {
  if (!codes.length) return new Set();
  const rows = await db.select({ code: roles.code }).from(roles).where(inArray(roles.code, codes));
  return new Set(rows.map((r) => r.code));
}

/** Roles, built-in first, with how many users were given each (built-in roles: see the login-type counts). */
export async function rolesWithMemberCounts(db: DbOrTx): Promise<{ role: RoleRow; members: number }[]> {
  const rows = await db
    .select({ r: roles, n: count(userRoles.userId) })
    .from(roles)
    .leftJoin(userRoles, eq(userRoles.roleId, roles.id))
    .groupBy(roles.id)
    .orderBy(sql`${roles.builtin} desc`, asc(roles.createdAt));
  return rows.map((r) => ({ role: r.r, members: Number(r.n) }));
}

/** How many accounts each login role type has. */
export async function accountsByLoginType(db: DbOrTx): Promise<Map<string, number>> {
  const rows = await db.select({ t: users.loginRoleType, n: count() }).from(users).groupBy(users.loginRoleType);
  return new Map(rows.map((t) => [t.t, Number(t.n)]));
}

export async function insertRole(tx: Tx, values: { code: string; name: string }): Promise<RoleRow> {
  const [r] = await tx.insert(roles).values(values).returning();
  return r!;
}

export async function renameRole(tx: Tx, id: string, name: string): Promise<void> {
  await tx.update(roles).set({ name }).where(eq(roles.id, id));
}

/** A role and every grant it held. */
export async function deleteRole(tx: Tx, r: RoleRow): Promise<void> {
  await tx.delete(grants).where(and(eq(grants.subjectType, 'role'), eq(grants.subjectId, r.code)));
  await tx.delete(roles).where(eq(roles.id, r.id));
}

// ── users ───────────────────────────────────────────────────────────────────

const briefColumns = {
  id: users.id,
  account: users.account,
  userName: users.userName,
  loginRoleType: users.loginRoleType,
  enterpriseName: enterprises.name,
};

export async function findUserName(db: DbOrTx, id: string): Promise<{ userName: string; account: string } | undefined> {
  const [u] = await db.select({ userName: users.userName, account: users.account }).from(users).where(eq(users.id, id));
  return u;
}

/** Do all of these users exist? */
export async function usersExist(db: DbOrTx, ids: string[]): Promise<boolean> {
  if (!ids.length) return true;
  const found = await db.select({ id: users.id }).from(users).where(inArray(users.id, ids));
  return found.length === ids.length;
}

export function membersOfRole(db: DbOrTx, roleId: string) {
  return db
    .select(briefColumns)
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .leftJoin(enterprises, eq(enterprises.id, users.enterpriseId))
    .where(eq(userRoles.roleId, roleId))
    .orderBy(asc(users.account));
}

export async function replaceMembersOfRole(tx: Tx, roleId: string, userIds: string[]): Promise<void> {
  await tx.delete(userRoles).where(eq(userRoles.roleId, roleId));
  if (userIds.length) await tx.insert(userRoles).values(userIds.map((userId) => ({ userId, roleId })));
}

/** Users whose account or name contains the keyword, a page of them and how many in all. */
export async function searchUsers(db: DbOrTx, q: { keyword?: string; pageNum: number; pageSize: number }) {
  const where = q.keyword
    ? or(ilike(users.account, likePattern(q.keyword)), ilike(users.userName, likePattern(q.keyword)))
    : undefined;
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const records = await db
    .select(briefColumns)
    .from(users)
    .leftJoin(enterprises, eq(enterprises.id, users.enterpriseId))
    .where(where)
    .orderBy(asc(users.account))
    .limit(q.pageSize)
    .offset((q.pageNum - 1) * q.pageSize);
  return { records, total: Number(total?.n ?? 0) };
}
