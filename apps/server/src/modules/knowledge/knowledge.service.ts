import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import {
  ErrorCode,
  knowledgeLimits,
  type KnowledgeDoc,
  type KnowledgeDocText,
  type KnowledgeExt,
  type KnowledgeFolder,
  type KnowledgeQuota,
  type KnowledgeSearchResult,
  type KnowledgeStatus,
} from '@inkstone/shared';
import type { Clock } from '../../clock.js';
import { AppError, appError } from '../../http/errors.js';
import { FetchRefusedError, type SafeFetcher } from '../../integrations/fetch/types.js';
import type { Storage } from '../../integrations/storage/types.js';
import { NoEmbeddings } from '../../integrations/embeddings/none.js';
import { EMBED_BATCH, type EmbeddingsProvider } from '../../integrations/embeddings/types.js';
import type { JobQueue } from '../../jobs/types.js';
import { ParseRefusedError, tooMuchTextMessage, type ParseLimits } from '../../security/isolated-parse.js';
import { inspectZip, OFFICE_ZIP_LIMITS, ZipRejectedError } from '../../security/zip-guard.js';
import { consume, detectKind, type UploadPart } from '../files/files.service.js';
import type { DocFilter, DocRow, KnowledgeRepo, SearchRow, VectorStorage } from './knowledge.repo.js';
import { reciprocalRankFusion, VectorCache } from './knowledge.vectors.js';
import {
  chunkPages,
  DocxTextCounter,
  docxText,
  highlightRanges,
  htmlMainText,
  indexTokens,
  KNOWLEDGE_PARSE_LIMITS,
  pdfPages,
  queryTokens,
  TextRefusedError,
  tidy,
  utf8Chars,
  type PageText,
} from './knowledge.text.js';

export const PARSE_JOB = 'knowledge.parse';
/** Embeds ready documents that have no vectors from the configured model (after a model change, or a failed embed). */
export const REEMBED_JOB = 'knowledge.reembed';
/** How often the re-embed sweep runs besides start-up. */
export const REEMBED_EVERY_MS = 10 * 60_000;
/** Candidates each list contributes to the fusion (the full-text top and the nearest vectors). */
const FUSE_CANDIDATES = 50;
/** Passages read per round while embedding one document. */
const EMBED_PAGE = 100;
/** Parse runs a document may start before it is failed (a file that kills its worker is not retried forever). */
const MAX_RUNS = 3;
/** A parsing document whose heartbeat is older than this is taken to be orphaned by a stopped worker. */
export const PARSE_STALE_MS = 2 * 60_000;
/** Characters the readable view returns at most. */
const TEXT_VIEW_MAX = 2_000_000;
/** Characters of a non-PDF document chunked and tokenised between two yields to the event loop. */
const TEXT_SLICE = 20_000;

export interface KnowledgeQuotas {
  docs: number;
  bytes: number;
  vipDocs: number;
  vipBytes: number;
}

/** KNOWLEDGE_QUOTA = "docs,MB,vipDocs,vipMB"; empty = the shared defaults. */
export function parseQuotas(raw: string | undefined): KnowledgeQuotas {
  const d = knowledgeLimits.quota;
  if (!raw?.trim()) return { ...d };
  const [docs, mb, vipDocs, vipMb] = raw.split(',').map((s) => Number(s.trim()));
  const MiB = 1024 * 1024;
  return { docs: docs!, bytes: mb! * MiB, vipDocs: vipDocs!, vipBytes: vipMb! * MiB };
}

/** Declared extension -> what the bytes must be (detectKind's answer). */
const EXPECTED: Record<string, string> = { pdf: 'pdf', docx: 'docx', md: 'text', markdown: 'text', txt: 'text', html: 'text', htm: 'text' };
const EXT_OF: Record<string, KnowledgeExt> = { pdf: 'pdf', docx: 'docx', md: 'md', markdown: 'md', txt: 'txt', html: 'html', htm: 'html' };
/** Declared mime -> what the bytes must be; vague mimes declare nothing. */
const MIME_KIND: Record<string, string> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/plain': 'text',
  'text/markdown': 'text',
  'text/x-markdown': 'text',
  'text/html': 'text',
};
const VAGUE = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const HEAD_BYTES = 4100;
const MIME_OF: Record<KnowledgeExt, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  html: 'text/plain; charset=utf-8',
};

const unsupported = () => appError(ErrorCode.FILE_TYPE_UNSUPPORTED, '请上传pdf、docx、md、txt、html格式的文件');
const notFound = () => appError(ErrorCode.NOT_FOUND, '文档不存在');
const folderNotFound = () => appError(ErrorCode.NOT_FOUND, '文件夹不存在');
const fmtMb = (b: number) => (b >= 1024 ** 3 ? `${+(b / 1024 ** 3).toFixed(1)}GB` : `${Math.round(b / 1024 / 1024)}MB`);

