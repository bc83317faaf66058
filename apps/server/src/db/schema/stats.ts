import { sql } from 'drizzle-orm';
import { check, date, index, integer, numeric, pgTable, primaryKey, uuid, varchar } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

/**
 * 统计分析 (issue 19). The statistics read summary tables, never the source tables' millions of rows:
 *
 * - `stats_transactions`: one row per 交易 — a section (标段) of a project whose 进场登记 (ZBTB_XMDJ) has passed review.
 *   Its month is the month of the section's bid deadline (= opening, 开标) on the centre's calendar (Asia/Shanghai), its
 *   amount the section's estimate (招标控制价), its region the city of the project's 项目所在地, its type the project's
 *   项目类型, its enterprise the project's side (who entered it). Kept by row triggers on `tender_sections` and by the
 *   project's decision hook (modules/stats/stats.hooks.ts), in the transaction of the write (migration `stats`).
 * - `stats_txn_monthly` / `stats_txn_ent_monthly`: count and amount per month × region × type (and per enterprise),
 *   kept by a row trigger on `stats_transactions`.
 * - `stats_todos`: one row per to-do (`todos`) with the enterprise and region of its record and its month (sb_time),
 *   kept by row triggers on `todos`; `stats_todo_monthly` / `stats_todo_ent_monthly` count them per month × region ×
 *   system × node × state (open / done), kept by a row trigger on `stats_todos`.
 *
 * `stats_rebuild()` (SQL) recomputes all of them from the sources (repair, bulk loads).
 */
export const statsTransactions = pgTable(
  'stats_transactions',
  {
    sectionId: uuid('section_id').primaryKey(),
    projectId: uuid('project_id').notNull(),
    enterpriseId: uuid('enterprise_id'),
    region: varchar('region', { length: 50 }).notNull(),
    type: varchar('type', { length: 40 }).notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    openedAt: timestamptz('opened_at').notNull(),
    amount: numeric('amount', { precision: 15, scale: 2, mode: 'number' }).notNull(),
    sectionCode: varchar('section_code', { length: 40 }).notNull(),
    sectionName: varchar('section_name', { length: 100 }).notNull(),
    projectCode: varchar('project_code', { length: 40 }),
    projectName: varchar('project_name', { length: 200 }),
  },
  (t) => [
    index('stats_transactions_month_idx').on(t.month, t.region, t.type, t.openedAt, t.sectionId),
    index('stats_transactions_ent_idx').on(t.enterpriseId, t.month, t.openedAt, t.sectionId),
    index('stats_transactions_project_idx').on(t.projectId),
    // the drill-down's newest first: over the whole period, or one region's
    index('stats_transactions_time_idx').on(t.openedAt, t.sectionId),
    index('stats_transactions_region_time_idx').on(t.region, t.openedAt, t.sectionId),
  ],
);

export const statsTxnMonthly = pgTable(
  'stats_txn_monthly',
  {
    month: date('month', { mode: 'string' }).notNull(),
    region: varchar('region', { length: 50 }).notNull(),
    type: varchar('type', { length: 40 }).notNull(),
    n: integer('n').notNull().default(0),
    amount: numeric('amount', { precision: 18, scale: 2, mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.region, t.type] })],
);

export const statsTxnEntMonthly = pgTable(
  'stats_txn_ent_monthly',
  {
    enterpriseId: uuid('enterprise_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    region: varchar('region', { length: 50 }).notNull(),
    type: varchar('type', { length: 40 }).notNull(),
    n: integer('n').notNull().default(0),
    amount: numeric('amount', { precision: 18, scale: 2, mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.enterpriseId, t.month, t.region, t.type] })],
);

