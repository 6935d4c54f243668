import { ErrorCode, type LoginResult, type UserProfile } from '@inkstone/shared';
import { authApi } from '../../api/auth';
import { isApiError } from '../../api/request';
import { topicApi } from '../../api/topic';
import { userApi } from '../../api/user';
import { vipApi } from '../../api/vip';
import { hasSparkNavigate } from '../../api/error-policy';
import { LS, lsGet, lsRemove, lsSet } from '../../lib/storage-keys';
import { navigateTo } from '../../lib/navigation';
import { useGlobalStore } from '../../stores/global';
import { usePersonalInfoStore } from '../../stores/personal-info';
import { splitTracks, useTrackStore } from '../../stores/track';
import { useNotificationStore } from '../../stores/notification';
import { pointsFrom, useUserVipStore } from '../../stores/user-vip';
import { setFlagUser } from '../flags/flags';
import { settle } from '../../api/request';

const global = () => useGlobalStore.getState();

export function readCachedAccount(): UserProfile | null {
  const raw = lsGet(LS.account);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as UserProfile;
  } catch {
    return null;
  }
}

/** Copies the profile into the stores that read it (spec section 3, "User profile fields read"). */
export function applyProfile(user: UserProfile): void {
  lsSet(LS.account, JSON.stringify(user));
  usePersonalInfoStore.getState().setInfo({
    nickname: user.nickname,
    creatorType: user.creatorType,
    industries: user.industries,
    customIndustries: user.customIndustries,
    userPlatforms: user.creationPlatform,
    firstCreatePersona: user.firstCreatePersona,
  });
  useTrackStore.getState().setTracks({
    sysTrack: splitTracks(user.sysTrackSelected),
    userTrack: splitTracks(user.userTrackSelected),
    isCreatorType: Boolean(user.creatorType),
  });
  const vip = user.vipInfo;
  useUserVipStore.getState().setVip({
    vipType: vip.vipType,
    expiredTime: vip.expiredTime,
    openPayment: vip.openPayment,
    hwPoints: pointsFrom(vip),
  });
  global().setProvidedProfile(user.userProfile);
  // The profile-fill prompt is decided in loadSettings: a user who chose "稍后填写" is not asked again.
  setFlagUser({ id: user.id });
}

/** Login succeeded (any method): store the session and run the logged-in start-up. */
export function storeSession(result: LoginResult): void {
  lsSet(LS.tokenName, result.tokenName);
  lsSet(LS.tokenValue, result.tokenValue);
  lsRemove(LS.pendingInvitationCode);
  applyProfile(result.user);
  global().closeModal('login');
  global().setLogin(true);
  settle(afterLogin());
}

/** 401/430 from any call (spec section 4). */
export function authLost(openModal: boolean): void {
  lsRemove(LS.account);
  lsRemove(LS.tokenValue);
  global().setLogin(false);
  global().setProvidedProfile('UNKNOWN');
  useUserVipStore.getState().clear();
  setFlagUser(null);
  if (openModal) global().openModal('login');
}

export async function logout(): Promise<void> {
  try {
    await authApi.logout(lsGet(LS.duid) ?? undefined);
  } catch {
    // The local session ends regardless.
  }
  authLost(false);
  global().setUnreadNoticeNum(0);
  usePersonalInfoStore.getState().clear();
}

async function loadPoints(): Promise<void> {
  try {
    const s = await vipApi.userScore();
    useUserVipStore.getState().setVip({
      hwPoints: pointsFrom(s),
      // The reply is {score, totalScore} (shared userScoreSchema); VIP state comes from /vip/user/info.
      pointsKnown: true,
    });
  } catch (e) {
    // 1002 while the VIP module is not deployed: no balance is shown, silently.
    if (!(isApiError(e) && e.code === ErrorCode.NOT_FOUND)) useUserVipStore.getState().setVip({ pointsKnown: false });
  }
}

export async function loadTracks(): Promise<void> {
  try {
    const data = await topicApi.trackInfo();
    useTrackStore
      .getState()
      .setTracks({ trackData: data.trackData, customTrackData: data.customTrackData, isCreatorType: data.isCreatorType, sysTrack: data.sysTrack, userTrack: data.userTrack });
  } catch {
    // Background call: the profile's sysTrackSelected/userTrackSelected stay in the store.
  }
}

