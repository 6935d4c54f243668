import { z } from 'zod';
import { DATA_RANGE_MAX_DAYS, dataMetrics, dataNoteSorts } from '../constants/data.js';
import { publishDataSchema, publishPlatformSchema } from './publish.js';

/**
 * Data analysis (数据分析, /dataAnalyse): figures collected daily from each bound platform account (append-only
 * snapshots), served as overview cards, daily series, per-account comparison, a content table, a weekday x hour
 * heatmap and top notes. Days are calendar days in Asia/Shanghai, written `YYYY-MM-DD`.
 *
 * Totals ("Count") are the value at the end of the range; increases are `total(to) - total(from - 1 day)`, so a
 * range's increase plus the total before it equals the total at its end, exactly.
 */

const id = (name: string) =>
  z.coerce
    .number({ error: `${name} 必须是数字` })
    .int(`${name} 必须是整数`)
    .positive(`${name} 无效`);
const day = (name: string) => z.string({ error: `请提供 ${name}` }).regex(/^\d{4}-\d{2}-\d{2}$/, `${name} 格式应为 YYYY-MM-DD`);

export const dataRanges = ['7', '30', '90', 'custom'] as const;

const rangeFields = {
  range: z.enum(dataRanges, { error: 'range 必须是 7、30、90 或 custom' }).default('7'),
  /** Only with range=custom (both required then). */
  from: day('from').optional(),
  to: day('to').optional(),
  /** One account of the user's; omitted means all of them. */
  accountId: id('accountId').optional(),
};
type RangeFields = { range: (typeof dataRanges)[number]; from?: string | undefined; to?: string | undefined };
const checkRange = (q: RangeFields, ctx: z.RefinementCtx) => {
  if (q.range !== 'custom') return;
  if (q.from === undefined) ctx.addIssue({ code: 'custom', path: ['from'], message: 'range 为 custom 时请提供 from' });
  if (q.to === undefined) ctx.addIssue({ code: 'custom', path: ['to'], message: 'range 为 custom 时请提供 to' });
  if (q.from === undefined || q.to === undefined) return;
  const span = (Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / 86_400_000;
  if (!Number.isFinite(span)) ctx.addIssue({ code: 'custom', path: ['from'], message: 'from 或 to 不是有效日期' });
  else if (span < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to 不能早于 from' });
  else if (span + 1 > DATA_RANGE_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['from'], message: `时间范围最多${DATA_RANGE_MAX_DAYS}天` });
};

/** `GET /api/data/overview`, `/data/accounts`, `/data/heatmap`, `/data/top`, `/data/report.pdf`. */
export const dataRangeQuery = z.object(rangeFields).superRefine(checkRange);
export type DataRangeQuery = z.infer<typeof dataRangeQuery>;

/** Resolved range, echoed in replies so the page labels what it shows. */
export const dataRangeSchema = z.object({ from: z.string(), to: z.string(), days: z.number().int() });

/** Empty states that teach: no bound account -> bind one; bound but no snapshot yet -> wait for the first. */
export const dataStateSchema = z.enum(['noAccount', 'noData', 'ready']);
export type DataState = z.infer<typeof dataStateSchema>;

/** publishData (declared in publish.ts with the account count reply that fills it) plus engagement. */
export const dataOverviewSchema = publishDataSchema.extend({
  likeCount: z.number().int(),
  likeIncrease: z.number().int(),
  collectCount: z.number().int(),
  collectIncrease: z.number().int(),
  commentCount: z.number().int(),
  commentIncrease: z.number().int(),
  shareCount: z.number().int(),
  shareIncrease: z.number().int(),
  range: dataRangeSchema,
  state: dataStateSchema,
  accountCount: z.number().int(),
  /** Accounts whose session expired (their figures stop at the last snapshot). */
  expiredAccounts: z.number().int(),
  /** ISO time of the newest snapshot, null before the first. */
  lastSnapshotAt: z.string().nullable(),
  /** Per-platform split of the totals. */
  byPlatform: z.array(z.object({ platform: z.string(), platformName: z.string(), followCount: z.number().int(), readCount: z.number().int(), articleCount: z.number().int() })),
});
export type DataOverview = z.infer<typeof dataOverviewSchema>;

export const dataMetricSchema = z.enum(dataMetrics, { error: `metric 必须是 ${dataMetrics.join('、')} 之一` });
export type DataMetric = z.infer<typeof dataMetricSchema>;

/** `GET /api/data/series`: one point per day of the range (days without a snapshot have value null). */
export const dataSeriesQuery = z.object({ ...rangeFields, metric: z.union([dataMetricSchema, z.array(dataMetricSchema)]).optional() }).superRefine(checkRange);
export type DataSeriesQuery = z.infer<typeof dataSeriesQuery>;
export const dataPointSchema = z.object({
  date: z.string(),
  followers: z.number().int().nullable(),
  newFollowers: z.number().int().nullable(),
  views: z.number().int().nullable(),
  likes: z.number().int().nullable(),
  collects: z.number().int().nullable(),
  comments: z.number().int().nullable(),
  shares: z.number().int().nullable(),
});
export type DataPoint = z.infer<typeof dataPointSchema>;
export const dataSeriesSchema = z.object({ range: dataRangeSchema, state: dataStateSchema, points: z.array(dataPointSchema) });
export type DataSeries = z.infer<typeof dataSeriesSchema>;

/** `GET /api/data/accounts`: per-account comparison over the range. */
export const dataAccountRowSchema = z.object({
  accountId: z.number().int(),
  accountName: z.string(),
  avatar: z.string().nullable(),
  platform: z.string(),
  platformName: z.string(),
  sandbox: z.boolean(),
  status: z.enum(['active', 'expired']),
  /** Whether the platform reports figures at all (its `stats` capability). */
  statsSupported: z.boolean(),
  lastSnapshotAt: z.string().nullable(),
  followCount: z.number().int(),
  followIncrease: z.number().int(),
  readCount: z.number().int(),
  readIncrease: z.number().int(),
  articleCount: z.number().int(),
  articleIncrease: z.number().int(),
  likeIncrease: z.number().int(),
  collectIncrease: z.number().int(),
  commentIncrease: z.number().int(),
  shareIncrease: z.number().int(),
});
export type DataAccountRow = z.infer<typeof dataAccountRowSchema>;
export const dataAccountsSchema = z.object({ range: dataRangeSchema, state: dataStateSchema, accounts: z.array(dataAccountRowSchema) });
export type DataAccounts = z.infer<typeof dataAccountsSchema>;

export const dataNotesQuery = z.object({
  page: z.coerce.number({ error: 'page 必须是数字' }).int().min(1, 'page 最小为1').default(1),
  size: z.coerce.number({ error: 'size 必须是数字' }).int().min(1, 'size 最小为1').max(100, 'size 最大为100').default(20),
  sort: z.enum(dataNoteSorts, { error: `sort 必须是 ${dataNoteSorts.join('、')} 之一` }).default('publishedAt'),
  order: z.enum(['asc', 'desc'], { error: 'order 必须是 asc 或 desc' }).default('desc'),
  platform: publishPlatformSchema.optional(),
  accountId: id('accountId').optional(),
  /** Title contains (case-insensitive). */
  q: z.string().trim().max(100, 'q 最多100个字符').optional(),
});
export type DataNotesQuery = z.infer<typeof dataNotesQuery>;
export const dataNoteRowSchema = z.object({
  noteId: z.number().int(),
  accountId: z.number().int(),
  accountName: z.string(),
  platform: z.string(),
  platformName: z.string(),
  title: z.string(),
  /** The note on the platform. */
  url: z.string().nullable(),
  /** The draft it came from (open /editor?id=...), null for notes not published through the product. */
  draftId: z.number().int().nullable(),
  publishId: z.string().nullable(),
  publishedAt: z.string(),
  views: z.number().int(),
  likes: z.number().int(),
  collects: z.number().int(),
  comments: z.number().int(),
  shares: z.number().int(),
  /** Date of the snapshot the figures come from. */
  asOf: z.string(),
});
export type DataNoteRow = z.infer<typeof dataNoteRowSchema>;
export const dataNotesPageSchema = z.object({
  records: z.array(dataNoteRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export type DataNotesPage = z.infer<typeof dataNotesPageSchema>;

/**
 * `GET /api/data/heatmap`: notes published in the range by weekday (0 = Monday .. 6 = Sunday) x hour (0-23,
 * Asia/Shanghai), with their average views; `best` is the cell with the highest average (null without notes).
 */
export const dataHeatCellSchema = z.object({ weekday: z.number().int(), hour: z.number().int(), notes: z.number().int(), avgViews: z.number() });
export const dataHeatmapSchema = z.object({
  range: dataRangeSchema,
  state: dataStateSchema,
  cells: z.array(dataHeatCellSchema),
  best: dataHeatCellSchema.nullable(),
});
export type DataHeatmap = z.infer<typeof dataHeatmapSchema>;

/** `GET /api/data/top`: the best notes published in the range by a metric. */
export const dataTopQuery = z
  .object({
    ...rangeFields,
    by: z.enum(['views', 'likes', 'collects', 'comments', 'shares'], { error: 'by 必须是 views、likes、collects、comments、shares 之一' }).default('views'),
    limit: z.coerce.number({ error: 'limit 必须是数字' }).int().min(1, 'limit 最小为1').max(50, 'limit 最大为50').default(10),
  })
  .superRefine(checkRange);
export type DataTopQuery = z.infer<typeof dataTopQuery>;
export const dataTopSchema = z.object({ range: dataRangeSchema, state: dataStateSchema, notes: z.array(dataNoteRowSchema) });
export type DataTop = z.infer<typeof dataTopSchema>;

/** `POST /api/data/refresh`: snapshot now (rate-limited per user); the page polls overview until lastSnapshotAt moves. */
export const dataRefreshQuery = z.object({ accountId: id('accountId').optional() });
export const dataRefreshSchema = z.object({
  /** Accounts queued for a snapshot. */
  queued: z.number().int(),
  /** When the next refresh is allowed (ISO). */
  nextAllowedAt: z.string(),
});
export type DataRefresh = z.infer<typeof dataRefreshSchema>;

/**
 * `GET /api/data/export.csv?kind=notes|series&...`: a file (UTF-8 with BOM, so Excel reads Chinese), not the
 * envelope; notes takes the notes-table filters, series the range fields.
 */
export const dataExportQuery = z
  .object({
    ...rangeFields,
    kind: z.enum(['notes', 'series'], { error: 'kind 必须是 notes 或 series' }),
    platform: publishPlatformSchema.optional(),
    q: z.string().trim().max(100, 'q 最多100个字符').optional(),
  })
  .superRefine(checkRange);
export type DataExportQuery = z.infer<typeof dataExportQuery>;
