import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { fixedDayClock, type Clock } from '../../clock.js';
import type { JobQueue } from '../../jobs/types.js';
import type { BrowserPool } from '../../browser/pool.js';
import type { AccountService } from '../publish/account.service.js';
import { DataRepo } from './data.repo.js';
import { DATA_REPORT_JOB, renderPdf } from './data.report.js';
import { dataRoutes } from './data.routes.js';
import { DataService } from './data.service.js';

export interface DataModuleDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  jobs: JobQueue;
  /** The publishing area's accounts: platforms, sessions and the expiry path. */
  accounts: AccountService;
  /** Chromium for the PDF report (used only where the publisher role runs). */
  pool: BrowserPool;
}

/** How often the snapshot tick runs (each run appends only the complete days not stored yet). */
const DATA_TICK_MS = 6 * 3600_000;

/** 数据分析: snapshots (worker role; browser-read platforms on the publisher role) and the dashboards; fills publishData of the account count. */
export function createData(config: Config, d: DataModuleDeps) {
  const repo = new DataRepo(d.db);
  // DATA_TODAY (tests and e2e only, see config.ts) pins the dashboards' today so exact figures can be asserted.
  const clock = config.DATA_TODAY ? fixedDayClock(config.DATA_TODAY, d.clock) : d.clock;
  const data = new DataService(repo, d.accounts, d.jobs, clock, d.log);
  data.registerJobs(config.roles, DATA_TICK_MS);
  if (config.roles.has('publisher')) d.jobs.register<{ html: string }>(DATA_REPORT_JOB, (p) => renderPdf(d.pool, p.html), { concurrency: 1 });
  d.accounts.usePublishData((userId) => data.publishData(userId));
  return { repo, data };
}

export type DataModule = ReturnType<typeof createData>;

/** Routes under /api. */
export async function registerData(api: FastifyInstance, m: DataModule) {
  await api.register(dataRoutes({ data: m.data }));
}
