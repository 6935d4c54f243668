import { describe, expect, it } from 'vitest';
import {
  contentProblems,
  formatDateTime,
  htmlImages,
  imageProblem,
  imageRule,
  isTerminalConnection,
  jobStatusLabel,
  jobStatusTagColor,
  normalizeTopics,
  sniffFileType,
  textLength,
} from './format';

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
    expect(jobStatusLabel({ status: 'succeeded', runAt: '2025-01-01T00:10:00Z', platformStatus: 'draft' }, now)).toBe('已存草稿');
    expect(jobStatusLabel({ status: 'succeeded', runAt: '2025-01-01T00:10:00Z', platformStatus: 'reviewing' }, now)).toBe('审核中');
    expect(jobStatusLabel({ status: 'succeeded', runAt: '2025-01-01T00:10:00Z', platformStatus: 'rejected' }, now)).toBe('未通过');
    expect(jobStatusTagColor({ status: 'succeeded', platformStatus: 'rejected' })).toBe('error');
    expect(jobStatusTagColor({ status: 'succeeded', platformStatus: 'published' })).toBe('success');
  });
  it('formats a missing time as a dash', () => expect(formatDateTime(null)).toBe('—'));
  it('reports problems per platform', () => {
    const list = [{ platformName: '沙箱平台', limits: sandboxLimits }];
    expect(contentProblems({ title: '标题', body: '正文', images: ['data:'], topics: [] }, list)).toEqual([]);
    expect(contentProblems({ title: '', body: '正文', images: [], topics: [] }, list)).toEqual(['沙箱平台：请填写标题；至少1张图片']);
    expect(contentProblems({ title: 'x'.repeat(21), body: '', images: ['a'], topics: [] }, list)).toEqual(['沙箱平台：标题最多20字']);
  });
});

describe('image rule known before publishing', () => {
  const wechat = { platformName: '微信公众号', limits: { imagesMin: 0 } };
  const sandbox = { platformName: '沙箱平台', limits: { imagesMin: 1 } };
  it('names the platforms that need more images and the count', () => {
    expect(imageRule([sandbox, wechat], 0)).toEqual({ min: 1, platformNames: ['沙箱平台'], message: '沙箱平台要求至少 1 张图片' });
    expect(imageRule([{ platformName: '甲', limits: { imagesMin: 3 } }, sandbox], 2)).toMatchObject({ min: 3, platformNames: ['甲'] });
  });
  it('is met once there are enough images, or when no chosen platform needs any', () => {
    expect(imageRule([sandbox], 1)).toBeNull();
    expect(imageRule([wechat], 0)).toBeNull();
    expect(imageRule([], 0)).toBeNull();
  });
  it('reads the images of an article in order', () => {
    expect(htmlImages('<p>a</p><img src="/uploads/images/a.png"><p><img alt="" src=\'https://x/b.jpg\'></p><img src="/uploads/images/a.png">')).toEqual([
      '/uploads/images/a.png',
      'https://x/b.jpg',
    ]);
    expect(htmlImages('<p>没有图</p>')).toEqual([]);
  });
});

describe('image checks (spec 5)', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]);
  const max = 20 * 1024 * 1024;
  it('sniffs signatures', () => {
    expect(sniffFileType(png)).toBe('png');
    expect(sniffFileType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffFileType(new Uint8Array([0x47, 0x49, 0x46, 0x38]))).toBe('gif');
    expect(sniffFileType(new TextEncoder().encode('hello'))).toBe('txt');
  });
  it('applies the messages in order', () => {
    expect(imageProblem({ type: 'image/png', name: 'a.png', size: 10 }, 'png', max)).toBeNull();
    expect(imageProblem({ type: 'image/jpeg', name: 'a.jpg', size: 10 }, 'png', max)).toBe('文件类型不匹配');
    expect(imageProblem({ type: 'application/pdf', name: 'a.pdf', size: 10 }, 'pdf', max)).toBe('请上传jpg、jpeg、png、gif格式的文件');
    expect(imageProblem({ type: 'image/gif', name: 'a.gif', size: max + 1 }, 'gif', max)).toBe('请上传20MB以内的文件');
    expect(imageProblem({ type: '', name: 'a.jpg', size: 10 }, 'jpeg', max)).toBeNull();
  });
});