export class KnowledgeService {
  /**
   * Bounds of the parse (tests narrow them to reach the deadline without a slow file): the pdf/docx parse process's, and
   * `maxChars`, the text one document may hold, for every kind (pdf, docx, txt/md, web pages).
   */
  parseLimits: ParseLimits = { ...KNOWLEDGE_PARSE_LIMITS };

  constructor(
    private readonly repo: KnowledgeRepo,
    private readonly storage: Storage,
    private readonly fetcher: SafeFetcher,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly quotas: KnowledgeQuotas,
    private readonly embeddings: EmbeddingsProvider = new NoEmbeddings(),
    private readonly vectorCache = new VectorCache(),
  ) {}

  /** Where vectors live, decided once (lazily: nothing is touched while embeddings are off). */
  private vectorStore: Promise<{ storage: VectorStorage; reason: string | null }> | null = null;
  private vectors(): Promise<{ storage: VectorStorage; reason: string | null }> {
    this.vectorStore ??= this.repo.prepareVectors().then((v) => {
      if (v.storage === 'real[]') this.log.warn({ reason: v.reason }, 'pgvector unavailable: knowledge vectors stored as real[] and ranked by cosine in the server');
      return v;
    });
    // A failed preparation (database down at start-up) is tried again next time.
    this.vectorStore.catch(() => (this.vectorStore = null));
    return this.vectorStore;
  }

  // ---- folders ----
  async folders(userId: number): Promise<KnowledgeFolder[]> {
    return (await this.repo.folders(userId)).map((f) => ({ id: f.id, name: f.name, docCount: Number(f.docCount), createdAt: f.createdAt.toISOString() }));
  }

  async createFolder(userId: number, name: string): Promise<KnowledgeFolder> {
    if ((await this.repo.folderCount(userId)) >= knowledgeLimits.foldersMax) throw appError(ErrorCode.KNOWLEDGE_QUOTA_EXCEEDED, `最多创建${knowledgeLimits.foldersMax}个文件夹`);
    const row = await this.repo.createFolder(userId, name);
    if (!row) throw appError(ErrorCode.CONFLICT, '已有同名文件夹');
    return { id: row.id, name: row.name, docCount: 0, createdAt: row.createdAt.toISOString() };
  }

  async renameFolder(userId: number, id: number, name: string): Promise<void> {
    const same = await this.repo.folderByName(userId, name);
    if (same && same.id !== id) throw appError(ErrorCode.CONFLICT, '已有同名文件夹');
    try {
      if (!(await this.repo.renameFolder(userId, id, name))) throw folderNotFound();
    } catch (err) {
      if (err instanceof AppError) throw err;
      // Two renames racing to one name: the unique index refuses the second.
      if (/unique|duplicate/i.test(String((err as { cause?: unknown }).cause ?? err))) throw appError(ErrorCode.CONFLICT, '已有同名文件夹');
      throw err;
    }
  }

  async deleteFolder(userId: number, id: number): Promise<void> {
    if (!(await this.repo.deleteFolder(userId, id))) throw folderNotFound();
  }

  private async requireFolder(userId: number, folderId: number | null | undefined): Promise<number | null> {
    if (folderId === null || folderId === undefined) return null;
    if (!(await this.repo.folder(userId, folderId))) throw folderNotFound();
    return folderId;
  }

  // ---- quotas ----
  async quota(userId: number): Promise<KnowledgeQuota> {
    const isVip = await this.repo.isVip(userId, this.clock.now());
    const used = await this.repo.usage(userId);
    return { isVip, ...used, maxDocs: isVip ? this.quotas.vipDocs : this.quotas.docs, maxBytes: isVip ? this.quotas.vipBytes : this.quotas.bytes };
  }

  /**
   * Refuses early (before a body is read or fetched) when one more document counting `bytes` would pass the count or
   * the space allowed (`expanded`: those bytes are its text, larger than its file). Only a courtesy: the binding
   * check is the one insertDocWithinQuota makes with the insert, and the parse's as the passages are stored.
   */
  private async checkQuota(userId: number, bytes: number, expanded = false): Promise<void> {
    const q = await this.quota(userId);
    if (q.docs + 1 > q.maxDocs) throw quotaError(q, 'docs');
    if (q.bytes + bytes > q.maxBytes) throw expanded ? expansionError(q) : quotaError(q, 'bytes');
  }

