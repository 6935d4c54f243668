import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode, TOKEN_NAME, type Envelope, type KnowledgeDoc, type KnowledgeFolder, type TaskInfo } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { startOpenAiStandin, type ChatRequestBody, type OpenAiStandin } from '../../test/standins/openai-compatible.js';
import { knowledgeChunks } from '../../db/schema/index.js';
import { chinesePdf } from './pdf-fixture.js';

const TEA = '普洱茶的发酵工艺决定了它的风味，渥堆发酵让熟茶的口感更加醇厚。';
const RUN = '跑鞋的缓震性能对膝盖保护很重要，长距离训练应选择中底更厚的跑鞋。';

/** The deep pipeline's calls answered like a model: the outline names one section per document's subject. */
function responder(body: ChatRequestBody) {
  const user = body.messages.at(-1)!.content;
  if (user.includes('只输出一个JSON对象'))
    return { content: '{"title":"爱好指南","outline":[{"heading":"普洱茶的发酵工艺","points":["熟茶"]},{"heading":"跑鞋的缓震","points":["膝盖"]}],"queries":[]}' };
  if (user.includes('审阅下面的文章')) return { content: '1. 很好。' };
  if (user.includes('根据审阅意见修改文章')) return { content: user.split('原文：\n')[1] ?? '' };
  // A section: cite every source number the prompt offers.
  const nums = [...new Set([...user.matchAll(/^\[(\d+)\]/gm)].map((m) => m[1]))];
  return { content: `这一节的内容${nums.map((n) => `[${n}]`).join('')}。` };
}

