import { and, asc, count, desc, eq, gt, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import {
  accountLocks,
  businessSystems,
  enterprises,
  menuNodes,
  organizations,
  roles,
  serviceItems,
  userRoles,
  users,
} from '../../db/schema';
import { likePattern } from '../../db/sql';
import { announceAuthChange } from '../auth/auth.repo';

/** Database access of the administration pages: accounts, organisations, enterprises, service matters. */

export type UserRow = typeof users.$inferSelect;
export type OrganizationRow = typeof organizations.$inferSelect;
export type EnterpriseRow = typeof enterprises.$inferSelect;

export interface Paging {
  pageNum: number;
  pageSize: number;
}

const by = (col: AnyPgColumn, order: 'asc' | 'desc') => (order === 'asc' ? asc(col) : desc(col));

/** The row was last written at `iso` (timestamps are kept to the microsecond, the client sees milliseconds). */
export const sameInstant = (col: AnyPgColumn, iso: string) =>
  sql`abs(extract(epoch from (${col} - ${iso}::timestamptz))) < 0.001`;

// ── accounts ────────────────────────────────────────────────────────────────

/** Sign-in locks in force now, by account name. */
export async function loginLocksOf(db: DbOrTx, accounts: string[], now: Date) {
  const out = new Map<string, { ip: string; lockedUntil: string }[]>();
  if (!accounts.length) return out;
  const rows = await db
    .select()
    .from(accountLocks)
    .where(and(inArray(accountLocks.account, accounts), gt(accountLocks.lockedUntil, now)))
    .orderBy(asc(accountLocks.lockedUntil));
  for (const r of rows) {
    const list = out.get(r.account) ?? [];
    list.push({ ip: r.ip, lockedUntil: new Date(r.lockedUntil).toISOString() });
    out.set(r.account, list);
  }
  return out;
}

/** Lift an account's sign-in locks; its failures so far no longer count. Returns how many locks were in force. */
export async function unlockAccount(db: DbOrTx, id: string, account: string, now: Date): Promise<number> {
  const lifted = await db
    .delete(accountLocks)
    .where(and(eq(accountLocks.account, account), gt(accountLocks.lockedUntil, now)))
    .returning({ ip: accountLocks.ip });
  await db.delete(accountLocks).where(eq(accountLocks.account, account));
  await db.update(users).set({ loginResetAt: now }).where(eq(users.id, id));
  return lifted.length;
}

export interface AccountFilter extends Paging {
  loginRoleTypes: string[];
  loginRoleType?: string;
  enterpriseId?: string;
  keyword?: string;
  status?: string;
  sortField: 'account' | 'userName' | 'createdAt';
  order: 'asc' | 'desc';
}

const accountColumns = {
  user: users,
  enterpriseName: enterprises.name,
};

export async function listAccounts(db: DbOrTx, f: AccountFilter) {
  const conds: SQL[] = [inArray(users.loginRoleType, f.loginRoleTypes)];
  if (f.loginRoleType) conds.push(eq(users.loginRoleType, f.loginRoleType));
  if (f.enterpriseId) conds.push(eq(users.enterpriseId, f.enterpriseId));
  if (f.status) conds.push(eq(users.status, f.status));
  if (f.keyword) {
    const p = likePattern(f.keyword);
    conds.push(or(ilike(users.account, p), ilike(users.userName, p), ilike(users.phone, p))!);
  }
  const where = and(...conds);
  const sortCol = { account: users.account, userName: users.userName, createdAt: users.createdAt }[f.sortField];
  const records = await db
    .select(accountColumns)
    .from(users)
    .leftJoin(enterprises, eq(enterprises.id, users.enterpriseId))
    .where(where)
    .orderBy(by(sortCol, f.order), asc(users.id))
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  return { records, total: Number(total?.n ?? 0) };
}

export async function findAccount(db: DbOrTx, id: string) {
  const [row] = await db
    .select(accountColumns)
    .from(users)
    .leftJoin(enterprises, eq(enterprises.id, users.enterpriseId))
    .where(eq(users.id, id));
  return row;
}

export async function accountExists(db: DbOrTx, account: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    // accounts are stored lower-case
    .where(eq(users.account, account.toLowerCase()));
  return Boolean(row);
}

export async function insertAccount(db: DbOrTx, values: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function updateAccount(
  db: DbOrTx,
  id: string,
  values: Partial<typeof users.$inferInsert>,
  basedOn?: string,
): Promise<UserRow | undefined> {
  const cond = basedOn ? and(eq(users.id, id), sameInstant(users.updatedAt, basedOn)) : eq(users.id, id);
  // signed-in callers of this account are read afresh (status, name, role type), in every process
  await announceAuthChange(db);
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(cond)
    .returning();
  return row;
}

/** Custom roles (not built in) of each of the users. */
export async function customRolesOf(db: DbOrTx, userIds: string[]) {
  const out = new Map<string, { id: string; code: string; name: string }[]>();
  if (!userIds.length) return out;
  const rows = await db
    .select({ userId: userRoles.userId, id: roles.id, code: roles.code, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(inArray(userRoles.userId, userIds), eq(roles.builtin, false)))
    .orderBy(asc(roles.name));
  for (const r of rows) {
    const list = out.get(r.userId) ?? [];
    list.push({ id: r.id, code: r.code, name: r.name });
    out.set(r.userId, list);
  }
  return out;
}

export async function assignableRoles(db: DbOrTx) {
  return db
    .select({ id: roles.id, code: roles.code, name: roles.name })
    .from(roles)
    .where(eq(roles.builtin, false))
    .orderBy(asc(roles.name), asc(roles.id));
}

/** Replace a user's custom roles (built-in roles are never stored as rows). */
export async function replaceUserRoles(db: DbOrTx, userId: string, roleIds: string[]): Promise<void> {
  await db.delete(userRoles).where(eq(userRoles.userId, userId));
  if (roleIds.length) await db.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
}

// ── organisations ───────────────────────────────────────────────────────────

export interface OrganizationFilter extends Paging {
  keyword?: string;
  orgType?: string;
  region?: string;
  enabled?: boolean;
  sortField: 'name' | 'orgType' | 'region' | 'createdAt';
  order: 'asc' | 'desc';
}

export async function listOrganizations(db: DbOrTx, f: OrganizationFilter) {
  const conds: SQL[] = [];
  if (f.orgType) conds.push(eq(organizations.orgType, f.orgType));
  if (f.region) conds.push(eq(organizations.region, f.region));
  if (f.enabled !== undefined) conds.push(eq(organizations.enabled, f.enabled));
  if (f.keyword) {
    const p = likePattern(f.keyword);
    conds.push(or(ilike(organizations.name, p), ilike(organizations.contact, p), ilike(organizations.creditCode, p))!);
  }
  const where = conds.length ? and(...conds) : undefined;
  const sortCol = {
    name: organizations.name,
    orgType: organizations.orgType,
    region: organizations.region,
    createdAt: organizations.createdAt,
  }[f.sortField];
  const records = await db
    .select()
    .from(organizations)
    .where(where)
    .orderBy(by(sortCol, f.order), asc(organizations.id))
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize);
  const [total] = await db.select({ n: count() }).from(organizations).where(where);
  return { records, total: Number(total?.n ?? 0) };
}

export async function findOrganization(db: DbOrTx, id: string): Promise<OrganizationRow | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  return row;
}

/** Another organisation (not `exceptId`) with this name or credit code. */
export async function organizationClash(db: DbOrTx, name: string, creditCode: string | null, exceptId?: string) {
  const same = creditCode
    ? or(eq(organizations.name, name), eq(organizations.creditCode, creditCode))
    : eq(organizations.name, name);
  const rows = await db
    .select({ id: organizations.id, name: organizations.name, creditCode: organizations.creditCode })
    .from(organizations)
    .where(exceptId ? and(same, sql`${organizations.id} <> ${exceptId}`) : same);
  return {
    name: rows.some((r) => r.name === name),
    creditCode: creditCode !== null && rows.some((r) => r.creditCode === creditCode),
  };
}

export async function insertOrganization(
  db: DbOrTx,
  values: typeof organizations.$inferInsert,
): Promise<OrganizationRow> {
  const [row] = await db.insert(organizations).values(values).returning();
  return row!;
}

export async function updateOrganization(
  db: DbOrTx,
  id: string,
  version: number,
  values: Partial<typeof organizations.$inferInsert>,
): Promise<OrganizationRow | undefined> {
  const [row] = await db
    .update(organizations)
    .set({ ...values, version: version + 1, updatedAt: new Date() })
    .where(and(eq(organizations.id, id), eq(organizations.version, version)))
    .returning();
  return row;
}

export async function deleteOrganization(db: DbOrTx, id: string): Promise<OrganizationRow | undefined> {
  const [row] = await db.delete(organizations).where(eq(organizations.id, id)).returning();
  return row;
}

// ── enterprises ─────────────────────────────────────────────────────────────

/** Accounts of the enterprise (written out: inside a subquery drizzle would leave the outer column unqualified). */
const staffCount = sql<number>`(select count(*)::int from "users" "staff" where "staff"."enterprise_id" = "enterprises"."id")`;

export async function findEnterprise(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ enterprise: enterprises, staffCount })
    .from(enterprises)
    .where(eq(enterprises.id, id));
  return row;
}