async function loadSettings(): Promise<void> {
  try {
    const list = await userApi.settings();
    const n = useNotificationStore.getState();
    for (const item of list) {
      if (item.settingKey === 'notificationEnable') n.setEnable(item.settingValue !== 'false');
      if (item.settingKey === 'doNotDisturb') n.setDonotDisturb(item.settingValue || '0');
      if (item.settingKey === 'notifyComment') n.setKinds({ comment: item.settingValue !== 'false' });
      if (item.settingKey === 'notifyPublish') n.setKinds({ publish: item.settingValue !== 'false' });
      if (item.settingKey === 'notifySystem') n.setKinds({ system: item.settingValue !== 'false' });
    }
    // Asked once: without a profile, and only until the user has dismissed the prompt.
    const dismissed = list.some((item) => item.settingKey === 'profilePromptDismissed' && item.settingValue === 'true');
    if (!dismissed && global().modalVisibleMap.isProvidedProfile === false) global().openModal('profileFill');
  } catch {
    // Background call: defaults stay.
  }
  useNotificationStore.getState().setSettingsLoaded(true);
}

/** allHwPointDic: feature -> points, from /vip/score/point/consume; every paid action shows its price from here. */
export async function loadPointDic(): Promise<void> {
  try {
    const list = await vipApi.pointCosts();
    useUserVipStore.getState().setVip({ allHwPointDic: Object.fromEntries(list.map((c) => [c.feature, c.point])) });
  } catch {
    // Background call: prices stay unknown and no price is shown.
  }
}

async function loadGlobalSetting(): Promise<void> {
  try {
    const g = await userApi.globalSetting();
    global().setUserReward({ dailyReward: g.activeReward, returnReward: g.autoRenewalDays, logo: g.logo });
  } catch {
    global().setUserReward(null);
  }
}

async function recallActivity(): Promise<void> {
  const channel = lsGet('recallActivity');
  if (!channel) return;
  try {
    await userApi.recallChannel(channel);
  } catch {
    // Not deployed yet or already recorded; the marker is kept only for one try.
  }
  lsRemove('recallActivity');
}

function askNotificationPermission(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => {});
}

/** Logged-in start-up (spec section 4); polling starts from the shell once isLogin is true. */
export async function afterLogin(): Promise<void> {
  askNotificationPermission();
  await Promise.all([loadPoints(), loadPointDic(), loadTracks(), loadGlobalSetting(), loadSettings(), recallActivity()]);
}

async function tokenLogin(accessToken: string): Promise<void> {
  const scene = lsGet('scene') ?? undefined;
  lsRemove(LS.accessToken);
  lsRemove('scene');
  try {
    const result = await authApi.sparkLogin(accessToken, scene);
    storeSession(result);
    if (!hasSparkNavigate(window.location.search)) navigateTo('/', { replace: true });
  } catch {
    global().setLogin(false);
    global().openModal('login');
  }
}

let booted = false;

/** Decides the login state once at start-up. */
export async function bootSession(): Promise<void> {
  if (booted) return;
  booted = true;
  const accessToken = lsGet(LS.accessToken);
  const hasToken = Boolean(lsGet(LS.tokenValue));
  if (accessToken && !hasToken) return tokenLogin(accessToken);
  if (accessToken) lsRemove(LS.accessToken);
  if (!hasToken) {
    global().setLogin(false);
    return;
  }
  try {
    const user = await authApi.nowLoginUser();
    applyProfile(user);
    global().setLogin(true);
    settle(afterLogin());
  } catch (e) {
    if (isApiError(e) && (e.code === ErrorCode.NOT_LOGGED_IN || e.code === ErrorCode.SESSION_REVOKED)) return;
    // Server unreachable at start-up: keep working from the cached profile; polling will tell.
    const cached = readCachedAccount();
    if (cached) {
      applyProfile(cached);
      // No settings call here: the stored defaults stand, and the comment notifier may go on.
      useNotificationStore.getState().setSettingsLoaded(true);
      global().setLogin(true);
    } else {
      global().setLogin(false);
    }
  }
}
