import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (vendor API keys, platform cookies): AES-256-GCM under the 32-byte app key.
 * Stored form: `v1:<base64url(iv 12 bytes | tag 16 bytes | ciphertext)>`.
 */
const VERSION = 'v1';

export function encryptSecret(key: Buffer, plaintext: string): string {
  if (key.length !== 32) throw new Error('encryption key must be 32 bytes');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url')}`;
}

/** Throws when the value was not produced under this key or was altered. */
export function decryptSecret(key: Buffer, stored: string): string {
  const [version, body] = stored.split(':', 2);
  if (version !== VERSION || !body) throw new Error('unknown secret format');
  const raw = Buffer.from(body, 'base64url');
  if (raw.length < 28) throw new Error('secret is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
