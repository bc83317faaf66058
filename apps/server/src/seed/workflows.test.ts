import { rmSync } from 'node:fs';
import path from 'node:path';
import { CREDIT_DEFAULT_BASE_SCORE, creditGradeOf, isValidIdNumber, RFC_AREAS, RFC_REVIEW_NODE } from '@ks/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditChanges, files, operationLogs, userMessages, users } from '../db/schema';
import { tmpDataDir } from '../modules/files/testkit';
import { registerNoticeHooks } from '../modules/tender/notice.service';
import { createLocalStorage } from '../platform/storage/local';
import { bearer, client, createTestApp, createTestDatabase, loginToken, type TestApp } from '../test/harness';
import { DEMO_ROUND_TEXTS } from './changes';
import { DEMO_DISPUTE_GAIN, DEMO_DISPUTES } from './credit';
import { seedDemo } from './demo';
import { DEMO_CYRY, DEMO_ZYZC } from './people';

/**
 * What a newcomer sees of the change rounds and of the engine's people nodes in a fresh demo (issue 13 follow-up): the
 * demo is seeded into an empty database here, its evidence files into the app's store, and read through the API as
 * user1, the administrator and the 审核员 would.
 */

let t: TestApp;
let dataDir: string;
const api = client(() => t);
const tokens: Record<'user' | 'admin' | 'auditor', string> = { user: '', admin: '', auditor: '' };
type Any = any;

