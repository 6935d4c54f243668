import yauzl from 'yauzl';

/**
 * Checks a zip-based upload (docx now; xlsx, pptx, epub later) before any parser sees it. Parsers such as mammoth
 * inflate whole entries into memory, so a 200 KB file whose document.xml inflates to 200 MB costs hundreds of MB.
 * Sizes declared in the zip can lie, so every entry is actually inflated through a counting stream that stops at
 * the cap; nothing inflated is kept.
 */
export interface ZipLimits {
  /** Entries in the central directory (files and folders). */
  maxEntries: number;
  /** Inflated bytes of one entry. */
  maxEntryBytes: number;
  /** Inflated bytes of all entries together. */
  maxTotalBytes: number;
}

const MiB = 1024 * 1024;

/**
 * Office documents: a long book-length docx has a document.xml of a few MB; 2,000 entries and 100 MB in all leave
 * room for many embedded pictures (stored, not compressed, so their inflated size is their size in the upload).
 */
export const OFFICE_ZIP_LIMITS: ZipLimits = { maxEntries: 2000, maxEntryBytes: 32 * MiB, maxTotalBytes: 100 * MiB };

export type ZipRefusal = 'too_many_entries' | 'too_large' | 'encrypted' | 'malformed';

/** Why a zip was refused; the message is Chinese and fit to show. */
export class ZipRejectedError extends Error {
  constructor(
    readonly reason: ZipRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'ZipRejectedError';
  }
}

const tooLarge = () => new ZipRejectedError('too_large', '文件解压后过大，已拒绝');
const malformed = () => new ZipRejectedError('malformed', '文件已损坏或结构异常，无法读取');

/** Deflate (8) and stored (0) are all Office and EPUB writers use; anything else is refused, not guessed at. */
const KNOWN_METHODS = new Set([0, 8]);

export interface ZipSummary {
  entries: number;
  /** Inflated bytes actually counted. */
  totalBytes: number;
  names: string[];
}

/**
 * `onData` sees every inflated chunk with its entry's name as it is counted (a reader that needs the content, such
 * as the knowledge library's docx text count, rides on this one inflate instead of doing its own); it must not throw.
 */
export async function inspectZip(buf: Buffer, limits: ZipLimits = OFFICE_ZIP_LIMITS, onData?: (entry: string, chunk: Buffer) => void): Promise<ZipSummary> {
  let zip: yauzl.ZipFile;
  try {
    // strictFileNames: absolute paths, `..` and backslashes are errors, not silently accepted.
    zip = await yauzl.fromBufferPromise(buf, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: true });
  } catch {
    throw malformed();
  }
  const names: string[] = [];
  let total = 0;
  try {
    if (zip.entryCount > limits.maxEntries) throw new ZipRejectedError('too_many_entries', `文件包含的条目超过${limits.maxEntries}个，已拒绝`);
    for await (const entry of zip.eachEntry()) {
      names.push(entry.fileName);
      if (names.length > limits.maxEntries) throw new ZipRejectedError('too_many_entries', `文件包含的条目超过${limits.maxEntries}个，已拒绝`);
      if (entry.isEncrypted()) throw new ZipRejectedError('encrypted', '文件已加密，无法读取');
      if (!KNOWN_METHODS.has(entry.compressionMethod)) throw malformed();
      if (entry.fileName.endsWith('/')) {
        if (entry.uncompressedSize !== 0) throw malformed();
        continue;
      }
      // Declared sizes over the cap are refused without inflating anything.
      if (entry.uncompressedSize > limits.maxEntryBytes || total + entry.uncompressedSize > limits.maxTotalBytes) throw tooLarge();
      total = await countInflated(zip, entry, limits, total, onData);
    }
    return { entries: names.length, totalBytes: total, names };
  } catch (err) {
    if (err instanceof ZipRejectedError) throw err;
    // yauzl's own size check fired first: the entry inflates to more than its header declared.
    if (err instanceof Error && /too many bytes in the stream/.test(err.message)) throw tooLarge();
    throw malformed();
  } finally {
    zip.close();
  }
}

/** Inflates one entry, counting bytes; stops the moment a cap is crossed, whatever the header claimed. */
async function countInflated(zip: yauzl.ZipFile, entry: yauzl.Entry, limits: ZipLimits, totalBefore: number, onData?: (entry: string, chunk: Buffer) => void): Promise<number> {
  const stream = await zip.openReadStreamPromise(entry);
  let entryBytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      entryBytes += chunk.length;
      if (entryBytes > limits.maxEntryBytes || totalBefore + entryBytes > limits.maxTotalBytes) throw tooLarge();
      onData?.(entry.fileName, chunk);
    }
  } finally {
    stream.destroy();
  }
  return totalBefore + entryBytes;
}
