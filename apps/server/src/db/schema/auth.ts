import { bigint, bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './user.js';

export const sessions = pgTable(
  'sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    device: text('device'),
    ip: text('ip'),
    /** The User-Agent at login, shown in the login-device list (truncated). */
    client: text('client'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const smsCodes = pgTable(
  'sms_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    phone: text('phone').notNull(),
    /** HMAC-SHA256(phone:code) under the app secret. */
    codeHash: text('code_hash').notNull(),
    ip: text('ip'),
    wrongTries: integer('wrong_tries').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
  },
  (t) => [index('sms_codes_phone_idx').on(t.phone, t.createdAt), index('sms_codes_ip_idx').on(t.ip, t.createdAt)],
);

/** Messages the outbox SMS adapter "sent"; read by the dev outbox page. */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    phone: text('phone').notNull(),
    text: text('text').notNull(),
    code: text('code').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sms_outbox_phone_idx').on(t.phone, t.sentAt)],
);

export const wxScenes = pgTable('wx_scenes', {
  scene: text('scene').primaryKey(),
  openid: text('openid'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  scannedAt: timestamp('scanned_at', { withTimezone: true }),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

export const handoverTokens = pgTable('handover_tokens', {
  jti: text('jti').primaryKey(),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  scene: text('scene'),
});
