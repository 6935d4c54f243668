import { randomUUID } from 'node:crypto';
import { UserRepo } from '../modules/user/user.repo.js';
import type { AdminCommand } from './command.js';
import { requireArg } from './command.js';

type Args = Record<string, string | boolean | undefined>;

const int = (args: Args, name: string, fallback?: number): number => {
  const raw = args[name];
  if (raw === undefined && fallback !== undefined) return fallback;
  const v = Number(requireArg(args, name));
  if (!Number.isInteger(v)) throw new Error(`--${name} 必须是整数`);
  return v;
};
/** Prices are typed in yuan by people and stored in fen. */
const fen = (args: Args, name: string): number => {
  const v = Math.round(Number(requireArg(args, name)) * 100);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} 必须是正数（元）`);
  return v;
};
const endOfChinaDay = (s: string) => {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(s) ? new Date(`${s}T23:59:59.999+08:00`) : new Date(s);
  if (Number.isNaN(d.getTime())) throw new Error(`无法解析日期 ${s}`);
  return d;
};

async function userByPhone(c: Parameters<AdminCommand['run']>[0], args: Args) {
  const row = await new UserRepo(c.db).liveByPhone(requireArg(args, 'phone'));
  if (!row) throw new Error('未找到该手机号的用户');
  return row;
}

export const vipCommands: Record<string, AdminCommand> = {
  'plan:list': {
    description: '列出会员套餐（含已下架）',
    usage: '',
    options: {},
    run: (c) => c.services.catalogue.allPlans(),
  },
  'plan:upsert': {
    description: '新增或修改会员套餐（价格单位：元）',
    usage: '--id month --name 月度会员 --days 30 --price 39 --points 1000 [--perks 深度写作,图文生成] [--sort 1]',
    options: {
      id: { type: 'string' },
      name: { type: 'string' },
      days: { type: 'string' },
      price: { type: 'string' },
      points: { type: 'string' },
      perks: { type: 'string' },
      sort: { type: 'string' },
    },
    run: (c, a) =>
      c.services.catalogue.upsertPlan({
        id: requireArg(a, 'id'),
        name: requireArg(a, 'name'),
        durationDays: int(a, 'days'),
        priceFen: fen(a, 'price'),
        points: int(a, 'points', 0),
        perks:
          typeof a.perks === 'string'
            ? a.perks
                .split(/[,，]/)
                .map((s) => s.trim())
                .filter(Boolean)
            : [],
        sort: int(a, 'sort', 0),
      }),
  },
  'plan:disable': {
    description: '下架（--enable 重新上架）会员套餐',
    usage: '--id month [--enable]',
    options: { id: { type: 'string' }, enable: { type: 'boolean' } },
    run: async (c, a) => (await c.services.catalogue.setPlanEnabled(requireArg(a, 'id'), a.enable === true)) ?? '未找到该套餐',
  },
  'bundle:list': {
    description: '列出积分包（含已下架）',
    usage: '',
    options: {},
    run: (c) => c.services.catalogue.allBundles(),
  },
  'bundle:upsert': {
    description: '新增或修改积分包（价格单位：元）',
    usage: '--id p500 --name 500积分 --points 500 --price 19.9 [--sort 1]',
    options: { id: { type: 'string' }, name: { type: 'string' }, points: { type: 'string' }, price: { type: 'string' }, sort: { type: 'string' } },
    run: (c, a) =>
      c.services.catalogue.upsertBundle({ id: requireArg(a, 'id'), name: requireArg(a, 'name'), points: int(a, 'points'), priceFen: fen(a, 'price'), sort: int(a, 'sort', 0) }),
  },
  'bundle:disable': {
    description: '下架（--enable 重新上架）积分包',
    usage: '--id p500 [--enable]',
    options: { id: { type: 'string' }, enable: { type: 'boolean' } },
    run: async (c, a) => (await c.services.catalogue.setBundleEnabled(requireArg(a, 'id'), a.enable === true)) ?? '未找到该积分包',
  },
  'points:cost': {
    description: '设置功能的积分消耗（积分字典）；不带参数则列出',
    usage: '[--feature article_deep --point 20 [--name 深度写作]]',
    options: { feature: { type: 'string' }, point: { type: 'string' }, name: { type: 'string' } },
    run: (c, a) => (a.feature ? c.services.points.setCost(requireArg(a, 'feature'), typeof a.name === 'string' ? a.name : undefined, int(a, 'point')) : c.services.points.costs()),
  },
  'points:grant': {
    description: '给用户发放积分',
    usage: '--phone 13800138000 --amount 100 --reason 客服补偿',
    options: { phone: { type: 'string' }, amount: { type: 'string' }, reason: { type: 'string' } },
    async run(c, a) {
      const user = await userByPhone(c, a);
      return c.services.points.grant(user.id, int(a, 'amount'), { reason: requireArg(a, 'reason'), idempotencyKey: `admin:${randomUUID()}` });
    },
  },
  'points:deduct': {
    description: '扣除用户积分（余额不足时失败）',
    usage: '--phone 13800138000 --amount 100 --reason 违规扣除',
    options: { phone: { type: 'string' }, amount: { type: 'string' }, reason: { type: 'string' } },
    async run(c, a) {
      const user = await userByPhone(c, a);
      return c.services.points.charge(user.id, int(a, 'amount'), { reason: requireArg(a, 'reason'), idempotencyKey: `admin:${randomUUID()}`, kind: 'deduct' });
    },
  },
  'codes:generate': {
    description: '批量生成兑换码',
    usage: '--kind points|vip_days --value 100 --count 50 [--max-uses 1] [--expires 2026-12-31] [--batch 名称]',
    options: {
      kind: { type: 'string' },
      value: { type: 'string' },
      count: { type: 'string' },
      'max-uses': { type: 'string' },
      expires: { type: 'string' },
      batch: { type: 'string' },
    },
    run(c, a) {
      const kind = requireArg(a, 'kind');
      if (kind !== 'points' && kind !== 'vip_days') throw new Error('--kind 只能是 points 或 vip_days');
      return c.services.redeemCodes.generate({
        kind,
        value: int(a, 'value'),
        count: int(a, 'count'),
        maxUses: int(a, 'max-uses', 1),
        expiresAt: typeof a.expires === 'string' ? endOfChinaDay(a.expires) : null,
        ...(typeof a.batch === 'string' ? { batch: a.batch } : {}),
      });
    },
  },
  'codes:batch': {
    description: '查看一批兑换码的使用情况',
    usage: '--batch B1234ABCD',
    options: { batch: { type: 'string' } },
    run: (c, a) => c.services.redeemCodes.batchStats(requireArg(a, 'batch')),
  },
  'codes:disable': {
    description: '停用一批兑换码',
    usage: '--batch B1234ABCD',
    options: { batch: { type: 'string' } },
    run: (c, a) => c.services.redeemCodes.disableBatch(requireArg(a, 'batch')),
  },
  'orders:review': {
    description: '列出需人工处理的订单（过期后到账等，需退款）',
    usage: '',
    options: {},
    run: (c) => c.services.orders.needingReview(),
  },
  'orders:sweep': {
    description: '立即关闭已过期的待支付订单',
    usage: '',
    options: {},
    run: async (c) => ({ expired: await c.services.orders.sweepExpired(1000) }),
  },
  'contest:upsert': {
    description: '设置比赛活动时间窗口',
    usage: '--id spring --name 春季征文 --start 2026-03-01T00:00:00+08:00 --end 2026-03-31T23:59:59+08:00',
    options: { id: { type: 'string' }, name: { type: 'string' }, start: { type: 'string' }, end: { type: 'string' } },
    run: (c, a) =>
      c.services.activity.upsertContest({ id: requireArg(a, 'id'), name: requireArg(a, 'name'), startAt: new Date(requireArg(a, 'start')), endAt: new Date(requireArg(a, 'end')) }),
  },
};
