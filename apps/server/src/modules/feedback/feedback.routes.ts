import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, feedbackBody, feedbackItemSchema, feedbackListQuery, feedbackPageSchema } from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import type { FeedbackService } from './feedback.service.js';

export function feedbackRoutes(deps: { feedback: FeedbackService }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['feedback'];

    app.post(
      '/feedback/submit',
      {
        schema: { tags, summary: '提交帮助与反馈（文字必填，可附最多3张已上传的截图和联系方式）', body: feedbackBody, response: { 200: envelope(feedbackItemSchema) } },
        config: { auth: 'required', rateLimit: { max: 10, timeWindow: '1 minute' } },
      },
      async (req) => ok(await deps.feedback.submit(userIdOf(req), req.body)),
    );

    app.get(
      '/feedback/list',
      {
        schema: { tags, summary: '我的反馈（最新在前，含运营回复）', querystring: feedbackListQuery, response: { 200: envelope(feedbackPageSchema) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await deps.feedback.list(userIdOf(req), req.query)),
    );
  };
}
