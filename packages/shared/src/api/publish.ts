import { z } from 'zod';
import { pageQuery } from './common.js';

/** Publishing: platform accounts (QR binding), publish jobs, engagement (spec section 7 "Publishing"). */

export const publishPlatformIds = ['sandbox', 'xiaohongshu', 'wechat_mp'] as const;
export const publishPlatformSchema = z.enum(publishPlatformIds, { error: `platform 必须是 ${publishPlatformIds.join('、')} 之一` });
export type PublishPlatform = z.infer<typeof publishPlatformSchema>;

const id = (name: string) =>
  z.coerce
    .number({ error: `${name} 必须是数字` })
    .int(`${name} 必须是整数`)
    .positive(`${name} 无效`);
const connectionIdSchema = z.string({ error: '请提供 connectionId' }).regex(/^[A-Za-z0-9_-]{16,64}$/, 'connectionId 无效');

// --- binding -----------------------------------------------------------------------------------
export const loginConnectBody = z.object({
  platform: publishPlatformSchema,
  /** wechat_mp only: the Official Account's AppID and AppSecret (stored encrypted). */
  appId: z.string().trim().min(1).max(64).optional(),
  appSecret: z.string().trim().min(1).max(128).optional(),
});
export type LoginConnectBody = z.infer<typeof loginConnectBody>;

export const connectionStates = ['waiting', 'scanned', 'confirmed', 'completed', 'bound', 'expired', 'failed'] as const;
export const connectionStateSchema = z.enum(connectionStates);
export type ConnectionState = z.infer<typeof connectionStateSchema>;

export const loginConnectReply = z.object({
  connectionId: z.string(),
  platform: z.string(),
  state: connectionStateSchema,
  /** data: URL of the QR (null when the platform needs no scan, e.g. wechat_mp). */
  qrImage: z.string().nullable(),
  expiresAt: z.string(),
});
export type LoginConnectReply = z.infer<typeof loginConnectReply>;

export const connectionQuery = z.object({ connectionId: connectionIdSchema });

export const loginConnectionSchema = z.object({
  connectionId: z.string(),
  platform: z.string(),
  state: connectionStateSchema,
  accountName: z.string().nullable(),
  avatar: z.string().nullable(),
  /** Set once bound. */
  accountId: z.number().int().nullable(),
  error: z.string().nullable(),
  expiresAt: z.string(),
});
export type LoginConnection = z.infer<typeof loginConnectionSchema>;

export const loginScanReply = z.object({
  connectionId: z.string(),
  qrImage: z.string().nullable(),
  scanState: connectionStateSchema,
  /** 沙箱 only: the phone page the QR encodes, so it can be opened on the same machine. */
  scanUrl: z.string().nullable(),
});
export type LoginScanReply = z.infer<typeof loginScanReply>;

export const loginCookieReply = z.object({
  connectionId: z.string(),
  platform: z.string(),
  state: connectionStateSchema,
  accountName: z.string(),
  avatar: z.string().nullable(),
});
export type LoginCookieReply = z.infer<typeof loginCookieReply>;

export const connectionReleaseBody = z
  .object({ connectionId: connectionIdSchema.optional(), accountId: id('accountId').optional() })
  .refine((b) => b.connectionId !== undefined || b.accountId !== undefined, '请提供 connectionId 或 accountId');
export const connectionReleaseReply = z.object({ released: z.boolean() });

export const accountBindBody = z.object({ connectionId: connectionIdSchema });
export const accountUnbindBody = z.object({ accountId: id('accountId') });
export const accountTopBody = z.object({ accountId: id('accountId'), top: z.boolean({ error: 'top 必须是 true 或 false' }) });

