import { PassThrough, type Readable } from 'node:stream';
import {
  appToday,
  type CompleteCount,
  formatIn,
  type Progress,
  RECORD_STATUS_LABELS,
  STATS_EXPORT_MAX_ROWS,
  STATS_MSG,
  STATS_OVERDUE_DEFAULT_HOURS,
  type StatsSettings,
  statsSettingsSchema,
  TENDER_PROJECT_NODE,
  type TxnStats,
} from '@ks/contracts';
import ExcelJS from 'exceljs';
import type { Db, DbOrTx } from '../../db/client';
import { likePattern } from '../../db/sql';
import { createCache } from '../../platform/cache';
import { badRequest, notFound } from '../../platform/errors';
import type { Actor } from '../../platform/oplog';
import { writeOpLog } from '../../platform/oplog';
import { getSetting, putSetting } from '../../platform/settings';
import { onDecision } from '../engine/hooks';
import { businessNameOf } from '../engine/record-row';
import type { Period, Scope } from './stats.repo';
import * as repo from './stats.repo';

/**
 * 统计分析 (issue 19): transactions by type, region and month; engine records per node and state; where applications
 * stand in review; to-dos by node, region and enterprise; enterprises participating in transactions (with an xlsx
 * export streamed row by row). Administrators (M) and developers (D) see everything; an enterprise user (U) only what
 * belongs to its enterprise (nothing without one).
 */

export interface StatsCaller {
  id: string;
  loginRoleType: string;
  enterpriseId: string | null;
  actor: Actor;
}

export interface StatsDeps {
  db: Db;
  now: () => Date;
  tz: string;
}

export const SETTINGS_KEY = 'stats.progress';
const GL_NAME = '统计分析';
export const EXPORT_BATCH = 1000;

export function scopeOf(c: StatsCaller): Scope {
  return c.loginRoleType === 'M' || c.loginRoleType === 'D' ? { all: true } : { all: false, ent: c.enterpriseId };
}

interface PeriodInput {
  startMonth?: string;
  endMonth?: string;
  region?: string;
}

/** The period asked for, as first days of months; without one, the current year on the centre's calendar. */
export function periodOf(d: StatsDeps, q: PeriodInput): Period & { startMonth: string; endMonth: string } {
  const year = appToday(d.now(), d.tz).slice(0, 4);
  const startMonth = q.startMonth ?? (q.endMonth ? `${q.endMonth.slice(0, 4)}-01` : `${year}-01`);
  const endMonth = q.endMonth ?? (q.startMonth ? `${q.startMonth.slice(0, 4)}-12` : `${year}-12`);
  if (endMonth < startMonth)
    throw badRequest(STATS_MSG.monthOrder, { fieldErrors: { endMonth: [STATS_MSG.monthOrder] } });
  return {
    startMonth,
    endMonth,
    start: `${startMonth}-01`,
    end: `${endMonth}-01`,
    region: q.region || undefined,
  };
}

const paging = (q: { curPage: number; pageSize: number }) => ({
  limit: q.pageSize,
  offset: (q.curPage - 1) * q.pageSize,
});

// ---- transactions --------------------------------------------------------------------------------------------------

export async function transactions(
  d: StatsDeps,
  c: StatsCaller,
  q: PeriodInput & { type?: string },
): Promise<TxnStats> {
  const p = periodOf(d, q);
  const scope = scopeOf(c);
  const [groups, options] = await Promise.all([
    repo.txnGroups(d.db, scope, p, q.type || undefined),
    repo.txnOptions(d.db, scope),
  ]);
  return { startMonth: p.startMonth, endMonth: p.endMonth, ...groups, ...options };
}

export async function transactionList(
  d: StatsDeps,
  c: StatsCaller,
  q: PeriodInput & { type?: string; month?: string; curPage: number; pageSize: number },
) {
  const p = periodOf(d, q);
  // a month outside the period lists nothing rather than widening it
  if (q.month && (q.month < p.startMonth || q.month > p.endMonth)) return { records: [], total: 0 };
  return repo.txnList(d.db, scopeOf(c), p, {
    type: q.type || undefined,
    month: q.month ? `${q.month}-01` : undefined,
    ...paging(q),
  });
}

