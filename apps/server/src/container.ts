import { createMaterialSearch } from './integrations/materials/index.js';
import { createAdmin } from './modules/admin/admin.module.js';
import { createAdminConsole } from './modules/admin/admin-console.module.js';
import type { Logger } from 'pino';
import type { SiteProfileSource } from './integrations/platforms/site-steps.js';
import { ConfigError, type Config } from './config.js';
import { checkSandboxes } from './sandbox-guard.js';
import { createLogger } from './logger.js';
import { openDatabase, type DbHandle } from './db/client.js';
import { resolveSecretKey } from './security/secret-key.js';
import { systemClock, type Clock } from './clock.js';
import { createSmsSender } from './integrations/sms/index.js';
import { createWechatLogin } from './integrations/wechat/index.js';
import { createJobQueue } from './jobs/index.js';
import { createUser, type UserModule } from './modules/user/user.module.js';
import { createAuth, type AuthModule } from './modules/auth/auth.module.js';
import { createPaymentGateways } from './integrations/payment/index.js';
import { createVip, type VipModule } from './modules/vip/vip.module.js';
import { createNotice, type NoticeModule } from './modules/notice/notice.module.js';
import { createInvalidationBus } from './cache/bus.js';
import { createFeedback, type FeedbackModule } from './modules/feedback/feedback.module.js';
import { createFlags, flagAttributes, type FlagsModule } from './modules/flags/flags.module.js';
import { createActivity, type ActivityModule } from './modules/activity/activity.module.js';
import { createPublishing } from './modules/publish/publish.module.js';
import { createData } from './modules/data/data.module.js';
import { createWriting } from './modules/writing/writing.module.js';
import { createFiles } from './modules/files/files.module.js';
import { createDrafts } from './modules/drafts/drafts.module.js';
import { createSources } from './modules/sources/sources.module.js';
import { createLexicon } from './modules/lexicon/lexicon.module.js';
import { createSafeFetch } from './integrations/fetch/index.js';
import { createGraphic } from './modules/graphic/graphic.module.js';
import { createImageGenerator } from './integrations/imagegen/index.js';
import { createTopic } from './modules/topic/topic.module.js';
import { createKnowledge } from './modules/knowledge/knowledge.module.js';
import { createAgent } from './modules/agent/agent.module.js';
import { createPlatformHealth, createSiteProfiles } from './modules/platform-health/platform-health.module.js';

export interface ContainerOptions {
  clock?: Clock;
  logger?: Logger;
  /** Tests pass an already opened database (PGlite in memory or a fresh PostgreSQL database). */
  database?: DbHandle;
}

export type Container = Awaited<ReturnType<typeof createContainer>>;

/** Wires everything once, by explicit constructor arguments. */
export async function createContainer(config: Config, opts: ContainerOptions = {}) {
  const log = opts.logger ?? createLogger(config);
  const clock = opts.clock ?? systemClock;
  // Before anything is opened: a bad FEATURES_FILE stops start-up with nothing to clean up.
  const flags = createFlags(config);
  // Also before anything is opened: sandboxes on a public production address stop start-up (sandbox-guard.ts).
  const sandboxVerdict = checkSandboxes(config);
  if (sandboxVerdict.kind === 'refuse') throw new ConfigError(sandboxVerdict.message);
  if (sandboxVerdict.kind === 'demo') log.warn(sandboxVerdict.message);
  const infra = await openInfrastructure(config, opts, log);
  const { database, redis, jobs, cacheBus } = infra;
  const integrations = await createIntegrations(config, infra, clock, log);
  // The operators' site-profile overrides (平台健康), read by the platform adapters at every use: before publishing.
  const siteProfiles = createSiteProfiles({ db: infra.db, cacheBus, log });
  await siteProfiles.load();
  const base: ModuleBase = { ...infra, clock, log, dataDir: opts.database ? null : config.DATA_DIR, siteProfiles };
  const account = createAccountModules(config, base, integrations);
  const content = createContentModules(config, base, integrations, account);
  const { user, notice, vip, auth, activity } = account;
  const { publishing, files, feedback } = content;
  // Flags are targeted on what only the server knows (full phone, VIP, tracks, bound platforms).
  flags.flags.useAttributes(flagAttributes({ users: user.users, platforms: async (id) => (await publishing.repo.countAccounts(id)).map((r) => r.platform) }));
  // The operators' console: roles, recent verification and the audit log over the account modules.
  const admin = createAdmin(config, { db: infra.db, clock, codes: auth.codes, sessions: auth.sessions, vip });
  const adminConsole = createAdminConsole({
    admin,
    vip,
    notice,
    db: infra.db,
    clock,
    jobs,
    llms: content.writing.llms,
    lexicon: content.lexicon.lexicon,
    search: content.writing.search,
    imagegen: content.graphic.imagegen,
    topics: content.topic.service,
    switches: content.sources.switches,
    flags: { file: config.FEATURES_FILE ?? null, payload: flags.flags.payload },
  });
  const platformHealth = createPlatformHealth({
    db: infra.db,
    clock,
    log,
    admin,
    profiles: siteProfiles,
    platforms: publishing.platforms,
    accounts: publishing.accounts,
    pool: publishing.pool,
  });
  publishing.publishing.useStepFailures(platformHealth.failures);
  publishing.binding.useStepFailures(platformHealth.failures);

  return {
    config,
    log,
    clock,
    ...infra,
    integrations,
    sandboxes: sandboxesOf(integrations, content),
    /** A public demo (ALLOW_SANDBOXES=1): the web shows 演示环境. */
    demo: sandboxVerdict.kind === 'demo',
    flags,
    ...account,
    ...content,
    admin,
    adminConsole,
    platformHealth,
    /** Shortcuts to the modules' services, for the admin CLI and tests. */
    services: serviceShortcuts({ user, notice, vip, auth, activity, feedback, flags }),
    /** Runs queued jobs and schedules only where the worker or publisher role runs; a web-only process just enqueues. */
    async startJobs() {
      if (config.roles.has('worker') || config.roles.has('publisher')) await jobs.start();
    },
    async close() {
      await jobs.close();
      // After the jobs: no task or agent turn is reading a model any more.
      await content.writing.llms.close();
      await publishing.close();
      files.close();
      await integrations.fetcher.close();
      // The WeChat Pay certificate refresh timer.
      await integrations.payments.close();
      await cacheBus.close();
      // quit, not disconnect: what is still in flight is sent first (a cache invalidation the admin CLI has just
      // published would otherwise never reach the running servers).
      if (redis) await redis.quit().catch(() => redis.disconnect());
      await database.close();
    },
  };
}

