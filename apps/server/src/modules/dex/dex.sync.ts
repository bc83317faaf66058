import { appToday, type DexRegChange } from '@ks/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { dexRegAudits, dexRegistrations, dexSyncJobs } from '../../db/schema';
import { createDrain } from '../../platform/drain';
import {
  fetchRegistrationPage,
  type RegistrationPage,
  type UpstreamConfig,
} from '../../platform/integrations/upstream';
import { publishEvent } from '../../platform/live';
import { type CheckedRecord, checkRecord, diffOf, type RegValues } from './dex.registration';

/**
 * 监管审核's pull (issue 19): a registration sync is a job in `dex_sync_jobs`, run by one process at a time. The runner
 * of each process takes a queued job — or a running one whose lease ran out (its process died) — with `for update skip
 * locked`, pages through the upstream (`since` the last finished sync's cursor unless the job is full), writing its
 * progress as it goes, and then applies everything it received in ONE transaction with the job's end: a failure
 * anywhere (the upstream, a page of another shape, the database) leaves the registrations as they were and the job
 * failed with the reason. An interrupted job is started again from its first page (nothing of it was written), at most
 * DEX_SYNC_MAX_ATTEMPTS times.
 */
export const DEX_SYNC_MAX_ATTEMPTS = 3;
/** The most records one sync takes (an incremental sync is usually small; a larger full one is refused). */
export const DEX_SYNC_MAX_RECORDS = 200_000;
/** Who the sync's audit rows name as their actor. */
export const SYNC_ACTOR = '同步任务';

export interface DexSyncDeps {
  db: Db;
  upstream: UpstreamConfig | null;
  pageSize?: number;
  leaseMs?: number;
  pollMs?: number;
  /** the platform's time zone (what "today" is for an establishment date) */
  tz?: string;
  /** the page reader (tests may wrap it) */
  fetchPage?: typeof fetchRegistrationPage;
}

export interface PullCounts {
  new: number;
  changed: number;
  unchanged: number;
  rejected: number;
}

const STAFF_AUDIENCE = { roles: ['admin', 'developer'] };

type RegRow = typeof dexRegistrations.$inferSelect;

/** The stored values of a registration as texts (what the upstream's fields compare against). */
export function valuesOfRow(r: RegRow): Partial<RegValues> {
  const out: Partial<RegValues> = {};
  const put = (k: keyof RegValues, v: string | null) => {
    if (v !== null && v !== '') out[k] = v;
  };
  put('name', r.name);
  put('creditCode', r.creditCode);
  put('legalPerson', r.legalPerson);
  put('registeredCapital', r.registeredCapital);
  put('region', r.region);
  put('address', r.address);
  put('establishedAt', r.establishedAt);
  put('entType', r.entType);
  put('regType', r.regType);
  put('regStatus', r.regStatus);
  return out;
}

/** The typed columns of a registration from checked values (a refused record's name and code as received). */
function columnsOf(c: CheckedRecord) {
  const v = c.values ?? c.partial;
  const rawText = (k: string) => {
    const x = c.raw[k];
    return typeof x === 'string' ? x.trim() : typeof x === 'number' ? String(x) : '';
  };
  return {
    name: (v.name ?? rawText('name')).slice(0, 200) || '（未提供企业名称）',
    creditCode: (v.creditCode ?? rawText('creditCode')).slice(0, 64),
    legalPerson: v.legalPerson ?? null,
    registeredCapital: v.registeredCapital ?? null,
    region: v.region ?? null,
    address: v.address ?? null,
    establishedAt: v.establishedAt ?? null,
    entType: v.entType ?? null,
    regType: v.regType ?? null,
    regStatus: v.regStatus ?? null,
  };
}

/**
 * Writes what a pull received into the registrations and the audit log, one audit row per record: new (pending),
 * changed (pending again, with the field diff), unchanged, or rejected (with the reasons; the registration — when the
 * record had an upstream id — shows as 校验未通过). `enterprises` is never touched: that is an administrator's approval.
 * Idempotent: a record already stored with the same values is unchanged, whatever its `updatedAt`; one older than the
 * stored one is not taken (unchanged, with the reason).
 */
