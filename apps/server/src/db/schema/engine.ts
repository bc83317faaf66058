import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

/**
 * Dictionaries of the schema engine (`dic` option source, the qualification tree): items of a dictionary `code`,
 * a tree through `parent` (the parent item's value; '' at the root). Seeded by migration 0006.
 */
export const dictionaries = pgTable(
  'dictionaries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    code: varchar('code', { length: 63 }).notNull(),
    label: varchar('label', { length: 200 }).notNull(),
    value: varchar('value', { length: 200 }).notNull(),
    parent: varchar('parent', { length: 200 }).notNull().default(''),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [
    uniqueIndex('dictionaries_item_uq').on(t.code, t.parent, t.value),
    index('dictionaries_code_idx').on(t.code, t.sort, t.id).where(sql`${t.enabled}`),
  ],
);
