import { sql } from 'drizzle-orm';
import { check, date, index, integer, numeric, pgTable, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { users } from './account';
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
  ],
);
