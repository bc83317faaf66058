/**
 * Chunked upload throughput (issue 6): a SIZE_MB file (1 GiB by default) through upload-task → chunk-upload ×n →
 * file-merge on localhost, side by side in one run with `cp` of the same file on the same disk (and `cp` followed by
 * `sync` of the copy, the durable equivalent: the server makes every stored file durable before it answers the
 * merge). The server's RSS is sampled every 100 ms during each upload, and the CPU time of server (all threads) and
 * client is recorded per round with the load average. RUNS rounds, alternating; medians reported.
 * The client computes the file's MD5 once before the rounds (the web does it in a Web Worker before uploading); that
 * time is reported separately and not counted in the upload.
 * Run: npm run bench:upload   (SIZE_MB=1024 RUNS=3; CONCURRENCY=2 chunks in flight; BENCH_DEBUG=1 prints the phases
 * and the server's CPU by thread; SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server)
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { machine, root, signIn, startServer } from './lib';

const SIZE_MB = Number(process.env.SIZE_MB ?? 1024);
const RUNS = Number(process.env.RUNS ?? 3);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 1);
const CHUNK = 5_242_880;
const size = SIZE_MB * 1024 * 1024;

// one folder on one disk for the source file, the cp copies and the server's DATA_DIR
const work = mkdtempSync(path.join(os.tmpdir(), 'ks-bench-upload-'));
const src = path.join(work, 'bid-documents.pdf');
const dataDir = path.join(work, 'data');
const cleanup = () => rmSync(work, { recursive: true, force: true });

console.info(`writing a ${SIZE_MB} MiB test file in ${work} …`);
{
  const fd = openSync(src, 'w');
  const block = Buffer.alloc(8 * 1024 * 1024);
  for (let written = 0; written < size; written += block.length) {
    for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((Math.random() * 0xffffffff) >>> 0, i);
    if (written === 0) Buffer.from('%PDF-1.7\n').copy(block);
    writeSync(fd, block, 0, Math.min(block.length, size - written));
  }
  closeSync(fd);
}

const t0 = performance.now();
const md5 = createHash('md5');
{
  const fd = openSync(src, 'r');
  const buf = Buffer.alloc(8 * 1024 * 1024);
  for (let n = 0; ; ) {
    const r = readSync(fd, buf, 0, buf.length, n);
    if (!r) break;
    md5.update(buf.subarray(0, r));
    n += r;
  }
  closeSync(fd);
}
const fileMd5 = md5.digest('hex');
const clientMd5Ms = performance.now() - t0;

const server = await startServer({
  port: 18460,
  dataDir,
  env: {
    RATE_LIMIT_PER_MINUTE: '1000000',
    CHUNKED_UPLOAD_MAX_MB: String(Math.max(SIZE_MB + 1, 2048)),
    LOG_LEVEL: 'warn',
  },
  // e.g. SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server during the run
  nodeArgs: process.env.SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean),
}).catch((e) => {
  cleanup(); // the test file is as large as SIZE_MB: never leave it behind
  throw e;
});
process.on('exit', () => server.proc.kill('SIGKILL'));

const token = await signIn(server.url, 'user1', 'Demo@2026', 'U');
const auth = { authorization: `Bearer ${token}` };

async function call<T>(p: string, body: object): Promise<T> {
  const r = await fetch(`${server.url}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify(body),
  });
  const j = (await r.json()) as { code: number; data: T; message: string };
  if (j.code !== 200) throw new Error(`${p}: ${j.message}`);
  return j.data;
}

const agent = new Agent({ keepAlive: true });

/**
 * One chunk-upload as a browser sends it (fields first, then the file part), with node:http: the chunk is read from
 * the file in one piece (a Blob slice) into `buf` and written after the fields. undici's FormData reads Blob slices in
 * small pieces and costs more than the server here (≈ 110 MiB/s on this machine), and piping a 1 MiB file stream into
 * the request cost about twice the CPU of one read and one write — CPU taken from the server on the same 2 cores.
 */
