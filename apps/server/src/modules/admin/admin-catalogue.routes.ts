import type { FastifyInstance } from 'fastify';
import {
  adminBundleBody,
  adminBundleSchema,
  adminCatalogueSchema,
  adminPlanBody,
  adminPlanSchema,
  adminPointCostBody,
  adminPointCostChangeSchema,
  adminPointCostWithdrawBody,
} from '@inkstone/shared';
import type { AdminRoutes } from './admin-route.js';
import type { AdminCatalogueService } from './admin-catalogue.service.js';

/** 商品与价格: viewers read, operators change (plans and bundles apply at once, dictionary prices when scheduled). */
export function catalogueRoutes(r: AdminRoutes, service: AdminCatalogueService) {
  return async (app: FastifyInstance) => {
    r.route(app, { method: 'GET', url: '/admin/catalogue', role: 'viewer', summary: '会员套餐、积分包与积分价格（含未生效的价格变更）', reply: adminCatalogueSchema }, () =>
      service.overview(),
    );

    r.route(
      app,
      { method: 'POST', url: '/admin/catalogue/plan', role: 'operator', summary: '新建或修改会员套餐', body: adminPlanBody, reply: adminPlanSchema },
      ({ body, actor }) => service.savePlan(actor, body),
    );

    r.route(
      app,
      { method: 'POST', url: '/admin/catalogue/bundle', role: 'operator', summary: '新建或修改积分包', body: adminBundleBody, reply: adminBundleSchema },
      ({ body, actor }) => service.saveBundle(actor, body),
    );

    r.route(
      app,
      {
        method: 'POST',
        url: '/admin/catalogue/point-cost',
        role: 'operator',
        summary: '设置功能的积分价格（可指定生效时间）',
        body: adminPointCostBody,
        reply: adminPointCostChangeSchema,
      },
      ({ body, actor }) => service.schedulePointCost(actor, body),
    );

    r.route(
      app,
      {
        method: 'POST',
        url: '/admin/catalogue/point-cost/withdraw',
        role: 'operator',
        summary: '撤回未生效的积分价格变更',
        body: adminPointCostWithdrawBody,
        reply: adminPointCostChangeSchema,
      },
      ({ body, actor }) => service.withdrawPointCost(actor, body.id),
    );
  };
}
