import { bigint, bigserial, date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { platformAccounts } from './publish.js';
import { users } from './user.js';

/**
 * Data analysis snapshots: what a platform reported for one account on one (Asia/Shanghai) calendar day, appended
 * once per day and never updated, so past figures stay as they were read. `followers` is the end-of-day total; the
 * other figures are that day's amounts.
 */
export const dataAccountDays = pgTable(
  'data_account_days',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => platformAccounts.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    day: date('day', { mode: 'string' }).notNull(),
    followers: integer('followers').notNull(),
    newFollowers: integer('new_followers').notNull(),
    views: integer('views').notNull(),
    likes: integer('likes').notNull(),
    collects: integer('collects').notNull(),
    comments: integer('comments').notNull(),
    shares: integer('shares').notNull(),
    /**
     * The account's note totals at the end of the day (each note's newest figures on or before it, summed), written
     * with the row so the dashboard reads one row per account instead of scanning every note's history.
     */
    notes: integer('notes').notNull().default(0),
    totalViews: bigint('total_views', { mode: 'number' }).notNull().default(0),
    totalLikes: bigint('total_likes', { mode: 'number' }).notNull().default(0),
    totalCollects: bigint('total_collects', { mode: 'number' }).notNull().default(0),
    totalComments: bigint('total_comments', { mode: 'number' }).notNull().default(0),
    totalShares: bigint('total_shares', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('data_account_days_uq').on(t.accountId, t.day), index('data_account_days_user_idx').on(t.userId, t.day)],
);

/** One note's cumulative figures at the end of a day (append-only like the account rows). */
export const dataNoteDays = pgTable(
  'data_note_days',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => platformAccounts.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** The note's id on the platform (publish_jobs.platform_note_id for notes published through the product). */
    noteKey: text('note_key').notNull(),
    title: text('title').notNull(),
    url: text('url'),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    views: integer('views').notNull(),
    likes: integer('likes').notNull(),
    collects: integer('collects').notNull(),
    comments: integer('comments').notNull(),
    shares: integer('shares').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('data_note_days_uq').on(t.accountId, t.noteKey, t.day), index('data_note_days_user_day_idx').on(t.userId, t.day)],
);

/**
 * Each note's newest figures (the content table, top notes and the heatmap read this, not the history): upserted with
 * every snapshot, a row only ever moving to a later day.
 */
export const dataNoteLatest = pgTable(
  'data_note_latest',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => platformAccounts.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    noteKey: text('note_key').notNull(),
    title: text('title').notNull(),
    url: text('url'),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    views: integer('views').notNull(),
    likes: integer('likes').notNull(),
    collects: integer('collects').notNull(),
    comments: integer('comments').notNull(),
    shares: integer('shares').notNull(),
  },
  (t) => [uniqueIndex('data_note_latest_uq').on(t.accountId, t.noteKey), index('data_note_latest_user_idx').on(t.userId)],
);
