import { DEPOSIT_MESSAGES as D, GUARANTEE_MESSAGES as G, GUARANTEE_NODE } from '@ks/contracts';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentTypes, menuNodes, operationLogs, tradeDeposits, tradeGuarantees, users } from '../../db/schema';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { newEnterprise } from '../credit/testkit';
import { projects } from '../tender/project';
import { bhsq } from './node';
import { type FakeIssuer, insertSection, register, startFakeIssuer } from './testkit';

/**
 * Deposits and guarantee letters (issue 16) through the API, against a local fake of the guarantee issuer: a deposit
 * only for a registered bidder, of exactly the section's deposit, moving only forward with times and actors, each step
 * logged; the centre's steps refused to everyone else; the payment deadline extended never past the bid deadline; a
 * letter applied for through 保函申请, issued by the issuer after its review and stored, downloaded by its enterprise
 * and the centre only; an issuer failure shown plainly and retried; an issued letter securing the deposit; who
 * registered hidden from other bidders and the tenderee (counts only).
 */
let t: TestApp;
let fake: FakeIssuer;
const api = client(() => t);
const db = () => t.database.db;
let admin: string;
let dev: string;
let user1: string;
let auditor: string;
let bidder2: string;
let tenderee: string;
let school: string;
let adminId: string;
const DAY = 86_400_000;
const P = {
  list: '/ks/trade/deposit/list',
  status: '/ks/trade/deposit/payment-status',
  pay: '/ks/trade/deposit/pay',
  received: '/ks/trade/deposit/received-status',
  refund: '/ks/trade/deposit/refund-status',
  delay: '/ks/trade/deposit/delay',
  issuer: '/ks/trade/guarantee/issuer',
  apply: '/ks/trade/guarantee',
  result: '/ks/trade/getbaohanresult',
  retry: '/ks/trade/guarantee/retry',
  file: '/ks/trade/getbaohanfile',
};
const logs = async (text: string) =>
  Number(
    (
      await db()
        .select({ n: count() })
        .from(operationLogs)
        .where(like(operationLogs.logbook, `%${text}%`))
    )[0]!.n,
  );
const rows = async (sectionId: string) =>
  db().select().from(tradeDeposits).where(eq(tradeDeposits.sectionId, sectionId));
const payment = (sectionId: string, amount: number) => ({
  sectionId,
  amount,
  payerAccount: '6222021234567890123',
  payerBank: '中国工商银行太原分行',
});
let codeNo = 0;
const newSection = async (deposit: number, days = 20, projectId = school) =>
  insertSection(db(), {
    projectId,
    code: `BZJ-${++codeNo}`,
    deposit,
    bidDeadline: new Date(t.clock.now.getTime() + days * DAY),
    createdBy: adminId,
  });

