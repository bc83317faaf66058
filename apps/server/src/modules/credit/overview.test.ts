import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditConductRecords, creditGrades, enterprises, operationLogs, practitioners } from '../../db/schema';
import { DEMO_CREDIT_CODE } from '../../seed/demo';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { otherEnterpriseUser } from '../files/testkit';
import { creditClient, P } from './testkit';

/**
 * What the credit pages read: the left tree, the management header and charts, subjects and their information, the
 * rules, the options and pull-downs, commitment letters and the export.
 */

let t: TestApp;
const api = creditClient(() => t);
const db = () => t.database.db;
let admin: string;
let user1: string;
let dev: string;
let demoId: string;

beforeAll(async () => {
  t = await createTestApp({ env: { SINGLE_SESSION: '0' } });
  [admin, user1, dev] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'dev', 'D'),
  ]);
  demoId = (await db().select().from(enterprises).where(eq(enterprises.creditCode, DEMO_CREDIT_CODE)))[0]!.id;
  // records waiting for review: the published decisions of an enterprise the demo has not retrieved yet
  const [pending] = (
    (await db().execute(sql`select d.owner_id from credit_records d
      where d.owner_kind = 'enterprise' and d.is_public and d.end_date >= current_date
        and not exists (select 1 from credit_conduct_records r where r.source_ref = d.id::text)
      group by d.owner_id order by d.owner_id limit 1`)) as unknown as { rows: { owner_id: string }[] }
  ).rows;
  const retrieved = await api.post(P.retrieve, admin, { subjectKind: 'enterprise', subjectId: pending!.owner_id });
  expect(retrieved.body.data.created.length).toBeGreaterThan(0);
});
afterAll(async () => t?.close());

describe('left tree (screen 20)', () => {
  it('an enterprise sees its own score in the header and its records’ badges and points under each item', async () => {
    const r = await api.post(P.tree, user1, {});
    expect(r.status).toBe(200);
    const tree = r.body.data;
    expect(tree).toMatchObject({ nodeName: '示例建设工程有限公司', score: 88.5, level: 'AA', badgeOf: 'records' });
    const leaves = tree.children.flatMap((g: { children: unknown[] }) => g.children);
    const records = await db().select().from(creditConductRecords).where(eq(creditConductRecords.subjectId, demoId));
    expect(leaves.reduce((s: number, l: { badge: number }) => s + l.badge, 0)).toBe(
      records.filter((x) => x.status !== 'revoked').length,
    );
    // good items add, bad items take away: together with the base they make the score
    const points = leaves.reduce((s: number, l: { score: number }) => s + l.score, 0);
    expect(80 + points).toBeCloseTo(88.5, 5);
    for (const g of tree.children) {
      expect(g.primaryKey).toBe(`${g.conduct}:${g.xxGrouping}`);
      expect(g.badge).toBe(g.children.reduce((s: number, l: { badge: number }) => s + l.badge, 0));
      for (const l of g.children) expect(l.conduct).toBe(g.conduct);
    }
    // person items are not an enterprise's
    expect(leaves.some((l: { nodeName: string }) => l.nodeName.includes('项目经理'))).toBe(false);
  });

  it('reviewers without a subject see what waits for review under each item', async () => {
    const tree = (await api.post(P.tree, admin, {})).body.data;
    expect(tree).toMatchObject({ badgeOf: 'waiting', score: null });
    const waiting = await db().select().from(creditConductRecords).where(eq(creditConductRecords.status, 'submitted'));
    const badges = tree.children.reduce((s: number, g: { badge: number }) => s + g.badge, 0);
    expect(badges).toBe(waiting.length);
    expect(badges).toBeGreaterThan(0);
  });
});

describe('management header and charts', () => {
  it('counts subjects per level and what waits, for reviewers and developers only', async () => {
    expect((await api.post(P.topTitles, user1, {})).status).toBe(403);
    const r = (await api.post(P.topTitles, dev, {})).body.data;
    const grades = await db().select().from(creditGrades);
    expect(r.levels.map((l: { title: string }) => l.title)).toEqual(['AAA', 'AA', 'A', 'B', 'C']);
    expect(r.levels.reduce((s: number, l: { enterprises: number }) => s + l.enterprises, 0)).toBe(
      grades.filter((g) => g.subjectKind === 'enterprise').length,
    );
    expect(r.levels.reduce((s: number, l: { persons: number }) => s + l.persons, 0)).toBe(
      grades.filter((g) => g.subjectKind === 'person').length,
    );
    expect(r.levels[0]).toMatchObject({ minScore: 90, maxScore: null });
    const waiting = r.totals.find((x: { key: string }) => x.key === 'waiting').value;
    expect(waiting).toBeGreaterThan(0);
  });

  it('the grade distribution adds up and the trend has twelve months', async () => {
    const r = (await api.post(P.overview, admin, { subjectKind: 'enterprise' })).body.data;
    expect(r).toMatchObject({ subjectKind: 'enterprise', subjects: 37, graded: 37 });
    expect(r.distribution.reduce((s: number, d: { count: number }) => s + d.count, 0)).toBe(37);
    for (const d of r.distribution) expect(d.count).toBeGreaterThan(0);
    expect(r.trend).toHaveLength(12);
    expect(r.trend.reduce((s: number, m: { good: number; bad: number }) => s + m.good + m.bad, 0)).toBeGreaterThan(0);
    expect(r.averageScore).toBeGreaterThan(60);
    expect((await api.post(P.overview, user1, {})).status).toBe(403);
  });
});

