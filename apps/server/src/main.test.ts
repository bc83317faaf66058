import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LIVE_STREAM_PATH, paths } from '@ks/contracts';
import { count, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { users } from './db/schema';
import { md5, PDF } from './modules/files/testkit';
import { createTestDatabase, loginBody, usingPostgres } from './test/harness';

const serverDir = path.resolve(import.meta.dirname, '..');
const dirs: string[] = [];
/** processes still running when the file ends (a failed test): stopped before their data dirs are removed */
const running = new Set<ChildProcess>();
afterAll(async () => {
  await Promise.all(
    [...running].map(
      (p) =>
        new Promise<void>((resolve) => {
          p.once('exit', () => resolve());
          p.kill('SIGKILL');
        }),
    ),
  );
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Is the process on `port` serving within `within` ms (false at once when it exits)? */
async function healthy(port: number, within: number, proc?: { exitCode: number | null }): Promise<boolean> {
  const deadline = Date.now() + within;
  while (Date.now() < deadline && proc?.exitCode == null) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/ks/health`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

function start(env: Record<string, string>, dataDir?: string) {
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), 'ks-main-'));
  if (!dataDir) dirs.push(dir);
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, DATA_DIR: dir, WEB_DIST: '', LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d) => {
    out += d;
  });
  proc.stderr.on('data', (d) => {
    out += d;
  });
  running.add(proc);
  const exited = new Promise<number | null>((resolve) =>
    proc.on('exit', (code) => {
      running.delete(proc);
      resolve(code);
    }),
  );
  return { proc, exited, output: () => out, dataDir: dir };
}

// ---- a client of a spawned server over HTTP (what a browser does, without the app's inject) ----

type Envelope = { code: number; data: any; message: string };

async function postJson(port: number, url: string, token: string | null, body: unknown): Promise<Envelope> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope;
}

/** Signs in as the browser does (the fields RSA-encrypted with the nonce); the session's token. */
async function signIn(port: number, account: string, role: string): Promise<string> {
  const key = (await (await fetch(`http://127.0.0.1:${port}${paths.publicKey.path}`)).json()) as Envelope;
  const { publicKey, nonce } = key.data as { publicKey: string; nonce: string };
  const res = await postJson(port, paths.login.path, null, loginBody(publicKey, nonce, account, 'Demo@2026', role));
  if (res.code !== 200) throw new Error(`sign-in of ${account} failed: ${JSON.stringify(res)}`);
  return res.data.token as string;
}

/**
 * A chunk upload whose body the test sends in two halves: `inFlight` resolves once the server is handling the request
 * (it answered `100 Continue` to its head) and the first half is sent; `finish()` sends the rest. `answer` is the
 * response (status and body as text), or rejects when the connection is cut.
 */
async function slowChunkUpload(port: number, token: string) {
  const data = PDF(300_000);
  const task = await postJson(port, paths.uploadTask.path, token, {
    md5: md5(data),
    fileName: '停机测试.pdf',
    chunk: 1,
    fileSize: data.length,
  });
  if (task.code !== 200) throw new Error(`upload-task failed: ${JSON.stringify(task)}`);
  const boundary = `----ks${randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string | number) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = Buffer.concat([
    Buffer.from(field('chunk', 0) + field('uploadId', task.data.uploadId) + field('md5', md5(data))),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const half = Math.floor(body.length / 2);
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: paths.chunkUpload.path,
    agent: false,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': body.length,
      expect: '100-continue',
    },
  });
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  // not left unhandled when the test ends without waiting for it
  answer.catch(() => undefined);
  const inFlight = new Promise<void>((resolve) =>
    req.on('continue', () => {
      req.write(body.subarray(0, half));
      resolve();
    }),
  );
  return {
    inFlight,
    answer,
    finish: () => req.end(body.subarray(half)),
    bytes: data.length,
  };
}

/** The live channel (Server-Sent Events) as a tab holds it; `ended` says how the server let it go. */
function openLive(port: number, token: string) {
  return new Promise<{ ended: Promise<'ended' | 'cut'> }>((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: LIVE_STREAM_PATH, agent: false, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`live stream answered ${res.statusCode}`));
        const ended = new Promise<'ended' | 'cut'>((done) => {
          res.on('end', () => done('ended'));
          res.on('error', () => done('cut'));
          res.on('aborted', () => done('cut'));
        });
        // open once its first line (`retry: 3000`) is in
        res.once('data', () => resolve({ ended }));
        res.resume();
      },
    );
    req.on('error', reject);
  });
}

/** Does a new TCP connection to the port get refused? */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    sock.once('connect', () => {
      sock.destroy();
      resolve(false);
    });
    sock.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });

/**
 * Are new connections refused within `ms`? The listening socket closes as the close begins, a moment after the live
 * streams are ended (Fastify's preClose hooks run first): a connection made in that moment may still be taken.
 */
async function refusedWithin(port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await refused(port)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** `p`, or a failure naming `what` when it has not settled within `ms` (a generous bound, not a timing claim). */
async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('the server process', () => {
  it('stops at once with a clear message when the configuration is invalid', async () => {
    const s = start({ PORT: 'abc', DATABASE_URL: 'mysql://db' });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain('Invalid configuration');
    expect(s.output()).toContain('PORT');
    expect(s.output()).toContain('DATABASE_URL');
  });

  /** the data dir the first start seeded: later starts reuse it (they start in seconds, not minutes) */
  let seededDir: string | undefined;

  it('starts on an empty data dir and seeds; SIGTERM refuses new connections, ends the live stream, lets the in-flight request finish and exits 0', async () => {
    const port = 18600 + Math.floor(Math.random() * 300);
    // a grace time no loaded machine reaches while the test holds the upload (the default 10 s might be)
    const s = start({ PORT: String(port), SHUTDOWN_GRACE_MS: '120000' });
    // a first start migrates and seeds the whole demo (every domain's data): minutes on a loaded 2-core machine
    const deadline = Date.now() + 150_000;
    let up = false;
    while (!up && Date.now() < deadline) {
      try {
        up = (await fetch(`http://127.0.0.1:${port}/ks/health`)).ok;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(up).toBe(true);
    expect(s.output()).toMatch(/admin\s+M/);
    expect(s.output()).toMatch(/user1\s+U/);
    expect(s.output()).toContain('Demo@2026');
    seededDir = s.dataDir;

    // a tab with its live stream, and an upload whose chunk is half sent
    const token = await signIn(port, 'user1', 'U');
    const live = await openLive(port, token);
    const upload = await slowChunkUpload(port, token);
    await within(upload.inFlight, 20_000, 'the server reading the upload');

    s.proc.kill('SIGTERM');
    // the server ends the live stream itself (no wait for a client that never leaves) …
    expect(await within(live.ended, 20_000, 'the live stream ending')).toBe('ended');
    // … and listens no more: new connections are refused while the upload is still in flight
    expect(await refusedWithin(port, 10_000)).toBe(true);
    // the upload is waited for: the process is still there, and the rest of the chunk is taken
    expect(s.proc.exitCode).toBeNull();
    upload.finish();
    const answer = await within(upload.answer, 20_000, 'the upload answer');
    expect(answer.status, answer.text).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 200, data: { percent: 100, uploaded: 1, total: 1 } });
    expect(await s.exited).toBe(0);
  }, 240_000);

  it('exits 1 once SHUTDOWN_GRACE_MS has passed while a request still cannot finish', async () => {
    const port = 18600 + Math.floor(Math.random() * 300);
    const grace = 1500;
    // on the database the test above seeded (a fresh data dir when it failed: then this start seeds, in minutes)
    const s = start({ PORT: String(port), SHUTDOWN_GRACE_MS: String(grace) }, seededDir);
    expect(await healthy(port, 200_000, s.proc), s.output()).toBe(true);
    const token = await signIn(port, 'user1', 'U');
    const upload = await slowChunkUpload(port, token);
    await within(upload.inFlight, 20_000, 'the server reading the upload');

    const stopAt = Date.now();
    s.proc.kill('SIGTERM');
    // the rest of the body never comes: the process gives up after the grace time, not at once, and says why
    expect(await s.exited).toBe(1);
    const took = Date.now() - stopAt;
    expect(took).toBeGreaterThanOrEqual(grace - 100);
    expect(took).toBeLessThan(grace + 30_000);
    expect(s.output()).toContain('shutdown grace time passed');
    await expect(upload.answer).rejects.toThrow();
  }, 240_000);
});

