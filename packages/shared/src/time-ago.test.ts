import { describe, expect, it } from 'vitest';
import { formatTimeAgo } from './time-ago.js';

// Local wall-clock dates: the rule compares calendar days in the viewer's time zone.
const now = new Date(2026, 4, 20, 15, 30, 0);
const at = (...p: [number, number, number, number, number, number?]) => new Date(p[0], p[1], p[2], p[3], p[4], p[5] ?? 0);

describe('formatTimeAgo (spec 9)', () => {
  it('under 60 s is 刚刚', () => {
    expect(formatTimeAgo(now, now)).toBe('刚刚');
    expect(formatTimeAgo(now.getTime() - 59_999, now)).toBe('刚刚');
  });
  it('under an hour is N分钟前', () => {
    expect(formatTimeAgo(now.getTime() - 60_000, now)).toBe('1分钟前');
    expect(formatTimeAgo(now.getTime() - 59 * 60_000 - 59_000, now)).toBe('59分钟前');
  });
  it('earlier the same day is HH:mm', () => {
    expect(formatTimeAgo(at(2026, 4, 20, 14, 29), now)).toBe('14:29');
    expect(formatTimeAgo(at(2026, 4, 20, 0, 5), now)).toBe('00:05');
  });
  it('the day before is 昨天, even across a month boundary', () => {
    expect(formatTimeAgo(at(2026, 4, 19, 23, 59), now)).toBe('昨天');
    expect(formatTimeAgo(at(2026, 4, 31, 23, 0), at(2026, 5, 1, 9, 0))).toBe('昨天');
  });
  it('earlier this year is MM-DD, another year the full date', () => {
    expect(formatTimeAgo(at(2026, 4, 18, 12, 0), now)).toBe('05-18');
    expect(formatTimeAgo(at(2026, 0, 2, 12, 0), now)).toBe('01-02');
    expect(formatTimeAgo(at(2025, 11, 31, 12, 0), now)).toBe('2025-12-31');
  });
  it('accepts ISO strings as the server sends them', () => {
    expect(formatTimeAgo(new Date(now.getTime() - 5 * 60_000).toISOString(), now)).toBe('5分钟前');
  });
});
