/**
 * 知识库 search latency: 20,000 passages (~450 Chinese characters each, jieba tokens under the GIN index, a 256-dim
 * vector each from the embeddings stand-in) for one user, then sequential searches through KnowledgeService.search
 * (jieba query cut, AND match, ranking of every match, highlight ranges) for words of varying frequency:
 *   - full-text (mode fulltext);
 *   - hybrid (full-text + nearest vectors fused by reciprocal rank fusion; the query embedded by the stand-in over
 *     loopback HTTP). On PostgreSQL without pgvector (the test server here) the vectors are real[] ranked in the
 *     server's VectorCache; on PostgreSQL with pgvector or on PGlite, by pgvector in SQL. The report says which.
 * Baselines in the same run: a primary-key read of one passage (the floor of a round trip; every figure is also given
 * as a ratio to it), the stand-in's embedding call alone (the vendor's share of a hybrid search), the previous query
 * (first 500 matches ranked) and `text ILIKE '%word%'` (what the GIN index saves).
 * Correctness: for every query the top 20 equal a plain rank-every-match-then-sort query's top 20 (every word must
 * occur; ranked by ts_rank of the any-word form, as the repository ranks).
 * Targets (issue 14), on PostgreSQL: p95 <= 50 ms full-text, <= 100 ms hybrid.
 *
 * PostgreSQL from BENCH_DATABASE_URL (else TEST_DATABASE_URL); neither set: in-memory PGlite (said so).
 *   npx tsx bench/knowledge-search.ts
 */
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { openFreshPostgres } from '../apps/server/src/test/database.js';
import { standinVector, startEmbeddingsStandin } from '../apps/server/src/test/standins/embeddings.js';
import { OpenAiCompatibleEmbeddings } from '../apps/server/src/integrations/embeddings/openai-compatible.js';
import { openDatabase, type DbHandle } from '../apps/server/src/db/client.js';
import { knowledgeChunks, knowledgeDocs, users } from '../apps/server/src/db/schema/index.js';
import { KnowledgeRepo } from '../apps/server/src/modules/knowledge/knowledge.repo.js';
import { KnowledgeService, parseQuotas } from '../apps/server/src/modules/knowledge/knowledge.service.js';
import { indexTokens, queryTokens } from '../apps/server/src/modules/knowledge/knowledge.text.js';
import { systemClock } from '../apps/server/src/clock.js';
import type { JobQueue } from '../apps/server/src/jobs/types.js';
import type { Storage } from '../apps/server/src/integrations/storage/types.js';
import type { SafeFetcher } from '../apps/server/src/integrations/fetch/types.js';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 20_000);
const DOCS = 200;
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const DIMS = 256;
const TARGET_FULLTEXT_MS = 50;
const TARGET_HYBRID_MS = 100;

async function openBenchDatabase(): Promise<DbHandle & { label: string }> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.log('[knowledge-search] no BENCH_DATABASE_URL / TEST_DATABASE_URL: running on in-memory PGlite (single connection, not representative of PostgreSQL)');
    return { ...(await openDatabase({ dataDir: null })), label: 'pglite' };
  }
  return { ...(await openFreshPostgres(adminUrl, 'bench')), label: 'postgres' };
}