export const accountStatusSchema = z.enum(['active', 'expired']);
export const platformAccountSchema = z.object({
  id: z.number().int(),
  platform: z.string(),
  platformName: z.string(),
  /** 沙箱 platform: the UI marks it. */
  sandbox: z.boolean(),
  accountName: z.string(),
  avatar: z.string().nullable(),
  status: accountStatusSchema,
  /** Why it expired, for the user (Chinese). */
  statusReason: z.string().nullable(),
  top: z.boolean(),
  followerCount: z.number().int(),
  noteCount: z.number().int(),
  /**
   * Always the string '[]'. The original client read a JSON cookie list here; the session stays on the
   * server (encrypted) and never reaches the browser, so this field is kept only for shape compatibility.
   */
  cookies: z.literal('[]'),
  createdAt: z.string(),
  lastSyncedAt: z.string().nullable(),
});
export type PlatformAccount = z.infer<typeof platformAccountSchema>;

const boolish = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
export const accountListQuery = pageQuery.extend({
  top: boolish.optional(),
  platform: publishPlatformSchema.optional(),
  accountName: z.string().trim().max(50, 'accountName 最多50个字符').optional(),
});
export const accountListReply = z.object({ records: z.array(platformAccountSchema), total: z.number().int(), pageNum: z.number().int(), pageSize: z.number().int() });

/**
 * The spec's publishData (global store): articleCount (notes published), readCount (their views/reads), followCount
 * (followers of the bound accounts), each with its increase over the last 7 days, from the data area's snapshots.
 */
export const publishDataSchema = z.object({
  articleCount: z.number().int(),
  articleIncrease: z.number().int(),
  readCount: z.number().int(),
  readIncrease: z.number().int(),
  followCount: z.number().int(),
  followIncrease: z.number().int(),
});
export type PublishData = z.infer<typeof publishDataSchema>;

export const accountCountReply = z.object({
  total: z.number().int(),
  active: z.number().int(),
  expired: z.number().int(),
  byPlatform: z.record(z.string(), z.number().int()),
  publishData: publishDataSchema,
});
export type AccountCount = z.infer<typeof accountCountReply>;

export const accountIdQuery = z.object({ accountId: id('accountId') });
export const unreadCountsSchema = z.object({
  unread_count: z.number().int(),
  likes: z.number().int(),
  connections: z.number().int(),
  mentions: z.number().int(),
  /** Set when this platform's login cannot read its inbox: why, in Chinese (the counts are then not real). */
  unavailable: z.string().optional(),
});
export type UnreadCountsReply = z.infer<typeof unreadCountsSchema>;

export const platformLimitsSchema = z.object({
  titleMax: z.number().int(),
  titleRequired: z.boolean(),
  bodyMax: z.number().int(),
  imagesMin: z.number().int(),
  imagesMax: z.number().int(),
  topicsMax: z.number().int(),
  schedule: z.object({ mode: z.enum(['native', 'queue']), minAheadMs: z.number().int(), maxAheadMs: z.number().int() }).nullable(),
});
export type PlatformLimits = z.infer<typeof platformLimitsSchema>;

/**
 * How an account of a platform logs in, which decides what the binding dialog shows: 'qr' opens the platform's
 * login page on the server and shows its QR to scan in the platform's app; 'credentials' takes the keys of the
 * platform's official API (a 公众号's AppID and AppSecret) and needs no scan.
 */
export const platformLoginKinds = ['qr', 'credentials'] as const;
export type PlatformLoginKind = (typeof platformLoginKinds)[number];
/** One platform this server publishes to, as the config passthrough lists them (in the operator's order). */
export const platformInfoSchema = z.object({
  platform: publishPlatformSchema,
  platformName: z.string(),
  sandbox: z.boolean(),
  login: z.enum(platformLoginKinds),
  limits: platformLimitsSchema,
});
export type PlatformInfo = z.infer<typeof platformInfoSchema>;