  private tooMuchText(): AppError {
    return appError(ErrorCode.FILE_TOO_LARGE, tooMuchTextMessage(this.parseLimits.maxChars));
  }

  // ---- documents ----
  toDoc(r: DocRow): KnowledgeDoc {
    return {
      id: r.id,
      folderId: r.folderId,
      name: r.name,
      ext: r.ext as KnowledgeExt,
      sourceUrl: r.sourceUrl,
      size: r.size,
      status: r.status,
      progress: r.progress,
      pages: r.pages,
      chars: r.chars,
      chunkCount: r.chunkCount,
      errorMsg: r.errorMsg,
      createdAt: r.createdAt.toISOString(),
      parsedAt: r.parsedAt?.toISOString() ?? null,
    };
  }

  async list(userId: number, f: DocFilter, pageNum: number, pageSize: number) {
    const { rows, total } = await this.repo.docs(userId, f, pageNum, pageSize);
    return { records: rows.map((r) => this.toDoc(r)), total, pageNum, pageSize };
  }

  async info(userId: number, id: number): Promise<KnowledgeDoc> {
    const row = await this.repo.doc(userId, id);
    if (!row) throw notFound();
    return this.toDoc(row);
  }

  async rename(userId: number, id: number, name: string): Promise<KnowledgeDoc> {
    const row = await this.repo.updateDoc(userId, id, { name });
    if (!row) throw notFound();
    return this.toDoc(row);
  }

  async move(userId: number, id: number, folderId: number | null): Promise<KnowledgeDoc> {
    const folder = await this.requireFolder(userId, folderId);
    const row = await this.repo.updateDoc(userId, id, { folderId: folder });
    if (!row) throw notFound();
    return this.toDoc(row);
  }

  /** The row (and with it every chunk), then the stored file. A parse still running notices and stops. */
  async delete(userId: number, id: number): Promise<void> {
    const row = await this.repo.deleteDoc(userId, id);
    if (!row) throw notFound();
    await this.storage.delete(row.storageKey).catch((err: unknown) => this.log.warn({ err }, 'stored knowledge file could not be removed'));
  }

  /**
   * The readable view of a parsed document: passages laid back at their offsets (overlaps written once, the line
   * breaks between pages restored), capped so a huge document does not become one huge reply.
   */
  async text(userId: number, id: number): Promise<KnowledgeDocText> {
    const row = await this.repo.doc(userId, id);
    if (!row) throw notFound();
    let text = '';
    let truncated = false;
    const pageStarts: Array<[number, number]> = [];
    for (const c of await this.repo.chunks(row.id)) {
      if (c.page !== null && pageStarts[pageStarts.length - 1]?.[0] !== c.page) pageStarts.push([c.page, Math.max(text.length, c.charStart)]);
      if (c.charEnd <= text.length) continue;
      if (c.charStart > text.length) text += '\n'.repeat(Math.min(2, c.charStart - text.length)).padEnd(c.charStart - text.length, ' ');
      text += c.text.slice(text.length - c.charStart);
      if (text.length > TEXT_VIEW_MAX) {
        text = text.slice(0, TEXT_VIEW_MAX);
        truncated = true;
        break;
      }
    }
    return { doc: this.toDoc(row), text, pageStarts, truncated };
  }

  /** The stored original, for the document viewer. */
  async file(userId: number, id: number) {
    const row = await this.repo.doc(userId, id);
    if (!row) throw notFound();
    return { stream: this.storage.read(row.storageKey), mime: MIME_OF[row.ext as KnowledgeExt] ?? 'application/octet-stream', name: row.name, size: row.size };
  }

