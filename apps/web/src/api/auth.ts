import { limits, type WxQrcode } from '@inkstone/shared';
import { api } from './client';

export type { WxQrcode };

const login = { timeout: limits.loginTimeoutMs };

export const authApi = {
  sendMsg: (phone: string) => api.get('/auth/send/msg', { phone }),
  doLogin0: (body: { phone: string; code: string; channelId?: string; invitationCode?: string }) => api.post('/auth/doLogin0', body, login),
  wxQrcode: () => api.get('/wx/qrcode/url'),
  wxScanState: (scene: string) => api.get('/wx/qrcode/openid', { scene }, { silent: true }),
  doLoginWx: (body: { scene: string; phone?: string; code?: string; channelId?: string; invitationCode?: string }, quietCodes?: number[]) =>
    api.post('/auth/v2/doLoginWx', body, { ...login, quietCodes }),
  sparkLogin: (accessToken: string, scene?: string) => api.post('/auth/spark/login', { accessToken, ...(scene ? { scene } : {}) }, { ...login, silent: true }),
  isLogin: () => api.get('/auth/isLogin'),
  nowLoginUser: () => api.get('/auth/nowLoginUser', undefined, { timeout: limits.nowLoginUserTimeoutMs }),
  logout: (device?: string) => api.get('/auth/logout', device ? { device } : undefined),
  devices: () => api.get('/auth/sessions'),
  revokeDevice: (id: number) => api.post('/auth/sessions/revoke', { id }),
  bindWx: (scene: string) => api.post('/auth/wx/bind', { scene }),
  unbindWx: () => api.post('/auth/wx/unbind'),
  sendDeletionCode: () => api.post('/auth/delete/code'),
  deleteAccount: (code: string) => api.post('/auth/delete/v2', { code }),
};
