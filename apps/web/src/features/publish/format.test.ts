import { describe, expect, it } from 'vitest';
import { contentProblems, formatDateTime, isTerminalConnection, jobStatusLabel, normalizeTopics, textLength } from './format';

const sandboxLimits = { titleMax: 20, titleRequired: true, bodyMax: 1000, imagesMin: 1, imagesMax: 18, topicsMax: 10, schedule: null };

describe('publish format helpers', () => {
  it('normalizes topics', () => expect(normalizeTopics(['#日常', ' 日常 ', '', '##旅行'])).toEqual(['日常', '旅行']));
  it('counts code points', () => expect(textLength('好😀')).toBe(2));
  it('stops polling on bound, expired and failed only', () => {
    expect(['waiting', 'scanned', 'confirmed', 'completed'].map((s) => isTerminalConnection(s as never))).toEqual([false, false, false, false]);
    expect(['bound', 'expired', 'failed'].map((s) => isTerminalConnection(s as never))).toEqual([true, true, true]);
  });
  it('labels a queued job in the future as scheduled', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(jobStatusLabel({ status: 'queued', runAt: '2025-01-01T00:00:00Z' }, now)).toBe('排队中');
    expect(jobStatusLabel({ status: 'queued', runAt: '2025-01-01T00:10:00Z' }, now)).toMatch(/^定时发布 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(jobStatusLabel({ status: 'succeeded', runAt: '2025-01-01T00:10:00Z' }, now)).toBe('发布成功');
  });
  it('formats a missing time as a dash', () => expect(formatDateTime(null)).toBe('—'));
  it('reports problems per platform', () => {
    const list = [{ platformName: '沙箱平台', limits: sandboxLimits }];
    expect(contentProblems({ title: '标题', body: '正文', images: ['data:'], topics: [] }, list)).toEqual([]);
    expect(contentProblems({ title: '', body: '正文', images: [], topics: [] }, list)).toEqual(['沙箱平台：请填写标题；至少1张图片']);
    expect(contentProblems({ title: 'x'.repeat(21), body: '', images: ['a'], topics: [] }, list)).toEqual(['沙箱平台：标题最多20字']);
  });
});
