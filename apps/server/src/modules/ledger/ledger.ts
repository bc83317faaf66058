import { asc, desc, eq, gt, lt } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { ledgerAnchors, ledgerEntries, ledgerHead } from '../../db/schema';
import { sha256Hex } from '../../platform/crypto';
import type { Actor } from '../../platform/oplog';

/**
 * The tamper-evident log of opening and evaluation (issue 17, "Integrity"): one append-only chain for the platform.
 * Each entry is numbered (1, 2, 3 … no gap), carries the SHA-256 of the entry before it and its own SHA-256 over its
 * number, that previous hash, its time, kind, section, actor and payload (canonical JSON). An entry is appended in the
 * transaction of the change it records — the head row's lock numbers entries in commit order, and a change that rolls
 * back takes its entry with it. The database refuses UPDATE, DELETE and TRUNCATE of entries; whoever gets past that
 * (a superuser, a restored backup) is found by `verifyLedger`, which names the first entry that no longer fits, and a
 * chain rewritten from some entry on no longer ends in the daily anchors published on the portal.
 */

/** The previous hash of the first entry. */
export const GENESIS = '0'.repeat(64);

/** JSON with object keys sorted at every level, no spaces: the same data always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`ledger payload: ${value} is not a finite number`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
      const o = value as Record<string, unknown>;
      const keys = Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
    }
    default:
      throw new Error(`ledger payload: a ${typeof value} cannot be logged`);
  }
}

export interface EntryFields {
  seq: number;
  prevHash: string;
  at: Date;
  kind: string;
  sectionId: string | null;
  actorId: string | null;
  actorName: string;
  /** canonical JSON */
  payload: string;
}

/** The hash of an entry: SHA-256 over its fields, one per line, in this order. */
export function entryHash(e: EntryFields): string {
  return sha256Hex(
    [
      String(e.seq),
      e.prevHash,
      e.at.toISOString(),
      e.kind,
      e.sectionId ?? '',
      e.actorId ?? '',
      e.actorName,
      e.payload,
    ].join('\n'),
  );
}

/** The actor of an event as the log names it. */
export const ledgerActor = (a: Actor) => ({ id: a.userId, name: a.userName });

export interface LedgerEvent {
  /** what happened, e.g. opening.started, bid.decrypted, score.submitted */
  kind: string;
  sectionId?: string | null;
  actor: { id: string | null; name: string };
  payload: Record<string, unknown>;
  at: Date;
}

/**
 * Appends an event in `tx` (the transaction of the change it records): takes the head's lock, numbers the entry after
 * it, links and hashes it. Answers its number and hash.
 */
export async function appendEvent(tx: Tx, e: LedgerEvent): Promise<{ seq: number; hash: string }> {
  const [head] = await tx.select().from(ledgerHead).where(eq(ledgerHead.id, 1)).for('update');
  if (!head) throw new Error('ledger head missing (migration 0036 not applied)');
  const fields: EntryFields = {
    seq: Number(head.seq) + 1,
    prevHash: head.hash,
    // whole milliseconds: what the database keeps of a Date and gives back
    at: new Date(Math.floor(e.at.getTime())),
    kind: e.kind,
    sectionId: e.sectionId ?? null,
    actorId: e.actor.id,
    actorName: e.actor.name.slice(0, 64),
    payload: canonicalJson(e.payload),
  };
  const hash = entryHash(fields);
  await tx.insert(ledgerEntries).values({ ...fields, hash });
  await tx.update(ledgerHead).set({ seq: fields.seq, hash }).where(eq(ledgerHead.id, 1));
  return { seq: fields.seq, hash };
}

export type BreakReason = 'missing' | 'prev' | 'hash' | 'head' | 'anchor';

export interface LedgerVerification {
  intact: boolean;
  /** entries checked (up to the first break) */
  checked: number;
  headSeq: number;
  headHash: string;
  anchors: number;
  broken: { seq: number; reason: BreakReason; message: string } | null;
}

