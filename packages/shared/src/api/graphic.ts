import { z } from 'zod';
import { cardAspectIds, coverTitleMax, graphicLimits, noteTextLength } from '../constants/graphic.js';
import { writingLimits } from '../constants/writing.js';
import { taskCreateBody, taskStatuses, generatedByValues, writeTypes } from './writing.js';

/** Graphic posts (图文): typographic cards rendered on the server, AI images, the Xiaohongshu-style note (issue 12). */

export const cardThemeIds = ['paper', 'ink', 'celadon', 'blush', 'sky', 'mint', 'sunset', 'mono'] as const;
export const cardThemeSchema = z.enum(cardThemeIds, { error: `themeId 必须是 ${cardThemeIds.join('、')} 之一` });
export type CardThemeId = z.infer<typeof cardThemeSchema>;

/**
 * Card templates. Every one renders 1080x1440 (3:4) and fits its text automatically. How `heading` and `text` are read:
 * cover: heading = big title, text = subtitle; list / checklist / steps: one item per line of `text`;
 * quote: text = the quotation, heading = who said it; comparison: lines `左 | 右`, the first line names the two sides;
 * paragraph / highlight: free text (highlight: the first line is the key sentence).
 */
export const cardTemplateIds = ['cover', 'list', 'quote', 'checklist', 'comparison', 'steps', 'paragraph', 'highlight'] as const;
export const cardTemplateSchema = z.enum(cardTemplateIds, { error: `templateId 必须是 ${cardTemplateIds.join('、')} 之一` });
export type CardTemplateId = z.infer<typeof cardTemplateSchema>;

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

// ---- creating a graphic task ----------------------------------------------------------------------------------

/** Where a card's picture comes from: the card renderer (always), an AI image, the image library, an upload. */
export const cardPictureSources = ['card', 'ai', 'material', 'upload'] as const;
export const cardPictureSourceSchema = z.enum(cardPictureSources, { error: `source 必须是 ${cardPictureSources.join('、')} 之一` });
export type CardPictureSource = z.infer<typeof cardPictureSourceSchema>;

/**
 * `POST /mp/task/create {createType:'graphic', ...}`: the same inputs as an article (modes, persona, online search,
 * quoted files, knowledge) plus the card options. Points: `graphic` per task, `ai_image` per AI picture.
 */
export const graphicTaskCreateBody = taskCreateBody.extend({
  createType: z.literal('graphic'),
  writeType: z.enum(writeTypes, { error: `writeType 必须是 ${writeTypes.join('、')} 之一` }).default('quick'),
  /** Content cards wanted besides the cover (2-17); absent = the writer decides. */
  contentCards: z
    .number({ error: 'contentCards 必须是数字' })
    .int('contentCards 必须是整数')
    .min(graphicLimits.planContentMin, `contentCards 最少${graphicLimits.planContentMin}张`)
    .max(graphicLimits.planContentMax, `contentCards 最多${graphicLimits.planContentMax}张`)
    .optional(),
  themeId: cardThemeSchema.optional(),
  /** 'card' (default): every picture is a rendered card; 'ai': cards the plan marks for a picture get an AI image. */
  pictureMode: z.enum(['card', 'ai'], { error: 'pictureMode 必须是 card 或 ai' }).default('card'),
});
export type GraphicTaskCreateBody = z.infer<typeof graphicTaskCreateBody>;

/** The body of `POST /mp/task/create`: an article or a graphic task, told apart by createType. */
export const anyTaskCreateBody = z.discriminatedUnion('createType', [taskCreateBody, graphicTaskCreateBody], { error: 'createType 必须是 article 或 graphic' });
export type AnyTaskCreateBody = z.infer<typeof anyTaskCreateBody>;

// ---- the note and its cards ------------------------------------------------------------------------------------