/** Keeps the transactions of a project in step with its 进场登记: registered once per process. */
let hooked = false;
export function registerStatsHooks() {
  if (hooked) return;
  hooked = true;
  const sync = async (e: { tx: DbOrTx; record: { id: string } }) => repo.syncProject(e.tx, e.record.id);
  onDecision(TENDER_PROJECT_NODE, { name: 'stats-transactions', passed: sync, rejected: sync });
}

// ---- 办件统计 ---------------------------------------------------------------------------------------------------------

async function nodeOr404(d: StatsDeps, gnCoding: string) {
  if (!/^[A-Za-z][A-Za-z0-9_]{0,62}$/.test(gnCoding)) throw notFound(STATS_MSG.noNode);
  const [n] = await repo.engineNodes(d.db, gnCoding);
  if (!n) throw notFound(STATS_MSG.noNode);
  return n;
}

/**
 * Counts of records per node and state, kept with the nodes' data versions they were made at (`node_data_versions`,
 * moved by every write to a node's table): while none has moved, the kept counts are the counts. A minute at most,
 * for what moves no version (an enterprise's region, a user's enterprise).
 */
const keptCounts = createCache<string, { versions: string; counts: Map<string, Record<string, number>> }>(
  'stats.completeCounts',
  { max: 500, ttlMs: 60_000 },
);

async function countsOf(d: StatsDeps, scope: Scope, p: Period, nodes: repo.EngineNodeRef[]) {
  const versions = JSON.stringify(
    await repo.nodeVersions(
      d.db,
      nodes.map((n) => n.id),
    ),
  );
  const key = JSON.stringify({ scope, p, nodes: nodes.map((n) => n.id) });
  const kept = keptCounts.get(key);
  if (kept && kept.versions === versions) return kept.counts;
  const counts = await repo.completeCounts(d.db, scope, p, nodes);
  keptCounts.set(key, { versions, counts });
  return counts;
}

export async function completeCount(d: StatsDeps, c: StatsCaller, q: PeriodInput): Promise<CompleteCount> {
  const p = periodOf(d, q);
  const nodes = await repo.engineNodes(d.db);
  const counts = await countsOf(d, scopeOf(c), p, nodes);
  const rows = nodes.map((n) => {
    const m = counts.get(n.id) ?? {};
    const v = (k: string) => m[k] ?? 0;
    return {
      systemCoding: n.systemCoding,
      systemName: n.systemName,
      gnCoding: n.gnCoding,
      nodeName: n.title,
      draft: v('draft'),
      pending: v('pending'),
      passed: v('passed'),
      rejected: v('rejected'),
      total: Object.values(m).reduce((a, b) => a + b, 0),
    };
  });
  return { startMonth: p.startMonth, endMonth: p.endMonth, rows };
}

export async function completeList(
  d: StatsDeps,
  c: StatsCaller,
  q: PeriodInput & { gnCoding: string; status?: string; curPage: number; pageSize: number },
) {
  const p = periodOf(d, q);
  const n = await nodeOr404(d, q.gnCoding);
  const scope = scopeOf(c);
  const m = (await countsOf(d, scope, p, [n])).get(n.id) ?? {};
  const total = q.status ? (m[q.status] ?? 0) : Object.values(m).reduce((a, b) => a + b, 0);
  const { rows } = await repo.completeList(d.db, scope, p, n, { status: q.status, total, ...paging(q) });
  return {
    total,
    records: rows.map((r) => ({
      id: String(r.id),
      businessName: businessNameOf(n, r),
      status: RECORD_STATUS_LABELS[String(r.status)] ?? String(r.status),
      auditLevel: Number(r.audit_level ?? 0),
      enterpriseName: r.__enterprise == null ? null : String(r.__enterprise),
      createdAt: String(r.__created),
      updatedAt: String(r.__updated),
    })),
  };
}

// ---- 办理进度 ---------------------------------------------------------------------------------------------------------

export async function settingsOf(d: StatsDeps): Promise<StatsSettings> {
  const raw = await getSetting(d.db, SETTINGS_KEY);
  if (raw) {
    try {
      const parsed = statsSettingsSchema.safeParse(JSON.parse(raw));
      if (parsed.success) return parsed.data;
    } catch {
      // a damaged value falls back to the default
    }
  }
  return { overdueHours: STATS_OVERDUE_DEFAULT_HOURS };
}

