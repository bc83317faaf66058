import { type AuditLevel, requiredAnnexMessage } from '@ks/contracts';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { badRequest, conflict } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { requireFunction } from '../../platform/permissions';
import { missingRequiredAnnexes } from '../files/files.repo';
import { sendUserMessages } from '../messages/send';
import { type DecisionEvent, hasDecisionHooks, runDecisionHooks } from './hooks';
import { fieldsOf } from './node-fields';
import { levelReviewers, nextNoReviewerMessage, noReviewerMessage, recordFactsOf } from './policy';
import { type EngineCaller, policyContext, recordFor } from './record-access';
import { businessNameOf, recordStateOf } from './record-row';
import { bumpVersion, recordRow, setReviewState } from './records.repo';
import { auditRows, closeTodos, insertAudit, insertTodos, passersOf, rolesHeldBy, userNameOf } from './review.repo';
import { nodeForEngine } from './schema.repo';

/**
 * The review workflow of engine records (issue 5): draft → submit → the node's audit levels in order (each level
 * decides single / any / all) → passed, or rejected with a suggestion → resubmit. Every step locks the record row and
 * checks its status and version, so two reviewers can never both decide: the second gets 409. Each step closes the
 * to-dos it settles and opens those of the next reviewers, and appends to the record's audit history.
 */

export const REJECT_NEEDS_SUGGESTION = '请填写审核建议';
type Row = Record<string, unknown>;

/** Opens the to-dos of a level's reviewers (its roles and named users) for the record. */
async function openTodos(
  tx: DbOrTx,
  n: { id: string; systemId: string; title: string; fields: unknown },
  row: Row,
  level: AuditLevel,
  submitterName: string,
  at: Date,
) {
  const values = [
    ...level.reviewerRoles.map((code) => ({ assigneeType: 'role', assigneeId: code })),
    ...level.reviewerUserIds.map((id) => ({ assigneeType: 'user', assigneeId: id })),
  ].map((a) => ({
    ...a,
    nodeId: n.id,
    systemId: n.systemId,
    recordId: String(row.id),
    level: level.level,
    businessName: businessNameOf(n, row),
    submitterName,
    sbTime: at,
  }));
  await insertTodos(tx, values);
}

/**
 * Runs the node's domain hooks (hooks.ts) for a decision, in its transaction, with the record as the decision left it
 * (read back only when the node has hooks).
 */
async function decided(
  tx: Tx,
  n: { id: string; gnCoding: string; title: string; fields: unknown },
  id: string,
  c: EngineCaller,
  outcome: 'passed' | 'rejected',
  e: Pick<DecisionEvent, 'level' | 'final' | 'opinion'>,
) {
  if (!hasDecisionHooks(n.gnCoding)) return;
  const row = await recordRow(tx, n.gnCoding, id);
  if (!row) throw new Error(`record ${id} vanished inside its decision`);
  await runDecisionHooks(outcome, {
    ...e,
    tx,
    node: { id: n.id, gnCoding: n.gnCoding, title: n.title },
    record: recordStateOf(row, fieldsOf(n)),
    decider: { id: c.id, userName: c.actor.userName, loginRoleType: c.loginRoleType, enterpriseId: c.enterpriseId },
  });
}

/**
 * The decision's result for the record's side (its submitter, else its owner) in the message centre — on a rejection
 * (with the reason) and when the last level passes. Nodes with domain hooks tell their users themselves.
 */
async function tellSide(
  tx: DbOrTx,
  n: { gnCoding: string; title: string; fields: unknown },
  row: Row,
  submitterId: string | null,
  pass: boolean,
  opinion: string,
) {
  if (hasDecisionHooks(n.gnCoding)) return;
  const to = submitterId ?? (row.owner_id ? String(row.owner_id) : null);
  if (!to) return;
  const name = businessNameOf(n, row);
  await sendUserMessages(tx, [
    {
      userId: to,
      kind: pass ? 'result' : 'rejected',
      title: `${name}（${pass ? '审核通过' : '被驳回'}）`.slice(0, 200),
      body: pass
        ? `您提交的「${name}」已审核通过。${opinion ? `审核建议：${opinion}` : ''}`
        : `您提交的「${name}」被驳回，审核建议：${opinion}。请修改后重新提交。`,
      reason: pass ? null : opinion,
      gnCoding: n.gnCoding,
      recordId: String(row.id),
    },
  ]);
}

