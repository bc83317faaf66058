import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { users } from './account';
import { createdAt, id, timestamptz, updatedAt } from './columns';

/**
 * System notices (issue 14, screen 16): what administrators tell the signed-in users — type 1 scrolls in the marquee bar,
 * type 2 opens a modal. Not the portal's public `notices`. The audience is everyone, one role (its code, as
 * roleCodesOf names a caller's roles) or chosen enterprises; a user sees it while it is published and `start_at <= now <
 * end_at`.
 */
export const systemNotices = pgTable(
  'system_notices',
  {
    id: id(),
    /** 1 marquee bar, 2 modal */
    type: smallint('type').notNull(),
    title: varchar('title', { length: 100 }).notNull(),
    /** sanitised HTML */
    msg: text('msg').notNull(),
    /** the attachment: download address of a public notice file, and the name it is shown by */
    url: varchar('url', { length: 500 }),
    urlName: varchar('url_name', { length: 200 }),
    /** everyone | role | enterprises */
    audience: varchar('audience', { length: 16 }).notNull(),
    roleCode: varchar('role_code', { length: 63 }),
    enterpriseIds: uuid('enterprise_ids').array().notNull().default(sql`'{}'::uuid[]`),
    startAt: timestamptz('start_at').notNull(),
    endAt: timestamptz('end_at').notNull(),
    /** draft | published | withdrawn */
    status: varchar('status', { length: 16 }).notNull().default('draft'),
    publishedAt: timestamptz('published_at'),
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('system_notices_current_idx').on(t.status, t.endAt),
    index('system_notices_updated_idx').on(t.updatedAt.desc(), t.id.desc()),
    check('system_notices_type_ck', sql`${t.type} in (1, 2)`),
    check('system_notices_window_ck', sql`${t.endAt} > ${t.startAt}`),
  ],
);

/**
 * What each user did with a system notice: read (我知道了 on the modal, or closed the bar — once: the first time is
 * kept) and, for the floating bar, dismissed for good (不再显示).
 */
export const noticeReads = pgTable(
  'notice_reads',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    noticeId: uuid('notice_id')
      .notNull()
      .references(() => systemNotices.id, { onDelete: 'cascade' }),
    readAt: timestamptz('read_at'),
    dismissed: boolean('dismissed').notNull().default(false),
    dismissedAt: timestamptz('dismissed_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.noticeId] }), index('notice_reads_notice_idx').on(t.noticeId, t.readAt)],
);