export async function saveSettings(d: StatsDeps, c: StatsCaller, s: StatsSettings): Promise<StatsSettings> {
  const before = await settingsOf(d);
  await d.db.transaction(async (tx) => {
    await putSetting(tx, SETTINGS_KEY, JSON.stringify(s));
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      logbook: `办理进度超期时限：${before.overdueHours} 小时 → ${s.overdueHours} 小时`,
    });
  });
  return s;
}

const levelKey = (nodeId: string, level: number) => `${nodeId}:${level}`;

export async function progress(d: StatsDeps, c: StatsCaller, q: PeriodInput): Promise<Progress> {
  const p = periodOf(d, q);
  const scope = scopeOf(c);
  const { overdueHours } = await settingsOf(d);
  const overdueBefore = new Date(d.now().getTime() - overdueHours * 3_600_000);
  const [pending, decided] = await Promise.all([
    repo.pendingByLevel(d.db, scope, p, overdueBefore),
    repo.decidedByLevel(d.db, scope, p),
  ]);
  const nodeIds = [...new Set([...pending, ...decided].map((r) => r.nodeId))];
  const levels = await repo.nodeLevels(d.db, nodeIds);
  const byKey = new Map<string, Progress['levels'][number]>();
  const entry = (nodeId: string, level: number) => {
    const k = levelKey(nodeId, level);
    let e = byKey.get(k);
    if (!e) {
      const node = levels.find((l) => l.nodeId === nodeId);
      const named = levels.find((l) => l.nodeId === nodeId && l.level === level);
      e = {
        gnCoding: node?.gnCoding ?? '',
        nodeName: node?.title ?? '',
        level,
        levelName: named?.name ?? `第 ${level} 级`,
        pending: 0,
        overdue: 0,
        decided: 0,
        avgHours: null,
        maxHours: null,
      };
      byKey.set(k, e);
    }
    return e;
  };
  for (const r of pending) Object.assign(entry(r.nodeId, r.level), { pending: r.pending, overdue: r.overdue });
  for (const r of decided)
    Object.assign(entry(r.nodeId, r.level), { decided: r.decided, avgHours: r.avgHours, maxHours: r.maxHours });
  const rows = [...byKey.values()].sort((a, b) => a.gnCoding.localeCompare(b.gnCoding) || a.level - b.level);
  return {
    startMonth: p.startMonth,
    endMonth: p.endMonth,
    overdueHours,
    pending: rows.reduce((a, r) => a + r.pending, 0),
    overdue: rows.reduce((a, r) => a + r.overdue, 0),
    levels: rows,
  };
}

export async function progressList(
  d: StatsDeps,
  c: StatsCaller,
  q: PeriodInput & { gnCoding?: string; level?: number; overdue?: '1' | '0'; curPage: number; pageSize: number },
) {
  const p = periodOf(d, q);
  const node = q.gnCoding ? await nodeOr404(d, q.gnCoding) : undefined;
  const { overdueHours } = await settingsOf(d);
  const now = d.now();
  const overdueBefore = new Date(now.getTime() - overdueHours * 3_600_000);
  const { total, rows } = await repo.progressList(d.db, scopeOf(c), p, {
    nodeId: node?.id,
    level: q.level,
    overdue: q.overdue === undefined ? undefined : q.overdue === '1',
    overdueBefore,
    ...paging(q),
  });
  return {
    total,
    records: rows.map((r) => {
      const since = new Date(String(r.since));
      const waiting = (now.getTime() - since.getTime()) / 3_600_000;
      return {
        recordId: String(r.record_id),
        gnCoding: String(r.gn_coding),
        nodeName: String(r.title),
        businessName: String(r.business_name),
        submitterName: String(r.submitter_name),
        level: Number(r.level),
        levelName: r.level_name == null ? `第 ${Number(r.level)} 级` : String(r.level_name),
        since: String(r.since_text),
        waitingHours: Math.max(0, Math.round(waiting * 10) / 10),
        overdue: since.getTime() < overdueBefore.getTime(),
      };
    }),
  };
}

// ---- to-dos --------------------------------------------------------------------------------------------------------

export async function todoList(d: StatsDeps, c: StatsCaller, q: PeriodInput) {
  return repo.todoByNode(d.db, scopeOf(c), periodOf(d, q));
}

export async function todoRegion(d: StatsDeps, c: StatsCaller, q: PeriodInput) {
  return repo.todoByRegion(d.db, scopeOf(c), periodOf(d, q));
}