function sendChunk(uploadId: string, chunk: number, buf: Buffer): Promise<void> {
  const boundary = `----ksbench${chunk}`;
  const start = chunk * CHUNK;
  const len = Math.min(CHUNK, size - start);
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('chunk', String(chunk)) +
      field('uploadId', uploadId) +
      field('md5', fileMd5) +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(`${server.url}/ks/upload/v1/chunk-upload`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: {
          ...auth,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + len + tail.length,
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const j = JSON.parse(Buffer.concat(parts).toString('utf8')) as { code: number; message: string };
          if (j.code === 200) resolve();
          else reject(new Error(`chunk ${chunk}: ${j.message}`));
        });
      },
    );
    req.on('error', reject);
    const fd = openSync(src, 'r');
    try {
      if (readSync(fd, buf, 0, len, start) !== len) throw new Error('short read');
    } finally {
      closeSync(fd);
    }
    req.write(head);
    req.write(buf.subarray(0, len));
    req.end(tail);
  });
}

/** CPU seconds (user + system, all threads) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const after = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(after[11]) + Number(after[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** CPU seconds of each thread of a process, by thread name (BENCH_DEBUG: where the server's CPU goes). */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = f.slice(f.indexOf('(') + 1, f.lastIndexOf(')'));
      const after = f.slice(f.lastIndexOf(')') + 2).split(' ');
      const key = `${name}${tid === String(pid) ? ' (main)' : ''}`;
      out.set(key, (out.get(key) ?? 0) + (Number(after[11]) + Number(after[12])) / 100);
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** RSS of the server process, in MiB, from /proc. */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

async function upload(): Promise<{
  ms: number;
  rss: number[];
  fileId: string;
  serverCpuS: number;
  clientCpuS: number;
}> {
  const cpu0 = cpuSeconds(server.proc.pid!);
  const threads0 = threadCpu(server.proc.pid!);
  const client0 = process.cpuUsage();
  const samples: number[] = [rssMiB(server.proc.pid!)];
  const timer = setInterval(() => samples.push(rssMiB(server.proc.pid!)), 100);
  const start = performance.now();
  const task = await call<{ uploadId: string; uploadUrlList: { chunk: number }[] }>('/ks/upload/v1/upload-task', {
    md5: fileMd5,
    fileName: '招标文件（1GiB）.pdf',
    chunk: Math.ceil(size / CHUNK),
    fileSize: size,
  });
  const tc = performance.now();
  // CONCURRENCY chunks in flight (1: one after another, as the web uploader sends them)
  const queue = task.uploadUrlList.map((x) => x.chunk);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const buf = Buffer.allocUnsafe(CHUNK);
      for (let c = queue.shift(); c !== undefined; c = queue.shift()) await sendChunk(task.uploadId, c, buf);
    }),
  );
  if (process.env.BENCH_DEBUG)
    console.info(`task ${(tc - start).toFixed(0)} ms, chunks ${(performance.now() - tc).toFixed(0)} ms`);
  const tm = performance.now();
  const file = await call<{ fileId: string; md5: string }>('/ks/upload/v1/file-merge', {
    uploadId: task.uploadId,
    fileName: '招标文件（1GiB）.pdf',
    md5: fileMd5,
  });
  const ms = performance.now() - start;
  if (process.env.BENCH_DEBUG) console.info(`merge ${(performance.now() - tm).toFixed(0)} ms`);
  clearInterval(timer);
  samples.push(rssMiB(server.proc.pid!));
  if (file.md5 !== fileMd5) throw new Error('md5 differs');
  const client = process.cpuUsage(client0);
  if (process.env.BENCH_DEBUG) {
    const by = [...threadCpu(server.proc.pid!)]
      .map(([k, v]) => [k, v - (threads0.get(k) ?? 0)] as const)
      .filter(([, v]) => v >= 0.05)
      .sort((a, b) => b[1] - a[1]);
    console.info(`server CPU by thread: ${by.map(([k, v]) => `${k} ${v.toFixed(2)} s`).join(', ')}`);
  }
  return {
    ms,
    rss: samples,
    fileId: file.fileId,
    serverCpuS: cpuSeconds(server.proc.pid!) - cpu0,
    clientCpuS: (client.user + client.system) / 1e6,
  };
}

function timed(cmd: string, args: string[]): number {
  const s = performance.now();
  execFileSync(cmd, args, { stdio: 'inherit' });
  return performance.now() - s;
}

