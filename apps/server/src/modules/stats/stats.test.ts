import {
  creditCodeCheckChar,
  DEFAULT_TIME_ZONE,
  dateIn,
  formatIn,
  STATS_MSG,
  TENDER_PROJECT_NODE,
} from '@ks/contracts';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs, roles, tenderRegistrations, todos, userRoles, users } from '../../db/schema';
import { requestMemo } from '../../platform/permissions';
import { AGENCY_ROLE } from '../../seed/shell';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import type { EngineCaller } from '../engine/record-access';
import { recordRow } from '../engine/records.repo';
import { saveRecord } from '../engine/records.service';
import { auditRecord, submitRecord } from '../engine/review.service';
import { otherEnterpriseUser } from '../files/testkit';
import { saveSection } from '../tender/tender.service';
import { exportParticipate } from './stats.service';

const DAY = 86_400_000;
const BASE = '/ks/task/v1';
let t: TestApp;
const c = client(() => t);
let admin: string;
let dev: string;
let user1: string;
/** a new enterprise (运城市) whose agency user enters the test's projects */
let side: { token: string; userId: string; enterpriseId: string };
let agent: EngineCaller;
let auditor: EngineCaller;

async function callerOf(account: string): Promise<EngineCaller> {
  const [u] = await t.database.db.select().from(users).where(eq(users.account, account));
  return {
    id: u!.id,
    loginRoleType: u!.loginRoleType,
    enterpriseId: u!.enterpriseId,
    actor: { userId: u!.id, userName: u!.userName, loginRoleType: u!.loginRoleType as 'U' },
    memo: requestMemo({}),
  };
}

const qs = (q: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(q).filter(([, v]) => v !== undefined) as [string, string][]).toString();

/** The month the test's sections open in (their deadlines lie 30 days ahead). */
let month: string;
let n = 0;
async function enterProject(opts: {
  type: string;
  city: string;
  district: string;
  estimates: number[];
  pass?: boolean;
  submit?: boolean;
}) {
  const db = t.database.db;
  n++;
  const saved = await saveRecord(
    db,
    agent,
    {
      gnCoding: TENDER_PROJECT_NODE,
      values: {
        xmmc: `统计测试项目${n}`,
        xmbh: `TJCS-2026-${String(n).padStart(3, '0')}-${Math.floor(Math.random() * 1e6)}`,
        xmlx: opts.type,
        zbfs: '公开招标',
        zbr: '统计测试招标人',
        zbrdm: `91140100MA0K8G2J7${''}`.slice(0, 17) + creditCodeCheckChar('91140100MA0K8G2J7'),
        xmszd: ['山西省', opts.city, opts.district],
        ztz: 10_000_000,
        zjly: '财政资金',
        lxr: '测试',
        lxdh: '13800000000',
      },
    },
    {},
  );
  const id = String(saved.id);
  const sectionIds: string[] = [];
  const now = t.clock.now;
  const day = (k: number) => dateIn(new Date(now.getTime() + k * DAY), DEFAULT_TIME_ZONE);
  for (const [i, estimate] of opts.estimates.entries()) {
    const s = await saveSection(
      db,
      agent,
      {
        projectId: id,
        code: `BD-0${i + 1}`,
        name: `第${i + 1}标段`,
        estimate,
        deposit: 0,
        docSaleStart: day(0),
        docSaleEnd: day(6),
        bidDeadline: new Date(`${day(30)}T09:30:00+08:00`).toISOString(),
      },
      now,
      DEFAULT_TIME_ZONE,
    );
    sectionIds.push(s.id);
  }
  const version = async () => Number((await recordRow(db, TENDER_PROJECT_NODE, id))!.version);
  if (opts.submit || opts.pass)
    await submitRecord(db, agent, { gnCoding: TENDER_PROJECT_NODE, id, version: await version() });
  if (opts.pass)
    await auditRecord(db, auditor, {
      gnCoding: TENDER_PROJECT_NODE,
      id,
      version: await version(),
      pass: true,
      suggestion: '同意',
    });
  return { id, sectionIds };
}