export const graphicCardSchema = z.object({
  /** 0 = the cover; the order the note shows. */
  index: z.number().int(),
  /** Stable across reorders (use it as the React key). */
  id: z.string(),
  heading: z.string(),
  text: z.string(),
  templateId: z.enum(cardTemplateIds),
  themeId: z.enum(cardThemeIds),
  source: z.enum(cardPictureSources),
  /** The plan's picture idea (the AI image prompt). */
  imagePrompt: z.string(),
  /** Browser URL of the card's PNG/JPEG; empty while not yet rendered. */
  imageUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type GraphicCard = z.infer<typeof graphicCardSchema>;

export const graphicTaskInfoSchema = z.object({
  taskId: z.string(),
  status: z.enum(taskStatuses),
  title: z.string(),
  body: z.string(),
  tags: z.array(z.string()),
  cards: z.array(graphicCardSchema),
  /** The 图文 draft once saved (shared drafts list, createType 'graphic'). */
  draftId: z.number().int().nullable(),
  pointsCharged: z.number().int(),
  generatedBy: z.enum(generatedByValues),
  errorCode: z.number().int().nullable(),
  errorMsg: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type GraphicTaskInfo = z.infer<typeof graphicTaskInfoSchema>;

const taskIdField = z.string({ error: '缺少 taskId' }).min(1, '缺少 taskId').max(64, 'taskId 过长');
const indexField = z.coerce
  .number({ error: 'index 必须是数字' })
  .int('index 必须是整数')
  .min(0, 'index 无效')
  .max(graphicLimits.cardsMax - 1, 'index 无效');
const headingField = z.string({ error: 'heading 必须是文字' }).trim().max(graphicLimits.cardHeadingMax, `卡片标题 heading 最多${graphicLimits.cardHeadingMax}字`);
const textField = z.string({ error: 'text 必须是文字' }).trim().max(graphicLimits.cardTextMax, `卡片文字 text 最多${graphicLimits.cardTextMax}字`);

export const graphicTaskQuery = z.object({ taskId: taskIdField });

/** `POST /graphic/card/update`: change one card's words or look; a rendered card is drawn again. */
export const cardUpdateBody = z.object({
  taskId: taskIdField,
  index: indexField,
  heading: headingField.optional(),
  text: textField.optional(),
  templateId: cardTemplateSchema.optional(),
  themeId: cardThemeSchema.optional(),
  /** Set to 'card' to go back to the rendered card after an AI image or an upload. */
  source: z.literal('card', { error: 'source 只能改回 card' }).optional(),
});
export type CardUpdateBody = z.infer<typeof cardUpdateBody>;

/** `POST /graphic/card/style`: template and/or theme for every card (index absent) or one. */
export const cardStyleBody = z
  .object({ taskId: taskIdField, index: indexField.optional(), templateId: cardTemplateSchema.optional(), themeId: cardThemeSchema.optional() })
  .refine((b) => b.templateId !== undefined || b.themeId !== undefined, '请选择模板 templateId 或配色 themeId');
export type CardStyleBody = z.infer<typeof cardStyleBody>;

/** `POST /graphic/card/reorder`: `order` lists the card ids in their new order (every card exactly once). */
export const cardReorderBody = z.object({
  taskId: taskIdField,
  order: z.array(z.string().min(1).max(64), { error: 'order 必须是卡片 id 列表' }).min(1, 'order 不能为空').max(graphicLimits.cardsMax, `最多${graphicLimits.cardsMax}张图片`),
});
export type CardReorderBody = z.infer<typeof cardReorderBody>;

/** `POST /graphic/card/add`: a new rendered card after `after` (absent = at the end). */
export const cardAddBody = z.object({
  taskId: taskIdField,
  after: indexField.optional(),
  heading: headingField.default(''),
  text: textField.default(''),
  templateId: cardTemplateSchema.default('paragraph'),
  themeId: cardThemeSchema.optional(),
});
export type CardAddBody = z.infer<typeof cardAddBody>;

export const cardRemoveBody = z.object({ taskId: taskIdField, index: indexField });
export type CardRemoveBody = z.infer<typeof cardRemoveBody>;

/**
 * `POST /graphic/card/image/upload` (multipart: fields taskId, index, then one file `file`): the card's picture
 * becomes the upload (jpg/png/gif/webp, <= limits.uploadMaxBytes, checked by magic bytes and decoded). Replies the card.
 * The image editor exports its PNG through this same call.
 */
export const cardImageUploadFields = z.object({
  taskId: taskIdField,
  index: indexField,
  /** The picture's shape (the image editor's crop); absent = 3:4. The stored card takes that ratio's size. */
  aspect: z.enum(cardAspectIds, { error: `aspect 必须是 ${cardAspectIds.join('、')} 之一` }).optional(),
});

/** `POST /graphic/card/image/set`: a picture from the user's image library (material search), by its URL. */
export const cardImageSetBody = z.object({
  taskId: taskIdField,
  index: indexField,
  imageUrl: z.string({ error: '请提供 imageUrl' }).min(1, '请提供 imageUrl').max(2000, 'imageUrl 过长'),
});
export type CardImageSetBody = z.infer<typeof cardImageSetBody>;

/** `POST /graphic/card/image/ai`: an AI picture for one card (charges `ai_image` points, refunded if it fails). */
export const cardImageAiBody = z.object({
  taskId: taskIdField,
  index: indexField,
  /** Absent = the card's imagePrompt. */
  prompt: z.string().trim().min(1, '请填写图片描述 prompt').max(graphicLimits.aiPromptMax, `图片描述 prompt 最多${graphicLimits.aiPromptMax}字`).optional(),
});
export type CardImageAiBody = z.infer<typeof cardImageAiBody>;

/** Replies of the card calls: the whole card list after the change (indexes renumbered). */
export const graphicCardsReply = z.object({ cards: z.array(graphicCardSchema) });
export type GraphicCardsReply = z.infer<typeof graphicCardsReply>;

/** `GET /graphic/templates`: what the editor offers. */
export const cardTemplateInfoSchema = z.object({ id: z.enum(cardTemplateIds), name: z.string(), description: z.string(), width: z.number().int(), height: z.number().int() });
export const cardThemeInfoSchema = z.object({ id: z.enum(cardThemeIds), name: z.string(), background: z.string(), text: z.string(), accent: z.string() });
export const graphicTemplatesReply = z.object({ templates: z.array(cardTemplateInfoSchema), themes: z.array(cardThemeInfoSchema) });
export type GraphicTemplatesReply = z.infer<typeof graphicTemplatesReply>;

/** `GET /graphic/imagegen/status`: whether AI pictures are on (`reason` in Chinese when off), and their price. */
export const imagegenStatusReply = z.object({
  enabled: z.boolean(),
  provider: z.string().nullable(),
  sandbox: z.boolean(),
  reason: z.string().nullable(),
  pointsPerImage: z.number().int(),
});
export type ImagegenStatus = z.infer<typeof imagegenStatusReply>;

/** `GET /graphic/task/zip?taskId=`: every card image in order (01.png, 02.png...) plus 文案.txt; application/zip. */

const noteTitle = z
  .string({ error: '请填写标题 title' })
  .trim()
  .refine((s) => noteTextLength(s) <= graphicLimits.titleMax, `标题最多${graphicLimits.titleMax}字`);
const noteBody = z.string({ error: '请填写正文 body' }).refine((s) => noteTextLength(s) <= graphicLimits.bodyMax, `正文最多${graphicLimits.bodyMax}字`);
const noteTags = z
  .array(z.string().trim().min(1, '话题不能为空').max(graphicLimits.tagMaxChars, `话题最多${graphicLimits.tagMaxChars}个字符`), { error: 'tags 必须是列表' })
  .max(graphicLimits.tagsMax, `最多${graphicLimits.tagsMax}个话题`);

/** `POST /graphic/draft/save`: the note's words (autosave); writes the task's note and its 图文 draft. */
export const graphicDraftSaveBody = z.object({ taskId: taskIdField, title: noteTitle, body: noteBody, tags: noteTags });
export type GraphicDraftSaveBody = z.infer<typeof graphicDraftSaveBody>;
export const graphicDraftSaveReply = z.object({ draftId: z.number().int(), updatedAt: z.string() });
export type GraphicDraftSaveReply = z.infer<typeof graphicDraftSaveReply>;

/** `GET /graphic/recommend/topic?text=`: topic suggestions for the note (same logic as /agent/xhs/tags). */
export const graphicTopicQuery = z.object({
  text: z.string({ error: '请提供 text' }).trim().min(1, '请提供 text').max(writingLimits.promptMaxChars, `text 最多${writingLimits.promptMaxChars}个字符`),
});
export const graphicTopicReply = z.object({ tags: z.array(z.string()) });

/** `GET /graphic/material/search?q=&page=`: stock photos for a card's picture (materials integration). */
export const materialSearchQuery = z.object({
  q: z.string({ error: '请填写搜索词 q' }).trim().min(1, '请填写搜索词 q').max(100, '搜索词 q 最多100字'),
  page: z.coerce.number({ error: 'page 必须是数字' }).int('page 必须是整数').min(1, 'page 最小为1').max(50, 'page 最大为50').default(1),
});
export const materialPhotoSchema = z.object({
  /** The provider's photo id: the card takes the picture by it, so the server fetches only what the provider lists. */
  id: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** A small preview on the provider's CDN (shown by the picker; the card gets the large picture, fetched by the server). */
  thumbUrl: z.string(),
  alt: z.string(),
  author: z.string(),
  authorUrl: z.string(),
  /** The photo's page at the provider (attribution). */
  pageUrl: z.string(),
});
export type MaterialPhoto = z.infer<typeof materialPhotoSchema>;
export const materialSearchReply = z.object({ provider: z.string(), page: z.number().int(), total: z.number().int(), items: z.array(materialPhotoSchema) });
export type MaterialSearchReply = z.infer<typeof materialSearchReply>;
/** `GET /graphic/material/status`: whether material search is on, and why not. */
export const materialStatusReply = z.object({ enabled: z.boolean(), provider: z.string(), reason: z.string().nullable() });

/** `POST /graphic/card/image/material`: a stock photo becomes the card's picture (fetched, checked, cropped to the card). */
export const cardImageMaterialBody = z.object({
  taskId: taskIdField,
  index: indexField,
  photoId: z.string({ error: '请提供 photoId' }).regex(/^[\w-]{1,64}$/, 'photoId 格式不正确'),
});
export type CardImageMaterialBody = z.infer<typeof cardImageMaterialBody>;
