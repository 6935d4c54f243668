import { describe, expect, it } from 'vitest';
import { buildTaskContent, startProblem, upcomingFestivals } from './home-helpers';
import { countWords } from './markdown';

describe('home helpers', () => {
  it('combines the two documents by mode', () => {
    expect(buildTaskContent('deep', ' 主题 ', '')).toBe('主题');
    expect(buildTaskContent('quick', '主题', '素材')).toBe('主题\n\n补充材料：\n素材');
    expect(buildTaskContent('imitate', '新主题', '范文')).toBe('主题：新主题\n\n示例文本：\n范文');
    expect(buildTaskContent('rewrite', '', '原文')).toBe('原文');
    expect(buildTaskContent('deep', 'x'.repeat(6000), '').length).toBe(5000);
  });
  it('names what is missing', () => {
    expect(startProblem('deep', '', '')).toBe('请先输入写作主题');
    expect(startProblem('imitate', '主题', '')).toBe('请粘贴要仿写的范文');
    expect(startProblem('rewrite', '', ' ')).toBe('请粘贴需要改写的内容');
    expect(startProblem('deep', '主题', '')).toBeNull();
  });
  it('lists upcoming festivals, including a holiday still running', () => {
    const f = (date: string, name: string, endDate: string | null = null) => ({ date, name, endDate, type: 'traditional' as const, suggestion: '' });
    const out = upcomingFestivals([f('2025-10-06', '中秋'), f('2025-10-01', '国庆', '2025-10-08'), f('2025-09-01', '旧')], '2025-10-03');
    expect(out.map((x) => x.name)).toEqual(['国庆', '中秋']);
  });
});

describe('countWords', () => {
  it('counts CJK characters and latin words', () => {
    expect(countWords('你好，world 2025!')).toBe(4);
  });
});
