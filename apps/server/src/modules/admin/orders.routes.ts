import type { FastifyInstance } from 'fastify';
import { adminOrderDetailSchema, adminOrderNoQuery, adminOrderPageSchema, adminOrderQuery, adminRefundBody, adminRefundSchema } from '@inkstone/shared';
import type { AdminRoutes } from './admin-route.js';
import { dateBound } from './admin.routes.js';
import type { AdminOrdersService } from './orders.service.js';

/** Orders: search, details with the gateways' answers, refunds. */
export function orderRoutes(r: AdminRoutes, orders: AdminOrdersService) {
  return async (app: FastifyInstance) => {
    r.route(
      app,
      { method: 'GET', url: '/admin/orders', role: 'viewer', summary: '订单列表（按状态、渠道、用户、日期筛选）', query: adminOrderQuery, reply: adminOrderPageSchema },
      ({ query: q }) =>
        orders.list(
          {
            status: q.status,
            channel: q.channel,
            userId: q.userId,
            orderNo: q.orderNo || undefined,
            review: q.review === undefined ? undefined : q.review === 'true',
            from: dateBound(q.from, false),
            to: dateBound(q.to, true),
          },
          q.pageNum,
          q.pageSize,
        ),
    );
    r.route(
      app,
      { method: 'GET', url: '/admin/orders/detail', role: 'viewer', summary: '订单详情：退款记录与支付渠道的应答', query: adminOrderNoQuery, reply: adminOrderDetailSchema },
      ({ query }) => orders.detail(query.orderNo),
    );
    r.route(
      app,
      {
        method: 'POST',
        url: '/admin/orders/refund',
        role: 'operator',
        summary: '退款（部分或全额，经原支付渠道；同一 requestId 只退一次；扣回积分与会员天数）',
        body: adminRefundBody,
        reply: adminRefundSchema,
      },
      ({ body, actor }) => orders.refund(actor, body),
    );
  };
}
