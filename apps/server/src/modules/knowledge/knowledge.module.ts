import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { SafeFetcher } from '../../integrations/fetch/types.js';
import type { Storage } from '../../integrations/storage/types.js';
import { createEmbeddingsProvider } from '../../integrations/embeddings/index.js';
import type { JobQueue } from '../../jobs/types.js';
import { KnowledgeRepo } from './knowledge.repo.js';
import { knowledgeRoutes } from './knowledge.routes.js';
import { KnowledgeService, PARSE_JOB, parseQuotas, REEMBED_EVERY_MS, REEMBED_JOB } from './knowledge.service.js';

export interface KnowledgeModuleDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  jobs: JobQueue;
  /** The storage uploads use (private keys; never served as public files). */
  storage: Storage;
  fetcher: SafeFetcher;
}

/** 知识库: folders, documents and their parse jobs, full-text search over passages. */
export function createKnowledge(config: Config, d: KnowledgeModuleDeps) {
  const repo = new KnowledgeRepo(d.db);
  const embeddings = createEmbeddingsProvider(config);
  const service = new KnowledgeService(repo, d.storage, d.fetcher, d.jobs, d.clock, d.log, parseQuotas(config.KNOWLEDGE_QUOTA), embeddings);
  if (config.roles.has('worker')) {
    // Parsing is CPU-bound (pdf.js and mammoth in a bounded worker thread, jieba on this one): one document at a time per worker process.
    d.jobs.register<{ docId: number }>(PARSE_JOB, async ({ docId }) => service.parse(docId), { concurrency: 1 });
    // Documents without vectors from the configured model (a model change, a failed embed) are embedded by a sweep.
    if (embeddings.enabled) d.jobs.schedule(REEMBED_JOB, REEMBED_EVERY_MS, async () => void (await service.reembed()));
  }
  return { repo, service, embeddings };
}

export type KnowledgeModule = ReturnType<typeof createKnowledge>;

/** Routes under /api (web role). */
export async function registerKnowledge(api: FastifyInstance, m: KnowledgeModule) {
  await api.register(knowledgeRoutes({ knowledge: m.service }));
}

/** Worker role (with or without web): documents left unparsed by a stopped process are queued again. */
export function installKnowledgeRecovery(app: FastifyInstance, m: KnowledgeModule) {
  app.addHook('onReady', async () => {
    await m.service.recover().catch((err: unknown) => app.log.error({ err }, 'knowledge parse recovery failed'));
    // A changed model re-embeds the library without waiting for the first scheduled sweep.
    await m.service.queueReembed().catch((err: unknown) => app.log.error({ err }, 'knowledge re-embed could not be queued'));
  });
}
