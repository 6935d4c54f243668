import { z } from 'zod';
import { noticeAudiences } from '../constants/admin.js';
import { pageOf, pageQuery } from './common.js';
import { noticeContentMaxLength, noticeTitleMaxLength } from './notice.js';

/** The console's notices (/api/admin/notices): announcements to everyone, listed users or VIP members. */
const idSchema = (label: string) =>
  z.coerce
    .number({ error: `${label} 必须是数字` })
    .int(`${label} 必须是整数`)
    .positive(`${label} 必须是正整数`);

/** POST /admin/notices/create: `content` is HTML, cleaned on the server to the tags the notice centre shows. */
export const adminNoticeCreateBody = z
  .object({
    title: z.string({ error: '请填写标题 title' }).trim().min(1, '标题 title 不能为空').max(noticeTitleMaxLength, `标题 title 最多${noticeTitleMaxLength}个字符`),
    content: z.string({ error: '请填写正文 content' }).trim().min(1, '正文 content 不能为空').max(noticeContentMaxLength, `正文 content 最多${noticeContentMaxLength}个字符`),
    audience: z.enum(noticeAudiences, { error: `对象 audience 必须是 ${noticeAudiences.join('、')} 之一` }),
    /** Only with audience `users`. */
    userIds: z.array(idSchema('用户 userIds'), { error: '用户 userIds 必须是数组' }).max(1000, '用户 userIds 最多1000个').optional(),
    /** Absent: now. A later time schedules it (users see it from then on). */
    publishAt: z.iso.datetime({ offset: true, error: '发布时间 publishAt 须为带时区的 ISO 时间' }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.audience === 'users' && !v.userIds?.length) ctx.addIssue({ code: 'custom', path: ['userIds'], message: '指定用户时 userIds 不能为空' });
    if (v.audience !== 'users' && v.userIds?.length) ctx.addIssue({ code: 'custom', path: ['userIds'], message: '只有对象为 users 时才能填写 userIds' });
  });

export const adminNoticeIdBody = z.object({ id: idSchema('公告 id') });

export const adminNoticeSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  format: z.enum(['text', 'html']),
  audience: z.enum(noticeAudiences),
  /** The listed users (audience `users`). */
  userIds: z.array(z.number().int()),
  status: z.enum(['scheduled', 'published', 'withdrawn']),
  publishedAt: z.string(),
  withdrawnAt: z.string().nullable(),
  createdAt: z.string(),
  readCount: z.number().int(),
  /** Who can see it now: every registered user it reaches, the listed users, or the current VIP members. */
  audienceSize: z.number().int(),
  /** readCount / audienceSize (0..1); null when nobody can see it. */
  readRate: z.number().nullable(),
});
export type AdminNotice = z.infer<typeof adminNoticeSchema>;
export const adminNoticePageSchema = pageOf(adminNoticeSchema);
export const adminNoticeQuery = pageQuery;
