import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MONITOR_MSG } from '@ks/contracts';
import { and, desc, eq, ne } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ledgerEntries,
  operationLogs,
  supervisionFindings,
  tenderSections,
  userMessages,
  users,
} from '../../db/schema';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { verifyLedger } from '../ledger/ledger';
import { projects } from '../tender/project';

/**
 * 监督台 through the API (issue 17), on the demo's SXGC-2026-1006 BD-01: its evaluation begun, the demo supervisor
 * (李振华) assigned to it by the seed. An expert's recusal raises the anomaly the supervisor audits.
 */
let t: TestApp;
const c = client(() => t);
const db = () => t.database.db;
let admin: string;
let supervisor: string;
let agent: string;
let user1: string;
let zj5: string;
let sectionId: string;
let supervisorId: string;

const P = {
  list: '/ks/monitor/table-list',
  view: '/ks/monitor/get-view-list',
  assign: '/ks/monitor/assign',
  revoke: '/ks/monitor/revoke',
  audit: '/ks/monitor/audit',
  publish: '/ks/monitor/publish',
  export: '/ks/monitor/export',
};

type Row = {
  sectionId: string;
  stage: string;
  anomalies: number;
  pendingAnomalies: number;
  findings: number;
  supervisor: { id: string; userName: string } | null;
  projectNo: string;
};
type View = {
  row: Row;
  anomalies: { key: string; kind: string; text: string; finding: { verdict: string; opinion: string } | null }[];
  findings: { anomalyKey: string | null; verdict: string; opinion: string }[];
  assignments: { supervisor: { userName: string }; revokedAt: string | null; revokeReason: string | null }[];
  candidates: { id: string; userName: string }[];
  actions: { assign: boolean; revoke: boolean; audit: boolean };
};
const list = async (token: string, body: Record<string, unknown> = {}) =>
  (await c.post(P.list, token, { pageNum: 1, pageSize: 50, ...body })).body.data as { records: Row[]; total: number };
const view = async (token: string) => (await c.post(P.view, token, { sectionId })).body.data as View;

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ks-monitor-'));
  cpSync(path.join(inject('seedDataDir'), 'files'), path.join(dataDir, 'files'), { recursive: true });
  t = await createTestApp({ env: { DATA_DIR: dataDir, SINGLE_SESSION: '0', SESSION_TTL_MINUTES: '43200' } });
  [admin, supervisor, agent, user1, zj5] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'supervisor', 'U'),
    loginToken(t.app, 'agent', 'U'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'zj5', 'U'),
  ]);
  const [p] = await projects.list(db(), { where: { xmbh: 'SXGC-2026-1006' } });
  const [s] = await db()
    .select()
    .from(tenderSections)
    .where(and(eq(tenderSections.projectId, p!.id), eq(tenderSections.code, 'BD-01')));
  sectionId = s!.id;
  const [u] = await db().select().from(users).where(eq(users.account, 'supervisor'));
  supervisorId = u!.id;
});
afterAll(async () => t?.close());

describe('who uses the console', () => {
  it('refuses an enterprise, the agent and an expert with 403, and an anonymous caller with 401', async () => {
    for (const token of [user1, agent, zj5]) {
      const r = await c.post(P.list, token, {});
      expect(r.status).toBe(403);
      expect(r.body.message).toBe(MONITOR_MSG.notSupervisor);
      expect((await c.post(P.view, token, { sectionId })).status).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: P.list, payload: {} })).statusCode).toBe(401);
  });

  it('lets a developer read the console and act on nothing', async () => {
    const dev = await loginToken(t.app, 'dev', 'D');
    expect((await list(dev)).records.map((r) => r.sectionId)).toContain(sectionId);
    const v = await view(dev);
    expect(v.actions).toEqual({ assign: false, revoke: false, audit: false, publish: [] });
    expect(v.candidates).toEqual([]);
    const refused = await c.post(P.assign, dev, { sectionId, userId: supervisorId });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MONITOR_MSG.readOnly);
    expect((await c.post(P.audit, dev, { sectionId, verdict: 'compliant', opinion: '开发者不能核查' })).status).toBe(
      403,
    );
  });

  it('lists the demo section to the supervisor, assigned by the seed, in evaluation, with no anomaly yet', async () => {
    const { records } = await list(supervisor);
    const row = records.find((r) => r.sectionId === sectionId)!;
    expect(row).toMatchObject({ stage: 'evaluating', anomalies: 0, projectNo: 'SXGC-2026-1006' });
    expect(row.supervisor).toEqual({ id: supervisorId, userName: '李振华' });
    // the opening demo (SXGC-2026-1005, due ten minutes before the seed) is followed, not yet opened, unassigned
    const opening = records.find((r) => r.projectNo === 'SXGC-2026-1005');
    expect(opening).toMatchObject({ stage: 'opening', supervisor: null });
    // filters: mine, stage, keyword
    expect((await list(supervisor, { mine: true })).records.map((r) => r.sectionId)).toEqual([sectionId]);
    expect((await list(supervisor, { stage: 'evaluating' })).records.every((r) => r.stage === 'evaluating')).toBe(true);
    expect((await list(supervisor, { keyWord: '1006' })).records.map((r) => r.sectionId)).toEqual([sectionId]);
    expect((await list(admin, { keyWord: '不存在的项目' })).total).toBe(0);
  });

  it('refuses bad filters with 400 and changes nothing', async () => {
    expect((await c.post(P.list, supervisor, { stage: 'everything' })).status).toBe(400);
    expect((await c.post(P.list, supervisor, { pageSize: 500 })).status).toBe(400);
    expect((await c.post(P.list, supervisor, { sort: 'id; drop table users' })).status).toBe(400);
    expect((await c.post(P.view, supervisor, { sectionId: 'x' })).status).toBe(400);
  });
});

