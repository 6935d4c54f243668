import { z } from 'zod';
import { pageOf, pageQuery } from './common.js';

/**
 * `comment` (a fan comment with purchase/contact intent) and `feedbackReply` (an operator's answer to
 * 帮助与反馈, spec section 3 global store) are personal; the others may also be broadcast.
 */
export const noticeTypes = ['system', 'activity', 'update', 'comment', 'feedbackReply'] as const;
export type NoticeType = (typeof noticeTypes)[number];

const typeMessage = `type 必须是 ${noticeTypes.join('、')} 之一`;
export const noticeTypeSchema = z.enum(noticeTypes, { error: typeMessage });

/** `type` empty or absent lists every type: clients send `type=` for the "all" tab. */
export const noticeListQuery = pageQuery.extend({
  type: z
    .enum([...noticeTypes, ''], { error: typeMessage })
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
});
export type NoticeListQuery = z.infer<typeof noticeListQuery>;

export const noticeIdQuery = z.object({
  id: z
    .string({ error: (iss) => (iss.input === undefined ? '请提供公告 id' : 'id 必须是正整数') })
    .trim()
    .regex(/^[1-9]\d{0,14}$/, 'id 必须是正整数')
    .transform(Number),
});

export const noticeItemSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  /** Plain text or simple markdown; the client renders it sanitised. */
  content: z.string(),
  /** html: written in the console, cleaned on the server to a few tags (the client cleans it again before showing it). */
  format: z.enum(['text', 'html']),
  type: z.string(),
  /** When the notice was published (ISO 8601): the time users see it arrive. */
  createdAt: z.string(),
  read: z.boolean(),
  /** In-app route to open on click (spec section 2 routes, e.g. /orderInfo, /operationBoard/12); null when there is none. */
  link: z.string().nullable(),
});
export type NoticeItem = z.infer<typeof noticeItemSchema>;

export const noticePageSchema = pageOf(noticeItemSchema);
export type NoticePage = z.infer<typeof noticePageSchema>;

export const noticeBubbleSchema = z.object({ unreadNoticeNum: z.number().int() });
export type NoticeBubble = z.infer<typeof noticeBubbleSchema>;

export const noticeTitleMaxLength = 100;
export const noticeContentMaxLength = 20_000;

/** What an operator publishes (admin CLI today, an admin screen later). `userId` null = every user. */
export const noticePublishInput = z.object({
  title: z.string({ error: '请提供标题 title' }).trim().min(1, '标题 title 不能为空').max(noticeTitleMaxLength, `标题 title 最多${noticeTitleMaxLength}个字符`),
  content: z.string({ error: '请提供内容 content' }).trim().min(1, '内容 content 不能为空').max(noticeContentMaxLength, `内容 content 最多${noticeContentMaxLength}个字符`),
  type: noticeTypeSchema.default('system'),
  userId: z.number().int().positive().nullable().default(null),
  /** Absent = now; a future time schedules the notice. */
  publishedAt: z.date().optional(),
  /** An in-app path (starting with a single '/'), never an outside address. */
  link: z
    .string()
    .trim()
    .max(500, '链接 link 最多500个字符')
    .regex(/^\/(?!\/)[^\s\\]*$/, '链接 link 必须是以 / 开头的站内路径')
    .nullable()
    .default(null),
});
export type NoticePublishInput = z.input<typeof noticePublishInput>;
