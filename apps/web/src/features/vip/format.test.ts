import { describe, expect, it } from 'vitest';
import { balanceVerdict, countdown, dateTime, planButtonLabel, signed, yuan, yuanPlain } from './format';

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

  it('signs deltas', () => {
    expect(signed(100)).toBe('+100');
    expect(signed(-20)).toBe('-20');
  });

  it('offers renewal, not a first subscription, to a member', () => {
    expect(planButtonLabel(false)).toBe('立即开通');
    expect(planButtonLabel(true)).toBe('续费会员');
  });

  it('judges the balance against what was tried, else against every paid feature', () => {
    // /integralEmpty opened directly with 990 points: nothing to be short of.
    expect(balanceVerdict(990, null, 20)).toBe('enough');
    expect(balanceVerdict(990, undefined, undefined)).toBe('enough');
    expect(balanceVerdict(5, 20, 20)).toBe('short');
    expect(balanceVerdict(20, 20, 20)).toBe('enough');
    expect(balanceVerdict(10, null, 20)).toBe('short');
    expect(balanceVerdict(0, null, undefined)).toBe('short');
    expect(balanceVerdict(null, 20, 20)).toBe('unknown');
  });
});
