import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { users } from './account';
import { createdAt, id, updatedAt } from './columns';
import { files } from './files';

/**
 * 资料库 (issue 19): the product centre's client tools, manuals and videos and the standard files (templates), each row
 * one version of a series. The file is the files module's row (chunked upload, usage library), bound to this row under
 * the node code KS_LIBRARY so every signed-in user may read it. One current version per (kind, series) — a partial
 * unique index — and a version number once per series.
 */
export const libraryItems = pgTable(
  'library_items',
  {
    id: id(),
    /** tool | manual | video | template */
    kind: varchar('kind', { length: 12 }).notNull(),
    /** the document this is a version of (e.g. 信用承诺书) */
    series: varchar('series', { length: 60 }).notNull(),
    title: varchar('title', { length: 100 }).notNull(),
    version: varchar('version', { length: 30 }).notNull(),
    description: text('description').notNull().default(''),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id),
    current: boolean('current').notNull().default(false),
    uploaderId: uuid('uploader_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('library_items_version_uq').on(t.kind, t.series, t.version),
    uniqueIndex('library_items_current_uq').on(t.kind, t.series).where(sql`${t.current}`),
    uniqueIndex('library_items_file_uq').on(t.fileId),
    index('library_items_kind_idx').on(t.kind, t.createdAt),
    check('library_items_kind_ck', sql`${t.kind} in ('tool', 'manual', 'video', 'template')`),
  ],
);
