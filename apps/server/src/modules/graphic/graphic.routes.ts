import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { coverBody, coverReply, envelope } from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import type { GraphicService } from './graphic.service.js';

export function graphicRoutes(deps: { graphic: GraphicService }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['graphic'];

    app.post('/graphic/cover', {
      schema: { tags, summary: '用标题生成封面卡片（1080x1440 PNG），保存到图片库并返回地址', body: coverBody, response: { 200: envelope(coverReply) } },
      config: { auth: 'required' },
    }, async (req) => ok(await deps.graphic.cover(userIdOf(req), req.body)));
  };
}
