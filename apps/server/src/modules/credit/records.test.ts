import { rmSync } from 'node:fs';
import { CREDIT_NODE } from '@ks/contracts';
import { and, asc, eq, inArray, isNull, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  creditConductRecords,
  creditRecords,
  enterprises,
  files,
  menuNodes,
  operationLogs,
  practitioners,
  todos,
  userMessages,
  users,
} from '../../db/schema';
import { DEMO_CREDIT_CODE } from '../../seed/demo';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { otherEnterpriseUser, tmpDataDir } from '../files/testkit';
import { storedGrade } from './grade.service';
import { creditClient, dayFrom, P, standardId } from './testkit';

/**
 * Credit records through the API (issue 13): declaring with the §5 rules, submitting, reviewing (reject needs a
 * suggestion, only submitted records, one of two simultaneous decisions), the grade moving with each decision in the
 * same transaction, to-dos and operation-log rows, ownership (another enterprise's user: 403/404 on every call), and
 * auto-retrieve from the portal's published decisions.
 */

let t: TestApp;
let dataDir: string;
const api = creditClient(() => t);
const db = () => t.database.db;
let admin: string;
let admin2: string;
let user1: string;
let dev: string;
let other: { token: string; userId: string; enterpriseId: string };
let auditor: { token: string; userId: string; enterpriseId: string };
let demoId: string;
let fswq: string; // 获得省级优质工程奖（“汾水杯”等）: highest 10, 24 months

beforeAll(async () => {
  dataDir = tmpDataDir();
  t = await createTestApp({ env: { DATA_DIR: dataDir, SINGLE_SESSION: '0' } });
  [admin, admin2, user1, dev] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'dev', 'D'),
  ]);
  other = await otherEnterpriseUser(t, 'credit_other');
  auditor = await otherEnterpriseUser(t, 'credit_aud', { auditor: true });
  demoId = (await db().select().from(enterprises).where(eq(enterprises.creditCode, DEMO_CREDIT_CODE)))[0]!.id;
  fswq = await standardId(db(), 'LH-GC-02');
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const today = () => dayFrom(t.clock.now, 0);

async function declare(token: string, over: Record<string, unknown> = {}) {
  const fileIds = 'fileIds' in over ? over.fileIds : [await api.evidence(token)];
  return api.post(P.add, token, {
    standardId: fswq,
    score: 5,
    startTime: dayFrom(t.clock.now, -10),
    title: '承建太原市某住宅项目获评2026年度“汾水杯”',
    issuer: '山西省建筑业协会',
    ...over,
    fileIds,
  });
}

const demoGrade = async () => (await storedGrade(db(), { kind: 'enterprise', id: demoId }))!;

