import {
  DEX_CLOSED_STATUSES,
  DEX_MSG,
  type DexAuditRow,
  type DexDiffItem,
  type DexRegDetail,
  type DexRegPage,
  type DexRegQuery,
  type DexRegRow,
  type DexRegStatus,
  type DexSyncJob,
  type DexSyncState,
} from '@ks/contracts';
import { and, asc, count, desc, eq, ilike, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { dexRegAudits, dexRegistrations, dexSyncJobs, enterprises } from '../../db/schema';
import { isUniqueViolation, likePattern } from '../../db/sql';
import { conflict, notFound } from '../../platform/errors';
import { publishEvent } from '../../platform/live';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { diffOf, diffText, type RegValues } from './dex.registration';
import { GL_NAME } from './dex.service';
import { valuesOfRow } from './dex.sync';

/**
 * 监管审核 (issue 19): the registrations pulled from the upstream, their audit log, the administrators' decisions and
 * the start of a sync. A decision is a conditional update on the registration's state and version (two administrators
 * never both decide one; a sync that changed it meanwhile makes the decision a 409), in one transaction with what it
 * writes into `enterprises`, its audit row and its operation-log row.
 */
export interface DexPullDeps {
  db: Db;
  configured: boolean;
  /** wake this process's sync runner */
  kick: () => void;
  tz: string;
  now?: () => Date;
}

type RegRow = typeof dexRegistrations.$inferSelect;
type JobRow = typeof dexSyncJobs.$inferSelect;
type Caller = { loginRoleType: string };

const STAFF_AUDIENCE = { roles: ['admin', 'developer'] };
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function rowOf(r: RegRow, caller: Caller): DexRegRow {
  return {
    id: r.id,
    upstreamId: r.upstreamId,
    name: r.name,
    creditCode: r.creditCode,
    legalPerson: r.legalPerson,
    registeredCapital: r.registeredCapital,
    region: r.region,
    address: r.address,
    establishedAt: r.establishedAt,
    entType: r.entType,
    regType: r.regType,
    regStatus: r.regStatus,
    upstreamUpdatedAt: iso(r.upstreamUpdatedAt),
    state: r.state as DexRegRow['state'],
    change: r.lastChange as DexRegRow['change'],
    reason: r.reason,
    enterpriseId: r.enterpriseId,
    version: r.version,
    pulledAt: r.updatedAt.toISOString(),
    decidedAt: iso(r.decidedAt),
    decidedBy: r.decidedByName,
    canDecide: caller.loginRoleType === 'M' && r.state === 'pending',
  };
}

export function jobOf(j: JobRow): DexSyncJob {
  return {
    id: j.id,
    status: j.status as DexSyncJob['status'],
    full: j.full,
    phase: (j.phase as DexSyncJob['phase']) ?? null,
    pages: j.pages,
    fetched: j.fetched,
    total: j.total,
    counts: { new: j.newCount, changed: j.changedCount, unchanged: j.unchangedCount, rejected: j.rejectedCount },
    error: j.error,
    since: iso(j.since),
    startedByName: j.startedByName,
    createdAt: j.createdAt.toISOString(),
    startedAt: iso(j.startedAt),
    finishedAt: iso(j.finishedAt),
  };
}

const SORTS = {
  upstreamUpdatedAt: dexRegistrations.upstreamUpdatedAt,
  name: dexRegistrations.name,
  pulledAt: dexRegistrations.updatedAt,
} as const;

export async function listRegistrations(deps: DexPullDeps, caller: Caller, q: DexRegQuery): Promise<DexRegPage> {
  const where: SQL[] = [];
  if (q.state) where.push(eq(dexRegistrations.state, q.state));
  if (q.change) where.push(eq(dexRegistrations.lastChange, q.change));
  if (q.regStatus) where.push(eq(dexRegistrations.regStatus, q.regStatus));
  if (q.keyword) {
    const p = likePattern(q.keyword);
    where.push(
      or(
        ilike(dexRegistrations.name, p),
        ilike(dexRegistrations.creditCode, p),
        ilike(dexRegistrations.upstreamId, p),
      )!,
    );
  }
  // the period is of days on the platform's calendar
  if (q.startDate) {
    where.push(sql`${dexRegistrations.upstreamUpdatedAt} >= (${q.startDate}::date)::timestamp at time zone ${deps.tz}`);
  }
  if (q.endDate) {
    where.push(
      sql`${dexRegistrations.upstreamUpdatedAt} < (${q.endDate}::date + 1)::timestamp at time zone ${deps.tz}`,
    );
  }
  const w = where.length ? and(...where) : undefined;
  const col = SORTS[q.sortField ?? 'pulledAt'];
  const dir = q.order === 'asc' ? asc : desc;
  const order =
    col === dexRegistrations.upstreamUpdatedAt
      ? [sql`${col} ${q.order === 'asc' ? sql`asc` : sql`desc`} nulls last`, dir(dexRegistrations.id)]
      : [dir(col), dir(dexRegistrations.id)];
  const [rows, [total]] = await Promise.all([
    deps.db
      .select()
      .from(dexRegistrations)
      .where(w)
      .orderBy(...order)
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize),
    deps.db.select({ n: count() }).from(dexRegistrations).where(w),
  ]);
  return { records: rows.map((r) => rowOf(r, caller)), total: Number(total?.n ?? 0), configured: deps.configured };
}