beforeAll(async () => {
  fake = await startFakeIssuer();
  t = await createTestApp({
    env: {
      GUARANTEE_ISSUER_URL: fake.url,
      GUARANTEE_ISSUER_KEY: fake.key,
      GUARANTEE_ISSUER_NAME: '晋商担保测试出函机构',
      GUARANTEE_POLL_SECONDS: '0',
      SINGLE_SESSION: '0',
      SESSION_TTL_MINUTES: String(60 * 24 * 30),
    },
  });
  [admin, dev, user1, auditor] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'auditor', 'U'),
  ]);
  const [u1] = await db().select().from(users).where(eq(users.account, 'user1'));
  const [a] = await db().select().from(users).where(eq(users.account, 'admin'));
  adminId = a!.id;
  // another bidder, and a tenderee with a project of its own
  for (const [account, name, ent] of [
    ['bidder2', '孙志强', '山西宏远建筑工程有限公司'],
    ['tenderee1', '周雅琴', '太原市某区教育局'],
  ] as const) {
    const e = await newEnterprise(db(), ent);
    await db()
      .insert(users)
      .values({ account, userName: name, loginRoleType: 'U', passwordHash: u1!.passwordHash, enterpriseId: e });
  }
  bidder2 = await loginToken(t.app, 'bidder2', 'U');
  tenderee = await loginToken(t.app, 'tenderee1', 'U');
  school = (await projects.list(db(), { where: { xmbh: 'SXGC-2026-1101' } }))[0]!.id;
  // 保函申请's required attachments are the files module's concern: the review is this file's
  const [node] = await db().select().from(menuNodes).where(eq(menuNodes.gnCoding, GUARANTEE_NODE));
  await db().delete(attachmentTypes).where(eq(attachmentTypes.nodeId, node!.id));
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('a deposit', () => {
  it('is only for a registered bidder; refusals change nothing', async () => {
    const s = await newSection(20_000);
    const r = await api.post(P.pay, user1, payment(s.id, 20_000));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(D.notRegistered);
    expect(await rows(s.id)).toHaveLength(0);
    // the centre and developers pay nothing
    expect((await api.post(P.pay, admin, payment(s.id, 20_000))).status).toBe(403);
    expect((await api.post(P.pay, dev, payment(s.id, 20_000))).status).toBe(403);
  });

  it('moves forward only — paid, received, refunded — each with its time, actor and log row', async () => {
    const s = await newSection(17_000);
    await register(db(), s.id, 'user1', t.clock.now);
    const wrong = await api.post(P.pay, user1, payment(s.id, 16_999.99));
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(D.amountMismatch('17,000.00'));
    expect(await rows(s.id)).toHaveLength(0);

    const paid = await api.post(P.pay, user1, payment(s.id, 17_000));
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.data).toMatchObject({ status: 'paid', amount: 17_000, paidBy: '张建国', secured: false });
    expect(paid.body.data.paidAt).toBe(t.clock.now.toISOString());
    expect(paid.body.data.virtualAccount).toMatch(/^1405\d{15}$/);
    expect((await api.post(P.pay, user1, payment(s.id, 17_000))).body.message).toBe(D.alreadyPaid);
    const id = paid.body.data.id as string;

    // the bidder confirms nothing; the centre cannot refund what has not arrived
    expect((await api.post(P.received, user1, { id })).status).toBe(403);
    const early = await api.post(P.refund, admin, { id, note: '未中标退还' });
    expect([early.status, early.body.message]).toEqual([409, D.notReceived]);

    t.clock.advance(3_600_000);
    const got = await api.post(P.received, admin, { id, version: 0 });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body.data).toMatchObject({
      status: 'received',
      receivedBy: '平台管理员',
      secured: true,
      securedBy: 'cash',
    });
    expect(got.body.data.receivedAt).toBe(t.clock.now.toISOString());
    expect((await api.post(P.received, admin, { id })).body.message).toBe(D.alreadyReceived);

    const beforeOpening = await api.post(P.refund, admin, { id, note: '未中标退还' });
    expect([beforeOpening.status, beforeOpening.body.message]).toEqual([409, D.refundBeforeDeadline]);

    const back = t.clock.now;
    t.clock.advance(21 * DAY);
    try {
      const refunded = await api.post(P.refund, admin, { id, note: '未中标，原路退还' });
      expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
      expect(refunded.body.data).toMatchObject({
        status: 'refunded',
        refundedBy: '平台管理员',
        refundNote: '未中标，原路退还',
      });
      expect(refunded.body.data.refundedAt).toBe(t.clock.now.toISOString());
      expect((await api.post(P.refund, admin, { id, note: '再退一次' })).body.message).toBe(D.alreadyRefunded);
      expect((await api.post(P.received, admin, { id })).body.message).toBe(D.alreadyRefunded);
    } finally {
      t.clock.now = back;
    }
    const [row] = await rows(s.id);
    expect(row).toMatchObject({ status: 'refunded', paidByName: '张建国', receivedByName: '平台管理员' });
    expect(await logs(`缴纳标段 ${s.code}`)).toBe(1);
    expect(await logs(`确认标段 ${s.code}`)).toBe(1);
    expect(await logs(`退还标段 ${s.code}`)).toBe(1);
    // and the database itself refuses a step backwards
    await expect(db().update(tradeDeposits).set({ status: 'paid' }).where(eq(tradeDeposits.id, id))).rejects.toThrow();
  });

  it('is paid before its deadline, which the centre extends with a reason but never past the bid deadline', async () => {
    const s = await newSection(9_000, 3);
    await register(db(), s.id, 'user1', t.clock.now);
    const back = t.clock.now;
    t.clock.advance(2 * DAY + 3_600_000);
    try {
      const late = await api.post(P.pay, user1, payment(s.id, 9_000));
      expect(late.status).toBe(409);
      expect(late.body.message).toContain('保证金缴纳截止时间');
      const dueAt = (offset: number) => new Date(s.bidDeadline.getTime() + offset).toISOString();
      expect(
        (await api.post(P.delay, user1, { sectionId: s.id, dueAt: dueAt(-60_000), reason: '银行系统故障' })).status,
      ).toBe(403);
      const past = await api.post(P.delay, admin, { sectionId: s.id, dueAt: dueAt(60_000), reason: '银行系统故障' });
      expect([past.status, past.body.message]).toEqual([400, D.delayPastDeadline]);
      const noReason = await api.post(P.delay, admin, { sectionId: s.id, dueAt: dueAt(-60_000), reason: ' ' });
      expect(noReason.status).toBe(400);
      const ok = await api.post(P.delay, admin, { sectionId: s.id, dueAt: dueAt(-1_800_000), reason: '银行系统故障' });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.data).toMatchObject({ dueAt: dueAt(-1_800_000), delayReason: '银行系统故障' });
      const earlier = await api.post(P.delay, admin, { sectionId: s.id, dueAt: dueAt(-3_600_000), reason: '改早' });
      expect([earlier.status, earlier.body.message]).toEqual([400, D.delayNotLater]);
      expect(await logs(`延长标段 ${s.code} ${s.name} 的保证金缴纳截止时间`)).toBe(1);
      expect((await api.post(P.pay, user1, payment(s.id, 9_000))).status).toBe(200);
    } finally {
      t.clock.now = back;
    }
  });
});

