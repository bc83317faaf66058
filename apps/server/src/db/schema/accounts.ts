import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { createdAt, id, timestamptz, updatedAt } from './columns';

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

/**
 * 企业信息变更: an enterprise's edit of its own information, waiting for an administrator. `values` holds the whole
 * proposal (the five fields of the form), `items` what changed (field, label, old → new) for the reviewer; the
 * enterprise row — what the portal shows — changes only when an administrator approves. At most one pending change per
 * enterprise (a new edit revises it, moving `version`); decisions are conditional on status and version.
 */
export const enterpriseChanges = pgTable(
  'enterprise_changes',
  {
    id: id(),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    /** pending | approved | rejected */
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    values: jsonb('values').$type<Record<string, string | null>>().notNull(),
    items: jsonb('items')
      .$type<{ field: string; label: string; oldValue: string | null; newValue: string | null }[]>()
      .notNull(),
    submittedBy: uuid('submitted_by')
      .notNull()
      .references(() => users.id),
    submittedAt: timestamptz('submitted_at').notNull().defaultNow(),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: timestamptz('decided_at'),
    reason: text('reason'),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('enterprise_changes_one_pending_uq').on(t.enterpriseId).where(sql`${t.status} = 'pending'`),
    index('enterprise_changes_enterprise_idx').on(t.enterpriseId, t.submittedAt.desc()),
    index('enterprise_changes_status_idx').on(t.status, t.submittedAt.desc()),
    check('enterprise_changes_status_ck', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    // a rejection always says why
    check('enterprise_changes_reason_ck', sql`${t.status} <> 'rejected' or coalesce(${t.reason}, '') <> ''`),
  ],
);