describe('declaring a record (§5)', () => {
  it('refuses a score above the standard’s highest, naming it; a negative score; an end before the start; no evidence', async () => {
    const above = await declare(user1, { score: 12 });
    expect(above.status).toBe(400);
    expect(above.body.message).toBe('分值不能超过该信用标准的最高分10分，请作废本次申报后另行添加其他信用标准项！');
    expect(above.body.data.fieldErrors.score).toEqual([above.body.message]);
    const negative = await declare(user1, { score: -1 });
    expect([negative.status, negative.body.message]).toEqual([400, '分值不能为负数']);
    const backwards = await declare(user1, { startTime: today(), endTime: dayFrom(t.clock.now, -1) });
    expect([backwards.status, backwards.body.message]).toEqual([400, '结束时间不能早于开始时间']);
    const tooLong = await declare(user1, { startTime: '2026-01-15', endTime: '2028-01-15' });
    expect(tooLong.body.message).toBe('有效期不能超过该信用标准规定的24个月（最晚至2028-01-14）');
    const bare = await declare(user1, { fileIds: [] });
    expect([bare.status, bare.body.message]).toEqual([400, '请上传附件！']);
    const person = await declare(user1, { standardId: await standardId(db(), 'LH-RY-01') });
    expect(person.body.message).toBe('该信用标准不适用于企业');
    // another enterprise's file cannot be evidence here
    const theirs = await declare(user1, { fileIds: [await api.evidence(other.token)] });
    expect([theirs.status, theirs.body.message]).toEqual([400, '附件不存在或已用于其他记录，请重新上传']);
  });

  it('saves a draft with its validity from the standard, binds the evidence and logs it; administrators cannot declare', async () => {
    const r = await declare(user1);
    expect(r.status).toBe(200);
    const rec = r.body.data;
    expect(rec).toMatchObject({
      status: 'draft',
      statusText: '草稿',
      source: 'declared',
      subjectName: '示例建设工程有限公司',
      standardName: '获得省级优质工程奖（“汾水杯”等）',
      xxGrouping: '工程质量荣誉',
      conduct: 'good',
      highest: 10,
      score: 5,
      counting: false,
      endTime: dayFrom(new Date(`${dayFrom(t.clock.now, -10)}T12:00:00+08:00`), 730),
    });
    expect(rec.files).toHaveLength(1);
    expect(rec.operations.map((o: { code: string }) => o.code)).toEqual(['detail', 'edit', 'submit', 'delete']);
    const [f] = await db().select().from(files).where(eq(files.id, rec.files[0].fileId));
    expect([f!.gnCoding, f!.recordId]).toEqual([CREDIT_NODE, rec.id]);
    const logs = await db().select().from(operationLogs).where(eq(operationLogs.recordId, rec.id));
    expect(logs[0]!.logbook).toContain('新增良好行为记录：示例建设工程有限公司·获得省级优质工程奖');
    expect((await declare(admin)).status).toBe(403);
    expect((await declare(dev)).status).toBe(403);
  });

  it('the evidence downloads for the enterprise, reviewers and developers; another enterprise’s user gets 404', async () => {
    const rec = (await declare(user1)).body.data;
    const url = `/ks/common/common/file/download?fileId=${rec.files[0].fileId}`;
    for (const token of [user1, admin, auditor.token, dev]) {
      const r = await api.get(url, token);
      expect(r.status).toBe(200);
      expect(r.res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
    expect((await api.get(url, other.token)).status).toBe(404);
    // not a reviewer: the auditor role without the credit node's 审核
    const plain = await otherEnterpriseUser(t, 'credit_plain');
    expect((await api.get(url, plain.token)).status).toBe(404);
  });
});

describe('review', () => {
  it('submit → reject needs a suggestion → edit and resubmit → pass: the grade moves in the same call', async () => {
    const before = await demoGrade();
    const rec = (await declare(user1, { score: 4 })).body.data;
    const submitted = await api.post(P.submit, user1, { id: rec.id, version: rec.version });
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({ status: 'submitted', submittedBy: '张建国' });
    // reviewers get to-dos on the credit node: administrators and the 审核员 role
    const open = await db()
      .select()
      .from(todos)
      .where(and(eq(todos.recordId, rec.id), isNull(todos.doneAt)));
    expect(open.map((x) => `${x.assigneeType}:${x.assigneeId}`).sort()).toEqual(['role:admin', 'role:auditor']);
    expect(open[0]!.businessName).toBe('信用记录：示例建设工程有限公司·获得省级优质工程奖（“汾水杯”等）');

    const noSuggestion = await api.post(P.audit, admin, { id: rec.id, pass: false });
    expect([noSuggestion.status, noSuggestion.body.message]).toEqual([400, '请填写审核建议']);
    const blank = await api.post(P.audit, admin, { id: rec.id, pass: false, suggestion: '   ' });
    expect(blank.body.message).toBe('请填写审核建议');
    const rejected = await api.post(P.audit, auditor.token, {
      id: rec.id,
      pass: false,
      suggestion: '证书扫描件不清晰',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: 'rejected', auditSuggestion: '证书扫描件不清晰' });
    expect(
      await db()
        .select()
        .from(todos)
        .where(and(eq(todos.recordId, rec.id), isNull(todos.doneAt))),
    ).toHaveLength(0);
    expect((await demoGrade()).score).toBe(before.score);

    const again = await api.post(P.update, user1, {
      id: rec.id,
      version: rejected.body.data.version,
      standardId: fswq,
      score: 4,
      startTime: rec.startTime,
      title: rec.title,
      fileIds: [rec.files[0].fileId, await api.evidence(user1, '清晰扫描件.pdf')],
    });
    expect(again.status).toBe(200);
    expect(again.body.data.files).toHaveLength(2);
    await api.post(P.submit, user1, { id: rec.id });
    const passed = await api.post(P.audit, admin, { id: rec.id, pass: true });
    expect(passed.status).toBe(200);
    expect(passed.body.data).toMatchObject({ status: 'passed', counting: true, auditedBy: '平台管理员' });
    const after = await demoGrade();
    expect(after.score).toBe(before.score + 4);
    const [e] = await db().select().from(enterprises).where(eq(enterprises.id, demoId));
    expect(Number(e!.creditScore)).toBe(after.score);
    const info = await api.post(P.info, user1, {});
    expect(info.body.data.grade.score).toBe(after.score);
    const logs = (await db().select().from(operationLogs).where(eq(operationLogs.recordId, rec.id))).map(
      (l) => l.logbook,
    );
    expect(logs).toEqual(
      expect.arrayContaining([
        '提交审核',
        '审核驳回：证书扫描件不清晰',
        '提交审核（驳回后重新提交）',
        expect.stringMatching(/^审核通过；重新评定：\d+(\.\d+)? 分（AA+）$/),
      ]),
    );

    // a passed record is not the enterprise's to change; a reviewer revokes it (with a reason) and the grade drops back
    const edit = await api.post(P.update, user1, {
      ...again.body.data,
      version: passed.body.data.version,
      fileIds: [],
    });
    expect(edit.status).toBe(409);
    expect((await api.post(P.remove, user1, { id: rec.id })).status).toBe(409);
    expect((await api.post(P.revoke, user1, { id: rec.id })).status).toBe(409);
    const noReason = await api.post(P.revoke, admin, { id: rec.id });
    expect([noReason.status, noReason.body.message]).toEqual([400, '请填写撤销原因']);
    const revoked = await api.post(P.revoke, admin, { id: rec.id, reason: '该奖项经核查不属实' });
    expect(revoked.body.data).toMatchObject({ status: 'revoked', revokeReason: '该奖项经核查不属实', counting: false });
    expect((await demoGrade()).score).toBe(before.score);
    expect((await api.post(P.revoke, admin, { id: rec.id, reason: '再次' })).status).toBe(409);
    // each decision told the enterprise's user who submitted it (the message centre reads these)
    const user1Id = (await db().select().from(users).where(eq(users.account, 'user1')))[0]!.id;
    const told = await db()
      .select()
      .from(userMessages)
      .where(and(eq(userMessages.userId, user1Id), like(userMessages.title, `%${rec.title}%`)))
      .orderBy(asc(userMessages.createdAt));
    expect(told.map((m) => m.title)).toEqual([
      `信用记录审核驳回：${rec.title}`,
      `信用记录审核通过：${rec.title}`,
      `信用记录已撤销：${rec.title}`,
    ]);
    expect(told[0]!.body).toContain('审核建议：证书扫描件不清晰');
    expect(told[2]!.body).toContain('原因：该奖项经核查不属实');
  });

  it('only a submitted record can be audited: 409 otherwise', async () => {
    const draft = (await declare(user1)).body.data;
    const r = await api.post(P.audit, admin, { id: draft.id, pass: true });
    expect([r.status, r.body.message]).toEqual([409, '该记录不在待审核状态，不能审核']);
    const [passed] = await db()
      .select()
      .from(creditConductRecords)
      .where(and(eq(creditConductRecords.enterpriseId, demoId), eq(creditConductRecords.status, 'passed')))
      .limit(1);
    expect((await api.post(P.audit, admin, { id: passed!.id, pass: false, suggestion: '复核' })).status).toBe(409);
  });

  it('two administrators deciding at once: exactly one wins, the other gets 409', async () => {
    for (const [a, b] of [
      [true, true],
      [true, false],
    ] as const) {
      const before = await demoGrade();
      const rec = (await declare(user1, { score: 1 })).body.data;
      await api.post(P.submit, user1, { id: rec.id });
      const results = await Promise.all([
        api.post(P.audit, admin, { id: rec.id, pass: a, suggestion: '同意' }),
        api.post(P.audit, admin2, { id: rec.id, pass: b, suggestion: '不同意' }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)!.body.data;
      const logs = await db()
        .select()
        .from(operationLogs)
        .where(and(eq(operationLogs.recordId, rec.id), sql`${operationLogs.logbook} like '审核%'`));
      expect(logs).toHaveLength(1);
      expect((await demoGrade()).score).toBe(before.score + (winner.status === 'passed' ? 1 : 0));
    }
  });

  it('the enterprise withdraws a submission; the to-dos close', async () => {
    const rec = (await declare(user1)).body.data;
    await api.post(P.submit, user1, { id: rec.id });
    const back = await api.post(P.revoke, user1, { id: rec.id });
    expect(back.body.data.status).toBe('draft');
    expect(
      await db()
        .select()
        .from(todos)
        .where(and(eq(todos.recordId, rec.id), isNull(todos.doneAt))),
    ).toHaveLength(0);
    expect((await api.post(P.audit, admin, { id: rec.id, pass: true })).status).toBe(409);
    const stale = await api.post(P.submit, user1, { id: rec.id, version: rec.version });
    expect([stale.status, stale.body.message]).toEqual([409, '记录已被修改，请刷新后重试']);
    expect((await api.post(P.remove, user1, { id: rec.id })).status).toBe(200);
    const [gone] = await db().select().from(creditConductRecords).where(eq(creditConductRecords.id, rec.id));
    expect(gone).toBeUndefined();
    // its evidence is unbound: the files module sweeps it after a day
    const [f] = await db().select().from(files).where(eq(files.id, rec.files[0].fileId));
    expect([f!.gnCoding, f!.recordId]).toEqual([CREDIT_NODE, null]);
  });
});

describe('another enterprise never reaches these records', () => {
  it('every record call of another enterprise’s user answers 403 or 404, and changes nothing', async () => {
    const rec = (await declare(user1)).body.data;
    await api.post(P.submit, user1, { id: rec.id });
    const fileId = await api.evidence(other.token);
    const mine = { subjectKind: 'enterprise', subjectId: demoId };
    const calls: [string, object][] = [
      [P.records, { ...mine }],
      [P.info, mine],
      [P.tree, mine],
      [P.add, { ...mine, standardId: fswq, score: 1, startTime: today(), title: 'x', fileIds: [fileId] }],
      [
        P.update,
        { id: rec.id, version: 2, standardId: fswq, score: 1, startTime: today(), title: 'x', fileIds: [fileId] },
      ],
      [P.remove, { id: rec.id }],
      [P.submit, { id: rec.id }],
      [P.revoke, { id: rec.id, reason: 'x' }],
      [P.audit, { id: rec.id, pass: true }],
      [P.audit, { id: rec.id, pass: false, suggestion: 'x' }],
      [P.retrieve, mine],
      [P.letter, { enterpriseId: demoId }],
      [P.management, {}],
      [P.topTitles, {}],
    ];
    for (const [url, body] of calls) {
      const r = await api.post(url, other.token, body);
      expect([403, 404], `${url} ${r.status} ${r.body.message}`).toContain(r.status);
    }
    const person = (await db().select().from(practitioners).where(eq(practitioners.enterpriseId, demoId)))[0]!;
    for (const url of [`${P.personnel}?id=${person.id}`, `${P.costEngineers}?enterpriseId=${demoId}`]) {
      const r = await api.get(url, other.token);
      expect([403, 404], url).toContain(r.status);
    }
    const [still] = await db().select().from(creditConductRecords).where(eq(creditConductRecords.id, rec.id));
    expect([still!.status, still!.version]).toEqual(['submitted', 2]);
    // and their own lists hold none of user1's
    const list = await api.post(P.list, other.token, { subjectKind: 'enterprise' });
    expect(list.body.data.records.map((x: { id: string }) => x.id)).toEqual([other.enterpriseId]);
    const ents = await api.get(P.entPullDown, other.token);
    expect(ents.body!.data.map((x: { value: string }) => x.value)).toEqual([other.enterpriseId]);
    // the reviewer of another enterprise reads and decides it (the 审核员 role holds 审核 on the credit node)
    expect((await api.post(P.records, auditor.token, mine)).status).toBe(200);
    // developers read everything and decide nothing
    expect((await api.post(P.records, dev, mine)).status).toBe(200);
    expect((await api.post(P.audit, dev, { id: rec.id, pass: true })).status).toBe(403);
  });
});

describe('auto-retrieve', () => {
  it('turns the portal’s published decisions into records waiting for review, and says what it found', async () => {
    // an enterprise whose decisions were not retrieved yet
    const [pending] = (
      (await db().execute(sql`select d.owner_id from credit_records d
        where d.owner_kind = 'enterprise' and d.is_public
          and not exists (select 1 from credit_conduct_records r where r.source_ref = d.id::text)
          and d.end_date >= ${today()}::date
        group by d.owner_id limit 1`)) as unknown as { rows: { owner_id: string }[] }
    ).rows;
    expect(pending).toBeTruthy();
    const ent = pending!.owner_id;
    const decisions = await db().select().from(creditRecords).where(eq(creditRecords.ownerId, ent));
    const r = await api.post(P.retrieve, admin, { subjectKind: 'enterprise', subjectId: ent });
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.found).toBe(decisions.length);
    expect(d.created.length + d.skipped.length).toBe(decisions.length);
    expect(d.created.length).toBeGreaterThan(0);
    for (const c of d.created) {
      const src = decisions.find((x) => x.title === c.title)!;
      expect(c).toMatchObject({
        status: 'submitted',
        source: 'retrieved',
        issuer: src.issuer,
        startTime: src.startDate,
      });
      expect(c.score).toBe(Math.min(Math.abs(Number(src.score)), c.highest));
      expect(c.operations.map((o: { code: string }) => o.code)).toContain('audit');
    }
    expect(d.message).toBe(
      `找到 ${decisions.length} 条已公开的认定结果，新增 ${d.created.length} 条待审核记录${d.skipped.length ? `，${d.skipped.length} 条未新增` : ''}`,
    );
    const waiting = await db()
      .select()
      .from(todos)
      .where(
        and(
          inArray(
            todos.recordId,
            d.created.map((c: { id: string }) => c.id),
          ),
          isNull(todos.doneAt),
        ),
      );
    expect(waiting.length).toBe(d.created.length * 2);
    // again: nothing new
    const again = (await api.post(P.retrieve, admin, { subjectKind: 'enterprise', subjectId: ent })).body.data;
    expect(again.created).toHaveLength(0);
    expect(again.skipped.filter((s: { reason: string }) => s.reason.startsWith('已获取过'))).toHaveLength(
      d.created.length,
    );
  });

  it('for the demo enterprise everything was retrieved already; retrieved records are not the enterprise’s to edit', async () => {
    const d = (await api.post(P.retrieve, user1, {})).body.data;
    expect(d.found).toBe(3);
    expect(d.created).toHaveLength(0);
    expect(d.skipped.map((s: { reason: string }) => s.reason)).toEqual(
      Array(3).fill(expect.stringMatching(/^已获取过（已通过）$/)),
    );
    const [retrieved] = await db()
      .select()
      .from(creditConductRecords)
      .where(and(eq(creditConductRecords.enterpriseId, demoId), eq(creditConductRecords.source, 'retrieved')))
      .limit(1);
    const r = await api.post(P.remove, user1, { id: retrieved!.id });
    expect([r.status, r.body.message]).toEqual([403, '自动获取的记录来自已公开的认定结果，不能修改、删除或撤回']);
    // an enterprise without decisions: found nothing, made nothing up
    const none = (await api.post(P.retrieve, other.token, {})).body.data;
    expect(none).toMatchObject({
      found: 0,
      created: [],
      skipped: [],
      message: `未找到credit_other 公司已公开的认定结果`,
    });
    expect((await api.post(P.retrieve, dev, { subjectId: demoId })).status).toBe(403);
  });
});

describe('lists', () => {
  it('the management list is for reviewers; the record list carries each caller’s operations', async () => {
    expect((await api.post(P.management, user1, {})).status).toBe(403);
    const waiting = await api.post(P.management, auditor.token, { status: 'submitted', pageSize: 50 });
    expect(waiting.status).toBe(200);
    expect(waiting.body.data.total).toBeGreaterThan(0);
    for (const r of waiting.body.data.records) {
      expect(r.status).toBe('submitted');
      expect(r.operations.map((o: { code: string }) => o.code)).toContain('audit');
    }
    const own = await api.post(P.records, user1, { status: 'passed', pageSize: 50 });
    expect(own.body.data.records.length).toBeGreaterThan(0);
    for (const r of own.body.data.records) {
      expect(r.enterpriseId).toBe(demoId);
      expect(r.operations.map((o: { code: string }) => o.code)).toEqual(['detail']);
    }
    const [node] = await db().select().from(menuNodes).where(eq(menuNodes.gnCoding, CREDIT_NODE));
    expect(node).toBeTruthy();
  });
});