let passedA: { id: string; sectionIds: string[] };
let passedB: { id: string; sectionIds: string[] };
let waiting: { id: string; sectionIds: string[] };
let draft: { id: string; sectionIds: string[] };
let adminBefore: { count: number; amount: number };

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  [admin, dev, user1] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
  ]);
  side = await otherEnterpriseUser(t, 'tjagent');
  await db.execute(sql`update enterprises set region = '运城市' where id = ${side.enterpriseId}`);
  const [agency] = await db.select().from(roles).where(eq(roles.code, AGENCY_ROLE));
  await db.insert(userRoles).values({ userId: side.userId, roleId: agency!.id });
  agent = await callerOf('tjagent');
  auditor = await callerOf('auditor');
  month = formatIn(new Date(t.clock.now.getTime() + 30 * DAY), 'YYYY-MM', DEFAULT_TIME_ZONE);
  const before = await c.get(`${BASE}/statistics/transactions?${qs({ startMonth: month, endMonth: month })}`, admin);
  adminBefore = before.body.data.total;
  passedA = await enterProject({
    type: '公路工程',
    city: '运城市',
    district: '盐湖区',
    estimates: [1_000_000.5, 2_000_000],
    pass: true,
  });
  passedB = await enterProject({
    type: '水利水电工程',
    city: '忻州市',
    district: '忻府区',
    estimates: [3_000_000],
    pass: true,
  });
  waiting = await enterProject({
    type: '公路工程',
    city: '运城市',
    district: '盐湖区',
    estimates: [7_000_000],
    submit: true,
  });
  draft = await enterProject({ type: '公路工程', city: '运城市', district: '盐湖区', estimates: [9_000_000] });
});
afterAll(async () => t?.close());

/** Sessions seen at a moved clock idle out when it moves back: sign everyone in again. */
async function relogin() {
  [admin, dev, user1, side.token] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'tjagent', 'U'),
  ]);
}

