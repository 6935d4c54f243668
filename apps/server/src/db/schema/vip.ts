import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './user.js';
import type { LedgerKind } from '@inkstone/shared';

export const vipPlans = pgTable(
  'vip_plans',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    durationDays: integer('duration_days').notNull(),
    priceFen: integer('price_fen').notNull(),
    points: integer('points').notNull().default(0),
    perks: jsonb('perks').$type<string[]>().notNull().default([]),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('vip_plans_price_ck', sql`${t.priceFen} > 0 and ${t.durationDays} > 0 and ${t.points} >= 0`)],
);

export const pointsBundles = pgTable(
  'points_bundles',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    points: integer('points').notNull(),
    priceFen: integer('price_fen').notNull(),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('points_bundles_price_ck', sql`${t.priceFen} > 0 and ${t.points} > 0`)],
);

/** What each paid feature costs; read by the web app as the points dictionary. */
export const pointCosts = pgTable('point_costs', {
  feature: text('feature').primaryKey(),
  name: text('name').notNull(),
  point: integer('point').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Append-only: every balance change is one row, written in the same transaction as the conditional
 * balance update. The unique key makes a retried grant or charge a no-op.
 */
export const pointsLedger = pgTable(
  'points_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    delta: integer('delta').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    kind: text('kind').$type<LedgerKind>().notNull(),
    reason: text('reason').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('points_ledger_key_uq').on(t.idempotencyKey),
    index('points_ledger_user_idx').on(t.userId, t.id),
    check('points_ledger_balance_ck', sql`${t.balanceAfter} >= 0`),
  ],
);

export const payOrders = pgTable(
  'pay_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNo: text('order_no').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    kind: text('kind').$type<'vip' | 'bundle'>().notNull(),
    itemId: text('item_id').notNull(),
    /** The plan or bundle as sold, so later catalogue edits never change what was paid for. */
    item: jsonb('item').$type<{ name: string; points: number; durationDays: number }>().notNull(),
    amountFen: integer('amount_fen').notNull(),
    gateway: text('gateway').$type<'sandbox' | 'wechat' | 'alipay'>().notNull(),
    channel: text('channel').$type<'wechat' | 'alipay'>().notNull(),
    status: text('status').$type<'pending' | 'paid' | 'closed' | 'expired' | 'refunded' | 'partially_refunded'>().notNull().default('pending'),
    /** Sum of succeeded refunds (fen); the order is refunded when it reaches amount_fen. */
    refundedFen: integer('refunded_fen').notNull().default(0),
    codeUrl: text('code_url'),
    expireAt: timestamp('expire_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    transactionId: text('transaction_id'),
    lastQueryAt: timestamp('last_query_at', { withTimezone: true }),
    /** Set when money arrived that we did not honour (late payment, amount mismatch): needs a refund or a look. */
    reviewReason: text('review_reason'),
    reviewTransactionId: text('review_transaction_id'),
    reviewAt: timestamp('review_at', { withTimezone: true }),
  },
  (t) => [
    check('pay_orders_refunded_ck', sql`${t.refundedFen} >= 0 and ${t.refundedFen} <= ${t.amountFen}`),
    uniqueIndex('pay_orders_order_no_uq').on(t.orderNo),
    index('pay_orders_user_idx').on(t.userId, t.id),
    index('pay_orders_pending_idx')
      .on(t.expireAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Refunds of paid orders, requested from the console. One row per (order, client request id), so a retried request
 * never refunds twice; `refund_no` is what the gateway deduplicates on. processing -> succeeded | failed happens once
 * (conditional update), and the success reverses the order's points and VIP days in the same transaction.
 */
export const payRefunds = pgTable(
  'pay_refunds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    refundNo: text('refund_no').notNull(),
    orderNo: text('order_no')
      .notNull()
      .references(() => payOrders.orderNo),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    requestId: text('request_id').notNull(),
    amountFen: integer('amount_fen').notNull(),
    reason: text('reason').notNull(),
    status: text('status').$type<'processing' | 'succeeded' | 'failed'>().notNull().default('processing'),
    gateway: text('gateway').$type<'sandbox' | 'wechat' | 'alipay'>().notNull(),
    gatewayRefundId: text('gateway_refund_id'),
    pointsReversed: integer('points_reversed').notNull().default(0),
    /** Points the refund should have taken back but the user had already spent (recorded, not forced below zero). */
    pointsShortfall: integer('points_shortfall').notNull().default(0),
    vipDaysCut: integer('vip_days_cut').notNull().default(0),
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id),
    failReason: text('fail_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    succeededAt: timestamp('succeeded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('pay_refunds_refund_no_uq').on(t.refundNo),
    uniqueIndex('pay_refunds_request_uq').on(t.orderNo, t.requestId),
    index('pay_refunds_order_idx').on(t.orderNo, t.id),
    check('pay_refunds_amount_ck', sql`${t.amountFen} > 0`),
  ],
);

/** What the gateways answered or sent about an order (refund replies and notifications), for the console. */
export const payGatewayEvents = pgTable(
  'pay_gateway_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNo: text('order_no').notNull(),
    kind: text('kind').notNull(),
    payload: jsonb('payload'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pay_gateway_events_order_idx').on(t.orderNo, t.id)],
);

export const redeemCodes = pgTable(
  'redeem_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    code: text('code').notNull(),
    batch: text('batch').notNull(),
    kind: text('kind').$type<'points' | 'vip_days'>().notNull(),
    value: integer('value').notNull(),
    maxUses: integer('max_uses').notNull().default(1),
    usedCount: integer('used_count').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('redeem_codes_code_uq').on(t.code), index('redeem_codes_batch_idx').on(t.batch), check('redeem_codes_uses_ck', sql`${t.usedCount} <= ${t.maxUses}`)],
);

export const redeemCodeUses = pgTable(
  'redeem_code_uses',
  {
    codeId: bigint('code_id', { mode: 'number' })
      .notNull()
      .references(() => redeemCodes.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.codeId, t.userId] })],
);

/** One row per invitee once both sides were rewarded; the seen flags drive the one-time success popups. */
export const inviteRewards = pgTable(
  'invite_rewards',
  {
    inviteeId: bigint('invitee_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id),
    inviterId: bigint('inviter_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    inviterReward: integer('inviter_reward').notNull(),
    inviteeReward: integer('invitee_reward').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    inviterSeenAt: timestamp('inviter_seen_at', { withTimezone: true }),
    inviteeSeenAt: timestamp('invitee_seen_at', { withTimezone: true }),
  },
  (t) => [index('invite_rewards_inviter_idx').on(t.inviterId)],
);

export const contests = pgTable('contests', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  startAt: timestamp('start_at', { withTimezone: true }).notNull(),
  endAt: timestamp('end_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
