import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './user.js';

/** Model configurations added by the admin CLI or the console (模型与来源); models from LLM_MODELS live only in config. */
export const llmModels = pgTable('llm_models', {
  id: text('id').primaryKey(),
  label: text('label').notNull(),
  baseUrl: text('base_url').notNull(),
  model: text('model').notNull(),
  /** AES-256-GCM under the app key (security/encryption.ts); never sent to clients. */
  apiKeyEnc: text('api_key_enc').notNull(),
  /** Feature of the points dictionary this model is charged under; null = by write type. */
  pointsFeature: text('points_feature'),
  capabilities: jsonb('capabilities').$type<string[]>().notNull().default([]),
  sort: integer('sort').notNull().default(0),
  /** Off: not offered to writers (a task already holding it fails with MODEL_UNAVAILABLE). */
  enabled: boolean('enabled').notNull().default(true),
  /** The writer's default when LLM_DEFAULT_MODEL is not set (at most one row, kept so by the console). */
  isDefault: boolean('is_default').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type WritingTaskKind = 'article' | 'ability' | 'graphic';
export type WritingTaskStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** One piece of paid AI work. Its progress is the event table below; its state survives restarts. */
export const writingTasks = pgTable(
  'writing_tasks',
  {
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    kind: text('kind').$type<WritingTaskKind>().notNull(),
    /** article: deep | quick | imitate | rewrite; ability: continue | expand | ... */
    mode: text('mode').notNull(),
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    modelId: text('model_id').notNull(),
    status: text('status').$type<WritingTaskStatus>().notNull().default('queued'),
    title: text('title').notNull().default(''),
    /** Text so far (flushed with the events); the full text once succeeded, partial text when failed. */
    text: text('text').notNull().default(''),
    pointsFeature: text('points_feature').notNull(),
    pointsCharged: integer('points_charged').notNull().default(0),
    /** Runs started; a task interrupted too often is failed and refunded instead of started again. */
    runs: integer('runs').notNull().default(0),
    errorCode: integer('error_code'),
    errorMsg: text('error_msg'),
    usage: jsonb('usage').$type<{ promptTokens: number; completionTokens: number; totalTokens: number }>(),
    draftId: bigint('draft_id', { mode: 'number' }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('writing_tasks_user_idx').on(t.userId, t.createdAt),
    index('writing_tasks_open_idx')
      .on(t.status)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/** Stored stream chunks: SSE replays them by id (Last-Event-ID), so any instance can serve a stream. */
export const writingTaskEvents = pgTable(
  'writing_task_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    taskId: text('task_id')
      .notNull()
      .references(() => writingTasks.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('writing_task_events_task_idx').on(t.taskId, t.id)],
);

/**
 * Short-lived tickets for opening one task's SSE stream: EventSource cannot send headers, and a session token in a
 * URL ends up in logs and browser history. Only the SHA-256 is stored; a ticket names one user and one task.
 */
export const streamTickets = pgTable(
  'stream_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    taskId: text('task_id')
      .notNull()
      .references(() => writingTasks.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('stream_tickets_expires_idx').on(t.expiresAt)],
);

export const drafts = pgTable(
  'drafts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    title: text('title').notNull().default(''),
    html: text('html').notNull().default(''),
    markdown: text('markdown').notNull().default(''),
    taskId: text('task_id'),
    createType: text('create_type').notNull().default('article'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('drafts_user_updated_idx').on(t.userId, t.updatedAt)],
);

export const personas = pgTable(
  'personas',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    platform: text('platform').notNull().default(''),
    industry: text('industry').notNull().default(''),
    audience: text('audience').notNull().default(''),
    tone: text('tone').notNull().default(''),
    tabooWords: jsonb('taboo_words').$type<string[]>().notNull().default([]),
    sampleTexts: jsonb('sample_texts').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('personas_user_idx').on(t.userId)],
);

/** The home input box, kept per user separately for 'article' and 'graphic'. */
export const homeInputs = pgTable(
  'home_inputs',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    createType: text('create_type').notNull(),
    value: jsonb('value').$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.createType] })],
);

/** Uploaded files: quoted documents (parsed to text) and images. Bytes live in the storage adapter. */
export const userFiles = pgTable(
  'user_files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    kind: text('kind').$type<'quote' | 'image'>().notNull(),
    name: text('name').notNull(),
    ext: text('ext').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull(),
    /** Parsed text of a quoted document (capped). */
    text: text('text'),
    keywords: jsonb('keywords').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('user_files_user_kind_idx').on(t.userId, t.kind, t.createdAt)],
);

/** Words added to the sensitive-content lexicon by operators (`lexicon:add`), on top of the committed lists. */
export const sensitiveWords = pgTable('sensitive_words', {
  word: text('word').primaryKey(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
