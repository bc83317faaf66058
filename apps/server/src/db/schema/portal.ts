import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
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
import { createdAt, id, timestamptz, updatedAt } from './columns';

/** Transaction notices administrators publish on the portal. */
export const notices = pgTable(
  'notices',
  {
    id: id(),
    title: varchar('title', { length: 200 }).notNull(),
    category: varchar('category', { length: 20 }).notNull(),
    tradeType: varchar('trade_type', { length: 20 }).notNull(),
    region: varchar('region', { length: 20 }).notNull(),
    projectCode: varchar('project_code', { length: 64 }),
    /** project and section (标段) named in free text until the tendering module links notices to its records */
    projectName: varchar('project_name', { length: 200 }),
    sectionName: varchar('section_name', { length: 200 }),
    tenderer: varchar('tenderer', { length: 200 }),
    /** yuan */
    amount: numeric('amount', { precision: 16, scale: 2 }),
    /** sanitised before it is stored */
    bodyHtml: text('body_html').notNull(),
    attachments: jsonb('attachments').$type<{ name: string; url: string }[]>().notNull().default([]),
    /** draft | published | withdrawn */
    status: varchar('status', { length: 16 }).notNull().default('draft'),
    publishedAt: timestamptz('published_at'),
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('notices_pub_idx').on(t.status, t.publishedAt.desc(), t.id.desc()),
    index('notices_pub_category_idx').on(t.status, t.category, t.publishedAt.desc(), t.id.desc()),
    index('notices_pub_trade_idx').on(t.status, t.tradeType, t.publishedAt.desc(), t.id.desc()),
    index('notices_pub_region_idx').on(t.status, t.region, t.publishedAt.desc(), t.id.desc()),
  ],
);

/** Registered practitioners (从业人员). */
export const practitioners = pgTable(
  'practitioners',
  {
    id: id(),
    name: varchar('name', { length: 50 }).notNull(),
    certNo: varchar('cert_no', { length: 40 }).notNull(),
    practiceArea: varchar('practice_area', { length: 40 }).notNull(),
    enterpriseId: uuid('enterprise_id').references(() => enterprises.id),
    region: varchar('region', { length: 50 }),
    creditGrade: varchar('credit_grade', { length: 8 }),
    creditScore: numeric('credit_score', { precision: 6, scale: 2 }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('practitioners_cert_uq').on(t.certNo),
    index('practitioners_area_grade_idx').on(t.practiceArea, t.creditGrade, t.name),
  ],
);

/** Qualifications (资质 / 证书) of an enterprise or a practitioner. */
export const qualifications = pgTable(
  'qualifications',
  {
    id: id(),
    /** enterprise | practitioner */
    ownerKind: varchar('owner_kind', { length: 16 }).notNull(),
    ownerId: uuid('owner_id').notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    level: varchar('level', { length: 40 }).notNull(),
    certNo: varchar('cert_no', { length: 60 }).notNull(),
    validUntil: date('valid_until'),
  },
  (t) => [index('qualifications_owner_idx').on(t.ownerKind, t.ownerId)],
);

/** Performance records (业绩). */
export const performances = pgTable(
  'performances',
  {
    id: id(),
    ownerKind: varchar('owner_kind', { length: 16 }).notNull(),
    ownerId: uuid('owner_id').notNull(),
    projectName: varchar('project_name', { length: 200 }).notNull(),
    role: varchar('role', { length: 40 }).notNull(),
    amount: numeric('amount', { precision: 16, scale: 2 }),
    completedAt: date('completed_at'),
    /** 建设单位 */
    builder: varchar('builder', { length: 200 }),
    region: varchar('region', { length: 60 }),
    startedAt: date('started_at'),
    /** the 企业业绩 record (engine node XYGL_QYYJ) whose final pass made it; null: entered before (demo data) */
    recordId: uuid('record_id'),
  },
  (t) => [
    index('performances_owner_idx').on(t.ownerKind, t.ownerId),
    uniqueIndex('performances_record_uq').on(t.recordId),
  ],
);

/** Credit records (良好 / 不良 行为记录); only public ones reach the portal. */
export const creditRecords = pgTable(
  'credit_records',
  {
    id: id(),
    ownerKind: varchar('owner_kind', { length: 16 }).notNull(),
    ownerId: uuid('owner_id').notNull(),
    /** 良好 | 不良 */
    kind: varchar('kind', { length: 8 }).notNull(),
    title: varchar('title', { length: 200 }).notNull(),
    score: numeric('score', { precision: 6, scale: 2 }).notNull(),
    issuer: varchar('issuer', { length: 100 }).notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date'),
    isPublic: boolean('is_public').notNull().default(true),
    remark: text('remark'),
  },
  (t) => [index('credit_records_owner_idx').on(t.ownerKind, t.ownerId).where(sql`${t.isPublic}`)],
);
