import http from 'node:http';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { LocalStorage } from '../../integrations/storage/local.js';
import { startS3Standin } from '../../test/standins/s3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Document, Packer, Paragraph } from 'docx';
import { ErrorCode, TOKEN_NAME, type Envelope, type QuoteFile, type TaskInfo } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

/** A minimal valid one-page PDF whose text layer says `text`, with a correct xref table. */
function pdfWith(text: string): Buffer {
  const content = `BT /F1 24 Tf 72 712 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
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

async function docxWith(text: string): Promise<Buffer> {
  return Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph(text)] }] }));
}

async function upload<T>(t: TestApp, apiPath: string, token: string, bytes: Buffer, name: string, type: string): Promise<Envelope<T>> {
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${t.url}/api${apiPath}`, { method: 'POST', headers: { [TOKEN_NAME]: token }, body: fd });
  return (await res.json()) as Envelope<T>;
}

/**
 * Streams a multipart upload of `total` bytes through a raw socket, 64 KiB at a time with backpressure,
 * and stops sending as soon as the server answers. Returns the answer and how much was sent by then.
 */
function streamOversize(url: string, token: string, total: number, name: string): Promise<{ body: Envelope<unknown>; sent: number }> {
  const boundary = `----inkstone${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0);
  PNG.copy(chunk, 0, 0, 16);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(url, {
      method: 'POST',
      headers: { [TOKEN_NAME]: token, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + total + tail.length) },
    });
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        resolve({ body: JSON.parse(Buffer.concat(parts).toString('utf8')) as Envelope<unknown>, sent });
        req.destroy();
      });
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const pump = () => {
      while (!answered && sent < total) {
        const piece = sent === 0 ? Buffer.concat([head, chunk]) : chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += sent === 0 ? chunk.length : piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered && sent >= total) req.end(tail);
    };
    pump();
  });
}

describeOnDatabases('uploads on %s', (dbKind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    const u = await loginByPhone(t);
    token = u.tokenValue;
    await t.container.services.points.grant(u.user.id, 100, { reason: 'test', idempotencyKey: `test:${u.user.id}` });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['png', PNG, 'photo.png', 'image/png'],
    ['jpeg', JPEG, 'photo.jpeg', 'image/jpeg'],
    ['jpg', JPEG, 'photo.jpg', 'image/jpeg'],
    ['gif', GIF, 'anim.gif', 'image/gif'],
  ])('accepts a real %s image and serves it back from a static route', async (_k, bytes, name, type) => {
    const res = await upload<{ url: string }>(t, '/wx/upload', token, bytes, name, type);
    expect(res.code).toBe(0);
    expect(res.data.url).toMatch(/^\/uploads\/images\/[0-9a-f-]{36}\.(png|jpg|gif)$/);
    const served = await fetch(`${t.url}${res.data.url}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('spec section 5 messages: mismatch, unsupported type, unreadable', async () => {
    expect((await upload(t, '/wx/upload', token, PNG, 'photo.jpg', 'image/jpeg')).msg).toBe('文件类型不匹配');
    expect((await upload(t, '/wx/upload', token, PNG, 'photo.png', 'image/gif')).msg).toBe('文件类型不匹配');
    const pdfAsPng = await upload(t, '/wx/upload', token, pdfWith('x'), 'image.png', 'image/png');
    expect(pdfAsPng).toMatchObject({ code: ErrorCode.FILE_TYPE_MISMATCH, msg: '文件类型不匹配' });
    const pdf = await upload(t, '/wx/upload', token, pdfWith('x'), 'report.pdf', 'application/pdf');
    expect(pdf).toMatchObject({ code: ErrorCode.FILE_TYPE_UNSUPPORTED, msg: '请上传jpg、jpeg、png、gif格式的文件' });
    const txt = await upload(t, '/wx/upload', token, Buffer.from('你好'), 'a.txt', 'text/plain');
    expect(txt.msg).toBe('请上传jpg、jpeg、png、gif格式的文件');
    const empty = await upload(t, '/wx/upload', token, Buffer.alloc(0), 'a.png', 'image/png');
    expect(empty.code).toBe(ErrorCode.FILE_READ_FAILED);
    const notMultipart = await t.call('POST', '/wx/upload', { token, body: { file: 'x' } });
    expect(notMultipart.code).toBe(ErrorCode.FILE_READ_FAILED);
    expect((await upload(t, '/wx/upload', '', PNG, 'a.png', 'image/png')).code).toBe(ErrorCode.NOT_LOGGED_IN);
  });

  it('an oversize image is refused as soon as it crosses 20 MB, without reading the rest or keeping a file', async () => {
    const total = 60 * 1024 * 1024;
    const { body, sent } = await streamOversize(`${t.url}/api/wx/upload`, token, total, 'big.png');
    expect(body).toMatchObject({ code: ErrorCode.FILE_TOO_LARGE, msg: '请上传20MB以内的文件' });
    expect(sent).toBeLessThan(total);
    const dir = path.join((t.container.files.storage as LocalStorage).publicRoot, 'images');
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('quoted files: docx, pdf, txt and md are parsed to text, listed, used by a task, deleted', async () => {
    const docx = await upload<QuoteFile>(
      t,
      '/writing/file/upload',
      token,
      await docxWith('骑行让通勤更健康。这是一个测试文档。'),
      '骑行.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(docx.code).toBe(0);
    expect(docx.data).toMatchObject({ ext: 'docx', name: '骑行.docx' });
    expect(docx.data.preview).toContain('骑行让通勤更健康');
    const pdf = await upload<QuoteFile>(t, '/writing/file/upload', token, pdfWith('Cycling to work is healthy'), 'paper.pdf', 'application/pdf');
    expect(pdf.code).toBe(0);
    expect(pdf.data.preview).toContain('Cycling to work is healthy');
    const txt = await upload<QuoteFile>(t, '/writing/file/upload', token, Buffer.from('纯文本笔记：骑行需要头盔。'), 'note.txt', 'text/plain');
    expect(txt.data.preview).toBe('纯文本笔记：骑行需要头盔。');
    const md = await upload<QuoteFile>(t, '/writing/file/upload', token, Buffer.from('# 标题\n\n- 骑行装备清单'), 'list.md', 'application/octet-stream');
    expect(md.data.preview).toContain('骑行装备清单');

    const list = await t.call<QuoteFile[]>('GET', '/writing/file/list', { token });
    expect(list.data.map((f) => f.id)).toEqual(expect.arrayContaining([docx.data.id, pdf.data.id, txt.data.id, md.data.id]));

    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token,
      body: { createType: 'article', writeType: 'quick', content: '写一篇骑行通勤的文章。骑行很健康。', quoteFileIds: [docx.data.id, txt.data.id] },
    });
    expect(created.code).toBe(0);
    await t.container.jobs.idle();
    let info: TaskInfo | undefined;
    for (let i = 0; i < 100 && info?.status !== 'succeeded'; i++) {
      info = (await t.call<TaskInfo>('GET', '/mp/task/info', { token, query: { taskId: created.data.taskId } })).data;
      if (info.status !== 'succeeded') await new Promise((r) => setTimeout(r, 50));
    }
    expect(info!.text).toContain('摘自《');

    expect((await t.call('POST', '/writing/file/delete', { token, body: { id: txt.data.id } })).code).toBe(0);
    expect((await t.call<QuoteFile[]>('GET', '/writing/file/list', { token })).data.map((f) => f.id)).not.toContain(txt.data.id);
    expect((await t.call('POST', '/writing/file/delete', { token, body: { id: txt.data.id } })).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('quoted files whose bytes contradict their declared type are refused', async () => {
    expect((await upload(t, '/writing/file/upload', token, PNG, 'fake.pdf', 'application/pdf')).msg).toBe('文件类型不匹配');
    expect(
      (await upload(t, '/writing/file/upload', token, Buffer.from('plain text'), 'fake.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')).msg,
    ).toBe('文件类型不匹配');
    expect((await upload(t, '/writing/file/upload', token, Buffer.from([0xff, 0xfe, 0x00, 0x41, 0xc3, 0x28]), 'bad.txt', 'text/plain')).msg).toBe('文件类型不匹配');
    expect((await upload(t, '/writing/file/upload', token, pdfWith('x'), 'x.pdf', 'text/plain')).msg).toBe('文件类型不匹配');
    expect((await upload(t, '/writing/file/upload', token, PNG, 'pic.png', 'image/png')).msg).toBe('请上传docx、pdf、txt、md格式的文件');
  });

  it('image search over my uploads; no result is code 991 with its message', async () => {
    const u = await loginByPhone(t);
    const res = await upload<{ url: string }>(t, '/wx/upload', u.tokenValue, PNG, '端午节粽子.png', 'image/png');
    expect(res.code).toBe(0);
    const found = await t.call<Array<{ url: string; keywords: string[] }>>('GET', '/material/v3/image/search', { token: u.tokenValue, query: { keyword: '粽子' } });
    expect(found.code).toBe(0);
    expect(found.data[0]!.url).toBe(res.data.url);
    expect(found.data[0]!.keywords).toEqual(expect.arrayContaining(['端午节', '粽子']));
    const none = await t.call('GET', '/material/v3/image/search', { token: u.tokenValue, query: { keyword: '火锅' } });
    expect(none).toMatchObject({ code: 991, msg: '暂无图片搜索结果' });
    const other = await t.call('GET', '/material/v3/image/search', { token, query: { keyword: '粽子' } });
    expect(other.code).toBe(991);
  });
});

describe('uploads with S3-compatible storage configured', () => {
  it('stores an uploaded image in the bucket and answers its bucket URL; nothing is served from /uploads', async () => {
    const s3 = await startS3Standin({ accessKeyId: 'AKIDS3', secretAccessKey: 's3-secret', region: 'cn-test-1', bucket: 'inkstone' });
    const t = await startTestApp({
      env: { STORAGE_PROVIDER: 's3', S3_ENDPOINT: s3.url, S3_REGION: 'cn-test-1', S3_BUCKET: 'inkstone', S3_ACCESS_KEY_ID: 'AKIDS3', S3_SECRET_ACCESS_KEY: 's3-secret' },
    });
    try {
      const token = (await loginByPhone(t)).tokenValue;
      const res = await upload<{ url: string }>(t, '/wx/upload', token, PNG, 'photo.png', 'image/png');
      expect(res.code).toBe(0);
      expect(res.data.url.startsWith(`${s3.url}/inkstone/public/images/`)).toBe(true);
      const key = res.data.url.slice(`${s3.url}/inkstone/`.length);
      expect(s3.objects.get(key)?.equals(PNG)).toBe(true);
      const local = await fetch(`${t.url}/uploads/${key.replace(/^public\//, '')}`);
      expect(local.status).toBe(404);
    } finally {
      await t.close();
      await s3.close();
    }
  });
});