export async function submitRecord(db: Db, c: EngineCaller, input: { gnCoding: string; id: string; version: number }) {
  await requireFunction(db, c, input.gnCoding, 'submit');
  const n = await nodeForEngine(db, input.gnCoding);
  const ctx = await policyContext(db, c, n.gnCoding);
  await db.transaction((tx) => submitInTx(tx, c, n, ctx, input));
}

type EngineNode = Awaited<ReturnType<typeof nodeForEngine>>;
type PolicyContext = Awaited<ReturnType<typeof policyContext>>;

/**
 * Submits the record inside the caller's transaction (a domain module submitting its own record with other writes:
 * the credit change rounds). The function grant is the caller's business; the record policy, the annexes, the first
 * level's reviewers, the to-dos and the operation log are checked and written here as in `submitRecord`.
 */
export async function submitInTx(
  tx: Tx,
  c: EngineCaller,
  n: EngineNode,
  ctx: PolicyContext,
  input: { id: string; version: number },
) {
  const { levels } = ctx;
  const at = new Date();
  {
    const { row } = await recordFor(tx, c, n, input.id, 'submit', ctx, true, input.version);
    const missing = await missingRequiredAnnexes(tx, n, input.id);
    if (missing.length) throw badRequest(requiredAnnexMessage(missing.join('、')));
    const round = Number(row.round) + 1;
    const first = levels[0];
    // a submission nobody could decide would vanish: the first level needs a reviewer other than the applicant
    if (first && !(await hasReviewer(tx, first, row, c.id))) throw conflict(noReviewerMessage(first.name));
    await setReviewState(tx, n.gnCoding, input.id, {
      status: first ? 'pending' : 'passed',
      level: first ? 1 : 0,
      round,
    });
    await insertAudit(tx, {
      nodeId: n.id,
      recordId: input.id,
      level: 0,
      action: 'submit',
      userId: c.id,
      userName: c.actor.userName,
      round,
    });
    if (first) await openTodos(tx, n, row, first, c.actor.userName, at);
    // a node without review levels passes the record at once: for its domain, that is the final pass
    else await decided(tx, n, input.id, c, 'passed', { level: null, final: true, opinion: null });
    await writeOpLog(tx, c.actor, {
      glName: n.title,
      gnCoding: n.gnCoding,
      recordId: input.id,
      logbook: first ? `提交审核（第 ${round} 次），待${first.name}` : '提交（无需审核，已通过）',
    });
  }
}

/** Has the level an active reviewer who is not of the record's side (nor its submitter)? */
async function hasReviewer(tx: DbOrTx, level: AuditLevel, row: Row, submitterId: string | null): Promise<boolean> {
  const facts = recordFactsOf(row);
  const found = await levelReviewers(tx, level, { ...facts, submitterId }, 1);
  return found.length > 0;
}

export async function revokeRecord(db: Db, c: EngineCaller, input: { gnCoding: string; id: string; version: number }) {
  await requireFunction(db, c, input.gnCoding, 'revoke');
  const n = await nodeForEngine(db, input.gnCoding);
  const ctx = await policyContext(db, c, n.gnCoding);
  const at = new Date();
  await db.transaction(async (tx) => {
    // the record's side, while pending and nobody has decided this round (the record policy)
    const { row } = await recordFor(tx, c, n, input.id, 'revoke', ctx, true, input.version);
    await setReviewState(tx, n.gnCoding, input.id, { status: 'draft', level: 0 });
    await insertAudit(tx, {
      nodeId: n.id,
      recordId: input.id,
      level: 0,
      action: 'revoke',
      userId: c.id,
      userName: c.actor.userName,
      round: Number(row.round),
    });
    await closeTodos(tx, n.id, input.id, at);
    await writeOpLog(tx, c.actor, { glName: n.title, gnCoding: n.gnCoding, recordId: input.id, logbook: '撤回提交' });
  });
}

/** Has every reviewer an `all` level names passed in this round (each named user, and one holder of each role)? */
async function allPassed(tx: DbOrTx, level: AuditLevel, passers: string[]): Promise<boolean> {
  if (!level.reviewerUserIds.every((u) => passers.includes(u))) return false;
  if (!level.reviewerRoles.length) return true;
  if (!passers.length) return false;
  const held = await rolesHeldBy(tx, passers);
  return level.reviewerRoles.every((r) => held.some((h) => h.code === r));
}

