import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, recallChannelBody } from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import type { RecallService } from './recall.service.js';

export function activityRoutes(deps: { recall: RecallService }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['activity'];

    app.post(
      '/homepage/recall/channel',
      {
        schema: { tags, summary: '记录召回活动的回流渠道（同一用户同一渠道每天记一次）', body: recallChannelBody, response: { 200: envelope(z.null()) } },
        config: { auth: 'required' },
      },
      async (req) => {
        await deps.recall.recordChannel(userIdOf(req), req.body.channel);
        return ok(null);
      },
    );
  };
}
