import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './user.js';

/**
 * 平台健康: the operators' overrides of a creator site's automation (paths and step locators, see
 * integrations/platforms/site-steps.ts), one row per saved version; versions of a platform count up from 1 and are
 * never changed or removed, so any earlier one can be made active again.
 */
export const siteProfileVersions = pgTable(
  'site_profile_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    platform: text('platform').notNull(),
    version: integer('version').notNull(),
    /** A `SiteProfileOverride` as validated against the adapter's built-in profile when it was saved. */
    override: jsonb('override').$type<{ paths?: Record<string, string>; steps?: Record<string, string[]> }>().notNull(),
    note: text('note').notNull().default(''),
    /** Null for the admin CLI. */
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('site_profile_versions_uq').on(t.platform, t.version)],
);

/** Which version of a platform's override is in use; no row or version 0 = the adapter's built-in profile. */
export const siteProfileActive = pgTable('site_profile_active', {
  platform: text('platform').primaryKey(),
  version: integer('version').notNull(),
  changedBy: bigint('changed_by', { mode: 'number' }).references(() => users.id),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Steps of a site's automation that failed (publish attempts, bindings, the canary): where, what was tried, the page's
 * address (no query) and a scrubbed DOM excerpt, the screenshot's file. Nothing secret: no cookies, no session, no
 * form values. Bounded per platform (the newest rows are kept; see PlatformHealthRepo.prune).
 */
export const platformStepFailures = pgTable(
  'platform_step_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    platform: text('platform').notNull(),
    /** 'publish' | 'binding' | 'canary' */
    source: text('source').$type<'publish' | 'binding' | 'canary'>().notNull(),
    accountId: bigint('account_id', { mode: 'number' }),
    jobId: text('job_id'),
    /** The step (a key of site-steps' stepLabels) and its locator key (`body`, `login.qrSwitch`). */
    step: text('step').notNull(),
    key: text('key').notNull(),
    tried: jsonb('tried').$type<string[]>().notNull(),
    url: text('url').notNull(),
    domExcerpt: text('dom_excerpt').notNull(),
    screenshotPath: text('screenshot_path'),
    message: text('message').notNull(),
    /** The override version in use when it failed (0: the built-in profile). */
    profileVersion: integer('profile_version').notNull().default(0),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('platform_step_failures_platform_idx').on(t.platform, t.id)],
);
