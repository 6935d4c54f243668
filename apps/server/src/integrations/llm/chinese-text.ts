import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Jieba, TfIdf } from '@node-rs/jieba';

const require = createRequire(import.meta.url);

/**
 * One of jieba's dictionaries (dict.txt ~5 MB, idf.txt ~6 MB), read when its user is built and then dropped:
 * `@node-rs/jieba/dict.js` reads both at once and the module cache keeps them for the life of the process.
 */
const dictionary = (file: 'dict.txt' | 'idf.txt') => readFileSync(jiebaFiles().dictionary(file));

/** Where the jieba package and its dictionaries are, for this process and for a child that segments apart. */
export function jiebaFiles() {
  return {
    module: require.resolve('@node-rs/jieba'),
    dictionary: (file: 'dict.txt' | 'idf.txt') => path.join(path.dirname(require.resolve('@node-rs/jieba/dict.js')), file),
  };
}

/** The native module itself (~6 MB), loaded with the first segmenter: an idle server has no use for it. */
const native = () => require('@node-rs/jieba') as typeof import('@node-rs/jieba');

let segmenter: Jieba | null = null;
let weights: TfIdf | null = null;

/**
 * The one jieba segmenter of the process, built on first use (~100 ms): each instance holds ~38 MB of native memory,
 * and topics, knowledge, tags and the writing helpers used to build their own (issue 11: idle RSS). Unattended work
 * uses segmenter-apart.ts instead.
 */
export function jieba(): Jieba {
  return (segmenter ??= native().Jieba.withDict(dictionary('dict.txt')));
}

/** The one TF-IDF keyword extractor of the process (~32 MB native), built on first use. */
export function tfIdf(): TfIdf {
  return (weights ??= native().TfIdf.withDict(dictionary('idf.txt')));
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