describe('anomalies and findings', () => {
  let key: string;

  it('alerts the supervisor to an expert who recuses, as an anomaly pending audit', async () => {
    const res = await c.post('/ks/trade/review/declare', zj5, {
      sectionId,
      conflict: true,
      text: '本人近三年曾在投标人处任职',
    });
    expect(res.status).toBe(200);
    const v = await view(supervisor);
    expect(v.anomalies).toHaveLength(1);
    expect(v.anomalies[0]).toMatchObject({ kind: 'recused', finding: null });
    key = v.anomalies[0]!.key;
    expect(v.row).toMatchObject({ anomalies: 1, pendingAnomalies: 1 });
    expect(v.actions).toEqual({ assign: true, revoke: true, audit: true, publish: [] });
    expect((await list(supervisor, { pending: true })).records.map((r) => r.sectionId)).toContain(sectionId);
  });

  it('refuses an unknown anomaly, a short opinion and an unknown verdict, writing nothing', async () => {
    const before = await db().select().from(supervisionFindings);
    const bad = await c.post(P.audit, supervisor, {
      sectionId,
      anomalyKey: 'recused:00000000-0000-0000-0000-000000000000',
      verdict: 'compliant',
      opinion: '核查无误，回避程序合规',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(MONITOR_MSG.anomalyMissing);
    expect(
      (await c.post(P.audit, supervisor, { sectionId, anomalyKey: key, verdict: 'compliant', opinion: '好' })).status,
    ).toBe(400);
    expect(
      (await c.post(P.audit, supervisor, { sectionId, anomalyKey: key, verdict: 'fine', opinion: '核查无误无误' }))
        .status,
    ).toBe(400);
    expect(await db().select().from(supervisionFindings)).toEqual(before);
  });

  it('records the assigned supervisor’s finding on the anomaly, in the log, once', async () => {
    const res = await c.post(P.audit, supervisor, {
      sectionId,
      anomalyKey: key,
      verdict: 'compliant',
      opinion: '经核查，该专家已如实申报回避，程序合规',
    });
    expect(res.status).toBe(200);
    const v = res.body.data as View;
    expect(v.anomalies[0]!.finding).toMatchObject({ verdict: 'compliant' });
    expect(v.row).toMatchObject({ pendingAnomalies: 0, findings: 1 });
    expect((await list(supervisor, { pending: true })).records.map((r) => r.sectionId)).not.toContain(sectionId);
    const again = await c.post(P.audit, supervisor, {
      sectionId,
      anomalyKey: key,
      verdict: 'rectify',
      opinion: '再次核查需要整改',
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(MONITOR_MSG.alreadyAudited);
    const [entry] = await db()
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.sectionId, sectionId))
      .orderBy(desc(ledgerEntries.seq))
      .limit(1);
    expect(entry!.kind).toBe('monitor.finding');
    expect(JSON.parse(entry!.payload)).toMatchObject({ anomalyKey: key, verdict: 'compliant' });
    expect((await verifyLedger(db())).intact).toBe(true);
    const [log] = await db()
      .select()
      .from(operationLogs)
      .where(eq(operationLogs.glName, '监督台'))
      .orderBy(desc(operationLogs.id))
      .limit(1);
    expect(log!.logbook).toContain('核查意见（合规）');
  });

  it('keeps a finding internal until published; publishing shows it in the room and tells the project’s side', async () => {
    const res = await c.post(P.audit, supervisor, {
      sectionId,
      verdict: 'rectify',
      opinion: '评标室视频监控未全程开启，请立即整改并补充说明',
    });
    expect(res.status).toBe(200);
    const v = res.body.data as View & { findings: { id: string; publishedAt: string | null }[] };
    expect(v.findings.map((f) => f.verdict)).toEqual(['rectify']);
    const id = v.findings[0]!.id;
    expect(v.findings[0]!.publishedAt).toBeNull();
    expect((v.actions as unknown as { publish: string[] }).publish).toContain(id);
    const [agentUser] = await db().select().from(users).where(eq(users.account, 'agent'));
    const told = async () =>
      (await db().select().from(userMessages).where(eq(userMessages.userId, agentUser!.id))).filter((m) =>
        m.body.includes('视频监控'),
      );
    const roomOf = async (token: string) =>
      (await c.get(`/ks/trade/review/result?sectionId=${sectionId}`, token)).body.data as {
        supervision: { opinion: string; verdictLabel: string; rectify: boolean }[];
      };
    // internal: the room shows nothing, nobody is told
    expect((await roomOf(agent)).supervision).toEqual([]);
    expect(await told()).toHaveLength(0);
    // only a supervisor or an administrator; a finding of another section is not found
    expect((await c.post(P.publish, user1, { sectionId, id })).status).toBe(403);
    const [other] = await db()
      .select({ id: tenderSections.id })
      .from(tenderSections)
      .where(ne(tenderSections.id, sectionId))
      .limit(1);
    expect((await c.post(P.publish, supervisor, { sectionId: other!.id, id })).status).toBe(404);
    const published = await c.post(P.publish, supervisor, { sectionId, id });
    expect(published.status).toBe(200);
    expect(
      (published.body.data as View & { findings: { publishedAt: string | null }[] }).findings[0]!.publishedAt,
    ).toBeTruthy();
    expect((await c.post(P.publish, supervisor, { sectionId, id })).status).toBe(409);
    // the room's 监督意见, to the host and the committee alike; the project's side told once
    for (const token of [agent, zj5]) {
      expect((await roomOf(token)).supervision).toEqual([
        expect.objectContaining({
          verdictLabel: '责令整改',
          rectify: true,
          opinion: '评标室视频监控未全程开启，请立即整改并补充说明',
        }),
      ]);
    }
    const messages = await told();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.title).toContain('监督意见（责令整改）');
    const kinds = (await db().select().from(ledgerEntries).where(eq(ledgerEntries.sectionId, sectionId))).map(
      (e) => e.kind,
    );
    expect(kinds).toContain('monitor.published');
  });
});

describe('assignment', () => {
  it('lets only the assigned supervisor or an administrator audit and revoke', async () => {
    // the administrator takes the section away from 李振华 with a reason
    const short = await c.post(P.revoke, admin, { sectionId, reason: '换' });
    expect(short.status).toBe(400);
    const res = await c.post(P.revoke, admin, { sectionId, reason: '监督人员工作调整' });
    expect(res.status).toBe(200);
    const v = res.body.data as View;
    expect(v.row.supervisor).toBeNull();
    expect(v.assignments[0]).toMatchObject({ revokeReason: '监督人员工作调整' });
    expect((await c.post(P.revoke, admin, { sectionId, reason: '监督人员工作调整' })).status).toBe(409);
    // no longer assigned: the supervisor may read but not audit
    const audit = await c.post(P.audit, supervisor, { sectionId, verdict: 'compliant', opinion: '核查无误，合规' });
    expect(audit.status).toBe(403);
    expect(audit.body.message).toBe(MONITOR_MSG.notYours);
    expect((await view(supervisor)).actions).toMatchObject({ assign: true, revoke: false, audit: false });
  });

  it('assigns only a holder of 监督查看, and tells the assignee', async () => {
    const [u1] = await db().select().from(users).where(eq(users.account, 'user1'));
    const wrong = await c.post(P.assign, admin, { sectionId, userId: u1!.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBeTruthy();
    expect((await view(admin)).candidates.map((x) => x.userName)).toEqual(['李振华']);
    const res = await c.post(P.assign, admin, { sectionId, userId: supervisorId });
    expect(res.status).toBe(200);
    expect((res.body.data as View).row.supervisor?.userName).toBe('李振华');
    expect((await c.post(P.assign, admin, { sectionId, userId: supervisorId })).status).toBe(409);
    const notes = await db().select().from(userMessages).where(eq(userMessages.userId, supervisorId));
    expect(notes.filter((m) => m.title.startsWith('监督任务')).length).toBeGreaterThanOrEqual(2);
    const kinds = (await db().select().from(ledgerEntries).where(eq(ledgerEntries.sectionId, sectionId))).map(
      (e) => e.kind,
    );
    expect(kinds.filter((k) => k === 'monitor.assigned')).toHaveLength(2);
    expect(kinds).toContain('monitor.revoked');
  });
});

describe('export', () => {
  it('answers the filtered console as xlsx to a supervisor, 403 to others', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${P.export}?keyWord=1006&mine=true`,
      headers: { authorization: `Bearer ${supervisor}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('监督台')!;
    expect(ws.rowCount).toBe(2);
    expect(ws.getRow(2).getCell(1).value).toBe('SXGC-2026-1006');
    expect(ws.getRow(2).getCell(13).value).toBe('李振华');
    const refused = await t.app.inject({
      method: 'GET',
      url: P.export,
      headers: { authorization: `Bearer ${user1}` },
    });
    expect(refused.statusCode).toBe(403);
    const bad = await t.app.inject({
      method: 'GET',
      url: `${P.export}?mine=perhaps`,
      headers: { authorization: `Bearer ${supervisor}` },
    });
    expect(bad.statusCode).toBe(400);
  });
});
