import type { Readable } from 'node:stream';
import { limits } from '@inkstone/shared';
import { SafeFetch, imageKind } from '../fetch/safe-fetch.js';
import { FetchRefusedError, type SafeFetcher } from '../fetch/types.js';
import { isValidKey, type Storage } from '../storage/types.js';
import { decodeDataImage, TransientPlatformError, ContentRejectedError } from './types.js';

export interface ImageFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** The same cap as an upload: an image we stored must be publishable, and a remote one is held to the same rule. */
const MAX_IMAGE_BYTES = limits.uploadMaxBytes;
const MAX_MB = Math.round(MAX_IMAGE_BYTES / 1024 / 1024);
const UPLOADS = '/uploads/';

export interface ImageSources {
  /** The SSRF-safe client; the only way a user-supplied URL is fetched. */
  fetcher: SafeFetcher;
  /** Where `/uploads/` images live: read directly, never over HTTP (null: nothing stored here). */
  storage: Storage | null;
  /** Origins that serve our `/uploads/` (PUBLIC_URL); the publishing request's own origin is added per call. */
  ownOrigins: string[];
}

/**
 * Turns the images of publish content (data: URLs, our own `/uploads/` images, public http(s) URLs) into files.
 * Our own images are read from storage: fetching them over HTTP would need the server to reach itself, which the
 * safe client rightly refuses, and PUBLIC_URL is often not reachable from the server at all.
 */
export class ImageLoader {
  private readonly own: Set<string>;
  /** `public/` URL prefix of the storage when it is absolute (S3 bucket or CDN), e.g. `https://img.example.com/public/`. */
  private readonly storagePrefix: string | null;

  constructor(private readonly src: ImageSources) {
    this.own = new Set(src.ownOrigins.map(originOf).filter((o): o is string => o !== null));
    const probe = src.storage?.publicUrl('public/x') ?? null;
    this.storagePrefix = probe && /^https?:\/\//i.test(probe) ? probe.slice(0, -'x'.length) : null;
  }

