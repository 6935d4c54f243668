import { limits } from '@inkstone/shared';

/** Spec section 5: the real type comes from the first bytes, never from the name or the declared type. */
export type SniffedType = 'png' | 'jpeg' | 'gif' | 'pdf' | 'docx' | 'doc' | 'txt' | 'unknown';

export const IMAGE_MSG = {
  mismatch: '文件类型不匹配',
  notImage: '请上传jpg、jpeg、png、gif格式的文件',
  tooLarge: '请上传20MB以内的文件',
  readFailed: '文件读取失败',
  /** The upload call answered with an error code (spec section 8: '上传失败', 3 s). */
  uploadFailed: '上传失败',
  /** The upload never got an answer (network, timeout): spec section 5's default. */
  uploadImageFailed: '上传图片失败',
} as const;

const startsWith = (b: Uint8Array, sig: number[]) => sig.every((v, i) => b[i] === v);

export function sniffType(b: Uint8Array): SniffedType {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(b, [0x47, 0x49, 0x46, 0x38])) return 'gif';
  if (startsWith(b, [0x25, 0x50, 0x44, 0x46])) return 'pdf';
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04])) return 'docx';
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'doc';
  if (b.length > 0 && looksLikeText(b)) return 'txt';
  return 'unknown';
}

function looksLikeText(b: Uint8Array): boolean {
  for (const c of b) if (c === 0 || c < 0x09 || (c > 0x0d && c < 0x20 && c !== 0x1b)) return false;
  return true;
}

/** The type a file claims, from its MIME type or, failing that, its extension. */
export function declaredType(name: string, mime: string): SniffedType {
  const m = mime.toLowerCase();
  if (m === 'image/png') return 'png';
  if (m === 'image/jpeg' || m === 'image/jpg' || m === 'image/pjpeg') return 'jpeg';
  if (m === 'image/gif') return 'gif';
  if (m === 'application/pdf') return 'pdf';
  if (m.includes('wordprocessingml')) return 'docx';
  if (m === 'application/msword') return 'doc';
  if (m.startsWith('text/')) return 'txt';
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  const byExt: Record<string, SniffedType> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', gif: 'gif', pdf: 'pdf', docx: 'docx', doc: 'doc', txt: 'txt', md: 'txt' };
  return (ext && byExt[ext]) || 'unknown';
}

const IMAGE_TYPES: SniffedType[] = ['png', 'jpeg', 'gif'];

/**
 * The message to show for an image about to be uploaded, or null when it may go.
 * Order: a file pretending to be another type first, then a non-image, then the size.
 */
export function imageProblem(f: { name: string; type: string; size: number }, head: Uint8Array): string | null {
  const real = sniffType(head);
  const declared = declaredType(f.name, f.type);
  if (declared !== 'unknown' && real !== 'unknown' && declared !== real) return IMAGE_MSG.mismatch;
  if (!IMAGE_TYPES.includes(real)) return IMAGE_MSG.notImage;
  if (f.size > limits.uploadMaxBytes) return IMAGE_MSG.tooLarge;
  return null;
}

export async function readHead(file: Blob, n = 16): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, n).arrayBuffer());
}
