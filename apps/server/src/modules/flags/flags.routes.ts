import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { growthbookPayloadSchema, limits } from '@inkstone/shared';
import type { FlagsService } from './flags.service.js';

const summary =
  'GrowthBook 功能开关配置（直接返回 {features}，不包 {code,msg,data}）。按用户定向由客户端 GrowthBook 规则完成，属性：id（用户 id 的字符串形式，也是默认分桶属性）、phone（资料中的手机号；本接口公开，规则里写的手机号人人可见，优先按 id 定向）。无需登录。';

export function flagsRoutes(deps: { flags: FlagsService }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['flags'];
    const maxAge = Math.round(limits.featureFlagStaleMs / 1000);

    app.get('/features', {
      schema: { tags, summary, response: { 200: growthbookPayloadSchema } },
    }, async (_req, reply) => {
      reply.header('cache-control', `public, max-age=${maxAge}`);
      return deps.flags.payload;
    });

    // The GrowthBook SDK given `apiHost: <origin>` and any `clientKey` fetches this path.
    app.get('/features/:clientKey', {
      schema: { tags, summary: '同 /features，供 GrowthBook SDK 以 apiHost + clientKey 方式加载', params: z.object({ clientKey: z.string().max(100) }), response: { 200: growthbookPayloadSchema } },
    }, async (_req, reply) => {
      reply.header('cache-control', `public, max-age=${maxAge}`);
      return deps.flags.payload;
    });
  };
}
