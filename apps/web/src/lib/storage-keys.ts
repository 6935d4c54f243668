import { TOKEN_NAME } from '@inkstone/shared';

/** Every localStorage key the shell writes (spec section 3, "Local storage items"). */
export const LS = {
  tokenName: 'tokenName',
  tokenValue: 'tokenValue',
  account: 'account',
  duid: 'duid',
  channelId: 'channelId',
  accessToken: 'accessToken',
  notificationEnable: 'notificationEnable',
  donotDisturb: 'donotDisturb',
  dailyMarkerPrefix: 'dailyMarker:',
  firstPageMarker: 'notificationFirstPage',
  tourHomeDone: 'tour:home:done',
  /** The version whose release note this device has seen (shown once per version). */
  releaseNoteSeen: 'releaseNote:seen',
  pendingInvitationCode: 'invitationCode',
  /** Recent publish ids (the server has no per-user publish list), newest first. */
  publishHistory: 'publishHistory',
  /** The feature-flag cache (remote evaluation answers per user id); the GrowthBook SDK's key from before. */
  featuresCache: 'gbFeaturesCache',
} as const;

export const DEFAULT_TOKEN_NAME = TOKEN_NAME;

export function lsGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function lsSet(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or quota: the shell keeps working without persistence.
  }
}

export function lsRemove(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // see lsSet
  }
}
