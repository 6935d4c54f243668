import { adminRoles, type AdminRole } from '@inkstone/shared';
import { UserRepo } from '../modules/user/user.repo.js';
import type { AdminCommand } from './command.js';
import { requireArg } from './command.js';

type Args = Record<string, string | boolean | undefined>;

async function userOf(c: Parameters<AdminCommand['run']>[0], args: Args) {
  const users = new UserRepo(c.db);
  const row = typeof args.phone === 'string' ? await users.liveByPhone(args.phone) : typeof args.id === 'string' ? await users.byId(Number(args.id)) : undefined;
  if (!row) throw new Error('未找到用户（用 --phone 或 --id 指定）');
  return row;
}

/** The first console roles are granted here (the console's own role page needs an owner to exist); audited as the CLI. */
export const adminCommands: Record<string, AdminCommand> = {
  'role:grant': {
    description: `授予管理后台角色（${adminRoles.join(' | ')}）`,
    usage: '--phone 13800138000 | --id 1 --role owner',
    options: { phone: { type: 'string' }, id: { type: 'string' }, role: { type: 'string' } },
    async run(c, args) {
      const role = requireArg(args, 'role');
      if (!(adminRoles as readonly string[]).includes(role)) throw new Error(`--role 必须是 ${adminRoles.join('、')} 之一`);
      const user = await userOf(c, args);
      return c.admin.access.setRole(null, user.id, role as AdminRole);
    },
  },
  'role:revoke': {
    description: '收回管理后台角色',
    usage: '--phone 13800138000 | --id 1',
    options: { phone: { type: 'string' }, id: { type: 'string' } },
    async run(c, args) {
      const user = await userOf(c, args);
      return c.admin.access.setRole(null, user.id, null);
    },
  },
};
