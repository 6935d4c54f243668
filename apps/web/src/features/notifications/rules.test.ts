import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../lib/memory-store';
import { claimFirstPage, commentNotificationDecision, commentNotificationText, createThrottleQueue, releaseFirstPage } from './rules';

const base = {
  permission: 'granted' as NotificationPermission,
  enabled: true,
  donotDisturb: '0',
  mentionTotal: 2,
  lastShownTotal: null,
  displaying: false,
  ownsTab: true,
  now: 1_000_000,
};

describe('commentNotificationDecision', () => {
  it('shows when every rule holds', () => expect(commentNotificationDecision(base)).toEqual({ show: true }));
  it.each([
    [{ permission: 'denied' as NotificationPermission }, 'permission'],
    [{ permission: 'default' as NotificationPermission }, 'permission'],
    [{ enabled: false }, 'disabled'],
    [{ donotDisturb: String(base.now + 60_000) }, 'do-not-disturb'],
    [{ ownsTab: false }, 'not-first-tab'],
    [{ mentionTotal: 0 }, 'no-mentions'],
    [{ lastShownTotal: 2 }, 'unchanged'],
    [{ displaying: true }, 'displaying'],
  ])('skips on %o', (patch, reason) => {
    expect(commentNotificationDecision({ ...base, ...patch })).toEqual({ show: false, reason });
  });
  it('an expired do-not-disturb no longer mutes', () => {
    expect(commentNotificationDecision({ ...base, donotDisturb: String(base.now - 1) })).toEqual({ show: true });
  });
  it('formats title HH:mm and the body', () => {
    expect(commentNotificationText(3, new Date(2025, 0, 1, 9, 5))).toEqual({ title: '09:05', body: '您有3条新的评论消息' });
  });
});

describe('first-page marker', () => {
  it('lets one tab own notifications and hands over after 8 h or release', () => {
    const s = memoryStore();
    const h8 = 8 * 3600_000;
    expect(claimFirstPage(s, 'a', 0)).toBe(true);
    expect(claimFirstPage(s, 'b', 1000)).toBe(false);
    expect(claimFirstPage(s, 'a', 2000)).toBe(true);
    expect(claimFirstPage(s, 'b', 2000 + h8 - 1)).toBe(false);
    expect(claimFirstPage(s, 'b', 2000 + h8)).toBe(true);
    releaseFirstPage(s, 'a');
    expect(s.getItem('notificationFirstPage')).not.toBeNull();
    releaseFirstPage(s, 'b');
    expect(s.getItem('notificationFirstPage')).toBeNull();
  });
});

describe('createThrottleQueue', () => {
  it('shows one item per interval', () => {
    let t = 0;
    const timers: { at: number; fn: () => void }[] = [];
    const shown: [number, string][] = [];
    const q = createThrottleQueue<string>((x) => shown.push([t, x]), {
      intervalMs: 1000,
      now: () => t,
      setTimer: (fn, ms) => timers.push({ at: t + ms, fn }),
    });
    q.push('a');
    q.push('b');
    q.push('c');
    expect(shown).toEqual([[0, 'a']]);
    while (timers.length) {
      timers.sort((x, y) => x.at - y.at);
      const next = timers.shift()!;
      t = next.at;
      next.fn();
    }
    expect(shown).toEqual([
      [0, 'a'],
      [1000, 'b'],
      [2000, 'c'],
    ]);
    t = 2500;
    q.push('d');
    expect(shown.length).toBe(3);
    t = timers[0]!.at;
    timers.shift()!.fn();
    expect(shown[3]).toEqual([3000, 'd']);
  });
});