  /**
   * Upload: the declared extension must be one of ours, the first bytes must agree with it (and with the declared
   * mime type), the size is capped while streaming, and a docx passes the zip guard before it is accepted.
   */
  async upload(userId: number, part: UploadPart, folderId: number | undefined): Promise<KnowledgeDoc> {
    const folder = await this.requireFolder(userId, folderId);
    const declared = path.extname(part.filename).slice(1).toLowerCase();
    const expected = EXPECTED[declared];
    if (!expected) throw unsupported();
    const mime = part.mimetype.toLowerCase().split(';')[0]!.trim();
    const mimeKind = VAGUE.has(mime) ? null : (MIME_KIND[mime] ?? `other:${mime}`);
    // Count first: a full library refuses before the body is read.
    await this.checkQuota(userId, 0);
    const check = async (head: Buffer, complete: boolean) => {
      const kind = await detectKind(head, complete);
      // A docx is a zip: from its head alone file-type may only say "zip"; the whole file is checked below.
      if (kind === 'zip' && expected === 'docx' && !complete) return;
      if (kind !== expected || (mimeKind !== null && mimeKind !== expected)) throw appError(ErrorCode.FILE_TYPE_MISMATCH);
    };
    // The shared upload reader: head checked before anything is kept, size capped on every chunk, empty refused.
    const chunks: Buffer[] = [];
    await consume(part, knowledgeLimits.fileMaxBytes, check, async (c) => {
      chunks.push(c);
    });
    const buf = Buffer.concat(chunks);
    // The whole file must agree too (a text file must be valid UTF-8 to its end).
    await check(buf, true);
    const ext = EXT_OF[declared]!;
    // Text past the cap is refused now where it can be counted without parsing: a docx's in its XML (on the zip
    // guard's inflate), a txt/md file's in its bytes. A PDF's (and a page's) is counted by the parse.
    let textBytes = 0;
    if (expected === 'docx') {
      const text = await this.guardZip(buf);
      if (text.chars > this.parseLimits.maxChars) throw this.tooMuchText();
      textBytes = text.bytes;
    } else if ((ext === 'txt' || ext === 'md') && utf8Chars(buf) > this.parseLimits.maxChars) throw this.tooMuchText();
    // A docx whose text is larger than its file counts its text from the start.
    await this.checkQuota(userId, Math.max(buf.length, textBytes), textBytes > buf.length);
    const name = part.filename.slice(0, knowledgeLimits.docNameMaxLength) || `文档.${ext}`;
    return this.store(userId, { folderId: folder, name, ext, sourceUrl: null }, buf, textBytes);
  }

  /** Web page import: fetched through the SSRF-safe client, stored as html, parsed by Readability in the job. */
  async importUrl(userId: number, url: string, folderId: number | null | undefined): Promise<KnowledgeDoc> {
    const folder = await this.requireFolder(userId, folderId);
    await this.checkQuota(userId, 0);
    let body: Buffer;
    let finalUrl: string;
    try {
      const res = await this.fetcher.get(url, {
        maxBytes: knowledgeLimits.pageMaxBytes,
        timeoutMs: 15_000,
        headers: { accept: 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.5' },
      });
      if (res.contentType && !/^(text\/html|application\/xhtml\+xml|text\/plain)$/.test(res.contentType))
        throw appError(ErrorCode.FILE_TYPE_UNSUPPORTED, '该地址不是网页，无法导入');
      body = res.body;
      finalUrl = res.url;
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof FetchRefusedError) throw appError(ErrorCode.OPERATION_FAILED, `网页导入失败：${err.message}`);
      throw err;
    }
    if (!body.length || (await detectKind(body.subarray(0, HEAD_BYTES), body.length <= HEAD_BYTES)) !== 'text')
      throw appError(ErrorCode.FILE_TYPE_UNSUPPORTED, '该地址不是网页，无法导入');
    await this.checkQuota(userId, body.length);
    const host = new URL(finalUrl).hostname;
    return this.store(userId, { folderId: folder, name: host.slice(0, knowledgeLimits.docNameMaxLength), ext: 'html', sourceUrl: finalUrl.slice(0, 2000) }, body);
  }

  /** The zip guard, counting the docx's text on the same inflate. */
  private async guardZip(buf: Buffer): Promise<DocxTextCounter> {
    const text = new DocxTextCounter();
    try {
      await inspectZip(buf, OFFICE_ZIP_LIMITS, (entry, chunk) => text.feed(entry, chunk));
      return text;
    } catch (err) {
      if (!(err instanceof ZipRejectedError)) throw err;
      throw appError(err.reason === 'too_large' || err.reason === 'too_many_entries' ? ErrorCode.FILE_TOO_LARGE : ErrorCode.FILE_READ_FAILED, err.message);
    }
  }

  /** `storedBytes`: the passages' size as estimated before parsing (a docx's text), counted until the parse sets it. */
  private async store(
    userId: number,
    meta: { folderId: number | null; name: string; ext: KnowledgeExt; sourceUrl: string | null },
    buf: Buffer,
    storedBytes = 0,
  ): Promise<KnowledgeDoc> {
    const key = `private/knowledge/${userId}/${randomUUID()}.${meta.ext}`;
    const writer = await this.storage.writer(key);
    try {
      await writer.write(buf);
      await writer.commit();
    } catch (err) {
      await writer.abort();
      this.log.error({ err }, 'knowledge file could not be stored');
      throw appError(ErrorCode.UPLOAD_FAILED, '上传失败');
    }
    const isVip = await this.repo.isVip(userId, this.clock.now());
    const limits = { maxDocs: isVip ? this.quotas.vipDocs : this.quotas.docs, maxBytes: isVip ? this.quotas.vipBytes : this.quotas.bytes };
    const res = await this.repo.insertDocWithinQuota({ userId, ...meta, size: buf.length, storedBytes, storageKey: key }, limits);
    if ('over' in res) {
      await this.storage.delete(key).catch((err: unknown) => this.log.warn({ err }, 'refused knowledge file could not be removed'));
      const q = { isVip, ...res.used, ...limits };
      throw res.over === 'bytes' && storedBytes > buf.length ? expansionError(q) : quotaError(q, res.over);
    }
    const row = res.row;
    await this.jobs.enqueue(PARSE_JOB, { docId: row.id }, { jobId: `doc-${row.id}` });
    return this.toDoc(row);
  }

