import { bigint, bigserial, date, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './user.js';

/** Recall activity: which channel a returning user came back through, at most once per user, channel and day. */
export const recallChannelVisits = pgTable(
  'recall_channel_visits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    channel: text('channel').notNull(),
    /** Calendar day in China time (UTC+8), the day users and operators count in. */
    day: date('day', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recall_channel_visits_user_channel_day_uq').on(t.userId, t.channel, t.day), index('recall_channel_visits_channel_day_idx').on(t.channel, t.day)],
);
