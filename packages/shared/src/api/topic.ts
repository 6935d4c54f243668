import { z } from 'zod';
import { sysTrackSelectMax, userTrackMax, anglePlatforms } from '../constants/topic.js';
import { pageOf, pageQuery } from './common.js';

/** 选题: tracks (赛道), hot topics from public hot lists and feeds, collections, AI angles, divergent maps. */
export const trackNameMaxLength = 20;
export const topicKeywordMaxLength = 50;
export const mapTitleMaxLength = 50;
/** Serialized mind map; simple-mind-map's JSON for a few hundred nodes stays well under this. */
export const mapDataMaxBytes = 200_000;

const trackName = (field: string) =>
  z
    .string({ error: `赛道 ${field} 必须是文字` })
    .trim()
    .min(1, `赛道 ${field} 不能为空`)
    .max(trackNameMaxLength, `赛道 ${field} 每个最多${trackNameMaxLength}个字`)
    .refine((s) => !s.includes('|'), `赛道 ${field} 不能包含 | 符号`);

export const sysTrackSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  children: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type SysTrack = z.infer<typeof sysTrackSchema>;

export const userTrackSchema = z.object({ id: z.number().int(), name: z.string() });
export type UserTrack = z.infer<typeof userTrackSchema>;

/** GET /topic/v3/track/info: the spec's track store (trackData, customTrackData, isCreatorType, sysTrack, userTrack). */
export const trackInfoSchema = z.object({
  /** Every system track with its sub-tracks, to pick from. */
  trackData: z.array(sysTrackSchema),
  /** The user's own tracks. */
  customTrackData: z.array(userTrackSchema),
  /** The user has told us their creator type (onboarding done). */
  isCreatorType: z.boolean(),
  /** Selected system track names (the profile's sysTrackSelected, split on |). */
  sysTrack: z.array(z.string()),
  /** Selected user track names (the profile's userTrackSelected, split on |). */
  userTrack: z.array(z.string()),
});
export type TrackInfo = z.infer<typeof trackInfoSchema>;

/** POST /topic/v3/track/save: the whole selection; user tracks not named are removed. */
export const trackSaveBody = z.object({
  sysTrack: z.array(trackName('sysTrack'), { error: '赛道 sysTrack 必须是列表' }).max(sysTrackSelectMax, `赛道 sysTrack 最多选择${sysTrackSelectMax}个`).default([]),
  userTrack: z.array(trackName('userTrack'), { error: '自定义赛道 userTrack 必须是列表' }).max(userTrackMax, `自定义赛道 userTrack 最多${userTrackMax}个`).default([]),
});
export type TrackSaveBody = z.input<typeof trackSaveBody>;

export const topicTrends = ['new', 'up', 'down', 'flat'] as const;

export const topicSourceRefSchema = z.object({ source: z.string(), sourceName: z.string(), url: z.string(), heat: z.number(), rank: z.number().int() });

export const topicItemSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  url: z.string(),
  sources: z.array(topicSourceRefSchema),
  tracks: z.array(z.string()),
  /** Rank score (positional heat over sources, decayed by age), 0-100ish. */
  score: z.number(),
  /** The largest heat figure any source gave, in that source's unit (0 when none). */
  heat: z.number(),
  trend: z.enum(topicTrends),
  /** From the bundled dated snapshot, not a live source. */
  snapshot: z.boolean(),
  publishedAt: z.string().nullable(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  collected: z.boolean(),
});
export type TopicItem = z.infer<typeof topicItemSchema>;

export const topicSourceStateSchema = z.object({
  source: z.string(),
  sourceName: z.string(),
  lastFetchedAt: z.string().nullable(),
  ok: z.boolean().nullable(),
  error: z.string().nullable(),
  itemCount: z.number().int(),
});

/** GET /topic/v3/hot: `track` is a system or user track name; none means all. */
export const topicHotQuery = pageQuery.extend({
  track: z.string().trim().max(trackNameMaxLength, `赛道 track 最多${trackNameMaxLength}个字`).optional(),
  keyword: z.string().trim().max(topicKeywordMaxLength, `关键词 keyword 最多${topicKeywordMaxLength}个字`).optional(),
  /** Only items one source listed (weibo, zhihu, feed:<url>...). */
  source: z.string().trim().max(300, '来源 source 过长').optional(),
});
export const topicHotPageSchema = pageOf(topicItemSchema).extend({
  /** The configured sources and when each last answered. */
  sources: z.array(topicSourceStateSchema),
  /** Set when only the bundled snapshot is available: its date (YYYY-MM-DD). */
  snapshotDate: z.string().nullable(),
});
export type TopicHotPage = z.infer<typeof topicHotPageSchema>;

/** GET /topic/v3/track/search */
export const trackSearchQuery = z.object({
  keyword: z.string({ error: '请输入关键词 keyword' }).trim().min(1, '关键词 keyword 不能为空').max(topicKeywordMaxLength, `关键词 keyword 最多${topicKeywordMaxLength}个字`),
});
export const trackSearchResultSchema = z.object({
  tracks: z.array(z.object({ id: z.number().int(), name: z.string(), parent: z.string().nullable(), system: z.boolean() })),
  topics: z.array(topicItemSchema),
});
export type TrackSearchResult = z.infer<typeof trackSearchResultSchema>;

