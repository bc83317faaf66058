import { type ChildProcess, spawn } from 'node:child_process';
import { constants, publicEncrypt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

export interface Started {
  proc: ChildProcess;
  url: string;
  dataDir: string;
  ms: number;
  stop(): Promise<void>;
}

/** Start `npm start` (or the server alone) on a fresh data dir and wait until /ks/health answers. */
export async function startServer(opts: {
  port: number;
  viaNpmStart?: boolean;
  env?: Record<string, string>;
  /** an existing data dir to use (removed on stop); a fresh one otherwise */
  dataDir?: string;
  /** node options for the server process (e.g. --cpu-prof, which NODE_OPTIONS does not take) */
  nodeArgs?: string[];
}): Promise<Started> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'ks-bench-'));
  const url = `http://127.0.0.1:${opts.port}`;
  const t0 = performance.now();
  const args = [
    ...(opts.nodeArgs ?? []),
    ...(opts.viaNpmStart ? ['scripts/start.mjs'] : ['--import', 'tsx', 'apps/server/src/main.ts']),
  ];
  const proc = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(opts.port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...opts.env },
  });
  let exited = false;
  proc.on('exit', () => {
    exited = true;
  });
  for (;;) {
    if (exited) throw new Error('server exited before it was ready');
    try {
      const r = await fetch(`${url}/ks/health`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const ms = performance.now() - t0;
  return {
    proc,
    url,
    dataDir,
    ms,
    async stop() {
      if (!exited) {
        const done = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await done;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Sign in as the browser does (credentials RSA-OAEP encrypted with a fresh nonce as label); returns the token. */
export async function signIn(url: string, account: string, password: string, role: string): Promise<string> {
  const { publicKey: key, nonce } = (
    (await (await fetch(`${url}/ks/common/public-key`)).json()) as { data: { publicKey: string; nonce: string } }
  ).data;
  const enc = (s: string) =>
    publicEncrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256', oaepLabel: Buffer.from(nonce) },
      Buffer.from(s),
    ).toString('base64');
  const res = (await (
    await fetch(`${url}/ks/common/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ logValue: enc(account), passWord: enc(password), loginRoleType: enc(role), nonce }),
    })
  ).json()) as { data: { token: string } | null; message: string };
  if (!res.data) throw new Error(`sign-in of ${account} failed: ${res.message}`);
  return res.data.token;
}

/** The value at percentile `p` of ascending `sorted`. */
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const load1 = () => +os.loadavg()[0]!.toFixed(2);

/**
 * Run `once` from `concurrency` virtual users in a loop for `seconds`, after `warmup` seconds at full concurrency
 * (every pooled connection opened and its statements prepared, the JIT settled); the latencies' percentiles and the
 * machine's load before and after. `once` gets the running call number.
 */
export async function load(
  label: string,
  once: (i: number) => Promise<void>,
  opts: { concurrency: number; seconds: number; warmup: number },
) {
  let n = 0;
  const run = async (seconds: number, times: number[] | null) => {
    const end = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: opts.concurrency }, async () => {
        while (performance.now() < end) {
          const t0 = performance.now();
          await once(n++);
          times?.push(performance.now() - t0);
        }
      }),
    );
  };
  await run(opts.warmup, null);
  const loadBefore = load1();
  const times: number[] = [];
  await run(opts.seconds, times);
  times.sort((a, b) => a - b);
  const r = {
    case: label,
    requests: times.length,
    perSecond: Math.round(times.length / opts.seconds),
    p50: +pct(times, 50).toFixed(1),
    p95: +pct(times, 95).toFixed(1),
    p99: +pct(times, 99).toFixed(1),
    load1Before: loadBefore,
    load1After: load1(),
  };
  console.info(JSON.stringify(r));
  // let the machine settle between cases
  await new Promise((res) => setTimeout(res, 3000));
  return r;
}
