import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { ErrorCode, limits, writingLimits, type QuoteFile } from '@inkstone/shared';
import { AppError, appError } from '../../http/errors.js';
import { cut, keywords } from '../../integrations/llm/chinese-text.js';
import type { Storage, StorageWriter } from '../../integrations/storage/types.js';
import { inspectZip, OFFICE_ZIP_LIMITS, ZipRejectedError } from '../../security/zip-guard.js';
import { ParseRefusedError, QUOTE_PARSE_LIMITS, parseDocumentIsolated } from '../../security/isolated-parse.js';
import type { FileRepo, FileRow } from './files.repo.js';

/** One uploaded part as @fastify/multipart hands it over. */
export interface UploadPart {
  filename: string;
  mimetype: string;
  file: Readable & { truncated?: boolean };
}

/** Bytes file-type needs to recognise the formats we accept. */
const HEAD_BYTES = 4100;

/** Image types of spec section 5, by detected extension. */
const IMAGE_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif' };
const QUOTE_EXTS = ['docx', 'pdf', 'txt', 'md'] as const;
type QuoteExt = (typeof QUOTE_EXTS)[number];

/** Declared extension -> the detected kind it must match ("text" = no magic number, valid UTF-8). */
const DECLARED_EXT: Record<string, string> = {
  jpg: 'jpg',
  jpeg: 'jpg',
  png: 'png',
  gif: 'gif',
  pdf: 'pdf',
  docx: 'docx',
  doc: 'cfb',
  txt: 'text',
  md: 'text',
  markdown: 'text',
};
const DECLARED_MIME: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/pjpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/msword': 'cfb',
  'text/plain': 'text',
  'text/markdown': 'text',
  'text/x-markdown': 'text',
};
/** Mime types browsers send when they do not know: they declare nothing. */
const VAGUE_MIMES = new Set(['application/octet-stream', 'binary/octet-stream', '']);

/**
 * The head of a partly read file without a UTF-8 character cut at its end (a fixed number of trimmed bytes can
 * still land inside a CJK character and make valid text look binary).
 */
export function utf8Prefix(buf: Buffer): Buffer {
  let lead = buf.length - 1;
  while (lead >= 0 && buf.length - lead < 4 && (buf[lead]! & 0xc0) === 0x80) lead--;
  if (lead < 0) return buf;
  const b = buf[lead]!;
  const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
  return buf.length - lead < need ? buf.subarray(0, lead) : buf;
}

/** What the first bytes say: file-type's extension, or "text" for valid UTF-8 without NUL bytes, or null. */
export async function detectKind(head: Buffer, complete: boolean): Promise<string | null> {
  // file-type is loaded with the first file it sniffs, not at start-up.
  const { fileTypeFromBuffer } = await import('file-type');
  const ft = await fileTypeFromBuffer(head);
  if (ft) return ft.ext;
  if (head.includes(0)) return null;
  try {
    // A multi-byte character may be cut at the end of the head: only a complete file must decode fully.
    new TextDecoder('utf-8', { fatal: true }).decode(complete ? head : utf8Prefix(head));
    return 'text';
  } catch {
    return null;
  }
}

/** True when the declared name or mime type names a different kind than the bytes. */
export function declaredMismatch(filename: string, mimetype: string, detected: string | null): boolean {
  const ext = path.extname(filename).slice(1).toLowerCase();
  const byExt = ext ? (DECLARED_EXT[ext] ?? `other:${ext}`) : null;
  const mime = mimetype.toLowerCase().split(';')[0]!.trim();
  const byMime = VAGUE_MIMES.has(mime) ? null : (DECLARED_MIME[mime] ?? `other:${mime}`);
  const actual = detected ?? 'unknown';
  return (byExt !== null && byExt !== actual) || (byMime !== null && byMime !== actual);
}