  /**
   * The `/uploads/...` path when `src` names an image we stored (relative, on one of our origins, or on the
   * storage's public base), else null. Publishing stores this form, so the worker needs no request host later.
   */
  ownUpload(src: string, extraOrigins: string[] = []): string | null {
    if (src.startsWith(UPLOADS)) return src.split(/[?#]/)[0]!;
    if (this.storagePrefix && src.startsWith(this.storagePrefix)) return UPLOADS + src.slice(this.storagePrefix.length).split(/[?#]/)[0]!;
    let u: URL;
    try {
      u = new URL(src);
    } catch {
      return null;
    }
    if (!u.pathname.startsWith(UPLOADS)) return null;
    const origins = new Set([...this.own, ...extraOrigins.map(originOf).filter((o): o is string => o !== null)]);
    return origins.has(u.origin) ? u.pathname : null;
  }

  /** What is wrong with an image reference that can be told without fetching it, in Chinese; null when none. */
  precheck(src: string): string | null {
    if (src.startsWith('data:')) return decodeDataImage(src, 0) ? null : '只支持 png、jpg、gif、webp 格式的内嵌图片';
    if (src.startsWith(UPLOADS)) return keyOf(src) ? null : '地址无效';
    return this.src.fetcher.check(src)?.message ?? null;
  }

  /**
   * Inline (data:) and stored (`/uploads/`) images read now, without network: 'type' when it is not an image by its
   * magic bytes, 'size' when over the upload cap, null when fine or when only the job can tell (remote URLs).
   */
  async inspect(src: string): Promise<'type' | 'size' | null> {
    let buffer: Buffer;
    const inline = src.startsWith('data:') ? decodeDataImage(src, 0) : null;
    if (inline) buffer = inline.buffer;
    else {
      const own = this.ownUpload(src);
      const key = own === null ? null : keyOf(own);
      if (!key || !this.src.storage) return null;
      try {
        buffer = await readCapped(this.src.storage.read(key), MAX_IMAGE_BYTES);
      } catch (err) {
        // Too large while reading; a missing file is the job's to report (it says which was deleted).
        return err instanceof ContentRejectedError ? 'size' : null;
      }
    }
    if (buffer.length > MAX_IMAGE_BYTES) return 'size';
    return (await imageKind(buffer)) ? null : 'type';
  }

  async load(images: string[]): Promise<ImageFile[]> {
    const out: ImageFile[] = [];
    for (const [i, src] of images.entries()) out.push(await this.one(src, i));
    return out;
  }

  private async one(src: string, i: number): Promise<ImageFile> {
    const which = `第${i + 1}张图片`;
    const inline = decodeDataImage(src, i);
    if (inline) {
      const kind = await imageKind(inline.buffer);
      if (!kind) throw new ContentRejectedError(`${which}不是有效的图片`);
      if (inline.buffer.length > MAX_IMAGE_BYTES) throw new ContentRejectedError(`${which}超过${MAX_MB}MB`);
      return { name: `image-${i + 1}.${kind.ext}`, mimeType: kind.mimeType, buffer: inline.buffer };
    }
    const own = this.ownUpload(src);
    if (own !== null) return this.stored(own, i);
    if (!/^https?:\/\//i.test(src)) throw new ContentRejectedError(`${which}地址无效`);
    try {
      const img = await this.src.fetcher.image(src, { maxBytes: MAX_IMAGE_BYTES });
      return { name: `image-${i + 1}.${img.ext}`, mimeType: img.mimeType, buffer: img.body };
    } catch (err) {
      if (err instanceof FetchRefusedError) {
        const msg = `${which}${err.message}`;
        throw err.transient ? new TransientPlatformError(msg) : new ContentRejectedError(msg);
      }
      throw new TransientPlatformError(`${which}下载失败`);
    }
  }

  /** Reads `public/<rest>` from storage with the same size cap and magic-byte check as a download. */
  private async stored(uploadPath: string, i: number): Promise<ImageFile> {
    const which = `第${i + 1}张图片`;
    const key = keyOf(uploadPath);
    if (!key || !this.src.storage) throw new ContentRejectedError(`${which}地址无效`);
    let buffer: Buffer;
    try {
      buffer = await readCapped(this.src.storage.read(key), MAX_IMAGE_BYTES);
    } catch (err) {
      if (err instanceof ContentRejectedError) throw new ContentRejectedError(`${which}${err.message}`);
      const code = (err as { code?: string }).code;
      if (code === 'ENOENT' || code === 'NoSuchKey') throw new ContentRejectedError(`${which}已被删除，请重新上传`);
      throw new TransientPlatformError(`${which}读取失败`);
    }
    const kind = await imageKind(buffer);
    if (!kind) throw new ContentRejectedError(`${which}不是有效的图片`);
    return { name: `image-${i + 1}.${kind.ext}`, mimeType: kind.mimeType, buffer };
  }
}

/** `/uploads/images/a.png` -> `public/images/a.png`, or null when it is not a valid storage key. */
function keyOf(uploadPath: string): string | null {
  let rest: string;
  try {
    rest = decodeURIComponent(uploadPath.split(/[?#]/)[0]!.slice(UPLOADS.length));
  } catch {
    return null;
  }
  const key = `public/${rest}`;
  return isValidKey(key) ? key : null;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

async function readCapped(stream: Readable, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > cap) throw new ContentRejectedError(`超过${MAX_MB}MB`);
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, size);
}

let fallback: ImageLoader | null = null;

/**
 * `loader` is the product's (storage + origins, from publishing); without one (adapter contract tests) only data:
 * URLs and public http(s) URLs load, through the same safe client.
 */
export function loadImages(images: string[], loader?: ImageLoader): Promise<ImageFile[]> {
  return (loader ?? (fallback ??= new ImageLoader({ fetcher: new SafeFetch(), storage: null, ownOrigins: [] }))).load(images);
}
