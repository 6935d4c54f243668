import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  abilityCreateBody,
  envelope,
  festivalItemSchema,
  festivalQuery,
  homeAbilities,
  homeAbilityItemSchema,
  homeInputQuery,
  savedHomeInputSchema,
  modelItemSchema,
  saveHomeInputBody,
  searchStatusSchema,
  streamQuery,
  streamTicketBody,
  streamTicketSchema,
  styleCardSchema,
  suggestWordSchema,
  anyTaskCreateBody,
  taskIdQuery,
  taskIdSchema,
  taskInfoSchema,
  titleGenerateBody,
  titleGenerateSchema,
  writingLimits,
} from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { tokenOf, userIdOf } from '../../http/auth-guard.js';
import type { SessionService } from '../auth/session.service.js';
import { openEventFeed, resumeAfter, streamStoredEvents } from '../../http/event-stream.js';
import type { StreamTicketService } from './stream-ticket.service.js';
import type { TaskSignals } from './task-sink.js';
import type { WritingTaskService } from './task.service.js';
import type { WritingRepo } from './writing.repo.js';
import type { WritingService } from './writing.service.js';

export interface WritingDeps {
  writing: WritingService;
  tasks: WritingTaskService;
  sessions: SessionService;
  tickets: StreamTicketService;
  repo: WritingRepo;
  signals: TaskSignals;
  pollMs: number;
}

const taskEventsDoc = [
  'Server-Sent Events. 认证：请求头 inkstone-token，或查询参数 ticket（EventSource 无法设置请求头；先调用 POST /mp/task/stream/ticket 取得 60 秒内有效、仅限本任务的凭证）。',
  '断线续传：浏览器自动带 Last-Event-ID 请求头，也可用查询参数 lastEventId。',
  '事件：progress {stage,message,percent} | reasoning {text} | delta {text} | reset {reason}（丢弃已收到的正文）| title {title}',
  '| sources {items:[{n,title,url,snippet,siteName}]} | usage {promptTokens,completionTokens,totalTokens} | done {draftId,title} | error {code,msg,refunded}。',
  'done 或 error 之后服务器关闭连接。',
].join('\n');

