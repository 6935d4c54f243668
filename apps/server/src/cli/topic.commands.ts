import type { AdminCommand } from './command.js';
import { requireArg } from './command.js';

const idArg = (args: Record<string, string | boolean | undefined>) => {
  const raw = requireArg(args, 'id');
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new Error('--id 必须是正整数（topic:sources 可查看）');
  return Number(raw);
};
const opt = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined);

const keywordList = (v: string) => [
  ...new Set(
    v
      .split(/[,，、|]/)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

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
  'topic:sources': {
    description: '热点来源：TRENDS_SOURCES 中配置的和用 topic:source:add 添加的订阅源，以及各自最近一次抓取的结果',
    usage: '',
    options: {},
    async run(c) {
      return c.topic.service.feedList();
    },
  },
  'topic:source:add': {
    description: '添加 RSS/Atom/JSON Feed 订阅源（http(s) 网址；抓取时遵守 SSRF 规则），下次刷新起抓取；--track 把它的条目都归入该系统赛道',
    usage: '--url https://example.com/rss.xml --name 示例资讯 [--track 科技数码]',
    options: { url: { type: 'string' }, name: { type: 'string' }, track: { type: 'string' } },
    async run(c, args) {
      return c.topic.service.addFeed({ url: opt(args.url), name: opt(args.name), track: opt(args.track) });
    },
  },
  'topic:source:enable': {
    description: '启用一个添加的订阅源',
    usage: '--id 1',
    options: { id: { type: 'string' } },
    async run(c, args) {
      return c.topic.service.setFeedEnabled(idArg(args), true);
    },
  },
  'topic:source:disable': {
    description: '停用一个添加的订阅源（不再抓取；已抓到的热点按时间自然过期）',
    usage: '--id 1',
    options: { id: { type: 'string' } },
    async run(c, args) {
      return c.topic.service.setFeedEnabled(idArg(args), false);
    },
  },
  'topic:source:remove': {
    description: '删除一个添加的订阅源',
    usage: '--id 1',
    options: { id: { type: 'string' } },
    async run(c, args) {
      return c.topic.service.removeFeed(idArg(args));
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
