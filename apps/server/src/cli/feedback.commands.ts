import type { AdminCommand } from './command.js';
import { requireArg } from './command.js';

export const feedbackCommands: Record<string, AdminCommand> = {
  'feedback:list': {
    description: '用户反馈（最新在前；--status open 只看未回复的）',
    usage: '[--status open|replied] [--limit 50]',
    options: { status: { type: 'string' }, limit: { type: 'string' } },
    async run(c, args) {
      const limit = typeof args.limit === 'string' ? Number(args.limit) : 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error('--limit 取值 1~1000');
      const status = typeof args.status === 'string' ? args.status : undefined;
      if (status !== undefined && status !== 'open' && status !== 'replied') throw new Error('--status 必须是 open 或 replied');
      return c.services.feedback.recent(limit, status);
    },
  },
  'feedback:reply': {
    description: '回复一条反馈；回复会作为「反馈回复」消息出现在用户的消息中心',
    usage: '--id 12 --content 回复内容',
    options: { id: { type: 'string' }, content: { type: 'string' } },
    async run(c, args) {
      const id = Number(requireArg(args, 'id'));
      if (!Number.isSafeInteger(id) || id < 1) throw new Error('--id 必须是正整数');
      const { feedback, notified } = await c.services.feedback.reply(id, requireArg(args, 'content'));
      return { ...feedback, notified };
    },
  },
};
