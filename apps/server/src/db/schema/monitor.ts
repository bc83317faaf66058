import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { users } from './account';
import { createdAt, id, timestamptz } from './columns';
import { tenderSections } from './tender';

/**
 * 监督台 (issue 17): which supervisor answers for a section (one at a time: a partial unique index over the rows not
 * revoked), and the supervisors' findings (核查意见) on its anomalies or on the section as a whole. Both append: an
 * assignment is revoked, never deleted; a finding is never changed.
 */
export const supervisionAssignments = pgTable(
  'supervision_assignments',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id),
    supervisorId: uuid('supervisor_id')
      .notNull()
      .references(() => users.id),
    supervisorName: varchar('supervisor_name', { length: 64 }).notNull(),
    assignedById: uuid('assigned_by_id')
      .notNull()
      .references(() => users.id),
    assignedByName: varchar('assigned_by_name', { length: 64 }).notNull(),
    assignedAt: createdAt(),
    revokedAt: timestamptz('revoked_at'),
    revokedByName: varchar('revoked_by_name', { length: 64 }),
    revokeReason: text('revoke_reason'),
  },
  (t) => [
    uniqueIndex('supervision_assignments_current_uq').on(t.sectionId).where(sql`${t.revokedAt} is null`),
    index('supervision_assignments_supervisor_idx').on(t.supervisorId),
    check(
      'supervision_assignments_revoke_ck',
      sql`(${t.revokedAt} is null) = (${t.revokedByName} is null) and (${t.revokedAt} is null) = (${t.revokeReason} is null)`,
    ),
  ],
);

export const supervisionFindings = pgTable(
  'supervision_findings',
  {
    id: id(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => tenderSections.id),
    /** the anomaly audited (its key, as the evaluation names it); null: the section as a whole */
    anomalyKey: varchar('anomaly_key', { length: 200 }),
    anomalyText: text('anomaly_text'),
    verdict: varchar('verdict', { length: 10 }).notNull(),
    opinion: text('opinion').notNull(),
    byId: uuid('by_id')
      .notNull()
      .references(() => users.id),
    byName: varchar('by_name', { length: 64 }).notNull(),
    at: createdAt(),
    /** issued to the parties (发布): shown in the section's evaluation room, the project's side told */
    publishedAt: timestamptz('published_at'),
    publishedByName: varchar('published_by_name', { length: 64 }),
  },
  (t) => [
    index('supervision_findings_section_idx').on(t.sectionId, t.at),
    // one finding per anomaly
    uniqueIndex('supervision_findings_anomaly_uq')
      .on(t.sectionId, t.anomalyKey)
      .where(sql`${t.anomalyKey} is not null`),
    check('supervision_findings_verdict_ck', sql`${t.verdict} in ('compliant', 'rectify')`),
    check('supervision_findings_text_ck', sql`(${t.anomalyKey} is null) = (${t.anomalyText} is null)`),
    check('supervision_findings_published_ck', sql`(${t.publishedAt} is null) = (${t.publishedByName} is null)`),
  ],
);
