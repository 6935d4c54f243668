import { z } from 'zod';
import { creatorTypes, creationPlatforms, nicknamePattern, nicknamePatternMessage } from '../constants/user.js';
import { limits } from '../limits.js';

export const vipInfoSchema = z.object({
  vipType: z.string(),
  isVip: z.boolean(),
  expiredTime: z.string().nullable(),
  openPayment: z.boolean(),
  score: z.number().int(),
  totalScore: z.number().int(),
});
export type VipInfo = z.infer<typeof vipInfoSchema>;

export const userProfileSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  username: z.string(),
  nickname: z.string(),
  /** An uploaded image (/uploads/...), or null for the default avatar. */
  avatar: z.string().nullable(),
  /** Masked: 138****0000. */
  phone: z.string().nullable(),
  creatorType: z.string().nullable(),
  firstCreatePersona: z.boolean(),
  creationPlatform: z.array(z.string()),
  industries: z.array(z.string()),
  customIndustries: z.array(z.string()),
  sysTrackSelected: z.string(),
  userTrackSelected: z.string(),
  userProfile: z.boolean(),
  wxBound: z.boolean(),
  inviteCode: z.string(),
  createdAt: z.string(),
  vipInfo: vipInfoSchema,
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** Letters, digits, CJK, underscore, hyphen and middle dot; 2..20 characters. */
export const nicknameSchema = z
  .string({ error: '请输入昵称' })
  .trim()
  .min(2, '昵称至少2个字符')
  .max(limits.nicknameMaxLength, `昵称最多${limits.nicknameMaxLength}个字符`)
  .regex(nicknamePattern, nicknamePatternMessage);

export const changeNicknameQuery = z.object({ nickname: nicknameSchema });

export const fillInfoBody = z.object({
  creatorType: z.enum(creatorTypes, { error: `创作者类型必须是 ${creatorTypes.join('、')} 之一` }),
  industries: z.array(z.string().trim().min(1).max(20), { error: '行业必须是列表' }).max(10, '行业最多选择10个').default([]),
  customIndustries: z
    .array(z.string().trim().min(1, '自定义行业不能为空').max(20, '自定义行业最多20个字符'), { error: '自定义行业必须是列表' })
    .max(5, '自定义行业最多5个')
    .default([]),
  creationPlatform: z
    .array(z.enum(creationPlatforms, { error: '创作平台不在支持列表中' }), { error: '创作平台必须是列表' })
    .max(creationPlatforms.length)
    .default([]),
});
export type FillInfoBody = z.infer<typeof fillInfoBody>;

/** User settings: a fixed catalogue of keys with typed values. */
export const settingDefinitions = {
  notificationEnable: { label: '评论消息通知', default: 'true', values: ['true', 'false'] },
  doNotDisturb: { label: '免打扰', default: '0', values: null },
  // Which kinds of message notify (browser notification and toast); all on until the user turns one off.
  notifyComment: { label: '评论与私信提醒', default: 'true', values: ['true', 'false'] },
  notifyPublish: { label: '发布结果提醒', default: 'true', values: ['true', 'false'] },
  notifySystem: { label: '系统公告与活动提醒', default: 'true', values: ['true', 'false'] },
  autoSaveDraft: { label: '自动保存草稿', default: 'true', values: ['true', 'false'] },
  defaultWriteType: { label: '默认写作模式', default: 'deep', values: ['deep', 'quick', 'imitate', 'rewrite'] },
  // Kept on the server so "稍后填写" is remembered across reloads and devices.
  profilePromptDismissed: { label: '不再提示完善创作者资料', default: 'false', values: ['true', 'false'] },
} as const satisfies Record<string, { label: string; default: string; values: readonly string[] | null }>;
export type SettingKey = keyof typeof settingDefinitions;
export const settingKeys = Object.keys(settingDefinitions) as SettingKey[];

export const settingItemSchema = z.object({ settingKey: z.string(), settingValue: z.string(), label: z.string() });
export type SettingItem = z.infer<typeof settingItemSchema>;
export const settingUpdateBody = z.object({
  settingKey: z.enum(settingKeys as [SettingKey, ...SettingKey[]], { error: '未知的设置项' }),
  settingValue: z.string({ error: '请提供设置值' }).max(64, '设置值过长'),
});

export const globalSettingSchema = z.object({
  activeReward: z.number().int(),
  autoRenewalDays: z.number().int(),
  logo: z.string(),
});
export type GlobalSetting = z.infer<typeof globalSettingSchema>;

export const softwareEvents = ['open-software', 'close-software'] as const;
export const eventReportQuery = z.object({
  event: z.string({ error: '请提供事件名 event' }).trim().min(1, '事件名 event 不能为空').max(64, '事件名 event 过长'),
  sid: z.string().max(128, 'sid 过长').optional(),
  version: z.string().max(32, 'version 过长').optional(),
});

/** POST /user/avatar takes the cropped image as multipart 'file' (the /wx/upload rules) and answers the profile. */

/** What the client sends as the app version (spec section 9: 3.4.3) and what GET /app/release answers. */
export const appReleaseQuery = z.object({ version: z.string().trim().max(32, 'version 过长').optional() });
export const appReleaseSchema = z.object({
  version: z.string(),
  date: z.string(),
  notes: z.array(z.string()),
  /** The version the client sent, echoed so the release note can show both. */
  clientVersion: z.string().nullable(),
  /** The desktop / app download page when one is configured (APP_DOWNLOAD_URL); null hides the download modal. */
  downloadUrl: z.string().nullable(),
});
export type AppRelease = z.infer<typeof appReleaseSchema>;