/** A zip-based document is inspected (entry count, real inflated sizes, encryption) before its parser runs. */
async function guardZip(buf: Buffer): Promise<void> {
  try {
    await inspectZip(buf, OFFICE_ZIP_LIMITS);
  } catch (err) {
    if (!(err instanceof ZipRejectedError)) throw err;
    throw appError(err.reason === 'too_large' || err.reason === 'too_many_entries' ? ErrorCode.FILE_TOO_LARGE : ErrorCode.FILE_READ_FAILED, err.message);
  }
}

const tooLarge = (bytes: number) => appError(ErrorCode.FILE_TOO_LARGE, `请上传${Math.round(bytes / 1024 / 1024)}MB以内的文件`);

/**
 * Reads a part chunk by chunk: the first HEAD_BYTES go to `onHead` before anything is kept; the running size
 * is checked on every chunk, so an oversize upload is refused as soon as it crosses the cap.
 */
export async function consume(part: UploadPart, cap: number, onHead: (head: Buffer, complete: boolean) => Promise<void>, onChunk: (c: Buffer) => Promise<void>): Promise<number> {
  let size = 0;
  let head: Buffer[] = [];
  let headLen = 0;
  let headDone = false;
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > cap) throw tooLarge(cap);
      if (!headDone) {
        head.push(chunk);
        headLen += chunk.length;
        if (headLen < HEAD_BYTES) continue;
        const all = Buffer.concat(head);
        head = [];
        headDone = true;
        await onHead(all, false);
        await onChunk(all);
        continue;
      }
      await onChunk(chunk);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw appError(ErrorCode.FILE_READ_FAILED);
  }
  if (part.file.truncated) throw tooLarge(cap);
  if (!headDone) {
    const all = Buffer.concat(head);
    if (!all.length) throw appError(ErrorCode.FILE_READ_FAILED, '文件为空');
    await onHead(all, true);
    await onChunk(all);
  }
  return size;
}

