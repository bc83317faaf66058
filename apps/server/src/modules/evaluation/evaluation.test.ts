import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultCriteria, EVAL_MSG, round2 } from '@ks/contracts';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  bidEvaluationScores,
  bidFiles,
  creditConductRecords,
  creditStandards,
  ledgerEntries,
  operationLogs,
  tenderSections,
} from '../../db/schema';
import { bearer, client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { client as fileClient, PDF } from '../files/testkit';
import { verifyLedger } from '../ledger/ledger';
import { projects } from '../tender/project';

/**
 * Bid evaluation through the API (issue 17), on the demo's SXGC-2026-1006 BD-01: opened two hours before the seed ran
 * (user1, bid2, bid3 read out), its committee of five drawn and begun — zj1…zj3 房屋建筑工程 (qualification and
 * technical), zj4 and zj5 工程造价 (qualification and business).
 */
let t: TestApp;
const c = client(() => t);
const files = fileClient(() => t);
const db = () => t.database.db;
let agent: string;
let supervisor: string;
let bid2: string;
let zj: string[] = [];
let sectionId: string;
const PROJECT_NAME = '晋中市榆次区第二人民医院门诊综合楼建设工程';

const P = {
  sections: '/ks/trade/result-list',
  room: '/ks/trade/review/result',
  extractions: '/ks/trade/review/extractions',
  begin: '/ks/trade/review/begin',
  method: '/ks/trade/review/method',
  declare: '/ks/trade/review/declare',
  signIn: '/ks/trade/review/sign-in',
  vote: '/ks/trade/review/vote',
  save: '/ks/trade/review/save-result',
  submit: '/ks/trade/review/submit',
  reopen: '/ks/trade/review/reopen',
  clarify: '/ks/trade/review/clarify',
  clarifyAnswer: '/ks/trade/review/clarify-answer',
  clarifyRevoke: '/ks/trade/review/clarify-revoke',
  render: '/ks/trade/review/render-result',
  sign: '/ks/trade/review/save-report',
  export: '/ks/trade/export-result',
  document: '/ks/trade/review/document',
  publish: '/ks/trade/review/publish',
  objection: '/ks/trade/review/objection',
  answer: '/ks/trade/review/objection-answer',
  award: '/ks/trade/review/award',
  awardNotice: '/ks/trade/review/award-notice',
  outcome: '/ks/trade/review/outcome',
  buttons: '/ks/trade/buttons',
};

const uploadPdf = async (token: string, name: string): Promise<string> => {
  const r = await files.upload('/ks/upload/v1/file-upload', token, { fileType: '2' }, [{ name, data: PDF() }]);
  expect(r.status).toBe(200);
  return r.body.data.fileId as string;
};

const roomOf = async (token: string) => c.get(`${P.room}?sectionId=${sectionId}`, token);
type Room = {
  status: string;
  role: string;
  members: { id: string; name: string; specialty: string; panels: string[]; chair: boolean }[];
  me: { id: string } | null;
  bids: { bidId: string; enterpriseName: string; price: number }[];
  myScores: unknown[];
  result: {
    benchmark: { value: number; mean: number };
    rows: { bidId: string; rank: number | null; total: number; priceScore: number; technical: { value: number } }[];
  } | null;
  anomalies: { kind: string; text: string }[];
  clarifications?: { id: string; status: string }[];
  events: { kind: string }[];
  drawnK: number | null;
  criteria: { price: { k: number } };
  actions: Record<string, unknown>;
};
const room = async (token: string) => (await roomOf(token)).body.data as Room;

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ks-evaluation-'));
  cpSync(path.join(inject('seedDataDir'), 'files'), path.join(dataDir, 'files'), { recursive: true });
  t = await createTestApp({ env: { DATA_DIR: dataDir, SINGLE_SESSION: '0', SESSION_TTL_MINUTES: '43200' } });
  [agent, supervisor, bid2] = await Promise.all([
    loginToken(t.app, 'agent', 'U'),
    loginToken(t.app, 'supervisor', 'U'),
    loginToken(t.app, 'bid2', 'U'),
  ]);
  zj = await Promise.all(['zj1', 'zj2', 'zj3', 'zj4', 'zj5'].map((a) => loginToken(t.app, a, 'U')));
  const [p] = await projects.list(db(), { where: { xmbh: 'SXGC-2026-1006' } });
  const [s] = await db()
    .select()
    .from(tenderSections)
    .where(and(eq(tenderSections.projectId, p!.id), eq(tenderSections.code, 'BD-01')));
  sectionId = s!.id;
});
afterAll(async () => t?.close());

const criteria = defaultCriteria();
const T = criteria.technical;
const B = criteria.business;
const Q = criteria.qualification;

