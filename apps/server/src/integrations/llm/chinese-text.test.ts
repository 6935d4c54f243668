import { describe, expect, it } from 'vitest';
import { cut, jieba, keywords, tfIdf } from './chinese-text.js';
import { suggestTopics } from '../../modules/publish/tags.js';

describe('chinese-text: one segmenter per process', () => {
  it('hands out the same jieba and TF-IDF instances on every call (each costs tens of MB of native memory)', () => {
    expect(jieba()).toBe(jieba());
    expect(tfIdf()).toBe(tfIdf());
  });

  it('segments and ranks keywords through the shared instances', () => {
    const text = '小红书运营的核心是内容质量，内容质量决定了笔记的推荐量。';
    expect(cut(text)).toEqual(expect.arrayContaining(['运营', '内容', '质量', '笔记']));
    expect(keywords(text, 3)).toEqual(expect.arrayContaining(['质量', '内容']));
    expect(jieba().cut(text, false)).toEqual(cut(text));
    // The publish module's topic suggestions run on the same instances.
    expect(suggestTopics(text, 5)).toEqual(expect.arrayContaining(['质量', '内容', '笔记']));
  });
});
