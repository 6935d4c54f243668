import { z } from 'zod';

/** POST /homepage/recall/channel: the recall-activity channel a returning user came back through. */
export const recallChannelBody = z.object({
  channel: z
    .string({ error: '请提供回流渠道 channel' })
    .trim()
    .min(1, '回流渠道 channel 不能为空')
    .max(64, '回流渠道 channel 最多64个字符')
    .regex(/^[\p{L}\p{N}_.-]+$/u, '回流渠道 channel 只能包含文字、数字、下划线、点和连字符'),
});
export type RecallChannelBody = z.infer<typeof recallChannelBody>;
