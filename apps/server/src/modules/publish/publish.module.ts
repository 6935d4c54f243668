import path from 'node:path';
import { PgliteDatabase } from 'drizzle-orm/pglite';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { JobQueue } from '../../jobs/types.js';
import type { Notify } from '../notice/personal-notices.js';
import type { UnreadCountsReply } from '@inkstone/shared';
import type { InvalidationBus } from '../../cache/bus.js';
import { InvalidatingCache } from '../../cache/invalidating-cache.js';
import { BrowserPool } from '../../browser/pool.js';
import { createPlatforms } from '../../integrations/platforms/index.js';
import { ImageLoader } from '../../integrations/platforms/images.js';
import type { SafeFetcher } from '../../integrations/fetch/types.js';
import type { Storage } from '../../integrations/storage/types.js';
import { SandboxSite } from '../../integrations/platforms/sandbox-site.js';
import type { SiteProfileSource } from '../../integrations/platforms/site-steps.js';
import { AccountService } from './account.service.js';
import { BindingService } from './binding.service.js';
import { EngagementService } from './engagement.service.js';
import { PublishRepo } from './publish.repo.js';
import { PublishService } from './publish.service.js';
import { PacingService } from './pacing.service.js';
import { publishApiRoutes, publishRoutes } from './publish.routes.js';

export interface PublishingDeps {
  db: Db;
  key: Buffer;
  clock: Clock;
  log: FastifyBaseLogger;
  jobs: JobQueue;
  publicUrl: string;
  /** Null when the database was handed in (tests): nothing is written under DATA_DIR but screenshots. */
  dataDir: string | null;
  /** Where uploaded images live: content images under `/uploads/` are read from here, never fetched. */
  storage: Storage | null;
  /** The SSRF-safe client for every other image URL a user supplies. */
  fetcher: SafeFetcher;
  /** Personal notices (publish outcome, new intent comments, a lapsed platform login). */
  notify: Notify;
  /** Carries account writes to every process's cached unread counts; without it the poll reads the database. */
  cacheBus?: InvalidationBus;
  /** The operators' overrides of the creator sites' locators (平台健康), read by the adapters at every use. */
  profiles?: SiteProfileSource;
}

/** Wires the publishing area: browser pool, platforms (with the embedded sandbox site), services and jobs. */
export function createPublishing(config: Config, deps: PublishingDeps) {
  const runtime = { sandboxBaseUrl: config.SANDBOX_PLATFORM_URL ?? (null as string | null) };
  const pool = new BrowserPool({
    executablePath: config.CHROMIUM_PATH,
    maxConcurrent: config.BROWSER_MAX_CONTEXTS,
    idleMs: config.BROWSER_IDLE_MS,
    screenshotDir: path.resolve(config.DATA_DIR, 'publish-screenshots'),
    log: deps.log,
    // Only a publisher starts Chromium; elsewhere browser work is relayed to one (account.service.ts).
    canLaunch: config.roles.has('publisher'),
    headful: config.BROWSER_HEADFUL,
    display: config.DISPLAY,
  });
  const sandboxSite = config.PUBLISH_PLATFORMS.includes('sandbox') ? new SandboxSite(deps.publicUrl, deps.dataDir) : null;
  // Every process serving the product serves the sandbox site too (even when SANDBOX_PLATFORM_URL points the
  // publisher's browser at another of them), so links users see are paths on whichever host they opened.
  const platforms = createPlatforms(config, { pool, sandboxBaseUrl: () => runtime.sandboxBaseUrl ?? deps.publicUrl, sandboxSameServer: true, profiles: deps.profiles });
  // The per-account unread poll (every 15 s per bound account) answers from memory; every write to an account drops it.
  const unreadCache = deps.cacheBus
    ? new InvalidatingCache<number, { userId: number | null; platform: string | null; unread: UnreadCountsReply | null }>(deps.cacheBus, 'account-unread', {
        max: config.CACHE_MAX_ENTRIES,
        ttlMs: 10 * 60_000,
        parse: Number,
      })
    : null;
  const repo = new PublishRepo(deps.db, (id) => unreadCache?.invalidate(id));
  const holder: { engagement?: EngagementService } = {};
  // Browser logins are relayed through the queue unless this one process does everything (in-process queue).
  const publisherHere = config.roles.has('publisher');
  const relay = !publisherHere || deps.jobs.kind === 'bullmq' ? { jobs: deps.jobs, publisherHere } : null;
  const accounts = new AccountService(repo, platforms, deps.key, deps.clock, deps.log, deps.notify, relay, unreadCache);
  const pacing = new PacingService(repo, accounts, platforms, deps.clock, config.PUBLISH_PACING);
  const binding = new BindingService(repo, accounts, deps.key, deps.clock, deps.log, async (id) => holder.engagement?.queueSync(id), relay);
  const publishing = new PublishService(
    repo,
    accounts,
    deps.jobs,
    pool,
    deps.clock,
    deps.log,
    {
      maxAttempts: config.PUBLISH_MAX_ATTEMPTS,
      backoffMs: config.PUBLISH_RETRY_BACKOFF_MS,
      images: new ImageLoader({ fetcher: deps.fetcher, storage: deps.storage, ownOrigins: [deps.publicUrl] }),
      exclusive: deps.db instanceof PgliteDatabase,
      pacing,
    },
    deps.notify,
  );
  const engagement = new EngagementService(repo, accounts, deps.jobs, deps.clock, deps.log, deps.notify);
  holder.engagement = engagement;
  // Browser work runs where the publisher role runs.
  if (config.roles.has('publisher')) {
    accounts.registerJobs(deps.jobs);
    binding.registerJobs(deps.jobs);
    publishing.registerJobs(config.BROWSER_MAX_CONTEXTS);
    engagement.registerJobs(config.PUBLISH_ENGAGEMENT_INTERVAL_MS);
  }
  return {
    pool,
    sandboxSite,
    platforms,
    repo,
    accounts,
    binding,
    publishing,
    pacing,
    engagement,
    runtime,
    sandbox: sandboxSite !== null,
    async close() {
      await pool.close();
    },
  };
}

export type Publishing = ReturnType<typeof createPublishing>;

/** Routes (`/publish-api/*`, the `/api` account calls, the sandbox site; web role) and the publisher's start-up work. */
export async function registerPublishing(app: FastifyInstance, config: Config, p: Publishing): Promise<void> {
  if (config.roles.has('web')) {
    const deps = { accounts: p.accounts, binding: p.binding, publishing: p.publishing, pacing: p.pacing, engagement: p.engagement };
    await app.register(publishApiRoutes(deps), { prefix: '/publish-api' });
    await app.register(publishRoutes(deps), { prefix: '/api' });
    if (p.sandboxSite) await app.register(p.sandboxSite.routes({ hooks: config.NODE_ENV === 'test' || config.SANDBOX_HOOKS }));
    // Without the web role this process serves no sandbox site: the browser goes to PUBLIC_URL (a web process).
    app.addHook('onListen', async () => {
      if (p.runtime.sandboxBaseUrl) return;
      const address = app.server.address();
      if (typeof address === 'object' && address) p.runtime.sandboxBaseUrl = `http://127.0.0.1:${address.port}`;
    });
  }
  if (config.roles.has('publisher')) {
    app.addHook('onReady', async () => {
      const n = await p.publishing.recover({ startup: true });
      if (n) app.log.info({ jobs: n }, 'publish jobs re-queued after restart');
    });
  }
}
