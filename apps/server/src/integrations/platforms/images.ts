import { decodeDataImage, TransientPlatformError, ContentRejectedError } from './types.js';

export interface ImageFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** Turns the content's images (data: or http(s) URLs) into files to upload. */
export async function loadImages(images: string[]): Promise<ImageFile[]> {
  const out: ImageFile[] = [];
  for (const [i, src] of images.entries()) {
    const inline = decodeDataImage(src, i);
    if (inline) {
      out.push(inline);
      continue;
    }
    if (!/^https?:\/\//i.test(src)) throw new ContentRejectedError(`第${i + 1}张图片地址无效`);
    let res: Response;
    try {
      res = await fetch(src, { signal: AbortSignal.timeout(15_000) });
    } catch (err) {
      throw new TransientPlatformError(`第${i + 1}张图片下载失败: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!res.ok) throw new ContentRejectedError(`第${i + 1}张图片无法下载（HTTP ${res.status}）`);
    const buffer = Buffer.from(await res.arrayBuffer());
    if (buffer.length > MAX_IMAGE_BYTES) throw new ContentRejectedError(`第${i + 1}张图片超过20MB`);
    const mimeType = (res.headers.get('content-type') ?? 'image/jpeg').split(';')[0]!.trim();
    const ext = mimeType.includes('png') ? 'png' : mimeType.includes('gif') ? 'gif' : mimeType.includes('webp') ? 'webp' : 'jpg';
    out.push({ name: `image-${i + 1}.${ext}`, mimeType, buffer });
  }
  return out;
}
