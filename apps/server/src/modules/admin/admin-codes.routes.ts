import type { FastifyInstance } from 'fastify';
import {
  adminCodeBatchBody,
  adminCodeBatchPageSchema,
  adminCodeBatchSchema,
  adminCodeGenerateBody,
  adminRedemptionPageSchema,
  adminRedemptionQuery,
  pageQuery,
} from '@inkstone/shared';
import type { AdminRoutes } from './admin-route.js';
import type { AdminCodesService } from './admin-codes.service.js';

/** 兑换码: support reads the batches and who redeemed, operators mint, export and disable. */
export function codesRoutes(r: AdminRoutes, service: AdminCodesService) {
  return async (app: FastifyInstance) => {
    r.route(
      app,
      { method: 'GET', url: '/admin/codes/batches', role: 'support', summary: '兑换码批次（新的在前）', query: pageQuery, reply: adminCodeBatchPageSchema },
      ({ query }) => service.batches(query.pageNum, query.pageSize),
    );

    r.route(
      app,
      { method: 'POST', url: '/admin/codes/generate', role: 'operator', summary: '生成一批兑换码（积分或会员天数）', body: adminCodeGenerateBody, reply: adminCodeBatchSchema },
      ({ body, actor }) => service.generate(actor, body),
    );

    r.route(
      app,
      { method: 'POST', url: '/admin/codes/disable', role: 'operator', summary: '停用一批兑换码', body: adminCodeBatchBody, reply: adminCodeBatchSchema },
      ({ body, actor }) => service.disable(actor, body.batch),
    );

    // Bearer values: exporting them is an operator's act, like minting them.
    r.file(app, { url: '/admin/codes/export.csv', role: 'operator', summary: '导出一批兑换码（CSV）', query: adminCodeBatchBody }, async ({ query }) => ({
      name: `兑换码_${query.batch}.csv`,
      contentType: 'text/csv; charset=utf-8',
      body: await service.exportCsv(query.batch),
    }));

    r.route(
      app,
      { method: 'GET', url: '/admin/codes/redemptions', role: 'support', summary: '兑换记录（可按批次、用户筛选）', query: adminRedemptionQuery, reply: adminRedemptionPageSchema },
      ({ query }) => service.redemptions({ batch: query.batch, userId: query.userId }, query.pageNum, query.pageSize),
    );
  };
}
