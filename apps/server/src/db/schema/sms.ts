import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, smallint, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { users } from './account';
import { createdAt, id, timestamptz } from './columns';

/**
 * SMS verification codes (issue 15). Only the HMAC-SHA256 of a code is kept (the key is a server secret in
 * app_settings), never the code. A right code is spent and answers a single-use proof (kept hashed as well) that a
 * later step presents; the proof is bound to the phone and purpose of its code.
 */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: id(),
    phone: varchar('phone', { length: 20 }).notNull(),
    /** register | legal | realname | reset | phone | login | verify */
    purpose: varchar('purpose', { length: 16 }).notNull(),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    /** wrong codes tried; the 5th voids the code */
    attempts: smallint('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** the code was right: it is spent (its proof may then be presented) */
    spentAt: timestamptz('spent_at'),
    /** too many wrong codes, or a newer code of the same phone and purpose replaced it */
    voidedAt: timestamptz('voided_at'),
    proofHash: varchar('proof_hash', { length: 64 }),
    proofExpiresAt: timestamptz('proof_expires_at'),
    proofSpentAt: timestamptz('proof_spent_at'),
    ip: varchar('ip', { length: 64 }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    // the limits: codes of a phone by time (all purposes), and the latest code of a phone and purpose
    index('sms_codes_phone_created_idx').on(t.phone, t.createdAt),
    index('sms_codes_phone_purpose_created_idx').on(t.phone, t.purpose, t.createdAt),
    index('sms_codes_proof_idx').on(t.proofHash).where(sql`${t.proofHash} is not null`),
  ],
);

/** The developers' outbox: what would have been sent when no SMS provider is configured (never in production). */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    phone: varchar('phone', { length: 20 }).notNull(),
    /** the provider template id the message would use */
    template: varchar('template', { length: 64 }).notNull(),
    params: jsonb('params').$type<Record<string, string>>().notNull(),
    /** the message as the user would read it */
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sms_outbox_phone_created_idx').on(t.phone, t.createdAt)],
);

/** A user's previous password hashes (the newest few), so a new password cannot repeat one of the last 3. */
export const passwordHistory = pgTable(
  'password_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('password_history_user_idx').on(t.userId, t.createdAt)],
);