  // ---- the parse job ----
  private async readStored(key: string): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const c of this.storage.read(key) as AsyncIterable<Buffer>) parts.push(c);
    return Buffer.concat(parts);
  }

  /**
   * Extracts text (pdf page by page), cuts it into passages with their page and offsets, stores them with their
   * jieba tokens, and reports progress on the document row. Chunks of an interrupted earlier run are dropped first.
   *
   * Bounded by what is stored: text past `parseLimits.maxChars` stops the parse (the pdf parse process counts as it reads),
   * and each batch of passages (and of vectors) is counted against the owner's storage quota before it is stored,
   * the document counting the larger of its file and its passages. Either refusal fails the document with its
   * message and removes what was stored of it.
   */
  async parse(docId: number): Promise<void> {
    const now = () => this.clock.now();
    const pre = await this.repo.docById(docId);
    if (!pre) return;
    if (pre.runs >= MAX_RUNS && pre.status !== 'queued') {
      await this.repo.failStale(docId, '文档解析多次中断，请重新上传');
      return;
    }
    const doc = await this.repo.startParse(docId, now());
    if (!doc) return;
    let seq = 0;
    let chars = 0;
    const heading = { current: null as string | null };
    let offset = 0;
    // The owner's space: what the other documents count now, and the limit of the owner's plan.
    const isVip = await this.repo.isVip(doc.userId, now());
    const room = { isVip, bytes: (await this.repo.usage(doc.userId, docId)).bytes, maxBytes: isVip ? this.quotas.vipBytes : this.quotas.bytes };
    let stored = 0;
    /**
     * Counts `more` bytes of passages (or vectors) about to be stored; throws the quota refusal when they do not fit.
     * Only what passes the file's own size can refuse: the file was counted when it was accepted.
     */
    const take = (more: number) => {
      if (stored + more > doc.size && room.bytes + stored + more > room.maxBytes) throw expansionError(room);
      stored += more;
    };
    const add = async (pages: PageText[]) => {
      const { chunks, nextOffset } = chunkPages(pages, seq, offset, heading);
      offset = nextOffset;
      seq += chunks.length;
      chars += pages.reduce((n, p) => n + p.text.length, 0);
      take(chunks.reduce((n, c) => n + Buffer.byteLength(c.text), 0));
      await this.repo.insertChunks(
        docId,
        doc.userId,
        chunks.map((c) => ({ ...c, tokens: indexTokens(c.heading && !c.text.includes(c.heading) ? `${c.heading}\n${c.text}` : c.text) })),
      );
    };
    try {
      const buf = await this.readStored(doc.storageKey);
      let pages: number | null = null;
      if (doc.ext === 'pdf') {
        let lastReported = 0;
        pages = await pdfPages(
          buf,
          async (p, total) => {
            await add([p]);
            const pct = Math.min(99, Math.floor(((p.page ?? 0) / total) * 100));
            if (pct - lastReported >= 2 || p.page === 1) {
              lastReported = pct;
              if (!(await this.repo.progress(docId, pct, now(), p.page === 1 ? { pages: total } : {}, stored))) throw new DocGone();
            }
          },
          this.parseLimits,
        );
      } else await this.parseText(doc, buf, add, () => stored);
      if (!chars || !seq) throw new TextRefusedError('文档中没有可读取的文字');
      const embeddingModel = await this.embedParsed(docId, async (vectorBytes) => {
        take(vectorBytes);
        if (!(await this.repo.progress(docId, 99, now(), {}, stored))) throw new DocGone();
      });
      await this.repo.finishParse(docId, { status: 'ready', chars, chunkCount: seq, pages, embeddingModel }, now());
    } catch (err) {
      if (err instanceof DocGone) return;
      // Deadline, heap and page-count refusals of the parse process carry a Chinese message; a parser error does not.
      const known = err instanceof TextRefusedError || err instanceof AppError || (err instanceof ParseRefusedError && err.reason !== 'unreadable');
      const shown = known ? err.message : '文档解析失败，请检查文件是否完整';
      if (!known) this.log.warn({ err: err instanceof Error ? err.message : err, docId }, 'knowledge document could not be parsed');
      // A document deleted mid-run makes chunk inserts fail on the foreign key: nothing to record then.
      await this.repo.finishParse(docId, { status: 'failed', errorMsg: shown }, now()).catch(() => undefined);
    }
  }

  /**
   * Word, web pages and plain text: extracted whole, then indexed in slices with progress. Text past the cap is
   * refused before anything is indexed: a docx's counted in its XML before mammoth runs (and its HTML's in the parse process
   * before it is handed over), a text file's in its bytes, a web page's once extracted (at most 5 MB of page).
   */
  private async parseText(doc: DocRow, buf: Buffer, add: (pages: PageText[]) => Promise<void>, stored: () => number): Promise<void> {
    const docId = doc.id;
    const now = () => this.clock.now();
    const maxChars = this.parseLimits.maxChars;
    let text: string;
    let title: string | null = null;
    if (doc.ext === 'docx') {
      if ((await this.guardZip(buf)).chars > maxChars) throw new TextRefusedError(tooMuchTextMessage(maxChars));
      text = await docxText(buf, this.parseLimits);
    } else if (doc.ext === 'html') {
      const main = await htmlMainText(buf.toString('utf8'));
      text = main.text;
      title = main.title;
    } else {
      if (utf8Chars(buf) > maxChars) throw new TextRefusedError(tooMuchTextMessage(maxChars));
      text = tidy(buf.toString('utf8').replace(/^\ufeff/, ''));
    }
    if (text.length > maxChars) throw new TextRefusedError(tooMuchTextMessage(maxChars));
    // An imported page is named after its title rather than its host.
    const rename = doc.sourceUrl && title ? { name: title.slice(0, knowledgeLimits.docNameMaxLength) } : {};
    if (!(await this.repo.progress(docId, 10, now(), rename))) throw new DocGone();
    // Long texts go in slices cut at line breaks (offsets stay exact: a slice ends where its line break was),
    // with a macrotask turn between slices so jieba never holds the process for a whole document.
    const lines = text.split('\n');
    let slice: string[] = [];
    let sliceLen = 0;
    let done = 0;
    for (let i = 0; i <= lines.length; i++) {
      if (i === lines.length || (sliceLen >= TEXT_SLICE && slice.length)) {
        if (slice.length) await add([{ page: null, text: slice.join('\n') }]);
        done += sliceLen;
        slice = [];
        sliceLen = 0;
        if (i < lines.length && !(await this.repo.progress(docId, Math.min(99, 10 + Math.floor((done / text.length) * 89)), now(), {}, stored()))) throw new DocGone();
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (i < lines.length) {
        slice.push(lines[i]!);
        sliceLen += lines[i]!.length + 1;
      }
    }
  }

  /**
   * Vectors before the document shows as ready, so a hybrid search never sees it half embedded. A vendor failure does not
   * fail the document (full-text works); the re-embed sweep tries again later. Returns the model that embedded it.
   * `beat` gets each batch's vector bytes before they are stored (heartbeat and quota; its refusal fails the document).
   */
  private async embedParsed(docId: number, beat: (vectorBytes: number) => Promise<void>): Promise<string | null> {
    let embeddingModel: string | null = null;
    if (this.embeddings.enabled) {
      try {
        if (await this.embedDoc(docId, beat)) embeddingModel = this.embeddings.modelId;
      } catch (err) {
        if (err instanceof DocGone || err instanceof AppError) throw err;
        this.log.warn({ err: err instanceof Error ? err.message : err, docId }, 'knowledge document could not be embedded; the re-embed sweep will retry');
      }
    }
    return embeddingModel;
  }

  // ---- embeddings ----
  /**
   * Embeds the passages of one document that lack a vector from the configured model, EMBED_BATCH texts per
   * request, storing each batch as it comes (an interrupted run resumes where it stopped). `beat` runs before each
   * batch is stored, with the bytes its vectors take (heartbeat, quota; throws to stop). True when every passage has
   * its vector.
   */
  private async embedDoc(docId: number, beat: (vectorBytes: number) => Promise<void> = async () => {}): Promise<boolean> {
    const model = this.embeddings.modelId;
    if (!model) return false;
    await this.vectors();
    for (;;) {
      const page = await this.repo.chunksToEmbed(docId, model, EMBED_PAGE);
      if (!page.length) return true;
      for (let i = 0; i < page.length; i += EMBED_BATCH) {
        const batch = page.slice(i, i + EMBED_BATCH);
        // The heading travels with its passage, as in the full-text tokens.
        const vectors = await this.embeddings.embed(batch.map((c) => (c.heading && !c.text.includes(c.heading) ? `${c.heading}\n${c.text}` : c.text)));
        // 4 bytes a dimension and a small header, as pgvector (and roughly real[]) store them.
        await beat(vectors.reduce((n, v) => n + 4 * v.length + 8, 0));
        await this.repo.storeEmbeddings(
          batch.map((c, j) => ({ id: c.id, embedding: vectors[j]! })),
          model,
        );
      }
    }
  }

  /**
   * The re-embed sweep: every ready document without vectors from the configured model (all of them after the
   * model changed; single ones whose embedding failed). Stops at the first vendor failure; the next run resumes.
   */
  async reembed(): Promise<number> {
    const model = this.embeddings.modelId;
    if (!this.embeddings.enabled || !model) return 0;
    let done = 0;
    for (;;) {
      const ids = await this.repo.docsToEmbed(model, 20);
      if (!ids.length) return done;
      for (const id of ids) {
        try {
          if (await this.embedDoc(id)) await this.repo.markEmbedded(id, model, this.clock.now());
        } catch (err) {
          this.log.warn({ err: err instanceof Error ? err.message : err, docId: id }, 'knowledge re-embed stopped; the next sweep resumes');
          return done;
        }
        done++;
      }
    }
  }

  /** Queues one sweep now (start-up: a changed model is seen at once); a no-op while embeddings are off. */
  async queueReembed(): Promise<void> {
    if (this.embeddings.enabled) await this.jobs.enqueue(REEMBED_JOB, {}, { jobId: 'knowledge-reembed' });
  }

  /** What search can do for this user: the page says whether vector search is on and where vectors live. */
  async status(userId: number): Promise<KnowledgeStatus> {
    const model = this.embeddings.enabled ? this.embeddings.modelId : null;
    const counts = await this.repo.embeddingCounts(userId, model);
    if (!model) {
      return {
        fulltext: true,
        vector: { enabled: false, model: null, storage: null, fallbackReason: null, readyDocs: counts.docs, embeddedDocs: 0 },
        note: '未配置向量模型（EMBEDDINGS_BASE_URL），向量检索未开启：仅全文检索',
      };
    }
    const v = await this.vectors();
    const pending = counts.docs - counts.embedded;
    const where = v.storage === 'pgvector' ? '向量存于 pgvector' : '数据库未启用 pgvector，向量以 real[] 存储并由服务器按余弦相似度排序';
    return {
      fulltext: true,
      vector: { enabled: true, model, storage: v.storage, fallbackReason: v.reason, readyDocs: counts.docs, embeddedDocs: counts.embedded },
      note: `全文与向量混合检索（${model}；${where}）${pending > 0 ? `，${pending}个文档正在生成向量` : ''}`,
    };
  }

  /** Start-up (worker role): unfinished documents are queued again; the run counter stops endless retries. */
  async recover(): Promise<number> {
    const rows = await this.repo.unfinished(new Date(this.clock.now().getTime() - PARSE_STALE_MS));
    for (const r of rows) await this.jobs.enqueue(PARSE_JOB, { docId: r.id }, { jobId: `doc-${r.id}` });
    return rows.length;
  }

  // ---- writing from knowledge (KnowledgePort of modules/writing) ----
  async checkRefs(userId: number, refs: { docIds: number[]; folderIds: number[]; all: boolean }): Promise<void> {
    const docIds = [...new Set(refs.docIds)];
    const folderIds = [...new Set(refs.folderIds)];
    const owned = await this.repo.ownedCount(userId, docIds, folderIds);
    if (owned.docs !== docIds.length) throw appError(ErrorCode.NOT_FOUND, '引用的知识库文档不存在或已删除');
    if (owned.folders !== folderIds.length) throw appError(ErrorCode.NOT_FOUND, '引用的知识库文件夹不存在或已删除');
  }

  /**
   * Passages for one section of a writing task, as citable sources: the title names the document and page, the
   * link opens the viewer at that page with the passage marked.
   */
  async passages(userId: number, refs: { docIds: number[]; folderIds: number[]; all: boolean }, query: string, limit: number) {
    const f: DocFilter = refs.all ? {} : { quoted: { docIds: refs.docIds, folderIds: refs.folderIds } };
    const { hits } = await this.search(userId, query, f, limit);
    return hits.map((h) => ({
      title: `${h.docName}${h.page ? ` 第${h.page}页` : ''}`,
      url: `/pdfDetail?${new URLSearchParams({ fileId: String(h.docId), ...(h.page ? { page: String(h.page) } : {}), q: h.text.slice(0, 120) }).toString()}`,
      snippet: h.text,
      siteName: '知识库',
    }));
  }

  // ---- search ----
  /**
   * Full-text: every word first; when nothing has them all, any word, ranked. With an embeddings model (and mode
   * auto), the nearest passages by meaning are fused with the full-text ones by reciprocal rank fusion, so a
   * passage that says the same thing in other words is found too. A vendor failure while embedding the query
   * degrades to full-text (mode says which ran). Passages come with the ranges of the query's words.
   */
  async search(userId: number, q: string, f: DocFilter, limit: number, mode: 'auto' | 'fulltext' = 'auto'): Promise<KnowledgeSearchResult> {
    const tokens = queryTokens(q);
    const hybrid = mode === 'auto' && this.embeddings.enabled;
    const n = hybrid ? Math.max(limit, FUSE_CANDIDATES) : limit;
    const [words, meaning] = await Promise.all([this.fulltext(userId, tokens, f, n), hybrid ? this.nearest(userId, q, f, n) : Promise.resolve(null)]);
    let rows = words;
    if (meaning) {
      const byId = new Map([...meaning, ...words].map((r) => [r.chunkId, r]));
      rows = reciprocalRankFusion([words.map((r) => r.chunkId), meaning.map((r) => r.chunkId)])
        .slice(0, limit)
        .map((s) => ({ ...byId.get(s.id)!, score: s.score }));
    }
    return {
      tokens,
      mode: meaning ? 'hybrid' : 'fulltext',
      hits: rows.slice(0, limit).map((r) => ({ ...r, ext: r.ext as KnowledgeExt, highlights: highlightRanges(r.text, tokens) })),
    };
  }

  private async fulltext(userId: number, tokens: string[], f: DocFilter, limit: number): Promise<SearchRow[]> {
    const rows = await this.repo.search(userId, tokens, false, f, limit);
    return rows.length || tokens.length < 2 ? rows : this.repo.search(userId, tokens, true, f, limit);
  }

  /** The passages nearest to `q` by meaning; null when the query could not be embedded (full-text still answers). */
  private async nearest(userId: number, q: string, f: DocFilter, limit: number): Promise<SearchRow[] | null> {
    const model = this.embeddings.modelId!;
    let vector: number[];
    try {
      [vector] = (await this.embeddings.embed([q])) as [number[]];
    } catch (err) {
      this.log.warn({ err: err instanceof Error ? err.message : err }, 'knowledge query could not be embedded: full-text only');
      return null;
    }
    const { storage } = await this.vectors();
    if (storage === 'pgvector') return this.repo.vectorSearch(userId, vector, model, f, limit);
    // PostgreSQL without pgvector: cosine over the user's vectors in memory (VectorCache explains why).
    return this.repo.hitsByIds(userId, await this.vectorCache.nearest(this.repo, userId, model, f, vector, limit));
  }
}

