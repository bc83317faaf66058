import { Worker } from 'node:worker_threads';

/**
 * MD5 on a worker thread, so that hashing a chunk overlaps with receiving and writing it on the main thread (MD5
 * cannot be split, and at ~700 MB/s it is the largest single cost of a chunked upload).
 *
 * Bytes are copied into 1 MiB shared slots (one memcpy; the caller's buffers stay its own, so they can go on to the
 * store untouched) and hashed on the worker in the order they were written. Each hash being filled holds at most one
 * slot of its own; full slots wait for the worker, and once more than MAX_IN_FLIGHT wait, `write` answers a promise
 * that resolves when the worker has caught up — backpressure, so memory stays bounded however fast the bytes come.
 * Bytes already in a file (a chunk just written to local disk) are better given by path (`addFile`): the worker
 * reads them itself, so the receiving thread neither copies them nor waits, and what gets hashed is what was stored.
 * A hash can be copied (the copy continues from every byte given so far) and is finished with `digest`.
 *
 * If the worker dies, every hash of it is lost: writes to it are ignored and its digest rejects (WorkerHashLost), so
 * a caller falls back to reading the bytes again; the next hash starts a new worker.
 */

const SLOT_BYTES = 1024 * 1024;
/** full slots handed to the worker and not yet hashed, before writers wait */
const MAX_IN_FLIGHT = 8;
/** hashed slots kept for reuse */
const KEEP_FREE = 16;

export class WorkerHashLost extends Error {
  override name = 'WorkerHashLost';
  constructor() {
    super('md5 worker stopped; the hash is lost');
  }
}

type ToWorker =
  | { op: 'new'; id: number; from?: number }
  | { op: 'update'; id: number; buf: SharedArrayBuffer; len: number; n: number }
  | { op: 'file'; id: number; path: string; size: number }
  | { op: 'digest'; id: number }
  | { op: 'ping'; id: number }
  | { op: 'free'; id: number };

type FromWorker = { op: 'done'; n: number } | { op: 'digest'; id: number; hex?: string } | { op: 'pong'; id: number };

