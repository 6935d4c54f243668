import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, noticeBubbleSchema, noticeIdQuery, noticeItemSchema, noticeListQuery, noticePageSchema } from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import type { NoticeService } from './notice.service.js';

export function noticeRoutes(deps: { notices: NoticeService }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['notice'];

    app.get(
      '/notice/v2/list',
      {
        schema: { tags, summary: '公告列表（最新在前，可按 type 筛选）', querystring: noticeListQuery, response: { 200: envelope(noticePageSchema) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await deps.notices.list(userIdOf(req), req.query)),
    );

    app.get(
      '/notice/bubble',
      {
        schema: { tags, summary: '未读公告数（客户端每15秒轮询）', response: { 200: envelope(noticeBubbleSchema) } },
        config: { auth: 'required', hotPoll: async (session) => ok(await deps.notices.bubble(session.userId)) },
      },
      async (req) => ok(await deps.notices.bubble(userIdOf(req))),
    );

    app.get(
      '/notice/detail',
      {
        schema: { tags, summary: '公告详情（不会标记已读）', querystring: noticeIdQuery, response: { 200: envelope(noticeItemSchema) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await deps.notices.detail(userIdOf(req), req.query.id)),
    );

    app.post(
      '/notice/read',
      {
        schema: { tags, summary: '标记一条公告已读（可重复调用）', querystring: noticeIdQuery, response: { 200: envelope(z.null()) } },
        config: { auth: 'required' },
      },
      async (req) => {
        await deps.notices.markRead(userIdOf(req), req.query.id);
        return ok(null);
      },
    );

    app.post(
      '/notice/all/read',
      {
        schema: { tags, summary: '全部公告标记已读', response: { 200: envelope(z.null()) } },
        config: { auth: 'required' },
      },
      async (req) => {
        await deps.notices.markAllRead(userIdOf(req));
        return ok(null);
      },
    );
  };
}