type Infrastructure = Awaited<ReturnType<typeof openInfrastructure>>;
type Integrations = Awaited<ReturnType<typeof createIntegrations>>;
/** What every module may be handed: the infrastructure, the clock, the logger, and where files live (null in tests). */
type ModuleBase = Infrastructure & { clock: Clock; log: Logger; dataDir: string | null; siteProfiles: SiteProfileSource };

/** Integrations the modules are handed (the start banner lists the sandboxes among them). */
async function createIntegrations(config: Config, { db, key, publicUrl }: Infrastructure, clock: Clock, log: Logger) {
  const sms = createSmsSender(config, db, log);
  const wechat = createWechatLogin(config, publicUrl);
  const payments = await createPaymentGateways(config, { publicUrl, key, clock, log });
  // One SSRF-safe client for every URL a user supplies.
  const fetcher = createSafeFetch(config);
  return { sms, wechat, payments, fetcher };
}

/** Users, notices, points and VIP, login, activity: each built by its <area>.module.ts, in dependency order. */
function createAccountModules(config: Config, b: ModuleBase, { sms, wechat, payments }: Integrations) {
  const { db, key, clock, log, jobs, publicUrl, cacheBus } = b;
  const user = createUser({ db, clock, downloadUrl: config.APP_DOWNLOAD_URL ?? null });
  const { users } = user;
  const notice = createNotice({ db, clock, log, cacheBus, cacheMaxEntries: config.CACHE_MAX_ENTRIES });
  const vip = createVip(config, { db, clock, log, jobs, publicUrl, payments, users, cacheBus, onPaid: (order, tx) => notice.personal.orderPaid(order, tx) });
  const auth = createAuth({
    db,
    key,
    clock,
    log,
    sms,
    wechat,
    userRepo: user.repo,
    users,
    onRegistered: (userId, tx) => vip.activity.grantWelcome(userId, tx),
    cacheBus,
    cacheMaxEntries: config.CACHE_MAX_ENTRIES,
  });
  const activity = createActivity({ db, clock });
  return { user, notice, vip, auth, activity };
}

