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
const { kind, mode, bytes, maxChars, maxPages, modules } = workerData;
const buffer = () => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
async function docx() {
  const mammoth = require(modules.mammoth);
  // html mode keeps headings (h1..h6) for the knowledge chunker; text mode is the quote files' raw text.
  if (mode === 'html') return { html: (await mammoth.convertToHtml({ buffer: buffer() })).value };
  return { text: (await mammoth.extractRawText({ buffer: buffer() })).value.slice(0, maxChars) };
}
const pageText = async (doc, n) => {
  const page = await doc.getPage(n);
  const content = await page.getTextContent();
  const text = content.items.map((it) => ('str' in it ? it.str + (it.hasEOL ? '\\n' : '') : '')).join('');
  page.cleanup();
  return text;
};
async function pdf() {
  const { getDocumentProxy } = require(modules.unpdf);
  const doc = await getDocumentProxy(bytes, { isEvalSupported: false, disableFontFace: true, enableXfa: false, maxImageSize: 0, verbosity: 0 });
  if (doc.numPages > maxPages) return { pages: doc.numPages };
  if (mode === 'pages') {
    // One page at a time, each waiting for the parent's go-ahead: the parent stores a page before the next is read,
    // so neither side ever holds more than one page's text.
    for (let n = 1; n <= doc.numPages; n++) {
      const text = await pageText(doc, n);
      await new Promise((resolve) => {
        parentPort.once('message', resolve);
        parentPort.postMessage({ page: n, total: doc.numPages, text });
      });
    }
    await doc.destroy();
    return { done: doc.numPages };
  }
  const pages = [];
  let chars = 0;
  for (let n = 1; n <= doc.numPages && chars < maxChars; n++) {
    const text = await pageText(doc, n);
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

type WorkerMessage = { text?: string; html?: string; page?: number; total?: number; done?: number; pages?: number; error?: string };

interface Run<T> {
  resolve(v: T): void;
  reject(err: unknown): void;
  /** Sends the worker its go-ahead (pages mode). */
  post(v: unknown): void;
  /** The deadline counts parse time only: it is stopped while the parent handles a page, then resumed. */
  pauseDeadline(): void;
  resumeDeadline(): void;
}

/**
 * One bounded worker: heap cap, deadline, terminated as soon as it is settled. Refusals (too many pages, parser
 * errors) are answered here; every other message goes to `onMessage`.
 */
function runWorker<T>(
  data: { kind: 'docx' | 'pdf'; mode: 'text' | 'html' | 'pages'; bytes: Buffer; maxChars?: number },
  limits: Omit<ParseLimits, 'maxChars'>,
  onMessage: (m: WorkerMessage, run: Run<T>) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { kind: data.kind, mode: data.mode, bytes: new Uint8Array(data.bytes), maxChars: data.maxChars, maxPages: limits.maxPages, modules: MODULES },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 32 },
    });
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let budget = limits.timeoutMs;
    let startedAt = 0;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      // The result is settled already; a worker that fails to stop is gone with its thread either way.
      worker.terminate().catch(() => undefined);
    };
    const startDeadline = () => {
      startedAt = Date.now();
      timer = setTimeout(() => finish(() => reject(new ParseRefusedError('timeout', '文件解析超时，请精简或拆分后上传'))), Math.max(0, budget));
    };
    const run: Run<T> = {
      resolve: (v) => finish(() => resolve(v)),
      reject: (err) => finish(() => reject(err)),
      post: (v) => {
        if (!settled) worker.postMessage(v);
      },
      pauseDeadline: () => {
        clearTimeout(timer);
        budget -= Date.now() - startedAt;
      },
      resumeDeadline: () => {
        if (!settled) startDeadline();
      },
    };
    startDeadline();
    worker.on('message', (m: WorkerMessage) => {
      if (typeof m.pages === 'number') finish(() => reject(new ParseRefusedError('too_many_pages', `PDF 超过${limits.maxPages}页，请拆分后上传`)));
      else if (typeof m.error === 'string') finish(() => reject(new ParseRefusedError('unreadable', m.error!)));
      else onMessage(m, run);
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish(() => reject(oom ? new ParseRefusedError('out_of_memory', '文件内容过于复杂，无法读取') : new ParseRefusedError('unreadable', err.message)));
    });
    worker.on('exit', () => finish(() => reject(new ParseRefusedError('unreadable', 'parser worker exited'))));
  });
}

/** Text of a docx or pdf, parsed in a bounded worker. Parser failures come back as `unreadable` with its message. */
export function parseDocumentIsolated(kind: 'docx' | 'pdf', bytes: Buffer, limits: ParseLimits): Promise<string> {
  return runWorker<string>({ kind, mode: 'text', bytes, maxChars: limits.maxChars }, limits, (m, run) => {
    if (typeof m.text === 'string') run.resolve(m.text);
    else run.reject(new ParseRefusedError('unreadable', 'unexpected parser reply'));
  });
}

/** A docx as mammoth's HTML (headings as h1..h6), converted in a bounded worker. */
export function docxHtmlIsolated(bytes: Buffer, limits: Omit<ParseLimits, 'maxChars'>): Promise<string> {
  return runWorker<string>({ kind: 'docx', mode: 'html', bytes }, limits, (m, run) => {
    if (typeof m.html === 'string') run.resolve(m.html);
    else run.reject(new ParseRefusedError('unreadable', 'unexpected parser reply'));
  });
}

/**
 * A PDF's text page by page, read in a bounded worker. Each page is handed to `onPage` (1-based page number, page
 * count) and the next is read only once it has settled; time spent in `onPage` does not count against the deadline.
 * An `onPage` failure stops the worker and is rethrown as is. Resolves to the page count.
 */
export function pdfPagesIsolated(
  bytes: Buffer | Uint8Array,
  limits: Omit<ParseLimits, 'maxChars'>,
  onPage: (page: number, text: string, total: number) => Promise<void>,
): Promise<number> {
  return runWorker<number>({ kind: 'pdf', mode: 'pages', bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }, limits, (m, run) => {
    if (typeof m.done === 'number') return run.resolve(m.done);
    if (typeof m.page !== 'number' || typeof m.text !== 'string') return run.reject(new ParseRefusedError('unreadable', 'unexpected parser reply'));
    run.pauseDeadline();
    onPage(m.page, m.text, m.total ?? m.page).then(
      () => {
        run.resumeDeadline();
        run.post('next');
      },
      (err: unknown) => run.reject(err),
    );
  });
}
