import { z } from 'zod';
import {
  anglePlatforms,
  graphicTaskCreateBody,
  publishArticleBody,
  taskCreateBody,
  type GraphicTaskCreateBody,
  type KnowledgeSearchResult,
  type PlatformAccount,
  type PublishArticleBody,
  type PublishArticleReply,
  type TaskCreateBody,
  type TaskInfo,
  type TopicAngles,
  type TopicHotPage,
} from '@inkstone/shared';
import type { ToolDefinition } from '../../integrations/llm/types.js';

/**
 * What the agent's tools call: the very services the pages use (wired in container.ts), so every ownership check and
 * charge is theirs. Declared here as ports so this area does not depend on how the others are split into files.
 */
export interface AgentPorts {
  topics: {
    hot(userId: number, q: { pageNum: number; pageSize: number; keyword?: string | undefined; track?: string | undefined }): Promise<TopicHotPage>;
    angles(
      userId: number,
      body: {
        keyword?: string | undefined;
        topicId?: number | undefined;
        platform: (typeof anglePlatforms)[number];
        count: number;
        modelConfigType?: string | null;
        requestId?: string;
      },
    ): Promise<TopicAngles>;
  };
  knowledge: { search(userId: number, q: string, f: Record<string, never>, limit: number): Promise<KnowledgeSearchResult> };
  tasks: {
    createArticle(userId: number, body: TaskCreateBody): Promise<{ taskId: string }>;
    createGraphic(userId: number, body: GraphicTaskCreateBody): Promise<{ taskId: string }>;
    /** NOT_FOUND for another user's task. */
    info(userId: number, taskId: string): Promise<TaskInfo>;
  };
  /** NOT_FOUND for another user's draft. */
  drafts: { draft(userId: number, id: number): Promise<{ id: number; title: string }> };
  accounts: {
    list(userId: number, q: { pageNum: number; pageSize: number }): Promise<{ records: PlatformAccount[]; total: number }>;
    count(userId: number): Promise<{ total: number; publishData: Record<string, number> }>;
    /** NOT_FOUND for another user's account. */
    ownAccount(userId: number, accountId: number): Promise<{ id: number; accountName: string; platform: string }>;
    unbind(userId: number, accountId: number): Promise<void>;
  };
  publishing: { publish(userId: number, body: PublishArticleBody): Promise<PublishArticleReply> };
}

/** The tools offered to the model (OpenAI function calling); names and arguments are validated again below. */
export const agentTools: ToolDefinition[] = [
  {
    name: 'hot_topics',
    description: '查询当前热点选题（来自热榜），可按关键词或赛道筛选。',
    parameters: {
      type: 'object',
      properties: {
        keyword: { type: 'string', description: '关键词，如“母婴”' },
        track: { type: 'string', description: '赛道名' },
        limit: { type: 'integer', minimum: 1, maximum: 20 },
      },
    },
  },
  {
    name: 'topic_angles',
    description: '为一个热点或关键词生成5到10个写作角度（会按选题角度生成扣积分）。',
    parameters: {
      type: 'object',
      properties: {
        keyword: { type: 'string' },
        topicId: { type: 'integer' },
        platform: { type: 'string', enum: [...anglePlatforms] },
        count: { type: 'integer', minimum: 5, maximum: 10 },
      },
    },
  },
  {
    name: 'knowledge_search',
    description: '在用户自己的知识库中检索相关段落。',
    parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 10 } }, required: ['query'] },
  },
  {
    name: 'write_article',
    description: '创建一篇文章的写作任务（真实的AI写作任务，按写作类型扣积分），返回 taskId；写完后生成草稿。',
    parameters: {
      type: 'object',
      properties: { content: { type: 'string', description: '写作要求：主题、角度、受众、字数等' }, writeType: { type: 'string', enum: ['quick', 'deep'] } },
      required: ['content'],
    },
  },
  {
    name: 'write_graphic',
    description: '创建一篇小红书风格图文笔记的生成任务（卡片+正文），返回 taskId。',
    parameters: { type: 'object', properties: { content: { type: 'string', description: '笔记的主题与要求' } }, required: ['content'] },
  },
  {
    name: 'list_accounts',
    description: '列出用户已绑定的发布账号及其粉丝、笔记数和近期数据。',
    parameters: { type: 'object', properties: {} },
  },
  {
    name: 'schedule_publish',
    description: '把写作任务（taskId）或草稿（draftId）发布或定时发布到指定账号。需要用户在页面上确认后才会执行。',
    parameters: {
      type: 'object',
      properties: {
        accountIds: { type: 'array', items: { type: 'integer' } },
        taskId: { type: 'string' },
        draftId: { type: 'integer' },
        scheduleAt: { type: 'string', description: 'ISO 8601 时间（含时区）；不填为立即发布' },
      },
      required: ['accountIds'],
    },
  },
  {
    name: 'unbind_account',
    description: '解除绑定一个发布账号。需要用户在页面上确认后才会执行。',
    parameters: { type: 'object', properties: { accountId: { type: 'integer' } }, required: ['accountId'] },
  },
];

const intId = (name: string) =>
  z.coerce
    .number({ error: `${name} 必须是数字` })
    .int(`${name} 必须是整数`)
    .positive(`${name} 无效`);

/** Argument schemas: the model's JSON is untrusted input like any request body. */
export const toolArgs = {
  hot_topics: z.object({ keyword: z.string().trim().max(50).optional(), track: z.string().trim().max(50).optional(), limit: z.coerce.number().int().min(1).max(20).default(8) }),
  topic_angles: z
    .object({
      keyword: z.string().trim().min(1).max(100).optional(),
      topicId: intId('topicId').optional(),
      platform: z.enum(anglePlatforms).default('xiaohongshu'),
      count: z.coerce.number().int().min(5).max(10).default(6),
    })
    .refine((a) => a.keyword || a.topicId, '需要 keyword 或 topicId'),
  knowledge_search: z.object({ query: z.string().trim().min(1, 'query 不能为空').max(200), limit: z.coerce.number().int().min(1).max(10).default(5) }),
  write_article: z.object({ content: taskCreateBody.shape.content, writeType: z.enum(['quick', 'deep']).default('quick') }),
  write_graphic: z.object({ content: graphicTaskCreateBody.shape.content }),
  list_accounts: z.object({}),
  schedule_publish: z
    .object({
      accountIds: publishArticleBody.shape.accountIds,
      taskId: z.string().min(1).max(64).optional(),
      draftId: intId('draftId').optional(),
      scheduleAt: z.iso.datetime({ offset: true, error: 'scheduleAt 必须是ISO时间' }).optional(),
    })
    .refine((a) => a.taskId !== undefined || a.draftId !== undefined, '需要 taskId 或 draftId'),
  unbind_account: z.object({ accountId: intId('accountId') }),
} as const;

export type ToolName = keyof typeof toolArgs;
export const isToolName = (n: string): n is ToolName => Object.hasOwn(toolArgs, n);

/** The first problem of a failed parse, as `field：message` (the model reads it and may correct itself). */
export function argsProblem(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return '参数无效';
  return issue.path.length ? `${issue.path.join('.')}：${issue.message}` : issue.message;
}
