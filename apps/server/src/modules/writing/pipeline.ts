import type { SearchSource } from '@inkstone/shared';
import { complete, LlmContentFilteredError, type ChatMessage, type LlmClient, type LlmUsage, type OfflineContext } from '../../integrations/llm/types.js';
import type { SearchProvider } from '../../integrations/search/types.js';

/** Where a running task writes its stream; implemented over the events table by TaskSink. */
export interface Sink {
  progress(stage: string, message: string, percent: number): void;
  reasoning(text: string): void;
  delta(text: string): void;
  reset(reason: string): void;
  title(title: string): void;
  sources(items: SearchSource[]): void;
  usage(u: LlmUsage): void;
  readonly text: string;
  readonly signal: AbortSignal;
}

export interface PersonaInfo {
  name: string;
  platform: string;
  industry: string;
  audience: string;
  tone: string;
  tabooWords: string[];
  sampleTexts: string[];
}

export interface ArticleJob {
  writeType: 'deep' | 'quick' | 'imitate' | 'rewrite';
  content: string;
  persona: PersonaInfo | null;
  quotes: Array<{ name: string; text: string }>;
  onlineSearch: boolean;
  /** The chosen ability type's instruction (the form the article takes); empty for none. */
  style?: string;
  /** Passages from the user's knowledge library for a query (知识库 quoted); numbered here with the other sources. */
  retrieve?: (query: string, limit: number) => Promise<Array<Omit<SearchSource, 'n'>>>;
}

export interface AbilityJob {
  ability: string;
  text: string;
  context?: string;
  persona: PersonaInfo | null;
  tone?: string;
}

const QUOTE_CHARS_EACH = 3000;
const QUOTE_CHARS_TOTAL = 8000;
const MAX_SECTIONS = 6;
const MAX_QUERIES = 3;
const MAX_SOURCES = 8;

const TONES: Record<string, string> = { formal: '正式', casual: '轻松口语', humorous: '幽默', warm: '温暖亲切', professional: '专业严谨', lively: '活泼' };

function personaText(p: PersonaInfo | null): string {
  if (!p) return '';
  const lines = [
    `人设：${p.name}`,
    p.platform && `发布平台：${p.platform}`,
    p.industry && `行业：${p.industry}`,
    p.audience && `目标读者：${p.audience}`,
    p.tone && `语气：${p.tone}`,
    p.tabooWords.length ? `禁止出现的词：${p.tabooWords.join('、')}` : '',
    p.sampleTexts.length ? `参考文风示例：\n${p.sampleTexts.map((s) => s.slice(0, 800)).join('\n---\n')}` : '',
  ];
  return lines.filter(Boolean).join('\n');
}

function quotesText(quotes: ArticleJob['quotes']): string {
  let left = QUOTE_CHARS_TOTAL;
  const parts: string[] = [];
  for (const q of quotes) {
    if (left <= 0) break;
    const t = q.text.slice(0, Math.min(QUOTE_CHARS_EACH, left));
    left -= t.length;
    parts.push(`《${q.name}》\n${t}`);
  }
  return parts.length ? `用户引用的资料：\n${parts.join('\n\n')}` : '';
}

const sourcesText = (sources: SearchSource[]) =>
  sources.length ? `联网搜索到的资料（引用时在句末标注编号，如[1]）：\n${sources.map((s) => `[${s.n}] ${s.title}：${s.snippet.slice(0, 300)}`).join('\n')}` : '';

function system(persona: PersonaInfo | null, style = ''): string {
  return ['你是一名中文内容创作者的写作助手。用简体中文写作，使用Markdown（# 标题、## 小标题、列表）。不编造数据与引用；资料不足时如实说明。', style, personaText(persona)]
    .filter(Boolean)
    .join('\n\n');
}

/** The first JSON object in a reply (models wrap JSON in prose or code fences). */
export function firstJson<T>(text: string): T | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(text.slice(start, end + 1)) as T;
  } catch {
    return null;
  }
}

