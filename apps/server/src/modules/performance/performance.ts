import {
  type FieldDef,
  PERFORMANCE_MSG,
  PERFORMANCE_NODE,
  PERFORMANCE_ROLES,
  type Performance,
  type PerformanceListQuery,
} from '@ks/contracts';
import { and, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import { enterprises, performances } from '../../db/schema';
import { likePattern } from '../../db/sql';
import { badRequest, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { nodeAccessor } from '../engine/accessor';
import { onDecision } from '../engine/hooks';

/**
 * 企业业绩 (issue 19): an enterprise declares a completed project in the engine node PERFORMANCE_NODE (form, evidence
 * attachments, submission, the centre's review — all the engine's); the final pass of a declaration writes the
 * enterprise's performance (the `performances` table the portal's market detail page reads), in the decision's
 * transaction, one row per declaration. A declaration passed again after a change updates its row.
 */

export const PERFORMANCE_FIELDS: FieldDef[] = [
  { code: 'xmmc', name: '项目名称', type: 'text', required: 1, length: 200 },
  {
    code: 'cdjs',
    name: '承担角色',
    type: 'radio',
    required: 1,
    options: { list: PERFORMANCE_ROLES.map((r) => ({ label: r, value: r })) },
  },
  { code: 'jsdw', name: '建设单位', type: 'text', required: 1, length: 200 },
  { code: 'xmszd', name: '项目所在地', type: 'text', length: 60 },
  { code: 'htje', name: '合同金额（元）', type: 'input-number', required: 1 },
  { code: 'kgrq', name: '开工日期', type: 'date', required: 1, validator: 'notFuture' },
  { code: 'jgrq', name: '竣工日期', type: 'date', required: 1, validator: 'notFuture' },
  { code: 'xmfzr', name: '项目负责人', type: 'text', length: 20 },
  { code: 'bz', name: '备注', type: 'textarea', length: 500 },
];

export const performanceNode = nodeAccessor(PERFORMANCE_NODE, {
  xmmc: z.string().nullable(),
  cdjs: z.string().nullable(),
  jsdw: z.string().nullable(),
  xmszd: z.string().nullable(),
  htje: z.number().nullable(),
  kgrq: z.string().nullable(),
  jgrq: z.string().nullable(),
});

const dateOnly = (v: string | null) => (v ? v.slice(0, 10) : null);

/** Registers the decision hook once per process (apps built in tests share it). */
let registered = false;
export function registerPerformanceHooks() {
  if (registered) return;
  registered = true;
  onDecision(PERFORMANCE_NODE, {
    name: 'performance',
    async passed(e) {
      if (!e.final) return;
      const r = await performanceNode.get(e.tx, e.record.id);
      if (!r) return;
      const v = r.values;
      const started = dateOnly(v.kgrq);
      const completed = dateOnly(v.jgrq);
      if (started && completed && completed < started) throw badRequest(PERFORMANCE_MSG.endBeforeStart);
      // a declaration belongs to its enterprise (a person's own declaration makes no enterprise performance)
      if (!r.enterpriseId) return;
      const row = {
        ownerKind: 'enterprise',
        ownerId: r.enterpriseId,
        projectName: (v.xmmc ?? '').slice(0, 200),
        role: (v.cdjs ?? '').slice(0, 40),
        builder: v.jsdw,
        region: v.xmszd,
        amount: v.htje === null ? null : v.htje.toFixed(2),
        startedAt: started,
        completedAt: completed,
        recordId: r.id,
      };
      await e.tx
        .insert(performances)
        .values(row)
        .onConflictDoUpdate({
          target: performances.recordId,
          set: {
            projectName: row.projectName,
            role: row.role,
            builder: row.builder,
            region: row.region,
            amount: row.amount,
            startedAt: row.startedAt,
            completedAt: row.completedAt,
          },
        });
      await writeOpLog(e.tx, actorOf(e.decider), {
        glName: '企业业绩',
        gnCoding: PERFORMANCE_NODE,
        recordId: r.id,
        logbook: `业绩审核通过，计入企业业绩：${row.projectName}`,
      });
    },
  });
}

const actorOf = (d: { id: string; userName: string; loginRoleType: string }): Actor => ({
  userId: d.id,
  userName: d.userName,
  loginRoleType: d.loginRoleType as Actor['loginRoleType'],
});

// ── reading (public: the market detail page's data) ─────────────────────────────────────────────────────────

const select = {
  id: performances.id,
  enterpriseId: performances.ownerId,
  enterpriseName: enterprises.name,
  projectName: performances.projectName,
  role: performances.role,
  builder: performances.builder,
  region: performances.region,
  amount: performances.amount,
  startedAt: performances.startedAt,
  completedAt: performances.completedAt,
  recordId: performances.recordId,
};

type Row = {
  [K in keyof typeof select]: unknown;
};

const toPerformance = (r: Row): Performance => ({
  id: String(r.id),
  enterpriseId: String(r.enterpriseId),
  enterpriseName: String(r.enterpriseName ?? ''),
  projectName: String(r.projectName),
  role: String(r.role),
  builder: (r.builder as string | null) ?? null,
  region: (r.region as string | null) ?? null,
  amount: (r.amount as string | null) ?? null,
  startedAt: dateOnly((r.startedAt as string | null) ?? null),
  completedAt: dateOnly((r.completedAt as string | null) ?? null),
  recordId: (r.recordId as string | null) ?? null,
});

function base(q: DbOrTx) {
  return q
    .select(select)
    .from(performances)
    .innerJoin(enterprises, eq(enterprises.id, performances.ownerId))
    .$dynamic();
}

export async function performanceList(
  db: Db,
  q: PerformanceListQuery,
): Promise<{ records: Performance[]; total: number }> {
  const where: SQL[] = [eq(performances.ownerKind, 'enterprise')];
  if (q.enterpriseId) where.push(eq(performances.ownerId, q.enterpriseId));
  if (q.role) where.push(eq(performances.role, q.role));
  if (q.keyword) {
    const p = likePattern(q.keyword);
    where.push(or(ilike(performances.projectName, p), ilike(performances.builder, p))!);
  }
  const cond = and(...where);
  const [rows, [count]] = await Promise.all([
    base(db)
      .where(cond)
      .orderBy(sql`${performances.completedAt} desc nulls last`, desc(performances.id))
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize),
    db.select({ n: sql<number>`count(*)::int` }).from(performances).where(cond),
  ]);
  return { records: rows.map(toPerformance), total: Number(count?.n ?? 0) };
}

export async function performanceById(db: Db, id: string): Promise<Performance> {
  const [r] = await base(db).where(and(eq(performances.id, id), eq(performances.ownerKind, 'enterprise')));
  if (!r) throw notFound(PERFORMANCE_MSG.missing);
  return toPerformance(r);
}