export const topicIdBody = z.object({ topicId: z.coerce.number({ error: '选题 topicId 必须是数字' }).int('选题 topicId 必须是整数').positive('选题 topicId 必须是正整数') });
/** @alias the same field read from the query string (GET /topic/v3/detail); knip reads the tag as a deliberate second name. */
export const topicIdQuery = topicIdBody;
export const topicCollectPageSchema = pageOf(topicItemSchema.extend({ collectedAt: z.string() }));
export type TopicCollectPage = z.infer<typeof topicCollectPageSchema>;

export type AnglePlatform = (typeof anglePlatforms)[number];

/** POST /topic/v3/angles: a hot topic (topicId) or any keyword. */
export const topicAnglesBody = z
  .object({
    topicId: z.number({ error: '选题 topicId 必须是数字' }).int().positive('选题 topicId 必须是正整数').optional(),
    keyword: z
      .string({ error: '关键词 keyword 必须是文字' })
      .trim()
      .min(1, '关键词 keyword 不能为空')
      .max(topicKeywordMaxLength, `关键词 keyword 最多${topicKeywordMaxLength}个字`)
      .optional(),
    platform: z.enum(anglePlatforms, { error: `平台 platform 必须是 ${anglePlatforms.join('、')} 之一` }).default('xiaohongshu'),
    count: z.number({ error: '数量 count 必须是数字' }).int().min(5, '数量 count 为5到10').max(10, '数量 count 为5到10').default(6),
    /** A retry with the same id is not charged twice. */
    requestId: z
      .string({ error: 'requestId 必须是文字' })
      .regex(/^[\w-]{8,64}$/, 'requestId 须为8到64位字母数字')
      .optional(),
    modelConfigType: z.string().max(64).nullish(),
    /** Write the angles in this persona's voice, for its platform and readers (the home input's selected persona). */
    personaId: z.number({ error: '人设 personaId 必须是数字' }).int().positive('人设 personaId 必须是正整数').nullish(),
  })
  .refine((b) => b.topicId !== undefined || b.keyword !== undefined, { message: '请提供选题 topicId 或关键词 keyword', path: ['keyword'] });
export type TopicAnglesBody = z.input<typeof topicAnglesBody>;

export const topicAngleSchema = z.object({ angle: z.string(), title: z.string(), hook: z.string() });
export type TopicAngle = z.infer<typeof topicAngleSchema>;
export const topicAnglesSchema = z.object({
  subject: z.string(),
  platform: z.enum(anglePlatforms),
  angles: z.array(topicAngleSchema),
  /** False: template angles from the offline writer, not AI (the UI says so). */
  isAi: z.boolean(),
  pointsCharged: z.number().int(),
});
export type TopicAngles = z.infer<typeof topicAnglesSchema>;

/** Divergent maps (/divergent). */
export const mapSaveBody = z.object({
  id: z.number({ error: '导图 id 必须是数字' }).int().positive().optional(),
  title: z.string({ error: '请填写导图标题 title' }).trim().min(1, '导图标题 title 不能为空').max(mapTitleMaxLength, `导图标题 title 最多${mapTitleMaxLength}个字`),
  data: z
    .record(z.string(), z.unknown(), { error: '导图内容 data 必须是对象' })
    .refine((d) => JSON.stringify(d).length <= mapDataMaxBytes, `导图内容 data 过大（最多${mapDataMaxBytes / 1000}KB）`),
});
export type MapSaveBody = z.input<typeof mapSaveBody>;
export const mapItemSchema = z.object({ id: z.number().int(), title: z.string(), data: z.unknown(), createdAt: z.string(), updatedAt: z.string() });
export type MapItem = z.infer<typeof mapItemSchema>;
export const mapListSchema = z.array(mapItemSchema.omit({ data: true }));
export const mapIdQuery = z.object({ id: z.coerce.number({ error: '导图 id 必须是数字' }).int().positive('导图 id 必须是正整数') });

/** GET /topic/v3/calendar: one month of festivals, solar terms, public holidays and marketing days. */
export const calendarMonthMin = '2004-01';
export const calendarMonthMax = '2050-12';
export const topicCalendarQuery = z.object({
  month: z
    .string({ error: '请提供月份 month（格式 YYYY-MM）' })
    .trim()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份 month 格式应为 YYYY-MM，例如 2026-11')
    .refine((m) => m >= calendarMonthMin && m <= calendarMonthMax, `月份 month 超出范围（${calendarMonthMin} 到 ${calendarMonthMax}）`),
});
export const calendarDayTypes = ['traditional', 'solar_term', 'public_holiday', 'marketing'] as const;
export const calendarDaySchema = z.object({
  date: z.string(),
  /** A span's last day (public holidays, 开学季, 年货节); null for a single day. */
  endDate: z.string().nullable(),
  name: z.string(),
  type: z.enum(calendarDayTypes),
  suggestion: z.string(),
  /** Suggested topics to write (marketing days); empty when only the suggestion line is given. */
  topics: z.array(z.string()),
});
export type CalendarDay = z.infer<typeof calendarDaySchema>;
export const topicCalendarSchema = z.object({ month: z.string(), days: z.array(calendarDaySchema) });
export type TopicCalendar = z.infer<typeof topicCalendarSchema>;
