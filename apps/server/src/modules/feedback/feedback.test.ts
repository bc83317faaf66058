import { FEEDBACK_MESSAGES, FEEDBACK_QUESTIONNAIRES } from '@ks/contracts';
import { and, count, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedbackScores, feedbackSubmissions, operationLogs, users } from '../../db/schema';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';

/**
 * Feedback surveys through the API (screen 24): stored with the user and the service's time, the text only when it is
 * not blank; ratings outside 1–5 and unknown or repeated questions are a 400 that stores nothing; only administrators
 * read the results (averages, distribution, texts by date) and export them (logged).
 */

let t: TestApp;
const c = client(() => t);
const db = () => t.database.db;
let admin: string;
let user1: string;
let dev: string;
let user1Id: string;

const [P1, P2] = FEEDBACK_QUESTIONNAIRES.product.questions;
const [S1] = FEEDBACK_QUESTIONNAIRES.service.questions;
const item = (evaluateType: string, question: string, score: unknown) => ({ evaluateType, question, score });
/** A day of our own, far from the seeded feedback (the last 60 days): 2031-03-01 in Asia/Shanghai. */
const DAY = '2031-03-01';
const at = (iso: string) => {
  t.clock.now = new Date(iso);
};

beforeAll(async () => {
  // sessions slide by the service's clock, which these tests move within 2031-03-01/02
  t = await createTestApp({ env: { SINGLE_SESSION: '0', SESSION_TTL_MINUTES: String(60 * 24 * 30) } });
  at(`${DAY}T01:00:00Z`);
  [admin, user1, dev] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'dev', 'D'),
  ]);
  user1Id = (await db().select({ id: users.id }).from(users).where(eq(users.account, 'user1')))[0]!.id;
});
afterAll(async () => t?.close());

const submissionsCount = async () => Number((await db().select({ n: count() }).from(feedbackSubmissions))[0]!.n);
const scoresCount = async () => Number((await db().select({ n: count() }).from(feedbackScores))[0]!.n);

describe('submitting feedback', () => {
  it('stores the ratings with the user and the time, and the text when there is one', async () => {
    at(`${DAY}T02:00:00Z`); // 10:00 in Shanghai
    const r = await c.post('/ks/feedback/add', user1, {
      list: [item('product', P1!, 5), item('product', P2!, 4), item('service', S1!, 3)],
      text: '  希望增加招标公告订阅功能  ',
    });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(200);
    expect(r.body.message).toBe(FEEDBACK_MESSAGES.thanks);
    const [row] = await db().select().from(feedbackSubmissions).where(eq(feedbackSubmissions.id, r.body.data.id));
    expect(row).toMatchObject({ userId: user1Id, text: '希望增加招标公告订阅功能' });
    expect(row!.createdAt.toISOString()).toBe(`${DAY}T02:00:00.000Z`);
    const scores = await db().select().from(feedbackScores).where(eq(feedbackScores.submissionId, r.body.data.id));
    expect(scores.map((s) => [s.evaluateType, s.question, s.score]).sort()).toEqual(
      [
        ['product', P1, 5],
        ['product', P2, 4],
        ['service', S1, 3],
      ].sort(),
    );
  });

  it('keeps no text when it is blank or absent', async () => {
    at(`${DAY}T03:00:00Z`);
    const blank = await c.post('/ks/feedback/add', user1, { list: [item('product', P1!, 2)], text: '   \n ' });
    expect(blank.status).toBe(200);
    at(`${DAY}T04:00:00Z`);
    const none = await c.post('/ks/feedback/add', dev, { list: [item('service', S1!, 5)] });
    expect(none.status).toBe(200);
    const rows = await db()
      .select()
      .from(feedbackSubmissions)
      .where(inArray(feedbackSubmissions.id, [blank.body.data.id, none.body.data.id]));
    expect(rows.map((x) => x.text)).toEqual([null, null]);
  });

  it('refuses ratings outside 1–5, fractions, text scores, unknown or repeated questions — and stores nothing', async () => {
    const before = [await submissionsCount(), await scoresCount()];
    const bad: [unknown, string][] = [
      [{ list: [item('product', P1!, 0)] }, FEEDBACK_MESSAGES.scoreRange],
      [{ list: [item('product', P1!, 6)] }, FEEDBACK_MESSAGES.scoreRange],
      [{ list: [item('product', P1!, 2.5)] }, FEEDBACK_MESSAGES.scoreRange],
      [{ list: [item('product', P1!, '4')] }, FEEDBACK_MESSAGES.scoreRange],
      [{ list: [item('product', P1!, 4), item('service', S1!, -1)] }, FEEDBACK_MESSAGES.scoreRange],
      [{ list: [item('product', '你们的食堂好吃吗', 4)] }, FEEDBACK_MESSAGES.unknownQuestion],
      [{ list: [item('service', P1!, 4)] }, FEEDBACK_MESSAGES.unknownQuestion],
      [{ list: [item('product', P1!, 4), item('product', P1!, 5)] }, FEEDBACK_MESSAGES.duplicateQuestion],
      [{ list: [] }, FEEDBACK_MESSAGES.nothingRated],
      [{ list: [item('product', P1!, 4)], text: '长'.repeat(501) }, FEEDBACK_MESSAGES.textTooLong],
    ];
    for (const [body, message] of bad) {
      const r = await c.post('/ks/feedback/add', user1, body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.message).toBe(message);
    }
    expect([await submissionsCount(), await scoresCount()]).toEqual(before);
  });

  it('needs a session', async () => {
    const r = await c.post('/ks/feedback/add', null, { list: [item('product', P1!, 4)] });
    expect(r.status).toBe(401);
  });
});

