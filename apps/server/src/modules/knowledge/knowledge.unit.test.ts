import { describe, expect, it } from 'vitest';
import { utf8Prefix } from '../files/files.service.js';
import { CHUNK_MAX, chunkPages, highlightRanges, queryTokens } from './knowledge.text.js';

describe('knowledge text helpers', () => {
  it('utf8Prefix never ends inside a character and drops at most 3 bytes', () => {
    const full = Buffer.from('城市a公园😀的晨练é');
    for (let n = 0; n <= full.length; n++) {
      const p = utf8Prefix(full.subarray(0, n));
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(p), `prefix of ${n}`).not.toThrow();
      expect(n - p.length).toBeLessThanOrEqual(3);
    }
  });

  it('chunks on sentence boundaries within the size bounds, with overlap, headings labelling what follows', () => {
    const body = Array.from({ length: 60 }, (_, i) => `这是第${i}个句子，用来测试分块。`).join('');
    const text = `# 第一部分\n${body}\n## 第二部分\n${body}`;
    const { chunks } = chunkPages([{ page: null, text }]);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(text.slice(c.charStart, c.charEnd)).toBe(c.text);
      expect(c.text.length).toBeLessThanOrEqual(CHUNK_MAX);
      // Every chunk ends at a sentence end or a line end.
      expect(/[。\n]$|[^\n]$/.test(c.text) && (c.text.endsWith('。') || text[c.charEnd] === '\n' || c.charEnd === text.length)).toBe(true);
    }
    // Consecutive chunks of one section overlap; a heading starts a fresh chunk.
    expect(chunks[1]!.charStart).toBeLessThan(chunks[0]!.charEnd);
    const second = chunks.find((c) => c.text.startsWith('## 第二部分'))!;
    expect(second.heading).toBe('第二部分');
    expect(chunks[chunks.indexOf(second) - 1]!.heading).toBe('第一部分');
  });

  it('query words and their marks', () => {
    expect(queryTokens('新能源汽车的发展')).toEqual(expect.arrayContaining(['新能源', '汽车', '发展']));
    expect(highlightRanges('新能源汽车发展，发展', ['新能源', '汽车', '发展'])).toEqual([
      [0, 7],
      [8, 10],
    ]);
  });
});