export const statsTodos = pgTable(
  'stats_todos',
  {
    todoId: uuid('todo_id').primaryKey(),
    systemId: uuid('system_id').notNull(),
    nodeId: uuid('node_id').notNull(),
    recordId: uuid('record_id').notNull(),
    level: integer('level').notNull(),
    enterpriseId: uuid('enterprise_id'),
    region: varchar('region', { length: 50 }).notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    sbTime: timestamptz('sb_time').notNull(),
    doneAt: timestamptz('done_at'),
  },
  (t) => [
    index('stats_todos_month_idx').on(t.month, t.systemId, t.nodeId, t.sbTime, t.todoId),
    index('stats_todos_ent_idx').on(t.enterpriseId, t.month, t.sbTime, t.todoId),
    // the drill-down's newest first
    index('stats_todos_time_idx').on(t.sbTime, t.todoId),
    // the applications in review (viewProgress): open to-dos by waiting time, covering (index-only)
    index('stats_todos_open_idx').on(t.sbTime, t.nodeId, t.recordId, t.level, t.todoId).where(sql`${t.doneAt} is null`),
  ],
);

export const statsTodoMonthly = pgTable(
  'stats_todo_monthly',
  {
    month: date('month', { mode: 'string' }).notNull(),
    region: varchar('region', { length: 50 }).notNull(),
    systemId: uuid('system_id').notNull(),
    nodeId: uuid('node_id').notNull(),
    /** 'open' | 'done' */
    state: varchar('state', { length: 4 }).notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.region, t.systemId, t.nodeId, t.state] })],
);

export const statsTodoEntMonthly = pgTable(
  'stats_todo_ent_monthly',
  {
    enterpriseId: uuid('enterprise_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    region: varchar('region', { length: 50 }).notNull(),
    systemId: uuid('system_id').notNull(),
    nodeId: uuid('node_id').notNull(),
    state: varchar('state', { length: 4 }).notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.enterpriseId, t.month, t.region, t.systemId, t.nodeId, t.state] })],
);

/**
 * 历史交易: transactions of the centre from before its 进场登记 ran on this platform, migrated from the earlier system
 * (the demo seeds 2026's first months). Each row is a transaction fact of its own (`stats_transactions.section_id` =
 * this id), kept by a row trigger, so the statistics and their drill-down read both alike.
 */
export const statsImportedTransactions = pgTable(
  'stats_imported_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    enterpriseId: uuid('enterprise_id'),
    region: varchar('region', { length: 50 }).notNull(),
    type: varchar('type', { length: 40 }).notNull(),
    openedAt: timestamptz('opened_at').notNull(),
    amount: numeric('amount', { precision: 15, scale: 2, mode: 'number' }).notNull(),
    sectionCode: varchar('section_code', { length: 40 }).notNull(),
    sectionName: varchar('section_name', { length: 100 }).notNull(),
    projectCode: varchar('project_code', { length: 40 }).notNull(),
    projectName: varchar('project_name', { length: 200 }).notNull(),
  },
  (t) => [check('stats_imported_amount_ck', sql`${t.amount} >= 0`)],
);

/**
 * 参与交易企业: registrations (tender_registrations) of transactions per enterprise and month — `stats_participation`
 * also by region and type (for filtered lists), `stats_participation_month` without (the unfiltered list reads far
 * fewer rows). Kept by row triggers on `tender_registrations` and on `stats_transactions` (a fact that comes or goes
 * takes its section's registrations with it).
 */
export const statsParticipation = pgTable(
  'stats_participation',
  {
    enterpriseId: uuid('enterprise_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    region: varchar('region', { length: 50 }).notNull(),
    type: varchar('type', { length: 40 }).notNull(),
    n: integer('n').notNull().default(0),
    amount: numeric('amount', { precision: 18, scale: 2, mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.enterpriseId, t.month, t.region, t.type] }),
    index('stats_participation_region_idx').on(t.region, t.month, t.type),
  ],
);

export const statsParticipationMonth = pgTable(
  'stats_participation_month',
  {
    enterpriseId: uuid('enterprise_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    n: integer('n').notNull().default(0),
    amount: numeric('amount', { precision: 18, scale: 2, mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.enterpriseId, t.month] }), index('stats_participation_month_idx').on(t.month)],
);
