import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import {
  adminPlatformHealthListSchema,
  adminPlatformQuery,
  adminSiteProfileRollbackBody,
  adminSiteProfileSaveBody,
  adminSiteProfileSchema,
  adminStepFailureIdQuery,
  adminStepFailurePageSchema,
  adminStepFailureQuery,
  ErrorCode,
} from '@inkstone/shared';
import { appError } from '../../http/errors.js';
import type { AdminRoutes } from '../admin/admin-route.js';
import type { PlatformHealthService } from './platform-health.service.js';

/**
 * 平台健康: everyone in the console reads (failures, diagnostics, screenshots, profiles); operators, who also edit models
 * and sources, change a site's locators and roll them back (audited; applies to the next publish in every process).
 */
export function platformHealthRoutes(r: AdminRoutes, service: PlatformHealthService) {
  return async (app: FastifyInstance) => {
    r.route(
      app,
      { method: 'GET', url: '/admin/platform-health', role: 'viewer', summary: '平台健康：各平台近24小时与7天的步骤失败次数', reply: adminPlatformHealthListSchema },
      () => service.overview(),
    );

    r.route(
      app,
      {
        method: 'GET',
        url: '/admin/platform-health/failures',
        role: 'viewer',
        summary: '最近的步骤失败及诊断（尝试过的选择器、页面地址、脱敏的页面片段）',
        query: adminStepFailureQuery,
        reply: adminStepFailurePageSchema,
      },
      ({ query }) => service.failures(query),
    );

    r.file(app, { url: '/admin/platform-health/screenshot', role: 'viewer', summary: '步骤失败时的页面截图（PNG）', query: adminStepFailureIdQuery }, async ({ query }) => {
      const file = await service.screenshot(query.id);
      const body = await readFile(file).catch(() => null);
      if (!body) throw appError(ErrorCode.NOT_FOUND, '截图不存在');
      return { name: `step-failure-${query.id}.png`, contentType: 'image/png', body, inline: true };
    });

    r.route(
      app,
      {
        method: 'GET',
        url: '/admin/platform-health/profile',
        role: 'viewer',
        summary: '平台的页面配置：内置配置、当前生效的覆盖与版本历史',
        query: adminPlatformQuery,
        reply: adminSiteProfileSchema,
      },
      ({ query }) => service.profile(query.platform),
    );

    r.route(
      app,
      {
        method: 'POST',
        url: '/admin/platform-health/profile/save',
        role: 'operator',
        summary: '保存页面配置覆盖为新版本并立即生效（所有进程的下一次发布起）',
        body: adminSiteProfileSaveBody,
        reply: adminSiteProfileSchema,
      },
      ({ body, actor }) => service.save(actor, body.platform, body.override, body.note),
    );

    r.route(
      app,
      {
        method: 'POST',
        url: '/admin/platform-health/profile/rollback',
        role: 'operator',
        summary: '回滚到更早的版本，或回到内置配置（version 0）',
        body: adminSiteProfileRollbackBody,
        reply: adminSiteProfileSchema,
      },
      ({ body, actor }) => service.rollback(actor, body.platform, body.version),
    );
  };
}
