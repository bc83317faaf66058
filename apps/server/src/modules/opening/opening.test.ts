import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { K_CANDIDATES_DEFAULT, OPENING_MSG } from '@ks/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bidFiles, bidOpeningBids, bidOpenings, ledgerEntries, liveEvents, tenderSections } from '../../db/schema';
import { createLocalStorage } from '../../platform/storage/local';
import { demoFileKey } from '../../seed/bids';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { otherEnterpriseUser } from '../files/testkit';
import { verifyLedger } from '../ledger/ledger';
import { projects } from '../tender/project';
import { readingOrder } from './opening.service';

/**
 * The remote opening hall through the API (issue 17), on the demo's SXGC-2026-1005 BD-01: its deadline has passed and
 * user1, bid2 and bid3 sealed bids (file keys: demoFileKey('opening-0' … '-2'), as their browsers would unwrap them).
 */
let t: TestApp;
const c = client(() => t);
const db = () => t.database.db;
let dataDir: string;
let admin: string;
let agent: string;
let supervisor: string;
let user1: string;
let bid2: string;
let bid3: string;
let stranger: string;
let sectionId: string;
let futureSection: string;

const P = {
  sections: '/ks/trade/opening/v1/sections',
  hall: '/ks/trade/opening/v1/hall',
  signIn: '/ks/trade/opening/v1/sign-in',
  start: '/ks/trade/opening/v1/start',
  decrypt: '/ks/trade/opening/v1/decrypt',
  draw: '/ks/trade/opening/v1/draw',
  read: '/ks/trade/opening/v1/read',
  respond: '/ks/trade/opening/v1/respond',
  answer: '/ks/trade/opening/v1/answer',
  close: '/ks/trade/opening/v1/close',
  record: '/ks/trade/opening/v1/record',
  content: '/ks/trade/bid/v1/content',
};
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const hallOf = async (token: string, id = sectionId) => c.get(`${P.hall}?sectionId=${id}`, token);
const key = (i: number) => demoFileKey(`opening-${i}`).toString('base64');

async function sectionOf(xmbh: string, code = 'BD-01') {
  const [p] = await projects.list(db(), { where: { xmbh } });
  const [s] = await db()
    .select()
    .from(tenderSections)
    .where(and(eq(tenderSections.projectId, p!.id), eq(tenderSections.code, code)));
  return s!;
}

const bidOf = async (token: string) => (await hallOf(token)).body.data.mine.bid.id as string;

beforeAll(async () => {
  // the demo's sealed ciphertext is in the run's seed store: this app works on a copy of it
  dataDir = mkdtempSync(path.join(tmpdir(), 'ks-opening-'));
  cpSync(path.join(inject('seedDataDir'), 'files'), path.join(dataDir, 'files'), { recursive: true });
  t = await createTestApp({ env: { DATA_DIR: dataDir, SINGLE_SESSION: '0', SESSION_TTL_MINUTES: '43200' } });
  [admin, agent, supervisor, user1, bid2, bid3] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'agent', 'U'),
    loginToken(t.app, 'supervisor', 'U'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'bid2', 'U'),
    loginToken(t.app, 'bid3', 'U'),
  ]);
  stranger = (await otherEnterpriseUser(t, 'opening-stranger')).token;
  sectionId = (await sectionOf('SXGC-2026-1005')).id;
  futureSection = (await sectionOf('SXGC-2026-1101')).id;
});
afterAll(async () => t?.close());