const rounds: {
  cpMs: number;
  cpSyncMs: number;
  uploadMs: number;
  rssMin: number;
  rssMax: number;
  serverCpuS: number;
  clientCpuS: number;
  load1: number;
}[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const copy = path.join(work, 'copy.pdf');
    const cpMs = timed('cp', [src, copy]);
    rmSync(copy);
    const cpSyncMs = timed('sh', ['-c', `cp "${src}" "${copy}" && sync "${copy}"`]);
    rmSync(copy);
    const u = await upload();
    // delete it again, so the next round uploads the bytes (an enterprise's own file would answer at once)
    await call('/ks/common/common/attachment/delete', { fileId: u.fileId });
    rounds.push({
      cpMs,
      cpSyncMs,
      uploadMs: u.ms,
      rssMin: Math.min(...u.rss),
      rssMax: Math.max(...u.rss),
      serverCpuS: u.serverCpuS,
      clientCpuS: u.clientCpuS,
      load1: os.loadavg()[0]!,
    });
    const r = rounds.at(-1)!;
    console.info(
      `round ${i + 1}: cp ${(cpMs / 1000).toFixed(2)} s, cp+sync ${(cpSyncMs / 1000).toFixed(2)} s, upload ${(u.ms / 1000).toFixed(2)} s; server RSS ${r.rssMin.toFixed(0)}–${r.rssMax.toFixed(0)} MiB; CPU server ${r.serverCpuS.toFixed(2)} s, client ${r.clientCpuS.toFixed(2)} s; load ${r.load1.toFixed(2)}`,
    );
  }
} finally {
  agent.destroy();
  await server.stop();
  cleanup();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mbps = (ms: number) => SIZE_MB / (ms / 1000);
const cp = median(rounds.map((r) => r.cpMs));
const cpSync = median(rounds.map((r) => r.cpSyncMs));
const up = median(rounds.map((r) => r.uploadMs));
const result = {
  when: new Date().toISOString(),
  machine: machine(),
  /** the machine is shared: its load during the run, 1/5/15-minute averages at the end */
  loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
  concurrency: CONCURRENCY,
  sizeMiB: SIZE_MB,
  chunkBytes: CHUNK,
  clientMd5Ms: Math.round(clientMd5Ms),
  rounds: rounds.map((r) => ({
    cpMs: Math.round(r.cpMs),
    cpSyncMs: Math.round(r.cpSyncMs),
    uploadMs: Math.round(r.uploadMs),
    serverRssMiB: [Math.round(r.rssMin), Math.round(r.rssMax)],
    /** CPU seconds of the upload: the server process (all threads), the bench's client (this process) */
    serverCpuS: Number(r.serverCpuS.toFixed(2)),
    clientCpuS: Number(r.clientCpuS.toFixed(2)),
    /** 1-minute load average after the round */
    load1: Number(r.load1.toFixed(2)),
  })),
  median: {
    cpMiBps: Math.round(mbps(cp)),
    cpSyncMiBps: Math.round(mbps(cpSync)),
    uploadMiBps: Math.round(mbps(up)),
    uploadVsCp: Number((cp / up).toFixed(2)),
    uploadVsCpSync: Number((cpSync / up).toFixed(2)),
  },
  serverRssMiB: {
    min: Math.round(Math.min(...rounds.map((r) => r.rssMin))),
    max: Math.round(Math.max(...rounds.map((r) => r.rssMax))),
  },
};
writeFileSync(path.join(root, 'bench/results/upload.json'), `${JSON.stringify(result, null, 2)}\n`);
console.info(
  `\n${SIZE_MB} MiB — cp ${result.median.cpMiBps} MiB/s, cp+sync ${result.median.cpSyncMiBps} MiB/s, upload ${result.median.uploadMiBps} MiB/s ` +
    `(${result.median.uploadVsCp}× cp, ${result.median.uploadVsCpSync}× cp+sync; target ≥ 0.5× cp); ` +
    `server RSS ${result.serverRssMiB.min}–${result.serverRssMiB.max} MiB; client md5 ${(clientMd5Ms / 1000).toFixed(2)} s — ${result.machine}`,
);
