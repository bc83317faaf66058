import { sql } from 'drizzle-orm';
import { check, index, integer, numeric, pgTable, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { createdAt, id, timestamptz, updatedAt } from './columns';
import { files } from './files';
import { tenderSections } from './tender';

/**
 * Bid deposits (投标保证金, issue 16): one row per enterprise and section, written when the bidder records the payment
 * (no row: unpaid). The state only moves forward — paid → received → refunded — and the database holds that every
 * state has the times and actors of all its steps, in order; the amount is the section's deposit (checked by the
 * module) and positive.
 */
export const tradeDeposits = pgTable(
  'trade_deposits',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id, { onDelete: 'cascade' }),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    /** yuan, two decimals */
    amount: numeric('amount', { precision: 15, scale: 2, mode: 'number' }).notNull(),
    /** paid | received | refunded */
    status: varchar('status', { length: 10 }).notNull(),
    /** the centre's virtual sub-account paid into, and the bidder's account and bank paid from */
    virtualAccount: varchar('virtual_account', { length: 32 }).notNull(),
    payerAccount: varchar('payer_account', { length: 30 }).notNull(),
    payerBank: varchar('payer_bank', { length: 60 }).notNull(),
    paidAt: timestamptz('paid_at').notNull(),
    paidBy: uuid('paid_by')
      .notNull()
      .references(() => users.id),
    paidByName: varchar('paid_by_name', { length: 64 }).notNull(),
    receivedAt: timestamptz('received_at'),
    receivedBy: uuid('received_by').references(() => users.id),
    receivedByName: varchar('received_by_name', { length: 64 }),
    refundedAt: timestamptz('refunded_at'),
    refundedBy: uuid('refunded_by').references(() => users.id),
    refundedByName: varchar('refunded_by_name', { length: 64 }),
    refundNote: varchar('refund_note', { length: 200 }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('trade_deposits_section_ent_uq').on(t.sectionId, t.enterpriseId),
    index('trade_deposits_ent_idx').on(t.enterpriseId),
    check('trade_deposits_amount_ck', sql`${t.amount} > 0`),
    check('trade_deposits_status_ck', sql`${t.status} in ('paid', 'received', 'refunded')`),
    check(
      'trade_deposits_steps_ck',
      sql`(${t.status} = 'paid' and ${t.receivedAt} is null and ${t.refundedAt} is null)
        or (${t.status} = 'received' and ${t.receivedAt} is not null and ${t.receivedBy} is not null and ${t.refundedAt} is null)
        or (${t.status} = 'refunded' and ${t.receivedAt} is not null and ${t.refundedAt} is not null and ${t.refundedBy} is not null)`,
    ),
    check(
      'trade_deposits_order_ck',
      sql`(${t.receivedAt} is null or ${t.receivedAt} >= ${t.paidAt}) and (${t.refundedAt} is null or ${t.refundedAt} >= ${t.receivedAt})`,
    ),
  ],
);

/**
 * The payment deadline of a section's deposits when the centre extended it (延期缴纳, `deposit/delay`): no row means the
 * default (a day before the bid deadline). Never later than the bid deadline (checked by the module, which knows it).
 */
export const tradeDepositDeadlines = pgTable('trade_deposit_deadlines', {
  sectionId: uuid('section_id')
    .primaryKey()
    .references(() => tenderSections.id, { onDelete: 'cascade' }),
  dueAt: timestamptz('due_at').notNull(),
  reason: varchar('reason', { length: 200 }).notNull(),
  setBy: uuid('set_by')
    .notNull()
    .references(() => users.id),
  setByName: varchar('set_by_name', { length: 64 }).notNull(),
  setAt: timestamptz('set_at').notNull(),
});

/**
 * Electronic guarantee letters (电子保函) in place of a section's cash deposit. The application is a record of the
 * engine node 保函申请 (DZBH_BHSQ) sharing this row's id; when its review passes the letter is requested from the
 * configured issuer (outside any transaction), and the issued PDF is a stored file. `claimed_at` is the lease of the
 * one process talking to the issuer about it. At most one letter per enterprise and section that is not failed or
 * rejected (a partial unique index).
 */
export const tradeGuarantees = pgTable(
  'trade_guarantees',
  {
    /** = the 保函申请 record's id */
    id: uuid('id').primaryKey(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id, { onDelete: 'cascade' }),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    applicantId: uuid('applicant_id')
      .notNull()
      .references(() => users.id),
    applicantName: varchar('applicant_name', { length: 64 }).notNull(),
    amount: numeric('amount', { precision: 15, scale: 2, mode: 'number' }).notNull(),
    /** applying | rejected | requested | processing | issued | failed */
    status: varchar('status', { length: 12 }).notNull(),
    issuerName: varchar('issuer_name', { length: 100 }),
    /** the issuer's order number, once it accepted the application */
    orderNo: varchar('order_no', { length: 64 }),
    guaranteeNo: varchar('guarantee_no', { length: 64 }),
    fileId: uuid('file_id').references(() => files.id),
    attempts: integer('attempts').notNull().default(0),
    lastError: varchar('last_error', { length: 300 }),
    claimedAt: timestamptz('claimed_at'),
    requestedAt: timestamptz('requested_at'),
    issuedAt: timestamptz('issued_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('trade_guarantees_live_uq')
      .on(t.sectionId, t.enterpriseId)
      .where(sql`${t.status} not in ('failed', 'rejected')`),
    index('trade_guarantees_ent_idx').on(t.enterpriseId),
    index('trade_guarantees_pending_idx').on(t.status),
    check('trade_guarantees_amount_ck', sql`${t.amount} > 0`),
    check(
      'trade_guarantees_status_ck',
      sql`${t.status} in ('applying', 'rejected', 'requested', 'processing', 'issued', 'failed')`,
    ),
    check(
      'trade_guarantees_issued_ck',
      sql`${t.status} <> 'issued' or (${t.fileId} is not null and ${t.issuedAt} is not null and ${t.guaranteeNo} is not null)`,
    ),
  ],
);
