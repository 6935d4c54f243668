import { describe, expect, it } from 'vitest';
import { citationAt, referenceLinks } from './citations';

const article = [
  '一、动力电池回收',
  '动力电池回收成为新的产业机会[1]，城市更新同步推进[2]。',
  '参考资料',
  '[1] 行业报告.pdf 第2页 /pdfDetail?fileId=7&page=2&q=%E5%8A%A8',
  '[2] 行业报告.pdf 第3页 /pdfDetail?fileId=7&page=3&q=%E8%80%81',
].join('\n');

describe('knowledge citations in an article', () => {
  const links = referenceLinks(article);

  it('reads the reference list', () => {
    expect([...links]).toEqual([
      [1, '/pdfDetail?fileId=7&page=2&q=%E5%8A%A8'],
      [2, '/pdfDetail?fileId=7&page=3&q=%E8%80%81'],
    ]);
    expect(referenceLinks('[1] 网页 https://example.com/a').size).toBe(0);
  });

  it('a click on a marker or a reference line finds its link; elsewhere nothing', () => {
    const body = '动力电池回收成为新的产业机会[1]，城市更新同步推进[2]。';
    expect(citationAt(body, body.indexOf('[1]') + 1, links)).toBe(links.get(1));
    expect(citationAt(body, body.indexOf('[2]') + 3, links)).toBe(links.get(2));
    expect(citationAt(body, 2, links)).toBeNull();
    const refs = article.split('\n').slice(3).join('\n');
    expect(citationAt(refs, refs.indexOf('[2]') + 8, links)).toBe(links.get(2));
    expect(citationAt('见[9]', 2, links)).toBeNull();
  });
});
