import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  emptyData,
  envelope,
  mapIdQuery,
  mapItemSchema,
  mapListSchema,
  mapSaveBody,
  pageQuery,
  topicAnglesBody,
  topicAnglesSchema,
  topicCalendarQuery,
  topicCalendarSchema,
  topicCollectPageSchema,
  topicHotPageSchema,
  topicHotQuery,
  topicIdBody,
  topicIdQuery,
  topicItemSchema,
  trackInfoSchema,
  trackSaveBody,
  trackSearchQuery,
  trackSearchResultSchema,
} from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import type { TopicService } from './topic.service.js';

export function topicRoutes(deps: { topic: TopicService }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['topic'];
    const { topic } = deps;

    app.get(
      '/topic/v3/track/info',
      {
        schema: { tags, summary: '赛道信息：系统赛道（含子赛道）、我的自定义赛道、已选赛道', response: { 200: envelope(trackInfoSchema) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await topic.trackInfo(userIdOf(req))),
    );

    app.post(
      '/topic/v3/track/save',
      {
        schema: { tags, summary: '保存已选赛道（系统赛道名 + 自定义赛道名，整体替换）', body: trackSaveBody, response: { 200: envelope(trackInfoSchema) } },
        config: { auth: 'required', rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (req) => ok(await topic.saveTracks(userIdOf(req), req.body)),
    );

    app.get(
      '/topic/v3/track/search',
      {
        schema: { tags, summary: '按关键词搜索赛道和热点选题', querystring: trackSearchQuery, response: { 200: envelope(trackSearchResultSchema) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await topic.searchTracks(userIdOf(req), req.query.keyword)),
    );

    app.get(
      '/topic/v3/hot',
      {
        schema: { tags, summary: '热点选题（可按赛道、关键词筛选；按热度与时间排序）', querystring: topicHotQuery, response: { 200: envelope(topicHotPageSchema) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await topic.hot(userIdOf(req), req.query)),
    );

    app.get(
      '/topic/v3/detail',
      {
        schema: { tags, summary: '选题详情（含各来源链接）', querystring: topicIdQuery, response: { 200: envelope(topicItemSchema) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await topic.topic(userIdOf(req), req.query.topicId)),
    );

    app.post(
      '/topic/v3/collect',
      {
        schema: { tags, summary: '收藏选题', body: topicIdBody, response: { 200: envelope(z.object({ topicId: z.number(), collected: z.boolean() })) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await topic.collect(userIdOf(req), req.body.topicId, true)),
    );

    app.post(
      '/topic/v3/collect/cancel',
      {
        schema: { tags, summary: '取消收藏选题', body: topicIdBody, response: { 200: envelope(z.object({ topicId: z.number(), collected: z.boolean() })) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await topic.collect(userIdOf(req), req.body.topicId, false)),
    );

    app.get(
      '/topic/v3/collect/list',
      {
        schema: { tags, summary: '我的收藏选题（最新收藏在前）', querystring: pageQuery, response: { 200: envelope(topicCollectPageSchema) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await topic.collections(userIdOf(req), req.query)),
    );

    app.post(
      '/topic/v3/suggest',
      {
        schema: {
          tags,
          summary: '为选题或关键词生成5-10个写作角度（标题与开头），按平台；模型按次扣积分，离线写作免费且标注非AI',
          body: topicAnglesBody,
          response: { 200: envelope(topicAnglesSchema) },
        },
        config: { auth: 'required', rateLimit: { max: 20, timeWindow: '1 minute' } },
      },
      async (req) => ok(await topic.angles(userIdOf(req), req.body)),
    );

    app.get(
      '/topic/v3/calendar',
      {
        schema: {
          tags,
          summary: '选题日历：一个月的传统节日、二十四节气、法定节假日与营销节点（双11、618、开学季…），含写作建议',
          querystring: topicCalendarQuery,
          response: { 200: envelope(topicCalendarSchema) },
        },
        config: { auth: 'required' },
      },
      async (req) => ok(topic.calendar(req.query.month)),
    );

    app.post(
      '/topic/v3/map/save',
      {
        schema: { tags, summary: '保存发散导图（带 id 为更新）', body: mapSaveBody, response: { 200: envelope(mapItemSchema) } },
        config: { auth: 'required', rateLimit: { max: 60, timeWindow: '1 minute' } },
      },
      async (req) => ok(await topic.saveMap(userIdOf(req), req.body)),
    );

    app.get(
      '/topic/v3/map/list',
      {
        schema: { tags, summary: '我的发散导图', response: { 200: envelope(mapListSchema) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await topic.maps(userIdOf(req))),
    );

    app.get(
      '/topic/v3/map/detail',
      {
        schema: { tags, summary: '打开发散导图', querystring: mapIdQuery, response: { 200: envelope(mapItemSchema) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await topic.map(userIdOf(req), req.query.id)),
    );

    app.post(
      '/topic/v3/map/delete',
      {
        schema: { tags, summary: '删除发散导图', body: mapIdQuery, response: { 200: envelope(emptyData) } },
        config: { auth: 'required' },
      },
      async (req) => ok(await topic.deleteMap(userIdOf(req), req.body.id)),
    );
  };
}
