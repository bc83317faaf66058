import {
  bigint,
  boolean,
  char,
  index,
  integer,
  pgTable,
  primaryKey,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { createdAt, id, timestamptz } from './columns';
import { ownedByNode } from './shell';

/**
 * Stored files (spec §3 uploaded-file record). The bytes live in the store under `storage_key`, a generated key; the
 * client's file name is metadata only. Several rows may share one key (instant upload within an enterprise): the
 * bytes are removed with the last row.
 */
export const files = pgTable(
  'files',
  {
    id: id(),
    storageKey: varchar('storage_key', { length: 100 }).notNull(),
    /** the client's name, cleaned (last segment, no control characters); never a path */
    fileName: varchar('file_name', { length: 255 }).notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    md5: char('md5', { length: 32 }).notNull(),
    mime: varchar('mime', { length: 100 }).notNull(),
    extension: varchar('extension', { length: 10 }).notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    enterpriseId: uuid('enterprise_id').references(() => enterprises.id),
    /** node the file was uploaded for (null: editor images, notice attachments) */
    gnCoding: varchar('gn_coding', { length: 63 }),
    /** engine record the file is attached to, once bound */
    recordId: uuid('record_id'),
    /** attachment type (annexNo) */
    annexNo: varchar('annex_no', { length: 63 }),
    /** the client's fileType field, kept as given */
    fileType: varchar('file_type', { length: 40 }),
    /** private: owner, enterprise, admins, reviewers; public: anyone with the address (editor images, notices) */
    visibility: varchar('visibility', { length: 8 }).notNull().default('private'),
    /** attachment | small | batch | notice | editor | chunked */
    source: varchar('source', { length: 12 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('files_md5_enterprise_idx').on(t.md5, t.enterpriseId),
    index('files_md5_owner_idx').on(t.md5, t.ownerId),
    index('files_record_idx').on(t.gnCoding, t.recordId),
    index('files_storage_key_idx').on(t.storageKey),
    index('files_owner_idx').on(t.ownerId, t.createdAt),
  ],
);

/** Chunked uploads in progress (spec §3 upload init payload: md5, fileName, chunk, fileSize). */
export const uploadTasks = pgTable(
  'upload_tasks',
  {
    /** the uploadId */
    id: id(),
    md5: char('md5', { length: 32 }).notNull(),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    chunkCount: integer('chunk_count').notNull(),
    chunkSize: integer('chunk_size').notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    enterpriseId: uuid('enterprise_id').references(() => enterprises.id),
    gnCoding: varchar('gn_coding', { length: 63 }),
    annexNo: varchar('annex_no', { length: 63 }),
    fileType: varchar('file_type', { length: 40 }),
    /** attachment | video */
    usage: varchar('usage', { length: 12 }).notNull().default('attachment'),
    storageKey: varchar('storage_key', { length: 100 }).notNull(),
    /** the store's reference of the multipart upload (S3 UploadId, or the local staging folder) */
    storageRef: varchar('storage_ref', { length: 1024 }).notNull(),
    /** uploading | merging | done */
    status: varchar('status', { length: 12 }).notNull().default('uploading'),
    fileId: uuid('file_id').references(() => files.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    index('upload_tasks_resume_idx').on(t.ownerId, t.md5, t.fileSize, t.status),
    index('upload_tasks_expiry_idx').on(t.status, t.expiresAt),
  ],
);

/** Chunks stored for a task: the 0-based index, its size and the store's tag of the recorded write (S3 ETag). */
export const uploadParts = pgTable(
  'upload_parts',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => uploadTasks.id, { onDelete: 'cascade' }),
    index: integer('idx').notNull(),
    size: integer('size').notNull(),
    etag: varchar('etag', { length: 100 }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.index] })],
);

/** Attachment types of a node (spec §3: annexName, annexNo, annexFormat, annexSize MB, isRequired, fileType). */
export const attachmentTypes = pgTable(
  'attachment_types',
  {
    id: id(),
    nodeId: ownedByNode(),
    annexNo: varchar('annex_no', { length: 63 }).notNull(),
    annexName: varchar('annex_name', { length: 100 }).notNull(),
    /** formats, comma separated */
    annexFormat: varchar('annex_format', { length: 200 }).notNull(),
    /** MB; 0: only the global limit */
    annexSize: integer('annex_size').notNull().default(0),
    isRequired: boolean('is_required').notNull().default(false),
    fileType: varchar('file_type', { length: 40 }).notNull().default(''),
    /** template file name in the server's template folder (served from a public address) */
    template: varchar('template', { length: 100 }),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('attachment_types_node_no_uq').on(t.nodeId, t.annexNo)],
);
