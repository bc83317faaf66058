import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { createdAt, id, timestamptz, updatedAt } from './columns';
import { files } from './files';

/**
 * Enterprise self-registrations (issue 15). One row per application; its review runs on the engine node
 * REGISTRATION_NODE (the node's record has the same id). What must hold whatever the configuration is held here: one
 * live application or registration per credit code (pending or approved: a partial unique index, so two submissions
 * at once cannot both win), one pending application per account name, a rejection has its reason, an approval its
 * enterprise and account.
 */
export const enterpriseRegistrations = pgTable(
  'enterprise_registrations',
  {
    id: id(),
    /** what the applicant quotes with the credit code to follow the application (ZC + date + 6 random digits) */
    applicationNo: varchar('application_no', { length: 32 }).notNull(),
    name: varchar('name', { length: 200 }).notNull(),
    creditCode: varchar('credit_code', { length: 18 }).notNull(),
    enterpriseType: varchar('enterprise_type', { length: 40 }).notNull(),
    region: varchar('region', { length: 50 }).notNull(),
    address: varchar('address', { length: 200 }).notNull(),
    legalPerson: varchar('legal_person', { length: 50 }).notNull(),
    legalPhone: varchar('legal_phone', { length: 20 }).notNull(),
    contactName: varchar('contact_name', { length: 64 }).notNull(),
    contactPhone: varchar('contact_phone', { length: 20 }).notNull(),
    /** the enterprise administrator's sign-in name (lower case) and password hash (argon2id), used on approval */
    account: varchar('account', { length: 64 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    licenceFileId: uuid('licence_file_id').references(() => files.id, { onDelete: 'set null' }),
    /** pending | approved | rejected */
    status: varchar('status', { length: 10 }).notNull().default('pending'),
    reason: varchar('reason', { length: 500 }),
    decidedAt: timestamptz('decided_at'),
    decidedBy: varchar('decided_by', { length: 64 }),
    enterpriseId: uuid('enterprise_id').references(() => enterprises.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    activatedAt: timestamptz('activated_at'),
    ip: varchar('ip', { length: 64 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('enterprise_registrations_no_uq').on(t.applicationNo),
    uniqueIndex('enterprise_registrations_live_code_uq')
      .on(t.creditCode)
      .where(sql`${t.status} in ('pending', 'approved')`),
    uniqueIndex('enterprise_registrations_pending_account_uq').on(t.account).where(sql`${t.status} = 'pending'`),
    index('enterprise_registrations_code_idx').on(t.creditCode, t.createdAt),
    check('enterprise_registrations_status_ck', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check(
      'enterprise_registrations_reason_ck',
      sql`${t.status} <> 'rejected' or (${t.reason} is not null and length(btrim(${t.reason})) > 0)`,
    ),
    check(
      'enterprise_registrations_approved_ck',
      sql`${t.status} <> 'approved' or (${t.enterpriseId} is not null and ${t.userId} is not null)`,
    ),
  ],
);

/**
 * The administrator account of each enterprise (one per enterprise): the account a sign-in by the enterprise's credit
 * code (/creditCode) reaches. Made by an approved registration or an administrator's registration by hand.
 */
export const enterpriseAdmins = pgTable('enterprise_admins', {
  enterpriseId: uuid('enterprise_id')
    .primaryKey()
    .references(() => enterprises.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .unique('enterprise_admins_user_uq')
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/**
 * Individuals registered by real name (/realName): the resident ID number, unique, kept upper case; shown masked
 * everywhere (maskIdNumber).
 */
export const realNameUsers = pgTable(
  'real_name_users',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    realName: varchar('real_name', { length: 50 }).notNull(),
    idNumber: varchar('id_number', { length: 18 }).notNull(),
    verifiedPhone: varchar('verified_phone', { length: 20 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('real_name_users_id_number_uq').on(t.idNumber),
    check('real_name_users_id_number_ck', sql`${t.idNumber} ~ '^[0-9]{17}[0-9X]$'`),
  ],
);
