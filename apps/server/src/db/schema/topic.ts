import { bigint, bigserial, boolean, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './user.js';

/**
 * Tracks (赛道). System tracks (user_id null) are seeded by the migration and edited by the admin CLI; a system
 * track with a parent is a sub-track. User tracks are a user's own keywords (user_id set, no parent).
 * `keywords` drive the jieba classification of hot topics into tracks.
 */
export const topicTracks = pgTable(
  'topic_tracks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    parentId: bigint('parent_id', { mode: 'number' }),
    name: text('name').notNull(),
    keywords: jsonb('keywords').$type<string[]>().notNull().default([]),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('topic_tracks_user_idx').on(t.userId), index('topic_tracks_parent_idx').on(t.parentId)],
);

export interface TopicSourceRef {
  /** Adapter id: weibo, zhihu, baidu, feed:<host>, snapshot. */
  source: string;
  sourceName: string;
  url: string;
  /** The source's own heat figure (weibo search count, zhihu 万热度, baidu hotScore), 0 when it gives none. */
  heat: number;
  /** 1-based position in that source's list. */
  rank: number;
}

/** One story, merged across sources by the refresh job (same normalised title, or near-identical jieba tokens). */
export const topicItems = pgTable(
  'topic_items',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storyKey: text('story_key').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    url: text('url').notNull(),
    sources: jsonb('sources').$type<TopicSourceRef[]>().notNull().default([]),
    /** Tokens kept for near-duplicate matching of later items. */
    tokens: jsonb('tokens').$type<string[]>().notNull().default([]),
    /** Names of the system tracks (top level and sub-track) the item was classified into. */
    tracks: jsonb('tracks').$type<string[]>().notNull().default([]),
    /** Rank score: positional heat summed over sources, decayed by age. */
    score: doublePrecision('score').notNull().default(0),
    prevScore: doublePrecision('prev_score'),
    /** 'new' | 'up' | 'down' | 'flat', relative to the previous refresh that saw the item. */
    trend: text('trend').notNull().default('new'),
    /** True for items of the bundled snapshot (not live). */
    snapshot: boolean('snapshot').notNull().default(false),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('topic_items_story_key_idx').on(t.storyKey), index('topic_items_score_idx').on(t.score), index('topic_items_last_seen_idx').on(t.lastSeenAt)],
);

/** Per-source refresh state: the rate limit is judged from last_fetched_at. */
export const topicSources = pgTable('topic_sources', {
  source: text('source').primaryKey(),
  lastFetchedAt: timestamp('last_fetched_at', { withTimezone: true }).notNull(),
  ok: boolean('ok').notNull(),
  error: text('error'),
  itemCount: integer('item_count').notNull().default(0),
});

export const topicCollections = pgTable(
  'topic_collections',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    topicId: bigint('topic_id', { mode: 'number' })
      .notNull()
      .references(() => topicItems.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('topic_collections_user_topic_idx').on(t.userId, t.topicId)],
);

/** Saved divergent (mind) maps: simple-mind-map's JSON as the client sends it. */
export const topicMaps = pgTable(
  'topic_maps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    data: jsonb('data').$type<unknown>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('topic_maps_user_updated_idx').on(t.userId, t.updatedAt)],
);

/**
 * Feeds an operator added with the admin CLI (`topic:source:add`), beside the ones in TRENDS_SOURCES. The refresh
 * job reads the enabled ones on every tick, so adding, disabling or removing one needs no restart. `track` names a
 * system track every item of the feed is filed under, on top of the keyword rules.
 */
export const topicFeeds = pgTable(
  'topic_feeds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    url: text('url').notNull(),
    name: text('name').notNull(),
    track: text('track'),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('topic_feeds_url_idx').on(t.url)],
);
