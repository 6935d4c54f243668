import type { FastifyInstance } from 'fastify';
import {
  adminBanBody,
  adminLedgerPageSchema,
  adminNicknameResetBody,
  adminOrderPageSchema,
  adminPointsBody,
  adminPointsReplySchema,
  adminUserDetailSchema,
  adminUserIdQuery,
  adminUserPageQuery,
  adminUserPageSchema,
  adminUserSchema,
  adminUserSearchQuery,
  adminVipBody,
} from '@inkstone/shared';
import type { AdminRoutes } from './admin-route.js';
import type { AdminUsersService } from './users.service.js';

/** Users: search, details, points, VIP, ban and nickname. */
export function userRoutes(r: AdminRoutes, users: AdminUsersService) {
  return async (app: FastifyInstance) => {
    r.route(
      app,
      { method: 'GET', url: '/admin/users', role: 'viewer', summary: '搜索用户（ID、手机号、昵称）', query: adminUserSearchQuery, reply: adminUserPageSchema },
      ({ query, actor }) => users.search(actor.role, query.q, query.pageNum, query.pageSize),
    );
    r.route(
      app,
      {
        method: 'GET',
        url: '/admin/users/detail',
        role: 'viewer',
        summary: '用户详情：资料、会员、登录会话、已绑定账号（不含任何凭证）',
        query: adminUserIdQuery,
        reply: adminUserDetailSchema,
      },
      ({ query, actor }) => users.detail(actor.role, query.userId),
    );
    r.route(app, { method: 'GET', url: '/admin/users/ledger', role: 'viewer', summary: '用户积分明细', query: adminUserPageQuery, reply: adminLedgerPageSchema }, ({ query }) =>
      users.ledger(query.userId, query.pageNum, query.pageSize),
    );
    r.route(app, { method: 'GET', url: '/admin/users/orders', role: 'viewer', summary: '用户订单', query: adminUserPageQuery, reply: adminOrderPageSchema }, ({ query }) =>
      users.orders(query.userId, query.pageNum, query.pageSize),
    );
    r.route(
      app,
      {
        method: 'POST',
        url: '/admin/users/points',
        role: 'operator',
        summary: '发放或扣除积分（记入积分明细；同一 requestId 只生效一次）',
        body: adminPointsBody,
        reply: adminPointsReplySchema,
      },
      ({ body, actor }) => users.adjustPoints(actor, body),
    );
    r.route(app, { method: 'POST', url: '/admin/users/vip', role: 'operator', summary: '延长或撤销会员', body: adminVipBody, reply: adminUserSchema }, ({ body, actor }) =>
      users.changeVip(actor, body),
    );
    r.route(
      app,
      { method: 'POST', url: '/admin/users/ban', role: 'operator', summary: '封禁（注销全部登录会话并拒绝登录）或解封', body: adminBanBody, reply: adminUserSchema },
      ({ body, actor }) => users.setBanned(actor, body),
    );
    r.route(
      app,
      { method: 'POST', url: '/admin/users/nickname/reset', role: 'support', summary: '重置昵称为默认昵称', body: adminNicknameResetBody, reply: adminUserSchema },
      ({ body, actor }) => users.resetNickname(actor, body),
    );
  };
}
