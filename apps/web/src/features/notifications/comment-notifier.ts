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

/** How long a notification waits for the app's service worker to be active. */
const WORKER_WAIT_MS = 10_000;

/**
 * The app's service worker registration once its worker is active. The page registers the worker on its load event and
 * the worker activates a moment later; the first unread poll can come before either. A registration whose worker is
 * still installing refuses showNotification, so it is waited for (bounded) rather than used.
 */
async function activeRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  try {
    const now = await navigator.serviceWorker.getRegistration();
    if (now?.active) return now;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = await Promise.race([navigator.serviceWorker.ready, new Promise<null>((r) => (timer = setTimeout(() => r(null), WORKER_WAIT_MS)))]);
    clearTimeout(timer);
    return late?.active ? late : null;
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
  const reg = await activeRegistration();
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
  const previous = lastShownTotal;
  // Counted before the show is awaited, so an overlapping poll does not show the same total twice.
  lastShownTotal = mentionTotal;
  const { title, body } = commentNotificationText(mentionTotal, new Date());
  if (reg && (await showThroughWorker(reg, title, body))) return;
  // No worker (or it refused): a page notification still tells the creator, without the 打开页面 action.
  if (!showOnPage(title, body)) lastShownTotal = previous;
}

/** Persistent notifications can carry the "open page" action; the worker routes the click. */
async function showThroughWorker(reg: ServiceWorkerRegistration, title: string, body: string): Promise<boolean> {
  try {
    await reg.showNotification(title, {
      body,
      tag: TAG,
      data: { url: TARGET },
      actions: [{ action: 'open', title: '打开页面' }],
    } as NotificationOptions);
    return true;
  } catch {
    return false;
  }
}

/** False when the browser allows only worker notifications (new Notification throws there): the next poll tries again. */
function showOnPage(title: string, body: string): boolean {
  let n: Notification;
  try {
    n = new Notification(title, { body, tag: TAG, data: { url: TARGET } });
  } catch {
    return false;
  }
  pageNotification = n;
  n.onclick = () => {
    window.focus();
    navigateTo(TARGET);
    n.close();
  };
  n.onclose = () => {
    if (pageNotification === n) pageNotification = null;
  };
  return true;
}

export function resetCommentNotifier(): void {
  lastShownTotal = null;
}
