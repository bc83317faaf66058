import { CREDIT_NODE, type CreditSubjectKind } from '@ks/contracts';
import { and, asc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  creditConductRecords,
  creditStandards,
  enterprises,
  files,
  grants,
  menuNodes,
  practitioners,
  todos,
} from '../../db/schema';
import { announceTodos } from '../engine/todo-events';

/** Queries of the credit module. */

/** The rows of a raw statement (both drivers answer `{ rows }`). */
export const rowsOf = (res: unknown) => (res as { rows: Record<string, unknown>[] }).rows;

/** `like` pattern of a substring: the keyword with its wildcards escaped, between `%`. */
export const likeContains = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type RecordRow = typeof creditConductRecords.$inferSelect;
export type StandardRow = typeof creditStandards.$inferSelect;

export interface SubjectRow {
  kind: CreditSubjectKind;
  id: string;
  name: string;
  code: string;
  type: string;
  region: string | null;
  enterpriseId: string;
  enterpriseName: string;
}

export async function subjectOf(db: DbOrTx, kind: CreditSubjectKind, id: string): Promise<SubjectRow | null> {
  if (kind === 'enterprise') {
    const [e] = await db.select().from(enterprises).where(eq(enterprises.id, id));
    return e
      ? {
          kind,
          id: e.id,
          name: e.name,
          code: e.creditCode,
          type: e.enterpriseType,
          region: e.region,
          enterpriseId: e.id,
          enterpriseName: e.name,
        }
      : null;
  }
  const [p] = await db
    .select({ p: practitioners, enterpriseName: enterprises.name })
    .from(practitioners)
    .innerJoin(enterprises, eq(enterprises.id, practitioners.enterpriseId))
    .where(eq(practitioners.id, id));
  return p
    ? {
        kind,
        id: p.p.id,
        name: p.p.name,
        code: p.p.certNo,
        type: p.p.practiceArea,
        region: p.p.region,
        enterpriseId: p.p.enterpriseId!,
        enterpriseName: p.enterpriseName,
      }
    : null;
}

export async function standardById(db: DbOrTx, id: string): Promise<StandardRow | undefined> {
  const [s] = await db.select().from(creditStandards).where(eq(creditStandards.id, id));
  return s;
}

export async function standardsOf(db: DbOrTx, opts: { enabledOnly?: boolean } = {}): Promise<StandardRow[]> {
  return db
    .select()
    .from(creditStandards)
    .where(opts.enabledOnly ? eq(creditStandards.enabled, true) : sql`true`)
    .orderBy(asc(creditStandards.sort), asc(creditStandards.code));
}

/** A record with what its views need: the standard, the subject's and the enterprise's names. */
export const recordSelect = {
  r: creditConductRecords,
  standardName: creditStandards.name,
  xxGrouping: creditStandards.xxGrouping,
  conduct: creditStandards.conduct,
  highest: creditStandards.highest,
  enterpriseName: enterprises.name,
  personName: practitioners.name,
};
export type RecordJoined = {
  r: RecordRow;
  standardName: string;
  xxGrouping: string;
  conduct: string;
  highest: string;
  enterpriseName: string;
  personName: string | null;
};

export function recordQuery(db: DbOrTx) {
  return db
    .select(recordSelect)
    .from(creditConductRecords)
    .innerJoin(creditStandards, eq(creditStandards.id, creditConductRecords.standardId))
    .innerJoin(enterprises, eq(enterprises.id, creditConductRecords.enterpriseId))
    .leftJoin(practitioners, eq(practitioners.id, creditConductRecords.personId));
}

export async function recordById(db: DbOrTx, id: string): Promise<RecordJoined | undefined> {
  const [r] = await recordQuery(db).where(eq(creditConductRecords.id, id));
  return r;
}

/** Lock a record's row for the rest of the transaction (and read it). */
export async function lockRecord(tx: DbOrTx, id: string): Promise<RecordRow | undefined> {
  const [r] = await tx.select().from(creditConductRecords).where(eq(creditConductRecords.id, id)).for('update');
  return r;
}

export async function pageOfRecords(db: DbOrTx, where: SQL | undefined, pageNum: number, pageSize: number) {
  const records = await recordQuery(db)
    .where(where)
    .orderBy(sql`${creditConductRecords.createdAt} desc`, sql`${creditConductRecords.id} desc`)
    .limit(pageSize)
    .offset((pageNum - 1) * pageSize);
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(creditConductRecords)
    .innerJoin(creditStandards, eq(creditStandards.id, creditConductRecords.standardId))
    .innerJoin(enterprises, eq(enterprises.id, creditConductRecords.enterpriseId))
    .leftJoin(practitioners, eq(practitioners.id, creditConductRecords.personId))
    .where(where);
  return { records, total: Number(total?.n ?? 0) };
}

