import type { FastifyInstance } from 'fastify';
import {
  adminFlagsSchema,
  adminLexiconPageSchema,
  adminLexiconQuery,
  adminLexiconWordBody,
  adminLexiconWordSchema,
  adminModelIdBody,
  adminModelListSchema,
  adminModelSaveBody,
  adminModelSchema,
  adminModelTestSchema,
  adminSourceListSchema,
  adminSourceSchema,
  adminSourceSwitchBody,
} from '@inkstone/shared';
import type { GrowthbookPayload } from '@inkstone/shared';
import type { AdminRoutes } from './admin-route.js';
import type { AdminModelsService } from './admin-models.service.js';
import type { AdminSourcesService } from './admin-sources.service.js';

/**
 * 模型与来源: everyone in the console reads; operators write, keys included. Keys are not an owner's act because
 * they are write-only (nobody reads one back, the audit records only 已设置 / 已更改) and an operator already
 * controls what a key is for (base URL, enabled, default); a change is audited and can be reverted by the next one.
 */
export function modelsRoutes(r: AdminRoutes, service: AdminModelsService, sources: AdminSourcesService, flags: { file: string | null; payload: GrowthbookPayload }) {
  return async (app: FastifyInstance) => {
    r.route(app, { method: 'GET', url: '/admin/models', role: 'viewer', summary: '模型配置（API Key 只显示是否设置）', reply: adminModelListSchema }, () => service.list());

    r.route(
      app,
      { method: 'POST', url: '/admin/models/create', role: 'operator', summary: '添加模型（需要 API Key）', body: adminModelSaveBody, reply: adminModelSchema },
      ({ body, actor }) => service.create(actor, body),
    );

    r.route(
      app,
      { method: 'POST', url: '/admin/models/update', role: 'operator', summary: '修改模型（不填 API Key 则保留原值）', body: adminModelSaveBody, reply: adminModelSchema },
      ({ body, actor }) => service.update(actor, body),
    );

    // A real (tiny, paid) request to the vendor: an operator's act like the writes.
    r.route(
      app,
      { method: 'POST', url: '/admin/models/test', role: 'operator', summary: '连接测试（向模型发送一个很小的请求）', body: adminModelIdBody, reply: adminModelTestSchema },
      ({ body }) => service.test(body.id),
    );

    r.route(
      app,
      { method: 'GET', url: '/admin/lexicon', role: 'viewer', summary: '敏感词（内置与后台添加）', query: adminLexiconQuery, reply: adminLexiconPageSchema },
      ({ query }) => service.words({ q: query.q, source: query.source }, query.pageNum, query.pageSize),
    );

    r.route(
      app,
      { method: 'POST', url: '/admin/lexicon/add', role: 'operator', summary: '添加敏感词（立即生效）', body: adminLexiconWordBody, reply: adminLexiconWordSchema },
      ({ body, actor }) => service.addWord(actor, body.word),
    );

    r.route(
      app,
      {
        method: 'POST',
        url: '/admin/lexicon/remove',
        role: 'operator',
        summary: '删除后台添加的敏感词（内置词不可删除）',
        body: adminLexiconWordBody,
        reply: adminLexiconWordSchema,
      },
      ({ body, actor }) => service.removeWord(actor, body.word),
    );

    r.route(app, { method: 'GET', url: '/admin/sources', role: 'viewer', summary: '搜索与热榜来源（只显示是否配置，不显示密钥）', reply: adminSourceListSchema }, () =>
      sources.list(),
    );

    r.route(
      app,
      { method: 'POST', url: '/admin/sources/switch', role: 'operator', summary: '停用或启用一个已配置的来源（立即生效）', body: adminSourceSwitchBody, reply: adminSourceSchema },
      ({ body, actor }) => sources.setEnabled(actor, body),
    );

    // Read-only: FlagsService reads FEATURES_FILE once at start-up; editing here would need a database override layer.
    r.route(app, { method: 'GET', url: '/admin/flags', role: 'viewer', summary: '功能开关（当前下发的 GrowthBook 配置，只读）', reply: adminFlagsSchema }, async () => flags);
  };
}
