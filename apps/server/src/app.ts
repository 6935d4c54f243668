import './http/zod-setup.js';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ErrorCode, limits } from '@inkstone/shared';
import type { Container } from './container.js';
import { RequestLogController } from './logger.js';
import { installErrorHandler } from './http/error-handler.js';
import { installAuthGuard } from './http/auth-guard.js';
import { frameworkErrorOptions, installClosingGuard } from './http/framework-errors.js';
import { installInputGuard, jsonDepthOver, maxJsonDepth, tooDeep } from './http/input-guard.js';
import { openApiTransform } from './http/openapi.js';
import { AppError } from './http/errors.js';
import { fail } from './http/envelope.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { userRoutes } from './modules/user/user.routes.js';
import { noticeRoutes } from './modules/notice/notice.routes.js';
import { installNoticeJobs } from './modules/notice/notice.jobs.js';
import { feedbackRoutes } from './modules/feedback/feedback.routes.js';
import { flagsRoutes } from './modules/flags/flags.routes.js';
import { activityRoutes } from './modules/activity/activity.routes.js';
import { OutboxSmsSender } from './integrations/sms/outbox.js';
import { smsOutboxRoutes } from './integrations/sms/outbox.routes.js';
import { wechatSandboxRoutes } from './integrations/wechat/sandbox.js';
import { wechatMpEventRoutes } from './integrations/wechat/mp.routes.js';
import { vipRoutes } from './modules/vip/vip.routes.js';
import { payRoutes } from './modules/vip/pay.routes.js';
import { ORDER_EXPIRY_JOB } from './modules/vip/order.service.js';
import { registerPublishing } from './modules/publish/publish.module.js';
import { installWritingRecovery, registerUploads, registerWriting } from './modules/writing/writing.module.js';
import { registerGraphic } from './modules/graphic/graphic.module.js';
import { installTopicJobs, registerTopic } from './modules/topic/topic.module.js';
import { installKnowledgeRecovery, registerKnowledge } from './modules/knowledge/knowledge.module.js';

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Paths that answer `{code, msg, data}` envelopes; everything else is the web app or a sandbox page. */
const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?') || url.startsWith('/publish-api/');

/** The Fastify instance with every route; tests build it too. */
export async function buildApp(c: Container): Promise<FastifyInstance> {
  const { config } = c;
  const app = Fastify({
    loggerInstance: c.log as FastifyBaseLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // Start-up on a loaded 2-core machine can take the swagger-ui plugin past Fastify's 10 s default; it is not a request path.
    pluginTimeout: 60_000,
    ...frameworkErrorOptions,
    logController: new RequestLogController(),
  });
  installClosingGuard(app);
  // First, so that every route registered below (plugins' too) gets its auth mode from http/public-routes.ts.
  installAuthGuard(app, c.services.sessions);
  installInputGuard(app);
  // An empty body sent as JSON means "no body", not a syntax error; everything else keeps Fastify's safe parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(req, body as string, (err, value) => {
      if (err) return done(err);
      // Thousands of nested levels parse fine but overflow the stack of whatever walks them next.
      if (jsonDepthOver(value, maxJsonDepth)) return done(tooDeep());
      done(null, value);
    });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  await app.register(helmet, {
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
  });
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
    max: (_req, key) => (key.startsWith('s:') ? config.RATE_LIMIT_PER_MINUTE : config.RATE_LIMIT_ANON_PER_MINUTE),
    timeWindow: '1 minute',
    ...(c.redis ? { redis: c.redis, nameSpace: `${config.REDIS_PREFIX}-rl:` } : {}),
    errorResponseBuilder: () => new AppError(ErrorCode.RATE_LIMITED),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Inkstone 砚 API', version: limits.appVersion, description: '所有接口返回 {code, msg, data}；code 0 表示成功。登录后在请求头 inkstone-token 中携带 tokenValue。' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'inkstone-token' } } },
    },
    transform: openApiTransform,
  });
  installErrorHandler(app);

  app.get('/healthz', { schema: { hide: true } }, async () => {
    await c.database.db.execute('select 1');
    // `demo`: the web shows a 演示环境 banner (public server running on sandboxes by ALLOW_SANDBOXES=1).
    return { status: 'ok', database: c.database.kind, sandboxes: c.sandboxes, demo: c.demo };
  });

  // A process without the web role (a worker or publisher behind the same image) answers /healthz only.
  const web = config.roles.has('web');
  if (web) await app.register(swaggerUi, { routePrefix: '/api/docs' });
  const { auth, codes, sessions, users } = c.services;
  if (web) await app.register(
    async (api) => {
      await api.register(authRoutes({ auth, codes, sessions, users }));
      await api.register(userRoutes({ users }));
      await api.register(noticeRoutes({ notices: c.services.notices }));
      await api.register(feedbackRoutes({ feedback: c.services.feedback }));
      await api.register(flagsRoutes({ flags: c.services.flags }));
      await api.register(activityRoutes({ recall: c.services.recall }));
      if (c.integrations.sms instanceof OutboxSmsSender) await api.register(smsOutboxRoutes(c.integrations.sms));
      if (c.integrations.wechat.sandbox) await api.register(wechatSandboxRoutes((scene, openid) => auth.recordScan(scene, openid)));
      else await api.register(wechatMpEventRoutes({ token: config.WECHAT_MP_TOKEN!, recordScan: (scene, openid) => auth.recordScan(scene, openid) }));
      const { points, catalogue, vip, orders, redeemCodes, activity } = c.services;
      await api.register(vipRoutes({ points, catalogue, vip, orders, codes: redeemCodes, activity, openPayment: true }));
      await api.register(payRoutes({ orders, gateways: c.integrations.payments }));
      await registerWriting(api, c.writing, sessions, config);
      await registerGraphic(api, c.graphic);
      await registerTopic(api, c.topic);
      await registerKnowledge(api, c.knowledge);
    },
    { prefix: '/api' },
  );
  // Uploaded images (spec section 5) at /uploads/.
  if (web) await registerUploads(app, c.writing);
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
  if (config.roles.has('worker')) installNoticeJobs(app, c.jobs, c.services.personalNotices);

  // Order expiry belongs to the worker role; a minute is enough because expiry is also applied lazily on reads.
  if (config.roles.has('worker')) c.jobs.schedule(ORDER_EXPIRY_JOB, 60_000, () => c.services.orders.sweepExpired());

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
  return app;
}
