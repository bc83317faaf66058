import type { AuditLevel } from '@ks/contracts';
import type { Tx } from '../../db/client';
import type { recordStateOf } from './record-row';

/**
 * Domain hooks: what a domain module (credit, tendering …) does when a review of one of its nodes' records is decided
 * — credit applies a passed change, tendering publishes an approved notice (ARCHITECTURE.md, "Domain modules beside
 * the engine"). A module registers hooks for a node code; the review workflow (review.service) runs them inside the
 * decision's transaction, after the record's new state is written and before the decision's operation-log row:
 * - `passed` when a level passes (with `final` when it was the last level and the record is now passed; also when a
 *   node without review levels passes a record on submission: `level` is null then). A 会签 (`all`) level passes
 *   when its last reviewer passes; a reviewer's pass before that is not a level passing and runs no hook.
 * - `rejected` when a level rejects the record (always final: the record is now rejected).
 * A hook writes with `tx`, so its writes commit or roll back with the decision. A hook that throws rolls the whole
 * decision back (record, audit history, to-dos, operation log and its own writes): an `AppError` reaches the client
 * as its envelope (e.g. 400 with the hook's message); anything else is a 500 that shows no detail.
 */

/** The record as the decision left it (values in their saved form, as the form loads them). */
export type HookRecord = ReturnType<typeof recordStateOf>;

export interface DecisionEvent {
  /** the decision's transaction: write with it */
  tx: Tx;
  node: { id: string; gnCoding: string; title: string };
  record: HookRecord;
  /** the level decided (null: passed on submission, the node has no review levels) */
  level: AuditLevel | null;
  /** the record is now finally passed (the last level passed) or rejected */
  final: boolean;
  /** who decided (for a pass on submission: the submitter) */
  decider: { id: string; userName: string; loginRoleType: string; enterpriseId: string | null };
  /** the reviewer's opinion (审核建议), null when none was given */
  opinion: string | null;
}

export interface DecisionHooks {
  /** names the hook in errors and in the registry (unique per node) */
  name: string;
  passed?: (e: DecisionEvent) => Promise<void> | void;
  rejected?: (e: DecisionEvent) => Promise<void> | void;
}

/** Hooks by node code (lower case: node codes are unique case-insensitively), in registration order. */
const registry = new Map<string, DecisionHooks[]>();

/**
 * Registers hooks for the records of node `gnCoding`; answers the function that removes them again (tests, a module
 * shutting down). Registering a second set under a name the node already has is a programming error.
 */
export function onDecision(gnCoding: string, hooks: DecisionHooks): () => void {
  const key = gnCoding.toLowerCase();
  const list = registry.get(key) ?? [];
  if (list.some((h) => h.name === hooks.name)) throw new Error(`decision hooks ${hooks.name} on ${gnCoding} twice`);
  registry.set(key, [...list, hooks]);
  return () => {
    const now = registry.get(key)?.filter((h) => h !== hooks) ?? [];
    if (now.length) registry.set(key, now);
    else registry.delete(key);
  };
}

/** Does any hook wait for decisions on this node (the workflow reads the record back only then)? */
export const hasDecisionHooks = (gnCoding: string) => registry.has(gnCoding.toLowerCase());

/** Runs the node's hooks for a decision, one after another, in the decision's transaction (review.service). */
export async function runDecisionHooks(outcome: 'passed' | 'rejected', e: DecisionEvent): Promise<void> {
  for (const h of registry.get(e.node.gnCoding.toLowerCase()) ?? []) await h[outcome]?.(e);
}
