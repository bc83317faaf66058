import { EVAL_CLARIFY_FILE_NODE, type EvalClarification, type EvalClarifyStatus } from '@ks/contracts';
import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  bidEvaluationMembers,
  bidFiles,
  bidEvaluationClarifications as clarifications,
  enterprises,
  files,
  users,
} from '../../db/schema';

/**
 * 评标澄清 (issue 17), the rows: the committee's questions to bidders with their answers and files. The steps (ask,
 * answer, revoke: who may, when) are in evaluation.service.ts with the rest of the room's steps; who may read an
 * answer's files is registered there too.
 */

export type ClarificationRow = typeof clarifications.$inferSelect;

/** asked, answered, revoked — or expired: still unanswered at its deadline. */
export function statusOf(r: ClarificationRow, now: Date): EvalClarifyStatus {
  if (r.revokedAt) return 'revoked';
  if (r.answeredAt) return 'answered';
  return r.deadline.getTime() <= now.getTime() ? 'expired' : 'asked';
}

export async function clarificationById(q: DbOrTx, id: string, lock = false): Promise<ClarificationRow | null> {
  const base = q.select().from(clarifications).where(eq(clarifications.id, id));
  const [r] = lock ? await base.for('update') : await base;
  return r ?? null;
}

/** The section's questions (only those to one enterprise's bid, when given), oldest first. */
export async function clarificationsOf(
  q: DbOrTx,
  sectionId: string,
  now: Date,
  enterpriseId?: string,
): Promise<EvalClarification[]> {
  const rows = await q
    .select({
      c: clarifications,
      enterpriseName: enterprises.name,
      askedBy: bidEvaluationMembers.name,
      answeredBy: users.userName,
    })
    .from(clarifications)
    .innerJoin(bidFiles, eq(bidFiles.id, clarifications.bidId))
    .innerJoin(enterprises, eq(enterprises.id, bidFiles.enterpriseId))
    .innerJoin(bidEvaluationMembers, eq(bidEvaluationMembers.id, clarifications.askedByMemberId))
    .leftJoin(users, eq(users.id, clarifications.answeredBy))
    .where(
      and(eq(clarifications.sectionId, sectionId), enterpriseId ? eq(bidFiles.enterpriseId, enterpriseId) : undefined),
    )
    .orderBy(asc(clarifications.at), asc(clarifications.id));
  const ids = rows.map((r) => r.c.id);
  const attached = ids.length
    ? await q
        .select({ id: files.id, name: files.fileName, size: files.fileSize, recordId: files.recordId })
        .from(files)
        .where(and(eq(files.gnCoding, EVAL_CLARIFY_FILE_NODE), inArray(files.recordId, ids)))
        .orderBy(asc(files.fileName))
    : [];
  return rows.map(({ c, enterpriseName, askedBy, answeredBy }) => ({
    id: c.id,
    bidId: c.bidId,
    enterpriseName,
    question: c.question,
    deadline: c.deadline.toISOString(),
    askedBy,
    askedAt: c.at.toISOString(),
    status: statusOf(c, now),
    answer: c.answer,
    answeredAt: c.answeredAt?.toISOString() ?? null,
    answeredBy: c.answeredAt ? (answeredBy ?? '') : null,
    files: attached.filter((f) => f.recordId === c.id).map((f) => ({ id: f.id, name: f.name, size: f.size })),
    revokeReason: c.revokeReason,
  }));
}

export async function insertClarification(
  tx: DbOrTx,
  row: Pick<ClarificationRow, 'sectionId' | 'bidId' | 'question' | 'deadline' | 'askedByMemberId' | 'at'>,
): Promise<string> {
  const [r] = await tx.insert(clarifications).values(row).returning({ id: clarifications.id });
  return r!.id;
}

export async function answerClarification(tx: DbOrTx, id: string, a: { answer: string; by: string; at: Date }) {
  await tx
    .update(clarifications)
    .set({ answer: a.answer, answeredAt: a.at, answeredBy: a.by })
    .where(eq(clarifications.id, id));
}

export async function revokeClarification(tx: DbOrTx, id: string, reason: string, at: Date) {
  await tx.update(clarifications).set({ revokedAt: at, revokeReason: reason }).where(eq(clarifications.id, id));
}

/** The name of the enterprise whose bid it is. */
export async function enterpriseNameOfBid(q: DbOrTx, bidId: string): Promise<string> {
  const [r] = await q
    .select({ name: enterprises.name })
    .from(bidFiles)
    .innerJoin(enterprises, eq(enterprises.id, bidFiles.enterpriseId))
    .where(eq(bidFiles.id, bidId));
  return r?.name ?? '';
}

/** The enterprise whose bid a question is about. */
export async function enterpriseOfBid(q: DbOrTx, bidId: string): Promise<string | null> {
  const [b] = await q.select({ e: bidFiles.enterpriseId }).from(bidFiles).where(eq(bidFiles.id, bidId));
  return b?.e ?? null;
}

/**
 * Binds the answer's files to the question: each must be the answering user's or their enterprise's upload (for this
 * node or none), not yet bound to a record. Answers how many were bound (fewer than asked: refuse the answer).
 */
export async function bindAnswerFiles(
  tx: DbOrTx,
  fileIds: readonly string[],
  clarificationId: string,
  by: { userId: string; enterpriseId: string },
): Promise<number> {
  if (!fileIds.length) return 0;
  const rows = await tx
    .update(files)
    .set({ gnCoding: EVAL_CLARIFY_FILE_NODE, recordId: clarificationId })
    .where(
      and(
        inArray(files.id, [...fileIds]),
        or(eq(files.ownerId, by.userId), eq(files.enterpriseId, by.enterpriseId)),
        or(isNull(files.gnCoding), eq(files.gnCoding, EVAL_CLARIFY_FILE_NODE)),
        isNull(files.recordId),
      ),
    )
    .returning({ id: files.id });
  return rows.length;
}

/** Active accounts of an enterprise (to tell them of a question). */
export async function enterpriseAccounts(q: DbOrTx, enterpriseId: string) {
  return q
    .select({ userId: users.id })
    .from(users)
    .where(and(eq(users.enterpriseId, enterpriseId), eq(users.status, 'active')));
}
