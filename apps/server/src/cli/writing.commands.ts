import type { AdminCommand } from './command.js';
import { requireArg } from './command.js';

/** Models for AI writing (keys encrypted at rest) and the sensitive-content lexicon. */
export const writingCommands: Record<string, AdminCommand> = {
  'model:add': {
    description: '添加或更新写作模型（OpenAI 兼容接口；API Key 加密保存）',
    usage:
      '--id deepseek --label DeepSeek --base-url https://api.deepseek.com --model deepseek-chat --api-key sk-... [--points-feature article_deep] [--capabilities article,ability,title] [--sort 0]',
    options: {
      id: { type: 'string' },
      label: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key': { type: 'string' },
      'points-feature': { type: 'string' },
      capabilities: { type: 'string' },
      sort: { type: 'string' },
    },
    async run(c, args) {
      const id = requireArg(args, 'id');
      if (!/^[\w.-]{1,64}$/.test(id) || id === 'offline') throw new Error('--id 只能包含字母、数字、_ . -，且不能是 offline');
      const baseURL = requireArg(args, 'base-url');
      try {
        new URL(baseURL);
      } catch {
        throw new Error('--base-url 不是有效的地址');
      }
      const sort = typeof args.sort === 'string' ? Number(args.sort) : 0;
      if (!Number.isInteger(sort)) throw new Error('--sort 必须是整数');
      const capabilities =
        typeof args.capabilities === 'string'
          ? args.capabilities
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [];
      const pointsFeature = typeof args['points-feature'] === 'string' ? args['points-feature'].trim() : undefined;
      await c.writing.llms.add({
        id,
        label: requireArg(args, 'label'),
        baseURL,
        model: requireArg(args, 'model'),
        apiKey: requireArg(args, 'api-key'),
        pointsFeature,
        capabilities,
        sort,
      });
      return { id, saved: true, apiKey: '(已加密保存)' };
    },
  },
  'model:list': {
    description: '写作模型列表（不显示密钥）',
    usage: '',
    options: {},
    async run(c) {
      return (await c.writing.llms.list()).map((m) => ({ id: m.id, label: m.label, isAi: m.isAi, source: m.source, pointsFeature: m.pointsFeature, capabilities: m.capabilities }));
    },
  },
  'model:remove': {
    description: '删除用 model:add 添加的模型（LLM_MODELS 中的模型请改配置）',
    usage: '--id deepseek',
    options: { id: { type: 'string' } },
    async run(c, args) {
      const id = requireArg(args, 'id');
      if (!(await c.writing.llms.remove(id))) throw new Error(`未找到模型 ${id}（或它来自 LLM_MODELS 配置）`);
      return { id, removed: true };
    },
  },
  'lexicon:add': {
    description: '向敏感词库添加词语（与仓库中的词表一起生效，30 秒内各进程生效）',
    usage: '--word 词语',
    options: { word: { type: 'string' } },
    async run(c, args) {
      return { word: await c.lexicon.lexicon.add(requireArg(args, 'word')), added: true };
    },
  },
  'lexicon:remove': {
    description: '停用用 lexicon:add 添加的词语',
    usage: '--word 词语',
    options: { word: { type: 'string' } },
    async run(c, args) {
      const word = requireArg(args, 'word');
      if (!(await c.lexicon.lexicon.remove(word))) throw new Error(`词库中没有通过 lexicon:add 添加的「${word}」`);
      return { word, removed: true };
    },
  },
  'lexicon:list': {
    description: '列出通过 lexicon:add 添加的词语',
    usage: '',
    options: {},
    async run(c) {
      return c.lexicon.lexicon.added();
    },
  },
};
