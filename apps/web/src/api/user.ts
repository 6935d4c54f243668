import type { FillInfoBody, SettingKey } from '@inkstone/shared';
import { api } from './client';

export const userApi = {
  changeNickname: (nickname: string) => api.post('/user/change-nickname', undefined, { params: { nickname } }),
  fillInfo: (body: FillInfoBody) => api.post('/user/fill/info', body),
  settings: () => api.get('/user/setting/list'),
  updateSetting: (settingKey: SettingKey, settingValue: string) => api.put('/user/setting/update', { settingKey, settingValue }),
  globalSetting: () => api.get('/user/global-setting'),
  reportEvent: (event: 'open-software' | 'close-software', sid: string, version: string) => api.get('/user/event/report', { event, sid, version }),
  /** The cropped avatar, checked by the /wx/upload rules on the server. */
  uploadAvatar: (file: Blob) => {
    const fd = new FormData();
    fd.append('file', file, 'avatar.png');
    return api.post('/user/avatar', fd, { headers: { 'Content-Type': undefined } as unknown as Record<string, string> });
  },
  /** Background: the release note and download modals decide quietly whether to show. */
  release: (version: string) => api.get('/app/release', { version }, { silent: true }),
  recallChannel: (channel: string) => api.post('/homepage/recall/channel', { channel }, { silent: true }),
};
