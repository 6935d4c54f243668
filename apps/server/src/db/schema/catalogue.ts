import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Scheduled prices of the points dictionary: a row takes over its feature's `point_costs` price from `effective_at`
 * on, so an operator can announce a price change before it applies. Rows are never edited: a later row for the same
 * feature supersedes an earlier one, and withdrawing a change that has not started yet deletes it.
 */
export const pointCostChanges = pgTable(
  'point_cost_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    feature: text('feature').notNull(),
    name: text('name').notNull(),
    point: integer('point').notNull(),
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('point_cost_changes_feature_idx').on(t.feature, t.effectiveAt), check('point_cost_changes_point_ck', sql`${t.point} >= 0`)],
);
