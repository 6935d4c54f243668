import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, smsOutboxItemSchema } from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { htmlPage } from '../../html/page.js';
import type { OutboxSmsSender } from './outbox.js';

/** Registered only while the outbox is the active SMS adapter. */
export function smsOutboxRoutes(outbox: OutboxSmsSender) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const query = z.object({
      phone: z
        .string()
        .regex(/^\d{11}$/, 'phone：手机号格式不正确')
        .optional(),
    });

    app.get(
      '/dev/sms-outbox',
      {
        schema: { tags: ['dev'], summary: '沙箱短信发件箱（仅在未配置短信服务商时存在）', querystring: query, response: { 200: envelope(z.array(smsOutboxItemSchema)) } },
      },
      async (req) => {
        const rows = await outbox.list(req.query.phone);
        return ok(rows.map((r) => ({ phone: r.phone, text: r.text, code: r.code, sentAt: r.sentAt.toISOString() })));
      },
    );

    app.get('/dev/sms-outbox/page', { schema: { hide: true } }, async (_req, reply) => {
      const rows = await outbox.list(undefined, 30);
      const items = rows.map((r) => `<tr><td>${r.sentAt.toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai' })}</td><td>${r.phone}</td><td><b>${r.code}</b></td></tr>`).join('');
      reply.type('text/html; charset=utf-8');
      return htmlPage({
        title: '短信发件箱（沙箱）',
        head: '<meta http-equiv="refresh" content="5"><style>body{font-family:system-ui,sans-serif;margin:32px}td,th{padding:6px 14px;border-bottom:1px solid #eee;text-align:left}</style>',
        body: `<h2>短信发件箱 <small style="color:#fa8c16">沙箱</small></h2><p>未配置短信服务商，验证码不会真正发出，只显示在这里（每5秒刷新）。</p>
<table><tr><th>时间</th><th>手机号</th><th>验证码</th></tr>${items || '<tr><td colspan="3">暂无短信</td></tr>'}</table>`,
      });
    });
  };
}