describe.skipIf(!usingPostgres)('two processes started at once on an empty PostgreSQL database', () => {
  it('both come up: one seeds the demo, the other waits for it and serves the same data', async () => {
    const database = await createTestDatabase();
    try {
      const ports = [18900, 18901].map((p) => p + Math.floor(Math.random() * 40) * 2);
      const procs = ports.map((port) => start({ PORT: String(port), DATABASE_URL: database.url! }));
      try {
        const up = await Promise.all(ports.map((port, i) => healthy(port, 240_000, procs[i]!.proc)));
        expect(up, procs.map((p) => p.output()).join('\n----\n')).toEqual([true, true]);
        // exactly one printed the demo accounts (it seeded); neither crashed
        expect(procs.filter((p) => /user1\s+U/.test(p.output()))).toHaveLength(1);
        expect(procs.map((p) => p.proc.exitCode)).toEqual([null, null]);
        for (const port of ports) {
          const res = await fetch(`http://127.0.0.1:${port}/ks/portal/v1/home/overview`);
          expect(res.status).toBe(200);
        }
        // one demo dataset: each demo account once
        const [demo] = await database.db
          .select({ n: count() })
          .from(users)
          .where(inArray(users.account, ['admin', 'user1', 'dev', 'auditor']));
        expect(Number(demo!.n)).toBe(4);
      } finally {
        for (const p of procs) p.proc.kill('SIGTERM');
        expect(await Promise.all(procs.map((p) => p.exited))).toEqual([0, 0]);
      }
    } finally {
      await database.close();
    }
  }, 300_000);
});
