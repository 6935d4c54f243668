import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountBindBody,
  accountCountReply,
  accountIdQuery,
  accountListQuery,
  accountListReply,
  accountUnbindBody,
  accountTopBody,
  connectionQuery,
  connectionReleaseBody,
  connectionReleaseReply,
  envelope,
  intentCommentQuery,
  intentCommentReply,
  loginConnectBody,
  loginConnectReply,
  loginConnectionSchema,
  loginCookieReply,
  loginScanReply,
  nextSlotQuery,
  nextSlotReply,
  passthroughBody,
  passthroughReply,
  platformAccountSchema,
  publishArticleBody,
  publishArticleReply,
  publishPlatformSchema,
  publishRecordPage,
  publishRecordQuery,
  publishResultQuery,
  publishResultReply,
  submitStatusBody,
  unreadCountsSchema,
  xhsTagsQuery,
  xhsTagsReply,
} from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import type { AccountService } from './account.service.js';
import type { BindingService } from './binding.service.js';
import type { EngagementService } from './engagement.service.js';
import type { PublishService } from './publish.service.js';
import type { PacingService } from './pacing.service.js';

export interface PublishDeps {
  accounts: AccountService;
  binding: BindingService;
  publishing: PublishService;
  pacing: PacingService;
  engagement: EngagementService;
}

const auth = { auth: 'required' as const };

/** `/publish-api/*`: served outside `/api` (spec section 7); the publisher role. */
export function publishApiRoutes(deps: PublishDeps) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['publish'];

    app.post(
      '/chrome/login/connect',
      {
        schema: { tags, summary: '开始绑定平台账号：打开登录页，返回连接 id 与二维码', body: loginConnectBody, response: { 200: envelope(loginConnectReply) } },
        config: auth,
      },
      async (req) => ok(await deps.binding.connect(userIdOf(req), req.body)),
    );

    app.get(
      '/chrome/login/connection',
      {
        schema: { tags, summary: '登录连接状态', querystring: connectionQuery, response: { 200: envelope(loginConnectionSchema) } },
        config: auth,
      },
      async (req) => ok(await deps.binding.connection(userIdOf(req), req.query.connectionId)),
    );

    app.get(
      '/chrome/login/code/scan',
      {
        schema: { tags, summary: '二维码与扫码状态（轮询）', querystring: connectionQuery, response: { 200: envelope(loginScanReply) } },
        config: auth,
      },
      async (req) => ok(await deps.binding.scan(userIdOf(req), req.query.connectionId)),
    );

    app.get(
      '/chrome/login/cookie',
      {
        schema: { tags, summary: '完成登录：在服务端加密保存登录信息（不返回 cookie）', querystring: connectionQuery, response: { 200: envelope(loginCookieReply) } },
        config: auth,
      },
      async (req) => ok(await deps.binding.complete(userIdOf(req), req.query.connectionId)),
    );

    app.post(
      '/chrome/connection/release',
      {
        schema: { tags, summary: '释放浏览器连接（登录页或账号的浏览器上下文）', body: connectionReleaseBody, response: { 200: envelope(connectionReleaseReply) } },
        config: auth,
      },
      async (req) => ok({ released: await deps.binding.release(userIdOf(req), req.body) }),
    );

    app.post(
      '/publish/passthrough',
      {
        schema: {
          tags,
          summary: '平台透传：sessionCheck（检查登录）、search（话题搜索）、config（平台限制）',
          body: passthroughBody,
          response: { 200: envelope(passthroughReply) },
        },
        config: auth,
      },
      async (req) => {
        const userId = userIdOf(req);
        const b = req.body;
        if (b.category === 'sessionCheck') return ok(await deps.accounts.sessionCheck(userId, b.accountId));
        if (b.category === 'search') return ok(await deps.accounts.searchTopics(userId, b.accountId, b.keyword));
        return ok(await deps.accounts.platformConfig(userId, b));
      },
    );

    app.post(
      '/publish/article',
      {
        schema: { tags, summary: '发布到一个或多个账号（每个账号一个任务）', body: publishArticleBody, response: { 200: envelope(publishArticleReply) } },
        config: auth,
      },
      async (req) => ok(await deps.publishing.publish(userIdOf(req), req.body, `${req.protocol}://${req.host}`)),
    );

    app.get(
      '/publish/result',
      {
        schema: { tags, summary: '发布结果：每个账号的状态与链接', querystring: publishResultQuery, response: { 200: envelope(publishResultReply) } },
        config: auth,
      },
      async (req) => ok(await deps.publishing.result(userIdOf(req), req.query.publishId)),
    );

    app.get(
      '/publish/next-slot',
      {
        schema: {
          tags,
          summary: '账号下一次可发布时间（按平台的发布节奏：两次发布的最短间隔、每天篇数上限）',
          querystring: nextSlotQuery,
          response: { 200: envelope(nextSlotReply) },
        },
        config: auth,
      },
      async (req) => ok(await deps.pacing.nextSlots(userIdOf(req), req.query.accountIds)),
    );

    app.get(
      '/publish/screenshot',
      {
        schema: { tags, summary: '发布失败时的页面截图（PNG）', querystring: z.object({ jobId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'jobId 无效') }) },
        config: auth,
      },
      async (req, reply) => {
        const file = await deps.publishing.screenshot(userIdOf(req), req.query.jobId);
        return reply.type('image/png').header('cache-control', 'private, max-age=3600').send(createReadStream(file));
      },
    );
  };
}

