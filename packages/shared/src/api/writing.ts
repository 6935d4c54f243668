import { z } from 'zod';
import { writingLimits, taskEventTypes } from '../constants/writing.js';

/** AI writing: models, home input, tasks and their stream, drafts, personas, files, abilities. */

const limits = writingLimits;

export const createTypes = ['article', 'graphic'] as const;
export const writeTypes = ['deep', 'quick', 'imitate', 'rewrite'] as const;
export type WriteType = (typeof writeTypes)[number];
export const abilityTypes = ['continue', 'expand', 'shorten', 'polish', 'persona', 'tone'] as const;
export type AbilityType = (typeof abilityTypes)[number];

/**
 * The home input's ability types (spec: abilityType / abilityTypeList): the form the article takes. The server serves
 * the list (GET /writing/ability/types) and a task carries the chosen id; its instruction joins the model's system prompt.
 */
export const homeAbilities = [
  { id: 'general', label: '通用文章', description: '结构清晰的通用长文', instruction: '' },
  {
    id: 'wechat_article',
    label: '公众号文章',
    description: '标题吸睛、小标题分段、结尾引导互动',
    instruction: '写成适合微信公众号发布的文章：标题吸引人，开头抛出问题或场景，用小标题分段，结尾引导读者留言互动。',
  },
  {
    id: 'xhs_note',
    label: '小红书笔记',
    description: '口语化、分点、带话题标签',
    instruction: '写成小红书笔记：口语化，分点陈述，段落短，适量使用表情符号，结尾附3到5个 # 话题标签。',
  },
  { id: 'video_script', label: '口播脚本', description: '短视频口播，开头三秒抓人', instruction: '写成短视频口播脚本：开头三秒抓住注意力，句子短，按镜头分段并标注【镜头N】。' },
  { id: 'news', label: '新闻稿', description: '倒金字塔结构、客观语气', instruction: '写成新闻稿：倒金字塔结构，导语概括时间、地点、人物、事件、原因和结果，语气客观。' },
  { id: 'review', label: '测评种草', description: '场景、优缺点与推荐人群', instruction: '写成产品测评：先讲使用场景，再对比优缺点，最后给出结论和推荐人群。' },
] as const;
export type HomeAbilityId = (typeof homeAbilities)[number]['id'];
export const homeAbilityIds = homeAbilities.map((a) => a.id) as [HomeAbilityId, ...HomeAbilityId[]];
export const homeAbilityItemSchema = z.object({ id: z.string(), label: z.string(), description: z.string() });
export type HomeAbilityItem = z.infer<typeof homeAbilityItemSchema>;

const idSchema = z.coerce.number({ error: 'id 必须是数字' }).int().positive('id 必须是正整数');
export const idQuery = z.object({ id: idSchema });
export const idBody = z.object({ id: idSchema });

// ---- models ----
export const modelItemSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** False for the embedded offline writer: the UI must not present it as AI. */
  isAi: z.boolean(),
  isDefault: z.boolean(),
  capabilities: z.array(z.string()),
  pointsFeature: z.string().nullable(),
});
export type ModelItem = z.infer<typeof modelItemSchema>;

// ---- home input ----
/** Editor documents may carry markup, so the cap is wider than the prompt's; the whole input is byte-capped too. */
export const editorContentSchema = z.object({
  top: z.string().max(20_000, '输入内容过长').default(''),
  bottom: z.string().max(20_000, '输入内容过长').default(''),
});
export const homeInputSchema = z.object({
  editorContent: editorContentSchema.default({ top: '', bottom: '' }),
  writeType: z.enum(writeTypes, { error: `writeType 必须是 ${writeTypes.join('、')} 之一` }).default('deep'),
  onlineSearch: z.boolean().default(false),
  quoteFileIds: z.array(z.number().int().positive()).max(limits.quoteFilesMax, `最多引用${limits.quoteFilesMax}个文件`).default([]),
  personaId: z.number().int().positive().nullable().default(null),
  abilityType: z.string().max(32).nullable().default(null),
  modelConfigType: z.string().max(64).nullable().default(null),
  /** The 图文 box's card options (spec: graphicModelConfig); null in the article box. */
  graphicModelConfig: z
    .object(
      {
        contentCards: z.number({ error: 'contentCards 必须是数字' }).int().min(2, 'contentCards 最少2张').max(17, 'contentCards 最多17张').nullable().default(null),
        pictureMode: z.enum(['card', 'ai'], { error: 'pictureMode 必须是 card 或 ai' }).default('card'),
      },
      { error: 'graphicModelConfig 必须是对象' },
    )
    .nullable()
    .default(null),
});
export type HomeInput = z.infer<typeof homeInputSchema>;
export const saveHomeInputBody = homeInputSchema.extend({
  createType: z.enum(createTypes, { error: 'createType 必须是 article 或 graphic' }),
});
/** The stored home input as read back and as saved: the input plus which box (article / graphic) it belongs to. */
export const savedHomeInputSchema = homeInputSchema.extend({ createType: z.string() });
export type SavedHomeInput = z.infer<typeof savedHomeInputSchema>;
export const homeInputQuery = z.object({ createType: z.enum(createTypes, { error: 'createType 必须是 article 或 graphic' }).default('article') });

