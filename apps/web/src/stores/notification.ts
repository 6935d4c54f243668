import { create } from 'zustand';
import { LS, lsGet, lsSet } from '../lib/storage-keys';

interface NotificationState {
  /** Unread counts per platform account id. */
  unreadMap: Record<string, { unread_count: number; likes: number; connections: number; mentions: number }>;
  /** Spelling kept from the spec so the field maps one to one. */
  notificationEnanle: boolean;
  /** '0' or a timestamp (ms) until which notifications are muted. */
  donotDisturb: string;
  /** Which kinds of message notify (settings catalogue notifyComment / notifyPublish / notifySystem). */
  kinds: { comment: boolean; publish: boolean; system: boolean };
  setKinds(patch: Partial<NotificationState['kinds']>): void;
  /** The account's notification settings have been read after login (or failed to load). */
  settingsLoaded: boolean;
  setSettingsLoaded(v: boolean): void;
  setUnreadMap(m: NotificationState['unreadMap']): void;
  setEnable(v: boolean): void;
  setDonotDisturb(v: string): void;
}

export const useNotificationStore = create<NotificationState>()((set) => ({
  unreadMap: {},
  notificationEnanle: lsGet(LS.notificationEnable) !== 'false',
  donotDisturb: lsGet(LS.donotDisturb) ?? '0',
  kinds: { comment: true, publish: true, system: true },
  setKinds: (patch) => set((s) => ({ kinds: { ...s.kinds, ...patch } })),
  settingsLoaded: false,
  setSettingsLoaded: (settingsLoaded) => set({ settingsLoaded }),
  setUnreadMap: (unreadMap) => set({ unreadMap }),
  setEnable: (v) => {
    lsSet(LS.notificationEnable, String(v));
    set({ notificationEnanle: v });
  },
  setDonotDisturb: (v) => {
    lsSet(LS.donotDisturb, v);
    set({ donotDisturb: v });
  },
}));
