import type { FillInfoBody, GlobalSetting, SettingItem, UserProfile } from '@inkstone/shared';
import { get, post, put } from './request';

export type { SettingItem };

export const userApi = {
  changeNickname: (nickname: string) => post<UserProfile>('/user/change-nickname', undefined, { params: { nickname } }),
  fillInfo: (body: FillInfoBody) => post<UserProfile>('/user/fill/info', body),
  settings: () => get<SettingItem[]>('/user/setting/list'),
  updateSetting: (settingKey: string, settingValue: string) => put<SettingItem[]>('/user/setting/update', { settingKey, settingValue }),
  globalSetting: () => get<GlobalSetting>('/user/global-setting'),
  reportEvent: (event: 'open-software' | 'close-software', sid: string, version: string) =>
    get<null>('/user/event/report', { event, sid, version }),
  recallChannel: (channel: string) => post<null>('/homepage/recall/channel', { channel }, { silent: true }),
};
