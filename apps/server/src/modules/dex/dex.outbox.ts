import { and, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { dexOutbox, dexPushAttempts } from '../../db/schema';
import { createDrain } from '../../platform/drain';
import { type PushResult, pushToUpstream, type UpstreamConfig } from '../../platform/integrations/upstream';

/**
 * 交易推送 (issue 19): the outbox of published transaction data for the upstream platform. The publishing code calls
 * `enqueuePush` inside its own transaction, so a notice is queued exactly when it is published; one row per business key
 * (a second enqueue of the same key is a no-op). A runner per process takes due rows with `for update skip locked`,
 * sends them signed, logs every attempt, and either marks them sent, schedules the next attempt (back-off
 * `baseMs · 2^(attempt-1)`, at most `maxBackoffMs`) or, after `maxAttempts`, marks them failed.
 */
export type DexKind = 'notice' | 'result';

export const DEX_MAX_ATTEMPTS = 5;

export async function enqueuePush(
  tx: DbOrTx,
  item: { businessKey: string; kind: DexKind; title: string; payload: Record<string, unknown> },
): Promise<void> {
  await tx
    .insert(dexOutbox)
    .values({ businessKey: item.businessKey, kind: item.kind, title: item.title.slice(0, 500), payload: item.payload })
    .onConflictDoNothing({ target: dexOutbox.businessKey });
}

export interface DexRunnerDeps {
  db: Db;
  /** null: not configured — pushes stay queued */
  upstream: UpstreamConfig | null;
  maxAttempts?: number;
  /** first back-off (ms); doubles with each failed attempt */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** how long a taken row is this runner's (ms) */
  leaseMs?: number;
  pollMs?: number;
  /** the sender (tests may wrap it) */
  send?: (cfg: UpstreamConfig, key: string, payload: unknown) => Promise<PushResult>;
}

export const backoffOf = (attempt: number, baseMs: number, maxMs: number) =>
  Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));

export function createDexRunner(deps: DexRunnerDeps) {
  const { db } = deps;
  const maxAttempts = deps.maxAttempts ?? DEX_MAX_ATTEMPTS;
  const baseMs = deps.backoffMs ?? 10_000;
  const maxBackoffMs = deps.maxBackoffMs ?? 3_600_000;
  const leaseMs = deps.leaseMs ?? Math.max(30_000, (deps.upstream?.timeoutMs ?? 10_000) * 3);
  const send = deps.send ?? pushToUpstream;

  /** Takes the oldest due row (queued and due, or sending with its lease run out); null when none. */
  async function claim() {
    const rows = await db.execute(sql`
      update ${dexOutbox} set status = 'sending', attempts = attempts + 1,
        lease_until = now() + make_interval(secs => ${leaseMs / 1000}), updated_at = now()
      where id = (
        select id from ${dexOutbox}
        where (status = 'queued' and next_attempt_at <= now()) or (status = 'sending' and lease_until < now())
        order by next_attempt_at
        for update skip locked
        limit 1
      )
      returning id`);
    const id = (rows as unknown as { rows: { id: string }[] }).rows[0]?.id;
    if (!id) return null;
    const [row] = await db.select().from(dexOutbox).where(eq(dexOutbox.id, id));
    return row ?? null;
  }

  const ours = (id: string, attempt: number) =>
    and(eq(dexOutbox.id, id), eq(dexOutbox.status, 'sending'), eq(dexOutbox.attempts, attempt));

  async function runOne(cfg: UpstreamConfig): Promise<boolean> {
    const row = await claim();
    if (!row) return false;
    const startedAt = new Date();
    const r = await send(cfg, row.businessKey, { businessKey: row.businessKey, kind: row.kind, data: row.payload });
    await db.transaction(async (tx) => {
      const last = row.attempts >= maxAttempts;
      const next = new Date(Date.now() + backoffOf(row.attempts, baseMs, maxBackoffMs));
      const done = await tx
        .update(dexOutbox)
        .set(
          r.ok
            ? {
                status: 'sent',
                sentAt: new Date(),
                leaseUntil: null,
                lastStatus: r.status,
                lastError: null,
                updatedAt: new Date(),
              }
            : {
                status: last ? 'failed' : 'queued',
                nextAttemptAt: next,
                leaseUntil: null,
                lastStatus: r.status,
                lastError: r.error,
                updatedAt: new Date(),
              },
        )
        .where(ours(row.id, row.attempts))
        .returning({ id: dexOutbox.id });
      // the attempt is logged whether or not this runner still held the row (its lease may have run out meanwhile)
      await tx.insert(dexPushAttempts).values({
        outboxId: row.id,
        attempt: row.attempts,
        startedAt,
        httpStatus: r.status,
        durationMs: r.durationMs,
        ok: r.ok,
        error: done.length ? r.error : (r.error ?? '租约已过期，结果未采用'),
      });
    });
    return true;
  }

  const cfg = deps.upstream;
  // nothing runs without an upstream to push to
  const drain = createDrain('dex push', () => runOne(cfg!), { pollMs: deps.pollMs, enabled: cfg !== null });
  return { configured: cfg !== null, ...drain };
}

export type DexRunner = ReturnType<typeof createDexRunner>;
