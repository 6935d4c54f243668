import { z } from 'zod';
import { codeKinds } from '../constants/admin.js';
import { pageOf, pageQuery } from './common.js';

/** The console's redeem codes (/api/admin/codes): batches of points or VIP-day codes, redeemed through the existing flow. */
const int = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${label} 必须是数字` })
    .int(`${label} 必须是整数`)
    .min(min, `${label} 至少为${min}`)
    .max(max, `${label} 最多为${max}`);
const batchText = z
  .string({ error: '请填写批次 batch' })
  .trim()
  .regex(/^[\w-]{1,40}$/, '批次 batch 须为1到40位字母、数字、下划线或连字符');

/** POST /admin/codes/generate: the codes themselves are read by export (CSV), not echoed in the audit log. */
export const adminCodeGenerateBody = z.object({
  kind: z.enum(codeKinds, { error: '类型 kind 必须是 points 或 vip_days' }),
  value: int('面值 value', 1, 1_000_000),
  count: int('数量 count', 1, 10_000),
  maxUses: int('每码可用次数 maxUses', 1, 100_000).default(1),
  expiresAt: z.iso.datetime({ offset: true, error: '过期时间 expiresAt 须为带时区的 ISO 时间' }).optional(),
  batch: batchText.optional(),
});

export const adminCodeBatchSchema = z.object({
  batch: z.string(),
  kind: z.enum(codeKinds),
  value: z.number().int(),
  maxUses: z.number().int(),
  codes: z.number().int(),
  used: z.number().int(),
  disabled: z.boolean(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminCodeBatch = z.infer<typeof adminCodeBatchSchema>;
export const adminCodeBatchPageSchema = pageOf(adminCodeBatchSchema);

/** POST /admin/codes/disable (and GET /admin/codes/export.csv?batch=) */
export const adminCodeBatchBody = z.object({ batch: batchText });

export const adminRedemptionQuery = pageQuery.extend({
  batch: batchText.optional(),
  userId: z.coerce.number({ error: '用户 userId 必须是数字' }).int('用户 userId 必须是整数').positive('用户 userId 必须是正整数').optional(),
});
export const adminRedemptionSchema = z.object({
  code: z.string(),
  batch: z.string(),
  kind: z.enum(codeKinds),
  value: z.number().int(),
  userId: z.number().int(),
  nickname: z.string(),
  redeemedAt: z.string(),
});
export type AdminRedemption = z.infer<typeof adminRedemptionSchema>;
export const adminRedemptionPageSchema = pageOf(adminRedemptionSchema);
