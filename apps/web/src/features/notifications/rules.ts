import { limits } from '@inkstone/shared';
import type { KeyValueStore } from '../../lib/startup-params';
import { LS } from '../../lib/storage-keys';

export interface CommentNotificationInput {
  permission: NotificationPermission;
  enabled: boolean;
  /** '0' or a timestamp in ms until which the user muted notifications. */
  donotDisturb: string;
  mentionTotal: number;
  lastShownTotal: number | null;
  displaying: boolean;
  ownsTab: boolean;
  now: number;
}

export type SkipReason = 'permission' | 'disabled' | 'do-not-disturb' | 'not-first-tab' | 'no-mentions' | 'unchanged' | 'displaying';

/** Spec sections 4 and 5: when a comment notification may be shown. */
export function commentNotificationDecision(i: CommentNotificationInput): { show: true } | { show: false; reason: SkipReason } {
  if (i.permission !== 'granted') return { show: false, reason: 'permission' };
  if (!i.enabled) return { show: false, reason: 'disabled' };
  const until = Number(i.donotDisturb);
  if (Number.isFinite(until) && until > i.now) return { show: false, reason: 'do-not-disturb' };
  if (!i.ownsTab) return { show: false, reason: 'not-first-tab' };
  if (!(i.mentionTotal > 0)) return { show: false, reason: 'no-mentions' };
  if (i.lastShownTotal === i.mentionTotal) return { show: false, reason: 'unchanged' };
  if (i.displaying) return { show: false, reason: 'displaying' };
  return { show: true };
}

export const commentNotificationText = (count: number, at: Date) => ({
  title: `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`,
  body: `您有${count}条新的评论消息`,
});

interface Marker {
  tabId: string;
  ts: number;
}

/**
 * One tab shows notifications: the first page writes a marker and refreshes it while alive.
 * A marker older than 8 hours belongs to a tab that died without cleaning up, so it is taken over.
 */
export function claimFirstPage(store: KeyValueStore, tabId: string, now: number, expiryMs: number = limits.notificationTabLockMs): boolean {
  const raw = store.getItem(LS.firstPageMarker);
  let marker: Marker | null;
  try {
    marker = raw ? (JSON.parse(raw) as Marker) : null;
  } catch {
    marker = null;
  }
  if (marker && marker.tabId !== tabId && now - marker.ts < expiryMs) return false;
  store.setItem(LS.firstPageMarker, JSON.stringify({ tabId, ts: now } satisfies Marker));
  return true;
}

export function releaseFirstPage(store: KeyValueStore, tabId: string): void {
  const raw = store.getItem(LS.firstPageMarker);
  try {
    if (raw && (JSON.parse(raw) as Marker).tabId === tabId) store.removeItem(LS.firstPageMarker);
  } catch {
    store.removeItem(LS.firstPageMarker);
  }
}

/**
 * Releases queued items at most once per interval (spec: one per second, at most 3 toasts at once).
 * Timer functions are injected so the queue is testable.
 */
export function createThrottleQueue<T>(showItem: (item: T) => void, opts: { intervalMs?: number; setTimer?: (fn: () => void, ms: number) => unknown; now?: () => number } = {}) {
  const intervalMs = opts.intervalMs ?? limits.notificationMinIntervalMs;
  const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const now = opts.now ?? (() => Date.now());
  const queue: T[] = [];
  let lastShown = -Infinity;
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    const wait = lastShown + intervalMs - now();
    if (wait > 0) {
      scheduled = true;
      setTimer(drain, wait);
      return;
    }
    const item = queue.shift();
    if (item === undefined) return;
    lastShown = now();
    showItem(item);
    if (queue.length) {
      scheduled = true;
      setTimer(drain, intervalMs);
    }
  };
  return {
    push(item: T) {
      queue.push(item);
      if (!scheduled) drain();
    },
    get size() {
      return queue.length;
    },
  };
}
