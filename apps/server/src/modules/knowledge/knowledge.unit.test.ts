import { describe, expect, it } from 'vitest';
import { utf8Prefix } from '../files/files.service.js';
import { CHUNK_MAX, chunkPages, DocxTextCounter, highlightRanges, queryTokens, utf8Chars } from './knowledge.text.js';

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

  it('counts a docx text from its XML as it inflates: text elements under any prefix, entities once, split anywhere', () => {
    const xml = Buffer.from(
      '<?xml version="1.0"?><w:document xmlns:w="x"><w:body><w:p><w:r><w:t>城市a</w:t></w:r><w:r><w:t xml:space="preserve"> 公园&amp;</w:t></w:r>' +
        '<w:r><w:tab/><w:t/><w:tbl>不算</w:tbl></w:r></w:p><x:t>晨练</x:t><w:t><![CDATA[藏起来]]></w:t><w:p>段落外</w:p></w:body></w:document>',
    );
    // 城市a (3) + " 公园&" (4) + 晨练 (2) + the CDATA section with its markers (all but its opening '<': 14).
    const expected = 3 + 4 + 2 + '![CDATA[藏起来]]>'.length;
    const whole = new DocxTextCounter();
    whole.feed('word/document.xml', xml);
    expect(whole.chars).toBe(expected);
    expect(whole.bytes).toBe(Buffer.byteLength('城市a 公园&晨练![CDATA[藏起来]]>'));
    // Fed in pieces of every size (a chunk boundary falls inside tags, entities and characters), the count is the same.
    for (const size of [1, 2, 3, 7, 64]) {
      const c = new DocxTextCounter();
      for (let i = 0; i < xml.length; i += size) c.feed('word/document.xml', xml.subarray(i, i + size));
      expect(c.chars, `pieces of ${size}`).toBe(expected);
    }
    // Every part counts (the main part may have any name); a new part starts outside any element.
    const parts = new DocxTextCounter();
    parts.feed('word/document.xml', Buffer.from('<w:t>一二'));
    parts.feed('word/other.xml', Buffer.from('三</w:t><w:t>四</w:t>'));
    expect(parts.chars).toBe(3);
    expect(utf8Chars(Buffer.from('城市a😀'))).toBe(4);
  });
});