describe('who sees deposits', () => {
  it('a bidder sees their own; another bidder and the tenderee see counts only; the centre sees everyone', async () => {
    const ent = (await db().select().from(users).where(eq(users.account, 'tenderee1')))[0]!;
    const project = await projects.create(
      db(),
      { xmmc: '某区第三中学操场改造工程', xmbh: 'SXGC-2026-T901' },
      {
        owner: { ownerId: ent.id, enterpriseId: ent.enterpriseId },
        actor: { userId: ent.id, userName: ent.userName, loginRoleType: 'U' },
        logbook: '测试项目',
      },
    );
    const s = await newSection(12_000, 20, project.id);
    await register(db(), s.id, 'user1', t.clock.now);
    await register(db(), s.id, 'bidder2', t.clock.now);
    expect((await api.post(P.pay, bidder2, payment(s.id, 12_000))).status).toBe(200);

    const mine = await api.post(P.status, user1, { sectionId: s.id });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.data.counts).toMatchObject({ registered: 2, unpaid: 1, paid: 1 });
    expect(mine.body.data.mine).toMatchObject({ status: 'unpaid', enterpriseName: '示例建设工程有限公司' });
    expect(mine.body.data.records).toEqual([]);
    expect(JSON.stringify(mine.body)).not.toContain('山西宏远建筑工程有限公司');

    const side = await api.post(P.status, tenderee, { sectionId: s.id });
    expect(side.status, JSON.stringify(side.body)).toBe(200);
    expect(side.body.data).toMatchObject({ mine: null, records: [], counts: { registered: 2, paid: 1, unpaid: 1 } });
    expect(JSON.stringify(side.body)).not.toMatch(/示例建设工程有限公司|山西宏远建筑工程有限公司/);

    const centre = await api.post(P.status, admin, { sectionId: s.id });
    expect(centre.body.data.records.map((d: { enterpriseName: string }) => d.enterpriseName).sort()).toEqual(
      ['山西宏远建筑工程有限公司', '示例建设工程有限公司'].sort(),
    );

    // the list: a bidder's own enterprise only
    const list = await api.post(P.list, bidder2, {});
    expect(list.status).toBe(200);
    expect(new Set(list.body.data.deposits.map((d: { enterpriseName: string }) => d.enterpriseName))).toEqual(
      new Set(['山西宏远建筑工程有限公司']),
    );
    // someone neither registered nor of the project's side sees nothing
    const stranger = await api.post(P.status, auditor, { sectionId: s.id });
    expect([403, 404]).toContain(stranger.status);
  });
});