export const passthroughBody = z.discriminatedUnion(
  'category',
  [
    z.object({ category: z.literal('sessionCheck'), accountId: id('accountId') }),
    z.object({ category: z.literal('search'), accountId: id('accountId'), keyword: z.string().trim().min(1, '请输入关键词').max(30, '关键词最多30个字符') }),
    z.object({ category: z.literal('config'), accountId: id('accountId').optional(), platform: publishPlatformSchema.optional() }),
  ],
  { error: 'category 必须是 sessionCheck、search 或 config' },
);
export const passthroughReply = z.union([
  z.object({ category: z.literal('sessionCheck'), accountId: z.number().int(), valid: z.boolean(), status: accountStatusSchema, statusReason: z.string().nullable() }),
  z.object({ category: z.literal('search'), accountId: z.number().int(), topics: z.array(z.string()) }),
  z.object({
    category: z.literal('config'),
    platforms: z.array(platformInfoSchema),
  }),
]);
export type PlatformConfig = Extract<z.infer<typeof passthroughReply>, { category: 'config' }>;

// --- publishing --------------------------------------------------------------------------------
/**
 * 'article': an article (WeChat MP takes it as one; note platforms take its pictures). 'image': an image note (图文):
 * the images are the note, in order; platforms without image notes (WeChat MP) get an article with the images inline.
 */
export const noteKinds = ['article', 'image'] as const;
export type NoteKind = (typeof noteKinds)[number];

export const publishContentSchema = z.object({
  kind: z.enum(noteKinds, { error: 'kind 必须是 article 或 image' }).default('article'),
  title: z.string({ error: '请填写标题' }).trim().max(200, '标题过长'),
  /** HTML or plain text. */
  body: z.string({ error: '请填写正文' }).max(200_000, '正文过长'),
  /** data: URLs or http(s) URLs. */
  images: z
    .array(
      z
        .string()
        .min(1)
        .max(30 * 1024 * 1024),
      { error: 'images 必须是列表' },
    )
    .max(50, '图片过多')
    .default([]),
  /** Without '#'. */
  topics: z.array(z.string().trim().min(1).max(30, '话题最多30个字符'), { error: 'topics 必须是列表' }).max(50, '话题过多').default([]),
});
export type PublishContentInput = z.infer<typeof publishContentSchema>;

export const publishArticleBody = z
  .object({
    accountIds: z.array(id('accountId'), { error: '请选择发布账号' }).min(1, '请选择发布账号').max(50, '一次最多发布到50个账号'),
    draftId: id('draftId').optional(),
    /** A graphic task (图文): its cards (in order), title, body and tags become an image note; `content` overrides them. */
    graphicTaskId: z.string().min(1).max(64, 'graphicTaskId 过长').optional(),
    content: publishContentSchema.optional(),
    /** ISO time or epoch milliseconds; absent = now. */
    scheduleAt: z.union([z.iso.datetime({ offset: true, error: 'scheduleAt 必须是ISO时间' }), z.number().int().positive()]).optional(),
  })
  .refine((b) => b.draftId !== undefined || b.content !== undefined || b.graphicTaskId !== undefined, '请提供 draftId、graphicTaskId 或 content');
export type PublishArticleBody = z.infer<typeof publishArticleBody>;

export const publishJobStatusSchema = z.enum(['queued', 'running', 'succeeded', 'failed']);
export const publishArticleReply = z.object({
  publishId: z.string(),
  jobs: z.array(z.object({ accountId: z.number().int(), jobId: z.string(), platform: z.string(), status: publishJobStatusSchema, runAt: z.string() })),
});
export type PublishArticleReply = z.infer<typeof publishArticleReply>;

/** `accountIds=1,2`: the accounts whose next free publishing slot the scheduler shows. */
export const nextSlotQuery = z.object({
  accountIds: z
    .string({ error: '请提供 accountIds' })
    .regex(/^\d{1,15}(,\d{1,15}){0,49}$/, 'accountIds 必须是逗号分隔的账号 id（最多50个）')
    .transform((v) => [...new Set(v.split(',').map(Number))])
    .pipe(z.array(z.number().int().positive('accountId 无效')).min(1)),
});
export const pacingReasons = ['interval', 'daily_cap'] as const;
export const nextSlotSchema = z.object({
  accountId: z.number().int(),
  platform: z.string(),
  /** The earliest time the account may publish again (now when it is free). */
  nextSlot: z.string(),
  /** Why it is not now: too soon after (or before) another note, or the China day's cap is reached; null when free. */
  reason: z.enum(pacingReasons).nullable(),
  /** The platform's pacing rule; both null when the platform has none. */
  minIntervalMs: z.number().int().nullable(),
  dailyCap: z.number().int().nullable(),
  /** The account's notes published or queued for today (Asia/Shanghai). */
  usedToday: z.number().int(),
});
export type NextSlot = z.infer<typeof nextSlotSchema>;
export const nextSlotReply = z.object({ slots: z.array(nextSlotSchema) });
export type NextSlotReply = z.infer<typeof nextSlotReply>;

