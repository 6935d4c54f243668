import { describe, expect, it } from 'vitest';
import { formatHeat } from './format';
import { topicPrompt } from './write-this';

describe('topic helpers', () => {
  it('formats heat as the hot lists do', () => {
    expect(formatHeat(12_340_000)).toBe('1234.0万');
    expect(formatHeat(350_000_000)).toBe('3.5亿');
    expect(formatHeat(9_999)).toBe('9999');
    expect(formatHeat(0)).toBe('');
  });

  it('写这个 puts the topic and the chosen angle on top, background and source below', () => {
    const subject = { title: '今冬首场寒潮来袭', summary: '多地气温骤降', url: 'https://s.weibo.com/weibo?q=x' };
    expect(topicPrompt(subject)).toEqual({ top: '选题：今冬首场寒潮来袭', bottom: '背景：多地气温骤降\n来源：https://s.weibo.com/weibo?q=x' });
    const withAngle = topicPrompt({ title: '冬季露营' }, { angle: '实用清单', title: '冬季露营：这5件事最值得知道', hook: '先收藏这份清单。' });
    expect(withAngle.top).toBe('选题：冬季露营\n角度：实用清单\n标题参考：冬季露营：这5件事最值得知道\n开头参考：先收藏这份清单。');
    expect(withAngle.bottom).toBe('');
  });
});
