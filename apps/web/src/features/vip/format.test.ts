import { describe, expect, it } from 'vitest';
import { countdown, dateTime, signed, vipRemaining, yuan, yuanPlain } from './format';

describe('vip formatting', () => {
  it('formats fen as yuan', () => {
    expect(yuan(1990)).toBe('¥19.90');
    expect(yuan(0)).toBe('¥0.00');
    expect(yuan(-5)).toBe('-¥0.05');
    expect(yuanPlain(3000)).toBe('30');
    expect(yuanPlain(1990)).toBe('19.9');
  });

  it('counts down in mm:ss and stops at zero', () => {
    expect(countdown(299_100)).toBe('05:00');
    expect(countdown(61_000)).toBe('01:01');
    expect(countdown(-3000)).toBe('00:00');
  });

  it('shows dates locally and keeps garbage readable', () => {
    expect(dateTime(null)).toBe('—');
    expect(dateTime('not a date')).toBe('not a date');
    expect(dateTime(new Date(2025, 0, 2, 3, 4).toISOString())).toBe('2025-01-02 03:04');
  });

  it('signs deltas and words VIP time left', () => {
    expect(signed(100)).toBe('+100');
    expect(signed(-20)).toBe('-20');
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(vipRemaining('2025-01-31T00:00:00Z', now)).toBe('剩余30天');
    expect(vipRemaining('2025-01-01T12:00:00Z', now)).toBe('不足1天');
    expect(vipRemaining('2024-12-31T00:00:00Z', now)).toBeNull();
    expect(vipRemaining(null, now)).toBeNull();
  });
});
