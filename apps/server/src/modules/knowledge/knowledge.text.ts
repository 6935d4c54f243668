import { knowledgeLimits } from '@inkstone/shared';
import { jieba as seg } from '../../integrations/llm/chinese-text.js';
// linkedom and Readability (~20 MB resident) are loaded on the first web page or Word file read, not at start-up.
import type { parseHTML as ParseHtml } from 'linkedom';
import { docxHtmlIsolated, pdfPagesIsolated, QUOTE_PARSE_LIMITS, type ParseLimits } from '../../security/isolated-parse.js';

/**
 * Text of library documents, cut into passages, and the words the full-text index stores. Pure functions: the
 * service decides what is stored and how progress is reported.
 */

/** One page of extracted text (page = null for documents without pages). */
export interface PageText {
  page: number | null;
  text: string;
}

export interface Chunk {
  seq: number;
  page: number | null;
  charStart: number;
  charEnd: number;
  heading: string | null;
  text: string;
}

/** Passage size in characters: a chunk closes at a paragraph end once it has MIN, and never grows past MAX. */
export const CHUNK_MIN = 300;
export const CHUNK_MAX = 600;
/** Trailing sentences (up to this many characters) repeated at the start of the next chunk. */
export const CHUNK_OVERLAP = 100;

/** PDF pages read at most; more is refused before any page is read. */
export const PDF_MAX_PAGES = 1000;

/** Characters of text a document may hold; past this the parse stops and the document is refused. */
export const TEXT_MAX_CHARS = knowledgeLimits.textMaxChars;

/**
 * Bounds of the pdf/docx parse process: the quote files' heap cap, with a longer deadline because a library file may
 * be a whole book (up to 20 MB, 1000 pages) where a quote file is a few pages. The deadline counts parser time only,
 * not the time spent storing pages. `maxChars` refuses a document whose text passes TEXT_MAX_CHARS.
 */
export const KNOWLEDGE_PARSE_LIMITS: ParseLimits = { ...QUOTE_PARSE_LIMITS, maxPages: PDF_MAX_PAGES, timeoutMs: 60_000, maxChars: TEXT_MAX_CHARS };

const WORDY = /[\p{L}\p{N}]/u;

/** Words stored for a passage: jieba's search cut (long words and their parts), lower-case, punctuation dropped. */
export function indexTokens(text: string): string {
  return seg()
    .cutForSearch(text, false)
    .map((w) => w.trim().toLowerCase())
    .filter((w) => WORDY.test(w))
    .join(' ');
}

/** Words of a query: jieba's ordinary cut, so each word is one the passage's search cut also produced. */
export function queryTokens(q: string): string[] {
  return [
    ...new Set(
      seg()
        .cut(q, false)
        .map((w) => w.trim().toLowerCase())
        .filter((w) => WORDY.test(w)),
    ),
  ].slice(0, 32);
}

