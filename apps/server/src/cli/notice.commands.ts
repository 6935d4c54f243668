import { noticeTypes, type NoticeType } from '@inkstone/shared';
import { UserRepo } from '../modules/user/user.repo.js';
import type { AdminCommand } from './command.js';
import { requireArg } from './command.js';

type Args = Record<string, string | boolean | undefined>;

/** --phone or --user-id picks one live user; neither means every user. */
async function audience(c: Parameters<AdminCommand['run']>[0], args: Args): Promise<number | null> {
  if (typeof args.phone === 'string' && typeof args['user-id'] === 'string') throw new Error('--phone 与 --user-id 只能指定一个');
  const users = new UserRepo(c.db);
  if (typeof args.phone === 'string') {
    const row = await users.liveByPhone(args.phone.trim());
    if (!row) throw new Error(`未找到手机号为 ${args.phone} 的用户`);
    return row.id;
  }
  if (typeof args['user-id'] === 'string') {
    const id = Number(args['user-id']);
    const row = Number.isSafeInteger(id) && id > 0 ? await users.byId(id) : undefined;
    if (!row || row.deletedAt) throw new Error(`未找到 id 为 ${args['user-id']} 的用户`);
    return row.id;
  }
  return null;
}

export const noticeCommands: Record<string, AdminCommand> = {
  'notice:publish': {
    description: '发布公告（不指定 --phone / --user-id 时发给所有用户；--at 定时发布）',
    usage: `--title 标题 --content 内容 [--type ${noticeTypes.join('|')}] [--phone 13800138000 | --user-id 1] [--at 2026-01-01T09:00:00+08:00] [--link /orderInfo]`,
    options: {
      title: { type: 'string' },
      content: { type: 'string' },
      type: { type: 'string' },
      phone: { type: 'string' },
      'user-id': { type: 'string' },
      at: { type: 'string' },
      link: { type: 'string' },
    },
    async run(c, args) {
      const type = typeof args.type === 'string' ? args.type : 'system';
      if (!(noticeTypes as readonly string[]).includes(type)) throw new Error(`--type 必须是 ${noticeTypes.join('、')} 之一`);
      let publishedAt: Date | undefined;
      if (typeof args.at === 'string') {
        publishedAt = new Date(args.at);
        if (Number.isNaN(publishedAt.getTime())) throw new Error('--at 不是有效的时间（例如 2026-01-01T09:00:00+08:00）');
      }
      const userId = await audience(c, args);
      const row = await c.services.notices.publish({
        title: requireArg(args, 'title'),
        content: requireArg(args, 'content'),
        type: type as NoticeType,
        userId,
        publishedAt,
        link: typeof args.link === 'string' ? args.link : null,
      });
      return { ...row, audience: row.userId === null ? 'all' : `user ${row.userId}` };
    },
  },
  'notice:list': {
    description: '最近发布的公告（含已读人数）',
    usage: '[--limit 50]',
    options: { limit: { type: 'string' } },
    async run(c, args) {
      const limit = typeof args.limit === 'string' ? Number(args.limit) : 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error('--limit 取值 1~1000');
      const rows = await c.services.notices.recent(limit);
      return rows.map((r) => ({ ...r, audience: r.userId === null ? 'all' : `user ${r.userId}` }));
    },
  },
};
