import type { Config } from '../../config.js';
import { LocalStorage } from './local.js';
import { S3Storage } from './s3.js';
import type { Storage } from './types.js';

/** `local` (default, files under DATA_DIR/uploads) or `s3` (any S3-compatible service: OSS, COS, MinIO, AWS). */
export function createStorage(config: Config): Storage {
  if (config.STORAGE_PROVIDER === 's3') {
    // loadConfig has already failed start-up if any of these is missing.
    return new S3Storage({
      endpoint: config.S3_ENDPOINT!,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET!,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      publicBaseUrl: config.S3_PUBLIC_BASE_URL,
    });
  }
  return new LocalStorage(config.DATA_DIR);
}
