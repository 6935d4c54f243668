import { z } from 'zod';
import { pageOf, pageQuery } from './common.js';
import { growthbookPayloadSchema } from './flags.js';

/**
 * 模型与来源 in the console (/api/admin/models, /api/admin/lexicon): model configurations whose API keys are
 * write-only (the console only ever sees whether one is set and its last 4 characters), and the sensitive words.
 */
const modelId = z
  .string({ error: '请填写模型 ID id' })
  .trim()
  .regex(/^[\w.-]{1,64}$/, '模型 ID id 须为1到64位字母、数字、下划线、点或连字符');
/** '' from an empty form field means "not given". */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label}最多${max}个字符`)
    .optional()
    .transform((v) => (v ? v : undefined));

/** POST /admin/models/create and /admin/models/update; on update an absent apiKey keeps the stored one. */
export const adminModelSaveBody = z.object({
  id: modelId,
  label: z.string({ error: '请填写名称 label' }).trim().min(1, '请填写名称 label').max(50, '名称 label 最多50个字符'),
  baseUrl: z
    .string({ error: '请填写接口地址 baseUrl' })
    .trim()
    .regex(/^https?:\/\/[^\s]+$/, '接口地址 baseUrl 须为 http(s) 地址'),
  model: z.string({ error: '请填写模型名 model' }).trim().min(1, '请填写模型名 model').max(100, '模型名 model 最多100个字符'),
  apiKey: optionalText(500, 'API Key apiKey '),
  pointsFeature: optionalText(64, '计费项 pointsFeature '),
  capabilities: z.array(z.string().trim().min(1).max(32)).max(10).default([]),
  enabled: z.boolean().default(true),
  isDefault: z.boolean().default(false),
  sort: z.coerce.number().int('排序 sort 必须是整数').min(0, '排序 sort 最小为0').max(9999, '排序 sort 最大为9999').default(0),
});

export const adminModelSchema = z.object({
  id: z.string(),
  label: z.string(),
  baseUrl: z.string(),
  model: z.string(),
  /** Never the key: `sk-…abcd` (its last 4 characters) or null when none is set. */
  apiKey: z.string().nullable(),
  pointsFeature: z.string().nullable(),
  capabilities: z.array(z.string()),
  enabled: z.boolean(),
  isDefault: z.boolean(),
  sort: z.number().int(),
  /** config: from LLM_MODELS (read-only here); admin: added in the console or with the CLI. */
  source: z.enum(['config', 'admin']),
  updatedAt: z.string().nullable(),
});
export type AdminModel = z.infer<typeof adminModelSchema>;

export const adminModelListSchema = z.object({
  records: z.array(adminModelSchema),
  /** The model writers get when they choose none. */
  defaultId: z.string(),
  /** True when LLM_DEFAULT_MODEL fixes the default (the console's 默认 switch then does not apply). */
  defaultFromConfig: z.boolean(),
  /** Other server processes pick up a change within this many seconds (this one at once). */
  reloadSeconds: z.number().int(),
});

/** POST /admin/models/test (连接测试) */
export const adminModelIdBody = z.object({ id: modelId });
export const adminModelTestSchema = z.object({
  ok: z.boolean(),
  latencyMs: z.number().int(),
  /** The start of the model's answer when ok. */
  reply: z.string(),
  /** The vendor's error text when not ok. */
  error: z.string().nullable(),
});

/** GET /admin/lexicon: bundled words (the committed lists, read-only) and the words operators added. */
export const adminLexiconQuery = pageQuery.extend({
  q: z.string().trim().max(50, '搜索词 q 最多50个字符').optional(),
  source: z.enum(['all', 'bundled', 'added'], { error: '来源 source 必须是 all、bundled 或 added' }).default('all'),
});
export const adminLexiconWordSchema = z.object({
  word: z.string(),
  source: z.enum(['bundled', 'added']),
  createdAt: z.string().nullable(),
});
export type AdminLexiconWord = z.infer<typeof adminLexiconWordSchema>;
export const adminLexiconPageSchema = pageOf(adminLexiconWordSchema).extend({ bundledCount: z.number().int(), addedCount: z.number().int() });

/** POST /admin/lexicon/add and /admin/lexicon/remove */
export const adminLexiconWordBody = z.object({
  word: z.string({ error: '请填写词语 word' }).trim().min(1, '请填写词语 word').max(50, '词语 word 最多50个字符'),
});

/** GET /admin/sources: the search vendors and trends sources configured in the environment (never their keys). */
export const adminSourceSchema = z.object({
  kind: z.enum(['search', 'trends', 'imagegen']),
  id: z.string(),
  name: z.string(),
  /** Set up in the environment (SEARCH_PROVIDER, TRENDS_SOURCES) or added with the admin CLI (feeds). */
  configured: z.boolean(),
  /** Only configured environment sources can be switched here; CLI feeds keep their own switch (topic:source:*). */
  switchable: z.boolean(),
  enabled: z.boolean(),
  /** False for the bundled trends snapshot. */
  live: z.boolean(),
  lastFetchedAt: z.string().nullable(),
  ok: z.boolean().nullable(),
  error: z.string().nullable(),
});
export type AdminSource = z.infer<typeof adminSourceSchema>;
export const adminSourceListSchema = z.object({ records: z.array(adminSourceSchema) });

/** POST /admin/sources/switch */
export const adminSourceSwitchBody = z.object({
  kind: z.enum(['search', 'trends', 'imagegen'], { error: '类型 kind 必须是 search、trends 或 imagegen' }),
  id: z.string({ error: '请填写来源 id' }).trim().min(1, '请填写来源 id').max(300),
  enabled: z.boolean({ error: '请填写 enabled（true 或 false）' }),
});

/** GET /admin/flags: the GrowthBook payload the server serves (read-only: it comes from FEATURES_FILE, read at start-up). */
export const adminFlagsSchema = z.object({
  /** FEATURES_FILE as configured, or null when the built-in defaults (every flag off) are served. */
  file: z.string().nullable(),
  payload: growthbookPayloadSchema,
});
