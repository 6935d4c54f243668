import { describe, expect, it } from 'vitest';
import { costLabel, homeTaskFeature } from './points-cost-label';

describe('points shown next to paid actions', () => {
  const dic = { article_deep: 20, article_quick: 5, graphic: 15, title: 0 };
  it('reads the price from the dictionary, says free at 0 and nothing when unpriced', () => {
    expect(costLabel(dic, 'article_deep')).toBe('消耗 20 积分');
    expect(costLabel(dic, 'title')).toBe('免费');
    expect(costLabel(dic, 'ai_image')).toBeNull();
    expect(costLabel(dic, null)).toBeNull();
    expect(costLabel({}, 'article_deep')).toBeNull();
    // Not fooled by inherited keys.
    expect(costLabel(dic, 'toString')).toBeNull();
  });
  it('charges the home task as the server does', () => {
    expect(homeTaskFeature(false, 'deep', null)).toBe('article_deep');
    expect(homeTaskFeature(false, 'quick', null)).toBe('article_quick');
    expect(homeTaskFeature(false, 'rewrite', null)).toBe('article_quick');
    expect(homeTaskFeature(false, 'deep', 'premium_model')).toBe('premium_model');
    expect(homeTaskFeature(true, 'deep', 'premium_model')).toBe('graphic');
  });
});