export const styleCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  writeType: z.enum(writeTypes),
  example: z.string(),
  tags: z.array(z.string()),
});
export type StyleCard = z.infer<typeof styleCardSchema>;
export const suggestWordSchema = z.object({ word: z.string(), source: z.enum(['industry', 'festival', 'general']) });
export type SuggestWord = z.infer<typeof suggestWordSchema>;

export const festivalQuery = z.object({ year: z.coerce.number({ error: 'year 必须是数字' }).int().min(2004, '年份超出范围').max(2050, '年份超出范围').optional() });
export const festivalItemSchema = z.object({
  date: z.string(),
  name: z.string(),
  type: z.enum(['traditional', 'solar_term', 'public_holiday']),
  /** Public holidays: the days off, first to last. */
  endDate: z.string().nullable(),
  suggestion: z.string(),
});
export type FestivalItem = z.infer<typeof festivalItemSchema>;

// ---- tasks ----
export const taskCreateBody = z.object({
  createType: z.literal('article', { error: 'createType 目前只支持 article' }),
  writeType: z.enum(writeTypes, { error: `writeType 必须是 ${writeTypes.join('、')} 之一` }).default('deep'),
  content: z.string({ error: '请输入写作内容' }).trim().min(1, '请输入写作内容').max(limits.promptMaxChars, `写作内容最多${limits.promptMaxChars}字`),
  personaId: z.number().int().positive().nullish(),
  quoteFileIds: z.array(z.number().int().positive()).max(limits.quoteFilesMax, `最多引用${limits.quoteFilesMax}个文件`).default([]),
  onlineSearch: z.boolean().default(false),
  modelConfigType: z.string().max(64).nullish(),
  abilityType: z.enum(homeAbilityIds, { error: `abilityType 必须是 ${homeAbilityIds.join('、')} 之一` }).nullish(),
  /** 知识库 quoted: documents, folders, or the whole library; the pipeline retrieves passages and cites them as [n]. */
  knowledge: z
    .object(
      {
        docIds: z
          .array(z.number({ error: '知识库文档 knowledge.docIds 必须是数字' }).int().positive(), { error: 'knowledge.docIds 必须是列表' })
          .max(20, '最多引用20个知识库文档')
          .default([]),
        folderIds: z
          .array(z.number({ error: '知识库文件夹 knowledge.folderIds 必须是数字' }).int().positive(), { error: 'knowledge.folderIds 必须是列表' })
          .max(20, '最多引用20个知识库文件夹')
          .default([]),
        all: z.boolean({ error: 'knowledge.all 必须是布尔值' }).default(false),
      },
      { error: 'knowledge 必须是对象' },
    )
    .nullish(),
});
export type TaskCreateBody = z.infer<typeof taskCreateBody>;
export const taskIdSchema = z.object({ taskId: z.string() });
export const taskIdQuery = z.object({ taskId: z.string().min(1, '缺少 taskId').max(64) });
export const taskStatuses = ['queued', 'running', 'succeeded', 'failed'] as const;
/** Who wrote a task's or draft's text: a model, or the embedded offline writer (not AI, free). The UI labels it; the text never does. */
export const generatedByValues = ['ai', 'offline'] as const;
export type GeneratedBy = (typeof generatedByValues)[number];
export const taskInfoSchema = z.object({
  taskId: z.string(),
  kind: z.enum(['article', 'ability', 'graphic']),
  mode: z.string(),
  status: z.enum(taskStatuses),
  title: z.string(),
  text: z.string(),
  draftId: z.number().int().nullable(),
  pointsCharged: z.number().int(),
  modelId: z.string(),
  generatedBy: z.enum(generatedByValues),
  errorCode: z.number().int().nullable(),
  errorMsg: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TaskInfo = z.infer<typeof taskInfoSchema>;
export const streamQuery = z.object({
  /**
   * EventSource cannot set headers: browsers pass a ticket from `POST /mp/task/stream/ticket` instead of the session
   * token, which must never appear in a URL (logs, history).
   */
  ticket: z.string().max(200).optional(),
  lastEventId: z.coerce.number().int().min(0).optional(),
});
export const streamTicketBody = z.object({ taskId: z.string().min(1, '缺少 taskId').max(64, 'taskId 过长') });
export const streamTicketSchema = z.object({
  /** Opens this task's stream for this user; reusable until it expires. */
  ticket: z.string(),
  /** Seconds. */
  expiresIn: z.number().int(),
});
export type StreamTicket = z.infer<typeof streamTicketSchema>;

export type TaskEventType = (typeof taskEventTypes)[number];
export const searchSourceSchema = z.object({ n: z.number().int(), title: z.string(), url: z.string(), snippet: z.string(), siteName: z.string().nullable() });
export type SearchSource = z.infer<typeof searchSourceSchema>;

// ---- abilities and titles ----
export const toneTypes = ['formal', 'casual', 'humorous', 'warm', 'professional', 'lively'] as const;
export const abilityCreateBody = z.object({
  abilityType: z.enum(abilityTypes, { error: `abilityType 必须是 ${abilityTypes.join('、')} 之一` }),
  text: z.string({ error: '请选择要处理的文字' }).trim().min(1, '请选择要处理的文字').max(limits.abilityMaxChars, `一次最多处理${limits.abilityMaxChars}字`),
  context: z.string().max(limits.promptMaxChars).optional(),
  personaId: z.number().int().positive().nullish(),
  tone: z.enum(toneTypes).optional(),
  modelConfigType: z.string().max(64).nullish(),
});
export type AbilityCreateBody = z.infer<typeof abilityCreateBody>;
export const titleGenerateBody = z.object({
  content: z.string({ error: '请输入正文' }).trim().min(1, '请输入正文').max(limits.draftMaxChars),
  count: z.number().int().min(1).max(10).default(5),
  personaId: z.number().int().positive().nullish(),
  modelConfigType: z.string().max(64).nullish(),
});
export const titleGenerateSchema = z.object({ titles: z.array(z.string()), isAi: z.boolean() });

// ---- search ----
export const searchStatusSchema = z.object({ enabled: z.boolean(), provider: z.string().nullable(), reason: z.string().nullable() });
export type SearchStatus = z.infer<typeof searchStatusSchema>;

// ---- drafts ----
export const draftItemSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  taskId: z.string().nullable(),
  createType: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DraftItem = z.infer<typeof draftItemSchema>;
export const draftDetailSchema = draftItemSchema.extend({
  html: z.string(),
  markdown: z.string(),
  /** Of the task that produced the draft; null for a draft the user started. */
  generatedBy: z.enum(generatedByValues).nullable(),
});
export type DraftDetail = z.infer<typeof draftDetailSchema>;
export const draftSaveBody = z
  .object({
    id: z.number().int().positive().nullish(),
    title: z.string().max(200, '标题最多200字').default(''),
    html: z.string().max(limits.draftMaxChars, '正文过长').optional(),
    markdown: z.string().max(limits.draftMaxChars, '正文过长').optional(),
  })
  .refine((b) => b.html !== undefined || b.markdown !== undefined || b.id, { message: '请提供正文 html 或 markdown' });
export const draftExportQuery = z.object({ id: idSchema, format: z.enum(['docx', 'md'], { error: 'format 必须是 docx 或 md' }).default('docx') });

// ---- personas ----
const shortText = (label: string, max: number) => z.string().trim().max(max, `${label}最多${max}字`).default('');
export const personaSaveBody = z.object({
  id: z.number().int().positive().nullish(),
  name: z.string({ error: '请输入人设名称' }).trim().min(1, '请输入人设名称').max(30, '人设名称最多30字'),
  platform: shortText('平台', 30),
  industry: shortText('行业', 30),
  audience: shortText('目标读者', 200),
  tone: shortText('语气', 100),
  tabooWords: z.array(z.string().trim().min(1).max(20, '禁用词最多20字')).max(100, '禁用词最多100个').default([]),
  sampleTexts: z.array(z.string().max(5000, '示例文本每篇最多5000字')).max(5, '示例文本最多5篇').default([]),
});
export type PersonaSaveBody = z.infer<typeof personaSaveBody>;
export const personaSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  platform: z.string(),
  industry: z.string(),
  audience: z.string(),
  tone: z.string(),
  tabooWords: z.array(z.string()),
  sampleTexts: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Persona = z.infer<typeof personaSchema>;

// ---- files ----
export const quoteFileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ext: z.string(),
  size: z.number().int(),
  chars: z.number().int(),
  preview: z.string(),
  createdAt: z.string(),
});
export type QuoteFile = z.infer<typeof quoteFileSchema>;
export const uploadResultSchema = z.object({ url: z.string() });
export const imageSearchQuery = z.object({ keyword: z.string().trim().max(50, '关键词最多50字').default('') });
export const imageItemSchema = z.object({ id: z.number().int(), url: z.string(), name: z.string(), keywords: z.array(z.string()), createdAt: z.string() });
export type ImageItem = z.infer<typeof imageItemSchema>;