const MESSAGES: Record<BreakReason, (seq: number, extra?: string) => string> = {
  missing: (seq) => `第 ${seq} 条记录缺失（记录被删除）`,
  prev: (seq) => `第 ${seq} 条记录的前序哈希与第 ${seq - 1} 条记录不符（记录被删除、插入或改写）`,
  hash: (seq) => `第 ${seq} 条记录的内容与其哈希不符（记录被修改）`,
  head: (seq) => `日志头（第 ${seq} 条）与日志末尾不符`,
  anchor: (seq, day) => `${day} 公布的锚点（第 ${seq} 条）与日志不符（日志被整体改写）`,
};
const broken = (seq: number, reason: BreakReason, extra?: string) => ({
  seq,
  reason,
  message: MESSAGES[reason](seq, extra),
});

/**
 * Walks the chain from the first entry in batches, recomputing every hash; then checks the head and every published
 * anchor against it. Answers the first entry that no longer fits, with why.
 */
export async function verifyLedger(db: DbOrTx, batch = 2000): Promise<LedgerVerification> {
  const [head] = await db.select().from(ledgerHead).where(eq(ledgerHead.id, 1));
  const anchors = await db.select().from(ledgerAnchors).orderBy(asc(ledgerAnchors.seq));
  const out = (checked: number, b: LedgerVerification['broken']): LedgerVerification => ({
    intact: b === null,
    checked,
    headSeq: Number(head?.seq ?? 0),
    headHash: head?.hash ?? GENESIS,
    anchors: anchors.length,
    broken: b,
  });
  const anchorAt = new Map(anchors.map((a) => [Number(a.seq), a]));
  let expected = 1;
  let prev = GENESIS;
  for (;;) {
    const rows = await db
      .select()
      .from(ledgerEntries)
      .where(gt(ledgerEntries.seq, expected - 1))
      .orderBy(asc(ledgerEntries.seq))
      .limit(batch);
    for (const r of rows) {
      const seq = Number(r.seq);
      if (seq !== expected) return out(expected - 1, broken(expected, 'missing'));
      if (r.prevHash !== prev) return out(expected - 1, broken(seq, 'prev'));
      if (entryHash({ ...r, seq }) !== r.hash) return out(expected - 1, broken(seq, 'hash'));
      const a = anchorAt.get(seq);
      if (a && a.hash !== r.hash) return out(expected - 1, broken(seq, 'anchor', a.day));
      prev = r.hash;
      expected++;
    }
    if (rows.length < batch) break;
  }
  const last = expected - 1;
  // an anchor past the end: entries were cut off the end
  const beyond = anchors.find((a) => Number(a.seq) > last);
  if (beyond) return out(last, broken(last + 1, 'missing'));
  if (Number(head?.seq ?? 0) !== last || (head?.hash ?? GENESIS) !== prev) return out(last, broken(last, 'head'));
  return out(last, null);
}

/**
 * Publishes the anchor of `day` (the centre's calendar date): the last entry made before `dayEnd`, or the genesis when
 * there is none. Idempotent: an anchor once published stays (several processes may try).
 */
export async function anchorDay(db: Db, day: string, dayEnd: Date, now: Date) {
  const [last] = await db
    .select({ seq: ledgerEntries.seq, hash: ledgerEntries.hash })
    .from(ledgerEntries)
    .where(lt(ledgerEntries.at, dayEnd))
    .orderBy(desc(ledgerEntries.seq))
    .limit(1);
  await db
    .insert(ledgerAnchors)
    .values({ day, seq: Number(last?.seq ?? 0), hash: last?.hash ?? GENESIS, publishedAt: now })
    .onConflictDoNothing();
  const [a] = await db.select().from(ledgerAnchors).where(eq(ledgerAnchors.day, day));
  return a!;
}

/** Published anchors, newest first. */
export async function anchors(db: Db, limit: number) {
  return db.select().from(ledgerAnchors).orderBy(desc(ledgerAnchors.day)).limit(limit);
}

/** A section's entries, in order (the opening record and the supervisor's view read them). */
export async function sectionEntries(db: Db, sectionId: string) {
  return db.select().from(ledgerEntries).where(eq(ledgerEntries.sectionId, sectionId)).orderBy(asc(ledgerEntries.seq));
}