describe('before the opening', () => {
  it('lists the due section for its host, its bidders and the supervisor, and not for a stranger', async () => {
    for (const [token, role] of [
      [agent, 'host'],
      [admin, 'host'],
      [user1, 'bidder'],
      [bid2, 'bidder'],
      [supervisor, 'viewer'],
    ] as const) {
      const list = await c.get(P.sections, token);
      expect(list.status).toBe(200);
      expect(list.body.data.find((s: { id: string }) => s.id === sectionId)).toMatchObject({
        role,
        status: 'waiting',
        projectName: '忻州市忻府区第三中学学生公寓楼建设工程',
      });
    }
    const none = await c.get(P.sections, stranger);
    expect(none.body.data.some((s: { id: string }) => s.id === sectionId)).toBe(false);
    expect((await hallOf(stranger)).status).toBe(404);
  });

  it('shows bidders neither the other bidders nor any price, and names nobody in the log', async () => {
    const h = (await hallOf(user1)).body.data;
    expect(h).toMatchObject({ status: 'waiting', role: 'bidder', due: true, bids: [], seed: null });
    expect(h.mine).toMatchObject({ enterpriseName: '示例建设工程有限公司', signedIn: false, status: null });
    expect(h.mine.bid.summary).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const sealed = h.events.filter((e: { kind: string }) => e.kind === 'bid.sealed');
    expect(sealed).toHaveLength(3);
    const text = JSON.stringify(h.events);
    expect(text).not.toContain('示例建设工程有限公司');
    expect(text).not.toContain('刘志强');
    expect(sealed.every((e: { actorName: string }) => e.actorName === '投标人')).toBe(true);
    expect(JSON.stringify(h)).not.toContain('17286450');
    expect(h.actions).toMatchObject({ signIn: true, start: false, decrypt: false });
  });

  it('refuses to open before the deadline, and a bidder may not open', async () => {
    const early = await c.post(P.start, admin, { sectionId: futureSection, decryptMinutes: 30 });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(OPENING_MSG.beforeDeadline);
    expect(await db().select().from(bidOpenings).where(eq(bidOpenings.sectionId, futureSection))).toHaveLength(0);
    const byBidder = await c.post(P.start, user1, { sectionId, decryptMinutes: 30 });
    expect(byBidder.status).toBe(403);
    expect((await c.post(P.start, agent, { sectionId, decryptMinutes: 0 })).status).toBe(400);
    expect((await hallOf(agent)).body.data.status).toBe('waiting');
  });

  it('lets nobody read a sealed bid — the host, the administrator, the supervisor — and logs each attempt', async () => {
    const bidId = await bidOf(user1);
    for (const token of [admin, agent, supervisor, bid2]) {
      const r = await c.get(`${P.content}?id=${bidId}`, token);
      expect(r.status).toBe(403);
    }
  });

  it('takes a sign-in once, and refuses a key before the opening starts', async () => {
    const bidId = await bidOf(user1);
    const early = await c.post(P.decrypt, user1, { bidId, fileKey: key(0) });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(OPENING_MSG.notDecrypting);
    expect((await c.post(P.signIn, user1, { sectionId })).status).toBe(200);
    const again = await c.post(P.signIn, user1, { sectionId });
    expect(again.body.data.signedInCount).toBe(1);
    expect((await c.post(P.signIn, agent, { sectionId })).status).toBe(403);
  });
});

