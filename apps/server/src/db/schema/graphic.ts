import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './user.js';
import { writingTasks } from './writing.js';

/** One card of a graphic note as stored: its words and look, and where its picture is kept. */
export interface GraphicCardRow {
  /** Stable across reorders. */
  id: string;
  heading: string;
  text: string;
  templateId: string;
  themeId: string;
  /** 'card' (rendered) | 'ai' | 'material' | 'upload'. */
  source: string;
  imagePrompt: string;
  /** Storage key of the picture ('' while not rendered yet). */
  storageKey: string;
  width: number;
  height: number;
}

/**
 * A graphic note (图文): the writing task that produced it (same id), its title, body, topics and cards. The task
 * row keeps status, points and the event stream; this row is what the editor changes afterwards.
 */
export const graphicPosts = pgTable(
  'graphic_posts',
  {
    taskId: text('task_id')
      .primaryKey()
      .references(() => writingTasks.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    title: text('title').notNull().default(''),
    body: text('body').notNull().default(''),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    cards: jsonb('cards').$type<GraphicCardRow[]>().notNull().default([]),
    /** Bumped by every change; card edits are compare-and-set on it so two tabs cannot lose each other's edit. */
    version: integer('version').notNull().default(0),
    draftId: bigint('draft_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('graphic_posts_user_idx').on(t.userId, t.updatedAt)],
);