/** The enterprise's details every enterprise must give (ENTERPRISE_REQUIRED_FIELDS), if it exists. */
export async function requiredDetailsOf(db: DbOrTx, id: string) {
  const [row] = await db
    .select({
      legalPerson: enterprises.legalPerson,
      region: enterprises.region,
      address: enterprises.address,
      registeredCapital: enterprises.registeredCapital,
      establishedAt: enterprises.establishedAt,
    })
    .from(enterprises)
    .where(eq(enterprises.id, id));
  return row;
}

export interface EnterpriseFilter extends Paging {
  keyword?: string;
  enterpriseType?: string;
  region?: string;
  sortField: 'name' | 'creditCode' | 'updatedAt';
  order: 'asc' | 'desc';
}

export async function listEnterprises(db: DbOrTx, f: EnterpriseFilter) {
  const conds: SQL[] = [];
  if (f.enterpriseType) conds.push(eq(enterprises.enterpriseType, f.enterpriseType));
  if (f.region) conds.push(eq(enterprises.region, f.region));
  if (f.keyword) {
    const p = likePattern(f.keyword);
    conds.push(or(ilike(enterprises.name, p), ilike(enterprises.creditCode, p))!);
  }
  const where = conds.length ? and(...conds) : undefined;
  const sortCol = { name: enterprises.name, creditCode: enterprises.creditCode, updatedAt: enterprises.updatedAt }[
    f.sortField
  ];
  const records = await db
    .select({ enterprise: enterprises, staffCount })
    .from(enterprises)
    .where(where)
    .orderBy(by(sortCol, f.order), asc(enterprises.id))
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize);
  const [total] = await db.select({ n: count() }).from(enterprises).where(where);
  return { records, total: Number(total?.n ?? 0) };
}

