import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { id, timestamptz } from './columns';

/**
 * CA certificates bound to enterprises (issue 15, /lock): a bound certificate signs in as the user who bound it. One live
 * binding per certificate (its SHA-256 fingerprint); an unbound one keeps its row (unbound_at, by whom) for the record.
 */
export const caBindings = pgTable(
  'ca_bindings',
  {
    id: id(),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    /** who bound it: the account a CA sign-in opens */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the certificate's DER, hex */
    fingerprint: varchar('fingerprint', { length: 64 }).notNull(),
    /** hex, upper case */
    serial: varchar('serial', { length: 80 }).notNull(),
    issuer: varchar('issuer', { length: 500 }).notNull(),
    subject: varchar('subject', { length: 500 }).notNull(),
    /** the holder's name (CN or O of the subject) */
    holder: varchar('holder', { length: 200 }).notNull(),
    creditCode: varchar('credit_code', { length: 18 }).notNull(),
    /** RSA | ECDSA | SM2 */
    algorithm: varchar('algorithm', { length: 8 }).notNull(),
    notBefore: timestamptz('not_before').notNull(),
    notAfter: timestamptz('not_after').notNull(),
    /** base64 DER */
    certificate: text('certificate').notNull(),
    boundAt: timestamptz('bound_at').notNull(),
    unboundAt: timestamptz('unbound_at'),
    unboundBy: uuid('unbound_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('ca_bindings_fingerprint_live_uq').on(t.fingerprint).where(sql`${t.unboundAt} is null`),
    index('ca_bindings_enterprise_idx').on(t.enterpriseId, t.boundAt.desc()),
    index('ca_bindings_live_idx').on(t.boundAt.desc(), t.id.desc()).where(sql`${t.unboundAt} is null`),
  ],
);

/** Single-use nonces a certificate's key signs (CA_NONCE_TTL_MS); spent by deleting the row. */
export const caNonces = pgTable(
  'ca_nonces',
  {
    nonce: uuid('nonce').primaryKey(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('ca_nonces_expires_idx').on(t.expiresAt)],
);
