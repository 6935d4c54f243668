import { z } from 'zod';
import { knowledgeLimits, knowledgeExts } from '../constants/knowledge.js';
import { pageOf } from './common.js';

export type KnowledgeExt = (typeof knowledgeExts)[number];
export const knowledgeStatuses = ['queued', 'parsing', 'ready', 'failed'] as const;

const idField = (label: string) =>
  z.coerce
    .number({ error: `${label} 必须是数字` })
    .int(`${label} 必须是整数`)
    .min(1, `${label} 必须是正整数`)
    .max(Number.MAX_SAFE_INTEGER, `${label} 过大`);

/** null / absent = 未分类 (the root). */
const folderIdField = z.union([idField('文件夹 folderId'), z.null()], { error: '文件夹 folderId 必须是数字或 null' });

const folderName = z
  .string({ error: '请填写文件夹名称 name' })
  .trim()
  .min(1, '文件夹名称 name 不能为空')
  .max(knowledgeLimits.folderNameMaxLength, `文件夹名称 name 最多${knowledgeLimits.folderNameMaxLength}个字`);

const docName = z
  .string({ error: '请填写文档名称 name' })
  .trim()
  .min(1, '文档名称 name 不能为空')
  .max(knowledgeLimits.docNameMaxLength, `文档名称 name 最多${knowledgeLimits.docNameMaxLength}个字`);

export const knowledgeFolderSchema = z.object({ id: z.number().int(), name: z.string(), docCount: z.number().int(), createdAt: z.string() });
export type KnowledgeFolder = z.infer<typeof knowledgeFolderSchema>;

export const knowledgeFolderCreateBody = z.object({ name: folderName });
export const knowledgeFolderRenameBody = z.object({ id: idField('文件夹 id'), name: folderName });
export const knowledgeIdBody = z.object({ id: idField('id') });
export const knowledgeIdQuery = z.object({ id: idField('id') });

export const knowledgeDocSchema = z.object({
  id: z.number().int(),
  folderId: z.number().int().nullable(),
  name: z.string(),
  ext: z.enum(knowledgeExts),
  sourceUrl: z.string().nullable(),
  size: z.number().int(),
  status: z.enum(knowledgeStatuses),
  progress: z.number().int(),
  pages: z.number().int().nullable(),
  chars: z.number().int(),
  chunkCount: z.number().int(),
  errorMsg: z.string().nullable(),
  createdAt: z.string(),
  parsedAt: z.string().nullable(),
});
export type KnowledgeDoc = z.infer<typeof knowledgeDocSchema>;

export const knowledgeDocListQuery = z.object({
  pageNum: z.coerce.number({ error: 'pageNum 必须是数字' }).int().min(1, 'pageNum 最小为1').default(1),
  pageSize: z.coerce.number({ error: 'pageSize 必须是数字' }).int().min(1, 'pageSize 最小为1').max(200, 'pageSize 最大为200').default(50),
  /** A folder id, or 'root' for 未分类; absent = all. */
  folderId: z.union([z.literal('root'), idField('文件夹 folderId')], { error: '文件夹 folderId 必须是数字或 root' }).optional(),
  ext: z.enum(knowledgeExts, { error: `类型 ext 只能是 ${knowledgeExts.join('、')}` }).optional(),
});
export const knowledgeDocPageSchema = pageOf(knowledgeDocSchema);
export type KnowledgeDocPage = z.infer<typeof knowledgeDocPageSchema>;

export const knowledgeUploadQuery = z.object({ folderId: idField('文件夹 folderId').optional() });

