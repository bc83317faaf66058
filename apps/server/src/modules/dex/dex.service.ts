import { DEX_MSG, type DexPushDetail, type DexPushPage, type DexPushQuery, type DexPushRow } from '@ks/contracts';
import { and, asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { dexOutbox, dexPushAttempts } from '../../db/schema';
import { conflict, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { DEX_MAX_ATTEMPTS } from './dex.outbox';

export const GL_NAME = '数据交换';

export interface DexDeps {
  db: Db;
  configured: boolean;
  maxAttempts?: number;
  /** wake this process's runner */
  kick: () => void;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function rowOf(r: typeof dexOutbox.$inferSelect): DexPushRow {
  return {
    id: r.id,
    businessKey: r.businessKey,
    kind: r.kind as DexPushRow['kind'],
    title: r.title,
    status: r.status as DexPushRow['status'],
    attempts: r.attempts,
    lastStatus: r.lastStatus,
    lastError: r.lastError,
    nextAttemptAt: r.status === 'queued' ? iso(r.nextAttemptAt) : null,
    sentAt: iso(r.sentAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function listPushes(deps: DexDeps, q: DexPushQuery): Promise<DexPushPage> {
  const where: SQL[] = [];
  if (q.status) where.push(eq(dexOutbox.status, q.status));
  if (q.kind) where.push(eq(dexOutbox.kind, q.kind));
  if (q.keyword) {
    const k = or(ilike(dexOutbox.title, like(q.keyword)), ilike(dexOutbox.businessKey, like(q.keyword)));
    if (k) where.push(k);
  }
  const w = where.length ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    deps.db
      .select()
      .from(dexOutbox)
      .where(w)
      .orderBy(desc(dexOutbox.createdAt), desc(dexOutbox.id))
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize),
    deps.db.select({ n: count() }).from(dexOutbox).where(w),
  ]);
  return {
    records: rows.map(rowOf),
    total: Number(total?.n ?? 0),
    configured: deps.configured,
    maxAttempts: deps.maxAttempts ?? DEX_MAX_ATTEMPTS,
  };
}

export async function pushDetail(deps: DexDeps, id: string): Promise<DexPushDetail> {
  const [r] = await deps.db.select().from(dexOutbox).where(eq(dexOutbox.id, id));
  if (!r) throw notFound(DEX_MSG.pushMissing);
  const attempts = await deps.db
    .select()
    .from(dexPushAttempts)
    .where(eq(dexPushAttempts.outboxId, id))
    .orderBy(asc(dexPushAttempts.startedAt), asc(dexPushAttempts.attempt));
  return {
    push: rowOf(r),
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      startedAt: a.startedAt.toISOString(),
      httpStatus: a.httpStatus,
      durationMs: a.durationMs,
      ok: a.ok,
      error: a.error,
    })),
  };
}

/** An administrator sends a failed push again: back to the queue, due now, with a fresh count of attempts. */
export async function resendPush(deps: DexDeps, actor: Actor, id: string): Promise<DexPushDetail> {
  await deps.db.transaction(async (tx) => {
    const [r] = await tx.select().from(dexOutbox).where(eq(dexOutbox.id, id));
    if (!r) throw notFound(DEX_MSG.pushMissing);
    const done = await tx
      .update(dexOutbox)
      .set({ status: 'queued', attempts: 0, nextAttemptAt: new Date(), leaseUntil: null, updatedAt: new Date() })
      .where(and(eq(dexOutbox.id, id), eq(dexOutbox.status, 'failed')))
      .returning({ id: dexOutbox.id });
    if (!done.length) throw conflict(DEX_MSG.notFailed);
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      recordId: id,
      logbook: `重新推送《${r.title}》（业务键 ${r.businessKey}）`,
    });
  });
  deps.kick();
  return pushDetail(deps, id);
}
