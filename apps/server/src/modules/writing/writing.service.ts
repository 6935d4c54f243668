import { ErrorCode, homeInputSchema, writingLimits, type FestivalItem, type HomeInput, type ModelItem } from '@inkstone/shared';
import type { Clock } from '../../clock.js';
import { appError } from '../../http/errors.js';
import type { LlmRegistry } from '../llm/llm-registry.js';
import type { SwitchedSearch } from './switched-search.js';
import type { UserService } from '../user/user.service.js';
import { festivalsOf } from './festival.js';
import type { WritingRepo } from './writing.repo.js';

export const styleCards = [
  {
    id: 'deep-analysis',
    name: '深度长文',
    description: '先规划大纲、可联网查资料，逐节写作并审阅修改，适合观点文章与行业分析',
    writeType: 'deep',
    example: '写一篇分析2025年新能源汽车价格战对消费者影响的文章',
    tags: ['长文', '引用', '观点'],
  },
  { id: 'quick-post', name: '快速成文', description: '一次生成完整短文，适合日常更新', writeType: 'quick', example: '写一篇周末城市骑行的小红书笔记', tags: ['短文', '高效'] },
  {
    id: 'xhs-note',
    name: '小红书笔记',
    description: '口语化、分点、带表情与话题标签的种草风格',
    writeType: 'quick',
    example: '分享3个提升早起效率的小习惯',
    tags: ['种草', '清单'],
  },
  {
    id: 'wechat-article',
    name: '公众号文章',
    description: '有标题钩子、小标题分节、结尾互动的公众号长文',
    writeType: 'deep',
    example: '聊聊年轻人为什么开始存钱',
    tags: ['公众号', '结构化'],
  },
  { id: 'imitate', name: '仿写爆款', description: '贴入一篇你喜欢的文章，模仿它的结构和语气写新内容', writeType: 'imitate', example: '（粘贴一篇范文）', tags: ['仿写'] },
  { id: 'rewrite', name: '改写润色', description: '把已有内容换一种结构和表达，适配新平台', writeType: 'rewrite', example: '（粘贴需要改写的内容）', tags: ['改写'] },
] as const;

const INDUSTRY_WORDS: Record<string, string[]> = {
  美妆: ['平价好物', '换季护肤', '底妆测评', '成分党'],
  母婴: ['辅食添加', '育儿经验', '亲子游', '宝宝睡眠'],
  美食: ['家常菜谱', '探店', '减脂餐', '一人食'],
  旅游: ['小众目的地', '周末短途', '旅行攻略', '避坑指南'],
  教育: ['学习方法', '升学规划', '亲子阅读', '时间管理'],
  科技: ['AI工具', '数码测评', '效率软件', '新品发布'],
  职场: ['求职面试', '职场沟通', '副业', '升职加薪'],
  健身: ['居家训练', '减脂', '跑步入门', '体态改善'],
  财经: ['理财入门', '基金定投', '消费观察', '存钱计划'],
  家居: ['收纳整理', '租房改造', '小户型', '好物推荐'],
};
const GENERAL_WORDS = ['个人成长', '效率提升', '生活方式', '读书笔记', '热点解读', '干货清单'];

/** The writing home page: the model picker, search status, saved input, style cards, suggested words, festivals. */
export class WritingService {
  constructor(
    private readonly repo: WritingRepo,
    private readonly users: UserService,
    private readonly llms: LlmRegistry,
    private readonly search: SwitchedSearch,
    private readonly clock: Clock,
  ) {}

  // ---- models and search ----
  async models(): Promise<ModelItem[]> {
    const def = await this.llms.defaultId();
    return (await this.llms.list()).map((m) => ({ id: m.id, label: m.label, isAi: m.isAi, isDefault: m.id === def, capabilities: m.capabilities, pointsFeature: m.pointsFeature }));
  }

  async searchStatus() {
    if (!this.search.enabled) return { enabled: false, provider: null, reason: '未配置联网搜索服务' };
    return (await this.search.available()) ? { enabled: true, provider: this.search.name, reason: null } : { enabled: false, provider: null, reason: '联网搜索已暂停' };
  }

  // ---- home input ----
  async homeInput(userId: number, createType: string): Promise<HomeInput & { createType: string }> {
    const stored = await this.repo.homeInput(userId, createType);
    const parsed = homeInputSchema.safeParse(stored ?? {});
    return { ...(parsed.success ? parsed.data : homeInputSchema.parse({})), createType };
  }

  async saveHomeInput(userId: number, createType: string, input: HomeInput) {
    if (Buffer.byteLength(JSON.stringify(input)) > writingLimits.homeInputMaxBytes) throw appError(ErrorCode.PAYLOAD_TOO_LARGE, '输入内容过长，无法保存');
    await this.repo.saveHomeInput(userId, createType, input as unknown as Record<string, unknown>);
    return { ...input, createType };
  }

  styles() {
    return styleCards.map((c) => ({ ...c, tags: [...c.tags] }));
  }

  async suggestedWords(userId: number) {
    const user = await this.users.requireUser(userId);
    const words: Array<{ word: string; source: 'industry' | 'festival' | 'general' }> = [];
    for (const ind of [...user.industries, ...user.customIndustries]) {
      const key = Object.keys(INDUSTRY_WORDS).find((k) => ind.includes(k) || k.includes(ind));
      for (const w of key ? INDUSTRY_WORDS[key]! : [`${ind}干货`, `${ind}入门`]) words.push({ word: w, source: 'industry' });
    }
    const today = this.clock.now();
    const soon = new Date(today.getTime() + 30 * 86_400_000);
    const iso = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
    const upcoming = [...festivalsOf(today.getUTCFullYear()), ...festivalsOf(today.getUTCFullYear() + 1)].filter((f) => f.date >= iso(today) && f.date <= iso(soon));
    for (const f of upcoming.slice(0, 4)) words.push({ word: f.name.replace(/假期$/, ''), source: 'festival' });
    for (const w of GENERAL_WORDS) words.push({ word: w, source: 'general' });
    const seen = new Set<string>();
    return words.filter((w) => (seen.has(w.word) ? false : (seen.add(w.word), true))).slice(0, 16);
  }

  festivals(year: number | undefined): FestivalItem[] {
    const y = year ?? new Date(this.clock.now().getTime() + 8 * 3_600_000).getUTCFullYear();
    return festivalsOf(y);
  }
}