describe('交易统计 (transactions)', () => {
  it('counts the sections of passed projects by type, region and month, for the enterprise exactly its own', async () => {
    const r = await c.get(`${BASE}/statistics/transactions?${qs({ startMonth: month, endMonth: month })}`, side.token);
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.total).toEqual({ count: 3, amount: 6_000_000.5 });
    expect(d.byType).toEqual([
      { name: '公路工程', count: 2, amount: 3_000_000.5 },
      { name: '水利水电工程', count: 1, amount: 3_000_000 },
    ]);
    expect(d.byRegion).toEqual(
      expect.arrayContaining([
        { name: '运城市', count: 2, amount: 3_000_000.5 },
        { name: '忻州市', count: 1, amount: 3_000_000 },
      ]),
    );
    expect(d.byMonth).toEqual([{ month, count: 3, amount: 6_000_000.5 }]);
    expect(d.regions).toEqual(expect.arrayContaining(['运城市', '忻州市']));
    // administrators and developers: everything, the test's three more than before
    for (const token of [admin, dev]) {
      const a = await c.get(`${BASE}/statistics/transactions?${qs({ startMonth: month, endMonth: month })}`, token);
      expect(a.body.data.total.count).toBe(adminBefore.count + 3);
      expect(a.body.data.total.amount).toBeCloseTo(adminBefore.amount + 6_000_000.5, 2);
    }
    // another enterprise sees none of them
    const u = await c.get(
      `${BASE}/statistics/transaction-list?${qs({ startMonth: month, endMonth: month, pageSize: 50 })}`,
      user1,
    );
    const ids = u.body.data.records.map((x: { sectionId: string }) => x.sectionId);
    for (const id of [...passedA.sectionIds, ...passedB.sectionIds]) expect(ids).not.toContain(id);
  });

  it('filters by region and type, and drills down to exactly the sections behind a number', async () => {
    const f = { startMonth: month, endMonth: month, region: '运城市' };
    const r = await c.get(`${BASE}/statistics/transactions?${qs(f)}`, side.token);
    expect(r.body.data.total).toEqual({ count: 2, amount: 3_000_000.5 });
    const list = await c.get(
      `${BASE}/statistics/transaction-list?${qs({ ...f, type: '公路工程', month })}`,
      side.token,
    );
    expect(list.status).toBe(200);
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.records.map((x: { sectionId: string }) => x.sectionId).sort()).toEqual(
      [...passedA.sectionIds].sort(),
    );
    expect(list.body.data.records[0]).toMatchObject({ type: '公路工程', region: '运城市', month });
    const none = await c.get(`${BASE}/statistics/transaction-list?${qs({ ...f, type: '园林绿化工程' })}`, side.token);
    expect(none.body.data).toEqual({ records: [], total: 0 });
    // the admin's drill-down of the same bar holds them too, paged
    const all = await c.get(
      `${BASE}/statistics/transaction-list?${qs({ ...f, type: '公路工程', pageSize: 50 })}`,
      admin,
    );
    const ids = all.body.data.records.map((x: { sectionId: string }) => x.sectionId);
    for (const id of passedA.sectionIds) expect(ids).toContain(id);
    // a waiting or draft project is no transaction
    for (const id of [...waiting.sectionIds, ...draft.sectionIds]) expect(ids).not.toContain(id);
  });

  it('follows a section changed or deleted in the same transaction', async () => {
    const db = t.database.db;
    await db.execute(sql`update tender_sections set estimate = 500000 where id = ${passedB.sectionIds[0]!}`);
    const r = await c.get(
      `${BASE}/statistics/transactions?${qs({ startMonth: month, endMonth: month, region: '忻州市' })}`,
      side.token,
    );
    expect(r.body.data.total).toEqual({ count: 1, amount: 500_000 });
    await db.execute(sql`update tender_sections set estimate = 3000000 where id = ${passedB.sectionIds[0]!}`);
  });

  it('refuses a bad month, a reversed period, a bad page size and the anonymous', async () => {
    const bad = await c.get(`${BASE}/statistics/transactions?startMonth=2026-13`, admin);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain(STATS_MSG.badMonth);
    const rev = await c.get(`${BASE}/statistics/transactions?startMonth=2026-05&endMonth=2026-01`, admin);
    expect(rev.status).toBe(400);
    expect(JSON.stringify(rev.body)).toContain(STATS_MSG.monthOrder);
    const size = await c.get(`${BASE}/statistics/transaction-list?pageSize=15`, admin);
    expect(size.status).toBe(400);
    const anon = await c.get(`${BASE}/statistics/transactions`, null);
    expect(anon.status).toBe(401);
  });
});

describe('办件统计 (complete-count)', () => {
  it('counts engine records per node and state; the enterprise only its own; drills down by state', async () => {
    const r = await c.get(`${BASE}/statistics/complete-count`, side.token);
    expect(r.status).toBe(200);
    const row = r.body.data.rows.find((x: { gnCoding: string }) => x.gnCoding === TENDER_PROJECT_NODE);
    expect(row).toMatchObject({ draft: 1, pending: 1, passed: 2, rejected: 0, total: 4 });
    const others = r.body.data.rows.filter((x: { gnCoding: string }) => x.gnCoding !== TENDER_PROJECT_NODE);
    expect(others.every((x: { total: number }) => x.total === 0)).toBe(true);
    const a = await c.get(`${BASE}/statistics/complete-count`, admin);
    const arow = a.body.data.rows.find((x: { gnCoding: string }) => x.gnCoding === TENDER_PROJECT_NODE);
    expect(arow.passed).toBeGreaterThanOrEqual(2 + 2);
    const list = await c.get(
      `${BASE}/statistics/complete-list?${qs({ gnCoding: TENDER_PROJECT_NODE, status: 'passed' })}`,
      side.token,
    );
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.records.map((x: { id: string }) => x.id).sort()).toEqual([passedA.id, passedB.id].sort());
    expect(list.body.data.records[0].status).toBe('已通过');
    expect(list.body.data.records[0].businessName).toContain('统计测试项目');
    const missing = await c.get(`${BASE}/statistics/complete-list?gnCoding=NO_SUCH_NODE`, admin);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(STATS_MSG.noNode);
    const injected = await c.get(
      `${BASE}/statistics/complete-list?gnCoding=${encodeURIComponent('x";drop table users;--')}`,
      admin,
    );
    expect(injected.status).toBe(404);
  });
});

