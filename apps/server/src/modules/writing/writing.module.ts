import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { LlmRegistry } from '../llm/llm-registry.js';
import { createSearchProvider } from '../../integrations/search/index.js';
import { LocalStorage } from '../../integrations/storage/local.js';
import { createStorage } from '../../integrations/storage/index.js';
import type { Storage } from '../../integrations/storage/types.js';
import type { JobQueue } from '../../jobs/types.js';
import type { SessionService } from '../auth/session.service.js';
import type { UserService } from '../user/user.service.js';
import { FileService } from './file.service.js';
import { SensitiveLexicon } from './lexicon.js';
import { StreamTicketService } from './stream-ticket.service.js';
import { TaskSignals } from './task-sink.js';
import { WritingTaskService, type PointsPort } from './task.service.js';
import { WritingRepo } from './writing.repo.js';
import { writingRoutes } from './writing.routes.js';
import { WritingService } from './writing.service.js';

export interface WritingModuleDeps {
  db: Db;
  key: Buffer;
  clock: Clock;
  log: FastifyBaseLogger;
  jobs: JobQueue;
  points: PointsPort;
  users: UserService;
  /** null in tests: files go to a temporary directory removed on close. */
  dataDir: string | null;
}

/** The worker's sweep for tasks whose worker died (heartbeat older than STALE_MS, see task.service.ts). */
export const RECOVERY_JOB = 'writing.recover';
const SWEEP_MS = 5_000;

/** AI writing: models, search, storage, tasks and their streams, drafts, personas, files. */
export function createWriting(config: Config, d: WritingModuleDeps) {
  const s3 = config.STORAGE_PROVIDER === 's3';
  const tempDir = d.dataDir || s3 ? null : mkdtempSync(path.join(tmpdir(), 'inkstone-files-'));
  const storage: Storage = s3 ? createStorage(config) : new LocalStorage(d.dataDir ?? tempDir!);
  const llms = new LlmRegistry(d.db, d.key, config);
  const search = createSearchProvider(config);
  const repo = new WritingRepo(d.db);
  const lexicon = new SensitiveLexicon(d.db);
  const signals = new TaskSignals();
  // Embedded PGlite is locked to this process (db/client.ts): nobody else can be running its tasks.
  const exclusive = d.db instanceof PgliteDatabase;
  const tasks = new WritingTaskService(repo, d.points, llms, search, lexicon, d.jobs, signals, d.clock, d.log, exclusive);
  // Only a worker runs tasks (and sweeps for tasks whose worker died); a web-only process enqueues them for one.
  if (config.roles.has('worker')) {
    tasks.register(config.WRITING_CONCURRENCY);
    d.jobs.schedule(RECOVERY_JOB, SWEEP_MS, () => tasks.recover());
  }
  const writing = new WritingService(repo, d.users, llms, search, d.clock);
  const files = new FileService(repo, storage, d.log);
  const tickets = new StreamTicketService(d.db, d.clock);
  const sandboxes = [
    config.LLM_MODELS.length === 0 && 'llm (offline writer, not AI)',
    !search.enabled && 'search (none: online search not configured)',
  ].filter(Boolean) as string[];
  return {
    llms, search, storage, repo, lexicon, signals, tasks, writing, files, tickets, sandboxes,
    /** Graceful shutdown: running tasks are put back in the queue, then open event streams end (clients reconnect). */
    async shutdown() {
      await tasks.shutdown();
      signals.shutdown();
    },
    close() {
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    },
  };
}

export type WritingModule = ReturnType<typeof createWriting>;

/** Routes under /api. */
export async function registerWriting(api: FastifyInstance, w: WritingModule, sessions: SessionService, config: Config) {
  await api.register(writingRoutes({ writing: w.writing, tasks: w.tasks, files: w.files, sessions, tickets: w.tickets, repo: w.repo, signals: w.signals, pollMs: config.WRITING_STREAM_POLL_MS }));
}

/** Uploaded images under /uploads/ (public keys only; quoted documents are never served). */
export async function registerUploads(app: FastifyInstance, w: WritingModule) {
  // With S3 the bucket serves public objects itself.
  if (!(w.storage instanceof LocalStorage)) return;
  await app.register(fastifyStatic, {
    root: w.storage.publicRoot,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    setHeaders: (reply) => {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
    },
  });
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
