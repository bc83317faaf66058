import { type Operation, SUPERVISE_FUNCTION } from '@ks/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { notFound } from '../../platform/errors';
import type { Actor } from '../../platform/oplog';
import { type Caller, findNode, nodeState, roleCodesOf } from '../../platform/permissions';
import { auditConfig } from '../shell/settings.service';
import {
  enforce,
  NO_REVIEW,
  operationsOf,
  type PolicyContext,
  type RecordAction,
  type ReviewFacts,
  recordFactsOf,
  reviewFactsOf,
  reviewFactsOfRow,
} from './policy';
import { recordRow } from './records.repo';
import { nodeForEngine } from './schema.repo';

/**
 * Access to single records of a node, through the record policy (policy.ts): the record a caller may act on (else the
 * policy's 404 / 403 / 409), and the operations (row buttons) the caller has on records now.
 */

export interface EngineCaller extends Caller {
  enterpriseId: string | null;
  actor: Actor;
}

/** The node, when the engine keeps its records and it has fields (else 404). */
export async function engineNode(db: DbOrTx, gnCoding: string) {
  const n = await nodeForEngine(db, gnCoding);
  if (n.dataSource !== 'engine' || n.fieldsVersion === 0) throw notFound('该节点尚未配置字段');
  return n;
}

/** Does the caller hold the node's 监督查看 function (its grant: read every record, act on none)? */
export async function supervisesNode(db: Db, c: Caller, nodeId: string): Promise<boolean> {
  return (await nodeState(db, c, nodeId))?.granted.has(SUPERVISE_FUNCTION) ?? false;
}

/** What the record policy needs beyond the record: the caller's role codes, the node's audit levels, 监督查看. */
export async function policyContext(q: Db, c: EngineCaller, gnCoding: string): Promise<PolicyContext> {
  const ref = await findNode(q, gnCoding);
  return {
    roleCodes: await roleCodesOf(q, c),
    levels: (await auditConfig(q, gnCoding)).levels,
    supervises: ref ? await supervisesNode(q, c, ref.id) : false,
  };
}

/**
 * The record and the caller's review facts, after the record policy allowed `action` (else its 404 / 403 / 409).
 * `lock` takes the row lock (inside a transaction: `q` is the transaction, `ctx` read with it or before it).
 */
export async function recordFor(
  q: DbOrTx,
  c: EngineCaller,
  n: { id: string; gnCoding: string },
  id: string,
  action: RecordAction,
  ctx: PolicyContext,
  lock = false,
  version?: number,
): Promise<{ row: Record<string, unknown>; review: ReviewFacts }> {
  const row = await recordRow(q, n.gnCoding, id, lock);
  // a record the caller may not read answers as if it did not exist
  if (!row) throw notFound('记录不存在');
  const review = await reviewFactsOfRow(q, c, n.id, row, ctx);
  enforce(c, recordFactsOf(row), review, action, version);
  return { row, review };
}

/** A record the caller may read (the record policy), else 404. */
export async function rowOf(db: Db, c: EngineCaller, gnCoding: string, id: string, nodeId: string) {
  const ctx = { roleCodes: await roleCodesOf(db, c), levels: [], supervises: await supervisesNode(db, c, nodeId) };
  return (await recordFor(db, c, { id: nodeId, gnCoding }, id, 'read', ctx)).row;
}

/** Buttons whose verdict depends on the review workflow (to-dos, the current round). */
const REVIEW_BUTTONS = new Set(['audit', 'assign', 'revoke']);

/**
 * What the caller may do with each of these rows of a node's table: the granted row buttons the record policy allows
 * now (policy.ts). Reads the review facts (the caller's to-dos, the current round) only when a button needs them.
 */
export async function operationsForRows(
  db: DbOrTx,
  c: EngineCaller,
  nodeId: string,
  gnCoding: string,
  granted: Operation[],
  rows: readonly Record<string, unknown>[],
): Promise<Map<string, Operation[]>> {
  const reviewed = granted.some((o) => REVIEW_BUTTONS.has(o.code)) && rows.some((r) => r.status === 'pending');
  const facts = reviewed
    ? await reviewFactsOf(db, c, nodeId, rows, {
        roleCodes: await roleCodesOf(db, c),
        // the levels matter to 审核 and 指派 only (撤回 needs the current round alone)
        levels: granted.some((o) => o.code === 'audit' || o.code === 'assign')
          ? (await auditConfig(db, gnCoding)).levels
          : [],
      })
    : new Map<string, ReviewFacts>();
  // a listed or shown record is one the caller may read (scopeSql is the policy's read) — for a supervisor of the
  // node (监督查看) perhaps only as that, which lets them act on nothing: their to-dos say whether they were asked
  const supervises = await supervisesNode(db as Db, c, nodeId);
  const out = new Map<string, Operation[]>();
  for (const r of rows) {
    if (r.id === null || r.id === undefined) continue;
    const review = facts.get(String(r.id)) ?? NO_REVIEW;
    const readable = supervises ? { ...review, supervises: true } : { ...review, asked: true };
    out.set(String(r.id), operationsOf(granted, c, recordFactsOf(r), readable));
  }
  return out;
}
