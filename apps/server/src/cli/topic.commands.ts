import type { AdminCommand } from './command.js';
import { requireArg } from './command.js';

const keywordList = (v: string) => [...new Set(v.split(/[,，、|]/).map((s) => s.trim()).filter(Boolean))];

export const topicCommands: Record<string, AdminCommand> = {
  'topic:tracks': {
    description: '系统赛道及其关键词（关键词用于把热点按 jieba 分词归类到赛道）',
    usage: '',
    options: {},
    async run(c) {
      const rows = await c.topic.repo.systemTracks();
      const names = new Map(rows.map((r) => [r.id, r.name]));
      return rows.map((r) => ({ id: r.id, name: r.name, parent: r.parentId === null ? null : (names.get(r.parentId) ?? null), keywords: r.keywords.join('、') }));
    },
  },
  'topic:track': {
    description: '新增或修改系统赛道的关键词；带 --parent 时为该赛道下的子赛道。下次刷新起按新关键词归类',
    usage: '--name 宠物 --keywords 猫,狗,宠物,铲屎官 [--parent 家居]',
    options: { name: { type: 'string' }, keywords: { type: 'string' }, parent: { type: 'string' } },
    async run(c, args) {
      const name = requireArg(args, 'name');
      if (name.length > 20 || name.includes('|')) throw new Error('--name 最多20个字，且不能包含 |');
      const keywords = keywordList(requireArg(args, 'keywords'));
      if (!keywords.length || keywords.some((k) => k.length > 20)) throw new Error('--keywords 用逗号分隔，每个最多20个字');
      const parent = typeof args.parent === 'string' && args.parent.trim() ? args.parent.trim() : undefined;
      return c.topic.repo.upsertSystemTrack(name, keywords, parent);
    },
  },
  'topic:refresh': {
    description: '立即刷新热点（忽略各来源的最小间隔），输出每个来源的结果',
    usage: '',
    options: {},
    async run(c) {
      return c.topic.service.refreshOnce(true);
    },
  },
};