interface Plan {
  title?: string;
  outline?: Array<{ heading?: string; points?: string[] }>;
  queries?: string[];
}

/** What a task's model calls add up to: the usage summed, and whether a reply stayed cut at the length limit. */
class UsageSum {
  total: LlmUsage | null = null;
  /** A reply still ended at the model's length limit after MAX_CONTINUATIONS: the text may be incomplete. */
  truncated = false;
  add(u: LlmUsage | null) {
    if (!u) return;
    this.total = this.total
      ? {
          promptTokens: this.total.promptTokens + u.promptTokens,
          completionTokens: this.total.completionTokens + u.completionTokens,
          totalTokens: this.total.totalTokens + u.totalTokens,
        }
      : { ...u };
  }
}

/** Calls after a reply that stopped at the model's length limit (finish_reason `length`), each asked to go on from there. */
const MAX_CONTINUATIONS = 2;
const CONTINUE_PROMPT = '上面的回答因长度上限被截断了。请从截断处（最后一个字之后）直接接着写完：不要重复已写的内容，不要重新开头，不要加任何说明。';

/**
 * Streams a reply into the sink. A reply cut at the length limit is continued, at most MAX_CONTINUATIONS times, by
 * sending the text so far back as the assistant's turn and asking for the rest; `truncated` when it was still cut.
 */
async function streamInto(sink: Sink, llm: LlmClient, messages: ChatMessage[], usage: UsageSum, offline?: OfflineContext): Promise<{ text: string; truncated: boolean }> {
  let text = '';
  for (let call = 0; ; call++) {
    let finish = '';
    const asked: ChatMessage[] = call === 0 ? messages : [...messages, { role: 'assistant', content: text }, { role: 'user', content: CONTINUE_PROMPT }];
    for await (const c of llm.stream({ messages: asked, signal: sink.signal, offline })) {
      if (c.type === 'text') {
        text += c.text;
        sink.delta(c.text);
      } else if (c.type === 'reasoning') sink.reasoning(c.text);
      else if (c.type === 'usage') usage.add(c.usage);
      else if (c.type === 'finish') finish = c.reason;
    }
    if (finish !== 'length') return { text, truncated: false };
    if (call >= MAX_CONTINUATIONS) return { text, truncated: true };
  }
}

async function search(sink: Sink, provider: SearchProvider, queries: string[]): Promise<SearchSource[]> {
  sink.progress('search', '正在联网搜索资料', 15);
  const settled = await Promise.allSettled(queries.slice(0, MAX_QUERIES).map((q) => provider.search(q, { count: 5, signal: sink.signal })));
  const seen = new Set<string>();
  const sources: SearchSource[] = [];
  for (const r of settled) {
    if (r.status !== 'fulfilled') continue;
    for (const item of r.value) {
      if (seen.has(item.url) || sources.length >= MAX_SOURCES) continue;
      seen.add(item.url);
      sources.push({ n: sources.length + 1, title: item.title, url: item.url, snippet: item.snippet, siteName: item.siteName });
    }
  }
  if (!sources.length) sink.progress('search', settled.some((r) => r.status === 'rejected') ? '联网搜索失败，已跳过' : '未搜索到相关资料', 20);
  else sink.sources(sources);
  return sources;
}

/** Knowledge passages per query, numbered after the sources already listed (a passage keeps its first number). */
async function retrieveInto(sink: Sink, job: ArticleJob, sources: SearchSource[], query: string, limit = 3): Promise<SearchSource[]> {
  if (!job.retrieve || !query.trim()) return [];
  const found = await job.retrieve(query.slice(0, 100), limit).catch(() => []);
  const picked: SearchSource[] = [];
  for (const f of found) {
    const known = sources.find((s) => s.url === f.url);
    if (known) picked.push(known);
    else if (sources.length < MAX_SOURCES + 12) {
      const s = { ...f, n: sources.length + 1 };
      sources.push(s);
      picked.push(s);
    }
  }
  if (picked.length) sink.sources([...sources]);
  return picked;
}

