import { rmSync } from 'node:fs';
import { RFC_AREAS, RFC_REVIEW_NODE } from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  creditChanges,
  creditConductRecords,
  enterprises,
  menuNodes,
  operationLogs,
  todos,
  userMessages,
  users,
} from '../../../db/schema';
import { DEMO_CREDIT_CODE } from '../../../seed/demo';
import { createTestApp, loginToken, type TestApp } from '../../../test/harness';
import { onDecision } from '../../engine/hooks';
import { otherEnterpriseUser, PDF, tmpDataDir } from '../../files/testkit';
import { regrade, storedGrade } from '../grade.service';
import { creditClient, dayFrom, passedRecord, standardId, UPLOAD } from '../testkit';

/**
 * Credit change rounds through the API (issue 13): the §5 rules on save, submit only when saved, the review through
 * the engine (to-dos, reject needs a suggestion, 409 for a round not open, one of two simultaneous decisions), a pass
 * writing the values and regrading in the decision's transaction (a failing hook rolls all back), a rejection changing
 * nothing, the enterprise's information public only after a pass, and ownership (another enterprise: 403/404).
 */

const R = {
  records: '/ks/rfc/change-records',
  types: '/ks/rfc/change-types',
  fields: '/ks/rfc/change-fields',
  save: '/ks/rfc/save-change-data',
  submit: '/ks/rfc/change-submit',
  audit: '/ks/rfc/change-audit',
  contacts: '/ks/rfc/contacts',
  template: '/ks/rfc/template',
} as const;
const INFO = '/ks/basic/v1/enterprise/info';

let t: TestApp;
let dataDir: string;
const api = creditClient(() => t);
const db = () => t.database.db;
let admin: string;
let admin2: string;
let user1: string;
let other: { token: string; userId: string; enterpriseId: string };
let demoId: string;
let fswq: string; // highest 10, 24 months
let recordId: string;

const CR = RFC_AREAS.creditRecord;

async function upload(token: string, name = '变更申请表.pdf') {
  const r = await api.upload(UPLOAD, token, { gnCoding: RFC_REVIEW_NODE, systemCoding: 'XYGL' }, [
    { name, data: PDF() },
  ]);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body.data.fileId as string;
}

async function saveBody(token: string, over: Record<string, unknown> = {}) {
  return {
    gnCoding: CR,
    systemCoding: 'XYGL',
    businessId: recordId,
    changeTypeCode: 'info/record',
    logbook: '获奖等级认定有误，申请更正分值',
    attachment: [await upload(token, '情况说明.pdf')],
    fileList: [
      { code: 'bgsqb', fileId: await upload(token) },
      { code: 'zmcl', fileId: await upload(token, '获奖证书.pdf') },
    ],
    dataList: [{ changeField: 'score', newValue: 8 }],
    ...over,
  };
}

beforeAll(async () => {
  dataDir = tmpDataDir();
  t = await createTestApp({ env: { DATA_DIR: dataDir, SINGLE_SESSION: '0' } });
  [admin, admin2, user1] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
  ]);
  other = await otherEnterpriseUser(t, 'rfc_other');
  demoId = (await db().select().from(enterprises).where(eq(enterprises.creditCode, DEMO_CREDIT_CODE)))[0]!.id;
  fswq = await standardId(db(), 'LH-GC-02');
  recordId = await passedRecord(db(), demoId, {
    standardId: fswq,
    score: 5,
    startTime: dayFrom(t.clock.now, -30),
    endTime: dayFrom(t.clock.now, 300),
  });
  // the grade counts the record written directly (as its decision would have regraded)
  await regrade(db(), { kind: 'enterprise', id: demoId }, t.clock.now);
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const roundOf = async (id: string) => (await db().select().from(creditChanges).where(eq(creditChanges.id, id)))[0]!;
const recordOf = async () =>
  (await db().select().from(creditConductRecords).where(eq(creditConductRecords.id, recordId)))[0]!;
const demoScore = async () => (await storedGrade(db(), { kind: 'enterprise', id: demoId }))?.score;

