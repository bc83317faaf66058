import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Code, UPLOAD_CHUNK_SIZE } from '@ks/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './db/client';
import { operationLogs, recordAudits, todos, userMessages, users } from './db/schema';
import { SESSION_CACHE_MS } from './modules/auth/auth.service';
import { type FakeS3, startFakeS3 } from './test/fake-s3';
import { personValues } from './test/fixtures';
import { createTestDatabase, usingPostgres } from './test/harness';
import {
  call,
  type EventStream,
  formBytes,
  freePort,
  healthy,
  openStream,
  requestOver,
  type ServerProcess,
  signInOver,
  startServer,
  stopServer,
} from './test/processes';

/**
 * Two real server processes (`node --import tsx src/main.ts`) on one PostgreSQL database and one file store — a
 * shared disk folder, then S3-compatible object storage with a DATA_DIR of each process's own — driven over HTTP as a
 * reverse proxy without sticky sessions would: each step of one user's work may reach either process.
 * docs/operations.md, "Several processes: what the tests prove".
 */

const NODE = 'XYGL_CYRY';
const sha256 = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A 从业人员登记 of user1 (its own 身份证号: the node keeps one per enterprise). */
const person = personValues;

/** Ask `ask` every 25 ms until `done` says so or `ms` pass; the last answer and when it came (ms after `from`). */
async function pollUntil<T>(ask: () => Promise<T>, done: (v: T) => boolean, from: number, ms = 5000) {
  for (;;) {
    const v = await ask();
    const at = performance.now() - from;
    if (done(v) || at > ms) return { v, at };
    await sleep(25);
  }
}

const STORES = [
  { store: 'a shared disk folder', kind: 'disk' },
  { store: 'S3-compatible object storage', kind: 's3' },
] as const;

