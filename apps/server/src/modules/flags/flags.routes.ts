import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { featureEvalBody, growthbookPayloadSchema, limits } from '@inkstone/shared';
import type { FlagsService } from './flags.service.js';

const summary =
  'GrowthBook 功能开关配置（直接返回 {features}，不包 {code,msg,data}）。按用户定向由客户端 GrowthBook 规则完成，属性：id（用户 id 的字符串形式，也是默认分桶属性）、phone（资料中的手机号；本接口公开，规则里写的手机号人人可见，优先按 id 定向）。无需登录。';

export function flagsRoutes(deps: { flags: FlagsService }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['flags'];
    const maxAge = Math.round(limits.featureFlagStaleMs / 1000);

    app.get(
      '/features',
      {
        schema: { tags, summary, response: { 200: growthbookPayloadSchema } },
      },
      async (_req, reply) => {
        reply.header('cache-control', `public, max-age=${maxAge}`);
        return deps.flags.payload;
      },
    );

    // The GrowthBook SDK given `apiHost: <origin>` and any `clientKey` fetches this path.
    app.get(
      '/features/:clientKey',
      {
        schema: {
          tags,
          summary: '同 /features，供 GrowthBook SDK 以 apiHost + clientKey 方式加载',
          params: z.object({ clientKey: z.string().max(100) }),
          response: { 200: growthbookPayloadSchema },
        },
      },
      async (_req, reply) => {
        reply.header('cache-control', `public, max-age=${maxAge}`);
        return deps.flags.payload;
      },
    );

    // GrowthBook remote evaluation (the SDK with `remoteEval: true` posts here): rules never leave the server and are
    // evaluated with the session's own attributes, whatever the client claims.
    app.post(
      '/eval/:clientKey',
      {
        schema: {
          tags,
          summary:
            'GrowthBook 远程评估：按登录用户在服务端的属性（id、完整手机号、vip、tracks 赛道、platforms 已绑定平台）计算各功能开关的值，只返回结果不返回规则（直接返回 {features}）。客户端传来的同名属性一律忽略；未登录时不带这些属性。',
          params: z.object({ clientKey: z.string().max(100) }),
          body: featureEvalBody,
          response: { 200: growthbookPayloadSchema },
        },
        config: { auth: 'optional' },
      },
      async (req, reply) => {
        // Per user: shared caches must not keep one user's answer for another.
        reply.header('cache-control', 'private, no-store');
        return deps.flags.evaluateFor(req.session?.userId ?? null, req.body?.attributes ?? {});
      },
    );
  };
}
