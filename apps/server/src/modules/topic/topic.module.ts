import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { SafeFetcher } from '../../integrations/fetch/types.js';
import type { LlmRegistry } from '../llm/llm-registry.js';
import type { SourceSwitches } from '../sources/sources.service.js';
import { createFeedSource, createTrendSources, SNAPSHOT_DATE } from '../../integrations/trends/index.js';
import type { JobQueue } from '../../jobs/types.js';
import type { PointsService } from '../vip/points.service.js';
import type { TopicServiceDeps } from './topic.service.js';
import { TopicRepo } from './topic.repo.js';
import { topicRoutes } from './topic.routes.js';
import { TopicService } from './topic.service.js';

export const REFRESH_JOB = 'topic.refresh';
/** How often the refresh job runs; each source's own minimum interval still decides whether it is fetched. */
export const REFRESH_EVERY_MS = 10 * 60_000;

export interface TopicModuleDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  jobs: JobQueue;
  points: PointsService;
  llms: LlmRegistry;
  fetcher: SafeFetcher;
  /** The sensitive lexicon (933), shared so lexicon:add applies to angles at once. */
  lexicon: TopicServiceDeps['lexicon'];
  /** Personas (modules/drafts), for angles in the user's voice. */
  personas: TopicServiceDeps['personas'];
  /** The console's switches over TRENDS_SOURCES (modules/sources). */
  switches?: Pick<SourceSwitches, 'off'>;
}

/** 选题: tracks, hot topics from the trends sources, collections, angles, divergent maps. */
export function createTopic(config: Config, d: TopicModuleDeps) {
  const sources = createTrendSources(config.TRENDS_SOURCES, d.fetcher);
  const repo = new TopicRepo(d.db);
  const service = new TopicService(repo, sources, d.points, d.llms, d.clock, d.log, {
    feedSource: (row) => createFeedSource(d.fetcher, row.url, { name: row.name, track: row.track }),
    lexicon: d.lexicon,
    personas: d.personas,
    ...(d.switches ? { switchedOff: () => d.switches!.off('trends') } : {}),
  });
  // A scheduled job: with several worker processes (BullMQ) each tick runs on one of them.
  if (config.roles.has('worker')) d.jobs.schedule(REFRESH_JOB, REFRESH_EVERY_MS, () => service.refreshOnce());
  const live = sources.filter((s) => s.live);
  const sandboxes = live.length ? [] : [`trends (bundled snapshot dated ${SNAPSHOT_DATE}, not live)`];
  return { repo, service, sources, sandboxes };
}

export type TopicModule = ReturnType<typeof createTopic>;

/** Routes under /api. */
export async function registerTopic(api: FastifyInstance, m: TopicModule) {
  await api.register(topicRoutes({ topic: m.service }));
}

/** Worker role: the first refresh shortly after start-up (so start-up stays fast), then every REFRESH_EVERY_MS. */
export function installTopicJobs(app: FastifyInstance, jobs: JobQueue, firstDelayMs = 30_000) {
  app.addHook('onReady', async () => {
    await jobs.enqueue(REFRESH_JOB, {}, { jobId: 'startup', runAt: new Date(Date.now() + firstDelayMs) });
  });
}
