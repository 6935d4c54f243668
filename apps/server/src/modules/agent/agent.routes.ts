import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agentActionBody,
  agentActionSchema,
  agentConversationDetailSchema,
  agentConversationQuery,
  agentConversationSchema,
  agentIdBody,
  agentRenameBody,
  agentSendBody,
  agentSendReply,
  agentStatusSchema,
  emptyData,
  envelope,
} from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import type { AgentRepo } from './agent.repo.js';
import type { AgentService } from './agent.service.js';
import { resumeAfter, streamStoredEvents } from '../../http/event-stream.js';

const streamDoc =
  'Server-Sent Events（需登录请求头 inkstone-token；浏览器用 fetch 读取）。事件：reasoning {text}、delta {text}、tool_call {id,name,arguments}、tool_result {id,name,result}、action（待确认操作）、task {taskId,kind}、done {usage}、error {code,msg,refunded}。以 Last-Event-ID 或 ?lastEventId= 续传。';

export function agentRoutes(deps: { agent: AgentService; repo: AgentRepo; pollMs: number }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['agent'];
    const config = { auth: 'required' } as const;
    const { agent } = deps;

    app.get('/agent/status', { schema: { tags, summary: '智能体是否可用（未配置AI模型时不可用）', response: { 200: envelope(agentStatusSchema) } }, config }, async () =>
      ok(await agent.status()),
    );
    app.get('/agent/conversations', { schema: { tags, summary: '对话列表（最近100个）', response: { 200: envelope(z.array(agentConversationSchema)) } }, config }, async (req) =>
      ok(await agent.list(userIdOf(req))),
    );
    app.get(
      '/agent/conversation',
      {
        schema: { tags, summary: '对话详情：消息、工具结果、待确认操作', querystring: agentConversationQuery, response: { 200: envelope(agentConversationDetailSchema) } },
        config,
      },
      async (req) => ok(await agent.detail(userIdOf(req), req.query.id)),
    );
    app.post('/agent/conversation/rename', { schema: { tags, summary: '重命名对话', body: agentRenameBody, response: { 200: envelope(emptyData) } }, config }, async (req) => {
      await agent.rename(userIdOf(req), req.body.id, req.body.title);
      return ok(null);
    });
    app.post('/agent/conversation/delete', { schema: { tags, summary: '删除对话', body: agentIdBody, response: { 200: envelope(emptyData) } }, config }, async (req) => {
      await agent.remove(userIdOf(req), req.body.id);
      return ok(null);
    });
    app.post(
      '/agent/send',
      {
        schema: { tags, summary: '发送消息（新对话或继续对话），按轮扣积分，结果经 /agent/turn/stream 流式返回', body: agentSendBody, response: { 200: envelope(agentSendReply) } },
        config: { ...config, rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (req) => ok(await agent.send(userIdOf(req), req.body)),
    );
    app.post(
      '/agent/confirm',
      { schema: { tags, summary: '确认智能体提出的操作（发布、解绑、大额消耗）并执行', body: agentActionBody, response: { 200: envelope(agentActionSchema) } }, config },
      async (req) => ok(await agent.confirm(userIdOf(req), req.body.actionId)),
    );
    app.post(
      '/agent/reject',
      { schema: { tags, summary: '取消智能体提出的操作（不执行）', body: agentActionBody, response: { 200: envelope(agentActionSchema) } }, config },
      async (req) => ok(await agent.reject(userIdOf(req), req.body.actionId)),
    );
    app.get(
      '/agent/turn/stream/:turnId',
      {
        schema: {
          tags,
          summary: '对话轮次事件流（SSE）',
          description: streamDoc,
          params: z.object({ turnId: z.string().uuid('turnId 无效') }),
          querystring: z.object({ lastEventId: z.coerce.number().int().min(0).optional() }),
        },
        config,
      },
      async (req, reply) => {
        await agent.requireTurn(userIdOf(req), req.params.turnId);
        const lastEventId = resumeAfter(req.headers['last-event-id'], req.query.lastEventId);
        reply.hijack();
        await streamStoredEvents({
          res: reply.raw,
          requestId: req.id,
          id: req.params.turnId,
          lastEventId,
          read: (after, limit) => deps.repo.eventsAfter(req.params.turnId, after, limit),
          signals: agent.signals,
          pollMs: deps.pollMs,
        });
      },
    );
  };
}
