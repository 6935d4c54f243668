import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

export const hmacHex = (key: Buffer, value: string) => createHmac('sha256', key).update(value).digest('hex');

export const hmacBase64Url = (key: Buffer, value: string) => createHmac('sha256', key).update(value).digest('base64url');

/** 256-bit random token, URL safe. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export const randomDigits = (length: number) => Array.from({ length }, () => randomInt(0, 10)).join('');

const ALPHANUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Unambiguous upper-case code (no 0/O, 1/I). */
export const randomCode = (length: number) => Array.from({ length }, () => ALPHANUM[randomInt(0, ALPHANUM.length)]).join('');

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
