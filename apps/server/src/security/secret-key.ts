import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The 32-byte application key: from APP_SECRET_KEY, or generated once into DATA_DIR for a
 * development install (so restarts keep sessions and encrypted data readable).
 */
export function resolveSecretKey(configured: string | undefined, dataDir: string | null, warn: (msg: string) => void): Buffer {
  if (configured) return Buffer.from(configured, 'hex');
  if (!dataDir) return randomBytes(32);
  const file = path.resolve(dataDir, 'secret.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600 });
  warn(`APP_SECRET_KEY is not set: generated a development key into ${file}. Set APP_SECRET_KEY in production.`);
  return key;
}
