import { jieba as segmenter, tfIdf } from '../../integrations/llm/chinese-text.js';
import { htmlToText } from '../../integrations/platforms/types.js';

const load = () => ({ jieba: segmenter(), tfidf: tfIdf() });

const NOUNISH = ['n', 'nr', 'ns', 'nt', 'nz', 'vn', 'an', 'eng'];

/** Topic suggestions for a note: TF-IDF keywords (nouns first), as Xiaohongshu-style #topics without the '#'. */
export function suggestTopics(text: string, max = 10): string[] {
  const plain = htmlToText(text).slice(0, 5000);
  if (!plain.trim()) return [];
  const { jieba, tfidf } = load();
  const words = tfidf.extractKeywords(jieba, plain, max * 2, NOUNISH).map((k) => k.keyword);
  const extra = words.length < max ? tfidf.extractKeywords(jieba, plain, max * 2).map((k) => k.keyword) : [];
  const out: string[] = [];
  for (const w of [...words, ...extra]) {
    const t = w.trim();
    if (t.length < 2 || /^\d+$/.test(t) || out.includes(t)) continue;
    out.push(t);
    if (out.length >= max) break;
  }
  return out;
}