/** The account and engagement calls under `/api`. */
export function publishRoutes(deps: PublishDeps) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['publish'];

    app.post(
      '/publish/v4/account/bind',
      {
        schema: { tags, summary: '绑定账号（失败时客户端不提示）', body: accountBindBody, response: { 200: envelope(platformAccountSchema) } },
        config: auth,
      },
      async (req) => ok(await deps.binding.bind(userIdOf(req), req.body.connectionId)),
    );

    app.post(
      '/publish/account/unbind',
      {
        schema: { tags, summary: '解绑账号', body: accountUnbindBody, response: { 200: envelope(z.null()) } },
        config: auth,
      },
      async (req) => {
        await deps.accounts.unbind(userIdOf(req), req.body.accountId);
        return ok(null);
      },
    );

    app.post(
      '/publish/account/top',
      {
        schema: { tags, summary: '置顶或取消置顶账号', body: accountTopBody, response: { 200: envelope(platformAccountSchema) } },
        config: auth,
      },
      async (req) => ok(await deps.accounts.setTop(userIdOf(req), req.body.accountId, req.body.top)),
    );

    app.get(
      '/publish/account/list/v3',
      {
        schema: { tags, summary: '已绑定账号列表（cookies 恒为 "[]"：登录信息只保存在服务端）', querystring: accountListQuery, response: { 200: envelope(accountListReply) } },
        config: auth,
      },
      async (req) => ok(await deps.accounts.list(userIdOf(req), req.query)),
    );

    app.get(
      '/publish/account/count/v3',
      {
        schema: { tags, summary: '已绑定账号数量', response: { 200: envelope(accountCountReply) } },
        config: auth,
      },
      async (req) => ok(await deps.accounts.count(userIdOf(req))),
    );

    app.get(
      '/publish/account/unread',
      {
        schema: { tags, summary: '账号未读数（每15秒轮询；读取最近一次同步的结果）', querystring: accountIdQuery, response: { 200: envelope(unreadCountsSchema) } },
        config: {
          ...auth,
          rateLimit: { max: 240, timeWindow: '1 minute' },
          hotPoll: async (session, query: { accountId: number }) => ok(await deps.accounts.unread(session.userId, query.accountId)),
        },
      },
      async (req) => ok(await deps.accounts.unread(userIdOf(req), req.query.accountId)),
    );

    app.get(
      '/publish/record/list',
      {
        schema: { tags, summary: '我的发布记录（最新在前；可按 accountId 筛选，仅本人的记录）', querystring: publishRecordQuery, response: { 200: envelope(publishRecordPage) } },
        config: auth,
      },
      async (req) => ok(await deps.publishing.records(userIdOf(req), req.query)),
    );

    app.post(
      '/publish/:platform/submitStatus',
      {
        schema: {
          tags,
          summary: '记录客户端提交状态',
          params: z.object({ platform: publishPlatformSchema }),
          body: submitStatusBody,
          response: { 200: envelope(z.object({ recorded: z.number().int() })) },
        },
        config: auth,
      },
      async (req) => ok(await deps.publishing.submitStatus(userIdOf(req), req.params.platform, req.body)),
    );

    app.get(
      '/agent/xhs/tags',
      {
        schema: { tags, summary: '根据正文推荐话题（关键词提取）', querystring: xhsTagsQuery, response: { 200: envelope(xhsTagsReply) } },
        config: auth,
      },
      async (req) => ok(deps.engagement.tags(req.query.text)),
    );

    app.get(
      '/thirdparty/intension/comment',
      {
        schema: { tags, summary: '有购买/联系意向的评论与建议回复', querystring: intentCommentQuery, response: { 200: envelope(intentCommentReply) } },
        config: auth,
      },
      async (req) => ok(await deps.engagement.intentComments(userIdOf(req), req.query)),
    );
  };
}