describe('办理进度 (progress) and its setting', () => {
  it('shows the waiting application at its level, overdue after the limit, only to its enterprise and the centre', async () => {
    const r = await c.get(`${BASE}/statistics/progress`, side.token);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ overdueHours: 72, pending: 1, overdue: 0 });
    const lvl = r.body.data.levels.find((x: { gnCoding: string; pending: number }) => x.pending === 1);
    expect(lvl).toMatchObject({ gnCoding: TENDER_PROJECT_NODE, level: 1 });
    // the two passes of the test took their time at level 1
    const decided = r.body.data.levels.find((x: { level: number }) => x.level === 1);
    expect(decided.decided).toBe(2);
    const list = await c.get(`${BASE}/statistics/progress-list`, side.token);
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.records[0]).toMatchObject({ recordId: waiting.id, level: 1, overdue: false });
    // user1's enterprise does not see it
    const other = await c.get(`${BASE}/statistics/progress-list?pageSize=50`, user1);
    expect(other.body.data.records.map((x: { recordId: string }) => x.recordId)).not.toContain(waiting.id);
    t.clock.advance(73 * 3_600_000);
    try {
      // a session of the later moment (the first one idled out meanwhile)
      const later = await loginToken(t.app, 'tjagent', 'U');
      const late = await c.get(`${BASE}/statistics/progress`, later);
      expect(late.body.data).toMatchObject({ pending: 1, overdue: 1 });
      const only = await c.get(`${BASE}/statistics/progress-list?overdue=1`, later);
      expect(only.body.data.records[0]).toMatchObject({ recordId: waiting.id, overdue: true });
      const notLate = await c.get(`${BASE}/statistics/progress-list?overdue=0`, later);
      expect(notLate.body.data.total).toBe(0);
    } finally {
      t.clock.advance(-73 * 3_600_000);
      await relogin();
    }
  });

  it('lets only administrators change the overdue limit, validated and logged', async () => {
    expect((await c.post(`${BASE}/statistics/settings`, side.token, { overdueHours: 24 })).status).toBe(403);
    expect((await c.post(`${BASE}/statistics/settings`, dev, { overdueHours: 24 })).status).toBe(403);
    const bad = await c.post(`${BASE}/statistics/settings`, admin, { overdueHours: 0 });
    expect(bad.status).toBe(400);
    const ok = await c.post(`${BASE}/statistics/settings`, admin, { overdueHours: 1 });
    expect(ok.status).toBe(200);
    expect((await c.get(`${BASE}/statistics/settings`, user1)).body.data).toEqual({ overdueHours: 1 });
    t.clock.advance(2 * 3_600_000);
    try {
      const later = await loginToken(t.app, 'tjagent', 'U');
      expect((await c.get(`${BASE}/statistics/progress`, later)).body.data.overdue).toBe(1);
    } finally {
      t.clock.advance(-2 * 3_600_000);
      await relogin();
    }
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.glName, '统计分析'));
    expect(logs.some((l) => l.logbook.includes('72 小时 → 1 小时'))).toBe(true);
    await c.post(`${BASE}/statistics/settings`, admin, { overdueHours: 72 });
  });
});

