import { describe, expect, it } from 'vitest';
import { intervalText, pacingHint, scheduleConflict, slotTimeText } from './pacing';

const local = (y: number, mo: number, d: number, h: number, mi: number, s = 0) => new Date(y, mo - 1, d, h, mi, s).getTime();
const slot = (nextSlot: number) => ({
  accountId: 1,
  platform: 'xiaohongshu',
  nextSlot: new Date(nextSlot).toISOString(),
  reason: 'interval' as const,
  minIntervalMs: 2 * 3600_000,
  dailyCap: 5,
  usedToday: 2,
});

describe('publish pacing hints', () => {
  const now = local(2026, 11, 28, 19, 40);

  it('says the next slot as now, today, tomorrow or a date, rounded up to the minute', () => {
    expect(slotTimeText(new Date(now - 5000).toISOString(), now)).toBe('现在');
    expect(slotTimeText(new Date(local(2026, 11, 28, 21, 39, 20)).toISOString(), now)).toBe('今天 21:40');
    expect(slotTimeText(new Date(local(2026, 11, 29, 0, 0)).toISOString(), now)).toBe('明天 00:00');
    expect(slotTimeText(new Date(local(2026, 12, 1, 9, 5)).toISOString(), now)).toBe('12月1日 09:05');
  });

  it('states the rule in Chinese', () => {
    expect(intervalText(2 * 3600_000)).toBe('2 小时');
    expect(intervalText(90 * 60_000)).toBe('1 小时 30 分钟');
    expect(pacingHint('该账号', '小红书', slot(local(2026, 11, 28, 21, 40)), now)).toBe('该账号下一次可发布时间：今天 21:40（小红书建议两次发布间隔 2 小时、每天不超过 5 篇）');
  });

  it('warns about a schedule time before the slot, and only then', () => {
    const s = slot(local(2026, 11, 28, 21, 40));
    expect(scheduleConflict('该账号', s, new Date(local(2026, 11, 28, 21, 0)), now)).toBe('所选时间早于该账号的下一次可发布时间（今天 21:40），请选择这个时间之后');
    expect(scheduleConflict('该账号', s, new Date(local(2026, 11, 28, 21, 40)), now)).toBeNull();
    expect(scheduleConflict('该账号', s, null, now)).toBeNull();
    expect(scheduleConflict('该账号', { ...s, dailyCap: null, minIntervalMs: null }, new Date(now), now)).toBeNull();
  });
});
