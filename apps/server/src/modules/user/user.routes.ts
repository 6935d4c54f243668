import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  appReleaseQuery,
  appReleaseSchema,
  changeNicknameQuery,
  envelope,
  eventReportQuery,
  fillInfoBody,
  globalSettingSchema,
  limits,
  settingItemSchema,
  settingUpdateBody,
  userProfileSchema,
} from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import type { UserService } from './user.service.js';
import { currentRelease } from './release-notes.js';

const logKinds = ['sync/draft/success', 'sync/draft/fail', 'publish/success', 'publish/fail'] as const;

export function userRoutes(deps: { users: UserService; downloadUrl: string | null }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['user'];

    app.post(
      '/user/change-nickname',
      {
        schema: { tags, summary: '修改昵称', querystring: changeNicknameQuery, response: { 200: envelope(userProfileSchema) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await deps.users.changeNickname(userIdOf(req), req.query.nickname)),
    );

    app.post(
      '/user/fill/info',
      {
        schema: { tags, summary: '完善创作者资料', body: fillInfoBody, response: { 200: envelope(userProfileSchema) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await deps.users.fillInfo(userIdOf(req), req.body)),
    );

    app.get(
      '/user/setting/list',
      {
        schema: { tags, summary: '用户设置列表', response: { 200: envelope(z.array(settingItemSchema)) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await deps.users.settings(userIdOf(req))),
    );

    app.put(
      '/user/setting/update',
      {
        schema: { tags, summary: '更新一项用户设置', body: settingUpdateBody, response: { 200: envelope(z.array(settingItemSchema)) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await deps.users.updateSetting(userIdOf(req), req.body.settingKey, req.body.settingValue)),
    );

    app.get(
      '/user/global-setting',
      {
        schema: { tags, summary: '全局设置（每日奖励、回归奖励、logo）', response: { 200: envelope(globalSettingSchema) } },
      },
      async () => ok(await deps.users.globalSetting()),
    );

    app.get(
      '/app/release',
      {
        schema: { tags, summary: '当前版本与更新说明（version 为客户端版本，原样带回）', querystring: appReleaseQuery, response: { 200: envelope(appReleaseSchema) } },
      },
      async (req) => ok({ ...currentRelease, clientVersion: req.query.version ?? null, downloadUrl: deps.downloadUrl }),
    );

    app.get(
      '/user/event/report',
      {
        schema: { tags, summary: '上报使用事件（open-software / close-software 等）', querystring: eventReportQuery, response: { 200: envelope(z.null()) } },
        config: { auth: 'optional', rateLimit: { max: 120, timeWindow: '1 minute' } },
      },
      async (req) => {
        await deps.users.reportEvent(req.session?.userId ?? null, req.query);
        return ok(null);
      },
    );

    app.post(
      '/engine/v2/log/collect',
      {
        schema: { tags: ['log'], summary: '客户端日志收集', body: z.record(z.string(), z.unknown(), { error: '请求体必须是 JSON 对象' }), response: { 200: envelope(z.null()) } },
        bodyLimit: limits.logCollectMaxBytes,
        config: { auth: 'optional', rateLimit: { max: 120, timeWindow: '1 minute' } },
      },
      async (req) => {
        await deps.users.collectLog(req.session?.userId ?? null, 'engine', req.body);
        return ok(null);
      },
    );

    for (const kind of logKinds) {
      app.get(
        `/engine/log/collect/${kind}`,
        {
          schema: {
            tags: ['log'],
            summary: `上报 ${kind}`,
            querystring: z.record(z.string(), z.string().max(2000, '参数值过长')).refine((q) => Object.keys(q).length <= 30, '参数过多'),
            response: { 200: envelope(z.null()) },
          },
          config: { auth: 'optional', rateLimit: { max: 120, timeWindow: '1 minute' } },
        },
        async (req) => {
          await deps.users.collectLog(req.session?.userId ?? null, kind, req.query);
          return ok(null);
        },
      );
    }
  };
}