describe('subjects', () => {
  it('an enterprise lists itself and its persons; administrators list everyone, filtered', async () => {
    const own = (await api.post(P.list, user1, { subjectKind: 'enterprise' })).body.data;
    expect(own.total).toBe(1);
    expect(own.records[0]).toMatchObject({ id: demoId, grade: { score: 88.5, level: 'AA' } });
    const persons = (await api.post(P.list, user1, { subjectKind: 'person' })).body.data;
    expect(persons.total).toBeGreaterThan(0);
    for (const p of persons.records) expect(p.enterpriseId).toBe(demoId);
    const all = (await api.post(P.list, admin, { subjectKind: 'enterprise', pageSize: 50 })).body.data;
    expect(all.total).toBe(37);
    const scores = all.records.map((x: { grade: { score: number } }) => x.grade.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const c = (await api.post(P.list, admin, { subjectKind: 'enterprise', level: 'C' })).body.data;
    for (const x of c.records) expect(x.grade.level).toBe('C');
    const kw = (await api.post(P.list, admin, { subjectKind: 'enterprise', keyword: DEMO_CREDIT_CODE })).body.data;
    expect(kw.records.map((x: { id: string }) => x.id)).toEqual([demoId]);
  });

  it('one subject’s information: grade, thresholds, record counts', async () => {
    const r = (await api.post(P.info, user1, {})).body.data;
    expect(r.subject).toMatchObject({ kind: 'enterprise', id: demoId, code: DEMO_CREDIT_CODE, type: '施工企业' });
    expect(r.grade).toMatchObject({ baseScore: 80, score: 88.5, level: 'AA' });
    expect(r.levels).toHaveLength(5);
    const n = await db().select().from(creditConductRecords).where(eq(creditConductRecords.subjectId, demoId));
    expect(Object.values(r.counts as Record<string, number>).reduce((s, x) => s + x, 0)).toBe(n.length);
    const person = (await db().select().from(practitioners).where(eq(practitioners.enterpriseId, demoId)))[0]!;
    const pInfo = await api.get(`${P.personnel}?id=${person.id}`, user1);
    expect(pInfo.body!.data).toMatchObject({ id: person.id, enterpriseName: '示例建设工程有限公司' });
    expect(pInfo.body!.data.grade.level).toBe(person.creditGrade);
  });
});

describe('rules and options', () => {
  it('describes the scoring from the settings', async () => {
    const r = (await api.get(P.description, user1)).body!.data;
    expect(r.baseScore).toBe(80);
    expect(r.rules[0]).toBe('信用分 = 基础分 80 分 + 有效的良好行为记录分值 − 有效的不良行为记录分值，最低为 0 分。');
    expect(r.rules[3]).toBe('信用等级：AAA 90 分及以上；AA 80–90 分；A 70–80 分；B 60–70 分；C 0–60 分。');
    expect(r.standards).toBe(28);
  });

  it('options of the management pages; enterprise types with counts', async () => {
    expect((await api.get(P.selectType, user1)).status).toBe(403);
    const s = (await api.get(P.selectType, admin)).body!.data;
    expect(s.statuses.map((x: { label: string }) => x.label)).toEqual(['草稿', '待审核', '已通过', '已驳回', '已撤销']);
    const fswq = s.groups
      .flatMap((g: { children: { label: string; highest: number; validityMonths: number }[] }) => g.children)
      .find((x: { label: string }) => x.label.includes('汾水杯'));
    expect(fswq).toMatchObject({ highest: 10, validityMonths: 24 });
    const types = (await api.post(P.qyTypes, user1, {})).body.data;
    expect(types.reduce((sum: number, x: { count: number }) => sum + x.count, 0)).toBe(37);
  });

  it('pull-downs: an enterprise sees only itself and its persons; cost engineers are of an enterprise', async () => {
    const mine = (await api.get(P.entPullDown, user1)).body!.data;
    expect(mine).toEqual([{ label: '示例建设工程有限公司', value: demoId, creditCode: DEMO_CREDIT_CODE, level: 'AA' }]);
    const many = (await api.get(`${P.entPullDown}?keyword=山西`, admin)).body!.data;
    expect(many.length).toBeGreaterThan(1);
    const people = (await api.get(P.personal, user1)).body!.data;
    expect(people.length).toBeGreaterThan(0);
    for (const p of people) expect(p.enterpriseName).toBe('示例建设工程有限公司');
    const [costEnt] = await db()
      .select({ id: practitioners.enterpriseId })
      .from(practitioners)
      .where(eq(practitioners.practiceArea, '一级注册造价工程师'))
      .limit(1);
    if (costEnt) {
      const ce = (await api.get(`${P.costEngineers}?enterpriseId=${costEnt.id}`, admin)).body!.data;
      expect(ce.length).toBeGreaterThan(0);
      for (const p of ce) expect(p.practiceArea).toContain('造价工程师');
    }
    expect(
      (await api.get(P.costEngineers, user1)).body!.data.every((p: { practiceArea: string }) =>
        p.practiceArea.includes('造价工程师'),
      ),
    ).toBe(true);
  });
});

describe('commitment letters', () => {
  it('an enterprise signs once; the text names it; administrators list who signed', async () => {
    const before = await api.get(P.participated, user1);
    expect(before.body!.data).toMatchObject({ enterpriseId: demoId, graded: true, letterSigned: false, level: 'AA' });
    const draft = (await api.post(P.letter, user1, {})).body.data;
    expect(draft).toMatchObject({ signed: false, creditCode: DEMO_CREDIT_CODE });
    expect(draft.content).toContain(`本单位示例建设工程有限公司（统一社会信用代码：${DEMO_CREDIT_CODE}）`);
    expect((await api.post(P.sign, admin, {})).status).toBe(403);
    const signed = await api.post(P.sign, user1, {});
    expect(signed.body.data).toMatchObject({ signed: true, signerName: '张建国' });
    const again = await api.post(P.sign, user1, {});
    expect([again.status, again.body.message]).toEqual([409, '信用承诺书已签署']);
    expect((await api.get(P.participated, user1)).body!.data.letterSigned).toBe(true);
    const list = (await api.post(P.letters, admin, { signed: true })).body.data;
    expect(list.records.map((x: { enterpriseId: string }) => x.enterpriseId)).toEqual([demoId]);
    expect((await api.post(P.letters, user1, {})).status).toBe(403);
    const logs = await db()
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.glName, '信用承诺书'), eq(operationLogs.recordId, demoId)));
    expect(logs).toHaveLength(1);
  });

  it('another enterprise’s letter is not theirs to read', async () => {
    const other = await otherEnterpriseUser(t, 'letter_other');
    expect((await api.post(P.letter, other.token, { enterpriseId: demoId })).status).toBe(404);
    expect((await api.post(P.letter, admin, { enterpriseId: demoId })).body.data.signed).toBe(true);
  });
});

