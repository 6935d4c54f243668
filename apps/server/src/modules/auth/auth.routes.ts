import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deleteAccountBody,
  doLogin0Body,
  doLoginWxBody,
  envelope,
  handoverTokenSchema,
  isBindQuery,
  isBindSchema,
  isRegisterQuery,
  loginResultSchema,
  loginDeviceSchema,
  sessionRevokeBody,
  logoutQuery,
  sceneQuery,
  sendMsgQuery,
  sendMsgReply,
  sparkLoginBody,
  userProfileSchema,
  wxBindBody,
  wxQrcodeSchema,
  wxScanStateSchema,
} from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { tokenOf, userIdOf } from '../../http/auth-guard.js';
import type { TypedApp } from '../../http/typed-app.js';
import type { AuthService, RequestMeta } from './auth.service.js';
import type { SessionService } from './session.service.js';
import type { SmsCodeService } from './sms-code.service.js';
import type { UserService } from '../user/user.service.js';

const meta = (request: FastifyRequest, device?: string | null): RequestMeta => ({
  ip: request.ip,
  device: device ?? (typeof request.headers['x-device-id'] === 'string' ? request.headers['x-device-id'].slice(0, 64) : null),
  client: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'].slice(0, 256) : null,
});

interface AuthDeps {
  auth: AuthService;
  codes: SmsCodeService;
  sessions: SessionService;
  users: UserService;
}

export function authRoutes(deps: AuthDeps) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    phoneLoginRoutes(app, deps);
    wechatLoginRoutes(app, deps);
    handoverRoutes(app, deps);
    sessionRoutes(app, deps);
  };
}