describe.skipIf(!usingPostgres).each(STORES)(
  'two server processes on one PostgreSQL database and $store',
  ({ kind }) => {
    let database: Database & { url?: string };
    let s3: FakeS3 | null = null;
    const dirs: string[] = [];
    let A: ServerProcess;
    let B: ServerProcess;
    let up: boolean[] = [];
    // one session per account for the whole file (a new sign-in of an account ends its other sessions)
    let user: string;
    let auditor: string;
    let admin: string;
    let userId: string;

    beforeAll(async () => {
      // the run's seeded template (global-setup.ts): the demo data without a minute of seeding per database
      database = await createTestDatabase({ seeded: true });
      const dir = () => {
        const d = mkdtempSync(path.join(tmpdir(), 'ks-multi-'));
        dirs.push(d);
        return d;
      };
      let envs: Record<string, string>[];
      const none = { S3_BUCKET: '', S3_ENDPOINT: '', S3_ACCESS_KEY_ID: '', S3_SECRET_ACCESS_KEY: '' };
      if (kind === 's3') {
        s3 = await startFakeS3();
        const store = {
          S3_ENDPOINT: s3.url,
          S3_BUCKET: s3.bucket,
          S3_ACCESS_KEY_ID: s3.accessKeyId,
          S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        };
        // nothing on disk is shared: whatever crosses processes goes through the database or the bucket
        envs = [
          { ...store, DATA_DIR: dir() },
          { ...store, DATA_DIR: dir() },
        ];
      } else {
        const shared = dir();
        envs = [
          { ...none, DATA_DIR: shared },
          { ...none, DATA_DIR: shared },
        ];
      }
      const ports = [await freePort(19500, 19900), await freePort(19500, 19900)];
      // both at once, as a process manager starts them
      [A, B] = ports.map((port, i) =>
        // one session per account (the default, relied on below)
        startServer(port, { ...envs[i]!, DATABASE_URL: database.url!, SINGLE_SESSION: '1' }),
      ) as [ServerProcess, ServerProcess];
      up = await Promise.all([healthy(A, 120_000), healthy(B, 120_000)]);
      if (!up.every(Boolean)) return; // the first case says why, with the processes' output
      [user, auditor, admin] = await Promise.all([
        signInOver(A.base, 'user1', 'U'),
        signInOver(B.base, 'auditor', 'U'),
        signInOver(A.base, 'admin', 'M'),
      ]);
      const [u] = await database.db.select().from(users).where(eq(users.account, 'user1'));
      userId = u!.id;
    }, 180_000);

    afterAll(async () => {
      try {
        // SIGTERM: each ends its streams, finishes what is in flight, closes its pool and its listener, and exits 0
        const codes = await Promise.all([A, B].filter(Boolean).map((p) => stopServer(p)));
        if (up.length && up.every(Boolean)) expect(codes, `${A.output()}\n----\n${B.output()}`).toEqual([0, 0]);
      } finally {
        await s3?.close();
        await database?.close();
        for (const d of dirs) rmSync(d, { recursive: true, force: true });
      }
    }, 60_000);

    const output = () => `A:\n${A.output()}\n----\nB:\n${B.output()}`;
    const engine = (p: ServerProcess, token: string, action: string, body: object) =>
      call(p.base, 'POST', `/ks/engine/v1/records/${action}`, token, { gnCoding: NODE, ...body });

    it('(a) both start at once on the one database and are ready: database, file store and listener', async () => {
      expect(up, output()).toEqual([true, true]);
      expect([A.proc.exitCode, B.proc.exitCode]).toEqual([null, null]);
      for (const p of [A, B]) {
        const ready = await call(p.base, 'GET', '/ks/health/ready', null);
        expect(ready.status, JSON.stringify(ready.body)).toBe(200);
        const health = await call(p.base, 'GET', '/ks/health', admin);
        expect(health.body.data.storage).toMatchObject({ ok: true, kind: kind === 's3' ? 's3' : 'local' });
      }
      // the seeded database was not seeded again by either
      expect(output()).not.toContain('Demo data seeded');
    });

    it('(b) a session works on both and its sign-out on one is refused by the other at once', async () => {
      // the sign-in's two requests on different processes: the key and its single-use nonce from B, the sign-in on A
      const token = await signInOver(A.base, 'dev', 'D', { keyFrom: B.base });
      const onB = await call(B.base, 'GET', '/ks/auth/v1/authorization/check-login', token);
      expect(onB.status).toBe(200);
      expect(onB.body.data.userInfo).toMatchObject({ userName: '系统开发者', loginRoleType: 'D' });
      const stream = await openStream(B.base, token);
      expect(stream.status).toBe(200);
      // let the sign-in's own announcement reach B first: arriving late, it would make B forget the session by itself
      // and the check below would prove nothing
      await sleep(300);
      const t0 = performance.now();
      // B now keeps the live session for SESSION_CACHE_MS: only the announcement can make it forget sooner
      expect((await call(B.base, 'GET', '/ks/auth/v1/authorization/check-login', token)).status).toBe(200);
      const out = await call(A.base, 'GET', '/ks/common/logout', token);
      expect(out.status).toBe(200);
      const refused = await pollUntil(
        () => call(B.base, 'GET', '/ks/auth/v1/authorization/check-login', token),
        (r) => r.status === 401,
        t0,
      );
      expect(refused.v.status).toBe(401);
      expect(refused.v.body.code).toBe(Code.TOKEN_INVALID);
      expect(refused.at, 'refused by the announcement, not when the kept reading expired').toBeLessThan(
        SESSION_CACHE_MS,
      );
      // and B ends the live stream of that session
      await stream.next((e) => e.event === 'closed');
      await stream.ended;
      expect((await openStream(B.base, token)).status).toBe(401);

      // one session per account: a sign-in on B ends the session A keeps, with 「signed in elsewhere」
      const first = await signInOver(A.base, 'dev', 'D');
      await sleep(300);
      const t1 = performance.now();
      expect((await call(A.base, 'GET', '/ks/auth/v1/authorization/check-login', first)).status).toBe(200);
      const second = await signInOver(B.base, 'dev', 'D');
      const replaced = await pollUntil(
        () => call(A.base, 'GET', '/ks/auth/v1/authorization/check-login', first),
        (r) => r.status === 401,
        t1,
      );
      expect(replaced.v.body.code).toBe(Code.SIGNED_IN_ELSEWHERE);
      expect(replaced.at).toBeLessThan(SESSION_CACHE_MS);
      expect((await call(A.base, 'GET', '/ks/auth/v1/authorization/check-login', second)).status).toBe(200);
      expect((await call(A.base, 'GET', '/ks/common/logout', second)).status).toBe(200);
    });

    it('(c) a record written on A is listed on B, submitted on B, decided on B by the reviewer and on A by the administrator', async () => {
      // B has counted user1's list before (it keeps the count until the node's data version moves)
      const before = await engine(B, user, 'list', { pageSize: 50 });
      expect(before.status).toBe(200);
      const saved = await engine(A, user, 'save', { values: person('孙多进程') });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const id = saved.body.data.id as string;
      const after = await engine(B, user, 'list', { pageSize: 50 });
      expect(after.body.data.total).toBe(before.body.data.total + 1);
      expect(after.body.data.records.find((r: { id: string }) => r.id === id)).toMatchObject({ status: 'draft' });
      const detail = await engine(B, user, 'detail', { id });
      expect(detail.body.data.values).toMatchObject({ xm: '孙多进程', gznx: 5 });

      // the reviewer does not see another enterprise's draft, then sees it through the to-do the submission opened
      const hidden = await engine(B, auditor, 'list', { pageSize: 50 });
      expect(hidden.body.data.records.map((r: { id: string }) => r.id)).not.toContain(id);
      const sub = await engine(B, user, 'submit', { id, version: detail.body.data.version });
      expect(sub.status, JSON.stringify(sub.body)).toBe(200);
      const asked = await engine(B, auditor, 'list', { pageSize: 50 });
      expect(asked.body.data.records.map((r: { id: string }) => r.id)).toContain(id);
      const pending = await engine(A, auditor, 'detail', { id });
      expect(pending.body.data).toMatchObject({ status: 'pending', auditLevel: 1 });
      expect(pending.body.data.operations.map((o: { code: string }) => o.code)).toContain('audit');

      const first = await engine(B, auditor, 'audit', { id, version: pending.body.data.version, pass: true });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const level2 = await engine(A, admin, 'detail', { id });
      expect(level2.body.data).toMatchObject({ status: 'pending', auditLevel: 2 });
      const last = await engine(A, admin, 'audit', { id, version: level2.body.data.version, pass: true });
      expect(last.status, JSON.stringify(last.body)).toBe(200);
      const done = await engine(B, user, 'detail', { id });
      expect(done.body.data.status).toBe('passed');
      expect(done.body.data.auditFlow.map((s: { action: string; level: number }) => [s.action, s.level])).toEqual([
        ['submit', 0],
        ['pass', 1],
        ['pass', 2],
      ]);
      const logs = await engine(B, user, 'logs', { id });
      expect(logs.body.data.map((l: { logbook: string }) => l.logbook)).toEqual([
        '新增记录',
        '提交审核（第 1 次），待初审',
        '初审通过，待复审',
        '复审通过，审核完成',
      ]);
    });

    it('(d) the same decision sent to A and B at the same moment: exactly one is taken, the other is told why', async () => {
      const saved = await engine(A, user, 'save', { values: person('周并发') });
      const id = saved.body.data.id as string;
      const sub = await engine(A, user, 'submit', { id, version: saved.body.data.version });
      expect(sub.status, JSON.stringify(sub.body)).toBe(200);
      const version = sub.body.data.version as number;

      // 初审: the reviewer and the administrator (both reviewers of the level), each on both processes
      const race1 = await Promise.all([
        engine(A, auditor, 'audit', { id, version, pass: true }),
        engine(B, auditor, 'audit', { id, version, pass: true }),
        engine(A, admin, 'audit', { id, version, pass: true }),
        engine(B, admin, 'audit', { id, version, pass: true }),
      ]);
      const statuses1 = race1.map((r) => r.status);
      expect(
        statuses1.filter((s) => s === 200),
        JSON.stringify(race1.map((r) => r.body)),
      ).toHaveLength(1);
      for (const lost of race1.filter((r) => r.status !== 200)) {
        expect(lost.status, JSON.stringify(lost.body)).toBe(409);
        expect(lost.body).toMatchObject({ code: 409, message: '该记录已被处理，请刷新后重试' });
      }
      // 复审: the administrator twice, on A and B
      const level2 = (await engine(B, admin, 'detail', { id })).body.data;
      expect(level2).toMatchObject({ status: 'pending', auditLevel: 2 });
      const race2 = await Promise.all([
        engine(A, admin, 'audit', { id, version: level2.version, pass: true }),
        engine(B, admin, 'audit', { id, version: level2.version, pass: true }),
      ]);
      expect(race2.map((r) => r.status).sort(), JSON.stringify(race2.map((r) => r.body))).toEqual([200, 409]);
      expect(race2.find((r) => r.status === 409)!.body.message).toBe('该记录已被处理，请刷新后重试');

      // what the database holds: one decision per level, one set of to-dos per level (all closed), one log row each
      const db = database.db;
      const audits = await db
        .select({ action: recordAudits.action, level: recordAudits.level })
        .from(recordAudits)
        .where(eq(recordAudits.recordId, id))
        .orderBy(recordAudits.id);
      expect(audits).toEqual([
        { action: 'submit', level: 0 },
        { action: 'pass', level: 1 },
        { action: 'pass', level: 2 },
      ]);
      const todoRows = await db
        .select({ level: todos.level, who: todos.assigneeId, open: sql<boolean>`${todos.doneAt} is null` })
        .from(todos)
        .where(eq(todos.recordId, id))
        .orderBy(todos.level, todos.assigneeId);
      expect(todoRows).toEqual([
        { level: 1, who: 'admin', open: false },
        { level: 1, who: 'auditor', open: false },
        { level: 2, who: 'admin', open: false },
      ]);
      const logs = await db
        .select({ logbook: operationLogs.logbook })
        .from(operationLogs)
        .where(and(eq(operationLogs.gnCoding, NODE), eq(operationLogs.recordId, id)))
        .orderBy(operationLogs.id);
      expect(logs.map((l) => l.logbook)).toEqual([
        '新增记录',
        '提交审核（第 1 次），待初审',
        '初审通过，待复审',
        '复审通过，审核完成',
      ]);
      // the applicant is told once
      const told = await db.select().from(userMessages).where(eq(userMessages.recordId, id));
      expect(told.map((m) => [m.userId, m.kind])).toEqual([[userId, 'result']]);
      expect((await engine(A, user, 'detail', { id })).body.data.status).toBe('passed');
    });

    it('(e) a chunked upload with its chunks sent to A and B in turn, merged on B, reads back the same bytes on A', async () => {
      const data = randomBytes(2 * UPLOAD_CHUNK_SIZE + 77);
      Buffer.from('%PDF-1.7\n').copy(data);
      const sum = md5(data);
      const task = await call(A.base, 'POST', '/ks/upload/v1/upload-task', user, {
        md5: sum,
        fileName: '多进程上传.pdf',
        chunk: 3,
        fileSize: data.length,
      });
      expect(task.status, JSON.stringify(task.body)).toBe(200);
      const uploadId = task.body.data.uploadId as string;
      expect(task.body.data.uploadUrlList).toHaveLength(3);
      // out of order and alternating: 1 on B, 0 on A, 2 on B
      for (const [i, p] of [
        [1, B],
        [0, A],
        [2, B],
      ] as const) {
        const form = new FormData();
        form.append('chunk', String(i));
        form.append('uploadId', uploadId);
        form.append('md5', sum);
        form.append('file', new Blob([data.subarray(i * UPLOAD_CHUNK_SIZE, (i + 1) * UPLOAD_CHUNK_SIZE)]), 'blob');
        const res = await fetch(`${p.base}/ks/upload/v1/chunk-upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${user}` },
          body: form,
        });
        expect(res.status, await res.clone().text()).toBe(200);
      }
      // both list the three chunks
      for (const p of [A, B]) {
        const parts = await call(p.base, 'GET', `/ks/upload/v1/upload-parts?uploadId=${uploadId}`, user);
        expect(parts.status, JSON.stringify(parts.body)).toBe(200);
        expect(parts.body.data.parts.map((x: { chunk: number }) => x.chunk).sort()).toEqual([0, 1, 2]);
      }
      const merged = await call(B.base, 'POST', '/ks/upload/v1/file-merge', user, {
        uploadId,
        fileName: '多进程上传.pdf',
        md5: sum,
      });
      expect(merged.status, JSON.stringify(merged.body)).toBe(200);
      const fileId = merged.body.data.fileId as string;
      // merging again on A answers the same file
      const again = await call(A.base, 'POST', '/ks/upload/v1/file-merge', user, {
        uploadId,
        fileName: '多进程上传.pdf',
        md5: sum,
      });
      expect(again.body.data.fileId).toBe(fileId);
      // a chunk of the finished task, sent to A over one kept connection (as a proxy keeps its connections): refused
      // with 404 before its bytes are read, and the connection serves the next request
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const late = new FormData();
        late.append('chunk', '0');
        late.append('uploadId', uploadId);
        late.append('md5', sum);
        late.append('file', new Blob([data.subarray(0, UPLOAD_CHUNK_SIZE)]), 'blob');
        const { body, contentType } = await formBytes(late);
        const auth = { authorization: `Bearer ${user}` };
        const refused = await requestOver(agent, `${A.base}/ks/upload/v1/chunk-upload`, {
          method: 'POST',
          headers: { ...auth, 'content-type': contentType },
          body,
        });
        expect(refused.status, refused.text).toBe(404);
        const next = await requestOver(agent, `${A.base}/ks/auth/v1/authorization/check-login`, { headers: auth });
        expect(next.status).toBe(200);
      } finally {
        agent.destroy();
      }
      const dl = await fetch(`${A.base}${merged.body.data.url}`, { headers: { authorization: `Bearer ${user}` } });
      expect(dl.status).toBe(200);
      const got = Buffer.from(await dl.arrayBuffer());
      expect(got.length).toBe(data.length);
      expect(sha256(got)).toBe(sha256(data));
      if (s3) expect(s3.uploads.size, 'no multipart upload left open in the bucket').toBe(0);
    });

    it('(f) a tab subscribed on B hears what is done on A: a to-do for the reviewer, a rejection for the applicant', async () => {
      const streams: EventStream[] = [];
      try {
        const reviewer = await openStream(B.base, auditor);
        const applicant = await openStream(B.base, user);
        streams.push(reviewer, applicant);
        expect([reviewer.status, applicant.status]).toEqual([200, 200]);
        const saved = await engine(A, user, 'save', { values: person('吴事件') });
        const sub = await engine(A, user, 'submit', { id: saved.body.data.id, version: saved.body.data.version });
        expect(sub.status, JSON.stringify(sub.body)).toBe(200);
        const todo = await reviewer.next((e) => e.event === 'todos');
        expect(JSON.parse(todo.data)).toEqual({ systemCoding: 'XYGL', gnCoding: NODE });
        const rejected = await engine(A, auditor, 'audit', {
          id: saved.body.data.id,
          version: sub.body.data.version,
          pass: false,
          suggestion: '身份证复印件不清晰',
        });
        expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
        const message = await applicant.next((e) => e.event === 'message');
        expect(JSON.parse(message.data)).toMatchObject({ kinds: ['rejected'] });
        // the applicant's stream never carried the reviewer's to-do event, nor the reviewer's the message
        expect(applicant.events.filter((e) => e.event === 'todos')).toEqual([]);
        expect(reviewer.events.filter((e) => e.event === 'message')).toEqual([]);
      } finally {
        for (const s of streams) s.close();
      }
    });
  },
);