const post = async (who: keyof typeof tokens, url: string, body: object) => {
  const r = await api.post(url, tokens[who], body);
  expect(r.status, `${url} ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
  return r.body.data as Any;
};
const rounds = (who: keyof typeof tokens, businessId: string) =>
  post(who, '/ks/rfc/change-records', {
    change: false,
    businessId,
    gnCoding: RFC_AREAS.creditRecord,
    systemCoding: 'XYGL',
  }) as Promise<Any[]>;
const recordsOf = async (who: keyof typeof tokens, gnCoding: string) =>
  (await post(who, '/ks/engine/v1/records/list', { gnCoding, pageNum: 1, pageSize: 50 })).records as Any[];
const creditRecords = async () =>
  (
    await post('user', '/ks/credit/record/list', {
      subjectKind: 'enterprise',
      status: 'passed',
      pageNum: 1,
      pageSize: 50,
    })
  ).records as Any[];
const todosOf = async (who: keyof typeof tokens) =>
  (await post(who, '/ks/notification/v1/audit/todo-list', { systemCoding: 'XYGL', curPage: 1, pageSize: 50 }))
    .records as Any[];
const countBy = (xs: string[]) => {
  const m: Record<string, number> = {};
  for (const x of xs) m[x] = (m[x] ?? 0) + 1;
  return m;
};

beforeAll(async () => {
  dataDir = tmpDataDir();
  // an empty, migrated database: the harness seeds it with the app's store (DATA_DIR/files)
  const database = await createTestDatabase();
  // an earlier app of this worker may have left the notice hook on its own (advanced) clock: the seed publishes at
  // its own time all the same
  registerNoticeHooks(() => new Date(Date.now() + 3 * 86_400_000));
  t = await createTestApp({ database, env: { DATA_DIR: dataDir, SINGLE_SESSION: '0' } });
  [tokens.user, tokens.admin, tokens.auditor] = await Promise.all([
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'auditor', 'U'),
  ]);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await t?.database.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('change rounds in a fresh demo', () => {
  it('the disputed penalty: round 1 rejected with a suggestion, round 2 passed and applied', async () => {
    const quality = (await creditRecords()).find((r) => r.title === DEMO_DISPUTES.quality.title);
    expect(quality).toBeTruthy();
    // the correction is applied: the record holds the corrected score
    expect(quality.score).toBe(DEMO_DISPUTES.quality.corrected);
    const list = await rounds('user', quality.id);
    expect(list.map((r) => [r.round, r.change, r.changeStatus])).toEqual([
      [1, '-1', '变更驳回'],
      [2, '2', '变更通过'],
    ]);
    expect(list[0]).toMatchObject({
      auditRecord: DEMO_ROUND_TEXTS.round1Rejection,
      auditorName: '平台管理员',
      logbook: DEMO_ROUND_TEXTS.round1Reason,
      pass: false,
      userPermission: false,
      managerPermission: false,
    });
    expect(list[1]).toMatchObject({ auditRecord: DEMO_ROUND_TEXTS.round2Opinion, auditorName: '王晓燕', pass: true });
    expect(list[1].dataList).toContainEqual(
      expect.objectContaining({
        changeField: 'score',
        oldValue: '8',
        newValue: String(DEMO_DISPUTES.quality.corrected),
      }),
    );
    // each round keeps its own files: the explanation and the two annexes
    for (const r of list) {
      expect(r.files.map((f: Any) => f.code).sort()).toEqual([null, 'bgsqb', 'zmcl'].sort());
    }
    expect(list[0].files.map((f: Any) => f.fileName)).toContain('整改复查验收记录（复印件）.pdf');
    expect(list[1].files.map((f: Any) => f.fileName)).toContain('整改复查验收记录（原件扫描件）.pdf');
    // a closed history: nothing to press for anyone
    const asAdmin = await rounds('admin', quality.id);
    expect(asAdmin.every((r) => !r.managerPermission)).toBe(true);
  });

  it('evidence files are real PDFs in the store, downloadable by the enterprise and the reviewer', async () => {
    const quality = (await creditRecords()).find((r) => r.title === DEMO_DISPUTES.quality.title);
    const [, passed] = await rounds('admin', quality.id);
    for (const f of passed.files as Any[]) {
      for (const who of ['user', 'admin'] as const) {
        const res = await t.app.inject({ method: 'GET', url: f.url, headers: bearer(tokens[who]) });
        expect(res.statusCode, f.fileName).toBe(200);
        expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      }
    }
    // the bytes are in DATA_DIR/files, under the rows' keys, of the stored size
    const store = createLocalStorage(path.join(dataDir, 'files'));
    const rows = await t.database.db.select().from(files).where(eq(files.gnCoding, RFC_REVIEW_NODE));
    expect(rows.length).toBe(9);
    for (const r of rows) expect(await store.stat(r.storageKey), r.fileName).toEqual({ size: r.fileSize });
    // the passed round's annexes became the record's evidence
    expect(quality.files.map((f: Any) => f.fileName).sort()).toEqual(
      ['信用信息变更申请表.pdf', '整改复查验收记录（原件扫描件）.pdf'].sort(),
    );
  });

  it('the waiting round: a to-do and a decision for the administrator and the 审核员, nothing for user1', async () => {
    const safety = (await creditRecords()).find((r) => r.title === DEMO_DISPUTES.safety.title);
    const [waiting] = await rounds('admin', safety.id);
    expect(waiting).toMatchObject({ round: 1, change: '1', submitted: true, changeType: '时间变更/有效期' });
    expect(waiting.managerPermission).toBe(true);
    expect((await rounds('auditor', safety.id))[0].managerPermission).toBe(true);
    const own = (await rounds('user', safety.id))[0];
    expect([own.userPermission, own.managerPermission]).toEqual([false, false]);
    for (const who of ['admin', 'auditor'] as const) {
      const todos = (await todosOf(who)).filter((x) => x.gnCoding === RFC_REVIEW_NODE);
      expect(todos.map((x) => x.recordId)).toEqual([waiting.id]);
    }
    expect((await todosOf('user')).length).toBe(0);
    // the badge of 信用变更申请
    const menus = (await post('admin', '/ks/menu/v1/menus/main-menus', { systemCoding: 'XYGL' })) as Any[];
    const flat = (items: Any[]): Any[] => items.flatMap((m) => [m, ...flat(m.children ?? [])]);
    expect(flat(menus).find((m) => m.gnCoding === RFC_REVIEW_NODE)?.badge).toBe(1);
    // its 信用变更申请 records: three, one pending
    const bgsq = await recordsOf('admin', RFC_REVIEW_NODE);
    expect(countBy(bgsq.map((r) => r.status))).toEqual({ rejected: 1, passed: 1, pending: 1 });
  });

  it('leaves the e2e walk of the change rounds a record of its own: a counting good one, without rounds', async () => {
    const records = await creditRecords();
    const rounded = new Set<string>();
    for (const r of records) if ((await rounds('user', r.id)).length) rounded.add(r.id);
    expect(rounded.size).toBe(2);
    const names = new Set(records.filter((r) => rounded.has(r.id)).map((r) => r.standardName));
    // what e2e/credit-change.spec.ts picks, and finds its review row by the standard's name
    const free = records.filter(
      (r) =>
        r.conduct === 'good' && r.counting && r.score < r.highest && !rounded.has(r.id) && !names.has(r.standardName),
    );
    expect(free.length).toBeGreaterThan(0);
    expect(records.filter((r) => rounded.has(r.id)).every((r) => r.conduct === 'bad')).toBe(true);
  });

  it('user1 was told of both decisions; the operation log holds every step', async () => {
    const [u] = await t.database.db.select().from(users).where(eq(users.account, 'user1'));
    const msgs = await t.database.db.select().from(userMessages).where(eq(userMessages.userId, u!.id));
    const rounds = msgs.filter((m) => m.title.startsWith('信用记录变更'));
    expect(rounds.map((m) => m.title).sort()).toEqual([
      '信用记录变更已通过（第 2 轮）',
      '信用记录变更被驳回（第 1 轮）',
    ]);
    expect(rounds.find((m) => m.kind === 'rejected')?.reason).toBeTruthy();
    // the engine's decisions of the people nodes reach user1 too (issue 14): the rejections with their reasons
    const people = msgs.filter((m) => !m.title.startsWith('信用记录变更'));
    expect(
      people
        .filter((m) => m.kind === 'rejected')
        .map((m) => m.title)
        .sort(),
    ).toEqual(['从业人员登记：周文斌（被驳回）', '执业注册申请：孙国栋（被驳回）']);
    expect(people.filter((m) => m.kind === 'rejected').every((m) => m.reason && m.recordId)).toBe(true);
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.glName, '信用变更'));
    expect(logs.length).toBe(3 * 2 + 2);
    expect(logs.some((l) => l.logbook.startsWith('信用记录变更通过（第 2 轮）：重新评定'))).toBe(true);
    // user1's 企业信息 has no round (the e2e walk of 企业信息 opens one)
    const enterpriseRounds = await t.database.db
      .select()
      .from(creditChanges)
      .where(eq(creditChanges.gnCoding, RFC_AREAS.enterprise));
    expect(enterpriseRounds).toEqual([]);
  });

  it('the demo grade is its base plus its counting passed records, and the pass is what brought it to 88.5', async () => {
    const info = await post('user', '/ks/credit/common/info', { subjectKind: 'enterprise' });
    const counting = (await creditRecords()).filter((r) => r.counting);
    const sum = counting.reduce((s, r) => s + (r.conduct === 'good' ? r.score : -r.score), 0);
    expect(info.grade.score).toBeCloseTo(CREDIT_DEFAULT_BASE_SCORE + sum, 5);
    expect(info.grade).toMatchObject({ score: 88.5, level: 'AA' });
    // before the pass the demo stood at 85.5, still AA
    expect(creditGradeOf(88.5 - DEMO_DISPUTE_GAIN)).toBe('AA');
    // the award balances the corrected penalties
    expect(DEMO_DISPUTES.award.score).toBe(DEMO_DISPUTES.quality.corrected + DEMO_DISPUTES.safety.score);
  });
});

describe('从业人员登记 and 执业注册申请 in a fresh demo', () => {
  it('user1 sees every record of its enterprise, in every state', async () => {
    const cyry = await recordsOf('user', 'XYGL_CYRY');
    expect(cyry.length).toBe(DEMO_CYRY.length);
    expect(countBy(cyry.map((r) => r.status))).toEqual({ passed: 2, pending: 3, rejected: 1, draft: 1 });
    const zyzc = await recordsOf('user', 'XYGL_ZYZC');
    expect(zyzc.length).toBe(DEMO_ZYZC.length);
    expect(countBy(zyzc.map((r) => r.status))).toEqual({ passed: 2, rejected: 1, draft: 1 });
  });

  it('the reviewers see the records (the 审核员 the submitted ones only), with to-dos where they decide', async () => {
    const cyry = { passed: 2, pending: 3, rejected: 1 };
    const zyzc = { passed: 2, rejected: 1 };
    const expected = {
      admin: { cyry: { ...cyry, draft: 1 }, zyzc: { ...zyzc, draft: 1 } },
      auditor: { cyry, zyzc },
    };
    for (const who of ['admin', 'auditor'] as const) {
      const a = await recordsOf(who, 'XYGL_CYRY');
      expect(countBy(a.map((r) => r.status)), who).toEqual(expected[who].cyry);
      const b = await recordsOf(who, 'XYGL_ZYZC');
      expect(countBy(b.map((r) => r.status)), who).toEqual(expected[who].zyzc);
    }
    // 初审 (the 审核员 or the administrator): two; 复审 (the administrator): one
    const names = (list: Any[], node: string) =>
      list
        .filter((x) => x.gnCoding === node)
        .map((x) => x.businessName)
        .sort();
    expect(names(await todosOf('auditor'), 'XYGL_CYRY').length).toBe(2);
    expect(names(await todosOf('admin'), 'XYGL_CYRY').length).toBe(3);
    // 执业注册申请 keeps no to-do (the e2e walk of the engine counts its own)
    expect(names(await todosOf('admin'), 'XYGL_ZYZC')).toEqual([]);
  });

  it('a record passed through both levels shows its flow; a rejected one its suggestion', async () => {
    const cyry = await recordsOf('admin', 'XYGL_CYRY');
    const passed = cyry.find((r) => r.status === 'passed');
    const d = await post('admin', '/ks/engine/v1/records/detail', { gnCoding: 'XYGL_CYRY', id: passed.id });
    expect(d.auditFlow.map((s: Any) => [s.level, s.action])).toEqual([
      [0, 'submit'],
      [1, 'pass'],
      [2, 'pass'],
    ]);
    const zyzc = await recordsOf('admin', 'XYGL_ZYZC');
    const rejected = zyzc.find((r) => r.status === 'rejected');
    const dr = await post('admin', '/ks/engine/v1/records/detail', { gnCoding: 'XYGL_ZYZC', id: rejected.id });
    expect(dr.auditFlow.at(-1)).toMatchObject({ level: 2, action: 'reject' });
    expect(dr.auditFlow.at(-1).suggestion).toContain('签发机关页');
    // its three required attachments
    const res = await api.get(`/ks/common/common/attachment/list?gnCoding=XYGL_ZYZC&id=${rejected.id}`, tokens.admin);
    const annexes = res.body.data as Any[];
    expect(annexes.filter((a: Any) => a.fileId).map((a: Any) => a.annexNo)).toEqual(['01', '02', '03']);
  });

  it('ID numbers are valid GB 11643 numbers, one per person, outside the test fixtures’ range', async () => {
    const all = [...DEMO_CYRY, ...DEMO_ZYZC].map((p) => String(p.values.sfzh));
    for (const id of all) {
      expect(isValidIdNumber(id), id).toBe(true);
      expect(id.slice(6, 10)).not.toBe('1980');
    }
    expect(new Set(DEMO_CYRY.map((p) => p.values.sfzh)).size).toBe(DEMO_CYRY.length);
    // e2e/engine.spec.ts enters 140105199001011238
    expect(all).not.toContain('140105199001011238');
  });

  it('seeding again does nothing', async () => {
    expect(await seedDemo(t.database.db, { storage: createLocalStorage(path.join(dataDir, 'files')) })).toBe(false);
  });
});