export const knowledgeImportBody = z.object({
  url: z
    .string({ error: '请填写网页地址 url' })
    .trim()
    .min(1, '网页地址 url 不能为空')
    .max(2000, '网页地址 url 过长')
    .refine((v) => /^https?:\/\//i.test(v), '网页地址 url 必须以 http:// 或 https:// 开头'),
  folderId: folderIdField.optional(),
});

export const knowledgeDocRenameBody = z.object({ id: idField('id'), name: docName });
export const knowledgeDocMoveBody = z.object({ id: idField('id'), folderId: folderIdField });

export const knowledgeQuotaSchema = z.object({
  isVip: z.boolean(),
  docs: z.number().int(),
  bytes: z.number().int(),
  maxDocs: z.number().int(),
  maxBytes: z.number().int(),
});
export type KnowledgeQuota = z.infer<typeof knowledgeQuotaSchema>;

export const knowledgeSearchQuery = z.object({
  q: z
    .string({ error: '请输入搜索内容 q' })
    .trim()
    .min(1, '搜索内容 q 不能为空')
    .max(knowledgeLimits.searchQueryMaxLength, `搜索内容 q 最多${knowledgeLimits.searchQueryMaxLength}个字`),
  folderId: z.union([z.literal('root'), idField('文件夹 folderId')], { error: '文件夹 folderId 必须是数字或 root' }).optional(),
  ext: z.enum(knowledgeExts, { error: `类型 ext 只能是 ${knowledgeExts.join('、')}` }).optional(),
  docId: idField('文档 docId').optional(),
  limit: z.coerce
    .number({ error: 'limit 必须是数字' })
    .int()
    .min(1, 'limit 最小为1')
    .max(knowledgeLimits.searchLimitMax, `limit 最大为${knowledgeLimits.searchLimitMax}`)
    .default(20),
  /** auto: hybrid (full-text + vectors, reciprocal rank fusion) when an embeddings model is configured; fulltext: words only. */
  mode: z.enum(['auto', 'fulltext'], { error: '检索方式 mode 只能是 auto 或 fulltext' }).default('auto'),
});

export const knowledgeHitSchema = z.object({
  chunkId: z.number().int(),
  docId: z.number().int(),
  docName: z.string(),
  ext: z.enum(knowledgeExts),
  folderId: z.number().int().nullable(),
  page: z.number().int().nullable(),
  heading: z.string().nullable(),
  /** The passage (the chunk text). */
  text: z.string(),
  charStart: z.number().int(),
  charEnd: z.number().int(),
  /** [start, end) ranges in `text` of the words that matched; the client marks them (no HTML from the server). */
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
  score: z.number(),
});
export type KnowledgeHit = z.infer<typeof knowledgeHitSchema>;
/** A parsed document's text for the readable view: passages joined back by their offsets. */
export const knowledgeDocTextSchema = z.object({
  doc: knowledgeDocSchema,
  text: z.string(),
  /** Where each page starts in `text` (PDF only): [page, offset]. */
  pageStarts: z.array(z.tuple([z.number().int(), z.number().int()])),
  truncated: z.boolean(),
});
export type KnowledgeDocText = z.infer<typeof knowledgeDocTextSchema>;

/** How the hits were ranked: words only, or words and meaning fused (score is then the fused rank score). */
export const knowledgeSearchSchema = z.object({ hits: z.array(knowledgeHitSchema), tokens: z.array(z.string()), mode: z.enum(['fulltext', 'hybrid']) });
export type KnowledgeSearchResult = z.infer<typeof knowledgeSearchSchema>;

/** What search can do here: full-text always; vector search when an embeddings model is configured, and where its vectors live. */
export const knowledgeStatusSchema = z.object({
  fulltext: z.literal(true),
  vector: z.object({
    enabled: z.boolean(),
    /** The model id stored with each vector (model@dimensions when a size is set); null when off. */
    model: z.string().nullable(),
    /** pgvector, or real[] ranked by cosine in the server (PostgreSQL without the pgvector extension); null when off. */
    storage: z.enum(['pgvector', 'real[]']).nullable(),
    /** Why pgvector could not be used (the database's message), when storage is real[]. */
    fallbackReason: z.string().nullable(),
    /** The user's ready documents, and how many of them have vectors from the current model (the rest are being embedded). */
    readyDocs: z.number().int(),
    embeddedDocs: z.number().int(),
  }),
  /** One sentence for the page, in Chinese. */
  note: z.string(),
});
export type KnowledgeStatus = z.infer<typeof knowledgeStatusSchema>;
