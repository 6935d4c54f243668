import { z } from 'zod';
import { pageOf, pageQuery, smsCodeSchema } from './common.js';
import { adminRoles } from '../constants/admin.js';
import { orderStatuses } from '../constants/vip.js';
import { ledgerEntrySchema } from './vip.js';

const roleSchema = z.enum(adminRoles, { error: `角色 role 必须是 ${adminRoles.join('、')} 之一` });
const idSchema = (label: string) =>
  z.coerce
    .number({ error: `${label} 必须是数字` })
    .int(`${label} 必须是整数`)
    .positive(`${label} 必须是正整数`);
const reasonSchema = z.string({ error: '请填写原因 reason' }).trim().min(1, '原因 reason 不能为空').max(200, '原因 reason 最多200个字');
/** A client-chosen id for one intended operation: a retry with the same id changes nothing a second time. */
const requestIdSchema = z
  .string({ error: '请提供请求编号 requestId' })
  .trim()
  .regex(/^[\w-]{8,64}$/, '请求编号 requestId 须为8到64位字母、数字、下划线或连字符');
/** ISO date-time or yyyy-MM-dd (China day). */
const dateParam = (label: string) =>
  z
    .string({ error: `${label} 必须是日期` })
    .trim()
    .refine((v) => !Number.isNaN(Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00+08:00` : v)), `${label} 不是有效日期`)
    .optional();

// ---- access ----------------------------------------------------------------------------------------------------

/** GET /admin/me: who is at the console and until when writes need no new SMS code. */
export const adminMeSchema = z.object({
  userId: z.number().int(),
  nickname: z.string(),
  /** Masked (138****8000): the SMS code for re-verification goes to this phone. */
  phone: z.string().nullable(),
  role: roleSchema,
  /** Writes are allowed without re-verification until this time (slides with activity); null: re-verify first. */
  verifiedUntil: z.string().nullable(),
  /** The console session ends here whatever the activity (ADMIN_SESSION_MAX_HOURS after the last verification). */
  sessionExpiresAt: z.string(),
  idleMinutes: z.number().int(),
});
export type AdminMe = z.infer<typeof adminMeSchema>;

/** POST /admin/reauth/send: an SMS code to the operator's own phone (no body). */
export const adminReauthSendSchema = z.object({ resendAfterSeconds: z.number().int(), sandbox: z.boolean() });
/** POST /admin/reauth */
export const adminReauthBody = z.object({ code: smsCodeSchema });

/** POST /admin/users/role (owner): grant or (role null) take away a console role. */
export const adminRoleBody = z.object({ userId: idSchema('用户 userId'), role: roleSchema.nullable() });
export const adminRoleReplySchema = z.object({ userId: z.number().int(), role: roleSchema.nullable() });

/** GET /admin/audit (and /admin/audit/export.csv with the same filters, a CSV file). */
export const adminAuditQuery = pageQuery.extend({
  actor: idSchema('操作人 actor').optional(),
  action: z.string().trim().max(64, '操作 action 过长').optional(),
  targetType: z.string().trim().max(32, '对象类型 targetType 过长').optional(),
  targetId: z.string().trim().max(64, '对象 targetId 过长').optional(),
  from: dateParam('开始时间 from'),
  to: dateParam('结束时间 to'),
});
export const adminAuditEntrySchema = z.object({
  id: z.number().int(),
  /** Null: the server's CLI (npm run admin). */
  actorId: z.number().int().nullable(),
  actorNickname: z.string().nullable(),
  actorRole: roleSchema.nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntrySchema>;
export const adminAuditPageSchema = pageOf(adminAuditEntrySchema);

// ---- users -------------------------------------------------------------------------------------------------------

/** GET /admin/users: q is an id, a phone (or its digits), or part of a nickname. */
export const adminUserSearchQuery = pageQuery.extend({ q: z.string().trim().max(64, '搜索词 q 过长').optional() });
export const adminUserSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  nickname: z.string(),
  /** Full for support and above, masked for viewers. */
  phone: z.string().nullable(),
  wechatBound: z.boolean(),
  role: roleSchema.nullable(),
  isVip: z.boolean(),
  vipExpiredAt: z.string().nullable(),
  pointsBalance: z.number().int(),
  pointsTotal: z.number().int(),
  bannedAt: z.string().nullable(),
  deletedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserPageSchema = pageOf(adminUserSchema);

export const adminUserIdQuery = z.object({ userId: idSchema('用户 userId') });
export const adminUserPageQuery = pageQuery.extend({ userId: idSchema('用户 userId') });

/** A login session as the console shows it: where and when, never the token or anything derived from it. */
export const adminSessionSchema = z.object({
  id: z.number().int(),
  device: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  revokedReason: z.string().nullable(),
});
/** A bound publishing account: platform and name only, never cookies or credentials. */
export const adminBoundAccountSchema = z.object({
  id: z.number().int(),
  platform: z.string(),
  nickname: z.string(),
  status: z.string(),
  createdAt: z.string(),
});
export const adminUserDetailSchema = z.object({
  user: adminUserSchema,
  sessions: z.array(adminSessionSchema),
  boundAccounts: z.array(adminBoundAccountSchema),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;
export const adminLedgerPageSchema = pageOf(ledgerEntrySchema);

/** POST /admin/users/points: grant or deduct through the ledger, once per requestId. */
export const adminPointsBody = z.object({
  userId: idSchema('用户 userId'),
  direction: z.enum(['grant', 'deduct'], { error: '方向 direction 必须是 grant 或 deduct' }),
  amount: z.coerce.number({ error: '积分 amount 必须是数字' }).int('积分 amount 必须是整数').min(1, '积分 amount 至少为1').max(10_000_000, '积分 amount 过大'),
  reason: reasonSchema,
  requestId: requestIdSchema,
});
export const adminPointsReplySchema = z.object({ ledgerId: z.number().int(), delta: z.number().int(), balance: z.number().int(), duplicate: z.boolean() });

/** POST /admin/users/vip: extend by days, or revoke (expires now). */
export const adminVipBody = z.discriminatedUnion(
  'action',
  [
    z.object({
      userId: idSchema('用户 userId'),
      action: z.literal('extend'),
      days: z.coerce.number({ error: '天数 days 必须是数字' }).int('天数 days 必须是整数').min(1, '天数 days 至少为1').max(3660, '天数 days 最多3660'),
      reason: reasonSchema,
    }),
    z.object({ userId: idSchema('用户 userId'), action: z.literal('revoke'), reason: reasonSchema }),
  ],
  { error: '操作 action 必须是 extend 或 revoke' },
);
/** POST /admin/users/ban: banned true revokes every session and refuses login; false lifts it. */
export const adminBanBody = z.object({ userId: idSchema('用户 userId'), banned: z.boolean({ error: 'banned 必须是 true 或 false' }), reason: reasonSchema });
/** POST /admin/users/nickname/reset: back to the default 用户xxxx name. */
export const adminNicknameResetBody = z.object({ userId: idSchema('用户 userId'), reason: reasonSchema });

// ---- orders and refunds -------------------------------------------------------------------------------------------

export const adminOrderQuery = pageQuery.extend({
  status: z.enum(orderStatuses, { error: `状态 status 必须是 ${orderStatuses.join('、')} 之一` }).optional(),
  channel: z.enum(['wechat', 'alipay'], { error: '渠道 channel 必须是 wechat 或 alipay' }).optional(),
  userId: idSchema('用户 userId').optional(),
  orderNo: z.string().trim().max(64, '订单号 orderNo 过长').optional(),
  /** Only orders a late or mismatched payment flagged for review. */
  review: z.enum(['true', 'false'], { error: 'review 必须是 true 或 false' }).optional(),
  from: dateParam('开始时间 from'),
  to: dateParam('结束时间 to'),
});
export const adminOrderSchema = z.object({
  orderNo: z.string(),
  userId: z.number().int(),
  kind: z.enum(['vip', 'bundle']),
  itemName: z.string(),
  points: z.number().int(),
  durationDays: z.number().int(),
  amount: z.number().int(),
  refundedAmount: z.number().int(),
  gateway: z.string(),
  channel: z.string(),
  status: z.enum(orderStatuses),
  transactionId: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  reviewReason: z.string().nullable(),
  reviewTransactionId: z.string().nullable(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;
export const adminOrderPageSchema = pageOf(adminOrderSchema);
export const adminOrderNoQuery = z.object({ orderNo: z.string({ error: '请提供订单号 orderNo' }).trim().min(1, '订单号 orderNo 不能为空').max(64, '订单号 orderNo 过长') });

export const refundStatuses = ['processing', 'succeeded', 'failed'] as const;
export const adminRefundSchema = z.object({
  refundNo: z.string(),
  orderNo: z.string(),
  requestId: z.string(),
  amount: z.number().int(),
  reason: z.string(),
  status: z.enum(refundStatuses),
  gatewayRefundId: z.string().nullable(),
  /** Points taken back from the user, and what could not be (already spent). */
  pointsReversed: z.number().int(),
  pointsShortfall: z.number().int(),
  vipDaysCut: z.number().int(),
  actorId: z.number().int().nullable(),
  createdAt: z.string(),
  succeededAt: z.string().nullable(),
  failReason: z.string().nullable(),
});
export type AdminRefund = z.infer<typeof adminRefundSchema>;
/** What the gateways answered and sent for the order (payment and refund requests, notifications), newest first. */
export const adminGatewayEventSchema = z.object({ id: z.number().int(), kind: z.string(), payload: z.unknown(), createdAt: z.string() });
export const adminOrderDetailSchema = z.object({ order: adminOrderSchema, refunds: z.array(adminRefundSchema), gatewayEvents: z.array(adminGatewayEventSchema) });
export type AdminOrderDetail = z.infer<typeof adminOrderDetailSchema>;

/** POST /admin/orders/refund: partial or full (amount in fen), once per (orderNo, requestId). */
export const adminRefundBody = z.object({
  orderNo: adminOrderNoQuery.shape.orderNo,
  amount: z.coerce.number({ error: '退款金额 amount 必须是数字（分）' }).int('退款金额 amount 必须是整数（分）').min(1, '退款金额 amount 至少1分'),
  reason: reasonSchema,
  requestId: requestIdSchema,
});
