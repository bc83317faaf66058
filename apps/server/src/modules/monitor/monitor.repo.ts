import { type EvalStatus, type OpeningStatus, SUPERVISE_FUNCTION } from '@ks/contracts';
import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  bidEvaluations,
  bidFiles,
  bidOpenings,
  grants,
  ledgerEntries,
  roles,
  supervisionAssignments,
  supervisionFindings,
  tenderSections,
  userRoles,
  users,
} from '../../db/schema';
import { BUILTIN_TYPES } from '../engine/policy';

/** The SQL of the supervision console (监督台): which sections it follows, their assignments and findings. */

/** The most sections the console follows at once (openings of the coming week and everything opened since). */
export const MONITOR_SECTIONS_MAX = 1000;
const WEEK_MS = 7 * 86_400_000;

export interface MonitoredSection {
  id: string;
  projectId: string;
  code: string;
  name: string;
  bidDeadline: Date;
  openingStatus: OpeningStatus;
  evaluationStatus: EvalStatus;
  published: boolean;
  awarded: boolean;
  bids: number;
  supervisorId: string | null;
  supervisorName: string | null;
  lastEventAt: Date | null;
  findings: number;
}

/**
 * The sections under supervision: those whose opening has begun, and those due to open within a week (so that a
 * supervisor is assigned before the day), newest deadline first. `ids` narrows to some sections.
 */
export async function monitoredSections(q: DbOrTx, now: Date, ids?: string[]): Promise<MonitoredSection[]> {
  const bids = q
    .select({ sectionId: bidFiles.sectionId, n: sql<number>`count(*)::int`.as('n') })
    .from(bidFiles)
    .where(eq(bidFiles.status, 'sealed'))
    .groupBy(bidFiles.sectionId)
    .as('b');
  const current = q
    .select({
      sectionId: supervisionAssignments.sectionId,
      supervisorId: supervisionAssignments.supervisorId,
      supervisorName: supervisionAssignments.supervisorName,
    })
    .from(supervisionAssignments)
    .where(isNull(supervisionAssignments.revokedAt))
    .as('a');
  const last = q
    .select({ sectionId: ledgerEntries.sectionId, at: sql<Date>`max(${ledgerEntries.at})`.as('last_at') })
    .from(ledgerEntries)
    .groupBy(ledgerEntries.sectionId)
    .as('l');
  const found = q
    .select({ sectionId: supervisionFindings.sectionId, n: sql<number>`count(*)::int`.as('fn') })
    .from(supervisionFindings)
    .groupBy(supervisionFindings.sectionId)
    .as('f');
  const rows = await q
    .select({
      s: tenderSections,
      openingStatus: bidOpenings.status,
      evaluationStatus: bidEvaluations.status,
      publicityNoticeId: bidEvaluations.publicityNoticeId,
      awardBidId: bidEvaluations.awardBidId,
      bids: bids.n,
      supervisorId: current.supervisorId,
      supervisorName: current.supervisorName,
      lastAt: last.at,
      findings: found.n,
    })
    .from(tenderSections)
    .leftJoin(bidOpenings, eq(bidOpenings.sectionId, tenderSections.id))
    .leftJoin(bidEvaluations, eq(bidEvaluations.sectionId, tenderSections.id))
    .leftJoin(bids, eq(bids.sectionId, tenderSections.id))
    .leftJoin(current, eq(current.sectionId, tenderSections.id))
    .leftJoin(last, eq(last.sectionId, tenderSections.id))
    .leftJoin(found, eq(found.sectionId, tenderSections.id))
    .where(
      and(
        or(
          sql`${bidOpenings.sectionId} is not null`,
          sql`${tenderSections.bidDeadline} <= ${new Date(now.getTime() + WEEK_MS)}`,
        ),
        ids ? inArray(tenderSections.id, ids) : undefined,
      ),
    )
    .orderBy(desc(tenderSections.bidDeadline), asc(tenderSections.code), asc(tenderSections.id))
    .limit(MONITOR_SECTIONS_MAX);
  return rows.map((r) => ({
    id: r.s.id,
    projectId: r.s.projectId,
    code: r.s.code,
    name: r.s.name,
    bidDeadline: r.s.bidDeadline,
    openingStatus: (r.openingStatus ?? 'waiting') as OpeningStatus,
    evaluationStatus: (r.evaluationStatus ?? 'none') as EvalStatus,
    published: r.publicityNoticeId !== null,
    awarded: r.awardBidId !== null,
    bids: Number(r.bids ?? 0),
    supervisorId: r.supervisorId,
    supervisorName: r.supervisorName,
    lastEventAt: r.lastAt ? new Date(r.lastAt) : null,
    findings: Number(r.findings ?? 0),
  }));
}

export type AssignmentRow = typeof supervisionAssignments.$inferSelect;
export type FindingRow = typeof supervisionFindings.$inferSelect;

export async function assignmentsOf(q: DbOrTx, sectionId: string): Promise<AssignmentRow[]> {
  return q
    .select()
    .from(supervisionAssignments)
    .where(eq(supervisionAssignments.sectionId, sectionId))
    .orderBy(desc(supervisionAssignments.assignedAt), desc(supervisionAssignments.id));
}