describe('the opening', () => {
  let commitment: string;

  it('starts at the deadline: the decryption time runs and the order seed is committed', async () => {
    const r = await c.post(P.start, agent, { sectionId, decryptMinutes: 30 });
    expect(r.status).toBe(200);
    const h = r.body.data;
    expect(h).toMatchObject({ status: 'decrypting', decryptMinutes: 30, seed: null });
    expect(h.seedCommitment).toMatch(/^[0-9a-f]{64}$/);
    commitment = h.seedCommitment;
    expect(h.bids).toHaveLength(3);
    expect(h.bids.every((b: { status: string; reading: unknown }) => b.status === 'pending' && !b.reading)).toBe(true);
    expect(Date.parse(h.decryptDeadline) - Date.parse(h.startedAt)).toBe(30 * 60_000);
    expect((await c.post(P.start, agent, { sectionId, decryptMinutes: 30 })).body.message).toBe(
      OPENING_MSG.alreadyStarted,
    );
    // the tabs in the hall were told
    const events = await db()
      .select()
      .from(liveEvents)
      .where(and(eq(liveEvents.type, 'opening'), sql`${liveEvents.data}->>'sectionId' = ${sectionId}`));
    expect(events.length).toBeGreaterThanOrEqual(2);
  });

  it('still shows no price to anyone before the reading, and the content stays closed', async () => {
    for (const token of [agent, supervisor, bid2]) {
      const h = (await hallOf(token)).body.data;
      expect(h.bids.every((b: { reading: unknown }) => b.reading === null)).toBe(true);
      expect(JSON.stringify(h)).not.toContain('17286450');
    }
  });

  it('needs a sign-in first; a wrong key changes nothing; the right key is checked against both hashes', async () => {
    const b2 = await bidOf(bid2);
    const unsigned = await c.post(P.decrypt, bid2, { bidId: b2, fileKey: key(1) });
    expect(unsigned.status).toBe(409);
    expect((await c.post(P.signIn, bid2, { sectionId })).status).toBe(200);
    const wrong = await c.post(P.decrypt, bid2, { bidId: b2, fileKey: randomBytes(32).toString('base64') });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(OPENING_MSG.badKey);
    // another bidder's key is no better
    expect((await c.post(P.decrypt, bid2, { bidId: b2, fileKey: key(0) })).status).toBe(400);
    const [still] = await db().select().from(bidOpeningBids).where(eq(bidOpeningBids.bidId, b2));
    expect(still).toMatchObject({ status: 'pending', plainStorageKey: null, price: null });
    // nobody hands over a key for another enterprise's bid
    expect((await c.post(P.decrypt, user1, { bidId: b2, fileKey: key(1) })).status).toBe(404);
    expect((await c.post(P.decrypt, bid2, { bidId: b2, fileKey: 'not-a-key' })).status).toBe(400);

    const ok = await c.post(P.decrypt, bid2, { bidId: b2, fileKey: key(1) });
    expect(ok.status).toBe(200);
    expect(ok.body.data.mine.status).toBe('decrypted');
    const [row] = await db().select().from(bidOpeningBids).where(eq(bidOpeningBids.bidId, b2));
    const [file] = await db().select().from(bidFiles).where(eq(bidFiles.id, b2));
    // the plaintext kept for the evaluation is the sealed one
    const store = createLocalStorage(path.join(dataDir, 'files'));
    const parts: Buffer[] = [];
    for await (const ch of await store.get(row!.plainStorageKey!)) parts.push(ch as Buffer);
    expect(sha(Buffer.concat(parts))).toBe(file!.plainSha256);
    expect(Buffer.concat(parts).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await c.post(P.decrypt, bid2, { bidId: b2, fileKey: key(1) })).body.message).toBe(
      OPENING_MSG.alreadyDecrypted,
    );
    const u1 = await bidOf(user1);
    expect((await c.post(P.decrypt, user1, { bidId: u1, fileKey: key(0) })).status).toBe(200);
  });

  it('refuses the order while a bid may still be decrypted, then a late key, and records the refusal', async () => {
    expect((await c.post(P.draw, agent, { sectionId })).body.message).toBe(OPENING_MSG.stillDecrypting);
    expect((await c.post(P.signIn, bid3, { sectionId })).status).toBe(200);
    t.clock.advance(30 * 60_000);
    const b3 = await bidOf(bid3);
    const late = await c.post(P.decrypt, bid3, { bidId: b3, fileKey: key(2) });
    expect(late.status).toBe(403);
    expect(late.body.message).toBe(OPENING_MSG.decryptLate);
    const refused = await db()
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.sectionId, sectionId), eq(ledgerEntries.kind, 'bid.decrypt_refused')));
    expect(refused).toHaveLength(1);
    // the sign-in closes with the decryption time
    expect((await c.post(P.signIn, bid3, { sectionId })).body.message).toBe(OPENING_MSG.signinClosed);
  });

  it('draws the order from the committed seed, excluding the late bid with its reason', async () => {
    expect((await c.post(P.draw, user1, { sectionId })).status).toBe(403);
    const r = await c.post(P.draw, agent, { sectionId });
    expect(r.status).toBe(200);
    const h = r.body.data;
    expect(h.status).toBe('reading');
    expect(sha(h.seed)).toBe(commitment);
    const late = h.bids.find((b: { status: string }) => b.status === 'late');
    expect(late.enterpriseId).toBe(
      (
        await db()
          .select()
          .from(bidFiles)
          .where(eq(bidFiles.id, await bidOf(bid3)))
      )[0]!.enterpriseId,
    );
    expect(late.reason).toContain('未在规定的 30 分钟内解密');
    const ordered = h.bids
      .filter((b: { order: number | null }) => b.order !== null)
      .sort((a: { order: number }, b: { order: number }) => a.order - b.order)
      .map((b: { bidId: string }) => b.bidId);
    expect(ordered).toEqual(readingOrder(h.seed, ordered));
    expect(ordered).toHaveLength(2);
    // 评审系数 K from the same seed, among the centre's candidates: recomputed by hand from the revealed seed
    const digest = createHash('sha256').update(`${h.seed}:K`).digest('hex');
    const candidates = [...K_CANDIDATES_DEFAULT];
    expect(h.benchmarkK).toEqual({
      candidates,
      value: candidates[Number.parseInt(digest.slice(0, 13), 16) % candidates.length],
    });
  });

  it('reads the bids out one by one, in the drawn order, with the sealed 开标一览表', async () => {
    const first = await c.post(P.read, agent, { sectionId });
    expect(first.status).toBe(200);
    const seen = (await hallOf(bid2)).body.data.bids.filter((b: { reading: unknown }) => b.reading);
    expect(seen).toHaveLength(1);
    expect(seen[0].order).toBe(1);
    expect((await c.post(P.respond, user1, { sectionId, kind: 'confirm' })).body.message).toBe(
      OPENING_MSG.notConfirming,
    );
    const second = await c.post(P.read, agent, { sectionId });
    expect(second.body.data.status).toBe('confirming');
    const readings = Object.fromEntries(
      second.body.data.bids
        .filter((b: { reading: unknown }) => b.reading)
        .map((b: { enterpriseName: string; reading: { price: number } }) => [b.enterpriseName, b.reading]),
    );
    expect(readings.示例建设工程有限公司).toMatchObject({
      price: 17_286_450,
      durationDays: 365,
      quality: '合格',
      manager: '张伟',
    });
    expect(Object.values(readings).map((x) => (x as { price: number }).price)).toContain(17_512_300.5);
    expect((await c.post(P.read, agent, { sectionId })).status).toBe(409);
  });

  it('takes confirmations and objections; the host answers each before closing', async () => {
    expect((await c.post(P.respond, bid2, { sectionId, kind: 'objection', text: '短' })).status).toBe(400);
    const obj = await c.post(P.respond, bid2, {
      sectionId,
      kind: 'objection',
      text: '我单位投标报价唱标时的大写金额与一览表核对无误，但工期应为 360 日历天，请核实',
    });
    expect(obj.status).toBe(200);
    const objection = obj.body.data.bids
      .flatMap((b: { responses: { id: string; kind: string }[] }) => b.responses)
      .find((x: { kind: string }) => x.kind === 'objection');
    expect((await c.post(P.close, agent, { sectionId })).body.message).toBe(OPENING_MSG.openObjections);
    expect((await c.post(P.answer, user1, { id: objection.id, answer: '不是主持人' })).status).toBe(403);
    const ans = await c.post(P.answer, agent, {
      id: objection.id,
      answer: '经核对开标一览表，工期为 360 日历天，唱标无误',
    });
    expect(ans.status).toBe(200);
    expect((await c.post(P.answer, agent, { id: objection.id, answer: '再答一次' })).body.message).toBe(
      OPENING_MSG.alreadyAnswered,
    );
    expect((await c.post(P.respond, user1, { sectionId, kind: 'confirm' })).status).toBe(200);
    expect((await c.post(P.respond, user1, { sectionId, kind: 'confirm' })).body.message).toBe(
      OPENING_MSG.alreadyConfirmed,
    );
    expect((await c.post(P.respond, bid2, { sectionId, kind: 'confirm' })).status).toBe(200);
    const closed = await c.post(P.close, agent, { sectionId });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({ status: 'closed', actions: { record: true, close: false } });
  });

  it('lets the supervisor follow every step, gives the record as a PDF, and the log verifies', async () => {
    const h = (await hallOf(supervisor)).body.data;
    expect(h.role).toBe('viewer');
    const kinds = h.events.map((e: { kind: string }) => e.kind);
    for (const k of [
      'opening.signin',
      'opening.started',
      'bid.decrypted',
      'bid.decrypt_refused',
      'bid.excluded',
      'opening.order_drawn',
      'opening.read',
      'opening.objection',
      'opening.answered',
      'opening.confirmed',
      'opening.closed',
    ]) {
      expect(kinds).toContain(k);
    }
    expect(Object.values(h.actions).filter(Boolean)).toEqual([true]); // the record only
    const pdf = await t.app.inject({
      method: 'GET',
      url: `${P.record}?sectionId=${sectionId}`,
      headers: { authorization: `Bearer ${supervisor}` },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await verifyLedger(db())).intact).toBe(true);
  });
});

describe('a section with fewer than 3 bids', () => {
  it('cannot open: it is marked for re-tender, and no bid can be decrypted', async () => {
    // the demo's 第二实验小学 BD-01 holds user1's bid only; its deadline is moved past for the test
    await db()
      .update(tenderSections)
      .set({ bidDeadline: new Date(t.clock.now.getTime() - 60_000) })
      .where(eq(tenderSections.id, futureSection));
    const r = await c.post(P.start, admin, { sectionId: futureSection, decryptMinutes: 30 });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'failed', bids: [], actions: { record: true, start: false } });
    expect(r.body.data.failureReason).toContain('少于 3 家');
    const bidId = (await hallOf(user1, futureSection)).body.data.mine.bid.id;
    expect((await c.post(P.signIn, user1, { sectionId: futureSection })).status).toBe(409);
    expect((await c.post(P.decrypt, user1, { bidId, fileKey: key(0) })).status).toBe(409);
    expect((await c.post(P.start, admin, { sectionId: futureSection, decryptMinutes: 30 })).status).toBe(409);
  });
});
