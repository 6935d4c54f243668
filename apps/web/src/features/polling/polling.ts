import { useEffect } from 'react';
import { ErrorCode, limits } from '@inkstone/shared';
import { isApiError } from '../../api/request';
import { noticeApi } from '../../api/notice';
import { publishApi, type AccountUnread } from '../../api/publish';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { useNotificationStore } from '../../stores/notification';
import { markOffline, markOnline } from '../network/network';
import { maybeNotifyComments, resetCommentNotifier } from '../notifications/comment-notifier';

/** Once the accounts API answers 1002 it is not asked again in this page's life. */
let accountsAbsent = false;

let checkSeq = 0;

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
    const mentions = Object.values(map).reduce((sum, u) => sum + (Number(u.mentions) || 0), 0);
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
  useEffect(() => {
    if (isLogin !== true) return;
    void pollOnce();
    const timer = window.setInterval(() => void pollOnce(), limits.pollingIntervalMs);
    const early = () => void checkNotices();
    window.addEventListener('online', early);
    window.addEventListener('offline', early);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('online', early);
      window.removeEventListener('offline', early);
      resetCommentNotifier();
    };
  }, [isLogin]);
}