const sourceList = (sources: SearchSource[]) => (sources.length ? `\n\n## 参考资料\n\n${sources.map((s) => `[${s.n}] ${s.title} ${s.url}`).join('\n')}\n` : '');

/** What a written task comes to: the usage summed over every model call; `truncated` when the text may be incomplete. */
export interface WriteResult {
  usage: LlmUsage | null;
  truncated: boolean;
}

/** Writes an article into the sink. */
export async function writeArticle(sink: Sink, llm: LlmClient, job: ArticleJob, searchProvider: SearchProvider): Promise<WriteResult> {
  const usage = new UsageSum();
  if (!llm.isAi) await writeOffline(sink, llm, job, searchProvider, usage);
  else if (job.writeType !== 'deep') await writeDirect(sink, llm, job, usage);
  else await writeDeep(sink, llm, job, searchProvider, usage);
  return { usage: usage.total, truncated: usage.truncated };
}

/** The offline writer arranges the user's material; it cannot plan, review or revise. */
async function writeOffline(sink: Sink, llm: LlmClient, job: ArticleJob, searchProvider: SearchProvider, usage: UsageSum): Promise<void> {
  sink.progress('plan', '离线写作助手（非AI）正在整理你的输入', 5);
  const sources = job.onlineSearch ? await search(sink, searchProvider, [job.content.slice(0, 60)]) : [];
  if (job.retrieve) {
    sink.progress('search', '正在检索知识库', 20);
    await retrieveInto(sink, job, sources, job.content, 5);
  }
  sink.progress('write', '正在生成结构化草稿', 30);
  const persona = job.persona ? { ...job.persona } : null;
  await streamInto(sink, llm, [{ role: 'user', content: job.content }], usage, { purpose: 'article', content: job.content, persona, quotes: job.quotes, sources });
  sink.progress('finish', '草稿已生成（离线写作助手，非AI模型）', 100);
}

/** Quick, imitate and rewrite: one pass from the request (and any knowledge passages, cited by number). */
async function writeDirect(sink: Sink, llm: LlmClient, job: ArticleJob, usage: UsageSum): Promise<void> {
  const task = {
    quick: '根据以下要求直接写一篇完整文章，第一行是“# 标题”。',
    imitate: '模仿以下示例文本的结构、语气和节奏，写一篇主题相近的新文章（不要照抄原句），第一行是“# 标题”。',
    rewrite: '改写以下内容：保留核心信息，换一种结构和表达，使其更适合发布，第一行是“# 标题”。',
  }[job.writeType as 'quick' | 'imitate' | 'rewrite'];
  const kn: SearchSource[] = [];
  if (job.retrieve) await retrieveInto(sink, job, kn, job.content, 5);
  sink.progress('write', '正在写作', 10);
  const cite = kn.length ? `用到知识库资料时在句末用[编号]标注。\n${sourcesText(kn).replace('联网搜索到的资料', '知识库资料')}` : '';
  const sys = system(job.persona, job.style);
  const reply = await streamInto(
    sink,
    llm,
    [
      { role: 'system', content: sys },
      { role: 'user', content: [task, job.content, materialOf(job), cite].filter(Boolean).join('\n\n') },
    ],
    usage,
  );
  usage.truncated ||= reply.truncated;
  if (kn.length) sink.delta(sourceList(kn));
  sink.progress('finish', '写作完成', 100);
}

const materialOf = (job: ArticleJob) => [quotesText(job.quotes)].filter(Boolean).join('\n\n');

/** Deep: plan and outline -> search -> sections with citations -> review -> revise. */
async function writeDeep(sink: Sink, llm: LlmClient, job: ArticleJob, searchProvider: SearchProvider, usage: UsageSum): Promise<void> {
  const sys = system(job.persona, job.style);
  const { title, outline, queries } = await planArticle(sink, llm, job, sys, usage);
  const sources = job.onlineSearch ? await search(sink, searchProvider, queries.length ? queries : [job.content.slice(0, 60)]) : [];
  await writeSections(sink, llm, job, sys, { title, outline }, sources, usage);
  const draft = sink.text;
  const review = await reviewDraft(sink, llm, sys, draft, usage);
  // No review: the draft stands as written.
  if (review === null) return;
  await reviseDraft(sink, llm, sys, { draft, review, withSourceList: sources.length > 0 }, usage);
  sink.progress('finish', '写作完成', 100);
}

