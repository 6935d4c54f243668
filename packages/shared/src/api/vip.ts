import { z } from 'zod';
import { orderStatuses } from '../constants/vip.js';
import { ledgerKinds } from '../points.js';

/** Money is integer fen everywhere; the web app formats yuan. */
export const vipPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  durationDays: z.number().int(),
  price: z.number().int(),
  points: z.number().int(),
  perks: z.array(z.string()),
});
export type VipPlan = z.infer<typeof vipPlanSchema>;

export const pointsBundleSchema = z.object({
  id: z.string(),
  name: z.string(),
  points: z.number().int(),
  price: z.number().int(),
});
export type PointsBundle = z.infer<typeof pointsBundleSchema>;

/** Client hwPoints = score ?? totalScore. */
export const userScoreSchema = z.object({ score: z.number().int(), totalScore: z.number().int() });
export type UserScore = z.infer<typeof userScoreSchema>;

export const ledgerEntrySchema = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  balanceAfter: z.number().int(),
  kind: z.enum(ledgerKinds),
  reason: z.string(),
  createdAt: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const pointCostSchema = z.object({ feature: z.string(), name: z.string(), point: z.number().int() });
export type PointCost = z.infer<typeof pointCostSchema>;

/** Reply data of POINTS_INSUFFICIENT (1501): enough for the lackPoints prompt. */
export const pointsInsufficientData = z.object({ iDataEventId: z.string(), balance: z.number().int(), need: z.number().int() });
export type PointsInsufficient = z.infer<typeof pointsInsufficientData>;

export const vipUserInfoSchema = z.object({
  isVip: z.boolean(),
  vipType: z.string(),
  expiredTime: z.string().nullable(),
  openPayment: z.boolean(),
});
export type VipUserInfo = z.infer<typeof vipUserInfoSchema>;

export const payChannels = ['wechat', 'alipay'] as const;
export type PayChannel = (typeof payChannels)[number];
const payChannel = z.enum(payChannels, { error: 'payChannel 只能是 wechat 或 alipay' }).optional();

export const vipQrBody = z.object({ categoryId: z.coerce.string({ error: '请选择会员套餐' }).min(1, '请选择会员套餐').max(64), payChannel });
export const bundleQrBody = z.object({ bundleId: z.coerce.string({ error: '请选择积分包' }).min(1, '请选择积分包').max(64), payChannel });

export const payQrSchema = z.object({
  orderNo: z.string(),
  /** The text to render as a QR code (weixin://, https://qr.alipay.com/..., or our sandbox checkout page). */
  codeUrl: z.string(),
  /** The same, already rendered: PNG data URL. */
  qrImage: z.string(),
  expireAt: z.string(),
  amount: z.number().int(),
  payChannel: z.enum(payChannels),
  sandbox: z.boolean(),
});
export type PayQr = z.infer<typeof payQrSchema>;

export const orderNoQuery = z.object({ orderNo: z.string({ error: '请提供订单号' }).regex(/^[0-9A-Za-z_-]{6,32}$/, '订单号格式不正确') });

export const orderStatusSchema = z.object({ status: z.enum(orderStatuses), paidAt: z.string().optional() });
export type OrderStatus = z.infer<typeof orderStatusSchema>;

export const orderItemSchema = z.object({
  orderNo: z.string(),
  kind: z.enum(['vip', 'bundle']),
  itemName: z.string(),
  amount: z.number().int(),
  payChannel: z.string(),
  status: z.enum(orderStatuses),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  sandbox: z.boolean(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

export const couponExchangeBody = z.object({ code: z.string({ error: '请输入兑换码' }).trim().min(4, '兑换码格式不正确').max(64, '兑换码格式不正确') });
/** @alias the same field read from the query string (GET /rightsCode/exchange); knip reads the tag as a deliberate second name. */
export const rightsCodeQuery = couponExchangeBody;
export const codeExchangeResultSchema = z.object({
  kind: z.enum(['points', 'vip_days']),
  value: z.number().int(),
  score: z.number().int(),
  vipExpiredTime: z.string().nullable(),
});
export type CodeExchangeResult = z.infer<typeof codeExchangeResultSchema>;

export const inviteRulesSchema = z.object({ inviterReward: z.number().int(), inviteeReward: z.number().int() });
export type InviteRules = z.infer<typeof inviteRulesSchema>;
export const activityConfigSchema = z.object({
  invite: inviteRulesSchema,
  dailyReward: z.number().int(),
  returnReward: z.number().int(),
  returnAfterDays: z.number().int(),
  openPayment: z.boolean(),
  /** Points every new account received at registration; 0 = none. */
  welcomePoints: z.number().int(),
});
export type ActivityConfig = z.infer<typeof activityConfigSchema>;
export const inviteSuccessInfoSchema = z.object({
  role: z.enum(['inviter', 'invitee']),
  reward: z.number().int(),
  nickname: z.string(),
  createdAt: z.string(),
});
export const invitePopupSchema = z.object({
  inviteCode: z.string(),
  rules: inviteRulesSchema,
  invitedCount: z.number().int(),
  inviteSuccessInfo: inviteSuccessInfoSchema.nullable(),
});
export type InvitePopup = z.infer<typeof invitePopupSchema>;
export const homepageActivitySchema = z.object({
  dailyReward: z.number().int(),
  returnReward: z.number().int(),
  logo: z.string(),
  dailyClaimedToday: z.boolean().nullable(),
  contest: z.object({ id: z.string(), name: z.string(), startAt: z.string(), endAt: z.string(), active: z.boolean() }).nullable(),
});
export type HomepageActivity = z.infer<typeof homepageActivitySchema>;
export type Contest = NonNullable<HomepageActivity['contest']>;
export const contestTimestampSchema = z.object({
  serverTime: z.number().int(),
  contest: homepageActivitySchema.shape.contest,
});
export type ContestTimestamp = z.infer<typeof contestTimestampSchema>;
export const dailyClaimSchema = z.object({
  claimed: z.boolean(),
  dailyReward: z.number().int(),
  returnReward: z.number().int(),
  score: z.number().int(),
  day: z.string(),
});
export type DailyClaim = z.infer<typeof dailyClaimSchema>;
