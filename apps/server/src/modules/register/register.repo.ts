import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { enterpriseAdmins, enterpriseRegistrations, enterprises, files, realNameUsers, users } from '../../db/schema';

export type RegistrationRow = typeof enterpriseRegistrations.$inferSelect;
export type NewRegistration = typeof enterpriseRegistrations.$inferInsert;

/** Is the credit code an enterprise's, or that of an application under review or approved? */
export async function creditCodeTaken(q: DbOrTx, creditCode: string): Promise<boolean> {
  const [e] = await q
    .select({ id: enterprises.id })
    .from(enterprises)
    .where(eq(enterprises.creditCode, creditCode))
    .limit(1);
  if (e) return true;
  const [r] = await q
    .select({ id: enterpriseRegistrations.id })
    .from(enterpriseRegistrations)
    .where(
      and(
        eq(enterpriseRegistrations.creditCode, creditCode),
        inArray(enterpriseRegistrations.status, ['pending', 'approved']),
      ),
    )
    .limit(1);
  return !!r;
}

/** Is the account name a user's, or that of an application under review? */
export async function accountTaken(q: DbOrTx, account: string): Promise<boolean> {
  const [u] = await q.select({ id: users.id }).from(users).where(eq(users.account, account)).limit(1);
  if (u) return true;
  const [r] = await q
    .select({ id: enterpriseRegistrations.id })
    .from(enterpriseRegistrations)
    .where(and(eq(enterpriseRegistrations.account, account), eq(enterpriseRegistrations.status, 'pending')))
    .limit(1);
  return !!r;
}

export async function insertRegistration(q: DbOrTx, row: NewRegistration): Promise<RegistrationRow> {
  const [r] = await q.insert(enterpriseRegistrations).values(row).returning();
  return r!;
}

export async function registrationById(q: DbOrTx, id: string, lock = false): Promise<RegistrationRow | undefined> {
  const base = q.select().from(enterpriseRegistrations).where(eq(enterpriseRegistrations.id, id));
  const [r] = lock ? await base.for('update') : await base;
  return r;
}

export async function registrationByNo(
  q: DbOrTx,
  creditCode: string,
  applicationNo: string,
): Promise<RegistrationRow | undefined> {
  const [r] = await q
    .select()
    .from(enterpriseRegistrations)
    .where(
      and(eq(enterpriseRegistrations.applicationNo, applicationNo), eq(enterpriseRegistrations.creditCode, creditCode)),
    );
  return r;
}

export async function applicationNoExists(q: DbOrTx, applicationNo: string): Promise<boolean> {
  const [r] = await q
    .select({ id: enterpriseRegistrations.id })
    .from(enterpriseRegistrations)
    .where(eq(enterpriseRegistrations.applicationNo, applicationNo));
  return !!r;
}

export async function updateRegistration(q: DbOrTx, id: string, set: Partial<NewRegistration>): Promise<void> {
  await q
    .update(enterpriseRegistrations)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(enterpriseRegistrations.id, id));
}

/**
 * The approved, not yet activated registration whose enterprise has this credit code, legal representative and legal
 * phone, with its account still waiting for activation.
 */
export async function activatable(
  q: DbOrTx,
  m: { creditCode: string; legalPerson: string; legalPhone: string },
  lock = false,
): Promise<{ registration: RegistrationRow; user: { id: string; account: string; userName: string } } | undefined> {
  const base = q
    .select({
      registration: enterpriseRegistrations,
      user: { id: users.id, account: users.account, userName: users.userName },
    })
    .from(enterpriseRegistrations)
    .innerJoin(users, eq(users.id, enterpriseRegistrations.userId))
    .where(
      and(
        eq(enterpriseRegistrations.creditCode, m.creditCode),
        eq(enterpriseRegistrations.status, 'approved'),
        isNull(enterpriseRegistrations.activatedAt),
        eq(enterpriseRegistrations.legalPerson, m.legalPerson),
        eq(enterpriseRegistrations.legalPhone, m.legalPhone),
        eq(users.status, 'inactive'),
      ),
    )
    .limit(1);
  const [r] = lock ? await base.for('update', { of: enterpriseRegistrations }) : await base;
  return r;
}

/** The licence a registration may cite: uploaded for the registration node by the applicant account, not yet bound. */
export async function unboundLicence(q: DbOrTx, fileId: string, ownerId: string, gnCoding: string) {
  const [f] = await q
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.ownerId, ownerId), eq(files.gnCoding, gnCoding), isNull(files.recordId)))
    .for('update');
  return f;
}

export async function bindFile(q: DbOrTx, fileId: string, recordId: string): Promise<void> {
  await q.update(files).set({ recordId }).where(eq(files.id, fileId));
}

export async function insertEnterprise(q: DbOrTx, values: typeof enterprises.$inferInsert) {
  const [e] = await q.insert(enterprises).values(values).returning();
  return e!;
}

export async function insertUser(q: DbOrTx, values: typeof users.$inferInsert) {
  const [u] = await q.insert(users).values(values).returning();
  return u!;
}

export async function insertEnterpriseAdmin(q: DbOrTx, enterpriseId: string, userId: string): Promise<void> {
  await q.insert(enterpriseAdmins).values({ enterpriseId, userId });
}

/** Activates an inactive account; false when it is not inactive (any more). */
export async function activateUser(q: DbOrTx, userId: string, at: Date): Promise<boolean> {
  const rows = await q
    .update(users)
    .set({ status: 'active', updatedAt: at })
    .where(and(eq(users.id, userId), eq(users.status, 'inactive')))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function idNumberTaken(q: DbOrTx, idNumber: string): Promise<boolean> {
  const [r] = await q
    .select({ id: realNameUsers.userId })
    .from(realNameUsers)
    .where(eq(realNameUsers.idNumber, idNumber));
  return !!r;
}

export async function insertRealName(q: DbOrTx, values: typeof realNameUsers.$inferInsert): Promise<void> {
  await q.insert(realNameUsers).values(values);
}

/** Enterprise types offered to applicants (the portal's list): those of the registered enterprises. */
export async function knownEnterpriseTypes(q: DbOrTx): Promise<string[]> {
  const rows = await q.selectDistinct({ t: enterprises.enterpriseType }).from(enterprises);
  return rows.map((r) => r.t);
}

/** How many registrations an address submitted since `since` (a brake on floods). */
export async function submissionsFrom(q: DbOrTx, ip: string, since: Date): Promise<number> {
  const [r] = await q
    .select({ n: sql<number>`count(*)::int` })
    .from(enterpriseRegistrations)
    .where(and(eq(enterpriseRegistrations.ip, ip), sql`${enterpriseRegistrations.createdAt} >= ${since}`));
  return Number(r?.n ?? 0);
}

export async function enterpriseWithCode(q: DbOrTx, creditCode: string): Promise<boolean> {
  const [e] = await q.select({ id: enterprises.id }).from(enterprises).where(eq(enterprises.creditCode, creditCode));
  return !!e;
}

export async function userAccountExists(q: DbOrTx, account: string): Promise<boolean> {
  const [u] = await q.select({ id: users.id }).from(users).where(eq(users.account, account));
  return !!u;
}