describe('the administrators’ results', () => {
  const range = `startDate=${DAY}&endDate=${DAY}`;

  it('are refused to everyone but administrators', async () => {
    for (const token of [user1, dev]) {
      expect((await c.get(`/ks/feedback/admin/summary?${range}`, token)).status).toBe(403);
      expect((await c.get(`/ks/feedback/admin/texts?${range}`, token)).status).toBe(403);
      expect((await c.post('/ks/feedback/admin/export', token, {})).status).toBe(403);
    }
  });

  it('give per question the count, the average and the distribution of the day', async () => {
    const r = await c.get(`/ks/feedback/admin/summary?${range}`, admin);
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d).toMatchObject({ submissions: 3, withText: 1 });
    const byQ = new Map(d.questions.map((q: any) => [`${q.evaluateType}/${q.question}`, q]));
    expect(byQ.get(`product/${P1}`)).toEqual({
      evaluateType: 'product',
      question: P1,
      count: 2,
      average: 3.5,
      distribution: [0, 1, 0, 0, 1],
    });
    expect(byQ.get(`product/${P2}`)).toMatchObject({ count: 1, average: 4, distribution: [0, 0, 0, 1, 0] });
    expect(byQ.get(`service/${S1}`)).toMatchObject({ count: 2, average: 4, distribution: [0, 0, 1, 0, 1] });
    // every question of the questionnaires is listed, rated or not, in order
    const all = [...FEEDBACK_QUESTIONNAIRES.product.questions, ...FEEDBACK_QUESTIONNAIRES.service.questions];
    expect(d.questions.map((q: any) => q.question)).toEqual(all);
    expect(d.questions.filter((q: any) => q.count === 0).every((q: any) => q.average === null)).toBe(true);
  });

  it('count days in the platform’s zone: 00:30 in Shanghai is the next day', async () => {
    at('2031-03-01T16:30:00Z'); // 2031-03-02 00:30 in Shanghai
    const r = await c.post('/ks/feedback/add', user1, { list: [item('product', P1!, 1)], text: '次日凌晨的意见' });
    expect(r.status).toBe(200);
    expect((await c.get(`/ks/feedback/admin/summary?${range}`, admin)).body.data.submissions).toBe(3);
    const next = await c.get('/ks/feedback/admin/summary?startDate=2031-03-02&endDate=2031-03-02', admin);
    expect(next.body.data).toMatchObject({ submissions: 1, withText: 1 });
    const both = await c.get('/ks/feedback/admin/summary?startDate=2031-03-01', admin);
    expect(both.body.data.submissions).toBe(4);
  });

  it('list the texts with the user and the time, newest first, paged', async () => {
    const r = await c.get('/ks/feedback/admin/texts?startDate=2031-03-01&endDate=2031-03-02&pageSize=10', admin);
    expect(r.status).toBe(200);
    expect(r.body.data.total).toBe(2);
    expect(r.body.data.records.map((x: any) => x.text)).toEqual(['次日凌晨的意见', '希望增加招标公告订阅功能']);
    expect(r.body.data.records[1]).toMatchObject({
      userName: '张建国',
      account: 'user1',
      enterpriseName: '示例建设工程有限公司',
      average: 4,
      createdAt: `${DAY}T02:00:00.000Z`,
    });
    const page2 = await c.get(
      '/ks/feedback/admin/texts?startDate=2031-03-01&endDate=2031-03-02&pageSize=10&pageNum=2',
      admin,
    );
    expect(page2.body.data).toEqual({ total: 2, records: [] });
    // the seeded demo feedback is there without a filter
    const all = await c.get('/ks/feedback/admin/texts', admin);
    expect(all.body.data.total).toBeGreaterThan(2);
  });

  it('refuse a bad date or a range that ends before it starts', async () => {
    expect((await c.get('/ks/feedback/admin/summary?startDate=2031-02-30', admin)).status).toBe(400);
    const r = await c.get('/ks/feedback/admin/texts?startDate=2031-03-02&endDate=2031-03-01', admin);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(FEEDBACK_MESSAGES.dateOrder);
    expect((await c.get('/ks/feedback/admin/texts?pageSize=7', admin)).status).toBe(400);
  });

  it('export to xlsx — the statistics and every submission with its scores and text — and log it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ks/feedback/admin/export',
      headers: { authorization: `Bearer ${admin}` },
      payload: { startDate: DAY, endDate: '2031-03-02' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('用户反馈'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = (name: string) => {
      const rows: unknown[][] = [];
      wb.getWorksheet(name)!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return rows;
    };
    const stats = sheet('统计');
    expect(stats[0]).toEqual([
      '问卷',
      '问题',
      '评价人数',
      '平均分',
      '1分 不满意',
      '2分 一般般',
      '3分 还可以',
      '4分 完美',
      '5分 非常完美',
    ]);
    expect(stats[1]).toEqual(['产品问卷', P1, 3, 2.67, 1, 1, 0, 0, 1]);
    const list = sheet('反馈明细');
    expect(list).toHaveLength(5); // header + 4 submissions
    expect(list[1]![0]).toBe('2031-03-02 00:30');
    expect(list[1]!.at(-1)).toBe('次日凌晨的意见');
    expect(list[4]).toContain('希望增加招标公告订阅功能');
    const logs = await db()
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.glName, '用户反馈'), eq(operationLogs.czrName, '平台管理员')));
    expect(logs.map((l) => l.logbook)).toContain('导出用户反馈 4 条（2031-03-01 至 2031-03-02）');
  });
});