describe('export', () => {
  const xlsx = async (token: string, body: object) => {
    const res = await t.app.inject({
      method: 'POST',
      url: P.exportXlsx,
      headers: { authorization: `Bearer ${token}` },
      payload: body,
    });
    return res;
  };
  const rowsOf = async (buf: Buffer) => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  };

  it('grades of every enterprise for administrators, of its own for an enterprise; logged', async () => {
    const res = await xlsx(admin, { type: 'grades', subjectKind: 'enterprise' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(String(res.headers['content-disposition'])).toContain(
      "filename*=UTF-8''%E4%BC%81%E4%B8%9A%E4%BF%A1%E7%94%A8%E7%AD%89%E7%BA%A7_",
    );
    const rows = await rowsOf(res.rawPayload);
    expect(rows[0]).toEqual([
      '企业名称',
      '统一社会信用代码',
      '企业类型',
      '信用分',
      '信用等级',
      '良好行为加分',
      '不良行为扣分',
      '评定时间',
      '有效至',
    ]);
    const count = (await db().select().from(enterprises)).length;
    expect(rows).toHaveLength(count + 1);
    const own = await rowsOf((await xlsx(user1, { type: 'records' })).rawPayload);
    const n = await db().select().from(creditConductRecords).where(eq(creditConductRecords.enterpriseId, demoId));
    expect(own).toHaveLength(n.length + 1);
    const logs = await db().select().from(operationLogs).where(eq(operationLogs.glName, '信用等级'));
    expect(logs.some((l) => l.logbook === `导出企业信用等级 ${count} 条`)).toBe(true);
  });
});
