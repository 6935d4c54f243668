import { LS } from './storage-keys';

/** Query parameters remembered locally (spec section 3). */
export const REMEMBERED_PARAMS = ['channelid', 'recallActivity', 'bd_vid', 'qhclickid', 'msclkid', 'accessToken', 'scene', 'sparkNavigate'] as const;

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  readonly length: number;
  key(index: number): string | null;
}

/** Copies the remembered parameters (and a desktop invitationCode) from the address into storage. */
export function rememberParams(search: string, store: KeyValueStore): void {
  const params = new URLSearchParams(search);
  for (const name of REMEMBERED_PARAMS) {
    const value = params.get(name);
    if (value === null) continue;
    store.setItem(name, value);
    if (name === 'channelid') store.setItem(LS.channelId, value);
  }
  const invitation = params.get('invitationCode');
  if (invitation) store.setItem(LS.pendingInvitationCode, invitation);
}

/** The address without the one-time token, for history.replaceState. */
export function withoutParam(href: string, name: string): string {
  const url = new URL(href);
  url.searchParams.delete(name);
  return `${url.pathname}${url.search}${url.hash}`;
}

export function ensureDeviceId(store: KeyValueStore, make: () => string): string {
  const existing = store.getItem(LS.duid);
  if (existing) return existing;
  const id = make();
  store.setItem(LS.duid, id);
  return id;
}

export const dayKey = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/**
 * Sets today's marker and removes earlier days' markers. Returns true on the first load of the day.
 */
export function touchDailyMarker(store: KeyValueStore, now: Date): boolean {
  const today = `${LS.dailyMarkerPrefix}${dayKey(now)}`;
  const stale: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const k = store.key(i);
    if (k && k.startsWith(LS.dailyMarkerPrefix) && k !== today) stale.push(k);
  }
  for (const k of stale) store.removeItem(k);
  if (store.getItem(today)) return false;
  store.setItem(today, String(now.getTime()));
  return true;
}
