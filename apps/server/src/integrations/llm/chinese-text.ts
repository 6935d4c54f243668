import { createRequire } from 'node:module';
import { Jieba, TfIdf } from '@node-rs/jieba';

const require = createRequire(import.meta.url);

/** The jieba dictionaries (~11 MB), read on first use: requiring `@node-rs/jieba/dict.js` reads both files at once. */
const dictionaries = () => require('@node-rs/jieba/dict.js') as { dict: Buffer; idf: Buffer };

let segmenter: Jieba | null = null;
let weights: TfIdf | null = null;

/**
 * The one jieba segmenter of the process, built on first use (~100 ms): each instance holds ~38 MB of native memory,
 * and topics, knowledge, tags and the writing helpers used to build their own (issue 11: idle RSS).
 */
export function jieba(): Jieba {
  return (segmenter ??= Jieba.withDict(dictionaries().dict));
}

/** The one TF-IDF keyword extractor of the process (~32 MB native), built on first use. */
export function tfIdf(): TfIdf {
  return (weights ??= TfIdf.withDict(dictionaries().idf));
}

/** Chinese text helpers (jieba segmentation and TF-IDF keywords). */
const tools = () => ({ jieba: jieba(), tfidf: tfIdf() });

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
  return jieba().cut(text, false);
}

/** Sentences, split after Chinese and Western terminal punctuation and at line breaks. */
export function sentences(text: string): string[] {
  return text
    .replace(/\r/g, '')
    .split(/(?<=[。！？!?；;])|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