/** Files, drafts, writing, publishing and the areas built on them, in dependency order; app.ts registers their routes. */
function createContentModules(config: Config, b: ModuleBase, { fetcher }: Integrations, { user, notice, vip }: ReturnType<typeof createAccountModules>) {
  const { db, key, clock, log, jobs, publicUrl, cacheBus, dataDir, siteProfiles } = b;
  const { users } = user;
  const { points } = vip;
  // Files owns uploads: its storage serves publishing, graphic posts, feedback screenshots and knowledge files.
  const files = createFiles(config, { db, log, dataDir });
  const { storage } = files;
  const drafts = createDrafts({ db, clock });
  const lexicon = createLexicon({ db, cacheBus });
  const sources = createSources({ db, cacheBus });
  const writing = createWriting(config, {
    db,
    key,
    clock,
    log,
    jobs,
    points,
    users,
    drafts: drafts.repo,
    files: files.repo,
    lexicon: lexicon.lexicon,
    cacheBus,
    switches: sources.switches,
  });
  const publishing = createPublishing(config, {
    db,
    key,
    clock,
    log,
    jobs,
    publicUrl,
    dataDir,
    storage,
    fetcher,
    notify: notice.personal.notify,
    cacheBus,
    profiles: siteProfiles,
  });
  const imagegen = createImageGenerator(config, fetcher);
  const graphic = createGraphic({
    db,
    storage,
    files: files.repo,
    drafts: drafts.repo,
    tasks: writing.repo,
    imagegen,
    switches: sources.switches,
    materials: createMaterialSearch(config, fetcher),
    points,
    lexicon: lexicon.lexicon,
    clock,
    log,
  });
  writing.tasks.useGraphic(graphic.notes);
  publishing.publishing.useGraphic(graphic.notes);
  const data = createData(config, { db, clock, log, jobs, accounts: publishing.accounts, pool: publishing.pool });
  const feedback = createFeedback({ db, clock, storage, notices: notice.personal });
  const topic = createTopic(config, { db, clock, log, jobs, points, llms: writing.llms, fetcher, lexicon: lexicon.lexicon, personas: drafts.repo, switches: sources.switches });
  const knowledge = createKnowledge(config, { db, clock, log, jobs, storage, fetcher });
  writing.tasks.useKnowledge(knowledge.service);
  // The agent's tools are the services the pages use, so ownership checks and charges stay theirs.
  const agent = createAgent(config, {
    db,
    clock,
    log,
    jobs,
    points,
    llms: writing.llms,
    lexicon: lexicon.lexicon,
    ports: { topics: topic.service, knowledge: knowledge.service, tasks: writing.tasks, drafts: drafts.drafts, accounts: publishing.accounts, publishing: publishing.publishing },
  });
  return { feedback, publishing, files, drafts, lexicon, sources, writing, graphic, topic, knowledge, data, agent };
}

/** The embedded stand-ins this process runs on, for the start banner and /healthz. */
function sandboxesOf({ sms, wechat, payments }: Integrations, { publishing, writing, topic }: ReturnType<typeof createContentModules>): string[] {
  const sandboxes = [
    sms.sandbox && 'sms (outbox)',
    wechat.sandbox && 'wechat login (sandbox scan page)',
    payments.sandbox && 'payment (sandbox pay page)',
    publishing.sandbox && 'publishing (sandbox creator platform)',
  ].filter(Boolean) as string[];
  return [...sandboxes, ...writing.sandboxes, ...topic.sandboxes];
}

/** Database, secret key, Redis, job queue and cache bus: what the modules are built on. */
async function openInfrastructure(config: Config, opts: ContainerOptions, log: Logger) {
  const database = opts.database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }));
  const { db } = database;
  const key = resolveSecretKey(config.APP_SECRET_KEY, opts.database ? null : config.DATA_DIR, (m) => log.warn(m));
  const publicUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  // ioredis is loaded only when Redis is configured (see createJobQueue).
  const redis = config.REDIS_URL ? new (await import('ioredis')).Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false }) : null;
  // Without a listener ioredis reports each failed reconnect as an unhandled error event; /readyz reports the outage.
  redis?.on('error', (err: Error) => log.warn({ err: err.message }, 'redis connection error'));
  // With the roles: registering a job another role owns is a wiring bug and stops start-up (jobs/roles.ts).
  const jobs = await createJobQueue(config.REDIS_URL, config.REDIS_PREFIX, log, config.roles);
  // In-process caches (sessions, notice bubble) drop entries on writes in any process through this bus.
  const cacheBus = createInvalidationBus(redis, config.REDIS_PREFIX, log);
  return { database, db, key, publicUrl, redis, jobs, cacheBus };
}

/** Short names for module services, for the admin CLI and tests. */
function serviceShortcuts(m: { user: UserModule; notice: NoticeModule; vip: VipModule; auth: AuthModule; activity: ActivityModule; feedback: FeedbackModule; flags: FlagsModule }) {
  return {
    users: m.user.users,
    sessions: m.auth.sessions,
    codes: m.auth.codes,
    auth: m.auth.auth,
    notices: m.notice.notices,
    personalNotices: m.notice.personal,
    feedback: m.feedback.feedback,
    flags: m.flags.flags,
    recall: m.activity.recall,
    points: m.vip.points,
    catalogue: m.vip.catalogue,
    vip: m.vip.vip,
    orders: m.vip.orders,
    redeemCodes: m.vip.redeemCodes,
    activity: m.vip.activity,
  };
}