/** [start, end) ranges of `tokens` in `text`, merged; matching ignores case. */
export function highlightRanges(text: string, tokens: string[]): Array<[number, number]> {
  const lower = text.toLowerCase();
  const ranges: Array<[number, number]> = [];
  for (const t of tokens) {
    if (!t) continue;
    for (let i = lower.indexOf(t); i !== -1 && ranges.length < 500; i = lower.indexOf(t, i + t.length)) ranges.push([i, i + t.length]);
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

const HEADING = /^(#{1,6}\s+\S|第[一二三四五六七八九十百千\d]+[章节篇部回]|[一二三四五六七八九十]+、\S)/;
/** A sentence ends after Chinese or Western terminal punctuation, with closing quotes and brackets kept. */
const SENTENCE = /[^。！？!?；;…\n]*(?:[。！？!?；;…]+[”’"」』）)]*|$)/g;

/**
 * Cuts pages into passages of CHUNK_MIN..CHUNK_MAX characters on sentence boundaries. Headings (markdown `#`,
 * 第X章, 一、) start a new passage and label the following ones; a passage never spans two pages, so its page
 * number is exact. Offsets are into the pages joined by one line break.
 */
export function chunkPages(pages: PageText[], startSeq = 0, baseOffset = 0, heading: { current: string | null } = { current: null }): { chunks: Chunk[]; nextOffset: number } {
  const chunks: Chunk[] = [];
  let seq = startSeq;
  let offset = baseOffset;
  for (const { page, text } of pages) {
    let cur: Array<[number, number]> = [];
    const flush = (carry: boolean) => {
      if (!cur.length) return;
      const start = cur[0]![0];
      const end = cur[cur.length - 1]![1];
      const body = text.slice(start - offset, end - offset);
      if (body.trim()) chunks.push({ seq: seq++, page, charStart: start, charEnd: end, heading: heading.current, text: body });
      let kept: Array<[number, number]> = [];
      if (carry) {
        let len = 0;
        for (let i = cur.length - 1; i > 0; i--) {
          len += cur[i]![1] - cur[i]![0];
          if (len > CHUNK_OVERLAP) break;
          kept = [cur[i]!, ...kept];
        }
      }
      cur = kept;
    };
    let lineStart = 0;
    for (const line of text.split('\n')) {
      const lineOffset = offset + lineStart;
      lineStart += line.length + 1;
      const trimmed = line.trim();
      if (!trimmed) continue;
      if (trimmed.length <= 60 && HEADING.test(trimmed)) {
        flush(false);
        heading.current = trimmed.replace(/^#{1,6}\s+/, '').slice(0, 100);
        const lead = line.indexOf(trimmed);
        cur.push([lineOffset + lead, lineOffset + lead + trimmed.length]);
        continue;
      }
      for (const m of line.matchAll(SENTENCE)) {
        if (!m[0].trim()) continue;
        let s = lineOffset + m.index;
        const e = s + m[0].length;
        // An over-long sentence (a table row, a run-on line) is cut into pieces of CHUNK_MAX.
        while (s < e) {
          const pe = Math.min(e, s + CHUNK_MAX);
          const curLen = cur.length ? cur[cur.length - 1]![1] - cur[0]![0] : 0;
          if (curLen > 0 && curLen + (pe - s) > CHUNK_MAX) flush(true);
          cur.push([s, pe]);
          s = pe;
        }
      }
      const len = cur.length ? cur[cur.length - 1]![1] - cur[0]![0] : 0;
      if (len >= CHUNK_MIN) flush(true);
    }
    flush(false);
    offset += text.length + 1;
  }
  return { chunks, nextOffset: offset };
}

/** Normalises extracted text: line breaks, runs of blank lines and spaces. */
export function tidy(text: string): string {
  // NUL bytes cannot be stored in PostgreSQL text.
  return text
    .replace(/\r\n?/g, '\n')
    .replaceAll('\u0000', '')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Text of a PDF page by page, read in a bounded child process (see security/isolated-parse.ts). Pages are handed to
 * `onPage` one at a time and the next is read only after it settles, so a 500-page PDF never has more than one
 * page's text in memory. Refusals (deadline, heap, page count) throw ParseRefusedError.
 */
export function pdfPages(buf: Uint8Array, onPage: (p: PageText, total: number) => Promise<void>, limits: ParseLimits = KNOWLEDGE_PARSE_LIMITS): Promise<number> {
  return pdfPagesIsolated(buf, limits, (page, text, total) => onPage({ page, text: tidy(text) }, total));
}

/** A document the parser refuses; the message is Chinese and fit to show. */
export class TextRefusedError extends Error {}

const BLOCKS = 'h1,h2,h3,h4,h5,h6,p,li,pre,blockquote,td,th,dt,dd';

/** Block text of an HTML fragment, headings as markdown `#` lines so the chunker sees them. */
function htmlBlocks(parseHTML: typeof ParseHtml, html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const out: string[] = [];
  for (const el of document.querySelectorAll(BLOCKS)) {
    // A <p> inside an <li> is read once, with its block.
    if (el.parentElement?.closest(BLOCKS)) continue;
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const h = /^H([1-6])$/.exec(el.tagName);
    out.push(h ? `${'#'.repeat(Number(h[1]))} ${text}` : text);
  }
  return out.length ? out.join('\n') : (document.body?.textContent ?? '');
}

/** Main text of a web page (Readability on linkedom; scripts are never run), with its title. */
export async function htmlMainText(html: string): Promise<{ title: string | null; text: string }> {
  const [{ parseHTML }, { Readability }] = await Promise.all([import('linkedom'), import('@mozilla/readability')]);
  const { document } = parseHTML(html);
  const title = (document.querySelector('title')?.textContent ?? '').trim() || null;
  let article: { title?: string | null; content?: string | null; textContent?: string | null } | null;
  try {
    article = new Readability(document as unknown as Document, { charThreshold: 100 }).parse();
  } catch {
    article = null;
  }
  const text = article?.content ? htmlBlocks(parseHTML, article.content) : htmlBlocks(parseHTML, parseHTML(html).document.body?.innerHTML ?? '');
  return { title: (article?.title ?? '').trim() || title, text: tidy(text) };
}

/**
 * docx through mammoth's HTML (headings kept as h1..h6, converted in a bounded child process), then the same block walk.
 * Count the file's text first (DocxTextCounter, over the zip guard's inflate): mammoth builds the whole document.
 */
export async function docxText(buf: Buffer, limits: ParseLimits = KNOWLEDGE_PARSE_LIMITS): Promise<string> {
  const [{ parseHTML }, html] = await Promise.all([import('linkedom'), docxHtmlIsolated(buf, limits)]);
  return tidy(htmlBlocks(parseHTML, html));
}

/** Characters (code points) of UTF-8 bytes, counted without decoding them. */
export function utf8Chars(buf: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < buf.length; i++) if ((buf[i]! & 0xc0) !== 0x80) n++;
  return n;
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const AMP = 0x26;
const SEMI = 0x3b;
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
/** `w:t`, `t`, `x:t` (any prefix): WordprocessingML's text run (and DrawingML's / OMML's, counted too). */
const isTextTag = (name: string) => name === 't' || name.endsWith(':t');

/**
 * Counts the text of a docx from its XML as the zip guard inflates it (fed chunk by chunk, nothing kept), so a
 * document whose text passes the cap is refused before mammoth builds it, and the quota can count what it will
 * store. Text is what the text elements (`<w:t>`, under any prefix, in every part: the main part may have any name)
 * hold; an entity counts as one character. Everything inside such an element up to its closing tag counts (a
 * CDATA section too), so hiding text costs more count, never less. A small state machine over the bytes, carried
 * across chunks.
 */
export class DocxTextCounter {
  /** Characters (code points) of text. */
  chars = 0;
  /** UTF-8 bytes of that text. */
  bytes = 0;
  private entry = '';
  private state: 'out' | 'name' | 'tag' | 'text' | 'entity' | 'close' = 'out';
  private name = '';
  private slash = false;
  private entityLen = 0;

  feed(entry: string, chunk: Uint8Array): void {
    if (entry !== this.entry) {
      this.entry = entry;
      this.state = 'out';
    }
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      switch (this.state) {
        case 'out': {
          const next = chunk.indexOf(LT, i);
          if (next === -1) {
            i = chunk.length;
            break;
          }
          i = next;
          this.state = 'name';
          this.name = '';
          break;
        }
        case 'name':
          if (isSpace(b) || b === GT || b === SLASH) {
            // An opening tag (not a closing one, a comment or a declaration) named like a text element.
            const opens = this.name !== '' && isTextTag(this.name);
            if (b === GT) this.state = opens ? 'text' : 'out';
            else {
              this.state = 'tag';
              this.slash = b === SLASH && this.name !== '';
              if (!opens) this.name = '';
            }
          } else if (this.name.length < 64) this.name += String.fromCharCode(b);
          else this.state = 'tag';
          break;
        case 'tag':
          if (b === GT) this.state = this.name !== '' && isTextTag(this.name) && !this.slash ? 'text' : 'out';
          else this.slash = b === SLASH;
          break;
        case 'text':
          if (b === LT) {
            this.state = 'close';
            this.name = '';
          } else if (b === AMP) {
            this.chars++;
            this.bytes++;
            this.state = 'entity';
            this.entityLen = 0;
          } else {
            this.bytes++;
            if ((b & 0xc0) !== 0x80) this.chars++;
          }
          break;
        case 'entity':
          if (b === SEMI || ++this.entityLen > 12) this.state = 'text';
          break;
        case 'close':
          // `</w:t>` ends the text; any other `<` inside it (CDATA, a stray tag) goes on counting as text.
          if (this.name === '' && b !== SLASH) {
            this.state = 'text';
            i--;
          } else if (this.name === '') this.name = '/';
          else if (b === GT || isSpace(b)) {
            if (isTextTag(this.name.slice(1))) this.state = b === GT ? 'out' : 'tag';
            else this.state = 'text';
            this.name = '';
            this.slash = false;
          } else if (this.name.length < 64) this.name += String.fromCharCode(b);
          else this.state = 'text';
          break;
      }
    }
  }
}
