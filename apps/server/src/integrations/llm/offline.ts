import { keywords, sentences } from './chinese-text.js';
import type { LlmChunk, LlmClient, LlmRequest, OfflineContext } from './types.js';

/**
 * How the product names offline-written work. It is carried as data (isAi = false; tasks and drafts say
 * generatedBy 'offline') and shown by the UI beside the text, never written into the text: the body is the
 * user's draft and may be published as it is.
 */
export const OFFLINE_LABEL = '离线写作助手生成，非AI';
export const OFFLINE_MODEL_ID = 'offline';

const NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

/**
 * The embedded default "model": it does not generate language. It arranges what the user gave (their own
 * sentences, the persona, quoted files and search results) into an honest structured draft with a clear
 * outline and places to fill in. It says so through `isAi = false`, not inside the text it produces.
 */
export class OfflineWriter implements LlmClient {
  readonly id = OFFLINE_MODEL_ID;
  readonly label = '离线写作助手（非AI）';
  readonly isAi = false;

  constructor(private readonly chunkChars = 24) {}

  async *stream(req: LlmRequest): AsyncIterable<LlmChunk> {
    const ctx: OfflineContext = req.offline ?? {
      purpose: 'article',
      content: [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '',
    };
    const text = compose(ctx);
    for (let i = 0; i < text.length; i += this.chunkChars) {
      if (req.signal?.aborted) return;
      yield { type: 'text', text: text.slice(i, i + this.chunkChars) };
      // Let other streams and requests run between chunks.
      await new Promise((r) => setImmediate(r));
    }
    yield { type: 'finish', reason: 'stop' };
  }
}

export function compose(ctx: OfflineContext): string {
  switch (ctx.purpose) {
    case 'title':
      return titles(ctx).join('\n');
    case 'ability':
      return ability(ctx);
    case 'outline':
      return outline(ctx)
        .map((s) => s.heading)
        .join('\n');
    default:
      return article(ctx);
  }
}

function mask(text: string, taboo: string[] | undefined): string {
  let out = text;
  for (const w of taboo ?? []) if (w) out = out.split(w).join('＊'.repeat(w.length));
  return out;
}

function guessTitle(ctx: OfflineContext, kws: string[]): string {
  if (ctx.title) return ctx.title;
  const first = sentences(ctx.content)[0]?.replace(/[。！？!?；;，,]+$/, '') ?? '';
  if (first.length >= 4 && first.length <= 28) return first.replace(/^(请|帮我|请帮我)?(写|写一篇)(一篇)?(关于)?/, '') || first;
  if (kws.length >= 2) return `关于${kws[0]}与${kws[1]}，我想说的几件事`;
  if (kws[0]) return `聊聊${kws[0]}`;
  return '未命名草稿';
}

interface Section {
  heading: string;
  keyword: string;
  points: string[];
  cites: number[];
}

function outline(ctx: OfflineContext): Section[] {
  const own = sentences(ctx.content);
  const quoteSentences = (ctx.quotes ?? []).flatMap((q) =>
    sentences(q.text)
      .slice(0, 400)
      .map((s) => ({ s, from: q.name })),
  );
  const all = [ctx.content, ...(ctx.quotes ?? []).map((q) => q.text.slice(0, 20_000))].join('\n');
  const kws = keywords(all, 5);
  const used = new Set<string>();
  const sections: Section[] = kws.slice(0, 4).map((kw, i) => {
    const points: string[] = [];
    for (const s of own)
      if (s.includes(kw) && !used.has(s) && points.length < 4) {
        used.add(s);
        points.push(s);
      }
    for (const q of quoteSentences) {
      if (points.length >= 5) break;
      if (q.s.includes(kw) && !used.has(q.s) && q.s.length <= 160) {
        used.add(q.s);
        points.push(`${q.s}（摘自《${q.from}》）`);
      }
    }
    const cites = (ctx.sources ?? [])
      .filter((src) => `${src.title}${src.snippet}`.includes(kw))
      .map((src) => src.n)
      .slice(0, 2);
    return { heading: `${NUMERALS[i]}、${kw}`, keyword: kw, points, cites };
  });
  const rest = own.filter((s) => !used.has(s));
  if (rest.length) sections.push({ heading: `${NUMERALS[sections.length]}、其他要点`, keyword: '', points: rest.slice(0, 6), cites: [] });
  if (!sections.length) sections.push({ heading: '一、正文', keyword: '', points: own.length ? own : [ctx.content], cites: [] });
  return sections;
}

function article(ctx: OfflineContext): string {
  const kws = keywords([ctx.content, ...(ctx.quotes ?? []).map((q) => q.text.slice(0, 20_000))].join('\n'), 6);
  const title = guessTitle(ctx, kws);
  const p = ctx.persona;
  const lines: string[] = [`# ${title}`, ''];
  if (p) {
    const who = [p.platform && `发布平台：${p.platform}`, p.industry && `行业：${p.industry}`, p.audience && `目标读者：${p.audience}`, p.tone && `语气：${p.tone}`]
      .filter(Boolean)
      .join('；');
    lines.push(`> 人设「${p.name}」${who ? `——${who}` : ''}`, '');
  }
  const own = sentences(ctx.content);
  lines.push('## 导语', '');
  lines.push(own[0] ? `${own[0]}【在这里用一个具体的场景、问题或数字抓住读者】` : '【用一个具体的场景、问题或数字开头】', '');
  for (const s of outline(ctx)) {
    lines.push(`## ${s.heading}`, '');
    if (s.points.length) for (const pt of s.points) lines.push(`- ${pt}`);
    else lines.push(`- 【围绕「${s.keyword}」补充一个观点、一个例子和一个可执行的建议】`);
    if (s.cites.length) lines.push(`- 相关资料：${s.cites.map((n) => `[${n}]`).join('')}`);
    lines.push('');
  }
  lines.push('## 结语', '');
  lines.push(kws.length ? `【总结「${kws.slice(0, 3).join('」「')}」的核心观点，并给读者一个行动建议】` : '【总结核心观点，并给读者一个行动建议】', '');
  if (ctx.sources?.length) {
    lines.push('## 参考资料', '');
    for (const src of ctx.sources) lines.push(`[${src.n}] ${src.title} ${src.url}`);
    lines.push('');
  }
  if (kws.length) lines.push(`关键词：${kws.join('、')}`);
  return mask(lines.join('\n'), p?.tabooWords);
}

function ability(ctx: OfflineContext): string {
  const text = ctx.content;
  const own = sentences(text);
  const kws = keywords(text, 5);
  let body: string;
  switch (ctx.ability) {
    case 'shorten': {
      // Keep the sentences that carry the most keywords, in their original order, up to about half the length.
      const scored = own.map((s, i) => ({ s, i, score: kws.filter((k) => s.includes(k)).length }));
      const keep = new Set<number>();
      let len = 0;
      for (const x of [...scored].sort((a, b) => b.score - a.score || a.i - b.i)) {
        if (len > text.length / 2 && keep.size) break;
        keep.add(x.i);
        len += x.s.length;
      }
      body = scored
        .filter((x) => keep.has(x.i))
        .map((x) => x.s)
        .join('');
      break;
    }
    case 'expand':
      body = own.map((s) => `${s}【可展开：补充一个例子或数据】`).join('');
      break;
    case 'continue':
      body = `${text}\n\n【续写提示：可以接着谈${kws.length ? `「${kws.join('」「')}」` : '上文的要点'}，给出例子、数据或读者能照做的步骤】`;
      break;
    case 'polish':
      body = polish(text);
      break;
    case 'tone':
      body = `${polish(text)}\n\n【语气调整提示：按「${ctx.tone ?? '目标语气'}」的风格改写措辞；离线助手不改写句子】`;
      break;
    case 'persona':
      body = `${polish(text)}\n\n【人设提示：${ctx.persona ? `以「${ctx.persona.name}」的口吻${ctx.persona.tone ? `（${ctx.persona.tone}）` : ''}面向${ctx.persona.audience || '目标读者'}改写` : '未选择人设'}】`;
      break;
    default:
      body = text;
  }
  return mask(body, ctx.persona?.tabooWords);
}

/** Mechanical clean-up only: whitespace, repeated punctuation, half-width punctuation between CJK characters. */
function polish(text: string): string {
  return text
    .replace(/[ \t]+/g, ' ')
    .replace(/([\u3400-\u9fff]),(?=[\u3400-\u9fff])/g, '$1，')
    .replace(/([\u3400-\u9fff])\.(?=\s|$)/g, '$1。')
    .replace(/([\u3400-\u9fff])[?](?=\s|$)/g, '$1？')
    .replace(/([，。！？])\1+/g, '$1')
    .trim();
}

function titles(ctx: OfflineContext): string[] {
  const kws = keywords(ctx.content, 4);
  const a = kws[0] ?? '这件事';
  const b = kws[1] ?? '方法';
  const templates = [
    `关于${a}，我想说的几件事`,
    `${a}的${b}：一篇讲清楚`,
    `做好${a}的5个${b}`,
    `为什么${a}越来越重要`,
    `从${a}到${b}，我的真实经验`,
    `${a}新手必看`,
    `一文读懂${a}`,
    `${a}，没你想的那么难`,
    `关于${b}的常见误区`,
    `${a}实用指南`,
  ];
  return templates.slice(0, ctx.count ?? 5);
}
