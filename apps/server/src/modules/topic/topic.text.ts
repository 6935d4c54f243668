/** Words that say nothing about which story a title is (question framing, filler). */
const STOP = new Set([
  '如何',
  '看待',
  '怎么',
  '怎么样',
  '为什么',
  '什么',
  '是否',
  '哪些',
  '这些',
  '那些',
  '一个',
  '我们',
  '你们',
  '他们',
  '自己',
  '还是',
  '可以',
  '已经',
  '今天',
  '现在',
  '最新',
  '回应',
  '官方',
  '网友',
  '曝光',
  '来了',
  '终于',
  '竟然',
  '到底',
  '真的',
  '发布',
  '消息',
  '事件',
  '引发',
  '热议',
  '评价',
]);

/** The form of a text jieba is given (full-width letters and digits folded to their plain forms). */
export const forSegmenting = (text: string) => text.normalize('NFKC');

/** Content words of a title or summary, from jieba's cut of forSegmenting(text): tokens of two or more characters (or latin words), no filler. */
export function contentWords(cut: string[]): string[] {
  const out = new Set<string>();
  for (const raw of cut) {
    const w = raw.trim().toLowerCase();
    if (!w || STOP.has(w)) continue;
    if (/^[\p{Script=Han}]{2,}$/u.test(w) || /^[a-z0-9][a-z0-9.+-]*$/i.test(w)) {
      if (/^\d+$/.test(w)) continue;
      out.add(w);
    }
  }
  return [...out];
}

/** The same title however it is punctuated, spaced or hash-tagged. */
export function storyKeyOf(title: string): string {
  return title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '')
    .slice(0, 120);
}

/**
 * Two titles tell the same story when most content words of the shorter one are in the longer one
 * ("今冬首场寒潮来袭" / "如何看待今冬首场寒潮？"), with at least two words shared so short titles do not collide.
 */
export function sameStory(a: string[], b: string[]): boolean {
  if (a.length < 2 || b.length < 2) return false;
  const set = new Set(a);
  const shared = b.filter((w) => set.has(w)).length;
  return shared >= 2 && shared / Math.min(a.length, b.length) >= 0.75;
}

export interface TrackRule {
  name: string;
  /** Parent name for a sub-track; a match also counts for the parent. */
  parent: string | null;
  keywords: string[];
}

/**
 * Keyword rules per track: a keyword matches when jieba produced it as a token; a two-character Chinese keyword also
 * inside one token (火锅 in 吃火锅) but never across a token boundary; a longer one anywhere in the text (compound
 * names jieba splits, 大模型 -> 大/模型).
 */
export function classify(text: string, tokens: string[], rules: TrackRule[]): string[] {
  const tokenSet = new Set(tokens);
  const lower = text.normalize('NFKC').toLowerCase();
  const out = new Set<string>();
  for (const r of rules) {
    const hit = r.keywords.some((k) => {
      const kw = k.toLowerCase();
      if (tokenSet.has(kw)) return true;
      // Latin keywords (AI, NBA) only as whole tokens: "ai" is inside too many English words.
      if (/^[a-z0-9]+$/.test(kw)) return false;
      return kw.length >= 3 ? lower.includes(kw) : tokens.some((w) => w.includes(kw));
    });
    if (hit) {
      out.add(r.name);
      if (r.parent) out.add(r.parent);
    }
  }
  return [...out];
}