export async function applyPull(
  tx: DbOrTx,
  job: { id: string },
  records: unknown[],
  opts: { at: Date; today: string },
): Promise<PullCounts & { cursor: Date | null }> {
  const counts: PullCounts = { new: 0, changed: 0, unchanged: 0, rejected: 0 };
  const checked = records.map((r) => checkRecord(r, opts.today));
  const ids = [...new Set(checked.flatMap((c) => (c.upstreamId ? [c.upstreamId] : [])))];
  const stored = new Map<string, RegRow>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await tx
      .select()
      .from(dexRegistrations)
      .where(inArray(dexRegistrations.upstreamId, ids.slice(i, i + 1000)));
    for (const r of rows) stored.set(r.upstreamId, r);
  }
  let cursor: Date | null = null;
  const audits: (typeof dexRegAudits.$inferInsert)[] = [];
  const audit = (
    c: CheckedRecord,
    registrationId: string | null,
    action: DexRegChange,
    extra: { diff?: unknown; reason?: string | null } = {},
  ) => {
    counts[action] += 1;
    audits.push({
      registrationId,
      jobId: job.id,
      upstreamId: c.upstreamId ?? (typeof c.raw.id === 'string' ? c.raw.id.slice(0, 64) : null),
      action,
      diff: extra.diff ?? [],
      reason: extra.reason ?? null,
      actorName: SYNC_ACTOR,
      createdAt: opts.at,
    });
  };

  for (const c of checked) {
    if (c.updatedAt && (!cursor || c.updatedAt > cursor)) cursor = c.updatedAt;
    const before = c.upstreamId ? stored.get(c.upstreamId) : undefined;
    const reason = c.reasons.join('；');
    if (!c.values) {
      // refused at intake: shown as 校验未通过 with the reasons; a stored registration keeps its last good values
      if (!c.upstreamId) {
        audit(c, null, 'rejected', { reason });
        continue;
      }
      const common = {
        raw: c.raw,
        state: 'invalid',
        lastChange: 'rejected',
        reason,
        diff: [],
        lastJobId: job.id,
        upstreamUpdatedAt: c.updatedAt ?? before?.upstreamUpdatedAt ?? null,
        updatedAt: opts.at,
      };
      let row: RegRow;
      if (before) {
        [row] = (await tx
          .update(dexRegistrations)
          .set({ ...common, version: before.version + 1 })
          .where(eq(dexRegistrations.id, before.id))
          .returning()) as [RegRow];
      } else {
        [row] = (await tx
          .insert(dexRegistrations)
          .values({ upstreamId: c.upstreamId, ...columnsOf(c), ...common, createdAt: opts.at })
          .returning()) as [RegRow];
      }
      stored.set(c.upstreamId, row);
      audit(c, row.id, 'rejected', { reason });
      continue;
    }
    const upstreamId = c.upstreamId!;
    const values = c.values;
    if (!before) {
      const [row] = (await tx
        .insert(dexRegistrations)
        .values({
          upstreamId,
          ...columnsOf(c),
          upstreamUpdatedAt: c.updatedAt,
          raw: c.raw,
          state: 'pending',
          lastChange: 'new',
          diff: [],
          lastJobId: job.id,
          createdAt: opts.at,
          updatedAt: opts.at,
        })
        .returning()) as [RegRow];
      stored.set(upstreamId, row);
      audit(c, row.id, 'new', { diff: diffOf({}, values) });
      continue;
    }
    if (before.upstreamUpdatedAt && c.updatedAt && c.updatedAt < before.upstreamUpdatedAt) {
      audit(c, before.id, 'unchanged', { reason: '上游记录早于已同步的版本，未采用' });
      continue;
    }
    const diff = diffOf(valuesOfRow(before), values);
    if (before.state !== 'invalid' && diff.length === 0) {
      await tx
        .update(dexRegistrations)
        .set({
          upstreamUpdatedAt: c.updatedAt,
          raw: c.raw,
          lastChange: 'unchanged',
          lastJobId: job.id,
          updatedAt: opts.at,
        })
        .where(eq(dexRegistrations.id, before.id));
      audit(c, before.id, 'unchanged');
      continue;
    }
    // changed (or right again after a refusal): the new values wait for an administrator's review again
    const [row] = (await tx
      .update(dexRegistrations)
      .set({
        ...columnsOf(c),
        upstreamUpdatedAt: c.updatedAt,
        raw: c.raw,
        state: 'pending',
        lastChange: 'changed',
        reason: null,
        diff,
        lastJobId: job.id,
        decidedById: null,
        decidedByName: null,
        decidedAt: null,
        version: before.version + 1,
        updatedAt: opts.at,
      })
      .where(eq(dexRegistrations.id, before.id))
      .returning()) as [RegRow];
    stored.set(upstreamId, row);
    audit(c, row.id, 'changed', { diff });
  }
  for (let i = 0; i < audits.length; i += 1000) await tx.insert(dexRegAudits).values(audits.slice(i, i + 1000));
  return { ...counts, cursor };
}

