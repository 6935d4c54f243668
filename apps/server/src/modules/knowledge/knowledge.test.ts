import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { zipSync } from 'fflate';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import {
  ErrorCode,
  TOKEN_NAME,
  type Envelope,
  type KnowledgeDoc,
  type KnowledgeDocPage,
  type KnowledgeDocText,
  type KnowledgeFolder,
  type KnowledgeQuota,
  type KnowledgeSearchResult,
} from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { knowledgeChunks, knowledgeDocs, users } from '../../db/schema/index.js';
import { chinesePdf } from './pdf-fixture.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Paragraphs long enough to make several passages. */
const filler = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `关于${topic}的第${i + 1}条观察：创作者在写作时需要引用可靠的资料，并且标明出处。`).join('');

/** A web page served on loopback for URL import (the SSRF client lets only this host through). */
async function startPageServer() {
  const server = http.createServer((req, res) => {
    if (req.url === '/article') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><head><title>乡村振兴观察</title><script>window.evil = 1</script></head><body><nav>首页 | 关于我们</nav><article><h1>乡村振兴观察</h1><p>${filler('乡村', 6)}</p><p>数字乡村建设让农产品通过直播电商走向全国市场。</p></article><footer>版权所有</footer></body></html>`,
      );
    } else if (req.url === '/image') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describeOnDatabases('knowledge library on %s', (dbKind) => {
  let t: TestApp;
  let page: Awaited<ReturnType<typeof startPageServer>>;
  beforeAll(async () => {
    page = await startPageServer();
    // Small quotas so the limits are reachable: 4 documents / 1 MB, VIP 6 documents / 2 MB.
    t = await startTestApp({ db: dbKind, env: { SAFE_FETCH_ALLOW_HOSTS: page.host, KNOWLEDGE_QUOTA: '4,1,6,2' } });
  });
  afterAll(async () => {
    await t?.close();
    await page?.close();
  });

  const upload = async (token: string, bytes: Buffer | Uint8Array, name: string, type: string, folderId?: number) => {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const res = await fetch(`${t.url}/api/knowledge/doc/upload${folderId ? `?folderId=${folderId}` : ''}`, { method: 'POST', headers: { [TOKEN_NAME]: token }, body: fd });
    return (await res.json()) as Envelope<KnowledgeDoc>;
  };
  /** Polls the document as the page does, recording the progress seen, until its parse ends. */
  const parsed = async (token: string, id: number) => {
    const seen: number[] = [];
    // Generous: the suite shares two cores with other suites; a parse is waited for, never assumed done.
    for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
      const res = await t.call<KnowledgeDoc>('GET', '/knowledge/doc/info', { token, query: { id } });
      expect(res.code).toBe(0);
      seen.push(res.data.progress);
      if (res.data.status === 'ready' || res.data.status === 'failed') return { doc: res.data, seen };
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('parse did not finish');
  };
  const search = (token: string, q: string, query: Record<string, string | number> = {}) =>
    t.call<KnowledgeSearchResult>('GET', '/knowledge/search', { token, query: { q, ...query } });
  const chunksOf = (docId: number) => t.container.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.docId, docId)).orderBy(knowledgeChunks.seq);

  it('needs a session', async () => {
    expect((await t.call('GET', '/knowledge/folder/list')).code).toBe(ErrorCode.NOT_LOGGED_IN);
    expect((await t.call('GET', '/knowledge/search', { query: { q: '测试' } })).code).toBe(ErrorCode.NOT_LOGGED_IN);
  });

  it('parses a multi-page Chinese PDF per page: chunks keep their page numbers and offsets; search finds a Chinese phrase with its page and highlights', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const pdf = chinesePdf([
      ['第一章 内容创作', filler('内容创作', 3)],
      ['第二章 能源转型', '碳中和目标推动新能源汽车快速发展，动力电池回收成为新的产业机会。', filler('能源', 2)],
      ['第三章 城市更新', '老旧小区改造与城市更新计划同步推进。'],
    ]);
    const up = await upload(token, pdf, '行业报告.pdf', 'application/pdf');
    expect(up.code, up.msg).toBe(0);
    expect(up.data).toMatchObject({ name: '行业报告.pdf', ext: 'pdf', status: 'queued', progress: 0 });
    const { doc, seen } = await parsed(token, up.data.id);
    expect(doc).toMatchObject({ status: 'ready', progress: 100, pages: 3, errorMsg: null });
    expect(doc.chunkCount).toBeGreaterThanOrEqual(3);
    expect(seen[seen.length - 1]).toBe(100);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);

    const chunks = await chunksOf(up.data.id);
    expect(chunks.length).toBe(doc.chunkCount);
    expect(new Set(chunks.map((c) => c.page))).toEqual(new Set([1, 2, 3]));
    const battery = chunks.find((c) => c.text.includes('动力电池回收'))!;
    expect(battery.page).toBe(2);
    expect(battery.heading).toBe('第二章 能源转型');
    expect(battery.charEnd - battery.charStart).toBe(battery.text.length);
    // Offsets run in document order without gaps other than line breaks between pages.
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.charStart).toBeGreaterThan(chunks[i - 1]!.charStart);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(600);

    // The readable view lays passages back at their offsets: each passage is found where it says it is.
    const view = await t.call<KnowledgeDocText>('GET', '/knowledge/doc/text', { token, query: { id: up.data.id } });
    expect(view.code).toBe(0);
    for (const c of chunks) expect(view.data.text.slice(c.charStart, c.charEnd)).toBe(c.text);
    expect(view.data.pageStarts.map(([p]) => p)).toEqual([1, 2, 3]);
    expect(view.data.text.slice(view.data.pageStarts[1]![1])).toMatch(/^第二章 能源转型/);

    const hit = await search(token, '新能源汽车');
    expect(hit.code).toBe(0);
    expect(hit.data.hits[0]).toMatchObject({ docId: up.data.id, docName: '行业报告.pdf', page: 2, ext: 'pdf' });
    const first = hit.data.hits[0]!;
    const marked = first.highlights.map(([s, e]) => first.text.slice(s, e)).join('|');
    expect(marked).toContain('新能源');
    expect(marked).toContain('汽车');
    expect((await search(token, '城市更新')).data.hits[0]).toMatchObject({ page: 3 });
    // Words that occur nowhere find nothing; no error.
    expect((await search(token, '量子纠缠望远镜')).data.hits).toEqual([]);
  });

  it('a 500-page PDF parses page by page: every page numbered, progress reported, heap growth bounded', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const pages = Array.from({ length: 500 }, (_, i) => [`第${i + 1}页 标题`, `这是第${i + 1}页的正文，记录编号${i + 1}的观测数据与结论。`.repeat(3)]);
    const pdf = chinesePdf(pages);
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 20);
    const up = await upload(token, pdf, '五百页.pdf', 'application/pdf');
    expect(up.code, up.msg).toBe(0);
    const { doc, seen } = await parsed(token, up.data.id);
    clearInterval(sampler);
    expect(doc).toMatchObject({ status: 'ready', pages: 500, progress: 100 });
    // Progress moved through intermediate values, not only 0 -> 100.
    expect(new Set(seen.filter((p) => p > 0 && p < 100)).size, JSON.stringify(seen)).toBeGreaterThan(0);
    const chunks = await chunksOf(up.data.id);
    expect(new Set(chunks.map((c) => c.page)).size).toBe(500);
    expect(chunks.find((c) => c.text.includes('记录编号377的'))!.page).toBe(377);
    // One page's text is held at a time: the heap grows by far less than a whole-document parse would need.
    expect(heapPeak - heapBefore).toBeLessThan(300 * 1024 * 1024);
  }, 120_000);

  it('a long text is chunked in slices with exact offsets across slice boundaries', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const lines = Array.from({ length: 3000 }, (_, i) => (i === 2900 ? '银杏叶在深秋变成金黄色。' : `第${i + 1}行：城市公园的晨练人群逐渐增多。`));
    const up = await upload(token, Buffer.from(lines.join('\n')), '长文.txt', 'text/plain');
    expect(up.code, up.msg).toBe(0);
    const { doc } = await parsed(token, up.data.id);
    expect(doc.status).toBe('ready');
    const chunks = await chunksOf(up.data.id);
    const view = await t.call<KnowledgeDocText>('GET', '/knowledge/doc/text', { token, query: { id: up.data.id } });
    for (const c of chunks) expect(view.data.text.slice(c.charStart, c.charEnd)).toBe(c.text);
    const ginkgo = chunks.find((c) => c.text.includes('银杏叶'))!;
    expect(lines.join('\n').slice(ginkgo.charStart, ginkgo.charEnd)).toBe(ginkgo.text);
    expect((await search(token, '银杏叶')).data.hits[0]!.chunkId).toBe(ginkgo.id);
  }, 120_000);

  it('parses docx (headings kept), md, txt and html uploads; filters by type and folder', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const folder = await t.call<KnowledgeFolder>('POST', '/knowledge/folder/create', { token, body: { name: '素材' } });
    expect(folder.code).toBe(0);
    const docx = await Packer.toBuffer(
      new Document({
        sections: [{ children: [new Paragraph({ text: '茶文化简史', heading: HeadingLevel.HEADING_1 }), new Paragraph(`${filler('茶', 3)}普洱茶的发酵工艺决定了它的风味。`)] }],
      }),
    );
    const files: Array<[Buffer, string, string, string]> = [
      [docx, '茶.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', '普洱茶的发酵工艺'],
      [Buffer.from(`# 跑步指南\n\n${filler('跑步', 2)}\n\n## 装备\n\n跑鞋的缓震性能对膝盖保护很重要。`), '跑步.md', 'text/markdown', '跑鞋的缓震性能'],
      [Buffer.from(`\ufeff${filler('咖啡', 2)}手冲咖啡的水温建议在九十度左右。`), '咖啡.txt', 'text/plain', '手冲咖啡的水温'],
      [
        Buffer.from(
          `<html><head><title>摄影</title></head><body><article><h1>摄影技巧</h1><p>${filler('摄影', 3)}</p><p>黄金时刻的侧光让人像更有层次。</p></article></body></html>`,
        ),
        '摄影.html',
        'text/html',
        '黄金时刻的侧光',
      ],
    ];
    const ids: Record<string, number> = {};
    for (const [bytes, name, type, phrase] of files) {
      const up = await upload(token, bytes, name, type, folder.data.id);
      expect(up.code, `${name}: ${up.msg}`).toBe(0);
      expect(up.data.folderId).toBe(folder.data.id);
      const { doc } = await parsed(token, up.data.id);
      expect(doc.status, `${name}: ${doc.errorMsg}`).toBe('ready');
      expect(doc.pages).toBeNull();
      ids[up.data.ext] = up.data.id;
      const res = await search(token, phrase);
      expect(res.data.hits[0], name).toMatchObject({ docId: up.data.id, page: null });
    }
    const docxChunks = await chunksOf(ids.docx!);
    expect(docxChunks[0]!.heading).toBe('茶文化简史');
    const mdChunks = await chunksOf(ids.md!);
    expect(mdChunks.find((c) => c.text.includes('跑鞋'))!.heading).toBe('装备');
    // The html's <title> and markup are not passage text.
    expect((await chunksOf(ids.html!)).every((c) => !c.text.includes('<'))).toBe(true);

    expect((await search(token, '咖啡', { ext: 'md' })).data.hits).toEqual([]);
    expect((await search(token, '咖啡', { ext: 'txt' })).data.hits.length).toBeGreaterThan(0);
    expect((await search(token, '咖啡', { folderId: 'root' })).data.hits).toEqual([]);
    expect((await search(token, '咖啡', { folderId: folder.data.id })).data.hits.length).toBeGreaterThan(0);
    const list = await t.call<KnowledgeDocPage>('GET', '/knowledge/doc/list', { token, query: { folderId: folder.data.id } });
    expect(list.data.total).toBe(4);
    expect((await t.call<KnowledgeDocPage>('GET', '/knowledge/doc/list', { token, query: { ext: 'docx' } })).data.records.map((d) => d.id)).toEqual([ids.docx]);
    const folders = await t.call<KnowledgeFolder[]>('GET', '/knowledge/folder/list', { token });
    expect(folders.data).toEqual([expect.objectContaining({ id: folder.data.id, name: '素材', docCount: 4 })]);
  });

  it('imports a web page by URL through the SSRF-safe client: main text only, named after its title; inner addresses and non-pages refused', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const res = await t.call<KnowledgeDoc>('POST', '/knowledge/doc/import', { token, body: { url: `${page.url}/article` } });
    expect(res.code, res.msg).toBe(0);
    expect(res.data).toMatchObject({ ext: 'html', sourceUrl: `${page.url}/article` });
    const { doc } = await parsed(token, res.data.id);
    expect(doc).toMatchObject({ status: 'ready', name: '乡村振兴观察' });
    const chunks = await chunksOf(doc.id);
    const all = chunks.map((c) => c.text).join('\n');
    expect(all).toContain('直播电商');
    expect(all).not.toContain('版权所有');
    expect(all).not.toContain('evil');
    expect((await search(token, '直播电商')).data.hits[0]).toMatchObject({ docId: doc.id });

    const inner = await t.call('POST', '/knowledge/doc/import', { token, body: { url: 'http://127.0.0.1:9/secret' } });
    expect(inner.code).toBe(ErrorCode.OPERATION_FAILED);
    expect(inner.msg).toMatch(/^网页导入失败/);
    const metadata = await t.call('POST', '/knowledge/doc/import', { token, body: { url: 'http://169.254.169.254/latest/meta-data/' } });
    expect(metadata.code).toBe(ErrorCode.OPERATION_FAILED);
    const image = await t.call('POST', '/knowledge/doc/import', { token, body: { url: `${page.url}/image` } });
    expect(image).toMatchObject({ code: ErrorCode.FILE_TYPE_UNSUPPORTED, msg: '该地址不是网页，无法导入' });
    const bad = await t.call('POST', '/knowledge/doc/import', { token, body: { url: 'ftp://example.com/x' } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toMatch(/url/);
    const q = await t.call<KnowledgeQuota>('GET', '/knowledge/quota', { token });
    expect(q.data.docs).toBe(1);
  });

  it('refuses hostile and mislabelled files with the upload messages, storing nothing', async () => {
    const { tokenValue: token, user } = await loginByPhone(t);
    const cases: Array<[Buffer | Uint8Array, string, string, number, string | RegExp]> = [
      [PNG, 'fake.pdf', 'application/pdf', ErrorCode.FILE_TYPE_MISMATCH, '文件类型不匹配'],
      [PNG, 'pic.png', 'image/png', ErrorCode.FILE_TYPE_UNSUPPORTED, '请上传pdf、docx、md、txt、html格式的文件'],
      [chinesePdf([['你好']]), 'notes.txt', 'text/plain', ErrorCode.FILE_TYPE_MISMATCH, '文件类型不匹配'],
      [Buffer.from('纯文本'), 'a.pdf', 'application/pdf', ErrorCode.FILE_TYPE_MISMATCH, '文件类型不匹配'],
      [Buffer.from('纯文本'), 'a.txt', 'application/pdf', ErrorCode.FILE_TYPE_MISMATCH, '文件类型不匹配'],
      [Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x00]), 'bin.md', 'text/markdown', ErrorCode.FILE_TYPE_MISMATCH, '文件类型不匹配'],
      [Buffer.alloc(0), 'empty.txt', 'text/plain', ErrorCode.FILE_READ_FAILED, '文件为空'],
      // A zip bomb dressed as docx: 40 MB of zeros in one entry inflates past the office limit (32 MB).
      [
        zipSync(
          {
            '[Content_Types].xml': new TextEncoder().encode(
              '<Types><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
            ),
            'word/document.xml': new Uint8Array(40 * 1024 * 1024),
          },
          { level: 9 },
        ),
        'bomb.docx',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        ErrorCode.FILE_TOO_LARGE,
        '文件解压后过大，已拒绝',
      ],
      [Buffer.alloc(21 * 1024 * 1024, 0x61), 'big.txt', 'text/plain', ErrorCode.FILE_TOO_LARGE, '请上传20MB以内的文件'],
    ];
    for (const [bytes, name, type, code, msg] of cases) {
      const res = await upload(token, bytes, name, type);
      expect(res.code, name).toBe(code);
      expect(res.msg, name).toEqual(msg);
    }
    expect(await t.container.db.select().from(knowledgeDocs).where(eq(knowledgeDocs.userId, user.id))).toHaveLength(0);
    // A PDF whose structure is broken is accepted by its magic bytes, then fails to parse with a message.
    const broken = await upload(token, Buffer.from('%PDF-1.4\n垃圾数据 garbage\n%%EOF'), 'broken.pdf', 'application/pdf');
    expect(broken.code).toBe(0);
    const { doc } = await parsed(token, broken.data.id);
    expect(doc.status).toBe('failed');
    expect(doc.errorMsg).toBe('文档解析失败，请检查文件是否完整');
  });

  it('quotas: count and bytes per user with clear messages, larger for VIP', async () => {
    const { tokenValue: token, user } = await loginByPhone(t);
    const small = (i: number) => Buffer.from(`第${i}份笔记。${filler('笔记', 1)}`);
    for (let i = 1; i <= 4; i++) expect((await upload(token, small(i), `n${i}.txt`, 'text/plain')).code).toBe(0);
    const fifth = await upload(token, small(5), 'n5.txt', 'text/plain');
    expect(fifth).toMatchObject({ code: ErrorCode.KNOWLEDGE_QUOTA_EXCEEDED, msg: '知识库最多保存4个文档，请删除部分文档后再上传，开通会员可获得更大空间' });
    expect((await t.call('POST', '/knowledge/doc/import', { token, body: { url: `${page.url}/article` } })).code).toBe(ErrorCode.KNOWLEDGE_QUOTA_EXCEEDED);
    let q = await t.call<KnowledgeQuota>('GET', '/knowledge/quota', { token });
    expect(q.data).toMatchObject({ isVip: false, docs: 4, maxDocs: 4, maxBytes: 1024 * 1024 });

    // VIP: more documents and more space.
    await t.container.db
      .update(users)
      .set({ vipType: 'vip', vipExpiredAt: new Date(Date.now() + 86_400_000) })
      .where(eq(users.id, user.id));
    q = await t.call<KnowledgeQuota>('GET', '/knowledge/quota', { token });
    expect(q.data).toMatchObject({ isVip: true, maxDocs: 6, maxBytes: 2 * 1024 * 1024 });
    expect((await upload(token, small(5), 'n5.txt', 'text/plain')).code).toBe(0);
    // Bytes: 1.5 MB fits under 2 MB once; a second does not.
    const big = Buffer.alloc(1536 * 1024, '字');
    const b1 = await upload(token, big.subarray(0, big.length - (big.length % 3)), 'big1.txt', 'text/plain');
    expect(b1.code, b1.msg).toBe(0);
    const b2 = await upload(token, Buffer.from('再来一份'), 'b2.txt', 'text/plain');
    expect(b2.code).toBe(ErrorCode.KNOWLEDGE_QUOTA_EXCEEDED);
    expect(b2.msg).toMatch(/^知识库最多保存6个文档/);
    await t.call('POST', '/knowledge/doc/delete', { token, body: { id: fifth.data?.id ?? 0 } });
    const list = await t.call<KnowledgeDocPage>('GET', '/knowledge/doc/list', { token });
    await t.call('POST', '/knowledge/doc/delete', { token, body: { id: list.data.records.find((d) => d.name === 'n1.txt')!.id } });
    const b3 = await upload(token, big.subarray(0, big.length - (big.length % 3)), 'big2.txt', 'text/plain');
    expect(b3.code).toBe(ErrorCode.KNOWLEDGE_QUOTA_EXCEEDED);
    expect(b3.msg).toMatch(/^知识库空间已满（已用\dMB，共2MB）/);
    await t.container.jobs.idle();
  });

  it('quota holds under concurrency: with room for 4 documents, 7 simultaneous uploads leave exactly 4 and refuse 3', async () => {
    const { tokenValue: token, user } = await loginByPhone(t);
    const replies = await Promise.all(Array.from({ length: 7 }, (_, i) => upload(token, Buffer.from(`第${i}份并发笔记。${filler('并发', 1)}`), `c${i}.txt`, 'text/plain')));
    expect(replies.filter((r) => r.code === 0)).toHaveLength(4);
    const refused = replies.filter((r) => r.code !== 0);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r).toMatchObject({ code: ErrorCode.KNOWLEDGE_QUOTA_EXCEEDED, msg: '知识库最多保存4个文档，请删除部分文档后再上传，开通会员可获得更大空间' });
    expect(await t.container.db.select().from(knowledgeDocs).where(eq(knowledgeDocs.userId, user.id))).toHaveLength(4);
    await t.container.jobs.idle();
  });

  it('pdf and docx parse in a bounded worker: past its deadline or page cap the document fails with a clear message and the server keeps answering', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const service = t.container.knowledge.service;
    const saved = service.parseLimits;
    const pdf = chinesePdf([
      ['第一页', filler('期限', 3)],
      ['第二页', filler('期限', 3)],
      ['第三页', filler('期限', 3)],
    ]);
    const docx = await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph({ text: '期限', heading: HeadingLevel.HEADING_1 }), new Paragraph(filler('期限', 3))] }] }),
    );
    const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    try {
      // A deadline no parser can meet stands in for a file that would pin a core.
      service.parseLimits = { ...saved, timeoutMs: 1 };
      const slow = [await upload(token, pdf, '超时.pdf', 'application/pdf'), await upload(token, docx, '超时.docx', DOCX)];
      for (const up of slow) {
        expect(up.code, up.msg).toBe(0);
        // Another request is answered while the parse runs and after it is stopped.
        expect((await t.call('GET', '/knowledge/quota', { token })).code).toBe(0);
        const { doc } = await parsed(token, up.data.id);
        expect(doc).toMatchObject({ status: 'failed', errorMsg: '文件解析超时，请精简或拆分后上传', chunkCount: 0 });
        expect(await chunksOf(up.data.id)).toHaveLength(0);
        // Room for the uploads below (the quota is 4 documents).
        expect((await t.call('POST', '/knowledge/doc/delete', { token, body: { id: up.data.id } })).code).toBe(0);
      }
      service.parseLimits = { ...saved, maxPages: 2 };
      const many = await upload(token, pdf, '三页.pdf', 'application/pdf');
      expect((await parsed(token, many.data.id)).doc).toMatchObject({ status: 'failed', errorMsg: 'PDF 超过2页，请拆分后上传' });
    } finally {
      service.parseLimits = saved;
    }
    // The same files parse under the ordinary limits: the failures above came from the limits alone.
    for (const up of [await upload(token, pdf, '正常.pdf', 'application/pdf'), await upload(token, docx, '正常.docx', DOCX)]) {
      expect(up.code, up.msg).toBe(0);
      expect((await parsed(token, up.data.id)).doc.status).toBe('ready');
    }
    expect((await t.call('GET', '/knowledge/quota', { token })).code).toBe(0);
  }, 120_000);

  it("isolates users: another user's ids are not found anywhere, and search never returns them", async () => {
    const a = await loginByPhone(t);
    const b = await loginByPhone(t);
    const folder = await t.call<KnowledgeFolder>('POST', '/knowledge/folder/create', { token: a.tokenValue, body: { name: '私密' } });
    const up = await upload(a.tokenValue, Buffer.from(`机密项目代号青鸟。${filler('机密', 2)}`), 'secret.txt', 'text/plain', folder.data.id);
    await parsed(a.tokenValue, up.data.id);
    const tb = b.tokenValue;
    const notFound = [
      await t.call('GET', '/knowledge/doc/info', { token: tb, query: { id: up.data.id } }),
      await t.call('POST', '/knowledge/doc/rename', { token: tb, body: { id: up.data.id, name: '我的' } }),
      await t.call('POST', '/knowledge/doc/move', { token: tb, body: { id: up.data.id, folderId: null } }),
      await t.call('POST', '/knowledge/doc/delete', { token: tb, body: { id: up.data.id } }),
      await t.call('GET', '/knowledge/doc/file', { token: tb, query: { id: up.data.id } }),
      await t.call('POST', '/knowledge/folder/rename', { token: tb, body: { id: folder.data.id, name: 'x' } }),
      await t.call('POST', '/knowledge/folder/delete', { token: tb, body: { id: folder.data.id } }),
      await upload(tb, Buffer.from('你好'), 'x.txt', 'text/plain', folder.data.id),
    ];
    for (const res of notFound) expect(res.code).toBe(ErrorCode.NOT_FOUND);
    // b's own document may not be moved into a's folder either.
    const own = await upload(tb, Buffer.from('你好世界'), 'mine.txt', 'text/plain');
    expect((await t.call('POST', '/knowledge/doc/move', { token: tb, body: { id: own.data.id, folderId: folder.data.id } })).code).toBe(ErrorCode.NOT_FOUND);
    expect((await search(tb, '青鸟')).data.hits).toEqual([]);
    expect((await search(tb, '青鸟', { docId: up.data.id })).data.hits).toEqual([]);
    expect((await search(a.tokenValue, '青鸟')).data.hits).toHaveLength(1);
    expect((await t.call<KnowledgeDocPage>('GET', '/knowledge/doc/list', { token: tb })).data.records.map((d) => d.id)).toEqual([own.data.id]);
    expect((await t.call<KnowledgeFolder[]>('GET', '/knowledge/folder/list', { token: tb })).data).toEqual([]);
    // The owner can read the stored original.
    const file = await fetch(`${t.url}/api/knowledge/doc/file?id=${up.data.id}`, { headers: { [TOKEN_NAME]: a.tokenValue } });
    expect(file.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await file.text()).toContain('机密项目代号青鸟');
  });

  it('rename, move, folder rules; delete removes the chunks and the stored file; a deleted folder leaves its documents in 未分类', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const f1 = await t.call<KnowledgeFolder>('POST', '/knowledge/folder/create', { token, body: { name: '甲' } });
    const f2 = await t.call<KnowledgeFolder>('POST', '/knowledge/folder/create', { token, body: { name: '乙' } });
    expect((await t.call('POST', '/knowledge/folder/create', { token, body: { name: '甲' } })).code).toBe(ErrorCode.CONFLICT);
    expect((await t.call('POST', '/knowledge/folder/rename', { token, body: { id: f2.data.id, name: '甲' } })).code).toBe(ErrorCode.CONFLICT);
    const empty = await t.call('POST', '/knowledge/folder/create', { token, body: { name: '   ' } });
    expect(empty.code).toBe(ErrorCode.VALIDATION);
    expect(empty.msg).toMatch(/name/);
    expect((await t.call('POST', '/knowledge/folder/rename', { token, body: { id: f2.data.id, name: '丙' } })).code).toBe(0);

    const up = await upload(token, Buffer.from(`湿地保护与候鸟迁徙。${filler('湿地', 2)}`), '湿地.md', 'text/markdown', f1.data.id);
    await parsed(token, up.data.id);
    const renamed = await t.call<KnowledgeDoc>('POST', '/knowledge/doc/rename', { token, body: { id: up.data.id, name: '湿地笔记' } });
    expect(renamed.data.name).toBe('湿地笔记');
    expect((await search(token, '候鸟迁徙')).data.hits[0]!.docName).toBe('湿地笔记');
    const moved = await t.call<KnowledgeDoc>('POST', '/knowledge/doc/move', { token, body: { id: up.data.id, folderId: f2.data.id } });
    expect(moved.data.folderId).toBe(f2.data.id);
    expect((await t.call('POST', '/knowledge/doc/move', { token, body: { id: up.data.id, folderId: 'x' } })).code).toBe(ErrorCode.VALIDATION);
    expect((await t.call('POST', '/knowledge/folder/delete', { token, body: { id: f2.data.id } })).code).toBe(0);
    expect((await t.call<KnowledgeDoc>('GET', '/knowledge/doc/info', { token, query: { id: up.data.id } })).data.folderId).toBeNull();

    const [row] = await t.container.db.select().from(knowledgeDocs).where(eq(knowledgeDocs.id, up.data.id));
    const stored = async () => {
      try {
        for await (const _ of t.container.files.storage.read(row!.storageKey) as AsyncIterable<Buffer>) return true;
        return true;
      } catch {
        return false;
      }
    };
    expect(await stored()).toBe(true);
    expect((await chunksOf(up.data.id)).length).toBeGreaterThan(0);
    expect((await t.call('POST', '/knowledge/doc/delete', { token, body: { id: up.data.id } })).code).toBe(0);
    expect(await chunksOf(up.data.id)).toHaveLength(0);
    expect(await stored()).toBe(false);
    expect((await search(token, '候鸟迁徙')).data.hits).toEqual([]);
    expect((await t.call('POST', '/knowledge/doc/delete', { token, body: { id: up.data.id } })).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('bad queries name the field', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ q: '' }, /q/],
      [{ q: '字'.repeat(101) }, /q.*100/],
      [{ q: '好', ext: 'exe' }, /ext/],
      [{ q: '好', folderId: 'abc' }, /folderId/],
      [{ q: '好', limit: '500' }, /limit/],
    ];
    for (const [query, msg] of cases) {
      const res = await t.call('GET', '/knowledge/search', { token, query });
      expect(res.code, JSON.stringify(query)).toBe(ErrorCode.VALIDATION);
      expect(res.msg).toMatch(msg);
    }
    expect((await t.call('GET', '/knowledge/doc/info', { token, query: { id: 'x' } })).code).toBe(ErrorCode.VALIDATION);
  });
});
