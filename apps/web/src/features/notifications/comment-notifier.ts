import { useNotificationStore } from '../../stores/notification';
import { navigateTo } from '../../lib/navigation';
import { claimFirstPage, commentNotificationDecision, commentNotificationText, releaseFirstPage } from './rules';

const TAG = 'inkstone-comment';
const TARGET = '/operationBoard';
const tabId = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : String(Math.random());
let lastShownTotal: number | null = null;
let pageNotification: Notification | null = null;

/** Keeps this tab's claim fresh and gives it up when the tab goes away. */
export function holdFirstPage(): () => void {
  claimFirstPage(localStorage, tabId, Date.now());
  const release = () => releaseFirstPage(localStorage, tabId);
  window.addEventListener('pagehide', release);
  return () => {
    window.removeEventListener('pagehide', release);
    release();
  };
}

/** How long a notification waits for the app's service worker, registered once the page has loaded. */
const WORKER_WAIT_MS = 5_000;

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  try {
    // The first unread poll can come before the page's load event registers the worker. Showing a page notification
    // then would lose the 打开页面 action and, counted as shown, stand for the rest of the session: wait for the worker.
    const now = await navigator.serviceWorker.getRegistration();
    if (now) return now;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = await Promise.race([navigator.serviceWorker.ready, new Promise<null>((r) => (timer = setTimeout(() => r(null), WORKER_WAIT_MS)))]);
    clearTimeout(timer);
    return late;
  } catch {
    return null;
  }
}

async function isDisplaying(reg: ServiceWorkerRegistration | null): Promise<boolean> {
  if (pageNotification) return true;
  if (!reg) return false;
  try {
    return (await reg.getNotifications({ tag: TAG })).length > 0;
  } catch {
    return false;
  }
}

/** Shows the comment notification when the rules of spec sections 4 and 5 allow it. */
export async function maybeNotifyComments(mentionTotal: number): Promise<void> {
  if (typeof Notification === 'undefined') return;
  const { notificationEnanle, donotDisturb, kinds } = useNotificationStore.getState();
  // The user turned comment messages off in 个人设置 > 通知设置.
  if (!kinds.comment) return;
  const reg = await registration();
  const decision = commentNotificationDecision({
    permission: Notification.permission,
    enabled: notificationEnanle,
    donotDisturb,
    mentionTotal,
    lastShownTotal,
    displaying: await isDisplaying(reg),
    ownsTab: claimFirstPage(localStorage, tabId, Date.now()),
    now: Date.now(),
  });
  if (!decision.show) return;
  lastShownTotal = mentionTotal;
  const { title, body } = commentNotificationText(mentionTotal, new Date());
  if (reg) {
    // Persistent notifications can carry the "open page" action; the worker routes the click.
    await reg.showNotification(title, {
      body,
      tag: TAG,
      data: { url: TARGET },
      actions: [{ action: 'open', title: '打开页面' }],
    } as NotificationOptions);
    return;
  }
  const n = new Notification(title, { body, tag: TAG, data: { url: TARGET } });
  pageNotification = n;
  n.onclick = () => {
    window.focus();
    navigateTo(TARGET);
    n.close();
  };
  n.onclose = () => {
    if (pageNotification === n) pageNotification = null;
  };
}

export function resetCommentNotifier(): void {
  lastShownTotal = null;
}