describe('a guarantee letter', () => {
  async function applied(sectionId: string, token = user1) {
    const r = await api.post(P.apply, token, { sectionId });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as string;
  }
  async function passReview(id: string, token = user1) {
    const rec = (await bhsq.get(db(), id))!;
    const sub = await api.post('/ks/engine/v1/records/submit', token, {
      gnCoding: GUARANTEE_NODE,
      id,
      version: rec.version,
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const pass = await api.post('/ks/engine/v1/records/audit', auditor, {
      gnCoding: GUARANTEE_NODE,
      id,
      version: sub.body.data.version,
      pass: true,
    });
    expect(pass.status, JSON.stringify(pass.body)).toBe(200);
  }
  const letter = async (id: string) =>
    (await db().select().from(tradeGuarantees).where(eq(tradeGuarantees.id, id)))[0]!;

  it('is applied for through 保函申请, issued by the issuer after review, and secures the deposit', async () => {
    expect((await api.get(P.issuer, user1)).body.data).toEqual({ configured: true, name: '晋商担保测试出函机构' });
    const s = await newSection(30_000);
    expect((await api.post(P.apply, user1, { sectionId: s.id })).body.message).toBe(G.notRegistered);
    await register(db(), s.id, 'user1', t.clock.now);
    const id = await applied(s.id);
    const rec = (await bhsq.get(db(), id))!;
    expect(rec).toMatchObject({ status: 'draft', values: { bhje: 30_000, bhlx: 'tb', bdmc: `${s.code} ${s.name}` } });
    expect((await api.post(P.apply, user1, { sectionId: s.id })).body.message).toBe(G.alreadyApplied);
    // while it is under way, cash is refused
    expect((await api.post(P.pay, user1, payment(s.id, 30_000))).body.message).toBe(D.guaranteeUnderWay);
    expect(fake.requests).toHaveLength(0);

    await passReview(id);
    expect((await letter(id)).status).toBe('requested');
    // the issuer is asked outside the review: the result call sends the application, then asks for the result
    fake.pendingQueries = 0;
    const first = await api.post(P.result, user1, { id });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'processing', issuerName: '晋商担保测试出函机构' });
    const sent = fake.requests.find((r) => r.method === 'POST')!;
    expect(sent.auth).toBe(`Bearer ${fake.key}`);
    expect(sent.idempotencyKey).toBe(id);
    expect(sent.body).toMatchObject({
      applyNo: id,
      amount: 30_000,
      section: { code: s.code },
      applicant: { name: '示例建设工程有限公司' },
    });
    expect(sent.body.beneficiary.name).toBe('太原市晋源区教育局');

    const done = await api.post(P.result, user1, { id });
    expect(done.body.data).toMatchObject({ status: 'issued', operations: { download: true, retry: false } });
    expect(done.body.data.guaranteeNo).toMatch(/^BH2026/);
    expect(done.body.data.fileName).toContain('.pdf');

    // the PDF: its enterprise and the centre; other bidders and developers are told it does not exist
    const own = await t.app.inject({
      method: 'GET',
      url: `${P.file}?id=${id}`,
      headers: { authorization: `Bearer ${user1}` },
    });
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(own.headers['content-disposition']).toContain('attachment');
    const centre = await t.app.inject({
      method: 'GET',
      url: `${P.file}?id=${id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(centre.statusCode).toBe(200);
    for (const token of [bidder2, dev]) {
      const other = await t.app.inject({
        method: 'GET',
        url: `${P.file}?id=${id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(other.statusCode).toBe(404);
    }
    expect((await api.post(P.result, bidder2, { id })).status).toBe(404);

    // the deposit is secured by the letter, and cash is refused
    const status = await api.post(P.status, user1, { sectionId: s.id });
    expect(status.body.data.mine).toMatchObject({ status: 'unpaid', secured: true, securedBy: 'guarantee' });
    expect(status.body.data.counts).toMatchObject({ guaranteed: 1, secured: 1, unpaid: 0 });
    expect((await api.post(P.pay, user1, payment(s.id, 30_000))).body.message).toBe(D.securedByGuarantee);
    expect(await logs('出具投标保函')).toBeGreaterThanOrEqual(1);
    const list = await api.post(P.list, user1, {});
    expect(list.body.data.guarantees.find((g: { id: string }) => g.id === id)).toMatchObject({ status: 'issued' });
  });

  it('an issuer failure is shown plainly and retried; an issuer refusal too', async () => {
    const s = await newSection(25_000);
    await register(db(), s.id, 'user1', t.clock.now);
    const id = await applied(s.id);
    await passReview(id);
    fake.mode = 'down';
    const failed = await api.post(P.result, user1, { id });
    expect(failed.body.data).toMatchObject({ status: 'failed', operations: { retry: true, download: false } });
    expect(failed.body.data.lastError).toBe('出函机构返回 HTTP 503：系统维护中');
    const noFile = await t.app.inject({
      method: 'GET',
      url: `${P.file}?id=${id}`,
      headers: { authorization: `Bearer ${user1}` },
    });
    expect(noFile.statusCode).toBe(409);
    expect((await api.post(P.retry, bidder2, { id })).status).toBe(404);

    fake.mode = 'instant';
    const again = await api.post(P.retry, user1, { id });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'issued', lastError: null });
    expect((await api.post(P.retry, user1, { id })).body.message).toBe(G.notRetryable);

    const s2 = await newSection(26_000);
    await register(db(), s2.id, 'user1', t.clock.now);
    const id2 = await applied(s2.id);
    await passReview(id2);
    fake.mode = 'reject';
    const refused = await api.post(P.result, user1, { id: id2 });
    expect(refused.body.data).toMatchObject({ status: 'failed', lastError: '出函机构拒绝出函：申请人授信额度不足' });
    fake.mode = 'ok';
  });

  it('a rejected review leaves no letter to issue; an edited amount cannot pass', async () => {
    const s = await newSection(40_000);
    await register(db(), s.id, 'user1', t.clock.now);
    const id = await applied(s.id);
    const rec = (await bhsq.get(db(), id))!;
    const edited = await api.post('/ks/engine/v1/records/save', user1, {
      gnCoding: GUARANTEE_NODE,
      id,
      version: rec.version,
      values: { ...rec.values, yxq: rec.values.yxq, bhje: 1_000 },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const sub = await api.post('/ks/engine/v1/records/submit', user1, {
      gnCoding: GUARANTEE_NODE,
      id,
      version: edited.body.data.version,
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const pass = await api.post('/ks/engine/v1/records/audit', auditor, {
      gnCoding: GUARANTEE_NODE,
      id,
      version: sub.body.data.version,
      pass: true,
    });
    expect([pass.status, pass.body.message]).toEqual([400, G.amountMismatch('40,000.00')]);
    expect((await letter(id)).status).toBe('applying');
    const reject = await api.post('/ks/engine/v1/records/audit', auditor, {
      gnCoding: GUARANTEE_NODE,
      id,
      version: sub.body.data.version,
      pass: false,
      suggestion: '金额与保证金不符',
    });
    expect(reject.status, JSON.stringify(reject.body)).toBe(200);
    expect((await letter(id)).status).toBe('rejected');
    // a rejected application no longer holds the section: cash may be paid
    expect((await api.post(P.pay, user1, payment(s.id, 40_000))).status).toBe(200);
    expect((await api.post(P.apply, user1, { sectionId: s.id })).body.message).toBe(G.alreadyPaid);
    expect(
      Number(
        (
          await db()
            .select({ n: count() })
            .from(tradeGuarantees)
            .where(and(eq(tradeGuarantees.sectionId, s.id)))
        )[0]!.n,
      ),
    ).toBe(1);
  });
});
