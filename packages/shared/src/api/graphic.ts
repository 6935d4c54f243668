import { z } from 'zod';

/** Graphic posts: typographic cards rendered on the server (DESIGN section 5, card rendering). */

export const cardThemeIds = ['paper', 'ink', 'celadon'] as const;
export const cardThemeSchema = z.enum(cardThemeIds, { error: `themeId 必须是 ${cardThemeIds.join('、')} 之一` });
export type CardThemeId = z.infer<typeof cardThemeSchema>;

/** Longest cover title, counted in characters (code points) after trimming. */
export const coverTitleMax = 40;

/** POST /graphic/cover: a 1080x1440 cover card from the article's title. */
export const coverBody = z.object({
  title: z
    .string({ error: '请填写封面标题 title' })
    .trim()
    .min(1, '封面标题 title 不能为空')
    .refine((s) => [...s].length <= coverTitleMax, `封面标题 title 最多${coverTitleMax}个字`),
  themeId: cardThemeSchema.optional(),
});
export type CoverBody = z.infer<typeof coverBody>;

export const coverReply = z.object({
  /** Browser URL of the stored PNG (a path on this server with local storage, the bucket's URL with S3). */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type CoverReply = z.infer<typeof coverReply>;
