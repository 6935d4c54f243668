import { z } from 'zod';
import { pointCostSchema } from './vip.js';

/**
 * The console's catalogue (/api/admin/catalogue): VIP plans, points bundles and the points dictionary with scheduled
 * price changes. Money is integer fen, as everywhere.
 */
const idText = (label: string) =>
  z
    .string({ error: `请填写${label}` })
    .trim()
    .regex(/^[a-z0-9_-]{1,32}$/, `${label} 须为1到32位小写字母、数字、下划线或连字符`);
const nameText = z.string({ error: '请填写名称 name' }).trim().min(1, '名称 name 不能为空').max(40, '名称 name 最多40个字');
const int = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${label} 必须是数字` })
    .int(`${label} 必须是整数`)
    .min(min, `${label} 至少为${min}`)
    .max(max, `${label} 最多为${max}`);

export const adminPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  durationDays: z.number().int(),
  price: z.number().int(),
  points: z.number().int(),
  perks: z.array(z.string()),
  sort: z.number().int(),
  enabled: z.boolean(),
});
export type AdminPlan = z.infer<typeof adminPlanSchema>;

export const adminBundleSchema = z.object({
  id: z.string(),
  name: z.string(),
  points: z.number().int(),
  price: z.number().int(),
  sort: z.number().int(),
  enabled: z.boolean(),
});
export type AdminBundle = z.infer<typeof adminBundleSchema>;

/** A price of the points dictionary that starts later (withdrawable until then). */
export const adminPointCostChangeSchema = z.object({ id: z.number().int(), feature: z.string(), name: z.string(), point: z.number().int(), effectiveAt: z.string() });
export type AdminPointCostChange = z.infer<typeof adminPointCostChangeSchema>;

/** GET /admin/catalogue: everything, disabled items included; `costs` is the dictionary in force now. */
export const adminCatalogueSchema = z.object({
  plans: z.array(adminPlanSchema),
  bundles: z.array(adminBundleSchema),
  costs: z.array(pointCostSchema),
  scheduled: z.array(adminPointCostChangeSchema),
});
export type AdminCatalogue = z.infer<typeof adminCatalogueSchema>;

/** POST /admin/catalogue/plan: create or edit (by id). Orders already placed keep what they bought. */
export const adminPlanBody = z.object({
  id: idText('套餐ID id'),
  name: nameText,
  durationDays: int('时长 durationDays', 1, 3660),
  price: int('价格 price（分）', 1, 100_000_000),
  points: int('赠送积分 points', 0, 10_000_000),
  perks: z
    .array(z.string().trim().min(1, '权益 perks 不能为空').max(60, '每条权益 perks 最多60个字'), { error: '权益 perks 必须是列表' })
    .max(20, '权益 perks 最多20条')
    .default([]),
  sort: int('排序 sort', -1000, 1000).default(0),
  enabled: z.boolean({ error: 'enabled 必须是 true 或 false' }).default(true),
});

/** POST /admin/catalogue/bundle */
export const adminBundleBody = z.object({
  id: idText('积分包ID id'),
  name: nameText,
  points: int('积分 points', 1, 10_000_000),
  price: int('价格 price（分）', 1, 100_000_000),
  sort: int('排序 sort', -1000, 1000).default(0),
  enabled: z.boolean({ error: 'enabled 必须是 true 或 false' }).default(true),
});

/** POST /admin/catalogue/point-cost: a new price for a feature, from effectiveAt (now when absent). */
export const adminPointCostBody = z.object({
  feature: z.string({ error: '请填写功能 feature' }).trim().min(1, '功能 feature 不能为空').max(40, '功能 feature 过长'),
  name: nameText.optional(),
  point: int('积分 point', 0, 1_000_000),
  effectiveAt: z.iso.datetime({ offset: true, error: '生效时间 effectiveAt 须为带时区的 ISO 时间' }).optional(),
});

/** POST /admin/catalogue/point-cost/withdraw: a scheduled change that has not started. */
export const adminPointCostWithdrawBody = z.object({ id: int('变更 id', 1, Number.MAX_SAFE_INTEGER) });
