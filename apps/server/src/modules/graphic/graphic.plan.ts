import { cardTemplateIds, graphicLimits, noteTextLength, type CardTemplateId } from '@inkstone/shared';
import { keywords, sentences } from '../../integrations/llm/chinese-text.js';
import { firstJson } from '../writing/pipeline.js';
import { suggestTopics } from '../publish/tags.js';

/** What the writer decides for a note: its words and a card plan (cover first). */
export interface PlannedCard {
  templateId: CardTemplateId;
  heading: string;
  text: string;
  /** What a picture for this card would show (the AI image prompt). */
  imagePrompt: string;
  /** The writer's picture choice: a rendered card, or an AI picture (used when the task asked for AI pictures). */
  picture: 'card' | 'ai';
}

export interface NotePlan {
  title: string;
  body: string;
  tags: string[];
  cards: PlannedCard[];
}

/** Cuts to at most `max` as the platform counts (CJK 1, two ASCII 1), on a character boundary. */
export function cutNoteText(text: string, max: number): string {
  const t = text.trim();
  if (noteTextLength(t) <= max) return t;
  let out = '';
  for (const ch of t) {
    if (noteTextLength(out + ch) > max) break;
    out += ch;
  }
  return out.trim();
}

const stripPunct = (s: string) => s.replace(/^[\s，。！？、；：,.!?;:]+|[\s，。！？、；：,.!?;:]+$/g, '');
const cleanTag = (t: string) =>
  t
    .replace(/^#+/, '')
    .replace(/[#\s]+/g, '')
    .trim()
    .slice(0, graphicLimits.tagMaxChars);

/** 3-10 topics: the writer's first, then keywords of the note (the /agent/xhs/tags logic), then generic ones. */
export function normaliseTags(tags: string[], text: string): string[] {
  const out: string[] = [];
  const add = (t: string) => {
    const c = cleanTag(t);
    if (c.length >= 2 && !out.includes(c) && out.length < graphicLimits.tagsMax) out.push(c);
  };
  tags.forEach(add);
  if (out.length < 5) suggestTopics(text, graphicLimits.tagsMax).forEach(add);
  for (const t of ['生活记录', '干货分享', '经验分享']) if (out.length < graphicLimits.tagsMin) add(t);
  return out;
}

/** Clamps whatever the writer produced to the note's rules: title <= 20, body <= 1000, cover + 2-17 content cards. */
export function normalisePlan(plan: Partial<NotePlan> & { cards?: Array<Partial<PlannedCard>> }, content: string, contentCards: number | null): NotePlan {
  const fallback = offlinePlan({ content, quotes: [], contentCards });
  const title = cutNoteText(stripPunct(plan.title ?? '') || fallback.title, graphicLimits.titleMax) || fallback.title;
  const body = cutNoteText(plan.body?.trim() || fallback.body, graphicLimits.bodyMax);
  const tags = normaliseTags(plan.tags ?? [], `${title}\n${body}\n${content}`);
  const cards = (plan.cards ?? [])
    .map((c) => ({
      templateId: (cardTemplateIds as readonly string[]).includes(c.templateId ?? '') ? (c.templateId as CardTemplateId) : 'paragraph',
      heading: [...(c.heading ?? '').trim()].slice(0, graphicLimits.cardHeadingMax).join(''),
      text: [...(c.text ?? '').trim()].slice(0, graphicLimits.cardTextMax).join(''),
      imagePrompt: (c.imagePrompt ?? '').trim().slice(0, graphicLimits.aiPromptMax),
      picture: c.picture === 'ai' ? ('ai' as const) : ('card' as const),
    }))
    .filter((c) => c.heading || c.text);
  // The cover is first and is a cover; a plan without one gets the title as its cover.
  const coverAt = cards.findIndex((c) => c.templateId === 'cover');
  const cover = coverAt >= 0 ? cards.splice(coverAt, 1)[0]! : { ...fallback.cards[0]!, heading: title };
  if (!cover.heading) cover.heading = title;
  const content2 = cards.filter((c) => c.templateId !== 'cover');
  const want = contentCards ?? Math.min(Math.max(content2.length, graphicLimits.planContentMin), graphicLimits.planContentMax);
  const body2 = content2.slice(0, want);
  // Too few content cards: the offline plan's cards fill the gap (they come from the same request).
  for (const c of fallback.cards.slice(1)) if (body2.length < Math.max(want, graphicLimits.planContentMin)) body2.push(c);
  while (body2.length < graphicLimits.planContentMin) body2.push({ templateId: 'paragraph', heading: title, text: body.slice(0, 200), imagePrompt: title, picture: 'card' });
  return { title, body, tags, cards: [cover, ...body2] };
}

const TEMPLATE_CYCLE: CardTemplateId[] = ['list', 'steps', 'checklist', 'highlight', 'quote', 'paragraph'];

/**
 * The offline plan (no model): the user's own sentences arranged into a note and cards. It writes nothing new: the
 * title is their first sentence (or keywords), the body their words, the cards their points grouped and laid out.
 */
export function offlinePlan(input: { content: string; quotes: Array<{ name: string; text: string }>; contentCards: number | null }): NotePlan {
  const own = sentences(input.content).map(stripPunct).filter(Boolean);
  const quoted = input.quotes
    .flatMap((q) => sentences(q.text).slice(0, 60))
    .map(stripPunct)
    .filter((s) => s.length >= 4);
  const pool = [...own, ...quoted];
  const kws = keywords([input.content, ...input.quotes.map((q) => q.text.slice(0, 5000))].join('\n'), 8);
  const first = own[0] ?? '';
  const request = first.replace(/^(请|帮我|请帮我)?(写|做|生成)(一篇|一组|一个)?(关于)?(小红书)?(图文|笔记)?(，|：|:)?/, '').trim();
  const title = cutNoteText(request || (kws.length >= 2 ? `${kws[0]}和${kws[1]}` : kws[0] ? `聊聊${kws[0]}` : '我的图文笔记'), graphicLimits.titleMax);
  const points = pool.length > 1 ? pool.slice(own.length > 1 ? 1 : 0) : pool;
  const body = cutNoteText([request && request !== title ? request : '', ...points.slice(0, 12).map((p) => `· ${p}`)].filter(Boolean).join('\n') || title, graphicLimits.bodyMax);
  const want = input.contentCards ?? Math.min(graphicLimits.planContentMax, Math.max(graphicLimits.planContentMin, Math.ceil(points.length / 3)));
  const cards: PlannedCard[] = [{ templateId: 'cover', heading: title, text: kws.slice(0, 3).join(' · '), imagePrompt: `${title}，小红书封面风格`, picture: 'card' }];
  const groups: string[][] = Array.from({ length: want }, () => []);
  points.forEach((p, i) => groups[i % want]!.push(p));
  for (const [i, g] of groups.entries()) {
    const templateId = TEMPLATE_CYCLE[i % TEMPLATE_CYCLE.length]!;
    const heading = kws[i + 1] ?? kws[i % Math.max(1, kws.length)] ?? `第${i + 1}点`;
    const text = g.length ? (templateId === 'quote' ? g[0]! : g.join('\n')) : (own[i] ?? title);
    cards.push({ templateId, heading: templateId === 'quote' ? '' : heading, text, imagePrompt: `${heading}：${text.slice(0, 60)}`, picture: i % 2 === 0 ? 'ai' : 'card' });
  }
  return { title, body, tags: normaliseTags(kws.slice(0, 6), `${title}\n${body}`), cards };
}

/** The model's plan from its reply (JSON somewhere in it), or null when there is none. */
export function parseModelPlan(text: string): (Partial<NotePlan> & { cards?: Array<Partial<PlannedCard>> }) | null {
  const raw = firstJson<{ title?: unknown; body?: unknown; tags?: unknown; cards?: unknown }>(text);
  if (!raw || typeof raw !== 'object') return null;
  const str = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? v.filter((x) => typeof x === 'string').join('\n') : '');
  const cards = Array.isArray(raw.cards)
    ? raw.cards
        .filter((c): c is Record<string, unknown> => !!c && typeof c === 'object')
        .map((c) => ({
          templateId: str(c.template ?? c.templateId) as CardTemplateId,
          heading: str(c.heading ?? c.title),
          text: str(c.text ?? c.items ?? c.content),
          imagePrompt: str(c.imagePrompt ?? c.image),
          picture: str(c.picture) === 'ai' ? ('ai' as const) : ('card' as const),
        }))
    : [];
  if (!cards.length && typeof raw.title !== 'string') return null;
  return { title: str(raw.title), body: str(raw.body), tags: Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === 'string') : [], cards };
}

/** The instruction for a model: the note's rules and the JSON shape, templates named with how each reads its text. */
export function planPrompt(opts: { content: string; contentCards: number | null; material: string }): string {
  return [
    '为下面的需求写一篇小红书图文笔记，并规划配图卡片。只输出一个JSON对象：',
    '{"title":"标题","body":"正文","tags":["话题"],"cards":[{"template":"cover","heading":"封面大标题","text":"副标题","imagePrompt":"配图描述","picture":"card"}]}',
    `要求：title 不超过${graphicLimits.titleMax}个字；body 不超过${graphicLimits.bodyMax}字，口语化、分段、可用emoji；tags ${graphicLimits.tagsMin}-${graphicLimits.tagsMax}个，不带#。`,
    `cards 第一张 template 为 cover，之后${opts.contentCards ?? `${graphicLimits.planContentMin}-8`}张内容卡片。template 可选：list（每行一个要点）、steps（每行一步）、checklist（每行一项）、comparison（每行“左 | 右”，第一行写两边名称）、quote（text 为金句，heading 为出处）、highlight（第一行是重点句）、paragraph（一段文字）。`,
    '每张卡片 text 不超过120字；picture 为 ai 表示这张适合配一张AI图片，否则为 card；imagePrompt 描述画面。',
    `需求：${opts.content}`,
    opts.material,
  ]
    .filter(Boolean)
    .join('\n');
}
