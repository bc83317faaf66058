import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  date,
  index,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz, updatedAt } from './columns';

export const enterprises = pgTable(
  'enterprises',
  {
    id: id(),
    name: varchar('name', { length: 200 }).notNull(),
    /** 统一社会信用代码, GB 32100-2015 */
    creditCode: varchar('credit_code', { length: 18 }).notNull(),
    enterpriseType: varchar('enterprise_type', { length: 40 }).notNull().default('施工企业'),
    legalPerson: varchar('legal_person', { length: 50 }),
    region: varchar('region', { length: 50 }),
    address: varchar('address', { length: 200 }),
    /** yuan */
    registeredCapital: numeric('registered_capital', { precision: 16, scale: 2 }),
    establishedAt: date('established_at'),
    /** AAA, AA, A, B, C (credit evaluation result published on the portal) */
    creditGrade: varchar('credit_grade', { length: 8 }),
    creditScore: numeric('credit_score', { precision: 6, scale: 2 }),
    /** 联系人: one of the enterprise's people (users), set by a passed contact change (credit_changes) */
    contactUserId: uuid('contact_user_id'),
    contactName: varchar('contact_name', { length: 64 }),
    contactPhone: varchar('contact_phone', { length: 30 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('enterprises_credit_code_uq').on(t.creditCode),
    index('enterprises_type_grade_idx').on(t.enterpriseType, t.creditGrade, t.name),
    // the public credit list (modules/credit): name prefixes in byte order, `like 'x%'` and the order by one range scan
    index('enterprises_name_c_idx').on(sql`${t.name} collate "C"`, t.id),
  ],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Sign-in name, stored lower-case. */
    account: varchar('account', { length: 64 }).notNull(),
    userName: varchar('user_name', { length: 64 }).notNull(),
    /** M admin, D developer, U ordinary user */
    loginRoleType: varchar('login_role_type', { length: 1 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    enterpriseId: uuid('enterprise_id').references(() => enterprises.id),
    phone: varchar('phone', { length: 20 }),
    photo: text('photo'),
    /** active | disabled */
    status: varchar('status', { length: 16 }).notNull().default('active'),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** Failed sign-ins before this time no longer count for the account (an administrator unlocked it). */
    loginResetAt: timestamptz('login_reset_at'),
    /** When the password was last set (null: before issue 15 — counted from created_at). */
    passwordChangedAt: timestamptz('password_changed_at'),
    /** When the owner proved the phone by an SMS code; cleared when the phone changes otherwise. */
    phoneVerifiedAt: timestamptz('phone_verified_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_account_uq').on(t.account), index('users_enterprise_idx').on(t.enterpriseId)],
);

/** Practice status per region: 0 unknown/pending, 1 abnormal, 2 normal. */
export const practiceStatuses = pgTable(
  'practice_statuses',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    region: varchar('region', { length: 50 }).notNull(),
    status: smallint('status').notNull().default(0),
    reason: text('reason').notNull().default(''),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('practice_statuses_user_region_uq').on(t.userId, t.region)],
);

/** Server-side sessions; the client holds an opaque token, the table only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    /** logout | replaced | admin */
    revokeReason: varchar('revoke_reason', { length: 16 }),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 300 }),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_uq').on(t.tokenHash),
    index('sessions_user_live_idx').on(t.userId).where(sql`${t.revokedAt} is null`),
  ],
);

/** Every sign-in attempt; failures in the last 15 minutes drive the captcha and the lock. */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    account: varchar('account', { length: 64 }).notNull(),
    ip: varchar('ip', { length: 64 }).notNull(),
    success: boolean('success').notNull(),
    at: timestamptz('at').notNull().defaultNow(),
    /** The browser's user agent (the user centre's 登录记录 shows browser and system). */
    userAgent: varchar('user_agent', { length: 300 }),
    /**
     * When the attempt's outcome was known; null while its password is still being checked (the attempt counts as a
     * failure meanwhile, see auth.service checkPassword).
     */
    checkedAt: timestamptz('checked_at'),
  },
  (t) => [index('login_attempts_account_at_idx').on(t.account, t.at), index('login_attempts_ip_at_idx').on(t.ip, t.at)],
);

export const captchas = pgTable('captchas', {
  uuid: uuid('uuid').primaryKey(),
  answerHash: varchar('answer_hash', { length: 64 }).notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
  usedAt: timestamptz('used_at'),
});

/**
 * An account locked for one address after too many failed sign-ins from it (kept for unknown accounts too, so nothing
 * leaks). Per address: someone guessing elsewhere cannot lock the owner out.
 */
export const accountLocks = pgTable(
  'account_locks',
  {
    account: varchar('account', { length: 64 }).notNull(),
    ip: varchar('ip', { length: 64 }).notNull(),
    lockedAt: timestamptz('locked_at').notNull(),
    lockedUntil: timestamptz('locked_until').notNull(),
  },
  (t) => [primaryKey({ columns: [t.account, t.ip] })],
);

/** A single-use value served with the login public key: each sign-in's ciphertexts are bound to one (OAEP label). */
export const loginNonces = pgTable('login_nonces', {
  nonce: uuid('nonce').primaryKey(),
  expiresAt: timestamptz('expires_at').notNull(),
});
