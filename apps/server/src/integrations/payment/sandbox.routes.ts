import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { escapeHtml, sandboxPhonePage } from '../../html/page.js';
import type { SandboxPaymentGateway } from './sandbox.js';

const yuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`;
const orderNoParam = z.string().regex(/^[0-9A-Za-z_-]{6,32}$/, '订单号格式不正确');

const page = (body: string) =>
  sandboxPhonePage({
    title: '扫码支付（沙箱）',
    simulates: '这是模拟的支付页面，不会产生真实扣款。',
    css: '.amount{font-size:36px;font-weight:600;margin:12px 0}\nbutton{background:#1677ff;color:#fff;border:0;border-radius:6px;padding:12px 24px;font-size:16px;width:100%}label{display:block;margin:16px 0;color:#666;font-size:14px}',
    body,
  });

/**
 * The sandbox checkout page the QR code opens on the payer's phone (no session). Paying posts the gateway's signed
 * notification to the real notify route, in-process because PUBLIC_URL may not be reachable from the server itself
 * (LAN address, reverse proxy).
 */
export function sandboxPayRoutes(sandbox: SandboxPaymentGateway) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/pay/sandbox/checkout',
      {
        schema: { hide: true, querystring: z.object({ orderNo: orderNoParam }) },
      },
      async (req, reply) => {
        reply.type('text/html; charset=utf-8');
        const trade = sandbox.trade(req.query.orderNo);
        if (!trade) return page('<h2>订单不存在</h2>');
        if (trade.state === 'closed') return page('<h2>订单已关闭或已过期</h2><p>请回到电脑上重新下单。</p>');
        if (trade.state === 'paid') return page('<h2>该订单已支付</h2>');
        return page(`<h2>${escapeHtml(trade.order.description)}</h2><div class="amount">${yuan(trade.order.amountFen)}</div>
<p>订单号 ${escapeHtml(trade.order.orderNo)}</p>
<form method="post" action="/api/pay/sandbox/checkout"><input type="hidden" name="orderNo" value="${escapeHtml(trade.order.orderNo)}">
<label><input type="checkbox" name="dropNotify" value="1"> 模拟支付通知丢失（由订单状态轮询补查）</label>
<button type="submit">确认支付</button></form>`);
      },
    );

    app.post(
      '/pay/sandbox/checkout',
      {
        schema: { hide: true, body: z.object({ orderNo: orderNoParam, dropNotify: z.string().optional() }) },
      },
      async (req, reply) => {
        reply.type('text/html; charset=utf-8');
        const paid = sandbox.pay(req.body.orderNo);
        if (!paid.ok) return page(`<h2>支付失败</h2><p>${escapeHtml(paid.reason)}</p>`);
        if (!req.body.dropNotify) {
          const n = paid.notification;
          const res = await fastify.inject({ method: 'POST', url: new URL(n.url).pathname, headers: n.headers, payload: n.body });
          if (res.statusCode >= 300) req.log.warn({ status: res.statusCode, body: res.body }, 'sandbox notification was refused');
        }
        return page('<h2>支付成功</h2><p>请回到电脑上的页面查看会员或积分。</p>');
      },
    );
  };
}
