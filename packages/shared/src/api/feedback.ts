import { z } from 'zod';
import { feedbackContentMaxLength, feedbackContactMaxLength, feedbackImagesMax } from '../constants/feedback.js';
import { pageOf, pageQuery } from './common.js';

export const feedbackReplyMaxLength = 2000;

export const feedbackBody = z.object({
  content: z
    .string({ error: '请填写反馈内容 content' })
    .trim()
    .min(1, '反馈内容 content 不能为空')
    .max(feedbackContentMaxLength, `反馈内容 content 最多${feedbackContentMaxLength}个字`),
  /** URLs returned by POST /wx/upload (the user's own uploads only). */
  images: z
    .array(z.string({ error: '截图 images 必须是图片地址' }).trim().min(1, '截图 images 不能为空').max(500, '截图 images 地址过长'), { error: '截图 images 必须是列表' })
    .max(feedbackImagesMax, `截图 images 最多${feedbackImagesMax}张`)
    .default([]),
  /** Phone, WeChat or email; optional. */
  contact: z
    .string({ error: '联系方式 contact 必须是文字' })
    .trim()
    .max(feedbackContactMaxLength, `联系方式 contact 最多${feedbackContactMaxLength}个字`)
    .optional()
    .transform((v) => (v ? v : undefined)),
});
export type FeedbackBody = z.input<typeof feedbackBody>;

export const feedbackItemSchema = z.object({
  id: z.number().int(),
  content: z.string(),
  images: z.array(z.string()),
  contact: z.string().nullable(),
  status: z.enum(['open', 'replied']),
  reply: z.string().nullable(),
  repliedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type FeedbackItem = z.infer<typeof feedbackItemSchema>;

export const feedbackListQuery = pageQuery;
export const feedbackPageSchema = pageOf(feedbackItemSchema);
export type FeedbackPage = z.infer<typeof feedbackPageSchema>;