type Outline = Array<{ heading?: string; points?: string[] }>;

/** Asks for a title, an outline (at most MAX_SECTIONS) and search queries; sends the title to the sink. */
async function planArticle(sink: Sink, llm: LlmClient, job: ArticleJob, sys: string, usage: UsageSum): Promise<{ title: string; outline: Outline; queries: string[] }> {
  sink.progress('plan', '正在规划选题与大纲', 5);
  const planReply = await complete(llm, {
    signal: sink.signal,
    messages: [
      { role: 'system', content: sys },
      {
        role: 'user',
        content: `为下面的写作需求做规划。只输出一个JSON对象：{"title":"标题","outline":[{"heading":"小标题","points":["要点"]}],"queries":["搜索关键词"]}。outline 3-5节，queries 最多3个。\n\n写作需求：${job.content}\n\n${materialOf(job)}`,
      },
    ],
  });
  usage.add(planReply.usage);
  const plan = firstJson<Plan>(planReply.text) ?? {};
  const outline = (plan.outline ?? []).filter((s) => s.heading).slice(0, MAX_SECTIONS);
  if (!outline.length) outline.push({ heading: '正文', points: [] });
  const title = (plan.title || job.content.slice(0, 30)).replace(/^#+\s*/, '').trim();
  sink.title(title);
  sink.progress('plan', `大纲：${outline.map((s) => s.heading).join(' / ')}`, 10);
  return { title, outline, queries: plan.queries ?? [] };
}

/** Writes the title and each section in turn, each with its own knowledge passages; ends with the source list. */
async function writeSections(
  sink: Sink,
  llm: LlmClient,
  job: ArticleJob,
  sys: string,
  plan: { title: string; outline: Outline },
  sources: SearchSource[],
  usage: UsageSum,
): Promise<void> {
  const { title, outline } = plan;
  const material = materialOf(job);
  sink.delta(`# ${title}\n\n`);
  for (const [i, section] of outline.entries()) {
    sink.progress('write', `正在写第${i + 1}/${outline.length}节：${section.heading}`, 20 + Math.round((60 * i) / outline.length));
    sink.delta(`## ${section.heading}\n\n`);
    // Each section asks the library for its own passages (heading and points), numbered with the others.
    const passages = await retrieveInto(sink, job, sources, `${section.heading} ${(section.points ?? []).join(' ')}`.trim());
    const reply = await streamInto(
      sink,
      llm,
      [
        { role: 'system', content: sys },
        {
          role: 'user',
          content: [
            `文章标题：${title}`,
            `完整大纲：${outline.map((s, k) => `${k + 1}. ${s.heading}`).join('；')}`,
            `现在只写第${i + 1}节「${section.heading}」的正文（不要重复小标题），要点：${(section.points ?? []).join('；') || '自行把握'}。${i === 0 ? '开头要有吸引读者的钩子。' : ''}`,
            sources.length ? '用到搜索资料或知识库资料时在句末用[编号]标注。' : '',
            `已写内容（末尾）：\n${sink.text.slice(-1500)}`,
            `写作需求：${job.content}`,
            material,
            sourcesText(sources.filter((s) => !s.url.startsWith('/pdfDetail') || passages.includes(s))).replace('联网搜索到的资料', '可引用的资料'),
          ]
            .filter(Boolean)
            .join('\n\n'),
        },
      ],
      usage,
    );
    usage.truncated ||= reply.truncated;
    sink.delta('\n\n');
  }
  if (sources.length) sink.delta(sourceList(sources).trimStart());
}

/** Review notes on the draft; null when the review broke off (the draft then stands). */
async function reviewDraft(sink: Sink, llm: LlmClient, sys: string, draft: string, usage: UsageSum): Promise<string | null> {
  sink.progress('review', '正在审阅标题、开头、结构与人设匹配度', 85);
  try {
    const r = await complete(llm, {
      signal: sink.signal,
      messages: [
        { role: 'system', content: sys },
        { role: 'user', content: `审阅下面的文章：标题是否吸引人、开头钩子是否有力、结构是否清晰、是否符合人设与禁用词要求。列出不超过5条具体修改意见。\n\n${draft}` },
      ],
    });
    usage.add(r.usage);
    return r.text.trim();
  } catch (err) {
    // A stopped run (shutdown, task lost) is not a failed review: the caller decides what happens to the task.
    if (err instanceof LlmContentFilteredError || sink.signal.aborted) throw err;
    sink.progress('review', '审阅未完成，保留初稿', 95);
    return null;
  }
}

/** Rewrites the draft by the review; when that breaks off, the reviewed draft is put back. */
async function reviseDraft(sink: Sink, llm: LlmClient, sys: string, r: { draft: string; review: string; withSourceList: boolean }, usage: UsageSum): Promise<void> {
  sink.progress('revise', '正在根据审阅意见修改', 90);
  sink.reset('revise');
  let revised: { truncated: boolean };
  try {
    revised = await streamInto(
      sink,
      llm,
      [
        { role: 'system', content: sys },
        {
          role: 'user',
          content: `根据审阅意见修改文章，输出修改后的完整文章（Markdown，第一行“# 标题”），保留引用编号[n]${r.withSourceList ? '和文末“参考资料”列表' : ''}。\n\n审阅意见：\n${r.review}\n\n原文：\n${r.draft}`,
        },
      ],
      usage,
    );
  } catch (err) {
    if (err instanceof LlmContentFilteredError || sink.signal.aborted) throw err;
    // The revision broke off: the reviewed draft stands.
    sink.reset('revise-failed');
    sink.delta(r.draft);
    sink.progress('revise', '修改未完成，保留初稿', 95);
    return;
  }
  // A revision still cut at the length limit would end the article early: the reviewed draft stands instead.
  if (revised.truncated) {
    sink.reset('revise-truncated');
    sink.delta(r.draft);
    sink.progress('revise', '修改稿超出长度上限，保留初稿', 95);
  }
}

const ABILITY_TASKS: Record<string, string> = {
  continue: '接着下面的文字继续写，风格保持一致，只输出续写部分。',
  expand: '扩写下面的文字：补充细节、例子和论据，篇幅约为原文的两倍，只输出扩写后的文字。',
  shorten: '缩写下面的文字：保留核心信息，篇幅约为原文的一半，只输出缩写后的文字。',
  polish: '润色下面的文字：修正语病、优化措辞和节奏，不改变原意，只输出润色后的文字。',
  persona: '用给定人设的口吻和语气改写下面的文字，只输出改写后的文字。',
  tone: '把下面文字的语气改成指定语气，只输出改写后的文字。',
};

export async function runAbility(sink: Sink, llm: LlmClient, job: AbilityJob): Promise<WriteResult> {
  const usage = new UsageSum();
  sink.progress('write', '正在处理', 10);
  const persona = job.persona;
  const content = [
    ABILITY_TASKS[job.ability] ?? '',
    job.ability === 'tone' ? `目标语气：${TONES[job.tone ?? ''] ?? job.tone ?? '更自然'}` : '',
    job.context ? `上下文：\n${job.context.slice(-2000)}` : '',
    `文字：\n${job.text}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const reply = await streamInto(
    sink,
    llm,
    [
      { role: 'system', content: system(persona) },
      { role: 'user', content },
    ],
    usage,
    {
      purpose: 'ability',
      ability: job.ability,
      content: job.text,
      tone: job.tone ? (TONES[job.tone] ?? job.tone) : undefined,
      persona,
    },
  );
  sink.progress('finish', '处理完成', 100);
  return { usage: usage.total, truncated: reply.truncated };
}