describe('a credit record, round by round', () => {
  let round1: string;
  let round2: string;

  it('lists a round the enterprise may start, with the types and the form', async () => {
    const r = await api.post(R.records, user1, {
      change: true,
      businessId: recordId,
      gnCoding: CR,
      systemCoding: 'XYGL',
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({ id: null, round: 1, change: '1', userPermission: true });
    const types = await api.post(R.types, user1, { gnCoding: CR, systemCoding: 'XYGL' });
    expect(types.body.data.map((x: { value: string }) => x.value)).toEqual(['info', 'time']);
    const f = await api.post(R.fields, user1, {
      id: recordId,
      gnCoding: CR,
      systemCoding: 'XYGL',
      changeTypeCode: 'time/validity',
    });
    expect(f.status).toBe(200);
    const byCode = Object.fromEntries(f.body.data.fields.map((x: { code: string }) => [x.code, x]));
    expect(byCode.score).toMatchObject({ readonly: true, highest: 10 });
    expect(byCode.start_time.readonly).toBe(false);
    expect(f.body.data.map.score).toBe('5');
    expect(
      f.body.data.fjList.filter((a: { required: boolean }) => a.required).map((a: { name: string }) => a.name),
    ).toEqual(['变更申请表', '证明材料']);
  });

  it('refuses a save breaking a §5 rule, with the message verbatim, and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ changeTypeCode: null }, '请选择变更类型！'],
      [{ logbook: ' ' }, '请输入变更原因！'],
      [{ attachment: [] }, '请上传附件！'],
      [{ fileList: [] }, '附件为必填项，请上传【变更申请表、证明材料】附件！'],
      [
        { dataList: [{ changeField: 'score', newValue: 12 }] },
        '分值不能超过该信用标准的最高分10分，请作废本次申报后另行添加其他信用标准项！',
      ],
      [{ dataList: [{ changeField: 'score', newValue: -1 }] }, '分值不能为负数'],
      [
        {
          dataList: [
            { changeField: 'start_time', newValue: dayFrom(t.clock.now, 5) },
            { changeField: 'end_time', newValue: dayFrom(t.clock.now, 1) },
          ],
        },
        '结束时间不能早于开始时间',
      ],
      [{ changeTypeCode: 'time/validity' }, '该变更类型不能修改【分值】'],
    ];
    for (const [over, message] of cases) {
      const r = await api.post(R.save, user1, await saveBody(user1, over));
      expect(r.status, message).toBe(400);
      expect(r.body.message).toBe(message);
    }
    expect(await db().select().from(creditChanges).where(eq(creditChanges.businessId, recordId))).toHaveLength(0);
  });

  it('saves, edits and submits; the reviewers get a to-do; the enterprise can no longer edit', async () => {
    const s = await api.post(R.save, user1, await saveBody(user1));
    expect(s.status).toBe(200);
    round1 = s.body.data.id;
    expect(s.body.data).toMatchObject({ round: 1, saved: true, submitted: false, changeType: '信息变更/信用记录信息' });
    expect(s.body.data.dataList.find((d: { changeField: string }) => d.changeField === 'score')).toMatchObject({
      oldValue: '5',
      newValue: '8',
    });
    expect(
      s.body.data.operations.filter((o: { show: boolean }) => o.show).map((o: { code: string }) => o.code),
    ).toEqual(['edit', 'submit', 'closed']);
    // a second round while this one is open is refused
    const again = await api.post(R.save, user1, await saveBody(user1));
    expect(again.status).toBe(409);
    const edit = await api.post(
      R.save,
      user1,
      await saveBody(user1, {
        id: round1,
        version: s.body.data.version,
        dataList: [{ changeField: 'score', newValue: 7 }],
      }),
    );
    expect(edit.status).toBe(200);
    const stale = await api.post(R.submit, user1, { id: round1, version: s.body.data.version });
    expect(stale.status).toBe(409);
    const sub = await api.post(R.submit, user1, { id: round1, version: edit.body.data.version });
    expect(sub.status).toBe(200);
    expect(sub.body.data).toMatchObject({ submitted: true, userPermission: false, reviewId: round1 });
    const [node] = await db().select().from(menuNodes).where(eq(menuNodes.gnCoding, RFC_REVIEW_NODE));
    const open = await db()
      .select()
      .from(todos)
      .where(and(eq(todos.nodeId, node!.id), eq(todos.recordId, round1)));
    expect(open.length).toBeGreaterThan(0);
    const late = await api.post(R.save, user1, await saveBody(user1, { id: round1, version: sub.body.data.version }));
    expect(late.status).toBe(409);
    const seen = await api.post(R.records, admin, {
      change: false,
      businessId: recordId,
      gnCoding: CR,
      systemCoding: 'XYGL',
    });
    expect(seen.body.data[0]).toMatchObject({ managerPermission: true, userPermission: false });
  });

  it('a rejection needs a suggestion, changes nothing, and lets round 2 start', async () => {
    const v = (await roundOf(round1)).version;
    const own = await api.post(R.audit, user1, { id: round1, version: v, pass: false, auditRecord: 'x' });
    expect(own.status).toBe(403);
    const bare = await api.post(R.audit, admin, { id: round1, version: v, pass: false });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe('请填写审核建议');
    const before = await recordOf();
    const r = await api.post(R.audit, admin, { id: round1, version: v, pass: false, auditRecord: '证明材料不清晰' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      change: '-1',
      changeStatus: '变更驳回',
      pass: false,
      auditRecord: '证明材料不清晰',
    });
    expect(r.body.data.czTime).not.toBeNull();
    expect((await recordOf()).score).toBe(before.score);
    const again = await api.post(R.audit, admin, { id: round1, version: r.body.data.version, pass: true });
    expect(again.status).toBe(409);
    const msgs = await db()
      .select()
      .from(userMessages)
      .where(eq(userMessages.userId, (await roundOf(round1)).createdBy!));
    expect(msgs.some((m) => m.title.includes('被驳回'))).toBe(true);
    const list = await api.post(R.records, user1, {
      change: true,
      businessId: recordId,
      gnCoding: CR,
      systemCoding: 'XYGL',
    });
    expect(list.body.data.map((x: { round: number; id: string | null }) => [x.round, x.id === null])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it('a pass writes the values and regrades in the decision; of two admins deciding at once one wins', async () => {
    const s = await api.post(
      R.save,
      user1,
      await saveBody(user1, { dataList: [{ changeField: 'score', newValue: 9 }] }),
    );
    expect(s.body.data.round).toBe(2);
    round2 = s.body.data.id;
    const sub = await api.post(R.submit, user1, { id: round2, version: s.body.data.version });
    expect(sub.status).toBe(200);
    const before = await demoScore();
    const body = { id: round2, version: sub.body.data.version, pass: true, auditRecord: '同意' };
    const [a, b] = await Promise.all([api.post(R.audit, admin, body), api.post(R.audit, admin2, body)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const won = a.status === 200 ? a : b;
    expect(won.body.data).toMatchObject({ change: '2', changeStatus: '变更通过', pass: true });
    const rec = await recordOf();
    expect(Number(rec.score)).toBe(9);
    expect(await demoScore()).toBeCloseTo((before ?? 0) + 4, 2);
    const logs = await db().select().from(operationLogs).where(eq(operationLogs.recordId, round2));
    expect(logs.some((l) => l.logbook.includes('变更通过'))).toBe(true);
    const all = await api.post(R.records, admin, {
      change: false,
      businessId: recordId,
      gnCoding: CR,
      systemCoding: 'XYGL',
    });
    for (const r of all.body.data)
      expect(r.operations.filter((o: { show: boolean }) => o.show).map((o: { code: string }) => o.code)).toEqual([
        'closed',
      ]);
  });

  it('a failing decision hook rolls the whole pass back', async () => {
    const s = await api.post(
      R.save,
      user1,
      await saveBody(user1, { dataList: [{ changeField: 'score', newValue: 6 }] }),
    );
    const sub = await api.post(R.submit, user1, { id: s.body.data.id, version: s.body.data.version });
    const off = onDecision(RFC_REVIEW_NODE, {
      name: 'test-failing',
      passed() {
        throw new Error('boom');
      },
    });
    try {
      const r = await api.post(R.audit, admin, { id: s.body.data.id, version: sub.body.data.version, pass: true });
      expect(r.status).toBe(500);
    } finally {
      off();
    }
    expect((await roundOf(s.body.data.id)).status).toBe('1');
    expect(Number((await recordOf()).score)).toBe(9);
    // and then it passes
    const ok = await api.post(R.audit, admin, { id: s.body.data.id, version: sub.body.data.version, pass: true });
    expect(ok.status).toBe(200);
    expect(Number((await recordOf()).score)).toBe(6);
  });

  it('refuses to submit a round that was never saved', async () => {
    const rec2 = await passedRecord(db(), demoId, {
      standardId: fswq,
      score: 3,
      startTime: dayFrom(t.clock.now, -5),
      endTime: dayFrom(t.clock.now, 100),
    });
    const [u] = await db().select().from(users).where(eq(users.account, 'user1'));
    const [row] = await db()
      .insert(creditChanges)
      .values({
        gnCoding: CR,
        businessId: rec2,
        enterpriseId: demoId,
        round: 1,
        status: '1',
        saved: false,
        createdBy: u!.id,
      })
      .returning();
    const r = await api.post(R.submit, user1, { id: row!.id, version: row!.version });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('请先保存！');
  });
});

describe('another enterprise', () => {
  it('gets 404 on every change call of the record, 403 on review', async () => {
    const body = { change: true, businessId: recordId, gnCoding: CR, systemCoding: 'XYGL' };
    expect((await api.post(R.records, other.token, body)).status).toBe(404);
    expect((await api.post(R.fields, other.token, { id: recordId, gnCoding: CR, systemCoding: 'XYGL' })).status).toBe(
      404,
    );
    expect((await api.post(R.save, other.token, await saveBody(other.token))).status).toBe(404);
    const [r] = await db().select().from(creditChanges).where(eq(creditChanges.businessId, recordId)).limit(1);
    expect((await api.post(R.submit, other.token, { id: r!.id, version: r!.version })).status).toBe(404);
    expect((await api.post(R.audit, other.token, { id: r!.id, version: r!.version, pass: true })).status).toBe(403);
    expect((await api.post(R.contacts, other.token, { id: demoId, qyType: '施工企业' })).status).toBe(404);
    // admins do not change on an enterprise's behalf
    expect((await api.post(R.save, admin, await saveBody(user1))).status).toBe(403);
  });
});

describe('the enterprise information', () => {
  it('changes publicly only when the round passes; the contact comes from its people', async () => {
    const direct = await api.put(INFO, user1, {});
    expect([400, 403]).toContain(direct.status);
    const contacts = await api.post(R.contacts, user1, { id: demoId, qyType: '施工企业' });
    expect(contacts.status).toBe(200);
    expect(contacts.body.data[0]).toHaveProperty('ry_name');
    const before = (await db().select().from(enterprises).where(eq(enterprises.id, demoId)))[0]!;
    const s = await api.post(R.save, user1, {
      gnCoding: RFC_AREAS.enterprise,
      businessId: demoId,
      changeTypeCode: 'info/basic',
      logbook: '注册地址变更',
      attachment: [await upload(user1, '说明.pdf')],
      fileList: [
        { code: 'bgsqb', fileId: await upload(user1) },
        { code: 'yyzz', fileId: await upload(user1, '营业执照.pdf') },
      ],
      dataList: [{ changeField: 'address', newValue: '太原市万柏林区长风西街 8 号' }],
    });
    expect(s.status).toBe(200);
    const sub = await api.post(R.submit, user1, { id: s.body.data.id, version: s.body.data.version });
    expect(sub.status).toBe(200);
    const info = (await api.get(INFO, user1)) as { body: { data: Record<string, unknown> } };
    expect(info.body.data.address).toBe(before.address);
    expect(info.body.data.change).toMatchObject({ status: 'pending' });
    const ok = await api.post(R.audit, admin, { id: s.body.data.id, version: sub.body.data.version, pass: true });
    expect(ok.status).toBe(200);
    const after = (await db().select().from(enterprises).where(eq(enterprises.id, demoId)))[0]!;
    expect(after.address).toBe('太原市万柏林区长风西街 8 号');
    const c = await api.post(R.save, user1, {
      gnCoding: RFC_AREAS.enterprise,
      businessId: demoId,
      changeTypeCode: 'contact/contact',
      logbook: '联系人调整',
      attachment: [await upload(user1, '说明.pdf')],
      dataList: [{ changeField: 'contact', newValue: contacts.body.data[0].id }],
    });
    expect(c.status).toBe(200);
    expect(c.body.data.dataList[0]).toMatchObject({
      changeField: 'contact',
      newText: expect.stringContaining(contacts.body.data[0].ry_name),
    });
  });

  it('serves the form template to anyone', async () => {
    const r = await t.app.inject({ method: 'GET', url: `${R.template}?gnCoding=${CR}&changeTypeCode=info/record` });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('spreadsheetml');
    expect(r.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