export const publishResultQuery = z.object({ publishId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'publishId 无效') });
export const publishJobSchema = z.object({
  jobId: z.string(),
  accountId: z.number().int(),
  platform: z.string(),
  accountName: z.string(),
  status: publishJobStatusSchema,
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  runAt: z.string(),
  /** The note's link once published. */
  url: z.string().nullable(),
  platformStatus: z.string().nullable(),
  error: z.string().nullable(),
  errorCode: z.string().nullable(),
  /** Screenshot of the last failed attempt (GET, same auth header). */
  screenshotUrl: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type PublishJob = z.infer<typeof publishJobSchema>;
export const publishResultReply = z.object({
  publishId: z.string(),
  /** 'queued' | 'running' | 'succeeded' (all) | 'partial' | 'failed' (all). */
  status: z.enum(['queued', 'running', 'succeeded', 'partial', 'failed']),
  title: z.string(),
  scheduleAt: z.string().nullable(),
  createdAt: z.string(),
  jobs: z.array(publishJobSchema),
});
export type PublishResultReply = z.infer<typeof publishResultReply>;

/** The signed-in user's own publish history, newest first; `accountId` narrows it to one account. */
export const publishRecordQuery = pageQuery.extend({ accountId: id('accountId').optional() });
export type PublishRecordQuery = z.infer<typeof publishRecordQuery>;
export const publishRecordSchema = publishJobSchema.extend({
  publishId: z.string(),
  title: z.string(),
  scheduleAt: z.string().nullable(),
  createdAt: z.string(),
});
export type PublishRecord = z.infer<typeof publishRecordSchema>;
export const publishRecordPage = z.object({ records: z.array(publishRecordSchema), total: z.number().int(), pageNum: z.number().int(), pageSize: z.number().int() });
export type PublishRecordPage = z.infer<typeof publishRecordPage>;

export const submitStatusBody = z
  .object({
    publishId: z.string().max(64).optional(),
    jobId: z.string().max(64).optional(),
    accountId: id('accountId').optional(),
    status: z.string({ error: '请提供 status' }).trim().min(1).max(32),
    message: z.string().max(1000).optional(),
  })
  .refine((b) => b.jobId !== undefined || b.publishId !== undefined, '请提供 jobId 或 publishId');

export const xhsTagsQuery = z.object({ text: z.string({ error: '请提供 text' }).trim().min(1, '请提供 text').max(5000, 'text 最多5000个字符') });
export const xhsTagsReply = z.object({ tags: z.array(z.string()) });

export const intentCommentQuery = pageQuery.extend({ accountId: id('accountId') });
export const intentCommentSchema = z.object({
  id: z.number().int(),
  accountId: z.number().int(),
  noteId: z.string().nullable(),
  noteTitle: z.string().nullable(),
  author: z.string(),
  content: z.string(),
  /** e.g. 'purchase' (怎么买, 多少钱, 链接) and 'contact' (私信, 微信, 加V). */
  intents: z.array(z.string()),
  matched: z.array(z.string()),
  suggestedReply: z.string(),
  commentedAt: z.string(),
});
export type IntentComment = z.infer<typeof intentCommentSchema>;
export const intentCommentReply = z.object({ records: z.array(intentCommentSchema), total: z.number().int(), pageNum: z.number().int(), pageSize: z.number().int() });
