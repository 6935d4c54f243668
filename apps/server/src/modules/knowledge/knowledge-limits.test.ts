import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { Document, Packer, Paragraph } from 'docx';
import { ErrorCode, TOKEN_NAME, type Envelope, type KnowledgeDoc, type KnowledgeQuota } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { knowledgeChunks, knowledgeDocs } from '../../db/schema/index.js';
import { docxHtmlIsolated, ParseRefusedError, pdfPagesIsolated } from '../../security/isolated-parse.js';
import { floodDocx } from './docx-fixture.js';
import { chinesePdf, floodPdf } from './pdf-fixture.js';
import { KNOWLEDGE_PARSE_LIMITS } from './knowledge.text.js';

const MiB = 1024 * 1024;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const LINE = '碳中和目标推动新能源汽车快速发展。';
const CAP = KNOWLEDGE_PARSE_LIMITS.maxChars;
const TOO_MUCH = '文档文字过多（超过300万字），请拆分后上传';

/** Highest RSS of this process (the server runs in it) seen while `fn` runs, minus RSS just before. */
async function peakRssGrowth<T>(fn: () => Promise<T>): Promise<{ result: T; growth: number }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const result = await fn();
    return { result, growth: Math.max(peak, process.memoryUsage().rss) - before };
  } finally {
    clearInterval(timer);
  }
}

