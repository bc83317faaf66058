import { creditCodeCheckChar, SUPERVISE_FUNCTION } from '@ks/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, grants, menuNodes, nodeFunctions, roles, userRoles, users } from '../../db/schema';
import { hashPassword } from '../../platform/password';
import { bearer, createTestApp, ENTERPRISE_DETAILS, json, loginToken, type TestApp } from '../../test/harness';
import { judge, NO_REVIEW, type RecordAction } from './policy';

/**
 * The record policy (policy.ts), end to end: each kind of caller × each record state × each call, asserting both the
 * record's `operations` (list and detail) and the answer the call gets. Node 信用记录 (XYGL_XYJL): 初审 by the 审核员
 * role, 复审 by administrators. Every button is granted to every kind of caller here, so that the policy — not a
 * missing grant — decides each answer.
 */

type Body = { code: number; data: any; message: string };
type State = 'draft' | 'pending' | 'rejected' | 'passed';
type Call = 'read' | 'edit' | 'delete' | 'submit' | 'revoke' | 'decide' | 'assign';
type Actor = 'admin' | 'dev' | 'owner' | 'colleague' | 'reviewer' | 'stranger' | 'selfReviewer' | 'supervisor';

const NODE = 'XYGL_XYJL';
const STATES: State[] = ['draft', 'pending', 'rejected', 'passed'];
const CALLS: Call[] = ['read', 'edit', 'delete', 'submit', 'revoke', 'decide', 'assign'];

let t: TestApp;
const tokens = {} as Record<Actor | 'user1' | 'auditor', string>;
const ids = {} as Record<string, string>;

async function call(token: string, url: string, payload: object, method: 'POST' | 'PUT' = 'POST') {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload });
  return { status: res.statusCode, body: json<Body>(res) };
}
const rec = (action: string, token: string, payload: object) =>
  call(token, `/ks/engine/v1/records/${action}`, { gnCoding: NODE, ...payload });
const detail = (token: string, id: string) => rec('detail', token, { id });

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const ent = async (name: string, first17: string) =>
    (
      await db
        .insert(enterprises)
        .values({ ...ENTERPRISE_DETAILS, name, creditCode: `${first17}${creditCodeCheckChar(first17)}` })
        .returning()
    )[0]!.id;
  const [demo] = await db.select().from(users).where(eq(users.account, 'user1'));
  const reviewerEnt = await ent('某某审核服务中心', '91140100MA0L00021');
  const otherEnt = await ent('无关建设有限公司', '91140100MA0L00022');
  const selfEnt = await ent('自审建设有限公司', '91140100MA0L00023');
  const [auditorRole] = await db.select().from(roles).where(eq(roles.code, 'auditor'));
  const passwordHash = await hashPassword('Demo@2026');
  const add = async (account: string, enterpriseId: string | null, auditor: boolean) => {
    const [u] = await db
      .insert(users)
      .values({ account, userName: account, loginRoleType: 'U', passwordHash, enterpriseId })
      .returning();
    ids[account] = u!.id;
    if (auditor) await db.insert(userRoles).values({ userId: u!.id, roleId: auditorRole!.id });
  };
  await add('colleague', demo!.enterpriseId!, false);
  await add('reviewer', reviewerEnt, true);
  await add('stranger', otherEnt, false);
  // an applicant of their own enterprise who also holds the 审核员 role
  await add('selfreviewer', selfEnt, true);
  // a supervision officer (no enterprise) of the role 监督, which holds the node's 监督查看
  await add('jd-officer', null, false);
  await db.insert(roles).values({ code: 'jd_test', name: '监督（测试）' });
  const [jd] = await db.select().from(roles).where(eq(roles.code, 'jd_test'));
  await db.insert(userRoles).values({ userId: ids['jd-officer']!, roleId: jd!.id });
  // every button to everyone: the policy alone decides
  const [node] = await db.select().from(menuNodes).where(eq(menuNodes.gnCoding, NODE));
  await db.insert(nodeFunctions).values({ nodeId: node!.id, code: 'assign', name: '指派', color: '#E6A23C', sort: 20 });
  const all = ['', 'add', 'edit', 'detail', 'delete', 'submit', 'revoke', 'audit', 'assign'];
  for (const role of ['user', 'developer', 'auditor']) {
    await db
      .insert(grants)
      .values(all.map((functionCode) => ({ subjectType: 'role', subjectId: role, nodeId: node!.id, functionCode })))
      .onConflictDoNothing();
  }
  await db
    .insert(grants)
    .values({ subjectType: 'role', subjectId: 'jd_test', nodeId: node!.id, functionCode: SUPERVISE_FUNCTION });
  const [admin, dev, user1, colleague, reviewer, stranger, selfReviewer, auditor, supervisor] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
    loginToken(t.app, 'colleague', 'U'),
    loginToken(t.app, 'reviewer', 'U'),
    loginToken(t.app, 'stranger', 'U'),
    loginToken(t.app, 'selfreviewer', 'U'),
    loginToken(t.app, 'auditor', 'U'),
    loginToken(t.app, 'jd-officer', 'U'),
  ]);
  Object.assign(tokens, {
    admin,
    dev,
    owner: user1,
    user1,
    colleague,
    reviewer,
    stranger,
    selfReviewer,
    auditor,
    supervisor,
  });
  const fields = [
    { code: 'qymc', name: '企业名称', type: 'text', required: 1 },
    { code: 'xylb', name: '信用类别', type: 'text' },
  ];
  expect((await call(dev, '/ks/config/node/fields', { gnCoding: NODE, fields, version: 0 }, 'PUT')).status).toBe(200);
}, 120_000);
afterAll(async () => t?.close());

