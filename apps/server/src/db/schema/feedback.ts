import { bigint, bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './user.js';

/** What users send through 帮助与反馈; an operator answers from the admin CLI and the answer reaches the user as a notice. */
export const feedback = pgTable(
  'feedback',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    content: text('content').notNull(),
    /** URLs of screenshots the user uploaded through the image upload (checked to be theirs). */
    images: jsonb('images').$type<string[]>().notNull().default([]),
    /** Optional phone, WeChat or email the user left for a reply outside the product. */
    contact: text('contact'),
    /** 'open' | 'replied' */
    status: text('status').notNull().default('open'),
    reply: text('reply'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('feedback_user_created_idx').on(t.userId, t.createdAt), index('feedback_status_created_idx').on(t.status, t.createdAt)],
);
