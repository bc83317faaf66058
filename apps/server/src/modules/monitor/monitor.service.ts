import {
  type EvalAnomaly,
  MONITOR_MSG,
  MONITOR_VERDICT_LABELS,
  type MonitorAudit,
  type MonitorListQuery,
  type MonitorPage,
  type MonitorRow,
  type MonitorStage,
  type MonitorVerdict,
  type MonitorView,
  TENDER_PROJECT_NODE,
} from '@ks/contracts';
import type { DbOrTx, Tx } from '../../db/client';
import { badRequest, conflict, forbidden, notFound, validationFailed } from '../../platform/errors';
import { publishEvent } from '../../platform/live';
import { writeOpLog } from '../../platform/oplog';
import { engineNode, supervisesNode } from '../engine/record-access';
import type { EvalCaller, EvalDeps } from '../evaluation/evaluation.deps';
import { anomaliesFor } from '../evaluation/evaluation.service';
import { appendEvent, ledgerActor } from '../ledger/ledger';
import { sendUserMessages } from '../messages/send';
import { projects } from '../tender/project';
import { sectionOr404 } from '../tender/section.repo';
import * as repo from './monitor.repo';

/**
 * 监督台 (issue 17): the supervision office's console over openings and evaluations. Administrators (M) and holders of
 * 监督查看 on the tender projects use it; anyone else gets 403. A section is assigned to one supervisor at a time; the
 * assigned supervisor (or an administrator) records findings on its anomalies or on the section as a whole. Every
 * change is one transaction with an entry of the tamper-evident log, an operation-log row and a live `monitor` event.
 */

export type MonitorDeps = EvalDeps;
const GL_NAME = '监督台';

interface Supervisor {
  admin: boolean;
  /** a developer: reads the console, acts on nothing */
  readOnly: boolean;
  nodeId: string;
}

/** Who uses the console: administrators, holders of 监督查看 on the tender projects, and (to read) developers. */
async function requireSupervisor(deps: MonitorDeps, c: EvalCaller, act = false): Promise<Supervisor> {
  const n = await engineNode(deps.db, TENDER_PROJECT_NODE).catch(() => null);
  if (c.loginRoleType === 'D') {
    if (act) throw forbidden(MONITOR_MSG.readOnly);
    return { admin: false, readOnly: true, nodeId: n?.id ?? '' };
  }
  const admin = c.loginRoleType === 'M';
  if (!admin && (!n || !(await supervisesNode(deps.db, c, n.id)))) throw forbidden(MONITOR_MSG.notSupervisor);
  return { admin, readOnly: false, nodeId: n?.id ?? '' };
}

const stageOf = (s: repo.MonitoredSection): MonitorStage =>
  s.awarded ? 'awarded' : s.published ? 'publicity' : s.evaluationStatus !== 'none' ? 'evaluating' : 'opening';

type ProjectFacts = { no: string; name: string; ownerId: string; enterpriseId: string | null };

async function projectFacts(q: DbOrTx, ids: string[]): Promise<Map<string, ProjectFacts>> {
  const out = new Map<string, ProjectFacts>();
  for (const id of new Set(ids)) {
    const p = await projects.get(q, id);
    if (p)
      out.set(id, {
        no: String(p.values.xmbh ?? ''),
        name: String(p.values.xmmc ?? ''),
        ownerId: p.ownerId,
        enterpriseId: p.enterpriseId,
      });
  }
  return out;
}

function rowOf(
  s: repo.MonitoredSection,
  p: ProjectFacts | undefined,
  anomalies: EvalAnomaly[],
  audited: Set<string> | undefined,
): MonitorRow {
  return {
    sectionId: s.id,
    code: s.code,
    name: s.name,
    projectNo: p?.no ?? '',
    projectName: p?.name ?? '',
    bidDeadline: s.bidDeadline.toISOString(),
    stage: stageOf(s),
    openingStatus: s.openingStatus,
    evaluationStatus: s.evaluationStatus,
    bids: s.bids,
    anomalies: anomalies.length,
    pendingAnomalies: anomalies.filter((a) => !audited?.has(a.key)).length,
    findings: s.findings,
    supervisor: s.supervisorId ? { id: s.supervisorId, userName: s.supervisorName ?? '' } : null,
    lastEventAt: s.lastEventAt?.toISOString() ?? null,
  };
}