export function writingRoutes(deps: WritingDeps) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['writing'];
    const required = { auth: 'required' as const };
    const { writing, tasks } = deps;

    // ---- models, search ----
    app.get(
      '/writing/model/list',
      {
        schema: { tags, summary: '写作模型列表（不含密钥；isAi=false 为离线写作助手）', response: { 200: envelope(z.array(modelItemSchema)) } },
        config: required,
      },
      async () => ok(await writing.models()),
    );

    app.get(
      '/writing/search/status',
      {
        schema: { tags, summary: '联网搜索是否可用', response: { 200: envelope(searchStatusSchema) } },
        config: required,
      },
      async () => ok(await writing.searchStatus()),
    );

    // ---- home input ----
    app.post(
      '/writing/style/save/homepage/input',
      {
        schema: { tags, summary: '保存首页输入（article / graphic 分开保存）', body: saveHomeInputBody, response: { 200: envelope(savedHomeInputSchema) } },
        bodyLimit: writingLimits.homeInputMaxBytes * 2,
        config: required,
      },
      async (req) => {
        const { createType, ...input } = req.body;
        return ok(await writing.saveHomeInput(userIdOf(req), createType, input));
      },
    );

    app.get(
      '/writing/style/homepage/input',
      {
        schema: { tags, summary: '读取首页输入（未保存时返回默认值，writeType 默认 deep）', querystring: homeInputQuery, response: { 200: envelope(savedHomeInputSchema) } },
        config: required,
      },
      async (req) => ok(await writing.homeInput(userIdOf(req), req.query.createType)),
    );

    app.get(
      '/writing/style/home/v2',
      {
        schema: { tags, summary: '写作风格卡片', response: { 200: envelope(z.array(styleCardSchema)) } },
        config: { auth: 'optional' as const },
      },
      async () => ok(writing.styles()),
    );

    app.get(
      '/writing/ability/types',
      {
        schema: { tags, summary: '首页写作能力（文体）列表', response: { 200: envelope(z.array(homeAbilityItemSchema)) } },
        config: { auth: 'optional' as const },
      },
      async () => ok(homeAbilities.map(({ id, label, description }) => ({ id, label, description }))),
    );

    app.get(
      '/writing/style/homepage/words/v2',
      {
        schema: { tags, summary: '推荐词（按用户行业、近期节日节气）', response: { 200: envelope(z.array(suggestWordSchema)) } },
        config: required,
      },
      async (req) => ok(await writing.suggestedWords(userIdOf(req))),
    );

    app.get(
      '/mpTopic/v2/festival',
      {
        schema: { tags, summary: '一年的传统节日、二十四节气、法定节假日及写作建议', querystring: festivalQuery, response: { 200: envelope(z.array(festivalItemSchema)) } },
        config: { auth: 'optional' as const },
      },
      async (req) => ok(writing.festivals(req.query.year)),
    );

    // ---- tasks ----
    app.post(
      '/mp/task/create',
      {
        schema: {
          tags,
          summary: '创建写作任务：createType article 文章，graphic 图文（扣积分；敏感内容 933；积分不足 1501）',
          body: anyTaskCreateBody,
          response: { 200: envelope(taskIdSchema) },
        },
        config: { auth: 'required' as const, rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (req) => ok(req.body.createType === 'graphic' ? await tasks.createGraphic(userIdOf(req), req.body) : await tasks.createArticle(userIdOf(req), req.body)),
    );

    app.post(
      '/writing/ability/create',
      {
        schema: {
          tags,
          summary: 'AI 能力（续写/扩写/缩写/润色/人设改写/改语气），结果经 /mp/task/stream 流式返回',
          body: abilityCreateBody,
          response: { 200: envelope(taskIdSchema) },
        },
        config: { auth: 'required' as const, rateLimit: { max: 60, timeWindow: '1 minute' } },
      },
      async (req) => ok(await tasks.createAbility(userIdOf(req), req.body)),
    );

    app.post(
      '/writing/title/generate',
      {
        schema: { tags, summary: '标题生成（扣 title 积分，失败退还）', body: titleGenerateBody, response: { 200: envelope(titleGenerateSchema) } },
        config: { auth: 'required' as const, rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (req) => ok(await tasks.generateTitles(userIdOf(req), req.body)),
    );

    app.get(
      '/mp/task/info',
      {
        schema: { tags, summary: '任务状态与已生成的正文', querystring: taskIdQuery, response: { 200: envelope(taskInfoSchema) } },
        config: required,
      },
      async (req) => ok(await tasks.info(userIdOf(req), req.query.taskId)),
    );

    app.post(
      '/mp/task/stream/ticket',
      {
        schema: {
          tags,
          summary: '获取任务事件流凭证（60 秒内有效，仅限本人本任务；浏览器以 ?ticket= 打开事件流）',
          body: streamTicketBody,
          response: { 200: envelope(streamTicketSchema) },
        },
        config: { auth: 'required' as const, rateLimit: { max: 120, timeWindow: '1 minute' } },
      },
      async (req) => {
        const userId = userIdOf(req);
        await tasks.requireTask(userId, req.body.taskId);
        return ok(await deps.tickets.issue(userId, req.body.taskId));
      },
    );

    app.get(
      '/mp/task/stream/:taskId',
      {
        schema: { tags, summary: '任务事件流（SSE）', description: taskEventsDoc, params: z.object({ taskId: z.string().min(1).max(64) }), querystring: streamQuery },
      },
      async (req, reply) => {
        // Authenticated here, not by the guard: EventSource cannot send the header, so browsers bring a ?ticket=.
        // The session token is never accepted in the query string: URLs end up in logs and history.
        const token = tokenOf(req);
        const userId = token || !req.query.ticket ? (await deps.sessions.authenticate(token)).userId : await deps.tickets.redeem(req.query.ticket, req.params.taskId);
        const lastEventId = resumeAfter(req.headers['last-event-id'], req.query.lastEventId);
        const taskId = req.params.taskId;
        const read = (after: number, limit: number) => deps.repo.eventsAfter(taskId, after, limit);
        // The check that the task is the user's is the first read's own condition: one query before the first bytes.
        const opened = await openEventFeed({
          id: taskId,
          lastEventId,
          read,
          signals: deps.signals,
          first: (after, limit) => tasks.ownEventsAfter(userId, taskId, after, limit),
        });
        reply.hijack();
        // Shutdown: one more read for what the checkpoint wrote, then end.
        await streamStoredEvents({ res: reply.raw, requestId: req.id, id: taskId, lastEventId, read, signals: deps.signals, shutdown: deps.signals, pollMs: deps.pollMs, opened });
      },
    );
  };
}
