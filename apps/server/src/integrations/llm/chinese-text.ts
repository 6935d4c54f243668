import { Jieba, TfIdf } from '@node-rs/jieba';
import { dict, idf } from '@node-rs/jieba/dict.js';

/** Chinese text helpers (jieba segmentation and TF-IDF keywords), loaded once per process on first use (~1 s). */
let loaded: { jieba: Jieba; tfidf: TfIdf } | null = null;
function tools() {
  if (!loaded) {
    const jieba = Jieba.withDict(dict);
    const tfidf = TfIdf.withDict(idf);
    loaded = { jieba, tfidf };
  }
  return loaded;
}

const STOP_WORDS = [
  '我们',
  '你们',
  '他们',
  '这个',
  '那个',
  '一个',
  '一些',
  '什么',
  '怎么',
  '如何',
  '可以',
  '需要',
  '没有',
  '还是',
  '就是',
  '因为',
  '所以',
  '但是',
  '如果',
  '以及',
  '进行',
  '通过',
  '自己',
  '写一篇',
  '文章',
  '一篇',
  '关于',
  '帮我',
  '请帮我',
  '请写',
];

/** Top keywords by TF-IDF (words of at least 2 characters, no digits-only tokens). */
export function keywords(text: string, topK = 8): string[] {
  if (!text.trim()) return [];
  const { jieba, tfidf } = tools();
  return tfidf
    .extractKeywords(jieba, text, topK * 2)
    .map((k) => k.keyword.trim())
    .filter((k) => k.length >= 2 && !/^[\d.]+$/.test(k) && !STOP_WORDS.includes(k))
    .slice(0, topK);
}

export function cut(text: string): string[] {
  return tools().jieba.cut(text, false);
}

/** Sentences, split after Chinese and Western terminal punctuation and at line breaks. */
export function sentences(text: string): string[] {
  return text
    .replace(/\r/g, '')
    .split(/(?<=[。！？!?；;])|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
