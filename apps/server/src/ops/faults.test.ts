import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Code, Msg, paths, UPLOAD_CHUNK_SIZE } from '@ks/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, operationLogs, recordAudits, todos, uploadTasks, users } from '../db/schema';
import { rowsOf } from '../modules/engine/record-row';
import { filesUnder, personValues } from '../test/fixtures';
import { createTestDatabase, loginBody, usingPostgres } from '../test/harness';

/**
 * Issue 20, faults of a whole server process (`node --import tsx src/main.ts`) on PostgreSQL: killed with SIGKILL in the
 * middle of a review decision and of an xlsx export, and running on a disk that is full. Each case starts its processes
 * on one copy of the seeded test database (no demo seed at start-up: SEED_DEMO=0 on a database that has it already).
 * Nothing here waits for a sleep to land a kill: the decision is held inside its transaction by a lock the test holds,
 * the export by a relay that holds the server's next query to PostgreSQL.
 */

const serverDir = path.resolve(import.meta.dirname, '../..');
const CYRY = 'XYGL_CYRY';

type Envelope = { code: number; data: any; message: string };

interface Proc {
  proc: ChildProcess;
  port: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server process on `databaseUrl` and `dataDir` and waits until it serves. `fileSizeLimitKb` runs it under
 * `ulimit -f` (RLIMIT_FSIZE): a file it writes cannot grow past that — a full disk, for this process only.
 */
async function startServer(
  databaseUrl: string,
  dataDir: string,
  opts: { fileSizeLimitKb?: number } = {},
): Promise<Proc> {
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: String(port),
    WEB_DIST: '',
    SEED_DEMO: '0',
    LOG_LEVEL: process.env.KS_FAULTS_LOG ?? 'warn',
    DB_POOL_SIZE: '4',
  };
  const args = ['--import', 'tsx', 'src/main.ts'];
  const proc = opts.fileSizeLimitKb
    ? spawn('bash', ['-c', `ulimit -f ${opts.fileSizeLimitKb} && exec "$0" "$@"`, process.execPath, ...args], {
        cwd: serverDir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, args, { cwd: serverDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => {
    out += d;
  });
  proc.stderr!.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 120_000;
  while (proc.exitCode === null && proc.signalCode === null && Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/ks/health`)).ok) return { proc, port, exited, output: () => out };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  proc.kill('SIGKILL');
  throw new Error(`the server did not come up:\n${out}`);
}

async function stop(p: Proc) {
  p.proc.kill('SIGTERM');
  expect(await p.exited, p.output()).toEqual({ code: 0, signal: null });
}

async function kill9(p: Proc) {
  p.proc.kill('SIGKILL');
  expect(await p.exited).toEqual({ code: null, signal: 'SIGKILL' });
}

async function call(port: number, url: string, token: string | null, body?: unknown): Promise<Envelope> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as Envelope;
}

/** Signs in as the browser does (fields RSA-encrypted with the nonce); the session's token, good in every process. */
async function signIn(port: number, account: string, role: string): Promise<string> {
  const key = await call(port, paths.publicKey.path, null);
  const res = await call(
    port,
    paths.login.path,
    null,
    loginBody(key.data.publicKey, key.data.nonce, account, 'Demo@2026', role),
  );
  if (res.code !== 200) throw new Error(`sign-in of ${account} failed: ${JSON.stringify(res)}`);
  return res.data.token as string;
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!usingPostgres)('a server process killed or starved (issue 20, PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let url: string;
  const dirs: string[] = [];
  const newDataDir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'ks-faults-'));
    dirs.push(d);
    return d;
  };
  const running = new Set<Proc>();
  const started = async (...a: Parameters<typeof startServer>) => {
    const p = await startServer(...a);
    running.add(p);
    void p.exited.then(() => running.delete(p));
    return p;
  };

  beforeAll(async () => {
    database = await createTestDatabase({ seeded: true });
    url = database.url!;
  }, 120_000);
  afterAll(async () => {
    for (const p of running) p.proc.kill('SIGKILL');
    await Promise.all([...running].map((p) => p.exited));
    await database?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  // ---- 1. kill -9 inside a review decision's transaction ----------------------------------------------------------

  /** What a decision on the record writes, as it stands committed. */
  async function decisionState(recordId: string) {
    const db = database.db;
    const [record] = rowsOf(
      await db.execute(sql`select status, audit_level, round, version from n_xygl_cyry where id = ${recordId}`),
    );
    const todoRows = await db
      .select({ level: todos.level, assignee: todos.assigneeId, done: sql<boolean>`${todos.doneAt} is not null` })
      .from(todos)
      .where(eq(todos.recordId, recordId))
      .orderBy(asc(todos.level), asc(todos.assigneeId));
    const audits = await db
      .select({ level: recordAudits.level, action: recordAudits.action })
      .from(recordAudits)
      .where(eq(recordAudits.recordId, recordId))
      .orderBy(asc(recordAudits.id));
    const logs = await db
      .select({ logbook: operationLogs.logbook })
      .from(operationLogs)
      .where(and(eq(operationLogs.gnCoding, CYRY), eq(operationLogs.recordId, recordId)))
      .orderBy(asc(operationLogs.czTime));
    return { record, todos: todoRows, audits, logs: logs.map((l) => l.logbook) };
  }

  it('a decision killed inside its transaction leaves nothing half-written; after a restart it is made whole', async () => {
    const dataDir = newDataDir();
    const first = await started(url, dataDir);
    const [user, auditor] = [await signIn(first.port, 'user1', 'U'), await signIn(first.port, 'auditor', 'U')];
    // a 从业人员登记 of user1, submitted: pending at level 1 (审核员), an open to-do for the role
    const saved = await call(first.port, paths.recordSave.path, user, {
      gnCoding: CYRY,
      values: personValues('停机测试'),
    });
    expect(saved.code, JSON.stringify(saved)).toBe(200);
    const submitted = await call(first.port, paths.recordSubmit.path, user, {
      gnCoding: CYRY,
      id: saved.data.id,
      version: saved.data.version,
    });
    expect(submitted.data).toMatchObject({ status: 'pending', auditLevel: 1 });
    const id = saved.data.id as string;
    const before = await decisionState(id);
    expect(before.audits.map((a) => a.action)).toEqual(['submit']);
    // the to-dos of level 1 (its roles, 审核员 among them), all open
    expect(before.todos.map((t) => [t.level, t.done])).toEqual(before.todos.map(() => [1, false]));
    expect(before.todos.map((t) => t.assignee)).toContain('auditor');

    // the operation log is the decision's last write: while the test holds a lock on it, the decision waits inside
    // its transaction with everything else written. A second connection watches (pg_stat_activity read inside the
    // locking transaction would be the snapshot taken at its first read).
    const locker = new pg.Client({ connectionString: url });
    const watcher = new pg.Client({ connectionString: url });
    await Promise.all([locker.connect(), watcher.connect()]);
    try {
      await locker.query('begin');
      await locker.query('lock table operation_logs in share mode');
      let answered: unknown = null;
      const decision = call(first.port, paths.recordAudit.path, auditor, {
        gnCoding: CYRY,
        id,
        version: submitted.data.version,
        pass: true,
      });
      decision.then(
        (r) => {
          answered = r;
        },
        () => undefined,
      );
      const waiting = await until('the decision waiting on the lock', 30_000, async () => {
        if (answered) throw new Error(`the decision did not wait: ${JSON.stringify(answered)}`);
        const r = await watcher.query(
          `select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'
             and state = 'active' and backend_xid is not null and query ilike 'insert into "operation_logs"%'`,
        );
        return r.rows[0] as { pid: number } | undefined;
      }).catch(async (e) => {
        const all = await watcher.query(
          `select pid, state, wait_event_type, pg_blocking_pids(pid) as blockers, left(query, 100) as query
             from pg_stat_activity where datname = current_database()`,
        );
        throw new Error(`${(e as Error).message}\n${JSON.stringify(all.rows)}\n${first.output().slice(-3000)}`);
      });
      // it has written the record, its audit row and the to-dos already (row-exclusive locks it holds), uncommitted
      const held = await watcher.query(
        `select distinct relation::regclass::text as t from pg_locks where pid = $1 and mode = 'RowExclusiveLock' and granted`,
        [waiting.pid],
      );
      expect(held.rows.map((r) => r.t)).toEqual(expect.arrayContaining(['n_xygl_cyry', 'record_audits', 'todos']));

      await kill9(first);
      await expect(decision).rejects.toThrow();
      await locker.query('rollback');
      // PostgreSQL ends the dead client's session: its transaction never commits
      await until('the killed server session ending', 30_000, async () => {
        const r = await watcher.query('select 1 from pg_stat_activity where pid = $1', [waiting.pid]);
        return r.rowCount === 0;
      });
    } finally {
      await Promise.all([locker.end(), watcher.end()]);
    }
    expect(await decisionState(id)).toEqual(before);

    // a new process on the same database: the same decision (same version) is made, whole
    const second = await started(url, dataDir);
    const again = await call(second.port, paths.recordAudit.path, auditor, {
      gnCoding: CYRY,
      id,
      version: submitted.data.version,
      pass: true,
    });
    expect(again.code, JSON.stringify(again)).toBe(200);
    expect(again.data).toMatchObject({ status: 'pending', auditLevel: 2 });
    const after = await decisionState(id);
    expect(after.record).toMatchObject({ status: 'pending', audit_level: 2 });
    expect(after.audits.map((a) => [a.action, a.level])).toEqual([
      ['submit', 0],
      ['pass', 1],
    ]);
    // level 1's to-dos closed, level 2's opened
    expect(after.todos.filter((t) => t.level === 1)).toEqual(before.todos.map((t) => ({ ...t, done: true })));
    const level2 = after.todos.filter((t) => t.level === 2);
    expect(level2.length).toBeGreaterThan(0);
    expect(level2.every((t) => !t.done)).toBe(true);
    expect(after.logs).toHaveLength(before.logs.length + 1);
    await stop(second);
  }, 240_000);

  // ---- 2. kill -9 while an xlsx export streams ------------------------------------------------------------------

  /**
   * A TCP relay between the server and PostgreSQL. Armed with a pattern and `nth`, it holds the connection on which a
   * query matching the pattern goes out for the nth time: that query, and whatever follows it on that connection, waits
   * in the relay — and the server waits for its answer — until the relay is closed.
   */
  async function holdingRelay(target: { host: string; port: number }) {
    const sockets = new Set<net.Socket>();
    let arm: { pattern: RegExp; nth: number; seen: number; onHeld: () => void } | null = null;
    const server = net.createServer((inbound) => {
      const outbound = net.connect(target.port, target.host);
      let holding: Buffer[] | null = null;
      for (const sock of [inbound, outbound]) {
        sockets.add(sock);
        sock.on('error', () => sock.destroy());
        sock.on('close', () => {
          sockets.delete(sock);
          inbound.destroy();
          outbound.destroy();
        });
      }
      inbound.on('data', (chunk: Buffer) => {
        if (holding) {
          holding.push(chunk);
          return;
        }
        if (arm?.pattern.test(chunk.toString('latin1')) && ++arm.seen === arm.nth) {
          holding = [chunk];
          arm.onHeld();
          return;
        }
        outbound.write(chunk);
      });
      outbound.pipe(inbound);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as net.AddressInfo).port,
      holdAt(pattern: RegExp, nth: number) {
        return new Promise<void>((resolve) => {
          arm = { pattern, nth, seen: 0, onHeld: resolve };
        });
      },
      close: () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          server.close(() => resolve());
        }),
    };
  }

  /** POST an export; `firstBytes` resolves with the first bytes of the body, `done` with all of it or the failure. */
  function exportRequest(port: number, token: string, body: object) {
    const chunks: Buffer[] = [];
    let firstBytes!: (b: Buffer) => void;
    const first = new Promise<Buffer>((r) => {
      firstBytes = r;
    });
    const done = new Promise<{ status: number; type: string; body: Buffer; complete: boolean; error?: string }>(
      (resolve) => {
        const payload = JSON.stringify(body);
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: paths.recordExport.path,
            agent: false,
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(payload),
            },
          },
          (res) => {
            const answer = (complete: boolean, error?: string) =>
              resolve({
                status: res.statusCode ?? 0,
                type: String(res.headers['content-type'] ?? ''),
                body: Buffer.concat(chunks),
                complete,
                ...(error ? { error } : {}),
              });
            res.on('data', (d: Buffer) => {
              if (!chunks.length) firstBytes(d);
              chunks.push(d);
            });
            res.on('end', () => answer(res.complete));
            res.on('error', (e) => answer(false, e.message));
          },
        );
        req.on('error', (e) =>
          resolve({ status: 0, type: '', body: Buffer.concat(chunks), complete: false, error: e.message }),
        );
        req.end(payload);
      },
    );
    return { first, done };
  }

  async function readXlsx(buf: Buffer) {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const rows: string[][] = [];
    ws.eachRow((row) => {
      rows.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v))));
    });
    return rows;
  }

  it('an export killed mid-stream reaches the client cut short; a restarted process serves it whole', async () => {
    // 3,000 records more (each with 128 hex characters of 所在地区, so every batch of 1,000 rows is well past what the
    // zip stream keeps before it writes): the export reads them in three batches
    const [user1] = await database.db.select().from(users).where(eq(users.account, 'user1'));
    const extra = 3000;
    await database.db.execute(sql`
      insert into n_xygl_cyry (owner_id, enterprise_id, status, f_xm, f_szdq, f_ssqy, f_zc, f_gznx, f_rzrq)
      select ${user1!.id}::uuid, ${user1!.enterpriseId}::uuid, 'passed', '导出' || lpad(g::text, 5, '0'),
             md5(g::text) || md5('a' || g) || md5('b' || g) || md5('c' || g), '示例建设工程有限公司', '工程师', 3,
             date '2020-01-01' + g % 365
        from generate_series(1, ${extra}) g`);
    const total = Number(rowsOf(await database.db.execute(sql`select count(*)::int as n from n_xygl_cyry`))[0]!.n);
    expect(total).toBeGreaterThan(extra);

    const dataDir = newDataDir();
    const u = new URL(url);
    const relay = await holdingRelay({ host: u.hostname, port: Number(u.port || 5432) });
    const viaRelay = new URL(url);
    viaRelay.port = String(relay.port);
    let first: Proc | null = null;
    try {
      first = await started(viaRelay.toString(), dataDir);
      const admin = await signIn(first.port, 'admin', 'M');
      const filesBefore = filesUnder(dataDir);
      // the export's second batch of rows (`… from "n_xygl_cyry" … offset …`, its first after offset 0) is held
      const held = relay.holdAt(/"n_xygl_cyry"[\s\S]*\boffset\b/i, 2);
      const cut = exportRequest(first.port, admin, { gnCoding: CYRY });
      await held;
      // the first batch's rows are on their way to the client, the rest cannot be read: kill the server now
      const head = await cut.first;
      expect(head.subarray(0, 2).toString('latin1')).toBe('PK');
      await kill9(first);
      const got = await cut.done;
      expect(got.status).toBe(200);
      expect(got.type).toContain('spreadsheetml');
      // cut short: the response never ended properly, and the bytes are no workbook (no end of the zip's directory)
      expect(got.complete).toBe(false);
      expect(got.body.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]))).toBe(false);
      await expect(readXlsx(got.body)).rejects.toThrow();
      // an export writes no temporary files
      expect(filesUnder(dataDir)).toEqual(filesBefore);
    } finally {
      await relay.close();
    }

    const second = await started(url, dataDir);
    const admin = await signIn(second.port, 'admin', 'M');
    const whole = await exportRequest(second.port, admin, { gnCoding: CYRY }).done;
    expect([whole.status, whole.complete]).toEqual([200, true]);
    const rows = await readXlsx(whole.body);
    // the header and every record
    expect(rows).toHaveLength(total + 1);
    expect(rows[0]).toContain('姓名');
    const names = new Set(rows.map((r) => r[0]));
    for (const g of [1, 1500, extra]) expect(names.has(`导出${String(g).padStart(5, '0')}`)).toBe(true);
    const row1 = rows.find((r) => r[0] === '导出00001')!;
    const hex = (s: string) => createHash('md5').update(s).digest('hex');
    expect(row1).toContain(hex('1') + hex('a1') + hex('b1') + hex('c1'));
    expect(filesUnder(dataDir)).toEqual([]);
    await stop(second);
  }, 240_000);

  // ---- 3. a full disk ------------------------------------------------------------------------------------------

  it('on a full disk an upload answers 507 and keeps nothing; the task stays whole and completes once there is room', async () => {
    const dataDir = newDataDir();
    const store = path.join(dataDir, 'files');
    // files of this process may grow to 2 MB: a 5 MB chunk or a 3 MB attachment finds the disk "full"
    const full = await started(url, dataDir, { fileSizeLimitKb: 2048 });
    const user = await signIn(full.port, 'user1', 'U');
    const data = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(UPLOAD_CHUNK_SIZE + 50_000 - 9)]);
    const md5 = createHash('md5').update(data).digest('hex');
    const task = await call(full.port, paths.uploadTask.path, user, {
      md5,
      fileName: '磁盘已满.pdf',
      chunk: 2,
      fileSize: data.length,
    });
    expect(task.code, JSON.stringify(task)).toBe(200);
    const uploadId = task.data.uploadId as string;
    const chunk = async (port: number, i: number) => {
      const boundary = `----ks${randomBytes(8).toString('hex')}`;
      const part = data.subarray(i * UPLOAD_CHUNK_SIZE, (i + 1) * UPLOAD_CHUNK_SIZE);
      const body = Buffer.concat([
        Buffer.from(
          [
            ['chunk', i],
            ['uploadId', uploadId],
            ['md5', md5],
          ]
            .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
            .join(''),
        ),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        part,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await fetch(`http://127.0.0.1:${port}${paths.chunkUpload.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      return { status: res.status, body: (await res.json()) as Envelope };
    };

    const refused = await chunk(full.port, 0);
    expect(refused.status).toBe(507);
    expect(refused.body).toMatchObject({ code: Code.INSUFFICIENT_STORAGE, message: Msg.STORAGE_FULL });
    // nothing recorded, no part file: the chunk is simply still missing
    const parts = await call(full.port, `${paths.uploadParts.path}?uploadId=${uploadId}`, user);
    expect(parts.data).toMatchObject({ status: 'uploading', parts: [] });
    expect(filesUnder(store)).toEqual([]);
    // what fits still goes in
    expect((await chunk(full.port, 1)).status).toBe(200);
    const early = await call(full.port, paths.fileMerge.path, user, { uploadId, fileName: '磁盘已满.pdf', md5 });
    expect(early).toMatchObject({ code: 409, data: { missing: [0] } });

    // a single-request attachment of 3 MB: refused the same way, no spool file left, no file row
    const filesBefore = await database.db.select({ n: sql<number>`count(*)::int` }).from(files);
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      randomBytes(3 * 1024 * 1024),
    ]);
    const form = new FormData();
    form.set('gnCoding', 'XYGL_ZYZC');
    form.set('systemCoding', 'XYGL');
    form.set('file', new Blob([png], { type: 'image/png' }), '证书.png');
    const single = await fetch(`http://127.0.0.1:${full.port}/ks/common/common/upload/attachment`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user}` },
      body: form,
    });
    expect(single.status).toBe(507);
    expect(await single.json()).toMatchObject({ code: Code.INSUFFICIENT_STORAGE, message: Msg.STORAGE_FULL });
    expect(await database.db.select({ n: sql<number>`count(*)::int` }).from(files)).toEqual(filesBefore);
    expect(filesUnder(store).filter((f) => !f.startsWith('.staging/'))).toEqual([]);
    expect(full.output()).toContain('EFBIG');
    await stop(full);

    // room again (a process without the limit): the missing chunk goes in and the file is merged, its MD5 verified
    const roomy = await started(url, dataDir);
    expect((await chunk(roomy.port, 0)).status).toBe(200);
    const merged = await call(roomy.port, paths.fileMerge.path, user, { uploadId, fileName: '磁盘已满.pdf', md5 });
    expect(merged.code, JSON.stringify(merged)).toBe(200);
    expect(merged.data).toMatchObject({ fileSize: data.length, md5 });
    const [row] = await database.db.select().from(uploadTasks).where(eq(uploadTasks.id, uploadId));
    expect(row?.status).toBe('done');
    await stop(roomy);
  }, 240_000);
});
