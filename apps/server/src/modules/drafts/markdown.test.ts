import { describe, expect, it } from 'vitest';
import { parseBlocks } from './markdown.js';

describe('markdown blocks for .docx export', () => {
  it('splits a document into the blocks the .docx export writes', () => {
    expect(parseBlocks('## 小节\n\n段落 **粗**\n\n1. 甲\n2. 乙\n\n> 引用')).toEqual([
      { type: 'heading', level: 2, text: '小节' },
      { type: 'paragraph', text: '段落 **粗**' },
      { type: 'list', ordered: true, items: ['甲', '乙'] },
      { type: 'quote', text: '引用' },
    ]);
  });
});
