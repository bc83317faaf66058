import type { AssignableUser, AuditLevel } from '@ks/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { forbidden, validationFailed } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { canCall, requireNode } from '../../platform/permissions';
import { levelReviewers, type ReviewFacts, recordFactsOf } from './policy';
import { type EngineCaller, engineNode, policyContext, recordFor } from './record-access';
import { businessNameOf } from './record-row';
import { bumpVersion } from './records.repo';
import { closeTodos, insertTodos } from './review.repo';

/**
 * 任务指派 (screen 15): an administrator, or a holder of the node's 指派 (assign) function, hands the open to-do of a
 * pending record's current audit level to one reviewer of that level. Only that reviewer may then decide the level.
 * Levels decided by all their reviewers (会签) are not assigned.
 */

/** At most this many candidates are listed (a built-in role such as `user` may hold many accounts). */
export const MAX_CANDIDATES = 200;

async function requireAssign(db: Db, c: EngineCaller, gnCoding: string) {
  const ref = await requireNode(db, c, gnCoding);
  if (!(await canCall(db, c, ref, 'assign'))) throw forbidden();
  return ref;
}

/** Active accounts that may decide the record's current level: its named users and role holders, less its side. */
async function candidates(
  q: DbOrTx,
  level: AuditLevel,
  row: Record<string, unknown>,
  review: ReviewFacts,
): Promise<AssignableUser[]> {
  const rows = await levelReviewers(
    q,
    level,
    { ...recordFactsOf(row), submitterId: review.submitterId },
    MAX_CANDIDATES,
  );
  return rows.map((r) =>
    r.orgName ? { id: r.id, userName: r.userName, orgName: r.orgName } : { id: r.id, userName: r.userName },
  );
}

export async function assignableList(db: Db, c: EngineCaller, gnCoding: string, id: string) {
  await requireAssign(db, c, gnCoding);
  const n = await engineNode(db, gnCoding);
  const { row, review } = await recordFor(db, c, n, id, 'assign', await policyContext(db, c, n.gnCoding));
  return candidates(db, review.level!, row, review);
}

export async function assignRecord(
  db: Db,
  c: EngineCaller,
  input: { gnCoding: string; id: string; version: number; userId: string },
) {
  await requireAssign(db, c, input.gnCoding);
  const n = await engineNode(db, input.gnCoding);
  const ctx = await policyContext(db, c, n.gnCoding);
  await db.transaction(async (tx) => {
    // pending, not a 会签 level, and not the record's side picking its reviewer (the record policy)
    const { row, review } = await recordFor(tx, c, n, input.id, 'assign', ctx, true, input.version);
    const level = review.level!;
    const target = (await candidates(tx, level, row, review)).find((u) => u.id === input.userId);
    if (!target) throw validationFailed({ userId: ['该人员不能承接当前审核级别'] });
    // the record's row before its to-dos (see review.service auditInTx: the other order deadlocks with a submission)
    await bumpVersion(tx, n.gnCoding, input.id, true);
    const open = await closeTodos(tx, n.id, input.id, new Date(), { level: level.level });
    await insertTodos(tx, [
      {
        nodeId: n.id,
        systemId: n.systemId,
        recordId: input.id,
        level: level.level,
        assigneeType: 'user',
        assigneeId: target.id,
        businessName: open[0]?.businessName ?? businessNameOf(n, row),
        submitterName: open[0]?.submitterName ?? '',
        sbTime: open[0]?.sbTime ?? new Date(),
      },
    ]);
    await writeOpLog(tx, c.actor, {
      glName: n.title,
      gnCoding: n.gnCoding,
      recordId: input.id,
      logbook: `任务指派：${level.name}指派给 ${target.userName}${target.orgName ? `（${target.orgName}）` : ''}`,
    });
  });
}
