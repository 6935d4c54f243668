import { describe, expect, it } from 'vitest';
import { ledgerEntrySchema } from './api/vip.js';
import { chinaDay, ledgerEntryLabel, ledgerKindLabels, ledgerKinds, pointsFeatureLabels, pointsFeatures, vipDaysLeft, vipRemainingText } from './points.js';

const hasCjk = (s: string) => /[\u3400-\u9fff]/.test(s);

describe('ledger labels', () => {
  it('every ledger kind and every built-in feature has a Chinese label', () => {
    for (const kind of ledgerKinds) expect(hasCjk(ledgerKindLabels[kind]), kind).toBe(true);
    for (const f of pointsFeatures) expect(hasCjk(pointsFeatureLabels[f]), f).toBe(true);
    expect(Object.keys(ledgerKindLabels).sort()).toEqual([...ledgerKinds].sort());
    // The API schema accepts exactly the labelled kinds.
    expect(ledgerEntrySchema.shape.kind.options).toEqual([...ledgerKinds]);
  });

  it('turns machine reasons into words and keeps written ones', () => {
    expect(ledgerEntryLabel({ kind: 'charge', reason: 'article_deep' })).toBe('深度写作');
    expect(ledgerEntryLabel({ kind: 'charge', reason: 'ability' })).toBe('写作能力（润色/扩写等）');
    expect(ledgerEntryLabel({ kind: 'charge', reason: 'title' })).toBe('标题生成');
    expect(ledgerEntryLabel({ kind: 'refund', reason: 'refund:article_quick' })).toBe('快速写作失败退还');
    expect(ledgerEntryLabel({ kind: 'grant', reason: '每日登录奖励' })).toBe('每日登录奖励');
    expect(ledgerEntryLabel({ kind: 'welcome', reason: '新用户欢迎积分' })).toBe('新用户欢迎积分');
    expect(ledgerEntryLabel({ kind: 'welcome', reason: 'welcome' })).toBe('欢迎积分');
    // An operator-added feature: the dictionary names it; without one the kind still reads as Chinese.
    expect(ledgerEntryLabel({ kind: 'charge', reason: 'video' }, { video: '视频脚本' })).toBe('视频脚本');
    expect(ledgerEntryLabel({ kind: 'refund', reason: 'refund:video' }, { video: '视频脚本' })).toBe('视频脚本失败退还');
    expect(ledgerEntryLabel({ kind: 'charge', reason: 'video' })).toBe('消耗');
    expect(ledgerEntryLabel({ kind: 'deduct', reason: '' })).toBe('扣除');
  });
});

describe('VIP days left', () => {
  // 2025-01-01 09:00 in Shanghai.
  const morning = Date.parse('2025-01-01T01:00:00Z');
  // 2025-01-01 23:30 in Shanghai.
  const lateNight = Date.parse('2025-01-01T15:30:00Z');

  it('counts Shanghai calendar days to the expiry date, whatever the hour', () => {
    // Bought at 09:00 for 30 days: expires 2025-01-31 09:00; seen at 09:00 or at 23:30 the same day, it is 30.
    const expiry = new Date(morning + 30 * 86_400_000).toISOString();
    expect(vipDaysLeft(expiry, morning)).toBe(30);
    expect(vipDaysLeft(expiry, morning - 60_000)).toBe(30);
    expect(vipDaysLeft(expiry, morning + 1)).toBe(30);
    expect(vipDaysLeft(expiry, lateNight)).toBe(30);
    expect(vipRemainingText(expiry, lateNight)).toBe('剩余30天');
    // The next Shanghai morning (UTC is still on the 1st at 16:30Z): one day less.
    expect(vipDaysLeft(expiry, Date.parse('2025-01-01T16:30:00Z'))).toBe(29);
  });

  it('says today, and nothing for none or past', () => {
    const tonight = '2025-01-01T14:00:00Z'; // 22:00 Shanghai
    expect(vipDaysLeft(tonight, morning)).toBe(0);
    expect(vipRemainingText(tonight, morning)).toBe('今天到期');
    expect(vipDaysLeft('2024-12-31T00:00:00Z', morning)).toBeNull();
    expect(vipDaysLeft(null, morning)).toBeNull();
    expect(vipDaysLeft('garbage', morning)).toBeNull();
    expect(vipRemainingText(undefined, morning)).toBeNull();
  });

  it('names the Shanghai day of an instant', () => {
    expect(chinaDay('2025-01-01T15:59:59Z')).toBe('2025-01-01');
    expect(chinaDay('2025-01-01T16:00:00Z')).toBe('2025-01-02');
  });
});
