import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Document parsers (mammoth for docx, pdf.js through unpdf for pdf) run in a worker thread with a heap cap and a
 * deadline. In the main thread a crafted file can pin a core for minutes (xmldom on malformed XML, pdf.js on
 * hostile object graphs) or grow the heap by hundreds of MB; a worker is terminated at the deadline and dies
 * alone when it runs out of heap, and the server answers a clear error instead.
 */
export interface ParseLimits {
  /** Characters of text returned (the rest is never built up past this). */
  maxChars: number;
  /** PDF pages; more is refused before any page is read. */
  maxPages: number;
  timeoutMs: number;
  /** The worker's old-generation heap. */
  maxHeapMb: number;
}

export const QUOTE_PARSE_LIMITS: Omit<ParseLimits, 'maxChars'> = { maxPages: 1000, timeoutMs: 20_000, maxHeapMb: 256 };

export type ParseRefusal = 'too_many_pages' | 'timeout' | 'out_of_memory' | 'unreadable';

export class ParseRefusedError extends Error {
  constructor(
    readonly reason: ParseRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'ParseRefusedError';
  }
}

const require = createRequire(import.meta.url);
/** Absolute paths, so the worker finds the same packages whatever the process's working directory. */
const MODULES = { mammoth: require.resolve('mammoth'), unpdf: require.resolve('unpdf') };

// Plain CommonJS run by the worker (no TypeScript there). pdf.js: eval off (font programs never compiled to code),
// no font faces, no XFA, no image decoding; pages read one by one until enough text is collected.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { kind, bytes, maxChars, maxPages, modules } = workerData;
async function docx() {
  const mammoth = require(modules.mammoth);
  return { text: (await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value.slice(0, maxChars) };
}
async function pdf() {
  const { getDocumentProxy } = require(modules.unpdf);
  const doc = await getDocumentProxy(bytes, { isEvalSupported: false, disableFontFace: true, enableXfa: false, maxImageSize: 0, verbosity: 0 });
  if (doc.numPages > maxPages) return { pages: doc.numPages };
  const pages = [];
  let chars = 0;
  for (let n = 1; n <= doc.numPages && chars < maxChars; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    const text = content.items.map((it) => ('str' in it ? it.str + (it.hasEOL ? '\\n' : '') : '')).join('');
    page.cleanup();
    pages.push(text);
    chars += text.length;
  }
  await doc.destroy();
  // The layout unpdf's extractText(mergePages) gives.
  return { text: pages.join('\\n').replace(/[^\\S\\n]+/g, ' ').replace(/ ?\\n ?/g, '\\n').slice(0, maxChars) };
}
(kind === 'docx' ? docx() : pdf()).then(
  (r) => parentPort.postMessage(r),
  (e) => parentPort.postMessage({ error: String((e && e.message) || e).slice(0, 300) }),
);
`;

/** Text of a docx or pdf, parsed in a bounded worker. Parser failures come back as `unreadable` with its message. */
export function parseDocumentIsolated(kind: 'docx' | 'pdf', bytes: Buffer, limits: ParseLimits): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { kind, bytes: new Uint8Array(bytes), maxChars: limits.maxChars, maxPages: limits.maxPages, modules: MODULES },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 32 },
    });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => finish(() => reject(new ParseRefusedError('timeout', '文件解析超时，请精简或拆分后上传'))), limits.timeoutMs);
    worker.on('message', (m: { text?: string; pages?: number; error?: string }) => {
      if (typeof m.text === 'string') finish(() => resolve(m.text!));
      else if (typeof m.pages === 'number') finish(() => reject(new ParseRefusedError('too_many_pages', `PDF 超过${limits.maxPages}页，请拆分后上传`)));
      else finish(() => reject(new ParseRefusedError('unreadable', m.error ?? 'unknown parser failure')));
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish(() => reject(oom ? new ParseRefusedError('out_of_memory', '文件内容过于复杂，无法读取') : new ParseRefusedError('unreadable', err.message)));
    });
    worker.on('exit', () => finish(() => reject(new ParseRefusedError('unreadable', 'parser worker exited'))));
  });
}
