import { describe, expect, it } from 'vitest';
import { memoryStore } from './memory-store';
import { ensureDeviceId, rememberParams, touchDailyMarker, withoutParam } from './startup-params';

describe('rememberParams', () => {
  it('stores the remembered parameters and nothing else', () => {
    const s = memoryStore();
    rememberParams('?channelid=c1&recallActivity=r&bd_vid=b&qhclickid=q&msclkid=m&accessToken=t&scene=s&sparkNavigate=1&other=x', s);
    expect(s.dump()).toEqual({
      channelid: 'c1',
      channelId: 'c1',
      recallActivity: 'r',
      bd_vid: 'b',
      qhclickid: 'q',
      msclkid: 'm',
      accessToken: 't',
      scene: 's',
      sparkNavigate: '1',
    });
  });
  it('keeps an invitation code for the next login', () => {
    const s = memoryStore();
    rememberParams('?invitationCode=ABC', s);
    expect(s.getItem('invitationCode')).toBe('ABC');
  });
});

describe('withoutParam', () => {
  it('removes only the named parameter', () => {
    expect(withoutParam('http://h/knowledge?accessToken=abc&sparkNavigate=1#x', 'accessToken')).toBe('/knowledge?sparkNavigate=1#x');
    expect(withoutParam('http://h/?accessToken=abc', 'accessToken')).toBe('/');
  });
});

describe('device id and daily marker', () => {
  it('creates the duid once', () => {
    const s = memoryStore();
    expect(ensureDeviceId(s, () => 'id-1')).toBe('id-1');
    expect(ensureDeviceId(s, () => 'id-2')).toBe('id-1');
  });
  it('removes the previous day marker on the first load of a day', () => {
    const s = memoryStore({ 'dailyMarker:2025-01-01': '1', keep: 'x' });
    expect(touchDailyMarker(s, new Date(2025, 0, 2, 9))).toBe(true);
    expect(s.getItem('dailyMarker:2025-01-01')).toBeNull();
    expect(s.getItem('dailyMarker:2025-01-02')).not.toBeNull();
    expect(s.getItem('keep')).toBe('x');
    expect(touchDailyMarker(s, new Date(2025, 0, 2, 18))).toBe(false);
  });
});
