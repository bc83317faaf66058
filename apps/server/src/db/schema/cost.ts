import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { createdAt, id, timestamptz } from './columns';
import { tenderSections } from './tender';

/**
 * 工程造价文件 (issue 18): each bidder's current cost file of a section (a new upload replaces it; the stored bytes
 * are the storage's, named by a generated key), with the tree and authoring data read when it was uploaded.
 */
export const costFiles = pgTable(
  'cost_files',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    storageKey: varchar('storage_key', { length: 255 }).notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    tree: jsonb('tree').notNull(),
    meta: jsonb('meta').notNull(),
    bidPrice: numeric('bid_price', { precision: 16, scale: 2 }),
    controlPrice: numeric('control_price', { precision: 16, scale: 2 }),
    lineCount: integer('line_count').notNull(),
    uploadedById: uuid('uploaded_by_id')
      .notNull()
      .references(() => users.id),
    uploadedAt: createdAt(),
  },
  (t) => [
    uniqueIndex('cost_files_bidder_uq').on(t.sectionId, t.enterpriseId),
    check('cost_files_sha_ck', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * A detection over a section's cost files: a job any server process may run. `queued` → `running` (the process
 * holding it renews its lease; one whose lease ran out — its process died — is taken again by any process, up to
 * `COST_JOB_MAX_ATTEMPTS`) → `done` with its results, or `failed` with the reason. At most one queued or running
 * detection per section (a partial unique index: two starts at once give one job).
 */
export const costDetections = pgTable(
  'cost_detections',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id),
    status: varchar('status', { length: 10 }).notNull().default('queued'),
    /** files read so far, of `total` (the pairwise comparison is the last step) */
    progress: integer('progress').notNull().default(0),
    total: integer('total').notNull(),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: timestamptz('lease_until'),
    startedById: uuid('started_by_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    startedAt: timestamptz('started_at'),
    finishedAt: timestamptz('finished_at'),
    error: text('error'),
    /** the files compared (id, bidder, sha256), as they were when the detection ran */
    files: jsonb('files').notNull(),
    results: jsonb('results'),
    publishedAt: timestamptz('published_at'),
  },
  (t) => [
    uniqueIndex('cost_detections_active_uq').on(t.sectionId).where(sql`${t.status} in ('queued', 'running')`),
    index('cost_detections_section_idx').on(t.sectionId, t.createdAt),
    index('cost_detections_claim_idx').on(t.status, t.leaseUntil),
    check('cost_detections_status_ck', sql`${t.status} in ('queued', 'running', 'done', 'failed')`),
    check('cost_detections_failed_ck', sql`(${t.status} = 'failed') = (${t.error} is not null)`),
  ],
);
