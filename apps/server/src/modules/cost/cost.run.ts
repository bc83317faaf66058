import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CostResults, CostSettings } from '@ks/contracts';
import type { FromWorker, ToWorker } from './cost.worker';

/**
 * The worker's source is TypeScript, as the server's is: a small script registers tsx in the thread and imports it
 * (a worker does not take `--import` in this Node).
 */
const TSX = pathToFileURL(
  createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs'),
).href;
const WORKER = new URL('./cost.worker.ts', import.meta.url).href;
const BOOT = `import(${JSON.stringify(TSX)}).then((m) => m.tsImport(${JSON.stringify(WORKER)}, ${JSON.stringify(WORKER)}));`;

export interface DetectionFile {
  file: { fileId: string; enterpriseId: string; enterpriseName: string; fileName: string };
  open: () => Promise<Readable>;
}

export interface DetectionProgress {
  /** files read */
  files: number;
  /** pairs compared, of */
  pairs: { done: number; of: number } | null;
}

/**
 * Runs a detection on a worker thread of its own (cost.worker.ts, its TypeScript loaded through tsx): streams each
 * file from storage to it, one chunk in flight at a time, then asks for the checks. Rejects with the worker's message
 * when a file cannot be read; the worker ends either way.
 */
export async function detectInWorker(
  files: DetectionFile[],
  settings: CostSettings,
  onProgress: (p: DetectionProgress) => void,
): Promise<CostResults> {
  const worker = new Worker(BOOT, { eval: true, name: 'ks-cost-detection' });
  const inbox: FromWorker[] = [];
  let waiting: ((m: FromWorker) => void) | null = null;
  let broken: Error | null = null;
  const deliver = (m: FromWorker) => {
    const w = waiting;
    waiting = null;
    if (w) w(m);
    else inbox.push(m);
  };
  worker.on('message', (m: FromWorker) => {
    if (m.op === 'pairs') onProgress({ files: files.length, pairs: { done: m.done, of: m.of } });
    else deliver(m);
  });
  worker.on('error', (e) => {
    broken = e;
    deliver({ op: 'error', message: e.message });
  });
  worker.on('exit', (code) => {
    if (code !== 0) deliver({ op: 'error', message: `检测进程异常退出（${code}）` });
  });
  const next = async (): Promise<FromWorker> => {
    const m = inbox.shift() ?? (await new Promise<FromWorker>((r) => (waiting = r)));
    if (m.op === 'error') throw new Error(m.message);
    return m;
  };
  const send = (m: ToWorker, transfer: ArrayBuffer[] = []) => worker.postMessage(m, transfer);
  try {
    for (const [i, f] of files.entries()) {
      send({ op: 'file', file: f.file });
      const stream = await f.open();
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (broken) throw broken;
        // a copy the worker owns (the chunk may share a pooled buffer)
        const buf = new Uint8Array(chunk.length);
        buf.set(chunk);
        send({ op: 'chunk', buf }, [buf.buffer]);
        await next(); // its ack: one chunk in flight
      }
      send({ op: 'end' });
      const done = await next();
      if (done.op !== 'digested') throw new Error(`检测进程应答异常：${done.op}`);
      onProgress({ files: i + 1, pairs: null });
    }
    send({ op: 'detect', settings });
    const r = await next();
    if (r.op !== 'result') throw new Error(`检测进程应答异常：${r.op}`);
    return r.results;
  } finally {
    await worker.terminate();
  }
}
