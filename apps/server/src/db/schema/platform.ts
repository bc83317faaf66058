import { bigserial, boolean, index, integer, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz, updatedAt } from './columns';

/** Key-value platform settings: the login key pair, footer texts. */
export const appSettings = pgTable('app_settings', {
  key: varchar('key', { length: 100 }).primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});

/** Business systems (the configurable shell grows this table). */
export const businessSystems = pgTable(
  'business_systems',
  {
    id: id(),
    systemName: varchar('system_name', { length: 100 }).notNull(),
    title: varchar('title', { length: 8 }).notNull(),
    gnCoding: varchar('gn_coding', { length: 63 }).notNull(),
    levels: integer('levels').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('business_systems_gn_coding_uq').on(t.gnCoding)],
);

/** Append-only operation log (glName, czrClassification, czrName, logbook, failInfo, czTime). */
export const operationLogs = pgTable(
  'operation_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** business name the row belongs to, e.g. 账号 */
    glName: varchar('gl_name', { length: 100 }).notNull(),
    gnCoding: varchar('gn_coding', { length: 63 }),
    recordId: varchar('record_id', { length: 64 }),
    /** operator's classification: 管理员 / 开发者 / 企业/个人 / 系统 */
    czrClassification: varchar('czr_classification', { length: 20 }).notNull(),
    czrName: varchar('czr_name', { length: 64 }).notNull(),
    userId: uuid('user_id'),
    logbook: text('logbook').notNull(),
    failInfo: text('fail_info'),
    ip: varchar('ip', { length: 64 }),
    czTime: timestamptz('cz_time').notNull().defaultNow(),
  },
  (t) => [index('operation_logs_record_idx').on(t.gnCoding, t.recordId, t.czTime)],
);
