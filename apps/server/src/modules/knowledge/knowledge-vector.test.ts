import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { TOKEN_NAME, type Envelope, type KnowledgeDoc, type KnowledgeSearchResult, type KnowledgeStatus } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { startEmbeddingsStandin, type EmbeddingsStandin } from '../../test/standins/embeddings.js';
import { knowledgeChunks, knowledgeDocs } from '../../db/schema/index.js';
import { REEMBED_JOB } from './knowledge.service.js';

const MODEL = 'standin-embed@256';
/** Says what the energy passage says, in none of its words (电动车 ≠ 新能源汽车, 锂电池 ≠ 动力电池, 利用 ≠ 回收). */
const PARAPHRASE = '电动车锂电池再利用';
const DOCS: Array<[string, string]> = [
  ['能源.txt', '碳中和目标推动新能源汽车快速发展，动力电池回收成为新的产业机会。'],
  ['咖啡.txt', '手冲咖啡的水温建议在九十度左右，咖啡豆研磨要均匀。'],
  ['城市.txt', '老旧小区改造与城市更新计划同步推进，居民参与方案讨论。'],
  ['跑步.txt', '跑步前要充分热身，跑鞋的缓震性能对膝盖保护很重要。'],
];

describeOnDatabases('knowledge hybrid search (embeddings stand-in) on %s', (dbKind) => {
  let t: TestApp;
  let standin: EmbeddingsStandin;
  beforeAll(async () => {
    standin = await startEmbeddingsStandin();
    t = await startTestApp({
      db: dbKind,
      env: { EMBEDDINGS_BASE_URL: standin.baseURL, EMBEDDINGS_API_KEY: standin.apiKey, EMBEDDINGS_MODEL: 'standin-embed', EMBEDDINGS_DIMENSIONS: '256' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await standin?.close();
  });

  const upload = async (token: string, text: string, name: string) => {
    const fd = new FormData();
    fd.append('file', new Blob([text], { type: 'text/plain' }), name);
    const res = await fetch(`${t.url}/api/knowledge/doc/upload`, { method: 'POST', headers: { [TOKEN_NAME]: token }, body: fd });
    const env = (await res.json()) as Envelope<KnowledgeDoc>;
    expect(env.code, env.msg).toBe(0);
    return env.data;
  };
  const parsed = async (token: string, id: number) => {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      const res = await t.call<KnowledgeDoc>('GET', '/knowledge/doc/info', { token, query: { id } });
      if (res.data.status === 'ready' || res.data.status === 'failed') return res.data;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('parse did not finish');
  };
  const search = (token: string, q: string, query: Record<string, string | number> = {}) =>
    t.call<KnowledgeSearchResult>('GET', '/knowledge/search', { token, query: { q, ...query } });
  const library = async (token: string) => {
    const ids: Record<string, number> = {};
    for (const [name, text] of DOCS) {
      const up = await upload(token, text, name);
      expect((await parsed(token, up.id)).status).toBe('ready');
      ids[name] = up.id;
    }
    return ids;
  };
  const pgvectorAvailable = async () => {
    const res = await t.container.db.execute(sql`select count(*)::int as n from pg_available_extensions where name = 'vector'`);
    return Number((res as unknown as { rows: Array<{ n: number }> }).rows[0]!.n) > 0;
  };

  it('status: vector search on with the model; pgvector where the extension exists, else real[] ranked in the server, said so', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const res = await t.call<KnowledgeStatus>('GET', '/knowledge/status', { token });
    expect(res.code).toBe(0);
    const available = await pgvectorAvailable();
    // PGlite ships pgvector; the test PostgreSQL 15 here has no pgvector package, so it exercises the fallback.
    if (dbKind === 'pglite') expect(available).toBe(true);
    expect(res.data).toMatchObject({ fulltext: true, vector: { enabled: true, model: MODEL, storage: available ? 'pgvector' : 'real[]', readyDocs: 0, embeddedDocs: 0 } });
    const column = await t.container.db.execute(
      sql`select format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = 'knowledge_chunks'::regclass and attname = 'embedding'`,
    );
    expect((column as unknown as { rows: Array<{ type: string }> }).rows[0]!.type).toBe(available ? 'vector' : 'real[]');
    if (available) {
      expect(res.data.vector.fallbackReason).toBeNull();
      expect(res.data.note).toContain('pgvector');
    } else {
      expect(res.data.vector.fallbackReason).toMatch(/vector/);
      expect(res.data.note).toContain('real[]');
    }
  });

  it('the parse job embeds every passage in batches with the model id; hybrid ranks a paraphrase first where full-text cannot find it', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const before = standin.received.length;
    const ids = await library(token);
    const chunks = await t.container.db
      .select({ model: knowledgeChunks.embeddingModel, embedding: knowledgeChunks.embedding })
      .from(knowledgeChunks)
      .where(eq(knowledgeChunks.docId, ids['能源.txt']!));
    expect(chunks.length).toBeGreaterThan(0);
    for (const c of chunks) {
      expect(c.model).toBe(MODEL);
      expect(c.embedding).toHaveLength(256);
    }
    const [doc] = await t.container.db.select().from(knowledgeDocs).where(eq(knowledgeDocs.id, ids['能源.txt']!));
    expect(doc).toMatchObject({ embeddingModel: MODEL, embeddedAt: expect.any(Date) });
    const sent = standin.received.slice(before);
    expect(sent.every((r) => r.model === 'standin-embed' && r.dimensions === 256 && r.encoding_format === 'float')).toBe(true);
    expect(sent.flatMap((r) => r.input)).toEqual(expect.arrayContaining(DOCS.map(([, text]) => text)));

    // Full-text: none of the paraphrase's words occur anywhere.
    const words = await search(token, PARAPHRASE, { mode: 'fulltext' });
    expect(words.code).toBe(0);
    expect(words.data.mode).toBe('fulltext');
    expect(words.data.hits[0]?.docId).not.toBe(ids['能源.txt']);
    // Hybrid: the passage with the same meaning comes first.
    const hybrid = await search(token, PARAPHRASE);
    expect(hybrid.data.mode).toBe('hybrid');
    expect(hybrid.data.hits[0]).toMatchObject({ docId: ids['能源.txt'], docName: '能源.txt' });
    expect(hybrid.data.hits[0]!.text).toContain('动力电池回收');
    // A query whose words do occur keeps its literal passage first.
    expect((await search(token, '城市更新')).data.hits[0]!.docId).toBe(ids['城市.txt']);
    expect((await search(token, '手冲咖啡 水温')).data.hits[0]!.docId).toBe(ids['咖啡.txt']);
    // Filters bind the vector side too.
    const onlyCoffee = await search(token, PARAPHRASE, { docId: ids['咖啡.txt']! });
    expect(onlyCoffee.data.hits.every((h) => h.docId === ids['咖啡.txt'])).toBe(true);
    expect((await search(token, PARAPHRASE, { ext: 'md' })).data.hits).toEqual([]);
    // Another user's vectors are never searched.
    const other = await loginByPhone(t);
    expect((await search(other.tokenValue, PARAPHRASE)).data.hits).toEqual([]);
    // Deleted: gone from the vector side as well.
    expect((await t.call('POST', '/knowledge/doc/delete', { token, body: { id: ids['能源.txt']! } })).code).toBe(0);
    expect((await search(token, PARAPHRASE)).data.hits.some((h) => h.docId === ids['能源.txt'])).toBe(false);
  }, 120_000);

  it('when the configured model changes the re-embed job re-embeds; vectors of another model are never compared', async () => {
    const { tokenValue: token, user } = await loginByPhone(t);
    const ids = await library(token);
    // The state a model change leaves: every stored vector (and document) carries the previous model's id.
    await t.container.db.update(knowledgeChunks).set({ embeddingModel: 'old-model@256' }).where(eq(knowledgeChunks.userId, user.id));
    await t.container.db.update(knowledgeDocs).set({ embeddingModel: 'old-model@256' }).where(eq(knowledgeDocs.userId, user.id));
    let status = await t.call<KnowledgeStatus>('GET', '/knowledge/status', { token });
    expect(status.data.vector).toMatchObject({ readyDocs: 4, embeddedDocs: 0 });
    expect(status.data.note).toContain('4个文档正在生成向量');
    // Old vectors are not compared with the new model's query vector: the paraphrase is not found.
    expect((await search(token, PARAPHRASE)).data.hits.some((h) => h.docId === ids['能源.txt'])).toBe(false);

    const before = standin.received.length;
    await t.container.jobs.enqueue(REEMBED_JOB, {});
    await t.container.jobs.idle();
    const texts = standin.received.slice(before).flatMap((r) => r.input);
    for (const [, text] of DOCS) expect(texts).toContain(text);
    const stale = await t.container.db
      .select({ id: knowledgeChunks.id })
      .from(knowledgeChunks)
      .where(and(eq(knowledgeChunks.userId, user.id), sql`${knowledgeChunks.embeddingModel} is distinct from ${MODEL}`));
    expect(stale).toEqual([]);
    status = await t.call<KnowledgeStatus>('GET', '/knowledge/status', { token });
    expect(status.data.vector).toMatchObject({ readyDocs: 4, embeddedDocs: 4 });
    expect((await search(token, PARAPHRASE)).data.hits[0]!.docId).toBe(ids['能源.txt']);
    // Nothing left to do: a second sweep embeds nothing.
    const after = standin.received.length;
    await t.container.jobs.enqueue(REEMBED_JOB, {});
    await t.container.jobs.idle();
    expect(standin.received.length).toBe(after);
  }, 120_000);

  it('an embeddings outage: documents still become ready (full-text), search degrades to full-text, the sweep embeds them later', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    standin.down = 503;
    let id: number;
    try {
      const up = await upload(token, DOCS[0]![1], '能源.txt');
      id = up.id;
      expect(await parsed(token, id)).toMatchObject({ status: 'ready', errorMsg: null });
      const res = await search(token, '动力电池');
      expect(res.data.mode).toBe('fulltext');
      expect(res.data.hits[0]!.docId).toBe(id);
      expect((await t.call<KnowledgeStatus>('GET', '/knowledge/status', { token })).data.vector).toMatchObject({ readyDocs: 1, embeddedDocs: 0 });
    } finally {
      standin.down = null;
    }
    await t.container.jobs.enqueue(REEMBED_JOB, {});
    await t.container.jobs.idle();
    expect((await t.call<KnowledgeStatus>('GET', '/knowledge/status', { token })).data.vector).toMatchObject({ readyDocs: 1, embeddedDocs: 1 });
    const res = await search(token, PARAPHRASE);
    expect(res.data.mode).toBe('hybrid');
    expect(res.data.hits[0]!.docId).toBe(id);
  }, 120_000);

  it('bad mode names the field', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const res = await search(token, '电池', { mode: 'vector' });
    expect(res.code).toBe(1001);
    expect(res.msg).toMatch(/mode/);
  });
});

describe('knowledge search without an embeddings model', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'pglite' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is full-text only and says vector search is off', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const status = await t.call<KnowledgeStatus>('GET', '/knowledge/status', { token });
    expect(status.data).toMatchObject({ fulltext: true, vector: { enabled: false, model: null, storage: null } });
    expect(status.data.note).toContain('向量检索未开启');
    const res = await search(t, token, '任何内容');
    expect(res.data.mode).toBe('fulltext');
  });
});

const search = (t: TestApp, token: string, q: string) => t.call<KnowledgeSearchResult>('GET', '/knowledge/search', { token, query: { q } });
