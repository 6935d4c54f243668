import { z } from 'zod';
import { agentLimits } from '../constants/agent.js';

/** 智能体 (/agent): conversations, turns streamed as SSE, tool results and actions awaiting the user's confirm. */

const id = (name: string) =>
  z.coerce
    .number({ error: `${name} 必须是数字` })
    .int(`${name} 必须是整数`)
    .positive(`${name} 无效`);

export const agentStatusSchema = z.object({
  /** False when no AI model is configured: the page offers the guided flows instead. */
  available: z.boolean(),
  modelLabel: z.string().nullable(),
  /** Points one turn costs. */
  pointsPerTurn: z.number().int(),
  /** Spending more than this in one tool call waits for a confirm. */
  confirmPoints: z.number().int(),
});
export type AgentStatus = z.infer<typeof agentStatusSchema>;

export const agentConversationSchema = z.object({ id: z.number().int(), title: z.string(), createdAt: z.string(), updatedAt: z.string() });
export type AgentConversation = z.infer<typeof agentConversationSchema>;

export const agentActionKinds = ['publish', 'unbind', 'write', 'angles'] as const;
export const agentActionSchema = z.object({
  actionId: z.string(),
  kind: z.enum(agentActionKinds),
  summary: z.string(),
  status: z.enum(['pending', 'confirming', 'confirmed', 'rejected', 'failed']),
  args: z.record(z.string(), z.unknown()),
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
});
export type AgentAction = z.infer<typeof agentActionSchema>;

export const agentMessageSchema = z.object({
  id: z.number().int(),
  turnId: z.string(),
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.string(),
  reasoning: z.string(),
  toolName: z.string().nullable(),
  toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).nullable(),
  /** What the tool card shows (tasks, topics, accounts, the pending action). */
  result: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type AgentMessage = z.infer<typeof agentMessageSchema>;

export const agentTurnSchema = z.object({
  turnId: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  errorCode: z.number().int().nullable(),
  errorMsg: z.string().nullable(),
});

export const agentConversationDetailSchema = z.object({
  conversation: agentConversationSchema,
  messages: z.array(agentMessageSchema),
  actions: z.array(agentActionSchema),
  turns: z.array(agentTurnSchema),
});
export type AgentConversationDetail = z.infer<typeof agentConversationDetailSchema>;

export const agentConversationQuery = z.object({ id: id('id') });
export const agentRenameBody = z.object({
  id: id('id'),
  title: z.string({ error: '请填写标题' }).trim().min(1, '标题不能为空').max(agentLimits.titleMax, `标题最多${agentLimits.titleMax}个字`),
});
export const agentIdBody = z.object({ id: id('id') });

export const agentSendBody = z.object({
  /** Absent: a new conversation titled after the message. */
  conversationId: id('conversationId').optional(),
  content: z.string({ error: '请输入内容' }).trim().min(1, 'content 不能为空').max(agentLimits.contentMax, `content 最多${agentLimits.contentMax}个字`),
});
export const agentSendReply = z.object({ conversationId: z.number().int(), turnId: z.string() });

export const agentActionBody = z.object({ actionId: z.string({ error: '请提供 actionId' }).regex(/^[A-Za-z0-9_-]{8,64}$/, 'actionId 无效') });