/** Login by SMS code (first login registers). */
function phoneLoginRoutes(app: TypedApp, deps: AuthDeps) {
  const tags = ['auth'];

  app.get(
    '/auth/send/msg',
    {
      schema: { tags, summary: '发送登录验证码', querystring: sendMsgQuery, response: { 200: envelope(sendMsgReply) } },
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
    },
    async (req) => ok(await deps.codes.send(req.query.phone, req.ip)),
  );

  app.post(
    '/auth/doLogin0',
    {
      schema: { tags, summary: '手机号验证码登录（首次登录即注册）', body: doLogin0Body, response: { 200: envelope(loginResultSchema) } },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (req) => ok(await deps.auth.loginWithPhone(req.body, meta(req))),
  );
}

/** Login by WeChat QR scan, and binding WeChat to a logged-in account. */
function wechatLoginRoutes(app: TypedApp, deps: AuthDeps) {
  const tags = ['auth'];

  app.get(
    '/wx/qrcode/url',
    {
      schema: { tags, summary: '生成微信登录二维码', response: { 200: envelope(wxQrcodeSchema) } },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async () => ok(await deps.auth.createWxQr()),
  );

  app.get(
    '/wx/qrcode/openid',
    {
      schema: { tags, summary: '轮询扫码状态', querystring: sceneQuery, response: { 200: envelope(wxScanStateSchema) } },
    },
    async (req) => ok(await deps.auth.scanState(req.query.scene)),
  );

  app.post(
    '/auth/v2/doLoginWx',
    {
      schema: { tags, summary: '微信扫码登录；未绑定时需提供手机号与验证码', body: doLoginWxBody, response: { 200: envelope(loginResultSchema) } },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (req) => ok(await deps.auth.loginWithWx(req.body, meta(req))),
  );

  app.get(
    '/auth/isbind',
    {
      schema: {
        tags,
        summary: '扫码的微信（或当前账号）是否已绑定',
        querystring: isBindQuery,
        response: { 200: envelope(isBindSchema) },
      },
      config: { auth: 'optional' },
    },
    async (req) => ok({ isBind: await deps.auth.isBound({ scene: req.query.scene, userId: req.session?.userId }) }),
  );

  app.post(
    '/auth/wx/bind',
    {
      schema: { tags, summary: '当前账号绑定微信（扫码后调用）', body: wxBindBody, response: { 200: envelope(userProfileSchema) } },
      config: { auth: 'required' },
    },
    async (req) => ok(await deps.auth.bindWx(userIdOf(req), req.body.scene)),
  );

  app.post(
    '/auth/wx/unbind',
    {
      schema: { tags, summary: '当前账号解绑微信（保留手机号登录）', response: { 200: envelope(userProfileSchema) } },
      config: { auth: 'required' },
    },
    async (req) => ok(await deps.auth.unbindWx(userIdOf(req))),
  );
}

/** Hand-over tokens between clients (spark). */
function handoverRoutes(app: TypedApp, deps: AuthDeps) {
  const tags = ['auth'];

  app.post(
    '/auth/spark/login',
    {
      schema: { tags, summary: '一次性凭证登录', body: sparkLoginBody, response: { 200: envelope(loginResultSchema) } },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (req) => ok(await deps.auth.loginWithHandover(req.body.accessToken, req.body.scene, meta(req))),
  );

  app.post(
    '/auth/spark/token',
    {
      schema: { tags, summary: '为当前用户签发一次性登录凭证（5分钟内有效）', response: { 200: envelope(handoverTokenSchema) } },
      config: { auth: 'required' },
    },
    async (req) => ok(await deps.auth.mintHandover(userIdOf(req))),
  );
}

/** The current session: login state, the logged-in user, logout, registration check, account deletion. */
function sessionRoutes(app: TypedApp, deps: AuthDeps) {
  const tags = ['auth'];

  app.get(
    '/auth/isLogin',
    {
      schema: { tags, summary: '是否已登录（无凭证返回 false；凭证过期 401，已注销 430）', response: { 200: envelope(z.boolean()) } },
      config: { hotPoll: async () => ok(true) },
    },
    async (req) => {
      if (req.session) return ok(true);
      const token = tokenOf(req);
      if (!token) return ok(false);
      await deps.sessions.authenticate(token);
      return ok(true);
    },
  );

  app.get(
    '/auth/nowLoginUser',
    {
      schema: { tags, summary: '当前登录用户', response: { 200: envelope(userProfileSchema) } },
      config: { auth: 'required' },
    },
    async (req) => ok(await deps.users.profile(userIdOf(req))),
  );

  app.get(
    '/auth/logout',
    {
      schema: { tags, summary: '退出登录；device=all 退出所有设备', querystring: logoutQuery, response: { 200: envelope(z.null()) } },
      config: { auth: 'optional' },
    },
    async (req) => {
      if (req.session) {
        if (req.query.device === 'all') await deps.sessions.revokeAll(req.session.userId, 'logout-all');
        else await deps.sessions.revoke(req.session.sessionId, 'logout');
      }
      return ok(null);
    },
  );

  app.get(
    '/auth/isRegister',
    {
      schema: { tags, summary: '手机号或 openid 是否已注册', querystring: isRegisterQuery, response: { 200: envelope(z.boolean()) } },
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
    },
    async (req) => ok(await deps.auth.isRegistered(req.query.phoneOrOpenId)),
  );

  app.get(
    '/auth/sessions',
    {
      schema: { tags, summary: '登录设备：当前账号未退出的会话（最近活跃、IP、客户端）', response: { 200: envelope(z.array(loginDeviceSchema)) } },
      config: { auth: 'required' },
    },
    async (req) => ok(await deps.sessions.devices(userIdOf(req), req.session?.sessionId ?? 0)),
  );

  app.post(
    '/auth/sessions/revoke',
    {
      schema: { tags, summary: '退出某一台登录设备（只能是自己的）', body: sessionRevokeBody, response: { 200: envelope(z.null()) } },
      config: { auth: 'required' },
    },
    async (req) => {
      await deps.sessions.revokeOwn(userIdOf(req), req.body.id);
      return ok(null);
    },
  );

  app.post(
    '/auth/delete/code',
    {
      schema: { tags, summary: '注销账号前，向当前账号的手机号发送验证码（页面只知道打码后的号码）', response: { 200: envelope(sendMsgReply) } },
      config: { auth: 'required', rateLimit: { max: 10, timeWindow: '1 minute' } },
    },
    async (req) => ok(await deps.auth.sendDeletionCode(userIdOf(req), req.ip)),
  );

  app.post(
    '/auth/delete/v2',
    {
      schema: { tags, summary: '注销账号（需短信验证码）', body: deleteAccountBody, response: { 200: envelope(z.null()) } },
      config: { auth: 'required' },
    },
    async (req) => {
      await deps.auth.deleteAccount(userIdOf(req), req.body.code);
      return ok(null);
    },
  );
}