export async function auditRecord(
  db: Db,
  c: EngineCaller,
  input: { gnCoding: string; id: string; version: number; pass: boolean; suggestion?: string },
) {
  await requireFunction(db, c, input.gnCoding, 'audit');
  const suggestion = input.suggestion?.trim() ?? '';
  if (!input.pass && !suggestion)
    throw badRequest(REJECT_NEEDS_SUGGESTION, { fieldErrors: { suggestion: [REJECT_NEEDS_SUGGESTION] } });
  const n = await nodeForEngine(db, input.gnCoding);
  const ctx = await policyContext(db, c, n.gnCoding);
  await db.transaction((tx) => auditInTx(tx, c, n, ctx, { ...input, suggestion }));
}

/**
 * Decides the record inside the caller's transaction (a domain module deciding its own record: the credit change
 * rounds). The function grant and the suggestion of a rejection are the caller's business; the record policy (409 for
 * a decided or stale record), levels, to-dos, hooks and the operation log are as in `auditRecord`.
 */
export async function auditInTx(
  tx: Tx,
  c: EngineCaller,
  n: EngineNode,
  ctx: PolicyContext,
  input: { id: string; version: number; pass: boolean; suggestion: string },
) {
  const { levels } = ctx;
  const suggestion = input.suggestion;
  const at = new Date();
  {
    // a reviewer of the current level holding its open to-do, not of the record's side, not passed already (policy)
    const { row, review } = await recordFor(tx, c, n, input.id, 'decide', ctx, true, input.version);
    const level = review.level!;
    const levelNo = level.level;
    const round = Number(row.round);
    const earlier = await passersOf(tx, n.id, input.id, round, levelNo);
    await insertAudit(tx, {
      nodeId: n.id,
      recordId: input.id,
      level: levelNo,
      action: input.pass ? 'pass' : 'reject',
      suggestion: suggestion || null,
      userId: c.id,
      userName: c.actor.userName,
      round,
    });
    let outcome: string;
    if (!input.pass) {
      await setReviewState(tx, n.gnCoding, input.id, { status: 'rejected', level: 0 });
      await closeTodos(tx, n.id, input.id, at);
      await decided(tx, n, input.id, c, 'rejected', { level, final: true, opinion: suggestion });
      await tellSide(tx, n, row, review.submitterId, false, suggestion);
      outcome = `驳回：${suggestion}`;
    } else {
      const passers = [...earlier, c.id];
      const settled = level.way !== 'all' || (await allPassed(tx, level, passers));
      if (!settled) {
        // 会签: this reviewer's part is done; the level waits for the others
        await bumpVersion(tx, n.gnCoding, input.id, false);
        await closeTodos(tx, n.id, input.id, at, { assignee: { type: 'user', id: c.id } });
        outcome = `${level.name}通过（会签，等待其他审核人）`;
      } else {
        const next = levels.find((l) => l.level === levelNo + 1);
        // passing into a level nobody could decide would strand the record: refused, nothing written
        if (next && !(await hasReviewer(tx, next, row, review.submitterId))) {
          throw conflict(nextNoReviewerMessage(next.name));
        }
        // the record's row before its to-dos, as every other step does: the record's update takes the node's
        // data-version row (node_data_versions), the to-dos' take the to-do summaries first and then that row, so
        // the other order deadlocks with a submission to the same node
        if (next) {
          await setReviewState(tx, n.gnCoding, input.id, { status: 'pending', level: next.level });
          await closeTodos(tx, n.id, input.id, at);
          await openTodos(tx, n, row, next, (await userNameOf(tx, String(row.owner_id))) ?? '', at);
          outcome = `${level.name}通过，待${next.name}`;
        } else {
          await setReviewState(tx, n.gnCoding, input.id, { status: 'passed', level: 0 });
          await closeTodos(tx, n.id, input.id, at);
          await tellSide(tx, n, row, review.submitterId, true, suggestion);
          outcome = `${level.name}通过，审核完成`;
        }
        await decided(tx, n, input.id, c, 'passed', { level, final: !next, opinion: suggestion || null });
      }
    }
    await writeOpLog(tx, c.actor, { glName: n.title, gnCoding: n.gnCoding, recordId: input.id, logbook: outcome });
  }
}

/** The record's review history, oldest first (the auditFlow column). */
export async function auditFlow(db: DbOrTx, nodeId: string, recordId: string) {
  const rows = await auditRows(db, nodeId, recordId);
  return rows.map((r) => ({
    level: r.level,
    action: r.action,
    suggestion: r.suggestion,
    userName: r.userName,
    round: r.round,
    time: r.createdAt.toISOString(),
  }));
}