describe('待办统计 (todo-statistics)', () => {
  const testTodos = async () =>
    t.database.db
      .select()
      .from(todos)
      .where(inArray(todos.recordId, [passedA.id, passedB.id, waiting.id]));

  it('todo-list, region and enterprise count exactly the to-dos of the enterprise’s records', async () => {
    const rows = await testTodos();
    const open = rows.filter((r) => !r.doneAt).length;
    const done = rows.length - open;
    expect(open).toBeGreaterThan(0);
    expect(done).toBeGreaterThan(0);
    const list = await c.get(`${BASE}/todo-statistics/todo-list`, side.token);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({ gnCoding: TENDER_PROJECT_NODE, open, done, total: open + done }),
    ]);
    const region = await c.get(`${BASE}/todo-statistics/region`, side.token);
    expect(region.body.data).toEqual([{ region: '运城市', open, done, total: open + done }]);
    const ent = await c.get(`${BASE}/todo-statistics/enterprise`, side.token);
    expect(ent.body.data).toEqual({
      total: 1,
      records: [
        {
          enterpriseId: side.enterpriseId,
          enterpriseName: 'tjagent 公司',
          region: '运城市',
          open,
          done,
          total: open + done,
        },
      ],
    });
    // the centre sees this enterprise among all
    const all = await c.get(`${BASE}/todo-statistics/enterprise?pageSize=50`, admin);
    expect(all.body.data.records).toContainEqual(
      expect.objectContaining({ enterpriseId: side.enterpriseId, open, done }),
    );
    const byRegion = await c.get(`${BASE}/todo-statistics/region?region=${encodeURIComponent('运城市')}`, admin);
    expect(byRegion.body.data[0].open).toBeGreaterThanOrEqual(open);
    // user1 sees none of these
    const u = await c.get(`${BASE}/todo-statistics/enterprise`, user1);
    expect(u.body.data.records.map((x: { enterpriseId: string }) => x.enterpriseId)).not.toContain(side.enterpriseId);
  });

  it('drills down to exactly the to-dos behind a count', async () => {
    const rows = await testTodos();
    const open = rows.filter((r) => !r.doneAt).map((r) => r.id);
    const r = await c.get(
      `${BASE}/todo-statistics/todo-records?${qs({ gnCoding: TENDER_PROJECT_NODE, state: 'open', pageSize: 50 })}`,
      side.token,
    );
    expect(r.body.data.total).toBe(open.length);
    expect(r.body.data.records.map((x: { id: string }) => x.id).sort()).toEqual(open.sort());
    expect(r.body.data.records[0]).toMatchObject({ enterpriseName: 'tjagent 公司', region: '运城市' });
    const adm = await c.get(
      `${BASE}/todo-statistics/todo-records?${qs({ enterpriseId: side.enterpriseId, pageSize: 50 })}`,
      admin,
    );
    expect(adm.body.data.total).toBe(rows.length);
    // another enterprise naming this one gets nothing
    const u = await c.get(`${BASE}/todo-statistics/todo-records?${qs({ enterpriseId: side.enterpriseId })}`, user1);
    expect(u.body.data).toEqual({ total: 0, records: [] });
  });

  it('a decision moves a to-do from open to done in the summaries at once', async () => {
    const before = (await c.get(`${BASE}/todo-statistics/todo-list`, side.token)).body.data[0];
    const db = t.database.db;
    const version = Number((await recordRow(db, TENDER_PROJECT_NODE, waiting.id))!.version);
    await auditRecord(db, auditor, {
      gnCoding: TENDER_PROJECT_NODE,
      id: waiting.id,
      version,
      pass: false,
      suggestion: '材料不全',
    });
    const after = (await c.get(`${BASE}/todo-statistics/todo-list`, side.token)).body.data[0];
    const open = await db
      .select()
      .from(todos)
      .where(and(eq(todos.recordId, waiting.id), isNull(todos.doneAt)));
    expect(open).toHaveLength(0);
    expect(after.open).toBe(0);
    expect(after.done).toBe(before.done + before.open);
    const cc = await c.get(`${BASE}/statistics/complete-count`, side.token);
    expect(cc.body.data.rows.find((x: { gnCoding: string }) => x.gnCoding === TENDER_PROJECT_NODE)).toMatchObject({
      pending: 0,
      rejected: 1,
    });
  });
});