/** Deterministic pseudo-random numbers, so every run searches the same corpus. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SUBJECTS = [
  '新能源汽车',
  '动力电池',
  '乡村振兴',
  '数字经济',
  '人工智能',
  '短视频平台',
  '直播电商',
  '碳中和',
  '城市更新',
  '老龄化社会',
  '跨境电商',
  '预制菜',
  '露营经济',
  '咖啡连锁',
  '国潮品牌',
  '在线教育',
  '医疗器械',
  '半导体',
  '光伏组件',
  '储能电站',
];
const VERBS = ['推动了', '改变了', '加速了', '影响着', '重塑了', '带动了', '考验着', '放大了'];
const OBJECTS = [
  '消费者的购买决策',
  '中小企业的转型路径',
  '地方政府的产业规划',
  '年轻人的就业选择',
  '供应链的组织方式',
  '内容创作者的收入结构',
  '资本市场的估值逻辑',
  '县域经济的增长动力',
];
const TAILS = [
  '这一趋势在一线城市尤为明显。',
  '业内人士认为仍需观察政策走向。',
  '相关数据显示增速有所放缓。',
  '不少企业已经开始调整策略。',
  '专家建议关注长期价值而非短期热度。',
  '这为行业带来了新的机会与挑战。',
];

function passage(r: () => number): string {
  let out = '';
  while (out.length < 450) {
    const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)]!;
    out += `${pick(SUBJECTS)}${pick(VERBS)}${pick(OBJECTS)}，${pick(TAILS)}`;
  }
  return out;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(2);
};
const stats = (xs: number[]) => ({ p50Ms: pct(xs, 50), p95Ms: pct(xs, 95), p99Ms: pct(xs, 99) });

async function timed(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

export async function run() {
  const database = await openBenchDatabase();
  const { db } = database;
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const tag = randomBytes(3).toString('hex');
    const [user] = await db
      .insert(users)
      .values({ uid: `k${tag}`, username: `k${tag}`, nickname: 'bench', inviteCode: `K${tag}`.toUpperCase() })
      .returning({ id: users.id });
    const userId = user!.id;
    const docs = await db
      .insert(knowledgeDocs)
      .values(
        Array.from({ length: DOCS }, (_, i) => ({
          userId,
          name: `报告${i}.pdf`,
          ext: 'pdf',
          size: 1000,
          storageKey: `private/knowledge/bench/${i}.pdf`,
          status: 'ready' as const,
          progress: 100,
        })),
      )
      .returning({ id: knowledgeDocs.id });
    const r = rng(42);
    const seedStarted = performance.now();
    const perDoc = Math.ceil(CHUNKS / DOCS);
    let batch: Array<typeof knowledgeChunks.$inferInsert> = [];
    for (let i = 0; i < CHUNKS; i++) {
      const text = passage(r);
      const seq = i % perDoc;
      batch.push({
        docId: docs[Math.floor(i / perDoc)]!.id,
        userId,
        seq,
        page: seq + 1,
        charStart: seq * 450,
        charEnd: seq * 450 + text.length,
        heading: null,
        text,
        tokens: indexTokens(text),
      });
      if (batch.length === 500) {
        await db.insert(knowledgeChunks).values(batch);
        batch = [];
      }
    }
    if (batch.length) await db.insert(knowledgeChunks).values(batch);
    const standin = await startEmbeddingsStandin();
    cleanup.push(() => standin.close());
    const embeddings = new OpenAiCompatibleEmbeddings({ baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'standin', dimensions: DIMS });
    const repo = new KnowledgeRepo(db);
    // As the parse job leaves them: every passage's vector stored with the model id, documents marked embedded.
    const vectors = await repo.prepareVectors();
    const model = embeddings.modelId;
    for (let after = 0; ;) {
      const page = await db
        .select({ id: knowledgeChunks.id, text: knowledgeChunks.text })
        .from(knowledgeChunks)
        .where(sql`${knowledgeChunks.userId} = ${userId} and ${knowledgeChunks.id} > ${after}`)
        .orderBy(knowledgeChunks.id)
        .limit(500);
      if (!page.length) break;
      await repo.storeEmbeddings(
        page.map((c) => ({ id: c.id, embedding: standinVector(c.text, DIMS) })),
        model,
      );
      after = page[page.length - 1]!.id;
    }
    for (const d of docs) await repo.markEmbedded(d.id, model, new Date());
    await db.execute(sql`analyze knowledge_chunks`);
    await db.execute(sql`analyze knowledge_docs`);
    const seedMs = Math.round(performance.now() - seedStarted);

    const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
    const service = new KnowledgeService(repo, {} as Storage, {} as SafeFetcher, {} as JobQueue, systemClock, silent, parseQuotas(''), embeddings);
    // Frequent single words, two-word phrases, and a rare combination that matches few passages.
    const queries = [
      '动力电池',
      '乡村振兴 县域经济',
      '人工智能改变了内容创作者的收入结构',
      '储能电站',
      '露营经济 年轻人',
      '半导体 资本市场的估值逻辑',
      '预制菜',
      '碳中和 政策走向',
    ];
    const ilikeWords = ['动力电池', '县域经济', '储能电站', '预制菜'];

    // Warm-up (jieba dictionary, plan cache, buffer cache; the fallback's vector cache is read once here).
    const warm = performance.now();
    await service.search(userId, queries[0]!, {}, 20, 'auto');
    const firstHybridMs = Math.round(performance.now() - warm);
    for (const q of queries) {
      await service.search(userId, q, {}, 20, 'fulltext');
      await service.search(userId, q, {}, 20, 'auto');
    }

    // Correctness: the bounded ranking returns exactly what ranking every match and sorting would.
    const mismatches: string[] = [];
    for (const q of queries) {
      const tokens = queryTokens(q);
      const got = await repo.search(userId, tokens, false, {}, 20);
      const query = sql`plainto_tsquery('simple', ${tokens.join(' ')})`;
      const anyWord = sql.join(
        tokens.map((t) => sql`plainto_tsquery('simple', ${t})`),
        sql` || `,
      );
      const all = await db.execute(
        sql`select c.id, ts_rank(c.tsv, ${anyWord}) as score from knowledge_chunks c where c.user_id = ${userId} and c.tsv @@ ${query} order by score desc, c.doc_id, c.seq`,
      );
      const expected = rowsOf(all)
        .slice(0, 20)
        .map((r) => Number((r as { id: unknown }).id));
      if (JSON.stringify(got.map((r) => r.chunkId)) !== JSON.stringify(expected)) mismatches.push(q);
    }
    if (process.env.BENCH_EXPLAIN) {
      for (const text of [queries[0]!, queries[2]!]) {
        const tokens = queryTokens(text);
        const query = sql`plainto_tsquery('simple', ${tokens.join(' ')})`;
        const anyWord = sql.join(
          tokens.map((t) => sql`plainto_tsquery('simple', ${t})`),
          sql` || `,
        );
        const plan = await db.execute(
          sql`explain (analyze, buffers) select c.id, ts_rank(c.tsv, q.rankq) as score from knowledge_chunks c cross join (select ${query} as query, ${anyWord} as rankq) q join knowledge_docs d on d.id = c.doc_id where c.user_id = ${userId} and c.tsv @@ q.query and d.user_id = ${userId} and d.status = 'ready' order by score desc, c.doc_id, c.seq limit 20`,
        );
        console.log(
          rowsOf(plan)
            .map((r) => Object.values(r as object)[0])
            .join('\n'),
        );
      }
    }
    const ids = (await db.select({ id: knowledgeChunks.id }).from(knowledgeChunks).where(eq(knowledgeChunks.userId, userId)).limit(1000)).map((x) => x.id);

    const pk = await timed(QUERIES, (i) =>
      db
        .select()
        .from(knowledgeChunks)
        .where(eq(knowledgeChunks.id, ids[i % ids.length]!)),
    );
    const ilike = await timed(Math.min(QUERIES, 60), (i) =>
      db
        .select({ id: knowledgeChunks.id })
        .from(knowledgeChunks)
        .where(sql`${knowledgeChunks.userId} = ${userId} and ${knowledgeChunks.text} ilike ${`%${ilikeWords[i % ilikeWords.length]}%`}`)
        .limit(20),
    );
    // The previous query: the first 500 matches in index order, then ranked (fast for common words, but could miss the best).
    const previous = await timed(Math.min(QUERIES, 120), (i) => {
      const tokens = queryTokens(queries[i % queries.length]!);
      const query = sql`plainto_tsquery('simple', ${tokens.join(' ')})`;
      return db.execute(
        sql`select c.id, c.text, ts_rank(c.tsv, ${query}) as score from (select c.id from knowledge_chunks c join knowledge_docs d on d.id = c.doc_id where c.user_id = ${userId} and c.tsv @@ ${query} and d.status = 'ready' limit 500) k join knowledge_chunks c on c.id = k.id order by score desc limit 20`,
      );
    });
    const embedOnly = await timed(Math.min(QUERIES, 120), (i) => embeddings.embed([queries[i % queries.length]!]));

    // Full-text and hybrid interleaved, so load from other processes on a shared machine hits both alike.
    let ftHits = 0;
    let hyHits = 0;
    const fulltext: number[] = [];
    const hybrid: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const q = queries[i % queries.length]!;
      let t0 = performance.now();
      ftHits += (await service.search(userId, q, {}, 20, 'fulltext')).hits.length;
      fulltext.push(performance.now() - t0);
      t0 = performance.now();
      const res = await service.search(userId, q, {}, 20, 'auto');
      hybrid.push(performance.now() - t0);
      if (res.mode !== 'hybrid') throw new Error(`hybrid search fell back to ${res.mode}`);
      hyHits += res.hits.length;
    }
    const ft = stats(fulltext);
    const hy = stats(hybrid);
    // Which words cost what (p95 per query, full-text / hybrid).
    const perQuery = Object.fromEntries(
      queries.map((q, qi) => [
        q,
        `${pct(
          fulltext.filter((_, i) => i % queries.length === qi),
          95,
        )} / ${pct(
          hybrid.filter((_, i) => i % queries.length === qi),
          95,
        )} ms`,
      ]),
    );
    const base = stats(pk);
    const vsBase = (ms: number) => +(ms / Math.max(0.01, base.p95Ms)).toFixed(1);
    const verdict = (ms: number, target: number) => (ms <= target ? 'PASS' : 'FAIL');
    const summary = [
      `knowledge search, ${CHUNKS} passages, ${database.label}${database.label === 'postgres' ? ` (vectors: ${vectors.storage})` : ''}:`,
      `  full-text p95 ${ft.p95Ms} ms (${vsBase(ft.p95Ms)}x the primary-key read p95 ${base.p95Ms} ms)  target <= ${TARGET_FULLTEXT_MS} ms  ${verdict(ft.p95Ms, TARGET_FULLTEXT_MS)}`,
      `  hybrid    p95 ${hy.p95Ms} ms (${vsBase(hy.p95Ms)}x the primary-key read p95; of it the stand-in's embedding call p95 ${stats(embedOnly).p95Ms} ms)  target <= ${TARGET_HYBRID_MS} ms  ${verdict(hy.p95Ms, TARGET_HYBRID_MS)}`,
      `  previous full-text query (first 500 matches ranked) p95 ${stats(previous).p95Ms} ms; ILIKE scan p95 ${stats(ilike).p95Ms} ms; top-20 equal to rank-all: ${mismatches.length ? `NO (${mismatches.join(', ')})` : 'yes'}`,
    ].join('\n');
    console.log(summary);
    return {
      database: database.label,
      vectorStorage: vectors.storage,
      vectorFallbackReason: vectors.reason,
      chunks: CHUNKS,
      dims: DIMS,
      seedMs,
      firstHybridMs,
      queries: QUERIES,
      avgHits: { fulltext: +(ftHits / QUERIES).toFixed(1), hybrid: +(hyHits / QUERIES).toFixed(1) },
      fulltext: ft,
      hybrid: hy,
      perQueryP95: perQuery,
      baselinePrimaryKey: base,
      baselineEmbedCall: stats(embedOnly),
      referencePreviousQuery: stats(previous),
      referenceIlikeScan: stats(ilike),
      fulltextP95VsPrimaryKey: vsBase(ft.p95Ms),
      hybridP95VsPrimaryKey: vsBase(hy.p95Ms),
      top20EqualsRankAll: mismatches.length === 0,
      targets: { fulltextP95Ms: TARGET_FULLTEXT_MS, hybridP95Ms: TARGET_HYBRID_MS },
      pass: { fulltext: ft.p95Ms <= TARGET_FULLTEXT_MS, hybrid: hy.p95Ms <= TARGET_HYBRID_MS },
    };
  } finally {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
    await database.close();
  }
}

/** Rows of a raw execute (node-postgres and PGlite both answer {rows}). */
const rowsOf = (res: unknown): unknown[] => (res as { rows: unknown[] }).rows;

if (import.meta.url === `file://${process.argv[1]}`) void run().then((r) => console.log(JSON.stringify(r, null, 2)));