// plain CommonJS, evaluated by the worker: no loader or build step needed (tsx, vitest and node alike)
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, readSync, closeSync } = require('node:fs');
const hashes = new Map();
const buf = Buffer.allocUnsafe(1024 * 1024);
parentPort.on('message', (m) => {
  switch (m.op) {
    case 'new': {
      if (m.from === undefined) hashes.set(m.id, createHash('md5'));
      else if (hashes.has(m.from)) hashes.set(m.id, hashes.get(m.from).copy());
      break;
    }
    case 'update': {
      const h = hashes.get(m.id);
      if (h) h.update(new Uint8Array(m.buf, 0, m.len));
      parentPort.postMessage({ op: 'done', n: m.n });
      break;
    }
    case 'file': {
      const h = hashes.get(m.id);
      if (!h) break;
      let fd = -1;
      let read = 0;
      try {
        fd = openSync(m.path, 'r');
        for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) {
          h.update(buf.subarray(0, n));
          read += n;
        }
      } catch {
        read = -1;
      } finally {
        if (fd >= 0) closeSync(fd);
      }
      // a file that could not be read whole: the hash no longer speaks for the bytes, and its digest is refused
      if (read !== m.size) hashes.delete(m.id);
      break;
    }
    case 'digest': {
      const h = hashes.get(m.id);
      hashes.delete(m.id);
      parentPort.postMessage({ op: 'digest', id: m.id, hex: h ? h.digest('hex') : undefined });
      break;
    }
    case 'ping':
      parentPort.postMessage({ op: 'pong', id: m.id });
      break;
    case 'free':
      hashes.delete(m.id);
      break;
  }
});
`;

interface Generation {
  worker: Worker;
  alive: boolean;
  /** slots handed over, by number, until the worker answers `done` */
  inFlight: Map<number, SharedArrayBuffer>;
  digests: Map<number, { resolve: (hex: string) => void; reject: (e: Error) => void }>;
  pings: Map<number, () => void>;
}

let gen: Generation | null = null;
let nextId = 1;
let nextPing = 1;
let nextSlot = 1;
const freeSlots: SharedArrayBuffer[] = [];
let waiters: (() => void)[] = [];

function takeSlot(): SharedArrayBuffer {
  return freeSlots.pop() ?? new SharedArrayBuffer(SLOT_BYTES);
}

function wakeWaiters() {
  const w = waiters;
  waiters = [];
  for (const f of w) f();
}

/** Keep the process alive only while the worker owes an answer. */
function refresh(g: Generation) {
  if (g.inFlight.size || g.digests.size || g.pings.size) g.worker.ref();
  else g.worker.unref();
}

function lose(g: Generation) {
  if (!g.alive) return;
  g.alive = false;
  if (gen === g) gen = null;
  g.inFlight.clear();
  for (const d of g.digests.values()) d.reject(new WorkerHashLost());
  g.digests.clear();
  for (const p of g.pings.values()) p();
  g.pings.clear();
  wakeWaiters();
}

function current(): Generation {
  if (gen?.alive) return gen;
  const worker = new Worker(WORKER_SOURCE, { eval: true, name: 'ks-md5' });
  const g: Generation = { worker, alive: true, inFlight: new Map(), digests: new Map(), pings: new Map() };
  worker.on('message', (m: FromWorker) => {
    if (m.op === 'done') {
      const buf = g.inFlight.get(m.n);
      g.inFlight.delete(m.n);
      if (buf && freeSlots.length < KEEP_FREE) freeSlots.push(buf);
      if (g.inFlight.size < MAX_IN_FLIGHT) wakeWaiters();
    } else if (m.op === 'pong') {
      g.pings.get(m.id)?.();
      g.pings.delete(m.id);
    } else {
      const d = g.digests.get(m.id);
      g.digests.delete(m.id);
      if (d && m.hex) d.resolve(m.hex);
      else d?.reject(new WorkerHashLost());
    }
    refresh(g);
  });
  worker.on('error', () => lose(g));
  worker.on('exit', () => lose(g));
  worker.unref();
  gen = g;
  return g;
}

function send(g: Generation, m: ToWorker) {
  g.worker.postMessage(m);
}

/** A running MD5 on the worker thread. */
export class WorkerMd5 {
  private readonly g: Generation;
  private readonly id = nextId++;
  private slot: SharedArrayBuffer | null = null;
  private view: Uint8Array | null = null;
  private fill = 0;
  private finished = false;

  /** A new hash, or a copy of `from` (which must have no unsent bytes; `copy()` sees to that). */
  constructor(from?: WorkerMd5) {
    this.g = from ? from.g : current();
    if (this.g.alive) send(this.g, { op: 'new', id: this.id, from: from?.id });
  }

  /** The worker this hash lives on has stopped: its digest will reject. */
  get lost(): boolean {
    return !this.g.alive;
  }

  /**
   * Add bytes (copied at once). Answers a promise when too many bytes wait for the worker: write more only after it
   * resolves.
   */
  write(data: Uint8Array): Promise<void> | undefined {
    if (this.finished) throw new Error('md5 already finished');
    if (!this.g.alive) return undefined;
    let at = 0;
    while (at < data.length) {
      if (!this.slot) {
        this.slot = takeSlot();
        this.view = new Uint8Array(this.slot);
        this.fill = 0;
      }
      const take = Math.min(data.length - at, SLOT_BYTES - this.fill);
      this.view!.set(data.subarray(at, at + take), this.fill);
      this.fill += take;
      at += take;
      if (this.fill === SLOT_BYTES) this.flush();
    }
    return this.g.alive && this.g.inFlight.size > MAX_IN_FLIGHT ? this.room() : undefined;
  }

  /**
   * Add the bytes of a file (`size` of them), read by the worker itself — from the page cache when the file was just
   * written — so this thread neither copies nor waits. A file that cannot be read whole makes the digest reject.
   */
  addFile(path: string, size: number): void {
    if (this.finished) throw new Error('md5 already finished');
    this.flush();
    if (this.g.alive) send(this.g, { op: 'file', id: this.id, path, size });
    refresh(this.g);
  }

  /** Hand the bytes of a partly filled slot to the worker now. */
  flush(): void {
    if (!this.slot) return;
    const buf = this.slot;
    const len = this.fill;
    this.slot = null;
    this.view = null;
    this.fill = 0;
    if (!this.g.alive || len === 0) {
      if (freeSlots.length < KEEP_FREE) freeSlots.push(buf);
      return;
    }
    const n = nextSlot++;
    this.g.inFlight.set(n, buf);
    send(this.g, { op: 'update', id: this.id, buf, len, n });
    refresh(this.g);
  }

  private room(): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!this.g.alive || this.g.inFlight.size <= MAX_IN_FLIGHT) resolve();
        else waiters.push(check);
      };
      check();
    });
  }

  /** An independent hash that continues from every byte written to this one so far. */
  copy(): WorkerMd5 {
    if (this.finished) throw new Error('md5 already finished');
    this.flush();
    return new WorkerMd5(this);
  }

  /** Resolves when the worker has taken in everything given so far (files read included), or has stopped. */
  settled(): Promise<void> {
    this.flush();
    const g = this.g;
    if (!g.alive) return Promise.resolve();
    return new Promise((resolve) => {
      const id = nextPing++;
      g.pings.set(id, resolve);
      send(g, { op: 'ping', id });
      refresh(g);
    });
  }

  /** The hex MD5 of everything written; the hash is finished. Rejects with WorkerHashLost if the worker died. */
  digest(): Promise<string> {
    if (this.finished) return Promise.reject(new Error('md5 already finished'));
    this.flush();
    this.finished = true;
    const g = this.g;
    if (!g.alive) return Promise.reject(new WorkerHashLost());
    return new Promise((resolve, reject) => {
      g.digests.set(this.id, { resolve, reject });
      send(g, { op: 'digest', id: this.id });
      refresh(g);
    });
  }

  /** Drop the hash (and a partly filled slot) without a result. */
  dispose(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.slot && freeSlots.length < KEEP_FREE) freeSlots.push(this.slot);
    this.slot = null;
    this.view = null;
    if (this.g.alive) send(this.g, { op: 'free', id: this.id });
  }
}

/** For tests: stop the worker as a crash would; hashes of it are lost, the next hash starts a new one. */
export async function stopMd5WorkerForTests(): Promise<void> {
  const g = gen;
  if (!g) return;
  lose(g);
  await g.worker.terminate();
}

/** For tests: slots waiting for the worker. */
export function md5SlotsInFlight(): number {
  return gen?.inFlight.size ?? 0;
}