/**
 * A finished sync of records already in hand (the demo seed's history): its job, the records applied as a pull applies
 * them, at `at`.
 */
export async function recordPull(
  tx: DbOrTx,
  who: { userId: string | null; userName: string },
  records: unknown[],
  opts: { at: Date; today: string; full: boolean; since: Date | null },
): Promise<PullCounts> {
  const [job] = await tx
    .insert(dexSyncJobs)
    .values({
      status: 'running',
      full: opts.full,
      since: opts.since,
      pages: 1,
      fetched: records.length,
      total: records.length,
      startedById: who.userId,
      startedByName: who.userName,
      createdAt: opts.at,
      startedAt: opts.at,
      attempts: 1,
    })
    .returning({ id: dexSyncJobs.id });
  const r = await applyPull(tx, job!, records, opts);
  await tx
    .update(dexSyncJobs)
    .set({
      status: 'done',
      newCount: r.new,
      changedCount: r.changed,
      unchangedCount: r.unchanged,
      rejectedCount: r.rejected,
      cursor: r.cursor ?? opts.since,
      finishedAt: new Date(opts.at.getTime() + 2_000),
    })
    .where(eq(dexSyncJobs.id, job!.id));
  return r;
}

export function createDexSyncRunner(deps: DexSyncDeps) {
  const { db } = deps;
  const leaseMs = deps.leaseMs ?? Math.max(30_000, (deps.upstream?.timeoutMs ?? 10_000) * 3);
  const pageSize = deps.pageSize ?? 100;
  const fetchPage = deps.fetchPage ?? fetchRegistrationPage;
  // set by stop(): a sync between pages gives its job up (its lease runs out and a later run takes it over)
  let stopped = false;

  const lease = () => sql`now() + make_interval(secs => ${leaseMs / 1000})`;
  const announce = (q: DbOrTx, jobId: string) => publishEvent(q, STAFF_AUDIENCE, 'dex', { jobId });

  async function claim() {
    const rows = await db.execute(sql`
      update ${dexSyncJobs} set status = 'running', attempts = attempts + 1, lease_until = ${lease()},
        started_at = coalesce(started_at, now()), phase = 'fetching', pages = 0, fetched = 0, total = null
      where id = (
        select id from ${dexSyncJobs}
        where status = 'queued' or (status = 'running' and lease_until < now())
        order by created_at
        for update skip locked
        limit 1
      )
      returning id`);
    const id = (rows as unknown as { rows: { id: string }[] }).rows[0]?.id;
    if (!id) return null;
    const [row] = await db.select().from(dexSyncJobs).where(eq(dexSyncJobs.id, id));
    return row ?? null;
  }

  const ours = (id: string, attempt: number) =>
    and(eq(dexSyncJobs.id, id), eq(dexSyncJobs.status, 'running'), eq(dexSyncJobs.attempts, attempt));

  async function fail(job: { id: string; attempts: number }, error: string) {
    await db
      .update(dexSyncJobs)
      .set({ status: 'failed', error: error.slice(0, 1000), finishedAt: new Date(), leaseUntil: null, phase: null })
      .where(ours(job.id, job.attempts));
    await announce(db, job.id).catch(() => undefined);
  }

  async function runOne(cfg: UpstreamConfig): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    if (job.attempts > DEX_SYNC_MAX_ATTEMPTS) {
      await fail(job, `同步进程中断 ${job.attempts - 1} 次，已停止，请重新同步`);
      return true;
    }
    await announce(db, job.id).catch(() => undefined);
    const since = job.full ? null : (job.since?.toISOString() ?? null);
    const records: unknown[] = [];
    let cursor: string | null = null;
    let pages = 0;
    try {
      for (;;) {
        let page: RegistrationPage;
        try {
          page = await fetchPage(cfg, { since, cursor, pageSize });
        } catch (e) {
          throw new Error(`拉取第 ${pages + 1} 页时失败：${(e as Error).message}`);
        }
        pages += 1;
        records.push(...page.records);
        if (records.length > DEX_SYNC_MAX_RECORDS) {
          throw new Error(`上游数据超过单次同步上限 ${DEX_SYNC_MAX_RECORDS} 条，请改用增量同步`);
        }
        const moved = await db
          .update(dexSyncJobs)
          .set({ pages, fetched: records.length, total: page.total, leaseUntil: lease() })
          .where(ours(job.id, job.attempts))
          .returning({ id: dexSyncJobs.id });
        if (!moved.length || stopped) return true; // no longer ours (its lease ran out and another process took it)
        await announce(db, job.id).catch(() => undefined);
        if (!page.nextCursor || page.records.length === 0) break;
        if (page.nextCursor === cursor) throw new Error(`上级平台的分页游标没有前进（第 ${pages} 页）`);
        cursor = page.nextCursor;
      }
      await db.update(dexSyncJobs).set({ phase: 'applying', leaseUntil: lease() }).where(ours(job.id, job.attempts));
      await announce(db, job.id).catch(() => undefined);
      await db.transaction(async (tx) => {
        const at = new Date();
        const r = await applyPull(tx, job, records, { at, today: appToday(at, deps.tz) });
        const done = await tx
          .update(dexSyncJobs)
          .set({
            status: 'done',
            phase: null,
            newCount: r.new,
            changedCount: r.changed,
            unchangedCount: r.unchanged,
            rejectedCount: r.rejected,
            // nothing received: the next incremental sync asks from the same point
            cursor: r.cursor ?? job.since,
            error: null,
            finishedAt: at,
            leaseUntil: null,
          })
          .where(ours(job.id, job.attempts))
          .returning({ id: dexSyncJobs.id });
        // another process holds the job now: this one's writes are undone
        if (!done.length) throw new LostLease();
        await announce(tx, job.id);
      });
    } catch (e) {
      if (!(e instanceof LostLease)) await fail(job, (e as Error).message || '同步失败').catch(() => undefined);
    }
    return true;
  }

  const cfg = deps.upstream;
  const drain = createDrain('dex sync', () => (cfg ? runOne(cfg) : Promise.resolve(false)), {
    pollMs: deps.pollMs,
    enabled: cfg !== null,
  });

  return {
    configured: cfg !== null,
    kick: drain.kick,
    start: drain.start,
    /** Wait for the current work (tests). */
    settle: drain.settle,
    async stop() {
      stopped = true;
      await drain.stop();
    },
  };
}

class LostLease extends Error {}

export type DexSyncRunner = ReturnType<typeof createDexSyncRunner>;
