import SparkMD5 from 'spark-md5';

/**
 * Incremental MD5 of a file (the upload-task's `md5`): read slice by slice, so a file of any size hashes in constant
 * memory. Pure JavaScript (spark-md5): the CSP has no 'wasm-unsafe-eval'. It runs inside the md5 worker
 * (md5.worker.ts) so the page stays responsive, and in the page itself where no Worker exists.
 */

/** Bytes read at a time. */
export const MD5_SLICE_BYTES = 2 * 1024 * 1024;

export class HashAborted extends Error {
  override name = 'HashAborted';
}

async function readSlice(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('读取文件失败'));
    reader.readAsArrayBuffer(blob);
  });
}

export interface Md5Options {
  sliceBytes?: number;
  /** bytes hashed so far, after each slice */
  onProgress?: (hashed: number, total: number) => void;
  /** checked before each slice */
  signal?: AbortSignal;
}

/** Lower-case hex MD5 of the blob's bytes. */
export async function md5OfBlob(blob: Blob, options: Md5Options = {}): Promise<string> {
  const slice = Math.max(1, options.sliceBytes ?? MD5_SLICE_BYTES);
  const spark = new SparkMD5.ArrayBuffer();
  for (let start = 0; start < blob.size; start += slice) {
    if (options.signal?.aborted) throw new HashAborted('已取消');
    spark.append(await readSlice(blob.slice(start, Math.min(blob.size, start + slice))));
    options.onProgress?.(Math.min(blob.size, start + slice), blob.size);
  }
  return spark.end();
}
