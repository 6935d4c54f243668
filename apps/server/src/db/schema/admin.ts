import { bigint, bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { AdminRole } from '@inkstone/shared';
import { sessions } from './auth.js';
import { users } from './user.js';

/**
 * The console state of one login session: when its holder last proved who they are (login or an SMS code at the
 * console) and when they last used the console. Writes need recent activity since that proof (modules/admin).
 */
export const adminSessions = pgTable('admin_sessions', {
  sessionId: bigint('session_id', { mode: 'number' })
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id),
  verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
  activeAt: timestamp('active_at', { withTimezone: true }).notNull(),
});

/**
 * Append-only record of every console write, inserted in the same transaction as the change. The migration adds a
 * trigger that refuses UPDATE, DELETE and TRUNCATE on it, so not even a bug (or the application's own database user)
 * can rewrite history.
 */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Null for the server's own CLI (`npm run admin`), which has no console user. */
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id),
    actorRole: text('actor_role').$type<AdminRole>(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('admin_audit_created_idx').on(t.createdAt),
    index('admin_audit_actor_idx').on(t.actorId, t.createdAt),
    index('admin_audit_target_idx').on(t.targetType, t.targetId),
  ],
);