type EnterpriseRow = typeof enterprises.$inferSelect;
/** The fields 通过 writes into an enterprise (its type only when it creates one). */
const APPLIED = [
  'name',
  'creditCode',
  'legalPerson',
  'registeredCapital',
  'region',
  'address',
  'establishedAt',
] as const;

const enterpriseValues = (e: EnterpriseRow): Record<string, string | null> => ({
  name: e.name,
  creditCode: e.creditCode,
  legalPerson: e.legalPerson,
  registeredCapital: e.registeredCapital,
  region: e.region,
  address: e.address,
  establishedAt: e.establishedAt,
  enterpriseType: e.enterpriseType,
});

/** The local enterprise a registration concerns: the one it was applied to, else the one with its credit code. */
async function localOf(q: DbOrTx, r: RegRow, lock = false): Promise<EnterpriseRow | undefined> {
  const by = r.enterpriseId ? eq(enterprises.id, r.enterpriseId) : eq(enterprises.creditCode, r.creditCode);
  const base = q.select().from(enterprises).where(by).limit(1);
  const [e] = lock ? await base.for('update') : await base;
  return e;
}

/** What approving writes: the changed fields of an existing enterprise, or every field (and the type) of a new one. */
function localDiffOf(r: RegRow, e: EnterpriseRow | undefined): DexDiffItem[] {
  const v = { ...valuesOfRow(r), enterpriseType: r.entType ?? undefined } as Partial<RegValues> & {
    enterpriseType?: string;
  };
  if (!e) return diffOf({}, v, [...APPLIED, 'enterpriseType']);
  return diffOf(enterpriseValues(e), v, APPLIED);
}

const auditOf = (a: typeof dexRegAudits.$inferSelect): DexAuditRow => ({
  id: a.id,
  action: a.action as DexAuditRow['action'],
  diff: (a.diff as DexDiffItem[]) ?? [],
  reason: a.reason,
  actorName: a.actorName,
  jobId: a.jobId,
  at: a.createdAt.toISOString(),
});

export async function registrationDetail(deps: DexPullDeps, caller: Caller, id: string): Promise<DexRegDetail> {
  const [r] = await deps.db.select().from(dexRegistrations).where(eq(dexRegistrations.id, id));
  if (!r) throw notFound(DEX_MSG.regMissing);
  const [local, history] = await Promise.all([
    localOf(deps.db, r),
    deps.db
      .select()
      .from(dexRegAudits)
      .where(eq(dexRegAudits.registrationId, id))
      .orderBy(desc(dexRegAudits.createdAt), desc(dexRegAudits.id))
      .limit(200),
  ]);
  return {
    registration: rowOf(r, caller),
    diff: (r.diff as DexDiffItem[]) ?? [],
    local: local ? { id: local.id, name: local.name, creditCode: local.creditCode } : null,
    localDiff: r.state === 'invalid' ? [] : localDiffOf(r, local),
    history: history.map(auditOf),
    raw: (r.raw as Record<string, unknown>) ?? {},
  };
}

/** The registration, locked, if it still waits in the version the administrator saw. */
async function pendingOf(tx: DbOrTx, id: string, version: number): Promise<RegRow> {
  const [r] = await tx.select().from(dexRegistrations).where(eq(dexRegistrations.id, id)).for('update');
  if (!r) throw notFound(DEX_MSG.regMissing);
  if (r.state !== 'pending' || r.version !== version) throw conflict(DEX_MSG.regDecided);
  return r;
}

/**
 * 通过: the registration's values go into the enterprise library — a new enterprise (never one in 注销 / 吊销), or the
 * changed fields of the one it concerns — with an audit row naming what changed and an operation-log row.
 */