describe('the committee before scoring', () => {
  it('shows the section to its host, its members and the supervisor, and to no bidder', async () => {
    const list = async (token: string) =>
      ((await c.get(P.sections, token)).body.data as { id: string; role: string }[]).find((x) => x.id === sectionId);
    expect((await list(agent))?.role).toBe('host');
    expect((await list(zj[0]!))?.role).toBe('member');
    expect((await list(supervisor))?.role).toBe('viewer');
    expect(await list(bid2)).toBeUndefined();
    expect((await roomOf(bid2)).status).toBe(404);
    const r = await room(agent);
    expect(r.status).toBe('signing');
    // by specialty: 房屋建筑工程 in the technical panel, 工程造价 in the business panel, everyone in qualification
    expect(
      r.members.map((m) => [m.specialty, m.panels]).sort((a, b) => String(b[0]).localeCompare(String(a[0]))),
    ).toEqual([...Array(3).fill(['房屋建筑工程', ['ZS', 'JS']]), ...Array(2).fill(['工程造价', ['ZS', 'SW']])]);
    // the committee is begun once
    const again = await c.post(P.begin, agent, {
      sectionId,
      extractionId: (await c.get(`${P.extractions}?sectionId=${sectionId}`, agent)).body.data[0].id,
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(EVAL_MSG.alreadyBegun);
  });

  it('uses the 评审系数 K drawn in the opening hall, which the host cannot change', async () => {
    const r = await room(agent);
    expect(r.drawnK).not.toBeNull();
    expect(r.criteria.price.k).toBe(r.drawnK);
    const other = r.drawnK === 0.92 ? 0.93 : 0.92;
    const refused = await c.post(P.method, agent, {
      sectionId,
      criteria: { ...r.criteria, price: { ...r.criteria.price, k: other } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(EVAL_MSG.kDrawn(r.drawnK!));
    expect((await room(agent)).criteria.price.k).toBe(r.drawnK);
  });

  it('shows no bid to a member before the declaration and sign-in, and refuses the document', async () => {
    const r = await room(zj[0]!);
    expect(r.role).toBe('member');
    expect(r.bids).toEqual([]);
    expect(r.actions.declare).toBe(true);
    expect((await c.post(P.signIn, zj[0]!, { sectionId, panel: 'ZS' })).status).toBe(409);
    const hostBids = (await room(agent)).bids;
    expect(hostBids).toHaveLength(3);
    const doc = await c.get(`${P.document}?sectionId=${sectionId}&bidId=${hostBids[0]!.bidId}`, zj[0]!);
    expect(doc.status).toBe(403);
  });

  it('recuses a member who declares a conflict: no sign-in, no bids', async () => {
    const res = await c.post(P.declare, zj[4]!, { sectionId, conflict: true, text: '本人近三年曾在投标人处任职' });
    expect(res.status).toBe(200);
    expect(res.body.data.me.recused).toBe(true);
    expect((await c.post(P.signIn, zj[4]!, { sectionId, panel: 'ZS' })).status).toBe(403);
    expect((await room(zj[4]!)).bids).toEqual([]);
    expect((await room(supervisor)).anomalies.map((a) => a.kind)).toContain('recused');
  });

  it('lets the others declare, sign in to their own panels only, and elect a chair by majority', async () => {
    for (const token of zj.slice(0, 4)) {
      expect((await c.post(P.declare, token, { sectionId, conflict: false })).status).toBe(200);
    }
    // a technical expert is not in the business panel
    const wrong = await c.post(P.signIn, zj[0]!, { sectionId, panel: 'SW' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toBe(EVAL_MSG.notInPanel('SW'));
    for (const token of zj.slice(0, 3)) {
      await c.post(P.signIn, token, { sectionId, panel: 'ZS' });
      await c.post(P.signIn, token, { sectionId, panel: 'JS' });
    }
    await c.post(P.signIn, zj[3]!, { sectionId, panel: 'ZS' });
    // zj4 has not signed in to SW yet
    const r = await room(zj[0]!);
    expect(r.bids).toHaveLength(3);
    // signed in, the member reads the decrypted bids (the 投标函 the bidder sealed)
    const doc = await t.app.inject({
      method: 'GET',
      url: `${P.document}?sectionId=${sectionId}&bidId=${r.bids[0]!.bidId}`,
      headers: { authorization: `Bearer ${zj[0]}` },
    });
    expect(doc.statusCode).toBe(200);
    expect(doc.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // zj1 is to chair
    const chair = { id: r.me!.id };
    // scoring waits for the chair
    const early = await c.post(P.save, zj[0]!, {
      sectionId,
      panel: 'JS',
      scores: [{ bidId: r.bids[0]!.bidId, itemId: 't1', score: 5 }],
    });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(EVAL_MSG.noChair);
    // of 4 active members, 3 votes elect
    await c.post(P.vote, zj[0]!, { sectionId, memberId: chair.id });
    await c.post(P.vote, zj[1]!, { sectionId, memberId: chair.id });
    expect((await room(agent)).status).toBe('signing');
    const third = await c.post(P.vote, zj[2]!, { sectionId, memberId: chair.id });
    expect(third.body.data.status).toBe('scoring');
    expect(third.body.data.members.find((m: { id: string }) => m.id === chair.id).chair).toBe(true);
  });

  it('lets the host name or replace the chair (update-principal) with a reason, logged; nobody else', async () => {
    const r = await room(agent);
    expect(r.actions.principal).toBe(true);
    const chair = r.members.find((m) => m.chair)!;
    const other = r.members.find((m) => !m.chair && m.specialty === chair.specialty)!;
    const recused = (await room(zj[4]!)).me!;
    const P2 = '/ks/trade/update-principal';
    const body = { sectionId, memberId: other.id, reason: '原组长身体不适，由招标人另行确定' };
    const byMember = await c.post(P2, zj[1]!, body);
    expect(byMember.status).toBe(403);
    expect(byMember.body.message).toBe(EVAL_MSG.notHost);
    expect((await c.post(P2, supervisor, body)).status).toBe(403);
    expect((await c.post(P2, agent, { ...body, reason: '换' })).status).toBe(400);
    const wrong = await c.post(P2, agent, { ...body, memberId: recused.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(EVAL_MSG.memberMissing);
    const same = await c.post(P2, agent, { ...body, memberId: chair.id });
    expect(same.status).toBe(409);
    expect(same.body.message).toBe(EVAL_MSG.alreadyPrincipal);
    const replaced = await c.post(P2, agent, body);
    expect(replaced.status).toBe(200);
    expect((replaced.body.data as Room).members.find((m) => m.chair)!.id).toBe(other.id);
    const events = (await room(supervisor)).events;
    expect(events.at(-1)).toMatchObject({ kind: 'evaluation.principal' });
    expect((events.at(-1) as { text?: string }).text).toBe(
      `更换评标委员会负责人（组长）：${chair.name} → ${other.name}，理由：原组长身体不适，由招标人另行确定`,
    );
    // a chair named by the host rather than elected is among the supervisors' anomalies, not shown to the members
    const flagged = (await room(supervisor)).anomalies.filter((a) => a.kind === 'principal');
    expect(flagged.at(-1)!.text).toBe(
      `赵立新 将评标委员会负责人由 ${chair.name} 更换为 ${other.name}，理由：原组长身体不适，由招标人另行确定`,
    );
    expect((await room(zj[1]!)).anomalies).toEqual([]);
    // 标段交易进度: the host and a bidder see the stages; the evaluation is in process
    const overview = async (token: string, id = sectionId) => c.get(`/ks/trade/overview-status?sectionId=${id}`, token);
    for (const token of [agent, bid2, supervisor]) {
      const o = (await overview(token)).body.data as { current: string; stages: { key: string; status: string }[] };
      expect(o.current).toBe('evaluation');
      expect(o.stages.map((x) => `${x.key}:${x.status}`)).toEqual([
        'notice:finish',
        'bids:finish',
        'opening:finish',
        'evaluation:process',
        'publicity:wait',
        'award:wait',
      ]);
    }
    expect((await overview(agent, 'x')).status).toBe(400);
    expect((await overview(agent, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // and back, so that the rest of the flow has its elected chair
    const back = await c.post(P2, agent, { sectionId, memberId: chair.id, reason: '原组长已恢复，继续主持评审' });
    expect((back.body.data as Room).members.find((m) => m.chair)!.id).toBe(chair.id);
    expect((await room(zj[0]!)).actions.reopen).toBe(true);
  });
});

/** Each technical member's scores: a share of each item's highest score per bid (bid index → share). */
const SHARE = [0.8, 0.7, 0.9];
const BIZ = [0.6, 0.9, 0.5];
const scoresFor = (bids: { bidId: string }[], items: { id: string; max: number }[], share: number[]) =>
  bids.flatMap((b, i) => items.map((it) => ({ bidId: b.bidId, itemId: it.id, score: round2(it.max * share[i]!) })));

describe('scoring', () => {
  let bids: { bidId: string; enterpriseName: string; price: number }[];
  beforeAll(async () => {
    bids = (await room(agent)).bids;
  });

  it('refuses a member who has not signed in to the panel, another panel’s items, and scores out of range', async () => {
    const notSigned = await c.post(P.save, zj[3]!, {
      sectionId,
      panel: 'SW',
      scores: [{ bidId: bids[0]!.bidId, itemId: 'b1', score: 2 }],
    });
    expect(notSigned.status).toBe(403);
    expect(notSigned.body.message).toBe(EVAL_MSG.notSignedIn('SW'));
    const otherPanel = await c.post(P.save, zj[0]!, {
      sectionId,
      panel: 'SW',
      scores: [{ bidId: bids[0]!.bidId, itemId: 'b1', score: 2 }],
    });
    expect(otherPanel.status).toBe(403);
    const foreignItem = await c.post(P.save, zj[0]!, {
      sectionId,
      panel: 'JS',
      scores: [{ bidId: bids[0]!.bidId, itemId: 'b1', score: 2 }],
    });
    expect(foreignItem.status).toBe(403);
    expect(foreignItem.body.message).toBe(EVAL_MSG.itemMissing('b1'));
    const tooHigh = await c.post(P.save, zj[0]!, {
      sectionId,
      panel: 'JS',
      scores: [
        { bidId: bids[0]!.bidId, itemId: 't2', score: 4 },
        { bidId: bids[0]!.bidId, itemId: 't1', score: 8.5 },
      ],
    });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.message).toBe(EVAL_MSG.scoreRange(T[0]!.name, 8));
    // nothing of the refused batch was written
    expect(await db().select().from(bidEvaluationScores)).toEqual([]);
    // two decimals as typed (2.43 × 100 is not exactly 243 in floating point), then cleared again
    const cell = { bidId: bids[0]!.bidId, itemId: 't2' };
    expect((await c.post(P.save, zj[0]!, { sectionId, panel: 'JS', scores: [{ ...cell, score: 2.43 }] })).status).toBe(
      200,
    );
    expect((await c.post(P.save, zj[0]!, { sectionId, panel: 'JS', scores: [{ ...cell, score: 2.435 }] })).status).toBe(
      400,
    );
    expect((await c.post(P.save, zj[0]!, { sectionId, panel: 'JS', scores: [{ ...cell, score: null }] })).status).toBe(
      200,
    );
    expect(await db().select().from(bidEvaluationScores)).toEqual([]);
    // the host never scores
    expect(
      (
        await c.post(P.save, agent, {
          sectionId,
          panel: 'JS',
          scores: [{ bidId: bids[0]!.bidId, itemId: 't1', score: 1 }],
        })
      ).status,
    ).toBe(403);
  });

  it('takes qualification and technical scores; an incomplete panel cannot be submitted', async () => {
    for (const [k, token] of zj.slice(0, 3).entries()) {
      const zs = bids.flatMap((b, i) =>
        Q.map((q) => ({
          bidId: b.bidId,
          itemId: q.id,
          pass: !(k === 0 && i === 2 && q.id === 'q2'),
          reason: k === 0 && i === 2 && q.id === 'q2' ? '项目经理有在建项目' : '',
        })),
      );
      expect((await c.post(P.save, token, { sectionId, panel: 'ZS', scores: zs })).status).toBe(200);
      expect((await c.post(P.submit, token, { sectionId, panel: 'ZS' })).status).toBe(200);
    }
    const partial = scoresFor(bids, T, SHARE).slice(1);
    await c.post(P.save, zj[0]!, { sectionId, panel: 'JS', scores: partial });
    const res = await c.post(P.submit, zj[0]!, { sectionId, panel: 'JS' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(EVAL_MSG.incomplete(1));
  });

  it('needs a written reason for a score far from the median, and locks submitted scores', async () => {
    await c.post(P.save, zj[0]!, { sectionId, panel: 'JS', scores: scoresFor(bids, T, SHARE) });
    expect((await c.post(P.submit, zj[0]!, { sectionId, panel: 'JS' })).status).toBe(200);
    await c.post(P.save, zj[1]!, { sectionId, panel: 'JS', scores: scoresFor(bids, T, SHARE) });
    expect((await c.post(P.submit, zj[1]!, { sectionId, panel: 'JS' })).status).toBe(200);
    // zj3 scores bid 1's 施工方案 2 of 8 where the others gave 6.4: 4.4 > 30% × 8
    const deviant = scoresFor(bids, T, SHARE).map((s) =>
      s.bidId === bids[0]!.bidId && s.itemId === 't1' ? { ...s, score: 2 } : s,
    );
    await c.post(P.save, zj[2]!, { sectionId, panel: 'JS', scores: deviant });
    const refused = await c.post(P.submit, zj[2]!, { sectionId, panel: 'JS' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(EVAL_MSG.deviation);
    expect(refused.body.data.cells).toEqual([
      expect.objectContaining({ bidId: bids[0]!.bidId, itemId: 't1', score: 2, median: 6.4 }),
    ]);
    await c.post(P.save, zj[2]!, {
      sectionId,
      panel: 'JS',
      scores: [
        { bidId: bids[0]!.bidId, itemId: 't1', score: 2, reason: '施工方案未针对门诊楼不停诊施工组织作专门安排' },
      ],
    });
    expect((await c.post(P.submit, zj[2]!, { sectionId, panel: 'JS' })).status).toBe(200);
    // locked
    const change = await c.post(P.save, zj[2]!, {
      sectionId,
      panel: 'JS',
      scores: [{ bidId: bids[0]!.bidId, itemId: 't1', score: 5 }],
    });
    expect(change.status).toBe(409);
    expect(change.body.message).toBe(EVAL_MSG.locked('JS'));
  });

  it('lets only the chair reopen submitted scores, with a reason, and tells the supervisor', async () => {
    const target = (await room(zj[2]!)).me!.id;
    const body = { sectionId, memberId: target, panel: 'JS', reason: '请复核施工方案评分' };
    expect((await c.post(P.reopen, zj[1]!, body)).status).toBe(403);
    expect((await c.post(P.reopen, agent, body)).status).toBe(403);
    expect((await c.post(P.reopen, zj[0]!, { ...body, reason: '复核' })).status).toBe(400);
    expect((await c.post(P.reopen, zj[0]!, body)).status).toBe(200);
    // reopened: zj3 may change again; it keeps the deviating score with its reason and submits once more
    expect((await c.post(P.reopen, zj[0]!, body)).status).toBe(409);
    expect((await c.post(P.submit, zj[2]!, { sectionId, panel: 'JS' })).status).toBe(200);
    const seen = await room(supervisor);
    expect(seen.anomalies.find((a) => a.kind === 'reopened')?.text).toContain('请复核施工方案评分');
  });

  it('lets the chair ask a bidder to clarify; only that bidder answers, once, before the deadline, with its own files', async () => {
    const r = await room(zj[0]!);
    // bid2 is asked; bid3 is another bidder of the section
    const bid3 = await loginToken(t.app, 'bid3', 'U');
    const nameOf = async (token: string) =>
      (await c.get(`${P.outcome}?sectionId=${sectionId}`, token)).body.data.enterpriseName as string;
    const bid2Name = await nameOf(bid2);
    const target = r.bids.find((b) => b.enterpriseName === bid2Name)!;
    const inHours = (h: number) => new Date(t.clock.now.getTime() + h * 3_600_000).toISOString();
    const ask = {
      sectionId,
      bidId: target.bidId,
      question: '请说明投标报价中安全文明施工费的计取依据',
      deadline: inHours(2),
    };
    // the chair only, on a bid under evaluation, with a deadline 10 minutes to 7 days ahead
    expect((await c.post(P.clarify, zj[1]!, ask)).status).toBe(403);
    expect((await c.post(P.clarify, agent, ask)).status).toBe(403);
    const soon = await c.post(P.clarify, zj[0]!, { ...ask, deadline: inHours(0.1) });
    expect(soon.status).toBe(400);
    expect(soon.body.message).toBe(EVAL_MSG.clarifyDeadline);
    expect((await c.post(P.clarify, zj[0]!, { ...ask, deadline: inHours(24 * 8) })).status).toBe(400);
    expect((await c.post(P.clarify, zj[0]!, { ...ask, bidId: sectionId })).status).toBe(400);
    const asked = await c.post(P.clarify, zj[0]!, ask);
    expect(asked.status).toBe(200);
    type Q = { id: string; question: string; status: string; enterpriseName: string };
    const byQuestion = (data: { clarifications: Q[] }, question: string) =>
      data.clarifications.find((x) => x.question === question)!;
    const q = byQuestion(asked.body.data, ask.question);
    expect(q).toMatchObject({ status: 'asked', enterpriseName: target.enterpriseName });
    // a second question, withdrawn by the chair with a reason
    const secondQuestion = '请补充说明项目经理的在岗承诺';
    const second = byQuestion(
      (await c.post(P.clarify, zj[0]!, { ...ask, question: secondQuestion })).body.data,
      secondQuestion,
    );
    expect((await c.post(P.clarifyRevoke, zj[1]!, { id: second.id, reason: '已在投标文件中找到' })).status).toBe(403);
    expect((await c.post(P.clarifyRevoke, zj[0]!, { id: second.id, reason: '已在投标文件中找到' })).status).toBe(200);

    // the asked bidder sees it (with its message); another bidder sees none of it and cannot answer it
    const asker = bid2;
    const outsider = bid3;
    const mine = (await c.get(`${P.outcome}?sectionId=${sectionId}`, asker)).body.data;
    expect(mine.clarifications.map((x: Q) => [x.question, x.status]).sort()).toEqual(
      [
        [ask.question, 'asked'],
        [secondQuestion, 'revoked'],
      ].sort(),
    );
    const theirs = (await c.get(`${P.outcome}?sectionId=${sectionId}`, outsider)).body.data;
    expect(theirs.clarifications).toEqual([]);
    const answer = {
      id: q.id,
      answer: '安全文明施工费按山西省现行计价依据的费率计取，未作让利。',
      fileIds: [] as string[],
    };
    expect((await c.post(P.clarifyAnswer, outsider, answer)).status).toBe(404);
    // an expert is no bidder: as if there were no such question
    expect((await c.post(P.clarifyAnswer, zj[0]!, answer)).status).toBe(404);
    expect((await c.post(P.clarifyAnswer, asker, { ...answer, id: second.id })).status).toBe(409);
    // a file of another enterprise is refused, and nothing of the answer is kept
    const foreign = await uploadPdf(outsider, '他人文件.pdf');
    const refused = await c.post(P.clarifyAnswer, asker, { ...answer, fileIds: [foreign] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(EVAL_MSG.clarifyFileMissing);
    expect((await room(agent)).clarifications?.find((x) => x.id === q.id)?.status).toBe('asked');
    const own = await uploadPdf(asker, '安全文明施工费计取说明.pdf');
    const ok = await c.post(P.clarifyAnswer, asker, { ...answer, fileIds: [own] });
    expect(ok.status).toBe(200);
    const answered = ok.body.data.clarifications.find((x: Q) => x.id === q.id);
    expect(answered).toMatchObject({ status: 'answered', answer: answer.answer });
    expect(answered.files.map((f: { name: string }) => f.name)).toEqual(['安全文明施工费计取说明.pdf']);
    // once
    expect((await c.post(P.clarifyAnswer, asker, answer)).status).toBe(409);
    // the committee reads the answer and its file; the outsider cannot
    const seen = (await room(zj[1]!)).clarifications!.find((x) => x.id === q.id)!;
    expect(seen.status).toBe('answered');
    const dl = async (token: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/ks/common/common/file/download?fileId=${own}`,
          headers: bearer(token),
        })
      ).statusCode;
    expect(await dl(zj[1]!)).toBe(200);
    expect(await dl(supervisor)).toBe(200);
    expect(await dl(outsider)).toBe(404);
    // after the deadline: expired, no answer
    const lateQuestion = '请说明工期安排中冬季施工的措施';
    const late = byQuestion(
      (await c.post(P.clarify, zj[0]!, { ...ask, question: lateQuestion })).body.data,
      lateQuestion,
    );
    t.clock.advance(2 * 3_600_000 + 60_000);
    const tooLate = await c.post(P.clarifyAnswer, asker, { ...answer, id: late.id });
    expect(tooLate.status).toBe(409);
    expect(tooLate.body.message).toBe(EVAL_MSG.clarifyClosed);
    expect((await room(agent)).clarifications!.find((x) => x.id === late.id)!.status).toBe('expired');
    // on the record
    const kinds = (await room(supervisor)).events.map((e) => e.kind);
    expect(kinds.filter((k) => k.startsWith('evaluation.clarify_'))).toEqual([
      'evaluation.clarify_asked',
      'evaluation.clarify_asked',
      'evaluation.clarify_revoked',
      'evaluation.clarify_answered',
      'evaluation.clarify_asked',
    ]);
  });

  it('renders only when everything is submitted, with the price score and ranking worked as by hand', async () => {
    const chairToken = zj[0]!;
    expect((await c.post(P.render, chairToken, { sectionId })).status).toBe(409);
    // zj4: qualification and business
    await c.post(P.signIn, zj[3]!, { sectionId, panel: 'SW' });
    const zs = bids.flatMap((b) => Q.map((q) => ({ bidId: b.bidId, itemId: q.id, pass: true })));
    await c.post(P.save, zj[3]!, { sectionId, panel: 'ZS', scores: zs });
    expect((await c.post(P.submit, zj[3]!, { sectionId, panel: 'ZS' })).status).toBe(200);
    await c.post(P.save, zj[3]!, { sectionId, panel: 'SW', scores: scoresFor(bids, B, BIZ) });
    expect((await c.post(P.submit, zj[3]!, { sectionId, panel: 'SW' })).status).toBe(200);
    expect((await c.post(P.render, zj[3]!, { sectionId })).status).toBe(403);
    const done = await c.post(P.render, chairToken, { sectionId });
    expect(done.status).toBe(200);
    const result = (done.body.data as Room).result!;

    // by hand: three qualified bids (one member failing one item is no majority); fewer than five, so the benchmark
    // is their mean × the K drawn in the opening hall; 2 points off per 1% above it, 1 per 1% below, from 60
    const k = (await room(agent)).drawnK!;
    expect(k).toBeGreaterThanOrEqual(0.92);
    const prices = bids.map((b) => b.price);
    const mean = round2(prices.reduce((a, b) => a + b, 0) / 3);
    const benchmark = round2(mean * k);
    expect(result.benchmark.value).toBe(benchmark);
    const ps = (p: number) => {
      const pct = ((p - benchmark) / benchmark) * 100;
      return round2(Math.max(0, 60 - (pct > 0 ? pct * 2 : -pct)));
    };
    // technical: every member's total is 30 × share, but zj3 gave bid 1's t1 2 instead of 6.4
    const tech = [round2((24 + 24 + (24 - 6.4 + 2)) / 3), 21, 27];
    const biz = [6, 9, 5];
    const totals = bids.map((b, i) => round2(tech[i]! + biz[i]! + ps(b.price)));
    for (const [i, b] of bids.entries()) {
      const row = result.rows.find((x) => x.bidId === b.bidId)!;
      expect(row.technical.value).toBe(tech[i]);
      expect(row.priceScore).toBe(ps(b.price));
      expect(row.total).toBe(totals[i]);
    }
    const ranked = [...bids.keys()].sort((a, b) => totals[b]! - totals[a]!).map((i) => bids[i]!.bidId);
    expect(result.rows.map((x) => x.bidId)).toEqual(ranked);
    expect(result.rows.map((x) => x.rank)).toEqual([1, 2, 3]);
  });

  it('ends when every active member signed the report, dissent recorded; exports PDF and xlsx', async () => {
    for (const [i, token] of zj.slice(0, 4).entries()) {
      const body =
        i === 1 ? { sectionId, agree: false, dissent: '对第一名的技术得分有保留意见' } : { sectionId, agree: true };
      expect((await c.post(P.sign, token, body)).status).toBe(200);
    }
    expect((await room(agent)).status).toBe('done');
    expect((await c.post(P.sign, zj[0]!, { sectionId, agree: true })).status).toBe(409);
    const file = (format: string, token: string) =>
      t.app.inject({
        method: 'GET',
        url: `${P.export}?sectionId=${sectionId}&format=${format}`,
        headers: { authorization: `Bearer ${token}` },
      });
    const pdf = await file('pdf', supervisor);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const xlsx = await file('xlsx', agent);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // the workbook opens: the ranking, a sheet per panel with every member's scores, the report's text
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(expect.arrayContaining(['评标结果', '评标报告']));
    const ranking = wb.getWorksheet('评标结果')!;
    expect(ranking.getCell('A1').value).toBe('排名');
    expect(ranking.getCell('A2').value).toBe(1);
    const report = wb.getWorksheet('评标报告')!;
    expect(String(report.getCell('A2').value)).toContain('项目名称：');
    expect(wb.worksheets.length).toBeGreaterThan(2);
    expect((await c.get(`${P.export}?sectionId=${sectionId}&format=pdf`, bid2)).status).toBe(404);
  });

  it('tells bidders nothing until the candidates are published, for at least the legal 3 days, on the portal', async () => {
    const before = await c.get(`${P.outcome}?sectionId=${sectionId}`, bid2);
    expect(before.status).toBe(200);
    expect(before.body.data.candidates).toEqual([]);
    expect(before.body.data.actions.object).toBe(false);
    expect((await c.get(`${P.outcome}?sectionId=${sectionId}`, zj[0]!)).status).toBe(404);
    expect((await c.post(P.publish, zj[0]!, { sectionId })).status).toBe(403);
    const short = await c.post(P.publish, agent, { sectionId, days: 2 });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe(EVAL_MSG.publicityTooShort(3));
    const ok = await c.post(P.publish, agent, { sectionId });
    expect(ok.status).toBe(200);
    const o = (ok.body.data as Room & { outcome: { publicity: { noticeId: string; start: string; end: string } } })
      .outcome;
    expect(Date.parse(o.publicity.end) - Date.parse(o.publicity.start)).toBe(3 * 86_400_000);
    expect((await c.post(P.publish, agent, { sectionId })).status).toBe(409);
    // on the portal, for anyone
    const notice = await c.get(`/ks/portal/v1/notices/detail?id=${o.publicity.noticeId}`, null);
    expect(notice.status).toBe(200);
    expect(notice.body.data.category).toBe('中标候选人公示');
    const first = (await room(agent)).result!.rows[0]!;
    const firstName = (await room(agent)).bids.find((b) => b.bidId === first.bidId)!.enterpriseName;
    expect(notice.body.data.bodyHtml).toContain(firstName);
    const seen = await c.get(`${P.outcome}?sectionId=${sectionId}`, bid2);
    expect(seen.body.data.candidates.map((x: { rank: number }) => x.rank)).toEqual([1, 2, 3]);
    expect(seen.body.data.actions.object).toBe(true);
  });

  it('takes objections during the publicity; awards only after it, with every objection answered', async () => {
    const obj = await c.post(P.objection, bid2, { sectionId, text: '第一中标候选人项目经理存在在建项目，请核查' });
    expect(obj.status).toBe(200);
    expect(obj.body.data.objections).toHaveLength(1);
    expect((await c.post(P.objection, zj[0]!, { sectionId, text: '评委不能提出异议吧' })).status).toBe(404);
    expect((await c.post(P.award, agent, { sectionId })).status).toBe(409);
    t.clock.advance(3 * 86_400_000 + 60_000);
    const late = await c.post(P.objection, bid2, { sectionId, text: '公示期已过再提出的异议' });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(EVAL_MSG.publicityClosed);
    const open = await c.post(P.award, agent, { sectionId });
    expect(open.status).toBe(409);
    expect(open.body.message).toBe(EVAL_MSG.openObjections);
    const id = obj.body.data.objections[0].id;
    expect((await c.post(P.answer, bid2, { id, answer: '自己答复自己的异议' })).status).toBe(404);
    expect(
      (await c.post(P.answer, agent, { id, answer: '经核查，该项目经理已办理在建项目变更，异议不成立' })).status,
    ).toBe(200);
    const awarded = await c.post(P.award, agent, { sectionId });
    expect(awarded.status).toBe(200);
    const r = awarded.body.data as Room & { outcome: { award: { bidId: string; resultNoticeId: string } } };
    expect(r.outcome.award.bidId).toBe(r.result!.rows[0]!.bidId);
    expect(
      (await c.get(`/ks/portal/v1/notices/detail?id=${r.outcome.award.resultNoticeId}`, null)).body.data.category,
    ).toBe('中标结果公告');
    // the award notice: the host and the winner; not a losing bidder
    const pdf = (token: string) =>
      t.app.inject({
        method: 'GET',
        url: `${P.awardNotice}?sectionId=${sectionId}`,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await pdf(agent)).rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const winnerName = r.bids.find((b) => b.bidId === r.outcome.award.bidId)!.enterpriseName;
    const tokens: Record<string, string> = {};
    for (const a of ['user1', 'bid2', 'bid3']) tokens[a] = await loginToken(t.app, a, 'U');
    let winners = 0;
    for (const tk of Object.values(tokens)) {
      const o = (await c.get(`${P.outcome}?sectionId=${sectionId}`, tk)).body.data;
      const res = await pdf(tk);
      if (o.enterpriseName === winnerName) {
        winners++;
        expect(res.statusCode).toBe(200);
      } else expect(res.statusCode).toBe(403);
    }
    expect(winners).toBe(1);
    // the winner's good conduct: a credit record under the standard's 交易行为 item, submitted for the reviewers, once
    const [winnerBid] = await db()
      .select({ enterpriseId: bidFiles.enterpriseId })
      .from(bidFiles)
      .where(eq(bidFiles.id, r.outcome.award.bidId));
    const raised = await db()
      .select({ c: creditConductRecords, standard: creditStandards.name })
      .from(creditConductRecords)
      .innerJoin(creditStandards, eq(creditStandards.id, creditConductRecords.standardId))
      .where(eq(creditConductRecords.sourceRef, `award:${sectionId}`));
    expect(raised).toHaveLength(1);
    expect(raised[0]!.standard).toBe('在平台依法中标（中标结果公告发布）');
    expect(raised[0]!.c).toMatchObject({
      subjectKind: 'enterprise',
      subjectId: winnerBid!.enterpriseId,
      status: 'submitted',
      score: '1.00',
      title: `${PROJECT_NAME}BD-01 施工标段中标`,
    });
    const b = await c.get(`${P.buttons}?sectionId=${sectionId}`, agent);
    expect(b.body.data).toMatchObject({ stage: 'awarded', role: 'host' });
    const done = (await c.get(`/ks/trade/overview-status?sectionId=${sectionId}`, tokens.bid2!)).body.data as {
      current: string;
      stages: { key: string; status: string; detail: string }[];
    };
    expect(done.stages.every((x) => x.status === 'finish')).toBe(true);
    expect(done.current).toBe('award');
    expect(done.stages.at(-1)!.detail).toBe(`中标人：${winnerName}`);
    expect((await c.get(`${P.buttons}?sectionId=${sectionId}`, bid2)).body.data.role).toBe('bidder');
  });

  it('keeps every step in the log; editing a submitted score in the log breaks verification at that entry', async () => {
    const kinds = (await room(supervisor)).events.map((e) => e.kind);
    for (const k of [
      'evaluation.begun',
      'evaluation.declared',
      'evaluation.signin',
      'evaluation.vote',
      'evaluation.chair',
      'evaluation.submitted',
      'evaluation.reopened',
      'evaluation.rendered',
      'evaluation.report_signed',
      'evaluation.done',
      'evaluation.published',
      'evaluation.objection',
      'evaluation.objection_answered',
      'evaluation.awarded',
    ]) {
      expect(kinds).toContain(k);
    }
    expect((await db().select().from(operationLogs).where(eq(operationLogs.glName, '评标'))).length).toBeGreaterThan(
      20,
    );
    expect((await verifyLedger(db())).intact).toBe(true);
    const [row] = await db()
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.sectionId, sectionId), eq(ledgerEntries.kind, 'evaluation.submitted')))
      .orderBy(ledgerEntries.seq)
      .limit(1);
    await db().execute(sql`alter table ledger_entries disable trigger ledger_entries_append_only`);
    try {
      await db().execute(
        sql`update ledger_entries set payload = ${row!.payload.replace('"pass":false', '"pass":true')} where seq = ${row!.seq}`,
      );
    } finally {
      await db().execute(sql`alter table ledger_entries enable trigger ledger_entries_append_only`);
    }
    const v = await verifyLedger(db());
    expect(v.intact).toBe(false);
    expect(v.broken?.seq).toBe(Number(row!.seq));
  });
});
