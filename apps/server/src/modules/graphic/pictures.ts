import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { cardAspects, ErrorCode, limits, type CardAspect } from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import { imageKind } from '../../integrations/fetch/safe-fetch.js';
import type { Storage, StorageWriter } from '../../integrations/storage/types.js';

/** Picture formats a card takes (spec section 5's upload types). */
const CARD_PICTURE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif']);
/** Decoding bombs: a small file that claims a huge canvas is refused before its pixels are allocated. */
const MAX_PIXELS = 80_000_000;

/**
 * Checks bytes that claim to be a picture (an upload, an AI reply, a library image): within the upload cap, a
 * png/jpeg/gif by magic bytes, and decodable as a real image by sharp. Throws the spec's messages.
 */
/** sharp (libvips, ~25 MB resident) is loaded with the first picture, not at start-up. */
const loadSharp = () => import('sharp').then((m) => m.default);

export async function checkPicture(bytes: Buffer): Promise<{ mimeType: string }> {
  if (bytes.length > limits.uploadMaxBytes) throw appError(ErrorCode.FILE_TOO_LARGE);
  const kind = await imageKind(bytes);
  if (!kind || !CARD_PICTURE_TYPES.has(kind.mimeType)) throw appError(ErrorCode.FILE_TYPE_UNSUPPORTED);
  const sharp = await loadSharp();
  try {
    const meta = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
    if (!meta.width || !meta.height) throw new Error('no size');
  } catch {
    throw appError(ErrorCode.FILE_TYPE_UNSUPPORTED, '图片已损坏或无法识别，请上传jpg、jpeg、png、gif格式的文件');
  }
  return { mimeType: kind.mimeType };
}

/**
 * The picture as a card: a PNG of the aspect's size (1080x1440 for 3:4), cropped around its most interesting part
 * (the image editor crops precisely first, so its export only changes scale, if at all).
 */
export async function toCardPng(bytes: Buffer, aspect: CardAspect = '3:4'): Promise<Buffer> {
  const { width, height } = cardAspects[aspect];
  const sharp = await loadSharp();
  return sharp(bytes, { limitInputPixels: MAX_PIXELS, animated: false }).rotate().resize(width, height, { fit: 'cover', position: 'attention' }).png().toBuffer();
}

export async function readAll(stream: Readable, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > cap) {
      stream.destroy();
      throw appError(ErrorCode.FILE_TOO_LARGE);
    }
    chunks.push(c);
  }
  return Buffer.concat(chunks);
}

/** Stores a card PNG under a new public key; returns the key. */
export async function storePng(storage: Storage, png: Buffer): Promise<string> {
  const key = `public/images/${randomUUID()}.png`;
  let writer: StorageWriter | null = null;
  try {
    writer = await storage.writer(key);
    await writer.write(png);
    await writer.commit();
  } catch (err) {
    await writer?.abort();
    throw err;
  }
  return key;
}
