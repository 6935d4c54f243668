import { formatCanary } from '../modules/platform-health/canary.service.js';
import type { AdminCommand } from './command.js';
import { requireArg } from './command.js';

/** 平台健康 from the server's shell: the canary an operator (or a cron) runs after a site may have changed. */
export const platformCommands: Record<string, AdminCommand> = {
  'platform:canary': {
    description: '平台巡检：用已绑定的账号检查登录，再试发布一条固定内容到「点击发布」之前（不会发布），逐步输出结果；失败时退出码为1，并像发布失败一样记录诊断（平台健康）',
    usage: 'xiaohongshu --account 12',
    positionals: ['platform'],
    options: { platform: { type: 'string' }, account: { type: 'string' } },
    async run(c, args) {
      const platform = requireArg(args, 'platform');
      const raw = requireArg(args, 'account');
      if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new Error('--account 必须是账号编号（正整数）');
      const result = await c.platformHealth.canary.run(platform, Number(raw));
      const text = formatCanary(result);
      if (!result.ok) throw new Error(text);
      return text;
    },
  },
};