// ---- evidence files (rows of the files module bound to a record) ---------------------------------------------------

export type FileRow = typeof files.$inferSelect;

export async function filesOfRecords(db: DbOrTx, recordIds: string[]): Promise<Map<string, FileRow[]>> {
  const out = new Map<string, FileRow[]>();
  if (!recordIds.length) return out;
  const rows = await db
    .select()
    .from(files)
    .where(and(eq(files.gnCoding, CREDIT_NODE), inArray(files.recordId, recordIds)))
    .orderBy(asc(files.createdAt), asc(files.id));
  for (const f of rows) {
    const list = out.get(f.recordId!) ?? [];
    list.push(f);
    out.set(f.recordId!, list);
  }
  return out;
}

/**
 * Bind files to a record, as the files module binds files to any business record (gn_coding, record_id): only files
 * of the caller's side that are not bound to anything else, uploaded for the credit node or for no node. Answers how
 * many were bound.
 */
export async function bindFiles(
  tx: DbOrTx,
  recordId: string,
  fileIds: string[],
  side: { userId: string; enterpriseId: string },
): Promise<number> {
  if (!fileIds.length) return 0;
  const bound = await tx
    .update(files)
    .set({ gnCoding: CREDIT_NODE, recordId })
    .where(
      and(
        inArray(files.id, fileIds),
        or(eq(files.enterpriseId, side.enterpriseId), eq(files.ownerId, side.userId)),
        or(isNull(files.gnCoding), eq(files.gnCoding, CREDIT_NODE)),
        or(isNull(files.recordId), eq(files.recordId, recordId)),
      ),
    )
    .returning({ id: files.id });
  return bound.length;
}

/** Unbind files from a record: they become uploads of nobody's, which the files module sweeps after a day. */
export async function unbindFiles(tx: DbOrTx, recordId: string, fileIds?: string[]): Promise<FileRow[]> {
  return tx
    .update(files)
    .set({ recordId: null })
    .where(
      and(
        eq(files.gnCoding, CREDIT_NODE),
        eq(files.recordId, recordId),
        fileIds ? inArray(files.id, fileIds) : sql`true`,
      ),
    )
    .returning();
}

// ---- to-dos of reviewers (the engine's todos table: system counts, menu badges, the to-do list) --------------------

/** The credit node and who reviews on it: administrators, and the roles and users granted its 审核 function. */
export async function reviewTargets(db: DbOrTx) {
  const [node] = await db
    .select({ id: menuNodes.id, systemId: menuNodes.systemId })
    .from(menuNodes)
    .where(eq(menuNodes.gnCoding, CREDIT_NODE));
  if (!node) return null;
  const granted = await db
    .select({ type: grants.subjectType, id: grants.subjectId })
    .from(grants)
    .where(and(eq(grants.nodeId, node.id), eq(grants.functionCode, 'audit')));
  const assignees = [{ type: 'role', id: 'admin' }, ...granted.filter((g) => !(g.type === 'role' && g.id === 'admin'))];
  return { node, assignees };
}

export async function openTodos(
  tx: DbOrTx,
  recordId: string,
  businessName: string,
  submitterName: string,
  at: Date,
): Promise<void> {
  const targets = await reviewTargets(tx);
  if (!targets) return;
  const values = targets.assignees.map((a) => ({
    nodeId: targets.node.id,
    systemId: targets.node.systemId,
    recordId,
    level: 1,
    assigneeType: a.type,
    assigneeId: a.id,
    businessName: businessName.slice(0, 200),
    submitterName: submitterName.slice(0, 64),
    sbTime: at,
  }));
  await tx.insert(todos).values(values);
  await announceTodos(tx, values);
}

export async function closeTodos(tx: DbOrTx, recordId: string, at: Date): Promise<void> {
  const closed = await tx
    .update(todos)
    .set({ doneAt: at })
    .where(
      and(
        eq(todos.recordId, recordId),
        isNull(todos.doneAt),
        inArray(
          todos.nodeId,
          tx.select({ id: menuNodes.id }).from(menuNodes).where(eq(menuNodes.gnCoding, CREDIT_NODE)),
        ),
      ),
    )
    .returning({ nodeId: todos.nodeId, assigneeType: todos.assigneeType, assigneeId: todos.assigneeId });
  await announceTodos(tx, closed);
}
