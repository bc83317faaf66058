import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, numeric, pgTable, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { createdAt, id, timestamptz, updatedAt } from './columns';

/**
 * The sections (标段) of a tender project (issue 16). The project is a record of the engine node 项目进场登记
 * (ZBTB_XMDJ, `project_id` is its id: engine tables are made at run time, so no foreign key); a section carries what the
 * later steps rely on — its estimate and deposit, the sale period of the tender documents and the bid deadline (which
 * is the opening time). What must hold whatever the settings: codes unique per project, money not negative, the sale
 * ending on or after its start; the timeline minimums themselves are settings checked by the module.
 */
export const tenderSections = pgTable(
  'tender_sections',
  {
    id: id(),
    projectId: uuid('project_id').notNull(),
    code: varchar('code', { length: 40 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    /** yuan, two decimals */
    estimate: numeric('estimate', { precision: 15, scale: 2, mode: 'number' }).notNull(),
    deposit: numeric('deposit', { precision: 15, scale: 2, mode: 'number' }).notNull(),
    docSaleStart: date('doc_sale_start', { mode: 'string' }).notNull(),
    docSaleEnd: date('doc_sale_end', { mode: 'string' }).notNull(),
    bidDeadline: timestamptz('bid_deadline').notNull(),
    /**
     * The qualification requirements of the section's approved tender notice (values of the QUALIFICATION tree) and
     * how they combine: 且 every one, 或 any one. Written when the notice passes review; registration checks them.
     */
    qualRelation: varchar('qual_relation', { length: 2 }).notNull().default('且'),
    qualItems: jsonb('qual_items').$type<string[]>().notNull().default([]),
    /**
     * 业绩要求: at least `perf_count` completed projects (0: none required), each of at least `perf_min_amount` yuan,
     * completed within the last `perf_years` years; registration checks them against the enterprise's performances.
     */
    perfCount: integer('perf_count').notNull().default(0),
    perfMinAmount: numeric('perf_min_amount', { precision: 15, scale: 2, mode: 'number' }).notNull().default(0),
    perfYears: integer('perf_years').notNull().default(3),
    /** the engine record of the section's approved notice, and when it was published on the portal */
    noticeId: uuid('notice_id'),
    noticePublishedAt: timestamptz('notice_published_at'),
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('tender_sections_project_code_uq').on(t.projectId, t.code),
    index('tender_sections_deadline_idx').on(t.bidDeadline),
    check('tender_sections_money_ck', sql`${t.estimate} >= 0 and ${t.deposit} >= 0`),
    check('tender_sections_sale_ck', sql`${t.docSaleEnd} >= ${t.docSaleStart}`),
    check('tender_sections_relation_ck', sql`${t.qualRelation} in ('且', '或')`),
    check(
      'tender_sections_perf_ck',
      sql`${t.perfCount} between 0 and 20 and ${t.perfYears} between 1 and 10 and ${t.perfMinAmount} >= 0`,
    ),
  ],
);

/**
 * Registrations (报名) of enterprises for a section: one per enterprise and section, made while the notice is published
 * and before the bid deadline, by an enterprise whose qualifications met the requirements at that time (`matched`: the
 * held qualifications that satisfied them, kept as evidence). Who registered is hidden from other bidders and from the
 * tenderee until opening (the module answers counts only).
 */
export const tenderRegistrations = pgTable(
  'tender_registrations',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id, { onDelete: 'cascade' }),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    contact: varchar('contact', { length: 20 }).notNull(),
    phone: varchar('phone', { length: 11 }).notNull(),
    matched: jsonb('matched').$type<{ requirement: string; held: string; certNo: string }[]>().notNull().default([]),
    registeredAt: timestamptz('registered_at').notNull(),
  },
  (t) => [
    uniqueIndex('tender_registrations_section_ent_uq').on(t.sectionId, t.enterpriseId),
    index('tender_registrations_ent_idx').on(t.enterpriseId),
  ],
);