/** A record of `applicant` brought to `state`: 驳回 and 初审 by the other enterprise's reviewer, 复审 by admin. */
async function recordIn(applicant: string, state: State, name: string): Promise<{ id: string; version: number }> {
  const saved = await rec('save', applicant, { values: { qymc: name } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  let d = saved.body.data;
  if (state === 'draft') return d;
  d = (await rec('submit', applicant, { id: d.id, version: d.version })).body.data;
  expect(d.status).toBe('pending');
  if (state === 'pending') return d;
  if (state === 'rejected') {
    d = (await rec('audit', tokens.reviewer, { id: d.id, version: d.version, pass: false, suggestion: '材料不全' }))
      .body.data;
    expect(d.status).toBe('rejected');
    return d;
  }
  d = (await rec('audit', tokens.reviewer, { id: d.id, version: d.version, pass: true })).body.data;
  d = (await rec('audit', tokens.admin, { id: d.id, version: d.version, pass: true })).body.data;
  expect(d.status).toBe('passed');
  return d;
}

/** The call, as the web would send it for a record at `version`. */
function press(actor: Actor, callName: Call, r: { id: string; version: number }) {
  const token = tokens[actor];
  switch (callName) {
    case 'read':
      return detail(token, r.id);
    case 'edit':
      return rec('save', token, { id: r.id, version: r.version, values: { qymc: `改：${actor}` } });
    case 'delete':
      return rec('delete', token, { id: r.id });
    case 'submit':
      return rec('submit', token, { id: r.id, version: r.version });
    case 'revoke':
      return rec('revoke', token, { id: r.id, version: r.version });
    case 'decide':
      return rec('audit', token, { id: r.id, version: r.version, pass: true });
    case 'assign':
      return rec('assign', token, { id: r.id, version: r.version, userId: ids.reviewer });
  }
}

// ── the expected answers ─────────────────────────────────────────────────────

/** The record's side (owner, colleague, and the self-reviewer on their own records). */
const SIDE: Record<State, Record<Call, number>> = {
  draft: { read: 200, edit: 200, delete: 200, submit: 200, revoke: 409, decide: 403, assign: 403 },
  pending: { read: 200, edit: 409, delete: 409, submit: 409, revoke: 200, decide: 403, assign: 403 },
  rejected: { read: 200, edit: 200, delete: 409, submit: 200, revoke: 409, decide: 403, assign: 403 },
  passed: { read: 200, edit: 409, delete: 409, submit: 409, revoke: 409, decide: 403, assign: 403 },
};
/** Administrators and developers: read everything, never act for the applicant; decide only as reviewers. */
const OVERSIGHT: Record<State, Record<Call, number>> = {
  draft: { read: 200, edit: 403, delete: 403, submit: 403, revoke: 403, decide: 409, assign: 409 },
  // 初审 belongs to the 审核员: neither decides it; both (holding 指派) may assign it
  pending: { read: 200, edit: 403, delete: 403, submit: 403, revoke: 403, decide: 403, assign: 200 },
  rejected: { read: 200, edit: 403, delete: 403, submit: 403, revoke: 403, decide: 409, assign: 409 },
  passed: { read: 200, edit: 403, delete: 403, submit: 403, revoke: 403, decide: 409, assign: 409 },
};
const EXPECTED: Record<Actor, Record<State, Record<Call, number>>> = {
  owner: SIDE,
  colleague: SIDE,
  selfReviewer: SIDE,
  admin: OVERSIGHT,
  dev: OVERSIGHT,
  // another enterprise's reviewer: sees the record once asked to review it, decides it, never edits it
  reviewer: {
    draft: { read: 404, edit: 404, delete: 404, submit: 404, revoke: 404, decide: 404, assign: 404 },
    pending: { read: 200, edit: 403, delete: 403, submit: 403, revoke: 403, decide: 200, assign: 200 },
    rejected: { read: 200, edit: 403, delete: 403, submit: 403, revoke: 403, decide: 409, assign: 409 },
    passed: { read: 200, edit: 403, delete: 403, submit: 403, revoke: 403, decide: 409, assign: 409 },
  },
  // unrelated: the record does not exist for them
  stranger: Object.fromEntries(STATES.map((s) => [s, Object.fromEntries(CALLS.map((c) => [c, 404]))])) as never,
  // the node's supervisor (监督查看, every button granted too): reads every record, acts on none
  supervisor: Object.fromEntries(
    STATES.map((s) => [s, Object.fromEntries(CALLS.map((c) => [c, c === 'read' ? 200 : 403]))]),
  ) as never,
};
/** The row buttons each one is offered (every button is granted to all). */
const SIDE_OPS: Record<State, string[]> = {
  draft: ['delete', 'detail', 'edit'],
  pending: ['detail', 'revoke'],
  rejected: ['detail', 'edit'],
  passed: ['detail'],
};
const OVERSIGHT_OPS: Record<State, string[]> = {
  draft: ['detail'],
  pending: ['assign', 'detail'],
  rejected: ['detail'],
  passed: ['detail'],
};
const OPS: Record<Actor, Record<State, string[] | null>> = {
  owner: SIDE_OPS,
  colleague: SIDE_OPS,
  selfReviewer: SIDE_OPS,
  admin: OVERSIGHT_OPS,
  dev: OVERSIGHT_OPS,
  reviewer: { draft: null, pending: ['assign', 'audit', 'detail'], rejected: ['detail'], passed: ['detail'] },
  stranger: { draft: null, pending: null, rejected: null, passed: null },
  supervisor: { draft: ['detail'], pending: ['detail'], rejected: ['detail'], passed: ['detail'] },
};

const ACTORS: Actor[] = ['admin', 'dev', 'owner', 'colleague', 'reviewer', 'stranger', 'selfReviewer', 'supervisor'];
/** Whose record each actor acts on: the self-reviewer on their own, everyone else on user1's. */
const applicantOf = (a: Actor) => (a === 'selfReviewer' ? tokens.selfReviewer : tokens.user1);

describe('record policy: operations offered and calls answered', () => {
  for (const state of STATES) {
    it(`${state}: every caller's operations and every call's answer; refused calls change nothing`, async () => {
      const shared = new Map<string, { id: string; version: number }>();
      for (const actor of ACTORS) {
        const applicant = applicantOf(actor);
        const key = applicant === tokens.user1 ? 'user1' : 'self';
        if (!shared.has(key)) shared.set(key, await recordIn(applicant, state, `${state}-${key}`));
        const r = shared.get(key)!;
        // the operations, in the list and the detail alike; listed exactly when readable
        const listed = (await rec('list', tokens[actor], { pageSize: 50 })).body.data.records.find(
          (x: any) => x.id === r.id,
        );
        const shown = await detail(tokens[actor], r.id);
        const ops = OPS[actor][state];
        if (ops === null) {
          expect(listed, `${actor} lists ${state}`).toBeUndefined();
          expect(shown.status, `${actor} reads ${state}`).toBe(404);
        } else {
          expect(shown.status, `${actor} reads ${state}`).toBe(200);
          const codes = (list: any[]) => list.map((o: any) => o.code).sort();
          expect(codes(shown.body.data.operations), `${actor} ${state} operations`).toEqual(ops);
          expect(codes(listed.operations), `${actor} ${state} listed operations`).toEqual(ops);
        }
        for (const c of CALLS) {
          const want = EXPECTED[actor][state][c];
          if (want === 200) continue;
          const res = await press(actor, c, r);
          expect(res.status, `${actor} ${c} ${state}: ${res.body.message}`).toBe(want);
        }
      }
      // nothing refused wrote anything
      for (const [key, r] of shared) {
        const after = (await detail(tokens.admin, r.id)).body.data;
        expect([after.status, after.version], key).toEqual([state, r.version]);
      }
    }, 240_000);
  }

  it('the calls the policy allows succeed, each on a record of its own', async () => {
    for (const actor of ACTORS) {
      for (const state of STATES) {
        for (const c of CALLS) {
          if (EXPECTED[actor][state][c] !== 200 || c === 'read') continue;
          const r = await recordIn(applicantOf(actor), state, `${actor}-${c}`);
          const res = await press(actor, c, r);
          expect(res.status, `${actor} ${c} ${state}: ${res.body.message}`).toBe(200);
        }
      }
    }
  }, 240_000);

  it('says why: the applicant side acts, the reviewers decide, administrators do not act for the applicant', async () => {
    const pending = await recordIn(tokens.user1, 'pending', '原因');
    const rejected = await recordIn(tokens.user1, 'rejected', '原因二');
    // a reviewer of another enterprise who once had the record in review cannot edit or delete it
    const edit = await press('reviewer', 'edit', rejected);
    expect([edit.status, edit.body.message]).toEqual([403, '只有申请方可以办理该记录']);
    expect((await press('reviewer', 'delete', rejected)).body.message).toBe('只有申请方可以办理该记录');
    const adminEdit = await press('admin', 'edit', rejected);
    expect([adminEdit.status, adminEdit.body.message]).toEqual([403, '管理员不能代替申请方修改、提交、撤回或删除记录']);
    expect((await press('admin', 'revoke', pending)).status).toBe(403);
    // the node's supervisor reads and is told why nothing else
    const watched = await press('supervisor', 'decide', pending);
    expect([watched.status, watched.body.message]).toEqual([403, '监督人员只能查看记录，不能办理']);
    const own = await press('owner', 'decide', pending);
    expect([own.status, own.body.message]).toEqual([403, '不能审核本人或本企业提交的记录']);
    const notLevel = await press('admin', 'decide', pending);
    expect([notLevel.status, notLevel.body.message]).toEqual([403, '您不是该级审核人']);
    // a submitter who holds the 审核员 role cannot approve their own record, though the level is their role's
    const mine = await recordIn(tokens.selfReviewer, 'pending', '自审');
    const self = await press('selfReviewer', 'decide', mine);
    expect([self.status, self.body.message]).toEqual([403, '不能审核本人或本企业提交的记录']);
    expect((await detail(tokens.selfReviewer, mine.id)).body.data.operations.map((o: any) => o.code)).not.toContain(
      'audit',
    );
    // nor pick its reviewer
    expect((await press('selfReviewer', 'assign', mine)).body.message).toBe('申请方不能指派审核人');
    // and is not offered as a reviewer of it: 指派 lists the other 审核员 only
    const candidates = await call(tokens.admin, '/ks/authority/manager/assignable-list', {
      gnCoding: NODE,
      id: mine.id,
    });
    expect(candidates.body.data.map((u: any) => u.id)).not.toContain(ids.selfreviewer);
    expect(candidates.body.data.map((u: any) => u.id)).toContain(ids.reviewer);
  });
});

describe('judge (pure)', () => {
  const me = { id: 'u1', loginRoleType: 'U', enterpriseId: 'e1' };
  const record = (status: string, enterpriseId: string | null = 'e1', ownerId = 'u0') => ({
    status,
    version: 3,
    ownerId,
    enterpriseId,
  });
  const verdict = (action: RecordAction, r = record('draft'), review = NO_REVIEW, version?: number) => {
    const v = judge(me, r, review, action, version);
    return v.ok ? 200 : v.status;
  };

  it('a stale version is a 409 for the side, never a reason to tell another side more', () => {
    expect(verdict('edit', record('draft'), NO_REVIEW, 2)).toBe(409);
    expect(verdict('edit', record('draft'), NO_REVIEW, 3)).toBe(200);
    expect(verdict('edit', record('draft', 'e2'), NO_REVIEW, 2)).toBe(404);
    expect(verdict('edit', record('draft', 'e2'), { ...NO_REVIEW, asked: true }, 2)).toBe(403);
  });

  it('监督查看 reads another side’s record and acts on none of it; asked to review, the supervisor decides', () => {
    const watched = { ...NO_REVIEW, supervises: true };
    expect(verdict('read', record('passed', 'e2'), watched)).toBe(200);
    for (const a of ['edit', 'delete', 'submit', 'revoke', 'decide', 'assign'] as const) {
      expect(verdict(a, record('pending', 'e2'), watched)).toBe(403);
    }
    const level = { level: 1, name: '初审', way: 'any' as const, reviewerRoles: ['jd'], reviewerUserIds: [] };
    const asked = { ...watched, asked: true, level, reviewerOfLevel: true, holdsOpenTodo: true };
    expect(verdict('decide', record('pending', 'e2'), asked)).toBe(200);
    // on their own side's record the grant changes nothing
    expect(verdict('edit', record('draft'), watched)).toBe(200);
  });

  it('the current round’s submitter never decides it, even from another enterprise now', () => {
    const level = { level: 1, name: '初审', way: 'any' as const, reviewerRoles: ['auditor'], reviewerUserIds: [] };
    const review = { ...NO_REVIEW, asked: true, level, reviewerOfLevel: true, holdsOpenTodo: true };
    expect(verdict('decide', record('pending', 'e2'), review)).toBe(200);
    expect(verdict('decide', record('pending', 'e2'), { ...review, submitterId: 'u1' })).toBe(403);
    expect(verdict('decide', record('pending', 'e2', 'u1'), review)).toBe(403);
    expect(verdict('decide', record('pending', 'e2'), { ...review, holdsOpenTodo: false, heldByOthers: true })).toBe(
      403,
    );
    expect(verdict('decide', record('pending', 'e2'), { ...review, passedThisRound: true })).toBe(409);
    expect(verdict('assign', record('pending', 'e2'), { ...review, level: { ...level, way: 'all' } })).toBe(409);
  });
});
