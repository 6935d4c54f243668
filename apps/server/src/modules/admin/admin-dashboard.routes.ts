import type { FastifyInstance } from 'fastify';
import {
  adminDashboardQuery,
  adminDashboardSchema,
  adminJobRetryBody,
  adminJobRetryReplySchema,
  adminNoticeCreateBody,
  adminNoticeIdBody,
  adminNoticePageSchema,
  adminNoticeQuery,
  adminNoticeSchema,
} from '@inkstone/shared';
import type { AdminRoutes } from './admin-route.js';
import type { AdminDashboardService } from './admin-dashboard.service.js';
import type { AdminNoticesService } from './admin-notices.service.js';

/** 仪表盘: everyone at the console reads it; retrying a failed job is an operator's act. */
export function dashboardRoutes(r: AdminRoutes, service: AdminDashboardService) {
  return async (app: FastifyInstance) => {
    r.route(
      app,
      {
        method: 'GET',
        url: '/admin/dashboard',
        role: 'viewer',
        summary: '仪表盘：注册、日活、付费、收入、任务、发布成功率、任务队列',
        query: adminDashboardQuery,
        reply: adminDashboardSchema,
      },
      ({ query }) => service.dashboard(query),
    );
    r.route(
      app,
      { method: 'POST', url: '/admin/jobs/retry', role: 'operator', summary: '重试一个失败的后台任务', body: adminJobRetryBody, reply: adminJobRetryReplySchema },
      ({ body, actor }) => service.retry(actor, body.name, body.id),
    );
  };
}

/** 通知: support reads them (and their read rates); operators compose, schedule and withdraw. */
export function noticesRoutes(r: AdminRoutes, service: AdminNoticesService) {
  return async (app: FastifyInstance) => {
    r.route(
      app,
      { method: 'GET', url: '/admin/notices', role: 'support', summary: '通知列表（含阅读率，新的在前）', query: adminNoticeQuery, reply: adminNoticePageSchema },
      ({ query }) => service.list(query.pageNum, query.pageSize),
    );
    r.route(
      app,
      {
        method: 'POST',
        url: '/admin/notices/create',
        role: 'operator',
        summary: '发布或定时发布通知（全部、指定用户或会员）',
        body: adminNoticeCreateBody,
        reply: adminNoticeSchema,
      },
      ({ body, actor }) => service.create(actor, body),
    );
    r.route(
      app,
      { method: 'POST', url: '/admin/notices/withdraw', role: 'operator', summary: '撤回通知（用户不再看到）', body: adminNoticeIdBody, reply: adminNoticeSchema },
      ({ body, actor }) => service.withdraw(actor, body.id),
    );
  };
}