describeOnDatabases('knowledge: parse memory bounded by text, quota counted by what is stored, on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    // 1 MB of space (VIP too), so a document that expands past it is cheap to build.
    t = await startTestApp({ db: dbKind, env: { KNOWLEDGE_QUOTA: '20,1,20,1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = async (token: string, bytes: Buffer, name: string, type: string) => {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const res = await fetch(`${t.url}/api/knowledge/doc/upload`, { method: 'POST', headers: { [TOKEN_NAME]: token }, body: fd });
    return (await res.json()) as Envelope<KnowledgeDoc>;
  };
  const parsed = async (token: string, id: number) => {
    for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
      const res = await t.call<KnowledgeDoc>('GET', '/knowledge/doc/info', { token, query: { id } });
      expect(res.code).toBe(0);
      if (res.data.status === 'ready' || res.data.status === 'failed') return res.data;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('parse did not finish');
  };
  const chunkCount = async (docId: number) => (await t.container.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.docId, docId))).length;
  const docsOf = (userId: number) => t.container.db.select().from(knowledgeDocs).where(eq(knowledgeDocs.userId, userId));
  const quota = async (token: string) => (await t.call<KnowledgeQuota>('GET', '/knowledge/quota', { token })).data;

  it('a 150 KB PDF holding 40 MB of text on one page: the read stops one batch past the cap, the document fails with the message, nothing is stored', async () => {
    const pdf = await floodPdf(LINE, 40 * MiB);
    expect(pdf.length).toBeLessThan(200 * 1024);
    // The parse itself: refused once the text read passes the cap, within one batch of pdf.js's text (the page holds
    // ~9.8 million characters); the page that passed it is never handed over.
    const handed: number[] = [];
    const err = await pdfPagesIsolated(pdf, KNOWLEDGE_PARSE_LIMITS, async (page) => void handed.push(page)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseRefusedError);
    expect(err).toMatchObject({ reason: 'too_much_text', message: TOO_MUCH });
    const seen = (err as ParseRefusedError).seen!;
    expect(seen).toBeGreaterThan(CAP);
    expect(seen).toBeLessThan(CAP + 10_000);
    expect(handed).toEqual([]);

    // Through the product: accepted (its text is unknown until parsed), then failed with the message, no passages.
    const { tokenValue: token } = await loginByPhone(t);
    const { result: doc, growth } = await peakRssGrowth(async () => {
      const up = await upload(token, pdf, '洪水.pdf', 'application/pdf');
      expect(up.code, up.msg).toBe(0);
      return parsed(token, up.data.id);
    });
    expect(doc).toMatchObject({ status: 'failed', errorMsg: TOO_MUCH, chunkCount: 0, chars: 0 });
    expect(await chunkCount(doc.id)).toBe(0);
    // The parse runs in its own process: the server's memory hardly moves (it grew ~370 MB when it stored the text).
    expect(growth).toBeLessThan(100 * MiB);
    expect((await quota(token)).bytes).toBe(pdf.length);
  }, 120_000);

  it('pages stored before the cap is passed are removed with the failure: a document is never half stored', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const service = t.container.knowledge.service;
    const saved = service.parseLimits;
    // 20 lines of 34 characters: each line fits the page's width (pdf.js drops text outside the page).
    const page = (n: number) => [`第${n}页`, ...Array.from({ length: 20 }, () => LINE.repeat(2))];
    try {
      // Two pages (~1,400 characters) fit under 2,000; the third passes it.
      service.parseLimits = { ...saved, maxChars: 2000 };
      const up = await upload(token, chinesePdf([page(1), page(2), page(3)]), '三页.pdf', 'application/pdf');
      expect(up.code, up.msg).toBe(0);
      const doc = await parsed(token, up.data.id);
      expect(doc).toMatchObject({ status: 'failed', errorMsg: '文档文字过多（超过2000字），请拆分后上传', chunkCount: 0 });
      expect(await chunkCount(doc.id)).toBe(0);
      // A text file is counted from its bytes and refused at upload.
      const txt = await upload(token, Buffer.from(LINE.repeat(150)), '长.txt', 'text/plain');
      expect(txt).toMatchObject({ code: ErrorCode.FILE_TOO_LARGE, msg: '文档文字过多（超过2000字），请拆分后上传' });
    } finally {
      service.parseLimits = saved;
    }
  }, 60_000);

  it('a docx whose XML holds more text than the cap is refused at upload, before any parser sees it; the parser refuses too', async () => {
    const { tokenValue: token, user } = await loginByPhone(t);
    // ~31 MB of XML, ~10 million characters of text, in a ~115 KB file.
    const docx = await floodDocx(LINE.repeat(60), 31 * MiB);
    expect(docx.length).toBeLessThan(200 * 1024);
    const { result, growth } = await peakRssGrowth(() => upload(token, docx, '洪水.docx', DOCX));
    expect(result).toMatchObject({ code: ErrorCode.FILE_TOO_LARGE, msg: TOO_MUCH });
    expect(growth).toBeLessThan(64 * MiB);
    expect(await docsOf(user.id)).toHaveLength(0);

    // The parse process checks mammoth's HTML too (a main part the XML count missed) and refuses it there, counting
    // its text, before the HTML is handed over.
    const small = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph(LINE.repeat(100))] }] }));
    const err = await docxHtmlIsolated(small, { ...KNOWLEDGE_PARSE_LIMITS, maxChars: 1000 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'too_much_text', message: '文档文字过多（超过1000字），请拆分后上传', seen: 1700 });
  }, 120_000);

  it('a PDF that runs the parser out of heap kills the parse process, not the server: the document fails with a message', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    // One show-text operator holding a 10-million-character string: pdf.js builds it whole. In a worker thread this
    // aborted the whole server (V8's fatal heap limit, nodejs/node#47224).
    const pdf = await floodPdf(LINE, 40 * MiB, { oneString: true });
    const up = await upload(token, pdf, '一串.pdf', 'application/pdf');
    expect(up.code, up.msg).toBe(0);
    const doc = await parsed(token, up.data.id);
    expect(doc).toMatchObject({ status: 'failed', errorMsg: '文件内容过于复杂，无法读取', chunkCount: 0 });
    expect((await t.call('GET', '/knowledge/quota', { token })).code).toBe(0);
  }, 120_000);

  it('the storage quota counts what a document stores: an expanding docx counts its passages; an upload that would pass the quota once expanded is refused, nothing stored', async () => {
    const { tokenValue: token, user } = await loginByPhone(t);
    // ~680 KB of XML: ~200,000 characters (~600 KB) of text in a file of a few KB.
    const docx = await floodDocx(LINE.repeat(10), 680_000);
    expect(docx.length).toBeLessThan(20 * 1024);
    const up = await upload(token, docx, '膨胀.docx', DOCX);
    expect(up.code, up.msg).toBe(0);
    const doc = await parsed(token, up.data.id);
    expect(doc.status, doc.errorMsg ?? '').toBe('ready');
    const [stored] = await t.container.db
      .select({ bytes: sql<string>`sum(octet_length(${knowledgeChunks.text}))` })
      .from(knowledgeChunks)
      .where(eq(knowledgeChunks.docId, doc.id));
    const passages = Number(stored!.bytes);
    expect(passages).toBeGreaterThan(500_000);
    // The figure the user sees is the passages' size, not the file's.
    const q = await quota(token);
    expect(q).toMatchObject({ docs: 1, bytes: passages, maxBytes: MiB });
    expect(q.bytes).toBeGreaterThan(20 * doc.size);

    // The same again would pass 1 MB once expanded: refused at upload (its text counted in its XML), nothing stored.
    const again = await upload(token, docx, '再膨胀.docx', DOCX);
    expect(again.code).toBe(ErrorCode.KNOWLEDGE_QUOTA_EXCEEDED);
    expect(again.msg).toMatch(/^知识库空间不足：该文档解析出的文字超过剩余空间（已用1MB，共1MB），请删除部分文档或拆分后上传/);
    expect(await docsOf(user.id)).toHaveLength(1);

    // A PDF's text is known only once parsed: the small file is accepted, then refused as its passages would pass the
    // space left; none of them stays, and it counts its file alone.
    const pdf = await floodPdf(LINE, 1_000_000);
    const pup = await upload(token, pdf, '膨胀.pdf', 'application/pdf');
    expect(pup.code, pup.msg).toBe(0);
    const pdoc = await parsed(token, pup.data.id);
    expect(pdoc.status).toBe('failed');
    expect(pdoc.errorMsg).toMatch(/^知识库空间不足：/);
    expect(await chunkCount(pdoc.id)).toBe(0);
    expect(await quota(token)).toMatchObject({ docs: 2, bytes: passages + pdf.length });
  }, 120_000);
});
