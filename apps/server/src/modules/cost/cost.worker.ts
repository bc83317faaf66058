import { parentPort } from 'node:worker_threads';
import type { CostResults, CostSettings } from '@ks/contracts';
import { type CostDigest, detect, digestOf } from './cost.checks';

/**
 * The detection's worker thread (issue 18): the main thread streams each cost file to it in chunks (it keeps the
 * storage), the worker reads each into its digest as the chunks arrive, then runs the checks over all of them. Nothing
 * of this runs on the server's event loop.
 *
 * In: { op: 'file', file } · { op: 'chunk', buf } (answered { op: 'ack' } once read) · { op: 'end' } ·
 *     { op: 'detect', settings }
 * Out: { op: 'ack' } · { op: 'digested', fileId } · { op: 'pairs', done, of } · { op: 'result', results } ·
 *      { op: 'error', message }
 */
export type ToWorker =
  | { op: 'file'; file: { fileId: string; enterpriseId: string; enterpriseName: string; fileName: string } }
  | { op: 'chunk'; buf: Uint8Array }
  | { op: 'end' }
  | { op: 'detect'; settings: CostSettings };
export type FromWorker =
  | { op: 'ack' }
  | { op: 'digested'; fileId: string }
  | { op: 'pairs'; done: number; of: number }
  | { op: 'result'; results: CostResults }
  | { op: 'error'; message: string };

const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);
const digests: CostDigest[] = [];

/** The chunks of the file being read, as the reader pulls them. */
let queue: (Uint8Array | null)[] = [];
let wake: (() => void) | null = null;
async function* chunks(): AsyncGenerator<Uint8Array> {
  for (;;) {
    if (!queue.length) await new Promise<void>((r) => (wake = r));
    const next = queue.shift();
    if (next === null || next === undefined) return;
    post({ op: 'ack' });
    yield next;
  }
}
const push = (c: Uint8Array | null) => {
  queue.push(c);
  const w = wake;
  wake = null;
  w?.();
};

port.on('message', (m: ToWorker) => {
  if (m.op === 'file') {
    queue = [];
    digestOf(chunks(), m.file)
      .then((d) => {
        digests.push(d);
        post({ op: 'digested', fileId: d.fileId });
      })
      .catch((e: Error) => post({ op: 'error', message: `${m.file.enterpriseName}的造价文件：${e.message}` }));
  } else if (m.op === 'chunk') push(m.buf);
  else if (m.op === 'end') push(null);
  else if (m.op === 'detect') {
    try {
      let last = 0;
      const results = detect(digests, m.settings, (done, of) => {
        const now = Date.now();
        if (now - last > 200 || done === of) {
          last = now;
          post({ op: 'pairs', done, of });
        }
      });
      post({ op: 'result', results });
    } catch (e) {
      post({ op: 'error', message: (e as Error).message });
    }
  }
});