/** The console's rows after the filters, in deadline order (newest first). */
async function rows(deps: MonitorDeps, c: EvalCaller, q: Omit<MonitorListQuery, 'pageNum' | 'pageSize'>) {
  let sections = await repo.monitoredSections(deps.db, deps.now());
  if (q.stage) sections = sections.filter((s) => stageOf(s) === q.stage);
  if (q.mine) sections = sections.filter((s) => s.supervisorId === c.id);
  const facts = await projectFacts(
    deps.db,
    sections.map((s) => s.projectId),
  );
  const kw = q.keyWord?.trim().toLowerCase();
  if (kw) {
    sections = sections.filter((s) => {
      const p = facts.get(s.projectId);
      return [s.code, s.name, p?.no ?? '', p?.name ?? ''].some((t) => t.toLowerCase().includes(kw));
    });
  }
  const audited = await repo.auditedKeys(
    deps.db,
    sections.map((s) => s.id),
  );
  const out: MonitorRow[] = [];
  for (const s of sections) {
    const anomalies = s.evaluationStatus === 'none' ? [] : await anomaliesFor(deps, s.id);
    const row = rowOf(s, facts.get(s.projectId), anomalies, audited.get(s.id));
    if (q.pending && row.pendingAnomalies === 0) continue;
    out.push(row);
  }
  return out;
}

export async function list(deps: MonitorDeps, c: EvalCaller, q: MonitorListQuery): Promise<MonitorPage> {
  await requireSupervisor(deps, c);
  const all = await rows(deps, c, q);
  const from = (q.pageNum - 1) * q.pageSize;
  return { records: all.slice(from, from + q.pageSize), total: all.length };
}

/** Every row of the filtered console (the xlsx export). */
export async function exportRows(
  deps: MonitorDeps,
  c: EvalCaller,
  q: Omit<MonitorListQuery, 'pageNum' | 'pageSize'>,
): Promise<MonitorRow[]> {
  await requireSupervisor(deps, c);
  return rows(deps, c, q);
}

const findingOut = (f: repo.FindingRow) => ({
  id: f.id,
  anomalyKey: f.anomalyKey,
  anomalyText: f.anomalyText,
  verdict: f.verdict as 'compliant' | 'rectify',
  opinion: f.opinion,
  byName: f.byName,
  at: f.at.toISOString(),
  publishedAt: f.publishedAt?.toISOString() ?? null,
  publishedByName: f.publishedByName,
});

export async function view(deps: MonitorDeps, c: EvalCaller, sectionId: string): Promise<MonitorView> {
  const who = await requireSupervisor(deps, c);
  const [s] = await repo.monitoredSections(deps.db, deps.now(), [sectionId]);
  if (!s) {
    // a section that exists but is not (yet) followed: not due within a week and not opened
    await sectionOr404(deps.db, sectionId, MONITOR_MSG.sectionMissing);
    throw notFound(MONITOR_MSG.sectionMissing);
  }
  const facts = await projectFacts(deps.db, [s.projectId]);
  const anomalies = s.evaluationStatus === 'none' ? [] : await anomaliesFor(deps, s.id);
  const findings = await repo.findingsOf(deps.db, s.id);
  const byKey = new Map(findings.filter((f) => f.anomalyKey).map((f) => [f.anomalyKey!, f]));
  const keys = new Set(anomalies.map((a) => a.key));
  const mine = s.supervisorId === c.id;
  return {
    row: rowOf(s, facts.get(s.projectId), anomalies, new Set(byKey.keys())),
    anomalies: anomalies.map((a) => {
      const f = byKey.get(a.key);
      return { ...a, finding: f ? findingOut(f) : null };
    }),
    findings: findings.filter((f) => !f.anomalyKey || !keys.has(f.anomalyKey)).map(findingOut),
    assignments: (await repo.assignmentsOf(deps.db, s.id)).map((a) => ({
      supervisor: { id: a.supervisorId, userName: a.supervisorName },
      assignedByName: a.assignedByName,
      assignedAt: a.assignedAt.toISOString(),
      revokedAt: a.revokedAt?.toISOString() ?? null,
      revokedByName: a.revokedByName,
      revokeReason: a.revokeReason,
    })),
    candidates: who.nodeId && !who.readOnly ? await repo.supervisorsOf(deps.db, who.nodeId) : [],
    actions: who.readOnly
      ? { assign: false, revoke: false, audit: false, publish: [] }
      : {
          assign: who.admin || !s.supervisorId || mine,
          revoke: Boolean(s.supervisorId) && (who.admin || mine),
          audit: who.admin || mine,
          publish: findings.filter((f) => !f.publishedAt && (who.admin || f.byId === c.id)).map((f) => f.id),
        },
  };
}

