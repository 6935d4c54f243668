import { boolean, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Console switches over the configured external sources (模型与来源): a row turns a source configured in the
 * environment off (or on again). No row = on. `kind` is `search` (SEARCH_PROVIDER) or `trends` (TRENDS_SOURCES ids).
 */
export const sourceSwitches = pgTable(
  'source_switches',
  {
    kind: text('kind').$type<'search' | 'trends' | 'imagegen'>().notNull(),
    sourceId: text('source_id').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.sourceId] })],
);