export async function todoEnterprise(
  d: StatsDeps,
  c: StatsCaller,
  q: PeriodInput & { curPage: number; pageSize: number },
) {
  const { limit, offset } = paging(q);
  return repo.todoByEnterprise(d.db, scopeOf(c), periodOf(d, q), limit, offset);
}

export async function todoRecords(
  d: StatsDeps,
  c: StatsCaller,
  q: PeriodInput & {
    gnCoding?: string;
    enterpriseId?: string;
    state?: 'open' | 'done';
    curPage: number;
    pageSize: number;
  },
) {
  const p = periodOf(d, q);
  const node = q.gnCoding ? await nodeOr404(d, q.gnCoding) : undefined;
  const scope = scopeOf(c);
  // an enterprise user asking for another enterprise's to-dos gets none (its scope already limits the rows)
  if (!scope.all && q.enterpriseId && q.enterpriseId !== scope.ent) return { total: 0, records: [] };
  return repo.todoRecords(d.db, scope, p, {
    nodeId: node?.id,
    ent: q.enterpriseId,
    state: q.state,
    ...paging(q),
  });
}

// ---- participating enterprises ------------------------------------------------------------------------------------

type ParticipateInput = PeriodInput & { type?: string; keyword?: string };

export async function participateList(
  d: StatsDeps,
  c: StatsCaller,
  q: ParticipateInput & { sortField?: string; order?: string; curPage: number; pageSize: number },
) {
  const p = periodOf(d, q);
  const scope = scopeOf(c);
  const like = q.keyword ? likePattern(q.keyword) : undefined;
  const f = { type: q.type || undefined };
  return repo.participatePage(d.db, scope, p, { ...f, sortField: q.sortField, order: q.order, ...paging(q) }, like);
}

export const PARTICIPATE_COLUMNS = [
  { header: '企业名称', key: 'enterpriseName', width: 36 },
  { header: '统一社会信用代码', key: 'creditCode', width: 22 },
  { header: '所在地区', key: 'region', width: 12 },
  { header: '报名标段数', key: 'sections', width: 12 },
  { header: '标段控制价合计（元）', key: 'amount', width: 20 },
] as const;

/**
 * 参与交易企业 as xlsx: the rows are read in batches of EXPORT_BATCH in enterprise order (keyset, no offset) and each
 * row is committed to exceljs's streaming writer as it comes, so neither the result nor the workbook is ever held.
 * More than STATS_EXPORT_MAX_ROWS rows is a 400 before anything is written.
 */
export async function exportParticipate(
  d: StatsDeps,
  c: StatsCaller,
  q: ParticipateInput,
  opts: { batch?: number; onBatch?: (n: number) => void } = {},
): Promise<{ name: string; stream: Readable; rows: number }> {
  const p = periodOf(d, q);
  const scope = scopeOf(c);
  const like = q.keyword ? likePattern(q.keyword) : undefined;
  const f = { type: q.type || undefined };
  const total = await repo.participateCount(d.db, scope, p, f, like);
  if (total > STATS_EXPORT_MAX_ROWS) {
    throw badRequest(`导出的企业超过 ${STATS_EXPORT_MAX_ROWS} 家，请缩小筛选范围后再导出`);
  }
  await writeOpLog(d.db, c.actor, {
    glName: GL_NAME,
    logbook: `导出参与交易企业 ${total} 家（${p.startMonth} 至 ${p.endMonth}${p.region ? `，${p.region}` : ''}）`,
  });
  const batch = opts.batch ?? EXPORT_BATCH;
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet('参与交易企业', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = PARTICIPATE_COLUMNS.map((col) => ({ ...col }));
  ws.getRow(1).font = { bold: true };
  const write = async () => {
    let after: string | null = null;
    for (;;) {
      const rows = await repo.participateBatch(d.db, scope, p, f, like, after, batch);
      opts.onBatch?.(rows.length);
      for (const r of rows) ws.addRow(r).commit();
      if (rows.length < batch) break;
      after = rows[rows.length - 1]!.enterpriseId;
    }
    ws.commit();
    await wb.commit();
  };
  write().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  const stamp = formatIn(d.now(), 'YYYYMMDDHHmm', d.tz);
  return { name: `参与交易企业_${stamp}.xlsx`, stream: out, rows: total };
}
