import './http/zod-setup.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ErrorCode, limits } from '@inkstone/shared';
import type { Container } from './container.js';
import { lazyChildLogger, POLLED_ROUTES, RequestLogController } from './logger.js';
import { installErrorHandler } from './http/error-handler.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { installAuthGuard } from './http/auth-guard.js';
import { HotLane } from './http/hot-lane.js';
import { RateLimitStores } from './http/rate-limit-stores.js';
import { requestIdOf } from './http/request-id.js';
import { frameworkErrorOptions, installClosingGuard } from './http/framework-errors.js';
import { installConnectionDrain } from './http/connection-drain.js';
import { installInputGuard, jsonDepthOver, maxJsonDepth, tooDeep } from './http/input-guard.js';
import { openApiTransform } from './http/openapi.js';
import { AppError } from './http/errors.js';
import { fail } from './http/envelope.js';
import { registerAuth } from './modules/auth/auth.module.js';
import { registerUser } from './modules/user/user.module.js';
import { registerNotice } from './modules/notice/notice.module.js';
import { installNoticeJobs } from './modules/notice/notice.jobs.js';
import { registerFeedback } from './modules/feedback/feedback.module.js';
import { registerFlags } from './modules/flags/flags.module.js';
import { registerActivity } from './modules/activity/activity.module.js';
import { registerVip } from './modules/vip/vip.module.js';
import { registerPublishing } from './modules/publish/publish.module.js';
import { installWritingRecovery, registerWriting } from './modules/writing/writing.module.js';
import { registerFiles, registerUploads } from './modules/files/files.module.js';
import { registerDrafts } from './modules/drafts/drafts.module.js';
import { registerGraphic } from './modules/graphic/graphic.module.js';
import { installTopicJobs, registerTopic } from './modules/topic/topic.module.js';
import { installKnowledgeRecovery, registerKnowledge } from './modules/knowledge/knowledge.module.js';
import { registerData } from './modules/data/data.module.js';
import { registerAdmin } from './modules/admin/admin.module.js';
import { registerAdminConsole } from './modules/admin/admin-console.module.js';
import { registerPlatformHealth } from './modules/platform-health/platform-health.module.js';
import { registerAgent } from './modules/agent/agent.module.js';

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Paths that answer `{code, msg, data}` envelopes; everything else is the web app or a sandbox page. */
const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?') || url.startsWith('/publish-api/');
/** API replies that are JSON envelopes (the OpenAPI pages under /api/docs are documents and keep the page headers). */
const isApiReply = (url: string) => isApiPath(url) && !url.startsWith('/api/docs');

/** The Fastify instance with every route; tests build it too. */
export async function buildApp(c: Container): Promise<FastifyInstance> {
  const { config } = c;
  const rateLimits = new RateLimitStores({
    redis: c.redis,
    nameSpace: `${config.REDIS_PREFIX}-rl:`,
    maxFor: (key) => (key.startsWith('s:') ? config.RATE_LIMIT_PER_MINUTE : config.RATE_LIMIT_ANON_PER_MINUTE),
  });
  const hotLane = new HotLane({ sessions: c.auth.sessions, limits: rateLimits, quiet: POLLED_ROUTES });
  const app = Fastify({
    loggerInstance: c.log as FastifyBaseLogger,
    genReqId: requestIdOf,
    serverFactory: hotLane.serverFactory,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // Start-up on a loaded 2-core machine can take the swagger-ui plugin past Fastify's 10 s default; it is not a request path.
    pluginTimeout: 60_000,
    ...frameworkErrorOptions,
    logController: new RequestLogController(),
    childLoggerFactory: (logger, bindings, opts) => lazyChildLogger(logger as Logger, bindings, opts),
  });
  installClosingGuard(app);
  installConnectionDrain(app);
  // First, so that every route registered below (plugins' too) gets its auth mode from http/public-routes.ts.
  installAuthGuard(app, c.auth.sessions);
  hotLane.install(app);
  installInputGuard(app);
  // An empty body sent as JSON means "no body", not a syntax error; everything else keeps Fastify's safe parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '') return done(null, undefined);
    // Fastify's default parser answers through the callback; any promise it returns carries nothing.
    void parseJson(req, body as string, (err, value) => {
      if (err) return done(err);
      // Thousands of nested levels parse fine but overflow the stack of whatever walks them next.
      if (jsonDepthOver(value, maxJsonDepth)) return done(tooDeep());
      done(null, value);
    });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    done(null, payload);
  });

  await installPlugins(app, rateLimits);
  installErrorHandler(app);

  installProbes(app, c);
  await registerModules(app, c);
  await serveWebBuild(app, config);
  return app;
}

