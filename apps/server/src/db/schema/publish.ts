import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './user.js';

/**
 * A platform account bound by a user. `session_enc` holds the platform session (browser storage
 * state, or API credentials) encrypted with AES-256-GCM under APP_SECRET_KEY; it never leaves the server.
 */
export const platformAccounts = pgTable(
  'platform_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    platform: text('platform').notNull(),
    /** The account's id on the platform (stable across re-logins). */
    platformUserId: text('platform_user_id').notNull(),
    accountName: text('account_name').notNull(),
    avatar: text('avatar'),
    /** 'active' | 'expired' */
    status: text('status').notNull().default('active'),
    statusReason: text('status_reason'),
    top: boolean('top').notNull().default(false),
    followerCount: integer('follower_count').notNull().default(0),
    noteCount: integer('note_count').notNull().default(0),
    sessionEnc: text('session_enc'),
    /** Last unread counts read from the platform: {unread_count, likes, connections, mentions}. */
    unread: jsonb('unread').$type<{ unread_count: number; likes: number; connections: number; mentions: number }>(),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    unboundAt: timestamp('unbound_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('platform_accounts_live_uq')
      .on(t.userId, t.platform, t.platformUserId)
      .where(sql`${t.unboundAt} is null`),
    index('platform_accounts_user_idx').on(t.userId, t.platform),
  ],
);

/** A login in progress (QR shown, waiting for the phone), then its captured session until bound. */
export const platformLogins = pgTable(
  'platform_logins',
  {
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    platform: text('platform').notNull(),
    /** 'waiting' | 'scanned' | 'confirmed' | 'completed' | 'bound' | 'expired' | 'failed' */
    state: text('state').notNull(),
    /** The adapter's opaque login state (encrypted: it may hold credentials). */
    loginEnc: text('login_enc'),
    sessionEnc: text('session_enc'),
    profile: jsonb('profile').$type<{ platformUserId: string; accountName: string; avatar: string | null; followerCount?: number; noteCount?: number }>(),
    error: text('error'),
    accountId: bigint('account_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('platform_logins_user_idx').on(t.userId, t.createdAt)],
);

/** One publish request: the content, sent to one or more accounts. */
export const publishTasks = pgTable(
  'publish_tasks',
  {
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    draftId: text('draft_id'),
    content: jsonb('content').$type<{ title: string; body: string; images: string[]; topics: string[] }>().notNull(),
    scheduleAt: timestamp('schedule_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('publish_tasks_user_idx').on(t.userId, t.createdAt)],
);

/**
 * One account's share of a publish task. The queue only dispatches `{jobId}`; the state is here.
 * `submit_started_at` is the idempotency marker written just before the final submit: a retry that
 * finds it set looks for the note on the platform before submitting again.
 */
export const publishJobs = pgTable(
  'publish_jobs',
  {
    id: text('id').primaryKey(),
    publishId: text('publish_id')
      .notNull()
      .references(() => publishTasks.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => platformAccounts.id),
    platform: text('platform').notNull(),
    /** 'queued' | 'running' | 'succeeded' | 'failed' */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    submitStartedAt: timestamp('submit_started_at', { withTimezone: true }),
    resultUrl: text('result_url'),
    platformNoteId: text('platform_note_id'),
    /** 'published' | 'scheduled' | 'reviewing' as the platform reports it. */
    platformStatus: text('platform_status'),
    errorCode: text('error_code'),
    error: text('error'),
    screenshotPath: text('screenshot_path'),
    clientSubmitStatus: jsonb('client_submit_status').$type<Record<string, unknown>>(),
    /** Every failed attempt: when, why, and the screenshot saved for the user. */
    history: jsonb('history').$type<Array<{ attempt: number; at: string; error: string; errorCode: string; screenshotPath: string | null }>>().notNull().default([]),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('publish_jobs_publish_idx').on(t.publishId),
    index('publish_jobs_status_idx').on(t.status, t.runAt),
    // The user's publish history (GET /publish/record/list), per account, newest first.
    index('publish_jobs_user_account_created_idx').on(t.userId, t.accountId, t.createdAt),
  ],
);

/** Comments fetched from the platforms, with the purchase/contact intents found in them. */
export const platformComments = pgTable(
  'platform_comments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => platformAccounts.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    platformCommentId: text('platform_comment_id').notNull(),
    noteId: text('note_id'),
    noteTitle: text('note_title'),
    author: text('author').notNull(),
    content: text('content').notNull(),
    intents: jsonb('intents').$type<string[]>().notNull().default([]),
    commentedAt: timestamp('commented_at', { withTimezone: true }).notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('platform_comments_uq').on(t.accountId, t.platformCommentId), index('platform_comments_account_idx').on(t.accountId, t.commentedAt)],
);
