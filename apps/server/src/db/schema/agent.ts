import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './user.js';

/** 智能体 conversations: one per chat in the list (rename, delete, continue). */
export const agentConversations = pgTable(
  'agent_conversations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_conversations_user_idx').on(t.userId, t.updatedAt)],
);

export type AgentToolCallRecord = { id: string; name: string; arguments: string };

/**
 * The conversation as the model sees it, in order: user goals, assistant turns (with their tool calls) and tool results
 * (`content` is the JSON the model read; `result` what the page draws as a card).
 */
export const agentMessages = pgTable(
  'agent_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => agentConversations.id, { onDelete: 'cascade' }),
    turnId: text('turn_id').notNull(),
    role: text('role').$type<'user' | 'assistant' | 'tool'>().notNull(),
    content: text('content').notNull().default(''),
    reasoning: text('reasoning').notNull().default(''),
    toolCalls: jsonb('tool_calls').$type<AgentToolCallRecord[]>(),
    toolCallId: text('tool_call_id'),
    toolName: text('tool_name'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_messages_conversation_idx').on(t.conversationId, t.id)],
);

/** One user message and the agent's work on it: charged once (`agent-turn:<id>`), refunded once when it fails. */
export const agentTurns = pgTable(
  'agent_turns',
  {
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => agentConversations.id, { onDelete: 'cascade' }),
    modelId: text('model_id').notNull(),
    status: text('status').$type<'queued' | 'running' | 'done' | 'failed'>().notNull().default('queued'),
    pointsCharged: integer('points_charged').notNull().default(0),
    errorCode: integer('error_code'),
    errorMsg: text('error_msg'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('agent_turns_conversation_idx').on(t.conversationId), index('agent_turns_status_idx').on(t.status)],
);

/** What a turn streamed (reasoning, text, tool cards, confirm cards, done/error), served as SSE and resumable by id. */
export const agentEvents = pgTable(
  'agent_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    turnId: text('turn_id')
      .notNull()
      .references(() => agentTurns.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_events_turn_idx').on(t.turnId, t.id)],
);

/**
 * Actions the agent may only propose (publish or schedule, unbind, spend over the confirm threshold): nothing happens
 * until the user confirms; `status` moves once from pending to confirmed/rejected (a second click changes nothing).
 */
export const agentActions = pgTable(
  'agent_actions',
  {
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => agentConversations.id, { onDelete: 'cascade' }),
    turnId: text('turn_id').notNull(),
    kind: text('kind').$type<'publish' | 'unbind' | 'write' | 'angles'>().notNull(),
    args: jsonb('args').$type<Record<string, unknown>>().notNull(),
    summary: text('summary').notNull(),
    status: text('status').$type<'pending' | 'confirming' | 'confirmed' | 'rejected' | 'failed'>().notNull().default('pending'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [index('agent_actions_user_idx').on(t.userId, t.status)],
);
