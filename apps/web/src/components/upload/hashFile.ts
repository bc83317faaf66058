import { HashAborted, md5OfBlob } from './md5';

/**
 * MD5 of a file off the main thread: each call starts the md5 worker (md5.worker.ts) and ends it when done or when the
 * signal aborts. Where no Worker exists or it cannot start, the same module hashes in the page, slice by slice.
 */
export type HashFn = (
  file: Blob,
  options?: { onProgress?: (hashed: number, total: number) => void; signal?: AbortSignal },
) => Promise<string>;

let nextId = 1;

export const hashFile: HashFn = (file, options = {}) => {
  if (typeof Worker === 'undefined') return md5OfBlob(file, options);
  return new Promise<string>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new HashAborted('已取消'));
      return;
    }
    const worker = new Worker(new URL('./md5.worker.ts', import.meta.url), { type: 'module', name: 'md5' });
    const id = nextId++;
    const end = () => {
      worker.terminate();
      options.signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      end();
      reject(new HashAborted('已取消'));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = (
      e: MessageEvent<{ id: number; type: string; md5?: string; message?: string; hashed?: number; total?: number }>,
    ) => {
      const m = e.data;
      if (m.id !== id) return;
      if (m.type === 'progress') options.onProgress?.(m.hashed ?? 0, m.total ?? file.size);
      else if (m.type === 'done' && m.md5) {
        end();
        resolve(m.md5);
      } else {
        end();
        reject(new Error(m.message || '文件校验码计算失败'));
      }
    };
    // a worker that cannot start (or fails) leaves the hashing to the page itself
    worker.onerror = (e) => {
      e.preventDefault();
      end();
      md5OfBlob(file, options).then(resolve, reject);
    };
    worker.postMessage({ id, blob: file });
  });
};
