import { globalSettingSchema, type GlobalSetting } from '@inkstone/shared';
import { UserRepo } from '../modules/user/user.repo.js';
import type { AdminCommand } from './command.js';
import { requireArg } from './command.js';

async function findUser(c: Parameters<AdminCommand['run']>[0], args: Record<string, string | boolean | undefined>) {
  const users = new UserRepo(c.db);
  const row = typeof args.phone === 'string' ? await users.liveByPhone(args.phone) : typeof args.id === 'string' ? await users.byId(Number(args.id)) : undefined;
  if (!row) throw new Error('未找到用户（用 --phone 或 --id 指定）');
  return { row, profile: c.services.users.toProfile(row) };
}

export const userCommands: Record<string, AdminCommand> = {
  'user:find': {
    description: '查找用户',
    usage: '--phone 13800138000 | --id 1',
    options: { phone: { type: 'string' }, id: { type: 'string' } },
    async run(c, args) {
      const { row, profile } = await findUser(c, args);
      return { ...profile, phoneFull: row.phone, createdAt: row.createdAt, deletedAt: row.deletedAt, disabledAt: row.disabledAt };
    },
  },
  'user:mint-token': {
    description: '为用户签发一次性登录凭证（5分钟内有效，/?accessToken=...）',
    usage: '--phone 13800138000 | --id 1',
    options: { phone: { type: 'string' }, id: { type: 'string' } },
    async run(c, args) {
      const { row } = await findUser(c, args);
      const minted = await c.services.auth.mintHandover(row.id);
      return { ...minted, loginUrl: `${c.publicUrl}/?accessToken=${encodeURIComponent(minted.accessToken)}` };
    },
  },
  'settings:set': {
    description: '设置全局配置（activeReward 每日奖励、autoRenewalDays 回归奖励、logo）',
    usage: '--key activeReward --value 20',
    options: { key: { type: 'string' }, value: { type: 'string' } },
    async run(c, args) {
      const key = requireArg(args, 'key');
      if (!(key in globalSettingSchema.shape)) throw new Error(`未知的配置项 ${key}，可选：${Object.keys(globalSettingSchema.shape).join('、')}`);
      return c.services.users.setGlobalSetting(key as keyof GlobalSetting, requireArg(args, 'value'));
    },
  },
};
