import { limits, type LoginResult, type UserProfile, type WxQrcode, type WxScanState } from '@inkstone/shared';
import { get, post } from './request';

export type { WxQrcode, WxScanState };

const login = { timeout: limits.loginTimeoutMs };

export const authApi = {
  sendMsg: (phone: string) => get<{ resendAfterSeconds: number; sandbox: boolean }>('/auth/send/msg', { phone }),
  doLogin0: (body: { phone: string; code: string; channelId?: string; invitationCode?: string }) =>
    post<LoginResult>('/auth/doLogin0', body, login),
  wxQrcode: () => get<WxQrcode>('/wx/qrcode/url'),
  wxScanState: (scene: string) => get<WxScanState>('/wx/qrcode/openid', { scene }, { silent: true }),
  doLoginWx: (body: { scene: string; phone?: string; code?: string; channelId?: string; invitationCode?: string }, quietCodes?: number[]) =>
    post<LoginResult>('/auth/v2/doLoginWx', body, { ...login, quietCodes }),
  sparkLogin: (accessToken: string, scene?: string) =>
    post<LoginResult>('/auth/spark/login', { accessToken, ...(scene ? { scene } : {}) }, { ...login, silent: true }),
  isLogin: () => get<boolean>('/auth/isLogin'),
  nowLoginUser: () => get<UserProfile>('/auth/nowLoginUser', undefined, { timeout: limits.nowLoginUserTimeoutMs }),
  logout: (device?: string) => get<null>('/auth/logout', device ? { device } : undefined),
};