/** Security headers, form bodies, the rate limit (per session, else per address; API paths only) and the OpenAPI document. */
async function installPlugins(app: FastifyInstance, rateLimits: RateLimitStores) {
  await installSecurityHeaders(
    app,
    {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // antd injects its styles at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          connectSrc: ["'self'"],
          fontSrc: ["'self'", 'data:'],
          objectSrc: ["'none'"],
          frameAncestors: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      // Plain-HTTP LAN access (the sandbox pay and scan pages on a phone) must keep working.
      hsts: false,
      crossOriginEmbedderPolicy: false,
    },
    isApiReply,
  );
  await app.register(formbody);
  await app.register(rateLimit, {
    global: true,
    // The web app's files, the SPA fallback and the sandbox pages are not the API: an office behind one NAT
    // loads hundreds of lazily split chunks, and a blank page is worse than any abuse a static file allows.
    allowList: (req) => !isApiPath(req.url),
    // Logged-in calls count per session, so 50 creators behind one address never share a bucket; anonymous
    // calls (and calls to routes that do not read the session) count per address. The auth guard's root
    // onRequest hook runs before this route-level hook, so `req.session` is set only for a token that is live.
    keyGenerator: (req) => (req.session ? `s:${req.session.sessionId}` : `ip:${req.ip}`),
    max: (_req, key) => rateLimits.maxFor(key),
    timeWindow: '1 minute',
    // The plugin's own LocalStore, or its RedisStore under REDIS_PREFIX when Redis is configured (limits shared by
    // every process), built through `rateLimits` so that the hot lane counts against the same stores.
    store: rateLimits.storeClass,
    errorResponseBuilder: () => new AppError(ErrorCode.RATE_LIMITED),
    // The x-ratelimit-* headers go out only with a refusal (with retry-after): on every allowed call they were a third
    // of a poll's header bytes, and no client of ours reads them.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Inkstone 砚 API',
        version: limits.appVersion,
        description: '所有接口返回 {code, msg, data}；code 0 表示成功。登录后在请求头 inkstone-token 中携带 tokenValue。',
      },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'inkstone-token' } } },
    },
    transform: openApiTransform,
  });
}

/** Liveness and readiness, answered by every role. */
function installProbes(app: FastifyInstance, c: Container) {
  const { config } = c;
  app.get('/healthz', { schema: { hide: true } }, async () => {
    await c.database.db.execute('select 1');
    // `demo`: the web shows a 演示环境 banner (public server running on sandboxes by ALLOW_SANDBOXES=1).
    return { status: 'ok', database: c.database.kind, sandboxes: c.sandboxes, demo: c.demo };
  });
  // Readiness, for load balancers and orchestrators (every role answers it): 200 only while the database and Redis
  // (when configured) answer within 2 s, else 503, so traffic and new work leave a process that lost either while
  // /healthz (liveness) keeps it from being restarted for an outage it cannot fix.
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const probe = (p: Promise<unknown>) =>
      Promise.race([
        p.then(
          () => 'ok' as const,
          () => 'down' as const,
        ),
        new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 2_000).unref()),
      ]);
    const [database, redis] = await Promise.all([probe(c.database.db.execute('select 1')), c.redis ? probe(c.redis.ping()) : ('none' as const)]);
    const ready = database === 'ok' && (redis === 'ok' || redis === 'none');
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', database, redis, roles: [...config.roles] });
  });
}

/** Each module's routes (web role) and start-up work (worker and publisher roles). */
async function registerModules(app: FastifyInstance, c: Container) {
  const { config } = c;
  // A process without the web role (a worker or publisher behind the same image) answers /healthz only.
  const web = config.roles.has('web');
  if (web) await app.register(swaggerUi, { routePrefix: '/api/docs' });
  if (web)
    await app.register(
      async (api) => {
        await registerAuth(api, c.auth, config, c.user.users);
        await registerUser(api, c.user);
        await registerNotice(api, c.notice);
        await registerFeedback(api, c.feedback);
        await registerFlags(api, c.flags);
        await registerActivity(api, c.activity);
        await registerVip(api, c.vip);
        await registerWriting(api, c.writing, c.auth.sessions);
        await registerDrafts(api, c.drafts);
        await registerFiles(api, c.files, c.user.users);
        await registerGraphic(api, c.graphic);
        await registerTopic(api, c.topic);
        await registerKnowledge(api, c.knowledge);
        await registerData(api, c.data);
        await registerAdmin(api, c.admin);
        await registerAdminConsole(api, c.adminConsole);
        await registerPlatformHealth(api, c.platformHealth);
        await registerAgent(api, c.agent, config);
      },
      { prefix: '/api' },
    );
  // Uploaded images (spec section 5) at /uploads/.
  if (web) await registerUploads(app, c.files);
  // Publishing: /publish-api/* (outside /api), its /api account calls and the 沙箱 creator site (web role); the
  // publisher role's start-up work.
  await registerPublishing(app, config, c.publishing);

  // Writing tasks left open by a stopped process are restarted or failed and refunded.
  if (config.roles.has('worker')) installWritingRecovery(app, c.writing);

  // Knowledge documents left unparsed by a stopped process are parsed again.
  if (config.roles.has('worker')) installKnowledgeRecovery(app, c.knowledge);

  // Hot topic refresh runs on the job queue in the worker role (first run shortly after start-up).
  if (config.roles.has('worker')) installTopicJobs(app, c.jobs);

  // Personal notices that come from a schedule (VIP expiring) belong to the worker role.
  if (config.roles.has('worker')) installNoticeJobs(app, c.jobs, c.notice.personal);
}

/** The web build (web role) and the not-found answer: the envelope for API paths, the SPA for page paths. */
async function serveWebBuild(app: FastifyInstance, config: Container['config']) {
  const web = config.roles.has('web');
  const webDist = path.resolve(config.WEB_DIST_DIR ?? defaultWebDist);
  const hasWeb = web && existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      setHeaders: (reply, file) => {
        reply.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    if (isApiPath(url)) {
      return reply.status(200).send(fail(ErrorCode.NOT_FOUND, '接口不存在'));
    }
    if (hasWeb && (req.method === 'GET' || req.method === 'HEAD') && !path.extname(url)) {
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    }
    return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
  });
}
