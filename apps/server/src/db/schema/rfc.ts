import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { createdAt, timestamptz, updatedAt } from './columns';

/** One field of a change round: the raw values and what the dialog shows (contracts rfcDataItemSchema). */
export interface RfcDataRow {
  changeField: string;
  fieldName: string;
  oldValue: string | null;
  newValue: string | null;
  oldText: string | null;
  newText: string | null;
  dataType: string;
}

/**
 * 信用变更 (issue 13, screen 1): the change rounds of one business record of an area (`gn_coding`: a passed credit
 * record, or an enterprise's own information; `business_id` its id). Round N is the enterprise's Nth attempt: '1' 正在
 * 变更 while it is edited and reviewed, then '2' 变更通过 (its new values were written) or '-1' 变更驳回 (nothing
 * changed). At most one open round per business record; the round's id is also the id of its 信用变更申请 (XYGL_BGSQ)
 * engine record, the one the review runs on, and of the files bound to it (gn_coding XYGL_BGSQ, record_id = id).
 */
export const creditChanges = pgTable(
  'credit_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gnCoding: varchar('gn_coding', { length: 63 }).notNull(),
    businessId: uuid('business_id').notNull(),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    round: integer('round').notNull(),
    /** '1' | '2' | '-1' */
    status: varchar('status', { length: 2 }).notNull().default('1'),
    /** info | time | contact | other */
    kind: varchar('kind', { length: 10 }),
    changeType: varchar('change_type', { length: 200 }),
    changeTypeCode: varchar('change_type_code', { length: 200 }),
    logbook: text('logbook'),
    dataList: jsonb('data_list').$type<RfcDataRow[]>().notNull().default([]),
    saved: boolean('saved').notNull().default(false),
    submitted: boolean('submitted').notNull().default(false),
    sbTime: timestamptz('sb_time'),
    czTime: timestamptz('cz_time'),
    auditRecord: varchar('audit_record', { length: 500 }),
    auditorName: varchar('auditor_name', { length: 64 }),
    pass: boolean('pass'),
    createdBy: uuid('created_by').references(() => users.id),
    createdByName: varchar('created_by_name', { length: 64 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('credit_changes_round_uq').on(t.gnCoding, t.businessId, t.round),
    // a new round starts only when the latest is decided
    uniqueIndex('credit_changes_one_open_uq').on(t.gnCoding, t.businessId).where(sql`${t.status} = '1'`),
    index('credit_changes_enterprise_idx').on(t.enterpriseId, t.createdAt.desc()),
    check('credit_changes_status_ck', sql`${t.status} in ('1', '2', '-1')`),
    check('credit_changes_round_ck', sql`${t.round} >= 1`),
    check('credit_changes_kind_ck', sql`${t.kind} is null or ${t.kind} in ('info', 'time', 'contact', 'other')`),
    // submitted only once saved; decided only once submitted, with the confirmation time; a rejection says why
    check('credit_changes_submitted_ck', sql`not ${t.submitted} or (${t.saved} and ${t.sbTime} is not null)`),
    check('credit_changes_decided_ck', sql`${t.status} = '1' or (${t.czTime} is not null and ${t.pass} is not null)`),
    check('credit_changes_rejected_ck', sql`${t.status} <> '-1' or coalesce(btrim(${t.auditRecord}), '') <> ''`),
  ],
);

/**
 * Messages to a user (the message centre of issue 14 reads them): review results and rejections of the user's records,
 * written in the decision's transaction, and administrators' messages (one row per recipient of a `message_broadcasts`
 * row, its receipt). Written only through modules/messages `sendUserMessages`, which also tells the user's tabs.
 */
export const userMessages = pgTable(
  'user_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** result | rejected | admin (contracts MESSAGE_KINDS) */
    kind: varchar('kind', { length: 10 }).notNull().default('result'),
    title: varchar('title', { length: 200 }).notNull(),
    body: text('body').notNull(),
    /** a rejection's reason */
    reason: text('reason'),
    /** the record the message is about: its node and id (the message opens it) */
    gnCoding: varchar('gn_coding', { length: 63 }),
    recordId: uuid('record_id'),
    link: varchar('link', { length: 500 }),
    broadcastId: uuid('broadcast_id').references(() => messageBroadcasts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    readAt: timestamptz('read_at'),
  },
  (t) => [
    index('user_messages_user_idx').on(t.userId, t.createdAt.desc()),
    index('user_messages_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    index('user_messages_broadcast_idx').on(t.broadcastId),
    check('user_messages_kind_ck', sql`${t.kind} in ('result', 'rejected', 'admin')`),
  ],
);

/** An administrator's message (issue 14): to chosen users and the members of chosen roles, as they were when sent. */
export const messageBroadcasts = pgTable(
  'message_broadcasts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: varchar('title', { length: 200 }).notNull(),
    /** sanitised HTML */
    body: text('body').notNull(),
    senderId: uuid('sender_id').references(() => users.id, { onDelete: 'set null' }),
    senderName: varchar('sender_name', { length: 64 }).notNull(),
    /** who it was addressed to: user ids and role codes */
    toUsers: jsonb('to_users').$type<string[]>().notNull().default([]),
    toRoles: jsonb('to_roles').$type<string[]>().notNull().default([]),
    recipients: integer('recipients').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('message_broadcasts_created_idx').on(t.createdAt.desc(), t.id.desc())],
);
