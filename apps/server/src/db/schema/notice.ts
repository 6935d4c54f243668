import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './user.js';

/** A notice for every user (`user_id` null) or for one user. Publishing never writes per-user rows. */
export const notices = pgTable(
  'notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    type: text('type').notNull().default('system'),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Visible from this moment; a future value schedules the notice. */
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    /** In-app route the notice opens (e.g. /orderInfo); null = the notice only shows its text. */
    link: text('link'),
    /**
     * The event a personal notice reports (e.g. `order-paid:<orderNo>`). Unique per user, so a
     * retried job or a duplicate payment notification cannot notify twice.
     */
    dedupeKey: text('dedupe_key'),
    /** Broadcasts only: 'all', 'users' (the rows of notice_targets) or 'vip' (whoever is a member when they look). */
    audience: text('audience').$type<'all' | 'users' | 'vip'>().notNull().default('all'),
    /** 'html' when written in the console (cleaned on the server); CLI and personal notices are text. */
    format: text('format').$type<'text' | 'html'>().notNull().default('text'),
    /** Withdrawn by an operator: hidden from users from then on (kept for the record and its read rate). */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [
    // The unread count (polled every 15 s by every client) scans broadcasts by time and one user's personal notices.
    index('notices_broadcast_published_idx')
      .on(t.publishedAt)
      .where(sql`${t.userId} is null`),
    index('notices_user_published_idx')
      .on(t.userId, t.publishedAt)
      .where(sql`${t.userId} is not null`),
    uniqueIndex('notices_user_dedupe_uq')
      .on(t.userId, t.dedupeKey)
      .where(sql`${t.dedupeKey} is not null`),
  ],
);

/** The listed users of a broadcast with audience 'users'. */
export const noticeTargets = pgTable(
  'notice_targets',
  {
    noticeId: bigint('notice_id', { mode: 'number' })
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
  },
  (t) => [primaryKey({ columns: [t.noticeId, t.userId] })],
);

/** One row per (user, notice) the user has read; absence means unread. */
export const noticeReads = pgTable(
  'notice_reads',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    noticeId: bigint('notice_id', { mode: 'number' })
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.noticeId] })],
);
