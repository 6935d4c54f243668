import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserProfile } from '@inkstone/shared';
import { memoryStore } from '../../lib/memory-store';

/**
 * Spec section 3, client-side state, through the code the app runs: the profile from nowLoginUser or a login reply goes
 * through applyProfile into the stores; the stores are created as the app creates them, over the browser's localStorage
 * (a memory store here: the unit project runs in node). Each test loads fresh modules over its own storage.
 */
let storage: ReturnType<typeof memoryStore>;
beforeEach(() => {
  vi.resetModules();
  storage = memoryStore();
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('window', { location: { search: '', href: 'https://app.example/' } });
  vi.stubGlobal('fetch', () => new Promise(() => {}));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const profile = (patch: Partial<UserProfile> = {}, vip: Partial<UserProfile['vipInfo']> = {}): UserProfile => ({
  id: 42,
  uid: 'u42',
  username: 'creator42',
  nickname: '写作的人',
  avatar: null,
  phone: '138****0000',
  creatorType: 'personal',
  firstCreatePersona: true,
  creationPlatform: ['xiaohongshu', 'wechat'],
  industries: ['科技', '教育'],
  customIndustries: ['骑行'],
  sysTrackSelected: '科技|教育 | 母婴',
  userTrackSelected: '周末骑行||城市散步',
  userProfile: true,
  wxBound: false,
  inviteCode: 'ABC123',
  createdAt: '2026-01-01T00:00:00.000Z',
  vipInfo: { vipType: 'vip', isVip: true, expiredTime: '2026-12-31 23:59:59', openPayment: true, score: 120, totalScore: 300, ...vip },
  ...patch,
});

async function load() {
  const { applyProfile } = await import('./session');
  const { usePersonalInfoStore } = await import('../../stores/personal-info');
  const { useTrackStore } = await import('../../stores/track');
  const { useUserVipStore } = await import('../../stores/user-vip');
  const { useGlobalStore } = await import('../../stores/global');
  const { useNotificationStore } = await import('../../stores/notification');
  return { applyProfile, usePersonalInfoStore, useTrackStore, useUserVipStore, useGlobalStore, useNotificationStore };
}

describe('the user profile as the client reads it (spec 3)', () => {
  it('splits sysTrackSelected and userTrackSelected on the pipe character into the track lists', async () => {
    const { applyProfile, useTrackStore } = await load();
    applyProfile(profile());
    expect(useTrackStore.getState().sysTrack).toEqual(['科技', '教育', '母婴']);
    expect(useTrackStore.getState().userTrack).toEqual(['周末骑行', '城市散步']);
    expect(useTrackStore.getState().isCreatorType).toBe(true);
    applyProfile(profile({ sysTrackSelected: '', userTrackSelected: '单个赛道', creatorType: null }));
    expect(useTrackStore.getState().sysTrack).toEqual([]);
    expect(useTrackStore.getState().userTrack).toEqual(['单个赛道']);
    expect(useTrackStore.getState().isCreatorType).toBe(false);
  });

  it('persists only industries and customIndustries of the personal info', async () => {
    const { applyProfile, usePersonalInfoStore } = await load();
    applyProfile(profile());
    usePersonalInfoStore.getState().setInfo({ platform: 'xiaohongshu' });
    const info = usePersonalInfoStore.getState();
    // Every field is held while the app runs...
    expect(info).toMatchObject({
      nickname: '写作的人',
      creatorType: 'personal',
      industries: ['科技', '教育'],
      customIndustries: ['骑行'],
      userPlatforms: ['xiaohongshu', 'wechat'],
      platform: 'xiaohongshu',
      firstCreatePersona: true,
    });
    // ...but only the industry choices are written down.
    const saved = JSON.parse(storage.getItem('personal-info') ?? 'null') as { state: Record<string, unknown> };
    expect(saved.state).toEqual({ industries: ['科技', '教育'], customIndustries: ['骑行'] });
    expect(storage.getItem('personal-info')).not.toContain('写作的人');

    // A reload brings back the industries and nothing else.
    vi.resetModules();
    const again = await load();
    await again.usePersonalInfoStore.persist.rehydrate();
    expect(again.usePersonalInfoStore.getState()).toMatchObject({
      nickname: '',
      creatorType: null,
      industries: ['科技', '教育'],
      customIndustries: ['骑行'],
      userPlatforms: [],
      platform: null,
      firstCreatePersona: false,
    });
  });

  it('VIP info: isVip only for vipType vip; hwPoints from score, else totalScore; expiredTime, openPayment', async () => {
    const { applyProfile, useUserVipStore } = await load();
    applyProfile(profile());
    expect(useUserVipStore.getState()).toMatchObject({ isVip: true, vipType: 'vip', hwPoints: 120, expiredTime: '2026-12-31 23:59:59', openPayment: true });
    // The server's own isVip is not what counts: vipType is.
    applyProfile(profile({}, { vipType: 'free', isVip: true, score: null as unknown as number, totalScore: 300 }));
    expect(useUserVipStore.getState()).toMatchObject({ isVip: false, vipType: 'free', hwPoints: 300 });
  });

  it('the login result: the profile is kept in localStorage as account; userProfile says whether the profile was provided', async () => {
    const { applyProfile, useGlobalStore } = await load();
    expect(useGlobalStore.getState().modalVisibleMap.isProvidedProfile).toBe('UNKNOWN');
    applyProfile(profile({ userProfile: false }));
    expect(JSON.parse(storage.getItem('account')!)).toMatchObject({ id: 42, nickname: '写作的人' });
    expect(useGlobalStore.getState().modalVisibleMap.isProvidedProfile).toBe(false);
    applyProfile(profile());
    expect(useGlobalStore.getState().modalVisibleMap.isProvidedProfile).toBe(true);
  });
});

describe('store defaults (spec 3)', () => {
  it('the notification store starts enabled with do-not-disturb 0 on a device that stored nothing', async () => {
    const { useNotificationStore } = await load();
    expect(useNotificationStore.getState()).toMatchObject({ notificationEnanle: true, donotDisturb: '0', unreadMap: {} });
  });

  it('the notification store keeps what the device stored', async () => {
    storage.setItem('notificationEnable', 'false');
    storage.setItem('donotDisturb', '1767225600000');
    const { useNotificationStore } = await load();
    expect(useNotificationStore.getState()).toMatchObject({ notificationEnanle: false, donotDisturb: '1767225600000' });
  });

  it('login state and isProvidedProfile start UNKNOWN; no modal is open', async () => {
    const { useGlobalStore } = await load();
    const { isLogin, isProvidedProfile, ...modals } = useGlobalStore.getState().modalVisibleMap;
    expect([isLogin, isProvidedProfile]).toEqual(['UNKNOWN', 'UNKNOWN']);
    expect(Object.values(modals).every((open) => open === false)).toBe(true);
  });
});
