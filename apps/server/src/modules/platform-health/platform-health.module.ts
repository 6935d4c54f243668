import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { InvalidationBus } from '../../cache/bus.js';
import type { BrowserPool } from '../../browser/pool.js';
import type { PlatformRegistry } from '../../integrations/platforms/index.js';
import type { AdminModule } from '../admin/admin.module.js';
import type { AccountService } from '../publish/account.service.js';
import { PlatformCanary } from './canary.service.js';
import { PlatformHealthRepo } from './platform-health.repo.js';
import { platformHealthRoutes } from './platform-health.routes.js';
import { PlatformHealthService } from './platform-health.service.js';
import { SiteProfiles } from './site-profiles.js';
import { StepFailures } from './step-failures.service.js';

/**
 * The operators' site-profile overrides, as the platform adapters read them (`SiteProfileSource`). Built before
 * publishing (the adapters take it); `load()` it once before serving.
 */
export function createSiteProfiles(d: { db: Db; cacheBus: InvalidationBus | null; log: Pick<FastifyBaseLogger, 'warn'> }): SiteProfiles {
  return new SiteProfiles(new PlatformHealthRepo(d.db), d.cacheBus, d.log);
}

export interface PlatformHealthDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  admin: AdminModule;
  profiles: SiteProfiles;
  /** The platforms offered (their built-in profiles), their accounts and sessions, the pool saving screenshots. */
  platforms: PlatformRegistry;
  accounts: AccountService;
  pool: Pick<BrowserPool, 'saveScreenshot'>;
}

/** 平台健康: step failures and their diagnostics, the versioned overrides, the canary. */
export function createPlatformHealth(d: PlatformHealthDeps) {
  const repo = new PlatformHealthRepo(d.db);
  const failures = new StepFailures(repo, d.pool, d.profiles, d.clock, d.log);
  const service = new PlatformHealthService(d.db, repo, d.platforms, d.profiles, d.admin.audit, d.clock);
  const canary = new PlatformCanary(d.accounts, d.profiles, failures, d.log);
  return { routes: d.admin.routes, profiles: d.profiles, failures, service, canary };
}

export type PlatformHealthModule = ReturnType<typeof createPlatformHealth>;

/** Console routes under /api/admin/platform-health (after registerAdmin, which checks every console route's role). */
export async function registerPlatformHealth(api: FastifyInstance, m: PlatformHealthModule) {
  await api.register(platformHealthRoutes(m.routes, m.service));
}
