import type { Logger } from 'pino';
import { Redis } from 'ioredis';
import { ConfigError, type Config } from './config.js';
import { checkSandboxes } from './sandbox-guard.js';
import { createLogger } from './logger.js';
import { openDatabase, type DbHandle } from './db/client.js';
import { resolveSecretKey } from './security/secret-key.js';
import { systemClock, type Clock } from './clock.js';
import { createSmsSender } from './integrations/sms/index.js';
import { createWechatLogin } from './integrations/wechat/index.js';
import { createJobQueue } from './jobs/index.js';
import { UserRepo } from './modules/user/user.repo.js';
import { UserService } from './modules/user/user.service.js';
import { AuthRepo } from './modules/auth/auth.repo.js';
import { SessionService } from './modules/auth/session.service.js';
import { SmsCodeService } from './modules/auth/sms-code.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { createPaymentGateways } from './integrations/payment/index.js';
import { PointsService } from './modules/vip/points.service.js';
import { CatalogueService } from './modules/vip/catalogue.service.js';
import { VipService } from './modules/vip/vip.service.js';
import { OrderService } from './modules/vip/order.service.js';
import { CodeService } from './modules/vip/code.service.js';
import { ActivityService } from './modules/vip/activity.service.js';
import { NoticeRepo } from './modules/notice/notice.repo.js';
import { NoticeService } from './modules/notice/notice.service.js';
import { PersonalNotices } from './modules/notice/personal-notices.js';
import { FeedbackService } from './modules/feedback/feedback.service.js';
import { FlagsService } from './modules/flags/flags.service.js';
import { RecallRepo } from './modules/activity/recall.repo.js';
import { RecallService } from './modules/activity/recall.service.js';
import { createPublishing } from './modules/publish/publish.module.js';
import { createWriting } from './modules/writing/writing.module.js';
import { createSafeFetch } from './integrations/fetch/index.js';
import { createGraphic } from './modules/graphic/graphic.module.js';
import { createTopic } from './modules/topic/topic.module.js';
import { createKnowledge } from './modules/knowledge/knowledge.module.js';

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
  const flags = FlagsService.fromConfig(config);
  // Also before anything is opened: sandboxes on a public production address stop start-up (sandbox-guard.ts).
  const sandboxVerdict = checkSandboxes(config);
  if (sandboxVerdict.kind === 'refuse') throw new ConfigError(sandboxVerdict.message);
  if (sandboxVerdict.kind === 'demo') log.warn(sandboxVerdict.message);
  const database = opts.database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }));
  const { db } = database;
  const key = resolveSecretKey(config.APP_SECRET_KEY, opts.database ? null : config.DATA_DIR, (m) => log.warn(m));
  const publicUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false }) : null;
  const jobs = createJobQueue(config.REDIS_URL, config.REDIS_PREFIX, log);

  const sms = createSmsSender(config, db, log);
  const wechat = createWechatLogin(config, publicUrl);

  const userRepo = new UserRepo(db);
  const users = new UserService(userRepo, clock, true);
  const sessions = new SessionService(db, clock);
  const codes = new SmsCodeService(db, sms, key, clock, log);

  const payments = createPaymentGateways(config, { publicUrl, key, clock });
  const points = new PointsService(db, clock);
  const catalogue = new CatalogueService(db);
  const vip = new VipService(db, users, clock);
  const noticeRepo = new NoticeRepo(db);
  const personalNotices = new PersonalNotices(noticeRepo, clock, log);
  const orders = new OrderService(db, payments, catalogue, points, vip, clock, log, {
    ttlMs: config.PAY_ORDER_TTL_MINUTES * 60_000,
    queryIntervalMs: 5000,
    publicUrl,
    onPaid: (order, tx) => personalNotices.orderPaid(order, tx),
  });
  const redeemCodes = new CodeService(db, points, vip, clock);
  const activity = new ActivityService(db, points, users, clock, config.WELCOME_POINTS);
  const auth = new AuthService(db, new AuthRepo(db), userRepo, users, codes, sessions, wechat, key, clock, (userId, tx) => activity.grantWelcome(userId, tx));
  const notices = new NoticeService(noticeRepo, clock);
  const recall = new RecallService(new RecallRepo(db), clock);

  // One SSRF-safe client for every URL a user supplies; storage comes from writing, which owns uploads.
  const fetcher = createSafeFetch(config);
  const writing = createWriting(config, { db, key, clock, log, jobs, points, users, dataDir: opts.database ? null : config.DATA_DIR });
  const publishing = createPublishing(config, {
    db,
    key,
    clock,
    log,
    jobs,
    publicUrl,
    dataDir: opts.database ? null : config.DATA_DIR,
    storage: writing.storage,
    fetcher,
    notify: personalNotices.notify,
  });
  const graphic = createGraphic({ storage: writing.storage, files: writing.repo, log });
  const feedback = new FeedbackService(db, writing.storage, personalNotices, clock);
  const topic = createTopic(config, { db, clock, log, jobs, points, llms: writing.llms, fetcher });
  const knowledge = createKnowledge(config, { db, clock, log, jobs, storage: writing.storage, fetcher });
  writing.tasks.useKnowledge(knowledge.service);

  const sandboxes = [sms.sandbox && 'sms (outbox)', wechat.sandbox && 'wechat login (sandbox scan page)', payments.sandbox && 'payment (sandbox pay page)', publishing.sandbox && 'publishing (sandbox creator platform)'].filter(Boolean) as string[];
  sandboxes.push(...writing.sandboxes, ...topic.sandboxes);

  return {
    config,
    log,
    clock,
    database,
    db,
    key,
    publicUrl,
    redis,
    jobs,
    integrations: { sms, wechat, payments, fetcher },
    sandboxes,
    /** A public demo (ALLOW_SANDBOXES=1): the web shows 演示环境. */
    demo: sandboxVerdict.kind === 'demo',
    publishing,
    writing,
    graphic,
    topic,
    knowledge,
    services: { users, sessions, codes, auth, notices, personalNotices, feedback, flags, recall, points, catalogue, vip, orders, redeemCodes, activity },
    /** Runs queued jobs and schedules only where the worker or publisher role runs; a web-only process just enqueues. */
    async startJobs() {
      if (config.roles.has('worker') || config.roles.has('publisher')) await jobs.start();
    },
    async close() {
      await jobs.close();
      await publishing.close();
      writing.close();
      await fetcher.close();
      redis?.disconnect();
      await database.close();
    },
  };
}
