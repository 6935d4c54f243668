import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { InvalidationBus } from '../../cache/bus.js';
import { LlmRegistry } from '../llm/llm-registry.js';
import { createSearchProvider } from '../../integrations/search/index.js';
import type { JobQueue } from '../../jobs/types.js';
import type { SessionService } from '../auth/session.service.js';
import type { DraftRepo } from '../drafts/drafts.repo.js';
import type { FileRepo } from '../files/files.repo.js';
import type { SensitiveLexicon } from '../lexicon/lexicon.service.js';
import type { UserService } from '../user/user.service.js';
import { StreamTicketService } from './stream-ticket.service.js';
import { StreamTicketRepo } from './stream-ticket.repo.js';
import { relayTaskEvents } from './task-event-relay.js';
import { TaskSignals } from './task-sink.js';
import { WritingTaskService, type PointsPort } from './task.service.js';
import { WritingRepo } from './writing.repo.js';
import { writingRoutes } from './writing.routes.js';
import { WritingService } from './writing.service.js';
import { SwitchedSearch } from './switched-search.js';
import type { SourceSwitches } from '../sources/sources.service.js';

export interface WritingModuleDeps {
  db: Db;
  key: Buffer;
  clock: Clock;
  log: FastifyBaseLogger;
  jobs: JobQueue;
  points: PointsPort;
  users: UserService;
  /** Personas tasks write as; the drafts finished articles become. */
  drafts: Pick<DraftRepo, 'persona'>;
  /** Quoted documents tasks read. */
  files: Pick<FileRepo, 'files'>;
  lexicon: SensitiveLexicon;
  /** Console changes to the models reach every process's registry through it. */
  cacheBus?: InvalidationBus;
  /** The console's switch over the configured search vendor, read at use time. */
  switches?: Pick<SourceSwitches, 'isOn'>;
}

/** The worker's sweep for tasks whose worker died (heartbeat older than STALE_MS, see task.service.ts). */
export const RECOVERY_JOB = 'writing.recover';
const SWEEP_MS = 5_000;
/**
 * How often a task's stream reads the database unwoken, at least. Every stored event wakes the streams that wait for it
 * (in this process directly, in the others over the cache bus), so the poll is only a safety net: 200 streams waiting
 * for their first text at the 250 ms default were 800 reads a second competing with the writes they waited for.
 */
const SAFETY_NET_POLL_MS = 5_000;

/** AI writing: models, search, the home page's settings, tasks and their event streams. */
export function createWriting(config: Config, d: WritingModuleDeps) {
  const llms = new LlmRegistry(d.db, d.key, config, d.cacheBus);
  const search = new SwitchedSearch(createSearchProvider(config), d.switches ?? null);
  const repo = new WritingRepo(d.db);
  const signals = new TaskSignals();
  // Embedded PGlite is locked to this process (db/client.ts): nobody else can be running its tasks.
  const exclusive = d.db instanceof PgliteDatabase;
  const tasks = new WritingTaskService(repo, d.drafts, d.files, d.points, llms, search, d.lexicon, d.jobs, signals, d.clock, d.log, exclusive);
  // Only a worker runs tasks (and sweeps for tasks whose worker died); a web-only process enqueues them for one.
  if (config.roles.has('worker')) {
    tasks.register(config.WRITING_CONCURRENCY);
    d.jobs.schedule(RECOVERY_JOB, SWEEP_MS, () => tasks.recover());
  }
  const writing = new WritingService(repo, d.users, llms, search, d.clock);
  const tickets = new StreamTicketService(new StreamTicketRepo(d.db), d.clock);
  // One process (no Redis) writes every event its streams wait for and wakes them itself; several pass the news on.
  if (d.cacheBus?.kind === 'redis') relayTaskEvents(signals, d.cacheBus);
  const streamPollMs = Math.max(config.WRITING_STREAM_POLL_MS, SAFETY_NET_POLL_MS);
  const sandboxes = [config.LLM_MODELS.length === 0 && 'llm (offline writer, not AI)', !search.enabled && 'search (none: online search not configured)'].filter(
    Boolean,
  ) as string[];
  return {
    llms,
    search,
    repo,
    signals,
    tasks,
    writing,
    tickets,
    streamPollMs,
    sandboxes,
    /** Graceful shutdown: running tasks are put back in the queue, then open event streams end (clients reconnect). */
    async shutdown() {
      await tasks.shutdown();
      signals.shutdown();
    },
  };
}

export type WritingModule = ReturnType<typeof createWriting>;

/** Routes under /api. */
export async function registerWriting(api: FastifyInstance, w: WritingModule, sessions: SessionService) {
  await api.register(writingRoutes({ writing: w.writing, tasks: w.tasks, sessions, tickets: w.tickets, repo: w.repo, signals: w.signals, pollMs: w.streamPollMs }));
}

/** Worker role: re-enqueue unfinished tasks at start-up (the periodic sweep is RECOVERY_JOB); checkpoint them on close. */
export function installWritingRecovery(app: FastifyInstance, w: WritingModule) {
  app.addHook('onReady', async () => {
    const n = await w.tasks.recover({ startup: true });
    if (n) app.log.info({ tasks: n }, 'writing tasks recovered');
  });
  // Also covers callers that close the app without main.ts's shutdown sequence (it is idempotent).
  app.addHook('preClose', async () => {
    await w.shutdown();
  });
}