/** Update only when the row was last written at `basedOn`; undefined when someone else changed it first. */
export async function updateEnterprise(
  db: DbOrTx,
  id: string,
  basedOn: string,
  values: Partial<typeof enterprises.$inferInsert>,
): Promise<EnterpriseRow | undefined> {
  const [row] = await db
    .update(enterprises)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(enterprises.id, id), sameInstant(enterprises.updatedAt, basedOn)))
    .returning();
  return row;
}

// ── service matters ─────────────────────────────────────────────────────────

export interface ServiceItemFilter extends Paging {
  keyword?: string;
  systemCoding?: string;
  enabled?: boolean;
  /** only items of enabled systems (what non-administrators see) */
  liveSystemsOnly: boolean;
  sortField: 'sort' | 'name' | 'timeLimitDays' | 'updatedAt';
  order: 'asc' | 'desc';
}

const serviceItemColumns = {
  item: serviceItems,
  systemName: businessSystems.systemName,
  nodeTitle: menuNodes.title,
  nodeProperties: menuNodes.nodeProperties,
};
/** the node an item names, in the item's own system only */
const itemNode = and(eq(menuNodes.gnCoding, serviceItems.gnCoding), eq(menuNodes.systemId, businessSystems.id));

export async function listServiceItems(db: DbOrTx, f: ServiceItemFilter) {
  const conds: SQL[] = [];
  if (f.systemCoding) conds.push(eq(serviceItems.systemCoding, f.systemCoding));
  if (f.enabled !== undefined) conds.push(eq(serviceItems.enabled, f.enabled));
  if (f.liveSystemsOnly) conds.push(eq(businessSystems.enabled, true));
  if (f.keyword) {
    const p = likePattern(f.keyword);
    conds.push(or(ilike(serviceItems.name, p), ilike(serviceItems.description, p))!);
  }
  const where = conds.length ? and(...conds) : undefined;
  const sortCol = {
    sort: serviceItems.sort,
    name: serviceItems.name,
    timeLimitDays: serviceItems.timeLimitDays,
    updatedAt: serviceItems.updatedAt,
  }[f.sortField];
  const records = await db
    .select(serviceItemColumns)
    .from(serviceItems)
    .leftJoin(businessSystems, eq(businessSystems.gnCoding, serviceItems.systemCoding))
    .leftJoin(menuNodes, itemNode)
    .where(where)
    .orderBy(by(sortCol, f.order), asc(serviceItems.name), asc(serviceItems.id))
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize);
  const [total] = await db
    .select({ n: count() })
    .from(serviceItems)
    .leftJoin(businessSystems, eq(businessSystems.gnCoding, serviceItems.systemCoding))
    .where(where);
  return { records, total: Number(total?.n ?? 0) };
}

