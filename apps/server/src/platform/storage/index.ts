import path from 'node:path';
import type { Config } from '../../config';
import { createLocalStorage } from './local';
import { createS3Storage } from './s3';
import type { Storage } from './storage';

export * from './storage';

/** The store the configuration names: S3-compatible object storage when S3_BUCKET is set, else DATA_DIR/files. */
export function createStorage(config: Pick<Config, 'dataDir' | 'files'>): Storage {
  if (config.files.s3) return createS3Storage(config.files.s3);
  return createLocalStorage(path.join(config.dataDir, 'files'));
}
