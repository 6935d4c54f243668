import { describe, expect, it } from 'vitest';
import { markdownToHtml } from './markdown.js';

describe('markdown from model output', () => {
  it('renders headings, emphasis, lists, quotes and http(s) links', () => {
    const html = markdownToHtml('# 标题\n\n第一段 **加粗** [来源](https://example.com/a)\n\n- 一\n- 二\n\n> 引用');
    expect(html).toContain('<h1>标题</h1>');
    expect(html).toContain('<strong>加粗</strong>');
    expect(html).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer">来源</a>');
    expect(html).toContain('<li>一</li>');
    expect(html).toContain('<blockquote>');
  });

  it('never lets raw HTML or script links through', () => {
    const html = markdownToHtml('<script>alert(1)</script>\n\n[点我](javascript:alert(1)) ![x](javascript:alert(2)) <img src=x onerror=alert(3)>');
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('点我');
  });
});
