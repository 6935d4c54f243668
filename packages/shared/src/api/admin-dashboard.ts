import { z } from 'zod';

/** The console's dashboard (/api/admin/dashboard): figures per China calendar day, plus the job queue. */
const day = (label: string) =>
  z
    .string({ error: `${label} 必须是日期` })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} 须为 yyyy-MM-dd 格式`)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00+08:00`)), `${label} 不是有效日期`);

/** At most this many days in one request (a year and a day, for a leap year's same-day comparison). */
export const ADMIN_DASHBOARD_MAX_DAYS = 366;

/** GET /admin/dashboard: both days included; default the 30 days ending today. */
export const adminDashboardQuery = z.object({ from: day('开始日期 from').optional(), to: day('结束日期 to').optional() });

const adminDashboardDaySchema = z.object({
  day: z.string(),
  signups: z.number().int(),
  /** Distinct users seen that day (a login, a session in use, a client event). */
  dau: z.number().int(),
  payingUsers: z.number().int(),
  /** Paid that day minus refunds that succeeded that day (fen). */
  revenueFen: z.number().int(),
  refundFen: z.number().int(),
});

const adminJobCountsSchema = z.object({
  name: z.string(),
  waiting: z.number().int(),
  active: z.number().int(),
  delayed: z.number().int(),
  failed: z.number().int(),
});
const adminFailedJobSchema = z.object({ id: z.string(), name: z.string(), error: z.string(), attempts: z.number().int(), failedAt: z.string() });
export type AdminFailedJob = z.infer<typeof adminFailedJobSchema>;

export const adminDashboardSchema = z.object({
  from: z.string(),
  to: z.string(),
  totals: z.object({
    signups: z.number().int(),
    /** Distinct users with a paid order in the range. */
    payingUsers: z.number().int(),
    revenueFen: z.number().int(),
    refundFen: z.number().int(),
    publishSucceeded: z.number().int(),
    publishFailed: z.number().int(),
    /** succeeded / (succeeded + failed) of publish jobs finished in the range; null when none finished. */
    publishSuccessRate: z.number().nullable(),
  }),
  days: z.array(adminDashboardDaySchema),
  /** Writing tasks created in the range, by status. */
  tasks: z.array(z.object({ status: z.string(), count: z.number().int() })),
  queue: z.object({
    /** in-process: this server process only (its failures are forgotten on restart); bullmq: every worker's. */
    kind: z.enum(['in-process', 'bullmq']),
    jobs: z.array(adminJobCountsSchema),
    failed: z.array(adminFailedJobSchema),
  }),
});
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;

/** POST /admin/jobs/retry (operator) */
export const adminJobRetryBody = z.object({
  name: z
    .string({ error: '请填写任务名 name' })
    .trim()
    .regex(/^[\w.-]{1,80}$/, '任务名 name 格式不正确'),
  id: z.string({ error: '请填写任务编号 id' }).trim().min(1, '任务编号 id 不能为空').max(200, '任务编号 id 过长'),
});
export const adminJobRetryReplySchema = z.object({ retried: z.literal(true) });
