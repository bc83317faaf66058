import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { type Agent, request } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { LIVE_STREAM_PATH } from '@ks/contracts';
import { createParser } from 'eventsource-parser';
import { bearer, loginBody } from './harness';

/**
 * Real server processes for tests (test-only module): `node --import tsx src/main.ts` as an operator runs it, on a
 * port of its own, reached with fetch — and the small HTTP clients the multi-process tests use (sign-in, calls in the
 * envelope, an event stream).
 */

const serverDir = path.resolve(import.meta.dirname, '../..');
const handedOut = new Set<number>();

/** A port in [lo, hi) that nothing listens on now and that this test process has not handed out before. */
export async function freePort(lo: number, hi: number): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = lo + Math.floor(Math.random() * (hi - lo));
    if (handedOut.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${lo}-${hi}`);
}

export interface ServerProcess {
  port: number;
  /** http://127.0.0.1:<port> */
  base: string;
  proc: ChildProcessWithoutNullStreams;
  /** the exit code (null: killed by a signal) */
  exited: Promise<number | null>;
  /** stdout and stderr so far */
  output(): string;
}

/**
 * Starts the server on `port` with the test's environment on top of this process's: API only, warnings only, no
 * embedded database unless DATABASE_URL is given, rate limits out of the way of a test's bursts.
 */
export function startServer(port: number, env: Record<string, string>): ServerProcess {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      WEB_DIST: '',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      RATE_LIMIT_PER_MINUTE: '100000',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
      PORT: String(port),
    },
  });
  let out = '';
  proc.stdout.on('data', (d) => {
    out += d;
  });
  proc.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { port, base: `http://127.0.0.1:${port}`, proc, exited, output: () => out };
}

/** Is the process serving `/ks/health` within `within` ms (false at once when it exits)? */
export async function healthy(s: ServerProcess, within: number): Promise<boolean> {
  const deadline = Date.now() + within;
  while (Date.now() < deadline && s.proc.exitCode === null) {
    try {
      if ((await fetch(`${s.base}/ks/health`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** SIGTERM, then the exit code (null when it had to be killed after `ms`). */
export async function stopServer(s: ServerProcess, ms = 15_000): Promise<number | null> {
  if (s.proc.exitCode !== null) return s.proc.exitCode;
  s.proc.kill('SIGTERM');
  const timer = setTimeout(() => s.proc.kill('SIGKILL'), ms);
  try {
    return await s.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** The answer envelope as tests read it. */
// biome-ignore lint/suspicious/noExplicitAny: tests check answers field by field
export type Envelope = { code: number; data: any; message: string };

/** One API call over HTTP: the status and the envelope (null when the answer is not JSON). */
export async function call(
  base: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; body: Envelope }> {
  const res = await fetch(base + url, {
    method,
    headers: {
      ...(token ? bearer(token) : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: Envelope;
  try {
    parsed = JSON.parse(text) as Envelope;
  } catch {
    parsed = { code: res.status, data: null, message: text.slice(0, 500) };
  }
  return { status: res.status, body: parsed };
}

/**
 * Signs in through the process at `base` as the browser does (RSA-OAEP with the single-use nonce); the token. The key
 * and nonce come from `keyFrom` when given (another process: the browser's two requests need not reach the same one).
 */
export async function signInOver(
  base: string,
  account: string,
  role: string,
  opts: { password?: string; keyFrom?: string } = {},
) {
  const password = opts.password ?? 'Demo@2026';
  const key = await call(opts.keyFrom ?? base, 'GET', '/ks/common/public-key', null);
  const { publicKey, nonce } = key.body.data as { publicKey: string; nonce: string };
  const res = await call(base, 'POST', '/ks/common/login', null, loginBody(publicKey, nonce, account, password, role));
  if (res.status !== 200) throw new Error(`sign-in of ${account} at ${base} failed: ${JSON.stringify(res.body)}`);
  return res.body.data.token as string;
}

/**
 * One request through `agent` (node:http: a keep-alive agent with one socket sends every request on the same
 * connection, as a reverse proxy keeps its connections to a process): the status and the body's text, or an error when
 * no answer came within `ms`.
 */
export function requestOver(
  agent: Agent,
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer; ms?: number } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.setTimeout(opts.ms ?? 5000, () => req.destroy(new Error(`no answer from ${url} within ${opts.ms ?? 5000} ms`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A form as the bytes and content type fetch would send. */
export async function formBytes(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const r = new Request('http://form.invalid/', { method: 'POST', body: form });
  return { body: Buffer.from(await r.arrayBuffer()), contentType: r.headers.get('content-type') ?? '' };
}

export interface LiveEvent {
  id?: string;
  event?: string;
  data: string;
}

/** An open event stream as a test reads it. */
export interface EventStream {
  status: number;
  events: LiveEvent[];
  /** the first event after those already taken that satisfies `pred`, within `ms` */
  next(pred: (e: LiveEvent) => boolean, ms?: number): Promise<LiveEvent>;
  /** resolves when the server ended the stream (or it was closed here) */
  ended: Promise<void>;
  close(): void;
}

/** Opens `GET /ks/live/v1/stream` at `base` as the holder of `token` (none: anonymous), resuming after `lastEventId`. */
export async function openStream(base: string, token: string | null, lastEventId?: string): Promise<EventStream> {
  const ctl = new AbortController();
  const res = await fetch(base + LIVE_STREAM_PATH, {
    headers: { ...(token ? bearer(token) : {}), ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: ctl.signal,
  });
  const events: LiveEvent[] = [];
  const waiters = new Set<() => void>();
  const parser = createParser({
    onEvent: (e) => {
      events.push({ id: e.id, event: e.event, data: e.data });
      for (const w of waiters) w();
    },
  });
  let done!: () => void;
  const ended = new Promise<void>((r) => {
    done = r;
  });
  if (res.ok && res.body) {
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { value, done: d } = await reader.read();
          if (d) break;
          parser.feed(dec.decode(value, { stream: true }));
        }
      } catch {
        // aborted
      }
      done();
    })();
  } else {
    await res.body?.cancel();
    done();
  }
  let cursor = 0;
  return {
    status: res.status,
    events,
    ended,
    close: () => ctl.abort(),
    next(pred, ms = 8000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          while (cursor < events.length) {
            const e = events[cursor++]!;
            if (pred(e)) {
              waiters.delete(look);
              clearTimeout(timer);
              resolve(e);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`no such event within ${ms} ms; got ${JSON.stringify(events)}`));
        }, ms);
        waiters.add(look);
        look();
      });
    },
  };
}
