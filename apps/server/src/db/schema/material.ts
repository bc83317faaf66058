import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, numeric, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { users } from './account';
import { createdAt, id, timestamptz, updatedAt } from './columns';

/**
 * 材料信息价 (issue 19): one imported period of a city's information prices. `draft` (as imported) → `published`
 * (the public reads it) → `withdrawn` → `published` again; drafts and withdrawn ones may be deleted. At most one
 * published period per (period, city): a partial unique index, so two administrators publishing at once get one.
 */
export const materialPeriods = pgTable(
  'material_periods',
  {
    id: id(),
    /** YYYY-MM */
    period: varchar('period', { length: 7 }).notNull(),
    city: varchar('city', { length: 32 }).notNull(),
    status: varchar('status', { length: 16 }).notNull().default('draft'),
    rowCount: integer('row_count').notNull(),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    importedById: uuid('imported_by_id')
      .notNull()
      .references(() => users.id),
    importedAt: createdAt(),
    publishedAt: timestamptz('published_at'),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('material_periods_published_uq').on(t.period, t.city).where(sql`${t.status} = 'published'`),
    index('material_periods_city_idx').on(t.city, t.status, t.period),
    check('material_periods_status_ck', sql`${t.status} in ('draft', 'published', 'withdrawn')`),
    check('material_periods_period_ck', sql`${t.period} ~ '^20[0-9]{2}-(0[1-9]|1[0-2])$'`),
  ],
);

/**
 * The prices of a period, one row a material of a county ('' = the city's own price, 市区). Pages of a period are read
 * in code order (`material_prices_code_idx`), filtered by county, classification or group through their composite
 * indexes; a search by name or code is a `like` on `search_text` (lower-cased: no per-row case folding of `ilike`),
 * through its trigram index when the keyword is long enough to have trigrams.
 */
export const materialPrices = pgTable(
  'material_prices',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    periodId: uuid('period_id')
      .notNull()
      .references(() => materialPeriods.id, { onDelete: 'cascade' }),
    /** the row of the imported sheet */
    rowNo: integer('row_no').notNull(),
    county: varchar('county', { length: 32 }).notNull().default(''),
    classification: varchar('classification', { length: 32 }).notNull(),
    materialGroup: varchar('material_group', { length: 64 }).notNull(),
    code: varchar('code', { length: 32 }).notNull(),
    name: varchar('name', { length: 128 }).notNull(),
    spec: varchar('spec', { length: 128 }).notNull().default(''),
    unit: varchar('unit', { length: 16 }).notNull(),
    priceEx: numeric('price_ex', { precision: 12, scale: 2 }).notNull(),
    priceIn: numeric('price_in', { precision: 12, scale: 2 }).notNull(),
    remark: varchar('remark', { length: 256 }).notNull().default(''),
    searchText: text('search_text').notNull().generatedAlwaysAs(sql`lower(code || ' ' || name)`),

    /**
     * The character pairs (bigrams) of `search_text`, by `material_grams` (migration 0052): a keyword of two or more
     * characters is first looked up in the GIN index of these — pg_trgm has no trigram of a two-character Chinese
     * word such as 钢管, and a `like` over a 200,000-row period costs 70 ms — then checked by the `like`.
     */
    grams: text('grams').array().notNull().generatedAlwaysAs(sql`material_grams(lower(code || ' ' || name))`),
  },
  (t) => [
    uniqueIndex('material_prices_key_uq').on(t.periodId, t.county, t.code, t.spec),
    index('material_prices_code_idx').on(t.periodId, t.code, t.id),
    index('material_prices_class_idx').on(t.periodId, t.classification, t.materialGroup, t.code, t.id),
    index('material_prices_county_idx').on(t.periodId, t.county, t.classification, t.code, t.id),
    index('material_prices_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    index('material_prices_grams_idx').using('gin', t.grams),
    // a search within a county or class: one GIN scan of period, county, class and pairs (btree_gin, migration 0057)
    index('material_prices_filter_grams_idx').using('gin', t.periodId, t.county, t.classification, t.grams),
    check('material_prices_price_ck', sql`${t.priceEx} >= 0 and ${t.priceIn} >= ${t.priceEx}`),
  ],
);