/** The section's current assignment, locked for the change that follows. */
export async function currentAssignment(q: DbOrTx, sectionId: string): Promise<AssignmentRow | null> {
  const [row] = await q
    .select()
    .from(supervisionAssignments)
    .where(and(eq(supervisionAssignments.sectionId, sectionId), isNull(supervisionAssignments.revokedAt)))
    .for('update');
  return row ?? null;
}

export async function insertAssignment(q: DbOrTx, row: typeof supervisionAssignments.$inferInsert): Promise<void> {
  await q.insert(supervisionAssignments).values(row);
}

export async function revokeAssignment(
  q: DbOrTx,
  id: string,
  by: { name: string; reason: string; at: Date },
): Promise<void> {
  await q
    .update(supervisionAssignments)
    .set({ revokedAt: by.at, revokedByName: by.name, revokeReason: by.reason })
    .where(and(eq(supervisionAssignments.id, id), isNull(supervisionAssignments.revokedAt)));
}

export async function findingsOf(q: DbOrTx, sectionId: string): Promise<FindingRow[]> {
  return q
    .select()
    .from(supervisionFindings)
    .where(eq(supervisionFindings.sectionId, sectionId))
    .orderBy(asc(supervisionFindings.at), asc(supervisionFindings.id));
}

/** Answers false when the anomaly has a finding already (the unique index decides a race). */
export async function insertFinding(q: DbOrTx, row: typeof supervisionFindings.$inferInsert): Promise<boolean> {
  const done = await q
    .insert(supervisionFindings)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: supervisionFindings.id });
  return done.length > 0;
}

/** The anomaly keys of the sections that have a finding, by section. */
export async function auditedKeys(q: DbOrTx, sectionIds: string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (!sectionIds.length) return out;
  const rows = await q
    .select({ sectionId: supervisionFindings.sectionId, key: supervisionFindings.anomalyKey })
    .from(supervisionFindings)
    .where(and(inArray(supervisionFindings.sectionId, sectionIds), sql`${supervisionFindings.anomalyKey} is not null`));
  for (const r of rows) {
    const set = out.get(r.sectionId) ?? new Set<string>();
    set.add(r.key!);
    out.set(r.sectionId, set);
  }
  return out;
}

/**
 * Active accounts holding 监督查看 on the node `nodeId` (granted to them or to one of their roles), by name: whom a
 * section may be assigned to. Administrators are not listed (they see every section anyway).
 */
export async function supervisorsOf(q: DbOrTx, nodeId: string, limit = 200) {
  const held = await q
    .select({ type: grants.subjectType, id: grants.subjectId })
    .from(grants)
    .where(and(eq(grants.nodeId, nodeId), eq(grants.functionCode, SUPERVISE_FUNCTION)));
  const userIds = held.filter((g) => g.type === 'user').map((g) => g.id);
  const roleCodes = held.filter((g) => g.type === 'role').map((g) => g.id);
  const types = roleCodes.map((r) => BUILTIN_TYPES[r]).filter((t): t is string => !!t && t !== 'M');
  const who = [
    userIds.length ? inArray(sql`${users.id}::text`, userIds) : undefined,
    roleCodes.length
      ? inArray(
          users.id,
          q
            .select({ id: userRoles.userId })
            .from(userRoles)
            .innerJoin(roles, eq(roles.id, userRoles.roleId))
            .where(inArray(roles.code, roleCodes)),
        )
      : undefined,
    types.length ? inArray(users.loginRoleType, types) : undefined,
  ].filter((x) => x !== undefined);
  if (!who.length) return [];
  return q
    .select({ id: users.id, userName: users.userName })
    .from(users)
    .where(and(eq(users.status, 'active'), sql`${users.loginRoleType} <> 'M'`, or(...who)))
    .orderBy(asc(users.userName), asc(users.id))
    .limit(limit);
}

/** The active accounts of a project's side: its owner, and the staff of its enterprise. */
export async function sideAccounts(q: DbOrTx, side: { ownerId: string; enterpriseId: string | null }) {
  return q
    .select({ userId: users.id })
    .from(users)
    .where(
      and(
        eq(users.status, 'active'),
        side.enterpriseId
          ? or(eq(users.id, side.ownerId), eq(users.enterpriseId, side.enterpriseId))
          : eq(users.id, side.ownerId),
      ),
    );
}

export async function findingById(q: DbOrTx, id: string): Promise<FindingRow | null> {
  const [row] = await q.select().from(supervisionFindings).where(eq(supervisionFindings.id, id)).for('update');
  return row ?? null;
}

export async function markPublished(q: DbOrTx, id: string, by: { name: string; at: Date }): Promise<boolean> {
  const done = await q
    .update(supervisionFindings)
    .set({ publishedAt: by.at, publishedByName: by.name })
    .where(and(eq(supervisionFindings.id, id), isNull(supervisionFindings.publishedAt)))
    .returning({ id: supervisionFindings.id });
  return done.length > 0;
}

/** The section's findings issued to the parties, oldest first (the evaluation room's 监督意见). */
export async function publishedFindings(q: DbOrTx, sectionId: string): Promise<FindingRow[]> {
  return q
    .select()
    .from(supervisionFindings)
    .where(and(eq(supervisionFindings.sectionId, sectionId), sql`${supervisionFindings.publishedAt} is not null`))
    .orderBy(asc(supervisionFindings.publishedAt), asc(supervisionFindings.id));
}