/** One step of the console: the log's entry, the operation log and the live event, in the change's transaction. */
async function logStep(
  tx: Tx,
  c: EvalCaller,
  section: { id: string; code: string; name: string },
  kind: string,
  payload: Record<string, unknown>,
  logbook: string,
  at: Date,
) {
  await appendEvent(tx, { kind, sectionId: section.id, actor: ledgerActor(c.actor), payload, at });
  await writeOpLog(tx, c.actor, {
    glName: GL_NAME,
    recordId: section.id,
    logbook: `${logbook}（标段 ${section.code} ${section.name}）`,
  });
  await publishEvent(tx, { everyone: true }, 'monitor', { sectionId: section.id });
}

export async function assign(
  deps: MonitorDeps,
  c: EvalCaller,
  input: { sectionId: string; userId: string },
): Promise<MonitorView> {
  const who = await requireSupervisor(deps, c, true);
  const target = (await repo.supervisorsOf(deps.db, who.nodeId)).find((u) => u.id === input.userId);
  if (!target) throw validationFailed({ userId: [MONITOR_MSG.supervisorMissing] });
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    // the section's lock orders concurrent assignments (one current assignment per section)
    const section = await sectionOr404(tx, input.sectionId, MONITOR_MSG.sectionMissing, 'update');
    const [followed] = await repo.monitoredSections(tx, now, [section.id]);
    if (!followed) throw notFound(MONITOR_MSG.sectionMissing);
    const current = await repo.currentAssignment(tx, section.id);
    if (current?.supervisorId === target.id) throw conflict(MONITOR_MSG.alreadyAssigned);
    if (current && !who.admin && current.supervisorId !== c.id) throw forbidden(MONITOR_MSG.reassignAdminOnly);
    if (current) {
      await repo.revokeAssignment(tx, current.id, {
        name: c.actor.userName,
        reason: `改派给 ${target.userName}`,
        at: now,
      });
    }
    await repo.insertAssignment(tx, {
      sectionId: section.id,
      supervisorId: target.id,
      supervisorName: target.userName,
      assignedById: c.id,
      assignedByName: c.actor.userName,
      assignedAt: now,
    });
    const facts = (await projectFacts(tx, [section.projectId])).get(section.projectId);
    await sendUserMessages(tx, [
      {
        userId: target.id,
        kind: 'admin',
        title: `监督任务：${section.code} ${section.name}`,
        body: `${c.actor.userName} 指派您监督 ${facts?.name ?? ''} ${section.code} ${section.name} 的开标、评标与定标，请在「监督台」中跟踪并核查异常。`,
        link: `/bid/monitor?sectionId=${section.id}`,
        createdAt: now,
      },
    ]);
    await logStep(
      tx,
      c,
      section,
      'monitor.assigned',
      {
        supervisorId: target.id,
        supervisorName: target.userName,
        replaced: current ? current.supervisorName : null,
      },
      `指派 ${target.userName} 监督${current ? `（原负责人 ${current.supervisorName}）` : ''}`,
      now,
    );
  });
  return view(deps, c, input.sectionId);
}

export async function revoke(
  deps: MonitorDeps,
  c: EvalCaller,
  input: { sectionId: string; reason: string },
): Promise<MonitorView> {
  const who = await requireSupervisor(deps, c, true);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const section = await sectionOr404(tx, input.sectionId, MONITOR_MSG.sectionMissing, 'update');
    const current = await repo.currentAssignment(tx, section.id);
    if (!current) throw conflict(MONITOR_MSG.notAssigned);
    if (!who.admin && current.supervisorId !== c.id) throw forbidden(MONITOR_MSG.revokeNotYours);
    await repo.revokeAssignment(tx, current.id, { name: c.actor.userName, reason: input.reason, at: now });
    await logStep(
      tx,
      c,
      section,
      'monitor.revoked',
      { supervisorId: current.supervisorId, supervisorName: current.supervisorName, reason: input.reason },
      `撤回 ${current.supervisorName} 的监督指派：${input.reason}`,
      now,
    );
  });
  return view(deps, c, input.sectionId);
}