export async function approveRegistration(
  deps: DexPullDeps,
  actor: Actor,
  body: { id: string; version: number },
): Promise<DexRegRow> {
  const at = deps.now?.() ?? new Date();
  const row = await deps.db.transaction(async (tx) => {
    const r = await pendingOf(tx, body.id, body.version);
    const local = await localOf(tx, r, true);
    const diff = localDiffOf(r, local);
    let enterpriseId: string;
    let what: string;
    try {
      if (!local) {
        if ((DEX_CLOSED_STATUSES as readonly (string | null)[]).includes(r.regStatus as DexRegStatus)) {
          throw conflict(DEX_MSG.closedNotCreated);
        }
        const [e] = await tx
          .insert(enterprises)
          .values({
            name: r.name,
            creditCode: r.creditCode,
            enterpriseType: r.entType ?? '施工企业',
            legalPerson: r.legalPerson,
            region: r.region,
            address: r.address,
            registeredCapital: r.registeredCapital,
            establishedAt: r.establishedAt,
            createdAt: at,
            updatedAt: at,
          })
          .returning({ id: enterprises.id });
        enterpriseId = e!.id;
        what = '新建企业';
      } else {
        enterpriseId = local.id;
        if (diff.length) {
          const set: Partial<typeof enterprises.$inferInsert> = { updatedAt: at };
          for (const d of diff) (set as Record<string, string | null>)[d.field] = d.after;
          await tx.update(enterprises).set(set).where(eq(enterprises.id, local.id));
          what = `更新企业信息（${diffText(diff)}）`;
        } else {
          what = '与企业库一致，无需修改';
        }
      }
    } catch (e) {
      if (isUniqueViolation(e, 'enterprises_credit_code_uq')) throw conflict(DEX_MSG.creditCodeTaken);
      throw e;
    }
    const [updated] = await tx
      .update(dexRegistrations)
      .set({
        state: 'approved',
        reason: null,
        enterpriseId,
        decidedById: actor.userId,
        decidedByName: actor.userName,
        decidedAt: at,
        version: r.version + 1,
        updatedAt: at,
      })
      .where(and(eq(dexRegistrations.id, r.id), eq(dexRegistrations.version, r.version)))
      .returning();
    await tx.insert(dexRegAudits).values({
      registrationId: r.id,
      upstreamId: r.upstreamId,
      action: 'approved',
      diff,
      actorId: actor.userId,
      actorName: actor.userName,
      createdAt: at,
    });
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      recordId: r.id,
      logbook: `监管审核通过「${r.name}」（${r.creditCode}，上游编号 ${r.upstreamId}）：${what}`,
    });
    await publishEvent(tx, STAFF_AUDIENCE, 'dex', { id: r.id });
    return updated!;
  });
  return rowOf(row, actor);
}

/** 驳回 with the reason: the enterprise library stays as it is. */
export async function rejectRegistration(
  deps: DexPullDeps,
  actor: Actor,
  body: { id: string; version: number; reason: string },
): Promise<DexRegRow> {
  const at = deps.now?.() ?? new Date();
  const row = await deps.db.transaction(async (tx) => {
    const r = await pendingOf(tx, body.id, body.version);
    const [updated] = await tx
      .update(dexRegistrations)
      .set({
        state: 'dismissed',
        reason: body.reason,
        decidedById: actor.userId,
        decidedByName: actor.userName,
        decidedAt: at,
        version: r.version + 1,
        updatedAt: at,
      })
      .where(and(eq(dexRegistrations.id, r.id), eq(dexRegistrations.version, r.version)))
      .returning();
    await tx.insert(dexRegAudits).values({
      registrationId: r.id,
      upstreamId: r.upstreamId,
      action: 'dismissed',
      reason: body.reason,
      actorId: actor.userId,
      actorName: actor.userName,
      createdAt: at,
    });
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      recordId: r.id,
      logbook: `监管审核驳回「${r.name}」（${r.creditCode}，上游编号 ${r.upstreamId}），原因：${body.reason}`,
    });
    await publishEvent(tx, STAFF_AUDIENCE, 'dex', { id: r.id });
    return updated!;
  });
  return rowOf(row, actor);
}

export async function syncState(deps: DexPullDeps): Promise<DexSyncState> {
  const [j] = await deps.db.select().from(dexSyncJobs).orderBy(desc(dexSyncJobs.createdAt)).limit(1);
  return { configured: deps.configured, job: j ? jobOf(j) : null };
}

/**
 * Queues a sync (the runner takes it at once): incremental from the last finished sync's cursor, or full. One at a time:
 * a second start while one waits or runs is a 409. Unconfigured: a 409 that says so.
 */
export async function startSync(deps: DexPullDeps, actor: Actor, body: { full: boolean }): Promise<DexSyncJob> {
  if (!deps.configured) throw conflict(DEX_MSG.syncNotConfigured);
  let job: JobRow;
  try {
    job = await deps.db.transaction(async (tx) => {
      const [last] = await tx
        .select({ cursor: dexSyncJobs.cursor })
        .from(dexSyncJobs)
        .where(and(eq(dexSyncJobs.status, 'done'), isNotNull(dexSyncJobs.cursor)))
        .orderBy(desc(dexSyncJobs.finishedAt))
        .limit(1);
      const since = body.full ? null : (last?.cursor ?? null);
      const [j] = await tx
        .insert(dexSyncJobs)
        .values({ full: body.full || !since, since, startedById: actor.userId, startedByName: actor.userName })
        .returning();
      await writeOpLog(tx, actor, {
        glName: GL_NAME,
        recordId: j!.id,
        logbook: since ? `开始增量同步企业登记（自 ${since.toISOString()} 以来的变化）` : '开始全量同步企业登记',
      });
      await publishEvent(tx, STAFF_AUDIENCE, 'dex', { jobId: j!.id });
      return j!;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'dex_sync_jobs_active_uq')) throw conflict(DEX_MSG.syncRunning);
    throw e;
  }
  deps.kick();
  return jobOf(job);
}