/**
 * The quota message of a document whose text (passages, vectors) would not fit in the space left, though its file
 * would: at upload (a docx's text counted in its XML) or during the parse, as its passages are stored.
 */
function expansionError(q: { isVip: boolean; bytes: number; maxBytes: number }): AppError {
  const vipHint = q.isVip ? '' : '，开通会员可获得更大空间';
  return appError(
    ErrorCode.KNOWLEDGE_QUOTA_EXCEEDED,
    `知识库空间不足：该文档解析出的文字超过剩余空间（已用${fmtMb(q.bytes)}，共${fmtMb(q.maxBytes)}），请删除部分文档或拆分后上传${vipHint}`,
  );
}

/** The quota message for the limit passed; the hint to VIP only for those who are not. */
function quotaError(q: { isVip: boolean; bytes: number; maxDocs: number; maxBytes: number }, over: 'docs' | 'bytes'): AppError {
  const vipHint = q.isVip ? '' : '，开通会员可获得更大空间';
  if (over === 'docs') return appError(ErrorCode.KNOWLEDGE_QUOTA_EXCEEDED, `知识库最多保存${q.maxDocs}个文档，请删除部分文档后再上传${vipHint}`);
  return appError(ErrorCode.KNOWLEDGE_QUOTA_EXCEEDED, `知识库空间已满（已用${fmtMb(q.bytes)}，共${fmtMb(q.maxBytes)}），请删除部分文档后再上传${vipHint}`);
}

/** The document was deleted while its parse ran. */
class DocGone extends Error {}