export class FileService {
  constructor(
    private readonly repo: FileRepo,
    private readonly storage: Storage,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** POST /wx/upload (spec section 5): jpg/jpeg/png/gif by magic bytes, declared type must agree, 20 MB. */
  async uploadImage(userId: number, part: UploadPart): Promise<{ url: string; id: number }> {
    let detected: string | null = null;
    const id = randomUUID();
    let writer: StorageWriter | null = null;
    let key = '';
    try {
      const size = await consume(
        part,
        limits.uploadMaxBytes,
        async (head, complete) => {
          detected = await detectKind(head, complete);
          if (declaredMismatch(part.filename, part.mimetype, detected)) throw appError(ErrorCode.FILE_TYPE_MISMATCH);
          if (!detected || !IMAGE_TYPES[detected]) throw appError(ErrorCode.FILE_TYPE_UNSUPPORTED);
          key = `public/images/${id}.${detected}`;
          writer = await this.storage.writer(key);
        },
        async (chunk) => writer!.write(chunk),
      );
      await (writer as StorageWriter | null)!.commit();
      const name = part.filename.slice(0, 200) || `${id}.${detected}`;
      const base = path.basename(name, path.extname(name));
      const words = [
        ...new Set(
          cut(base)
            .map((w) => w.trim())
            .filter((w) => w.length >= 2 && !/^[\d_\-.]+$/.test(w)),
        ),
      ].slice(0, 20);
      const row = await this.repo.insertFile({ userId, kind: 'image', name, ext: detected!, mime: IMAGE_TYPES[detected!]!, size, storageKey: key, keywords: words });
      return { url: this.storage.publicUrl(key), id: row.id };
    } catch (err) {
      await (writer as StorageWriter | null)?.abort();
      if (err instanceof AppError) throw err;
      this.log.error({ err }, 'image upload failed');
      throw appError(ErrorCode.UPLOAD_FAILED);
    }
  }

  /** Quoted documents: docx, pdf, txt, md by magic bytes (txt/md: valid UTF-8), capped while streaming, parsed to text. */
  async uploadQuote(userId: number, part: UploadPart): Promise<QuoteFile> {
    const chunks: Buffer[] = [];
    let kind: string | null = null;
    const size = await consume(
      part,
      writingLimits.quoteFileMaxBytes,
      async (head, complete) => {
        kind = await detectKind(head, complete);
        const ext = path.extname(part.filename).slice(1).toLowerCase();
        if (!(QUOTE_EXTS as readonly string[]).includes(ext)) throw appError(ErrorCode.QUOTE_FILE_TYPE_UNSUPPORTED);
        // docx is a zip: file-type may need the whole file to tell it from a plain zip; checked again below.
        if (kind === 'zip' && ext === 'docx') return;
        if (declaredMismatch(part.filename, part.mimetype, kind)) throw appError(ErrorCode.FILE_TYPE_MISMATCH);
      },
      async (chunk) => {
        chunks.push(chunk);
      },
    );
    const buf = Buffer.concat(chunks);
    const ext = path.extname(part.filename).slice(1).toLowerCase() as QuoteExt;
    const full = await detectKind(buf, true);
    if (declaredMismatch(part.filename, part.mimetype, full)) throw appError(ErrorCode.FILE_TYPE_MISMATCH);
    void kind;
    if (ext === 'docx') await guardZip(buf);
    let text: string;
    try {
      // Parsed in a bounded worker: heap cap, deadline, page cap, text cap.
      if (ext === 'docx' || ext === 'pdf') text = await parseDocumentIsolated(ext, buf, { ...QUOTE_PARSE_LIMITS, maxChars: writingLimits.quoteFileMaxChars });
      else text = buf.toString('utf8').replace(/^\ufeff/, '');
    } catch (err) {
      if (err instanceof ParseRefusedError && err.reason !== 'unreadable') {
        this.log.warn({ reason: err.reason, ext }, 'quoted file refused by the parser bounds');
        throw appError(err.reason === 'timeout' ? ErrorCode.FILE_READ_FAILED : ErrorCode.FILE_TOO_LARGE, err.message);
      }
      this.log.warn({ err: err instanceof Error ? err.message : err }, 'quoted file could not be parsed');
      throw appError(ErrorCode.FILE_READ_FAILED);
    }
    text = text
      .replace(/\r\n?/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
      .slice(0, writingLimits.quoteFileMaxChars);
    if (!text) throw appError(ErrorCode.FILE_READ_FAILED, '文件中没有可读取的文字');
    const key = `private/quote/${userId}/${randomUUID()}.${ext}`;
    const writer = await this.storage.writer(key);
    try {
      await writer.write(buf);
      await writer.commit();
    } catch (err) {
      await writer.abort();
      this.log.error({ err }, 'quoted file could not be stored');
      throw appError(ErrorCode.UPLOAD_FAILED, '上传失败');
    }
    const row = await this.repo.insertFile({
      userId,
      kind: 'quote',
      name: part.filename.slice(0, 200),
      ext,
      mime: part.mimetype,
      size,
      storageKey: key,
      text,
      keywords: keywords(text.slice(0, 20_000), 8),
    });
    return this.toQuote(row);
  }

  toQuote(r: FileRow): QuoteFile {
    return { id: r.id, name: r.name, ext: r.ext, size: r.size, chars: r.text?.length ?? 0, preview: (r.text ?? '').slice(0, 200), createdAt: r.createdAt.toISOString() };
  }

  async listQuotes(userId: number): Promise<QuoteFile[]> {
    return (await this.repo.files(userId, 'quote')).map((r) => this.toQuote(r));
  }

  async delete(userId: number, id: number): Promise<void> {
    const row = await this.repo.deleteFile(userId, id);
    if (!row) throw appError(ErrorCode.NOT_FOUND, '文件不存在');
    await this.storage.delete(row.storageKey).catch((err: unknown) => this.log.warn({ err }, 'stored file could not be removed'));
  }

  async searchImages(userId: number, keyword: string) {
    const rows = await this.repo.searchImages(userId, keyword);
    if (!rows.length) throw appError(ErrorCode.OPERATION_FAILED, '暂无图片搜索结果');
    return rows.map((r) => ({ id: r.id, url: this.storage.publicUrl(r.storageKey), name: r.name, keywords: r.keywords, createdAt: r.createdAt.toISOString() }));
  }
}
