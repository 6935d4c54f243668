import { useEffect } from 'react';
import { ErrorCode, limits } from '@inkstone/shared';
import { isApiError } from '../../api/request';
import { noticeApi } from '../../api/notice';
import { publishApi, type AccountUnread } from '../../api/publish';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { useNotificationStore } from '../../stores/notification';
import { markOffline, markOnline } from '../network/network';
import { maybeNotifyComments, resetCommentNotifier } from '../notifications/comment-notifier';
import { usePoll } from './use-poll';
import { settle } from '../../api/request';

/** Once the accounts API answers 1002 it is not asked again in this page's life. */
let accountsAbsent = false;

let checkSeq = 0;

/** Bumped on logout: a check still waiting for settings must not notify for the next user. */
let generation = 0;
let settingsWait: Promise<void> | null = null;

/**
 * The first poll starts together with the login loads: a comment notification must wait for the
 * user's do-not-disturb and enable settings, or it fires once for a muted user on every page load.
 * Every path to a logged-in state marks the settings loaded (or failed), so this always settles.
 */
function settingsLoaded(): Promise<void> {
  if (useNotificationStore.getState().settingsLoaded) return Promise.resolve();
  settingsWait ??= new Promise((resolve) => {
    const unsubscribe = useNotificationStore.subscribe((s) => {
      if (!s.settingsLoaded) return;
      unsubscribe();
      settingsWait = null;
      resolve();
    });
  });
  return settingsWait;
}

async function checkNotices(): Promise<void> {
  // Only the latest check decides: an older request finishing late must not undo a newer verdict.
  const seq = ++checkSeq;
  try {
    const { unreadNoticeNum } = await noticeApi.bubble();
    if (seq !== checkSeq) return;
    useGlobalStore.getState().setUnreadNoticeNum(unreadNoticeNum ?? 0);
    markOnline();
  } catch (e) {
    if (seq !== checkSeq) return;
    // Spec section 5: a network error alone means offline; any reply (even an error code) means reachable.
    if (isApiError(e) && e.kind === 'network') markOffline();
    else if (isApiError(e) && e.kind === 'code') markOnline();
  }
}

async function checkAccounts(): Promise<void> {
  if (accountsAbsent) return;
  const gen = generation;
  try {
    const page = await publishApi.accounts();
    const records = page.records ?? [];
    if (!records.length) {
      useNotificationStore.getState().setUnreadMap({});
      return;
    }
    const entries = await Promise.all(
      records.map(async (a) => {
        try {
          return [String(a.id), await publishApi.accountUnread(a)] as const;
        } catch {
          return null;
        }
      }),
    );
    const map: Record<string, AccountUnread> = {};
    for (const e of entries) if (e) map[e[0]] = e[1];
    useNotificationStore.getState().setUnreadMap(map);
    // Comment notifications use the mention total across every bound account (spec 5).
    const mentions = Object.values(map).reduce((sum, u) => sum + (Number(u.mentions) || 0), 0);
    await settingsLoaded();
    if (gen !== generation) return;
    await maybeNotifyComments(mentions);
  } catch (e) {
    if (isApiError(e) && e.code === ErrorCode.NOT_FOUND) accountsAbsent = true;
  }
}

export async function pollOnce(): Promise<void> {
  await Promise.all([checkNotices(), checkAccounts()]);
}

/** Every 15 s while logged in; stops on logout. Browser online/offline events trigger an early check. */
export function usePolling(): void {
  const isLogin = useIsLogin();
  // Not awaited: a check still waiting for the user's settings must not hold back the next notice check, so the
  // 15 s cadence is kept whatever one check takes (each check guards itself against late replies).
  usePoll(
    () => {
      settle(pollOnce());
    },
    limits.pollingIntervalMs,
    { enabled: isLogin === true, immediate: true },
  );
  useEffect(() => {
    if (isLogin !== true) return;
    const early = () => settle(checkNotices());
    window.addEventListener('online', early);
    window.addEventListener('offline', early);
    return () => {
      window.removeEventListener('online', early);
      window.removeEventListener('offline', early);
      resetCommentNotifier();
      // The next user's settings are read afresh before their first notification.
      generation += 1;
      useNotificationStore.getState().setSettingsLoaded(false);
    };
  }, [isLogin]);
}
