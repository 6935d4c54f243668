import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OrderService } from './order.service.js';
import type { RefundService } from './refund.service.js';

/**
 * Vendor-facing endpoint (no session): payment notifications for every gateway, read as raw text because the
 * signatures cover the exact bytes. The sandbox checkout page lives beside its gateway (integrations/payment).
 */
export function payRoutes(deps: { orders: OrderService; refunds: RefundService }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    await app.register(async (notify) => {
      notify.removeAllContentTypeParsers();
      notify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
      notify.post(
        '/pay/notify/:gateway',
        {
          schema: { hide: true, params: z.object({ gateway: z.enum(['sandbox', 'wechat', 'alipay']) }) },
          config: { rateLimit: { max: 600, timeWindow: '1 minute' } },
        },
        async (req, reply) => {
          const rawBody = typeof req.body === 'string' ? req.body : '';
          const { gateway } = req.params as { gateway: string };
          const result = await deps.orders.handleNotification(gateway, { headers: req.headers, rawBody });
          reply.status(result.status);
          if (result.contentType) reply.type(result.contentType);
          return reply.send(result.body === '' ? undefined : result.body);
        },
      );
      // Refund results (WeChat Pay posts them to the notify_url of the refund request; Alipay uses the one above).
      notify.post(
        '/pay/refund-notify/:gateway',
        {
          schema: { hide: true, params: z.object({ gateway: z.enum(['sandbox', 'wechat', 'alipay']) }) },
          config: { rateLimit: { max: 600, timeWindow: '1 minute' } },
        },
        async (req, reply) => {
          const rawBody = typeof req.body === 'string' ? req.body : '';
          const { gateway } = req.params as { gateway: string };
          const result = await deps.refunds.handleNotification(gateway, { headers: req.headers, rawBody });
          reply.status(result.status);
          if (result.contentType) reply.type(result.contentType);
          return reply.send(result.body === '' ? undefined : result.body);
        },
      );
    });
  };
}
