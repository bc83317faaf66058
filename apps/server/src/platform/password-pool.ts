import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { Code, Msg } from '@ks/contracts';
import { AppError } from './errors';

/**
 * Password hashing (argon2id, hash-wasm's WebAssembly) on a small pool of worker threads (issue 20, load): at OWASP's
 * 19 MiB × 2 iterations a hash is ≈ 0.15 s of a core, during which a main thread would answer nothing else, and each
 * hash running at once on it made a WebAssembly memory of its own (+17 MiB each, 1.5 GB RSS peaks while 200 users
 * signed in). Here at most `threads` hashes run at once, each worker keeps one memory for all its hashes, and the
 * event loop stays free; the rest wait their turn in order, up to `threads × QUEUED_PER_THREAD`, past which a caller
 * is refused at once with 503 「服务器繁忙，请稍后重试」 instead of waiting minutes.
 *
 * A worker that dies (out of memory, killed) fails the one hash it was running — the caller gets an error, never a
 * wrong answer — and the next hash starts a new worker. Idle workers do not keep the process alive.
 */

/** Hashes that may wait for a worker, per thread, before callers are refused (a sign-in waits ≈ 0.15 s per hash ahead). */
export const QUEUED_PER_THREAD = 256;

/** The default number of hashing threads: half the cores, at least 1 and at most 4 (memory: ≈ 25 MB each). */
export const defaultHashThreads = (cores = availableParallelism()) => Math.min(4, Math.max(1, Math.floor(cores / 2)));

export type HashParams = { iterations: number; memorySize: number; parallelism: number; hashLength: number };
type Job =
  | { op: 'hash'; password: string; salt: Uint8Array; params: HashParams }
  | { op: 'verify'; password: string; hash: string }
  | { op: 'crash' };
type Pending = { job: Job; resolve: (v: unknown) => void; reject: (e: Error) => void };
type Slot = { worker: Worker; running: Pending | null; threadId: number };

// plain CommonJS evaluated by the worker (no loader or build step: tsx, vitest and node alike), hash-wasm by its path
const HASH_WASM = createRequire(import.meta.url).resolve('hash-wasm');
const WORKER_SOURCE = `
const { parentPort, threadId } = require('node:worker_threads');
const { argon2id, argon2Verify } = require(${JSON.stringify(HASH_WASM)});
parentPort.on('message', async (m) => {
  try {
    if (m.op === 'crash') process.exit(3);
    const value = m.op === 'hash'
      ? await argon2id({ ...m.params, password: m.password, salt: m.salt, outputType: 'encoded' })
      : await argon2Verify({ password: m.password, hash: m.hash });
    parentPort.postMessage({ value, threadId });
  } catch (e) {
    parentPort.postMessage({ error: String((e && e.message) || e), threadId });
  }
});
`;

export class HashWorkerLost extends Error {
  override name = 'HashWorkerLost';
  constructor(detail: string) {
    super(`password hash worker stopped: ${detail}`);
  }
}

export class PasswordHashPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  /** worker thread ids that answered, newest last (tests: the work ran off the main thread) */
  readonly answeredBy: number[] = [];

  constructor(readonly threads: number) {
    if (!Number.isInteger(threads) || threads < 1) throw new Error(`threads must be a positive integer: ${threads}`);
  }

  /** Workers now running (≤ threads). */
  get workers() {
    return this.slots.length;
  }

  /** Hashes waiting for a worker. */
  get waiting() {
    return this.queue.length;
  }

  hash(password: string, salt: Uint8Array, params: HashParams): Promise<string> {
    return this.run({ op: 'hash', password, salt, params }) as Promise<string>;
  }

  verify(password: string, hash: string): Promise<boolean> {
    return this.run({ op: 'verify', password, hash }) as Promise<boolean>;
  }

  /** Tests: make the next free worker die while it holds this job. */
  crashOne(): Promise<unknown> {
    return this.run({ op: 'crash' });
  }

  /** Stop every worker (waiting and running hashes fail). */
  async close(): Promise<void> {
    for (const p of this.queue.splice(0)) p.reject(new HashWorkerLost('pool closed'));
    const slots = this.slots.splice(0);
    for (const s of slots) s.running?.reject(new HashWorkerLost('pool closed'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private run(job: Job): Promise<unknown> {
    if (this.queue.length >= this.threads * QUEUED_PER_THREAD)
      return Promise.reject(new AppError(503, Code.SERVICE_UNAVAILABLE, Msg.SERVER_BUSY));
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch() {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.running);
      if (!slot) {
        if (this.slots.length >= this.threads) return;
        slot = this.spawn();
      }
      const p = this.queue.shift()!;
      slot.running = p;
      slot.worker.ref();
      slot.worker.postMessage(p.job);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, { eval: true, name: 'ks-argon2' });
    const slot: Slot = { worker, running: null, threadId: worker.threadId };
    worker.on('message', (m: { value?: unknown; error?: string; threadId: number }) => {
      const p = slot.running;
      slot.running = null;
      worker.unref();
      this.answeredBy.push(m.threadId);
      if (this.answeredBy.length > 100) this.answeredBy.shift();
      if (p) {
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.value);
      }
      this.dispatch();
    });
    const lost = (detail: string) => {
      const i = this.slots.indexOf(slot);
      if (i < 0) return;
      this.slots.splice(i, 1);
      const p = slot.running;
      slot.running = null;
      p?.reject(new HashWorkerLost(detail));
      this.dispatch();
    };
    worker.on('error', (e) => lost(e.message));
    worker.on('exit', (code) => lost(`exit ${code}`));
    worker.unref();
    this.slots.push(slot);
    return slot;
  }
}