export async function findServiceItem(db: DbOrTx, id: string) {
  const [row] = await db
    .select(serviceItemColumns)
    .from(serviceItems)
    .leftJoin(businessSystems, eq(businessSystems.gnCoding, serviceItems.systemCoding))
    .leftJoin(menuNodes, itemNode)
    .where(eq(serviceItems.id, id));
  return row;
}

export async function systemNameOf(db: DbOrTx, gnCoding: string): Promise<string | null> {
  const [row] = await db
    .select({ systemName: businessSystems.systemName })
    .from(businessSystems)
    .where(eq(businessSystems.gnCoding, gnCoding));
  return row?.systemName ?? null;
}

/** The code of the system a node belongs to (null: no such node). */
export async function systemOfNode(db: DbOrTx, gnCoding: string): Promise<string | null> {
  const [row] = await db
    .select({ systemCoding: businessSystems.gnCoding })
    .from(menuNodes)
    .innerJoin(businessSystems, eq(businessSystems.id, menuNodes.systemId))
    .where(eq(menuNodes.gnCoding, gnCoding));
  return row?.systemCoding ?? null;
}

export async function serviceItemNameTaken(db: DbOrTx, name: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: serviceItems.id })
    .from(serviceItems)
    .where(
      exceptId ? and(eq(serviceItems.name, name), sql`${serviceItems.id} <> ${exceptId}`) : eq(serviceItems.name, name),
    );
  return Boolean(row);
}

export async function insertServiceItem(db: DbOrTx, values: typeof serviceItems.$inferInsert) {
  const [row] = await db.insert(serviceItems).values(values).returning();
  return row!;
}

export async function updateServiceItem(
  db: DbOrTx,
  id: string,
  version: number,
  values: Partial<typeof serviceItems.$inferInsert>,
) {
  const [row] = await db
    .update(serviceItems)
    .set({ ...values, version: version + 1, updatedAt: new Date() })
    .where(and(eq(serviceItems.id, id), eq(serviceItems.version, version)))
    .returning();
  return row;
}

export async function deleteServiceItem(db: DbOrTx, id: string) {
  const [row] = await db.delete(serviceItems).where(eq(serviceItems.id, id)).returning();
  return row;
}
