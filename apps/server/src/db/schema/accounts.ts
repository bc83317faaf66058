import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';

/**
 * 管理机构 (/system/managementInfo): trading centres, supervision departments, industry authorities. `version` guards
 * edits: an update names the version it was based on and is refused when another edit came first.
 */
export const organizations = pgTable(
  'organizations',
  {
    id: id(),
    name: varchar('name', { length: 100 }).notNull(),
    /** 交易中心 | 监管部门 | 行业主管部门 | 其他 */
    orgType: varchar('org_type', { length: 20 }).notNull(),
    region: varchar('region', { length: 50 }).notNull(),
    /** 统一社会信用代码 (optional; checked when given) */
    creditCode: varchar('credit_code', { length: 18 }),
    contact: varchar('contact', { length: 50 }),
    phone: varchar('phone', { length: 30 }),
    address: varchar('address', { length: 200 }),
    enabled: boolean('enabled').notNull().default(true),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('organizations_name_uq').on(t.name),
    uniqueIndex('organizations_credit_code_uq').on(t.creditCode).where(sql`${t.creditCode} is not null`),
    index('organizations_type_region_idx').on(t.orgType, t.region),
  ],
);

/**
 * 办理事项 (/system/transact): what enterprises can handle and in which business system. `system_coding` names a
 * business_systems gn_coding; it is checked on write rather than by a foreign key, so that removing a system stays
 * the shell's business (the list shows such an item without a system name).
 */
export const serviceItems = pgTable(
  'service_items',
  {
    id: id(),
    name: varchar('name', { length: 50 }).notNull(),
    systemCoding: varchar('system_coding', { length: 63 }).notNull(),
    /** the node of that system the item is handled in (「去办理」 opens it); null: the system chooser */
    gnCoding: varchar('gn_coding', { length: 63 }),
    /** plain text, at most 500 characters */
    description: text('description').notNull().default(''),
    materials: jsonb('materials').$type<string[]>().notNull().default([]),
    timeLimitDays: integer('time_limit_days').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    sort: integer('sort').notNull().default(0),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('service_items_name_uq').on(t.name),
    index('service_items_enabled_sort_idx').on(t.enabled, t.sort),
  ],
);