describe('参与交易企业 (participate-ent-list, export-participate-list)', () => {
  let bidders: { token: string; userId: string; enterpriseId: string }[];
  beforeAll(async () => {
    const db = t.database.db;
    bidders = [await otherEnterpriseUser(t, 'tjbid1'), await otherEnterpriseUser(t, 'tjbid2')];
    const reg = (s: string, b: { userId: string; enterpriseId: string }) => ({
      sectionId: s,
      enterpriseId: b.enterpriseId,
      userId: b.userId,
      contact: '联系人',
      phone: '13800000001',
      registeredAt: t.clock.now,
    });
    await db.insert(tenderRegistrations).values([
      reg(passedA.sectionIds[0]!, bidders[0]!),
      reg(passedA.sectionIds[1]!, bidders[0]!),
      reg(passedB.sectionIds[0]!, bidders[0]!),
      reg(passedA.sectionIds[0]!, bidders[1]!),
      // a section that is no transaction does not count
      reg(draft.sectionIds[0]!, bidders[1]!),
    ]);
  });

  it('lists the participating enterprises with their sections and amounts, filtered, sorted and scoped', async () => {
    const f = { startMonth: month, endMonth: month, keyword: 'tjbid' };
    const r = await c.get(`${BASE}/todo-statistics/participate-ent-list?${qs(f)}`, admin);
    expect(r.status).toBe(200);
    expect(r.body.data.total).toBe(2);
    expect(r.body.data.records).toEqual([
      expect.objectContaining({ enterpriseId: bidders[0]!.enterpriseId, sections: 3, amount: 6_000_000.5 }),
      expect.objectContaining({ enterpriseId: bidders[1]!.enterpriseId, sections: 1, amount: 1_000_000.5 }),
    ]);
    const asc = await c.get(
      `${BASE}/todo-statistics/participate-ent-list?${qs({ ...f, sortField: 'amount', order: 'asc' })}`,
      admin,
    );
    expect(asc.body.data.records[0].enterpriseId).toBe(bidders[1]!.enterpriseId);
    const region = await c.get(`${BASE}/todo-statistics/participate-ent-list?${qs({ ...f, region: '忻州市' })}`, admin);
    expect(region.body.data.records).toEqual([expect.objectContaining({ sections: 1, amount: 3_000_000 })]);
    const own = await c.get(
      `${BASE}/todo-statistics/participate-ent-list?${qs({ startMonth: month, endMonth: month })}`,
      bidders[1]!.token,
    );
    expect(own.body.data).toEqual({
      total: 1,
      records: [expect.objectContaining({ enterpriseId: bidders[1]!.enterpriseId })],
    });
    const badSort = await c.get(`${BASE}/todo-statistics/participate-ent-list?sortField=name;drop`, admin);
    expect(badSort.status).toBe(400);
    // the summary follows a registration withdrawn, in the same transaction
    const db = t.database.db;
    await db
      .delete(tenderRegistrations)
      .where(
        and(
          eq(tenderRegistrations.sectionId, passedB.sectionIds[0]!),
          eq(tenderRegistrations.enterpriseId, bidders[0]!.enterpriseId),
        ),
      );
    const after = await c.get(`${BASE}/todo-statistics/participate-ent-list?${qs(f)}`, admin);
    expect(after.body.data.records[0]).toMatchObject({
      enterpriseId: bidders[0]!.enterpriseId,
      sections: 2,
      amount: 3_000_000.5,
    });
    await db.insert(tenderRegistrations).values({
      sectionId: passedB.sectionIds[0]!,
      enterpriseId: bidders[0]!.enterpriseId,
      userId: bidders[0]!.userId,
      contact: '联系人',
      phone: '13800000001',
      registeredAt: t.clock.now,
    });
  });

  it('exports them as xlsx streamed batch by batch, each enterprise seeing only itself', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${BASE}/todo-statistics/export-participate-list`,
      headers: { authorization: `Bearer ${admin}` },
      payload: { startMonth: month, endMonth: month, keyword: 'tjbid' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(1).value).toBe('企业名称');
    expect(ws.rowCount).toBe(3);
    const names = [ws.getRow(2).getCell(1).value, ws.getRow(3).getCell(1).value].sort();
    expect(names).toEqual(['tjbid1 公司', 'tjbid2 公司']);
    // the service reads in batches (keyset) and writes each row as it comes: with a batch of one, three reads
    const sizes: number[] = [];
    const file = await exportParticipate(
      { db: t.database.db, now: () => t.clock.now, tz: DEFAULT_TIME_ZONE },
      {
        id: 'x',
        loginRoleType: 'M',
        enterpriseId: null,
        actor: { userId: null, userName: '测试', loginRoleType: 'M' },
      },
      { startMonth: month, endMonth: month, keyword: 'tjbid' },
      { batch: 1, onBatch: (k) => sizes.push(k) },
    );
    const chunks: Buffer[] = [];
    for await (const chunk of file.stream) chunks.push(chunk as Buffer);
    expect(sizes).toEqual([1, 1, 0]);
    const again = new ExcelJS.Workbook();
    await again.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    expect(again.worksheets[0]!.rowCount).toBe(3);
    // an enterprise exports only itself
    const own = await t.app.inject({
      method: 'POST',
      url: `${BASE}/todo-statistics/export-participate-list`,
      headers: { authorization: `Bearer ${bidders[0]!.token}` },
      payload: { startMonth: month, endMonth: month },
    });
    const ob = new ExcelJS.Workbook();
    await ob.xlsx.load(own.rawPayload as unknown as ArrayBuffer);
    expect(ob.worksheets[0]!.rowCount).toBe(2);
    expect(ob.worksheets[0]!.getRow(2).getCell(1).value).toBe('tjbid1 公司');
    const bad = await t.app.inject({
      method: 'POST',
      url: `${BASE}/todo-statistics/export-participate-list`,
      headers: { authorization: `Bearer ${admin}` },
      payload: { startMonth: '2026-1' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the demo history', () => {
  it('gives the charts 2026 across Shanxi regions; user1 sees its enterprise’s own history only', async () => {
    const db = t.database.db;
    const [h] = (
      (await db.execute(
        sql`select count(*)::int as n, count(*) filter (where enterprise_id = (select enterprise_id from users where account = 'user1'))::int as mine,
              min(to_char(opened_at at time zone 'Asia/Shanghai', 'YYYY-MM')) as first,
              max(to_char(opened_at at time zone 'Asia/Shanghai', 'YYYY-MM')) as last
            from stats_imported_transactions`,
      )) as unknown as { rows: { n: number; mine: number; first: string; last: string }[] }
    ).rows;
    expect(h!.n).toBeGreaterThan(8);
    expect(h!.mine).toBeGreaterThan(0);
    const period = { startMonth: h!.first, endMonth: h!.last };
    const r = await c.get(`${BASE}/statistics/transactions?${qs(period)}`, admin);
    expect(r.body.data.total.count).toBeGreaterThanOrEqual(h!.n);
    expect(r.body.data.byRegion.length).toBeGreaterThanOrEqual(3);
    expect(r.body.data.byType.length).toBeGreaterThanOrEqual(3);
    const u = await c.get(`${BASE}/statistics/transactions?${qs(period)}`, user1);
    expect(u.body.data.total.count).toBe(h!.mine);
  });
});
