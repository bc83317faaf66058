import { md5OfBlob } from './md5';

/**
 * The md5 worker: { id, blob } in; { id, type: 'progress', hashed, total } while hashing, then
 * { id, type: 'done', md5 } or { id, type: 'error', message }. Bundled by Vite as a same-origin file (worker-src 'self').
 */

/** The worker's global scope, typed by what it uses. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<{ id: number; blob: Blob }>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (event: MessageEvent<{ id: number; blob: Blob }>) => {
  const { id, blob } = event.data;
  try {
    let last = 0;
    const md5 = await md5OfBlob(blob, {
      onProgress: (hashed, total) => {
        const now = Date.now();
        if (now - last < 100 && hashed < total) return;
        last = now;
        scope.postMessage({ id, type: 'progress', hashed, total });
      },
    });
    scope.postMessage({ id, type: 'done', md5 });
  } catch (e) {
    scope.postMessage({ id, type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
};
