/**
 * 知识库 full-text search latency: 20,000 passages (~450 Chinese characters each, jieba tokens under the GIN index)
 * for one user, then sequential searches through KnowledgeService.search (jieba query cut, AND match, ranking,
 * highlight ranges) for words of varying frequency. Baselines in the same run: a primary-key read of one passage
 * (the floor of a round trip) and the same words looked up by `text ILIKE '%word%'` (what the GIN index saves).
 * Target (issue 14): p95 <= 50 ms on PostgreSQL.
 *
 * PostgreSQL from BENCH_DATABASE_URL (else TEST_DATABASE_URL); neither set: in-memory PGlite (said so).
 *   npx tsx bench/knowledge-search.ts
 */
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { openFreshPostgres } from '../apps/server/src/test/database.js';
import { openDatabase, type DbHandle } from '../apps/server/src/db/client.js';
import { knowledgeChunks, knowledgeDocs, users } from '../apps/server/src/db/schema/index.js';
import { KnowledgeRepo } from '../apps/server/src/modules/knowledge/knowledge.repo.js';
import { KnowledgeService, parseQuotas } from '../apps/server/src/modules/knowledge/knowledge.service.js';
import { indexTokens } from '../apps/server/src/modules/knowledge/knowledge.text.js';
import { systemClock } from '../apps/server/src/clock.js';
import type { JobQueue } from '../apps/server/src/jobs/types.js';
import type { Storage } from '../apps/server/src/integrations/storage/types.js';
import type { SafeFetcher } from '../apps/server/src/integrations/fetch/types.js';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 20_000);
const DOCS = 200;
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);

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

const SUBJECTS = ['新能源汽车', '动力电池', '乡村振兴', '数字经济', '人工智能', '短视频平台', '直播电商', '碳中和', '城市更新', '老龄化社会', '跨境电商', '预制菜', '露营经济', '咖啡连锁', '国潮品牌', '在线教育', '医疗器械', '半导体', '光伏组件', '储能电站'];
const VERBS = ['推动了', '改变了', '加速了', '影响着', '重塑了', '带动了', '考验着', '放大了'];
const OBJECTS = ['消费者的购买决策', '中小企业的转型路径', '地方政府的产业规划', '年轻人的就业选择', '供应链的组织方式', '内容创作者的收入结构', '资本市场的估值逻辑', '县域经济的增长动力'];
const TAILS = ['这一趋势在一线城市尤为明显。', '业内人士认为仍需观察政策走向。', '相关数据显示增速有所放缓。', '不少企业已经开始调整策略。', '专家建议关注长期价值而非短期热度。', '这为行业带来了新的机会与挑战。'];

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
  try {
    const tag = randomBytes(3).toString('hex');
    const [user] = await db.insert(users).values({ uid: `k${tag}`, username: `k${tag}`, nickname: 'bench', inviteCode: `K${tag}`.toUpperCase() }).returning({ id: users.id });
    const userId = user!.id;
    const docs = await db
      .insert(knowledgeDocs)
      .values(Array.from({ length: DOCS }, (_, i) => ({ userId, name: `报告${i}.pdf`, ext: 'pdf', size: 1000, storageKey: `private/knowledge/bench/${i}.pdf`, status: 'ready' as const, progress: 100 })))
      .returning({ id: knowledgeDocs.id });
    const r = rng(42);
    const seedStarted = performance.now();
    const perDoc = Math.ceil(CHUNKS / DOCS);
    let batch: Array<typeof knowledgeChunks.$inferInsert> = [];
    for (let i = 0; i < CHUNKS; i++) {
      const text = passage(r);
      const seq = i % perDoc;
      batch.push({ docId: docs[Math.floor(i / perDoc)]!.id, userId, seq, page: seq + 1, charStart: seq * 450, charEnd: seq * 450 + text.length, heading: null, text, tokens: indexTokens(text) });
      if (batch.length === 500) {
        await db.insert(knowledgeChunks).values(batch);
        batch = [];
      }
    }
    if (batch.length) await db.insert(knowledgeChunks).values(batch);
    await db.execute(sql`analyze knowledge_chunks`);
    const seedMs = Math.round(performance.now() - seedStarted);

    const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
    const service = new KnowledgeService(new KnowledgeRepo(db), {} as Storage, {} as SafeFetcher, {} as JobQueue, systemClock, silent, parseQuotas(''));
    // Frequent single words, two-word phrases, and a rare combination that matches few passages.
    const queries = ['动力电池', '乡村振兴 县域经济', '人工智能改变了内容创作者的收入结构', '储能电站', '露营经济 年轻人', '半导体 资本市场的估值逻辑', '预制菜', '碳中和 政策走向'];
    const ilikeWords = ['动力电池', '县域经济', '储能电站', '预制菜'];

    // Warm-up (jieba dictionary, plan cache, buffer cache).
    for (const q of queries) await service.search(userId, q, {}, 20);
    const ids = (await db.select({ id: knowledgeChunks.id }).from(knowledgeChunks).where(eq(knowledgeChunks.userId, userId)).limit(1000)).map((x) => x.id);

    const pk = await timed(QUERIES, (i) => db.select().from(knowledgeChunks).where(eq(knowledgeChunks.id, ids[i % ids.length]!)));
    const ilike = await timed(Math.min(QUERIES, 60), (i) =>
      db.select({ id: knowledgeChunks.id }).from(knowledgeChunks).where(sql`${knowledgeChunks.userId} = ${userId} and ${knowledgeChunks.text} ilike ${`%${ilikeWords[i % ilikeWords.length]}%`}`).limit(20),
    );
    let hits = 0;
    const fulltext = await timed(QUERIES, async (i) => {
      const res = await service.search(userId, queries[i % queries.length]!, {}, 20);
      hits += res.hits.length;
    });
    const ft = stats(fulltext);
    return {
      database: database.label,
      chunks: CHUNKS,
      seedMs,
      queries: QUERIES,
      avgHits: +(hits / QUERIES).toFixed(1),
      fulltext: ft,
      baselinePrimaryKey: stats(pk),
      referenceIlikeScan: stats(ilike),
      p95VsPrimaryKey: +(ft.p95Ms / Math.max(0.01, stats(pk).p95Ms)).toFixed(1),
      targetP95Ms: 50,
      meetsTarget: ft.p95Ms <= 50,
    };
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) run().then((r) => console.log(JSON.stringify(r, null, 2)));