describeOnDatabases('writing from the knowledge library on %s', (dbKind) => {
  let t: TestApp;
  let standin: OpenAiStandin;
  beforeAll(async () => {
    standin = await startOpenAiStandin({ model: 'standin-chat' });
    standin.respond = responder;
    t = await startTestApp({
      db: dbKind,
      env: {
        LLM_MODELS: JSON.stringify([{ id: 'standin', label: '模拟模型', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'standin-chat' }]),
        LLM_DEFAULT_MODEL: 'offline',
        LLM_RETRY_BASE_MS: '1',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await standin?.close();
  });

  const upload = async (token: string, bytes: Buffer, name: string, type: string, folderId?: number) => {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const res = (await (
      await fetch(`${t.url}/api/knowledge/doc/upload${folderId ? `?folderId=${folderId}` : ''}`, { method: 'POST', headers: { [TOKEN_NAME]: token }, body: fd })
    ).json()) as Envelope<KnowledgeDoc>;
    expect(res.code, res.msg).toBe(0);
    await t.container.jobs.idle();
    return res.data;
  };
  const waitTask = async (token: string, taskId: string) => {
    for (let i = 0; i < 400; i++) {
      await t.container.jobs.idle();
      const info = await t.call<TaskInfo>('GET', '/mp/task/info', { token, query: { taskId } });
      if (info.data.status === 'succeeded' || info.data.status === 'failed') return info.data;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('task did not finish');
  };
  /** `[n] title /pdfDetail?...` lines of the article's reference list. */
  const references = (text: string) =>
    [...text.matchAll(/^\[(\d+)\] (.+?) (\/pdfDetail\?\S+)$/gm)].map((m) => ({ n: Number(m[1]), title: m[2]!, url: new URL(m[3]!, 'http://x') }));

  it('deep writing retrieves passages per section, numbers them, and cites [n] that open the quoted passage at its page', async () => {
    const u = await loginByPhone(t);
    await t.container.services.points.grant(u.user.id, 1000, { reason: 'test', idempotencyKey: `kw:${u.user.id}` });
    const token = u.tokenValue;
    const pdf = await upload(
      token,
      chinesePdf([
        ['茶叶笔记', '绿茶不发酵。'],
        ['第二章 普洱', TEA],
      ]),
      '茶.pdf',
      'application/pdf',
    );
    const md = await upload(token, Buffer.from(`# 跑步\n\n${RUN}`), '跑步.md', 'text/markdown');
    // A document not quoted is never retrieved.
    await upload(token, Buffer.from('普洱茶的发酵工艺其实很简单，这是另一份不被引用的笔记。'), '其他.txt', 'text/plain');

    const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
      token,
      body: { createType: 'article', writeType: 'deep', content: '写一篇关于普洱茶和跑步装备的爱好指南', modelConfigType: 'standin', knowledge: { docIds: [pdf.id, md.id] } },
    });
    expect(created.code, created.msg).toBe(0);
    const info = await waitTask(token, created.data.taskId);
    expect(info.status, info.errorMsg ?? '').toBe('succeeded');

    // Each section's prompt carried its own passage.
    const sectionPrompts = standin.received.map((b) => b.messages.at(-1)!.content).filter((c) => c.includes('现在只写第'));
    expect(sectionPrompts).toHaveLength(2);
    expect(sectionPrompts[0]).toContain(TEA);
    expect(sectionPrompts[1]).toContain(RUN);
    expect(sectionPrompts[0]).not.toContain('不被引用');

    const refs = references(info.text);
    expect(refs.map((r) => r.title)).toEqual(['茶.pdf 第2页', '跑步.md']);
    expect(info.text).toMatch(/\[1\]/);
    expect(info.text).toMatch(/\[2\]/);
    for (const r of refs) {
      // Every citation opens a passage that exists in the quoted document, at its page.
      const docId = Number(r.url.searchParams.get('fileId'));
      expect([pdf.id, md.id]).toContain(docId);
      const chunks = await t.container.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.docId, docId));
      const q = r.url.searchParams.get('q')!;
      const chunk = chunks.find((c) => c.text.includes(q));
      expect(chunk, r.title).toBeDefined();
      expect(r.url.searchParams.get('page')).toBe(chunk!.page ? String(chunk!.page) : null);
    }
  });

  it('the offline writer cites quoted passages too; a folder or the whole library can be quoted; refs must be the user’s own', async () => {
    const u = await loginByPhone(t);
    const token = u.tokenValue;
    const folder = await t.call<KnowledgeFolder>('POST', '/knowledge/folder/create', { token, body: { name: '爱好' } });
    const doc = await upload(token, Buffer.from(TEA), '茶.txt', 'text/plain', folder.data.id);
    for (const knowledge of [{ folderIds: [folder.data.id] }, { all: true }]) {
      const created = await t.call<{ taskId: string }>('POST', '/mp/task/create', {
        token,
        body: { createType: 'article', writeType: 'deep', content: '普洱茶的发酵工艺', knowledge },
      });
      expect(created.code, created.msg).toBe(0);
      const info = await waitTask(token, created.data.taskId);
      expect(info.status).toBe('succeeded');
      expect(info.generatedBy).toBe('offline');
      const refs = references(info.text);
      expect(refs[0]).toMatchObject({ n: 1, title: '茶.txt' });
      expect(refs[0]!.url.searchParams.get('fileId')).toBe(String(doc.id));
      expect(info.text).toContain('[1]');
    }
    const other = await loginByPhone(t);
    const foreign = await t.call('POST', '/mp/task/create', { token: other.tokenValue, body: { createType: 'article', content: '普洱茶', knowledge: { docIds: [doc.id] } } });
    expect(foreign).toMatchObject({ code: ErrorCode.NOT_FOUND, msg: '引用的知识库文档不存在或已删除' });
    const foreignFolder = await t.call('POST', '/mp/task/create', {
      token: other.tokenValue,
      body: { createType: 'article', content: '普洱茶', knowledge: { folderIds: [folder.data.id] } },
    });
    expect(foreignFolder.code).toBe(ErrorCode.NOT_FOUND);
    const bad = await t.call('POST', '/mp/task/create', { token, body: { createType: 'article', content: '普洱茶', knowledge: { docIds: ['x'] } } });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.msg).toMatch(/knowledge\.docIds/);
  });
});
