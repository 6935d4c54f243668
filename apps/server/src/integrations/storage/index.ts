import type { Config } from '../../config.js';
import { LocalStorage } from './local.js';
import type { Storage } from './types.js';

/**
 * `local` (default). An S3-compatible adapter (OSS, COS, MinIO) is not written yet: config rejects
 * STORAGE_PROVIDER=s3 at start-up rather than pretending.
 */
export function createStorage(config: Config): Storage {
  return new LocalStorage(config.DATA_DIR);
}
