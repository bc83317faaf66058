import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { enterprises, users } from './account';
import { createdAt, id, timestamptz, updatedAt } from './columns';
import { files } from './files';
import { tenderSections } from './tender';

/**
 * The tender documents (招标文件) of a section (issue 16): files the project's side uploaded through the files module
 * and saved here with a kind and a name. The file row is bound to the document (files.gn_coding ZBTB_ZBWJ,
 * record_id = the document), so the files module's reader of that code decides who reads it outside the recorded
 * download. One file is one document (unique).
 */
export const tenderDocuments = pgTable(
  'tender_documents',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id),
    /** 招标文件 | 工程量清单 | 图纸 | 其他 */
    kind: varchar('kind', { length: 10 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id),
    uploadedByName: varchar('uploaded_by_name', { length: 64 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('tender_documents_section_idx').on(t.sectionId, t.createdAt),
    uniqueIndex('tender_documents_file_uq').on(t.fileId),
    check('tender_documents_kind_ck', sql`${t.kind} in ('招标文件', '工程量清单', '图纸', '其他')`),
  ],
);

/**
 * Every download of a tender document by a bidder, written in the request that streams it: the document, the user,
 * their enterprise, the time and the address. A document that was downloaded cannot be deleted (the foreign key
 * refuses it; the module refuses first, since documents are deletable only before the sale starts).
 */
export const tenderDocumentDownloads = pgTable(
  'tender_document_downloads',
  {
    id: id(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => tenderDocuments.id),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    userName: varchar('user_name', { length: 64 }).notNull(),
    enterpriseId: uuid('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    ip: varchar('ip', { length: 45 }),
    downloadedAt: timestamptz('downloaded_at').notNull(),
  },
  (t) => [
    index('tender_doc_downloads_section_idx').on(t.sectionId, t.downloadedAt),
    index('tender_doc_downloads_ent_idx').on(t.enterpriseId, t.sectionId),
    index('tender_doc_downloads_doc_idx').on(t.documentId),
    index('tender_doc_downloads_time_idx').on(t.downloadedAt, t.id),
  ],
);

/**
 * Clarifications and amendments (澄清 / 修改) of a section's tender documents: drafted by the project's side, submitted,
 * audited by the trading centre (pass, or reject with an opinion), and sent by the side to every registered bidder
 * (the message centre) — a new deadline then replaces the section's (the old one kept here). What the database holds:
 * the status is one of the flow's, a rejection has its opinion, a decided one has its auditor and time, a sent one
 * its sender and time.
 */
export const tenderClarifications = pgTable(
  'tender_clarifications',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id, { onDelete: 'cascade' }),
    title: varchar('title', { length: 200 }).notNull(),
    content: text('content').notNull(),
    fileId: uuid('file_id').references(() => files.id),
    affectsBids: boolean('affects_bids').notNull().default(false),
    newDeadline: timestamptz('new_deadline'),
    oldDeadline: timestamptz('old_deadline'),
    /** draft | submitted | passed | rejected | sent */
    status: varchar('status', { length: 10 }).notNull().default('draft'),
    opinion: varchar('opinion', { length: 500 }),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdByName: varchar('created_by_name', { length: 64 }).notNull(),
    submittedAt: timestamptz('submitted_at'),
    auditedBy: uuid('audited_by').references(() => users.id),
    auditedByName: varchar('audited_by_name', { length: 64 }),
    auditedAt: timestamptz('audited_at'),
    sentBy: uuid('sent_by').references(() => users.id),
    sentByName: varchar('sent_by_name', { length: 64 }),
    sentAt: timestamptz('sent_at'),
    recipients: integer('recipients').notNull().default(0),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('tender_clarifications_section_idx').on(t.sectionId, t.createdAt),
    check('tender_clarifications_status_ck', sql`${t.status} in ('draft', 'submitted', 'passed', 'rejected', 'sent')`),
    check(
      'tender_clarifications_decided_ck',
      sql`${t.status} not in ('passed', 'rejected', 'sent') or (${t.auditedAt} is not null and ${t.auditedBy} is not null)`,
    ),
    check('tender_clarifications_rejected_ck', sql`${t.status} <> 'rejected' or coalesce(length(${t.opinion}), 0) > 0`),
    check(
      'tender_clarifications_sent_ck',
      sql`${t.status} <> 'sent' or (${t.sentAt} is not null and ${t.sentBy} is not null)`,
    ),
  ],
);