export async function audit(deps: MonitorDeps, c: EvalCaller, input: MonitorAudit): Promise<MonitorView> {
  const who = await requireSupervisor(deps, c, true);
  const now = deps.now();
  let anomaly: EvalAnomaly | null = null;
  if (input.anomalyKey) {
    anomaly = (await anomaliesFor(deps, input.sectionId)).find((a) => a.key === input.anomalyKey) ?? null;
    if (!anomaly) throw badRequest(MONITOR_MSG.anomalyMissing);
  }
  await deps.db.transaction(async (tx) => {
    const section = await sectionOr404(tx, input.sectionId, MONITOR_MSG.sectionMissing, 'update');
    const current = await repo.currentAssignment(tx, section.id);
    if (!who.admin && current?.supervisorId !== c.id) throw forbidden(MONITOR_MSG.notYours);
    const inserted = await repo.insertFinding(tx, {
      sectionId: section.id,
      anomalyKey: anomaly?.key ?? null,
      anomalyText: anomaly?.text ?? null,
      verdict: input.verdict,
      opinion: input.opinion,
      byId: c.id,
      byName: c.actor.userName,
      at: now,
    });
    if (!inserted) throw conflict(MONITOR_MSG.alreadyAudited);
    const verdict = MONITOR_VERDICT_LABELS[input.verdict];
    await logStep(
      tx,
      c,
      section,
      'monitor.finding',
      {
        anomalyKey: anomaly?.key ?? null,
        anomalyText: anomaly?.text ?? null,
        verdict: input.verdict,
        opinion: input.opinion,
      },
      `核查意见（${verdict}）${anomaly ? `：${anomaly.text} —` : '：'}${input.opinion}`,
      now,
    );
  });
  return view(deps, c, input.sectionId);
}

/**
 * 发布核查意见: the finding's author (or an administrator) issues it to the parties: it shows in the section's evaluation
 * room (host, committee, viewers) and the project's owner and its enterprise's accounts are told.
 */
export async function publish(
  deps: MonitorDeps,
  c: EvalCaller,
  input: { sectionId: string; id: string },
): Promise<MonitorView> {
  const who = await requireSupervisor(deps, c, true);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const section = await sectionOr404(tx, input.sectionId, MONITOR_MSG.sectionMissing, 'update');
    const f = await repo.findingById(tx, input.id);
    if (!f || f.sectionId !== section.id) throw notFound(MONITOR_MSG.findingMissing);
    if (!who.admin && f.byId !== c.id) throw forbidden(MONITOR_MSG.publishNotYours);
    if (!(await repo.markPublished(tx, f.id, { name: c.actor.userName, at: now }))) {
      throw conflict(MONITOR_MSG.alreadyPublished);
    }
    const verdict = MONITOR_VERDICT_LABELS[f.verdict as MonitorVerdict];
    const facts = (await projectFacts(tx, [section.projectId])).get(section.projectId);
    if (facts) {
      const accounts = await repo.sideAccounts(tx, facts);
      await sendUserMessages(
        tx,
        accounts.map((u) => ({
          userId: u.userId,
          kind: 'admin' as const,
          title: `监督意见（${verdict}）：${section.code} ${section.name}`,
          body: `${f.byName} 对 ${facts.name} ${section.code} ${section.name}${f.anomalyText ? `的「${f.anomalyText}」` : ''}发布监督意见（${verdict}）：${f.opinion}`,
          link: `/bidStep/bidOverview?sectionId=${section.id}`,
          createdAt: now,
        })),
      );
    }
    await logStep(
      tx,
      c,
      section,
      'monitor.published',
      { findingId: f.id, verdict: f.verdict, opinion: f.opinion, anomalyText: f.anomalyText },
      `发布监督意见（${verdict}）：${f.opinion}`,
      now,
    );
    // the room shows it: its readers re-read
    await publishEvent(tx, { everyone: true }, 'evaluation', { sectionId: section.id });
  });
  return view(deps, c, input.sectionId);
}
