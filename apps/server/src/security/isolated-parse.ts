import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * Document parsers (mammoth for docx, pdf.js through unpdf for pdf) run in a child process with a heap cap and a
 * deadline. In the server a crafted file can pin a core for minutes (xmldom on malformed XML, pdf.js on hostile
 * object graphs) or grow the heap by hundreds of MB; the child is killed at the deadline and dies alone when it
 * runs out of heap, and the server answers a clear error instead.
 *
 * A process, not a worker thread: a worker's `resourceLimits` do not hold against one large allocation (pdf.js
 * lexing a 10-million-character string from a 150 KB PDF): V8 then aborts the whole process, server included
 * (nodejs/node#47224). A child's memory is not the server's either, so a parse never shows in the server's RSS.
 *
 * Text is bounded too: a 150 KB PDF can hold 40 MB of text on one page (a repeated line deflates ~300:1). pdf.js's
 * text is read in the batches it produces (streamTextContent), counted as it comes, and the read stops one batch
 * past `maxChars`, so such a page is never built up whole, neither in the child nor in the server.
 */
export interface ParseLimits {
  /**
   * Characters of text. Quote files (parseDocumentIsolated) keep the first `maxChars`; the knowledge parse
   * (pdfPagesIsolated, docxHtmlIsolated) refuses a document with more (`too_much_text`).
   */
  maxChars: number;
  /** PDF pages; more is refused before any page is read. */
  maxPages: number;
  timeoutMs: number;
  /** The parse process's old-generation heap (--max-old-space-size). */
  maxHeapMb: number;
}

export const QUOTE_PARSE_LIMITS: Omit<ParseLimits, 'maxChars'> = { maxPages: 1000, timeoutMs: 20_000, maxHeapMb: 256 };

export type ParseRefusal = 'too_many_pages' | 'too_much_text' | 'timeout' | 'out_of_memory' | 'unreadable';

export class ParseRefusedError extends Error {
  constructor(
    readonly reason: ParseRefusal,
    message: string,
    /** too_much_text: characters the parser had read when it stopped (the cap plus at most one batch). */
    readonly seen?: number,
  ) {
    super(message);
    this.name = 'ParseRefusedError';
  }
}

/** 3000000 -> "300万", 25000 -> "2.5万", 800 -> "800". */
const wan = (n: number) => (n >= 10_000 ? `${+(n / 10_000).toFixed(1)}万` : String(n));

/** The refusal of a document with more than `maxChars` characters of text. */
export const tooMuchTextMessage = (maxChars: number) => `文档文字过多（超过${wan(maxChars)}字），请拆分后上传`;

const require = createRequire(import.meta.url);
/** Absolute paths, so the child finds the same packages whatever the process's working directory. */
const MODULES = { mammoth: require.resolve('mammoth'), unpdf: require.resolve('unpdf') };

// Plain CommonJS run by the child (node -e, no TypeScript there). It gets its job as the first IPC message and
// answers over IPC; it exits when the server goes away. pdf.js: eval off (font programs never compiled to code),
// no font faces, no XFA, no image decoding; pages read one by one until enough text is collected.
const WORKER_SOURCE = `
process.on('disconnect', () => process.exit(0));
const send = (m) => process.send(m);
process.once('message', (job) => {
const { kind, mode, maxChars, maxPages, modules } = job;
const bytes = new Uint8Array(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
const buffer = () => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
// Characters a reader sees in mammoth's HTML: markup skipped, an entity counted once. No copy is made.
const visibleChars = (html) => {
  let n = 0;
  for (let i = 0; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (c === 60) {
      const end = html.indexOf('>', i);
      if (end === -1) break;
      i = end;
    } else {
      if (c === 38) {
        const semi = html.indexOf(';', i);
        if (semi !== -1 && semi - i <= 12) i = semi;
      }
      n++;
    }
  }
  return n;
};
async function docx() {
  const mammoth = require(modules.mammoth);
  // html mode keeps headings (h1..h6) for the knowledge chunker; text mode is the quote files' raw text.
  if (mode === 'html') {
    // The parent counted the text in the XML before starting us; this catches what that count cannot see (a main
    // part under another name, text mammoth builds otherwise) before the HTML is copied to the parent.
    const html = (await mammoth.convertToHtml({ buffer: buffer() })).value;
    const chars = visibleChars(html);
    return chars > maxChars ? { tooMuch: chars } : { html };
  }
  return { text: (await mammoth.extractRawText({ buffer: buffer() })).value.slice(0, maxChars) };
}
// One page's text, read in the batches pdf.js produces (up to ~100 items each) and counted as it comes: once more
// than budget characters are read the page is cancelled, so a page holding megabytes of text is never built whole.
const pageText = async (doc, n, budget) => {
  const page = await doc.getPage(n);
  const reader = page.streamTextContent().getReader();
  const parts = [];
  let chars = 0;
  let over = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      let s = '';
      for (const it of value.items) if ('str' in it) s += it.str + (it.hasEOL ? '\\n' : '');
      parts.push(s);
      chars += s.length;
      if (chars > budget) {
        over = true;
        reader.cancel().catch(() => undefined);
        break;
      }
    }
  } finally {
    page.cleanup();
  }
  return { text: parts.join(''), chars, over };
};
async function pdf() {
  const { getDocumentProxy } = require(modules.unpdf);
  const doc = await getDocumentProxy(bytes, { isEvalSupported: false, disableFontFace: true, enableXfa: false, maxImageSize: 0, verbosity: 0 });
  if (doc.numPages > maxPages) return { pages: doc.numPages };
  let chars = 0;
  if (mode === 'pages') {
    // One page at a time, each waiting for the parent's go-ahead: the parent stores a page before the next is read,
    // so neither side ever holds more than one page's text. A running total over the pages refuses the document
    // as soon as it passes maxChars (the parent then terminates us; nothing past the cap is ever sent).
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await pageText(doc, n, maxChars - chars);
      chars += page.chars;
      if (page.over) return { tooMuch: chars };
      await new Promise((resolve) => {
        process.once('message', resolve);
        send({ page: n, total: doc.numPages, text: page.text });
      });
    }
    await doc.destroy();
    return { done: doc.numPages };
  }
  const pages = [];
  for (let n = 1; n <= doc.numPages && chars < maxChars; n++) {
    const page = await pageText(doc, n, maxChars - chars);
    pages.push(page.text);
    chars += page.chars;
  }
  await doc.destroy();
  // The layout unpdf's extractText(mergePages) gives.
  return { text: pages.join('\\n').replace(/[^\\S\\n]+/g, ' ').replace(/ ?\\n ?/g, '\\n').slice(0, maxChars) };
}
(kind === 'docx' ? docx() : pdf()).then(
  (r) => send(r),
  (e) => send({ error: String((e && e.message) || e).slice(0, 300) }),
);
});
`;

type WorkerMessage = { text?: string; html?: string; page?: number; total?: number; done?: number; pages?: number; tooMuch?: number; error?: string };

interface Run<T> {
  resolve(v: T): void;
  reject(err: unknown): void;
  /** Sends the child its go-ahead (pages mode). */
  post(v: unknown): void;
  /** The deadline counts parse time only: it is stopped while the parent handles a page, then resumed. */
  pauseDeadline(): void;
  resumeDeadline(): void;
}

/** What V8 prints when a heap cap is reached (the child then aborts). */
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/i;

/**
 * One bounded parse process: heap cap, deadline, killed as soon as it is settled. It gets an empty environment (no
 * secrets reach a process that parses hostile files) and the job as its first message. Refusals (too many pages,
 * too much text, parser errors, death by heap) are answered here; every other message goes to `onMessage`.
 */
function runWorker<T>(
  data: { kind: 'docx' | 'pdf'; mode: 'text' | 'html' | 'pages'; bytes: Buffer },
  limits: ParseLimits,
  onMessage: (m: WorkerMessage, run: Run<T>) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${limits.maxHeapMb}`, '--max-semi-space-size=16', '-e', WORKER_SOURCE], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // Structured clone over the channel: the file's bytes travel as bytes, not as JSON.
      serialization: 'advanced',
      env: {},
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (c: string) => {
      stderr = (stderr + c).slice(-4096);
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
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const send = (v: unknown) => {
      if (!settled && child.connected) child.send(v as object, (err) => err && finish(() => reject(new ParseRefusedError('unreadable', err.message))));
    };
    const startDeadline = () => {
      startedAt = Date.now();
      timer = setTimeout(() => finish(() => reject(new ParseRefusedError('timeout', '文件解析超时，请精简或拆分后上传'))), Math.max(0, budget));
    };
    const run: Run<T> = {
      resolve: (v) => finish(() => resolve(v)),
      reject: (err) => finish(() => reject(err)),
      post: send,
      pauseDeadline: () => {
        clearTimeout(timer);
        budget -= Date.now() - startedAt;
      },
      resumeDeadline: () => {
        if (!settled) startDeadline();
      },
    };
    startDeadline();
    child.on('message', (m: WorkerMessage) => {
      if (typeof m.pages === 'number') finish(() => reject(new ParseRefusedError('too_many_pages', `PDF 超过${limits.maxPages}页，请拆分后上传`)));
      else if (typeof m.tooMuch === 'number') finish(() => reject(new ParseRefusedError('too_much_text', tooMuchTextMessage(limits.maxChars), m.tooMuch)));
      else if (typeof m.error === 'string') finish(() => reject(new ParseRefusedError('unreadable', m.error!)));
      else onMessage(m, run);
    });
    child.on('error', (err) => finish(() => reject(new ParseRefusedError('unreadable', err.message))));
    child.on('exit', (code, signal) => {
      // V8 aborts (SIGABRT, or 134 through a shell) when the heap cap is reached; stderr says so. Wait for stderr's end.
      const decide = () =>
        finish(() =>
          reject(
            signal === 'SIGABRT' || code === 134 || OUT_OF_MEMORY.test(stderr)
              ? new ParseRefusedError('out_of_memory', '文件内容过于复杂，无法读取')
              : new ParseRefusedError('unreadable', `parser exited (${signal ?? code})`),
          ),
        );
      if (settled || !child.stderr || child.stderr.readableEnded) decide();
      else child.stderr.once('end', decide);
    });
    send({
      kind: data.kind,
      mode: data.mode,
      bytes: new Uint8Array(data.bytes.buffer, data.bytes.byteOffset, data.bytes.byteLength),
      maxChars: limits.maxChars,
      maxPages: limits.maxPages,
      modules: MODULES,
    });
  });
}

/** Text of a docx or pdf, parsed in a bounded child process. Parser failures come back as `unreadable` with its message. */
export function parseDocumentIsolated(kind: 'docx' | 'pdf', bytes: Buffer, limits: ParseLimits): Promise<string> {
  return runWorker<string>({ kind, mode: 'text', bytes }, limits, (m, run) => {
    if (typeof m.text === 'string') run.resolve(m.text);
    else run.reject(new ParseRefusedError('unreadable', 'unexpected parser reply'));
  });
}

/**
 * A docx as mammoth's HTML (headings as h1..h6), converted in a bounded child process. HTML whose text passes
 * `limits.maxChars` is refused in the child (`too_much_text`), never copied here. The caller is expected to have
 * counted the XML's text first (docxTextCounter in knowledge.text.ts), so mammoth rarely sees such a file at all.
 */
export function docxHtmlIsolated(bytes: Buffer, limits: ParseLimits): Promise<string> {
  return runWorker<string>({ kind: 'docx', mode: 'html', bytes }, limits, (m, run) => {
    if (typeof m.html === 'string') run.resolve(m.html);
    else run.reject(new ParseRefusedError('unreadable', 'unexpected parser reply'));
  });
}

/**
 * A PDF's text page by page, read in a bounded child process. Each page is handed to `onPage` (1-based page number, page
 * count) and the next is read only once it has settled; time spent in `onPage` does not count against the deadline.
 * An `onPage` failure stops the child and is rethrown as is. Resolves to the page count. Once the pages' text
 * passes `limits.maxChars` the read stops (within one batch of pdf.js's text) and the document is refused
 * (`too_much_text`); the page that passed it is never handed over.
 */
export function pdfPagesIsolated(bytes: Buffer | Uint8Array, limits: ParseLimits, onPage: (page: number, text: string, total: number) => Promise<void>): Promise<number> {
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
