import { afterAll, beforeAll, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { Document, Packer, Paragraph } from 'docx';
import { ErrorCode, TOKEN_NAME, type Envelope, type QuoteFile } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { buildZip, type ZipEntryInput } from '../../test/zip-writer.js';

const MiB = 1024 * 1024;
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The entries of a real docx, in order, so the rebuilt file is still recognised as a docx by its bytes. */
async function docxEntries(text: string): Promise<Array<{ name: string; data: Buffer }>> {
  const docx = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph(text)] }] }));
  const zip = await yauzl.fromBufferPromise(docx, { lazyEntries: true });
  const out: Array<{ name: string; data: Buffer }> = [];
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const c of await zip.openReadStreamPromise(entry)) chunks.push(c as Buffer);
    out.push({ name: entry.fileName, data: Buffer.concat(chunks) });
  }
  zip.close();
  return out;
}

/** A docx whose word/document.xml inflates to `size` bytes of valid-looking paragraphs. */
async function docxBomb(size: number, opts: { lie?: boolean } = {}): Promise<Buffer> {
  const chunk = Buffer.from('<w:p><w:r><w:t>砚台</w:t></w:r></w:p>'.repeat(4000));
  const entries: ZipEntryInput[] = (await docxEntries('x')).map((e) =>
    e.name === 'word/document.xml' ? { name: e.name, repeat: { chunk, size }, declaredSize: opts.lie ? 4096 : undefined } : e,
  );
  return buildZip(entries);
}

/** A PDF of `pages` empty pages that all share one content stream (tiny file, many pages). */
function pdfPages(pages: number): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 4} 0 R`).join(' ');
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`, '<< /Length 0 >>\nstream\n\nendstream'];
  for (let i = 0; i < pages; i++) objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>');
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Highest RSS seen while `fn` runs, minus RSS just before. */
async function peakRssGrowth<T>(fn: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - before };
  } finally {
    clearInterval(timer);
  }
}

describeOnDatabases('hostile quoted files on %s', (dbKind) => {
  let t: TestApp;
  let token: string;

  const upload = async (bytes: Buffer, name: string, type: string) => {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const res = await fetch(`${t.url}/api/writing/file/upload`, { method: 'POST', headers: { [TOKEN_NAME]: token }, body: fd });
    return (await res.json()) as Envelope<QuoteFile>;
  };
  const quoteCount = async () => (await t.call<QuoteFile[]>('GET', '/writing/file/list', { token })).data.length;

  beforeAll(async () => {
    t = await startTestApp({ db: dbKind, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    token = (await loginByPhone(t)).tokenValue;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a 200 MiB docx bomb is refused before mammoth sees it, with little memory', async () => {
    const bomb = await docxBomb(200 * MiB);
    expect(bomb.length).toBeLessThan(2 * MiB);
    // Warm the route so the measurement is of the bomb, not of first-use module loading.
    expect((await upload(await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('预热')] }] })), '预热.docx', DOCX_MIME)).code).toBe(0);
    const before = await quoteCount();
    const { result, growth } = await peakRssGrowth(() => upload(bomb, '炸弹.docx', DOCX_MIME));
    expect(result).toMatchObject({ code: ErrorCode.FILE_TOO_LARGE, msg: '文件解压后过大，已拒绝' });
    expect(growth).toBeLessThan(64 * MiB);
    expect(await quoteCount()).toBe(before);
  });

  it('a bomb whose zip headers understate the size is refused by counting what inflates', async () => {
    const { result, growth } = await peakRssGrowth(async () => upload(await docxBomb(200 * MiB, { lie: true }), '说谎的炸弹.docx', DOCX_MIME));
    expect(result).toMatchObject({ code: ErrorCode.FILE_TOO_LARGE, msg: '文件解压后过大，已拒绝' });
    expect(growth).toBeLessThan(64 * MiB);
  });

  it('too many entries and encrypted entries are refused with a clear message', async () => {
    const entries = await docxEntries('x');
    const many = await buildZip([...entries, ...Array.from({ length: 2001 }, (_, i) => ({ name: `word/media/x${i}.xml`, data: Buffer.from('<x/>') }))]);
    const tooMany = await upload(many, '条目太多.docx', DOCX_MIME);
    expect(tooMany.code).toBe(ErrorCode.FILE_TOO_LARGE);
    expect(tooMany.msg).toContain('条目超过2000个');

    const locked = await buildZip(entries.map((e) => (e.name === 'word/document.xml' ? { ...e, encrypted: true } : e)));
    expect(await upload(locked, '加密.docx', DOCX_MIME)).toMatchObject({ code: ErrorCode.FILE_READ_FAILED, msg: '文件已加密，无法读取' });
  });

  it('a normal docx rebuilt by the same writer still parses (the guard refuses bombs, not docx files)', async () => {
    const ok = await upload(await buildZip(await docxEntries('重建的正常文档')), '正常.docx', DOCX_MIME);
    expect(ok.code, ok.msg).toBe(0);
    expect(ok.data.preview).toContain('重建的正常文档');
  });

  it('a small docx that keeps the parser busy for minutes is cut off at the deadline; the server stays responsive', async () => {
    // 1 MiB of paragraphs with no root element: xmldom (inside mammoth) spends minutes on it in-thread.
    const slow = await docxBomb(1 * MiB);
    const started = Date.now();
    const pending = upload(slow, '慢文档.docx', DOCX_MIME);
    // While it parses, other requests are answered at once: the parser is not on the server's thread.
    await new Promise((r) => setTimeout(r, 1000));
    const ping = Date.now();
    expect((await t.call('GET', '/writing/file/list', { token })).code).toBe(0);
    expect(Date.now() - ping).toBeLessThan(1500);
    const res = await pending;
    expect(res).toMatchObject({ code: ErrorCode.FILE_READ_FAILED, msg: '文件解析超时，请精简或拆分后上传' });
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('a PDF over the page cap is refused without reading its pages', async () => {
    const big = await upload(pdfPages(1001), '很多页.pdf', 'application/pdf');
    expect(big.code).toBe(ErrorCode.FILE_TOO_LARGE);
    expect(big.msg).toBe('PDF 超过1000页，请拆分后上传');
  });
});
