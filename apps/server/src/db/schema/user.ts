import { sql } from 'drizzle-orm';
import type { AdminRole } from '@inkstone/shared';
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, bigint } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    uid: text('uid').notNull(),
    username: text('username').notNull(),
    nickname: text('nickname').notNull(),
    /** An image this user uploaded (/uploads/...), set through POST /user/avatar. */
    avatarUrl: text('avatar_url'),
    phone: text('phone'),
    wxOpenid: text('wx_openid'),
    creatorType: text('creator_type'),
    industries: jsonb('industries').$type<string[]>().notNull().default([]),
    customIndustries: jsonb('custom_industries').$type<string[]>().notNull().default([]),
    creationPlatform: jsonb('creation_platform').$type<string[]>().notNull().default([]),
    sysTrackSelected: text('sys_track_selected').notNull().default(''),
    userTrackSelected: text('user_track_selected').notNull().default(''),
    profileProvided: boolean('profile_provided').notNull().default(false),
    firstCreatePersona: boolean('first_create_persona').notNull().default(false),
    channelId: text('channel_id'),
    invitedByCode: text('invited_by_code'),
    inviteCode: text('invite_code').notNull(),
    vipType: text('vip_type').notNull().default('normal'),
    vipExpiredAt: timestamp('vip_expired_at', { withTimezone: true }),
    pointsBalance: integer('points_balance').notNull().default(0),
    pointsTotal: integer('points_total').notNull().default(0),
    /** Banned by an operator (or disabled by hand): login is refused and every session answers 430. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Operators' console role (owner | operator | support | viewer); null for everyone else. */
    adminRole: text('admin_role').$type<AdminRole>(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_uid_uq').on(t.uid),
    uniqueIndex('users_invite_code_uq').on(t.inviteCode),
    // Deleted accounts free their phone and WeChat identity.
    uniqueIndex('users_phone_live_uq')
      .on(t.phone)
      .where(sql`${t.deletedAt} is null`),
    uniqueIndex('users_wx_openid_live_uq')
      .on(t.wxOpenid)
      .where(sql`${t.deletedAt} is null`),
  ],
);

export const userSettings = pgTable(
  'user_settings',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

export const globalSettings = pgTable('global_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const userEvents = pgTable(
  'user_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    event: text('event').notNull(),
    sid: text('sid'),
    version: text('version'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_events_user_idx').on(t.userId, t.createdAt)],
);

export const clientLogs = pgTable(
  'client_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    kind: text('kind').notNull(),
    payload: jsonb('payload'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('client_logs_kind_idx').on(t.kind, t.createdAt)],
);
