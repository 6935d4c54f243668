import { message } from 'antd';
import { limits } from '@inkstone/shared';
import { createThrottleQueue } from './rules';

message.config({ maxCount: limits.maxToasts, top: 64 });

/**
 * antd's notification is loaded on its first use: only a code reply of the server asks for one (the server is
 * reachable then), while messages must work with the server gone (network errors, offline), so they stay loaded.
 */
let notificationUi: Promise<typeof import('./notification-ui')> | undefined;
const loadNotification = () =>
  (notificationUi ??= import('./notification-ui').catch((e: unknown) => {
    notificationUi = undefined; // asked again next time
    throw e;
  }));

type Toast =
  | { kind: 'message'; level: 'error' | 'warning' | 'success' | 'info'; text: string; durationS: number }
  | { kind: 'notification'; title: string; description: string; durationS: number };

/**
 * The toasts on screen, oldest first, messages and notifications together: antd caps each kind on its own, so three
 * messages and three notifications could otherwise stand at once. Spec section 4: at most 3 toasts at once.
 */
const onScreen: { key: string; close(): void }[] = [];
let keySeq = 0;

function gone(key: string): void {
  const i = onScreen.findIndex((t) => t.key === key);
  if (i >= 0) onScreen.splice(i, 1);
}

/** Makes room for one more toast (the oldest goes first) and registers it; returns its key. */
function admit(close: (key: string) => void): string {
  const key = `toast-${++keySeq}`;
  while (onScreen.length >= limits.maxToasts) {
    const oldest = onScreen.shift()!;
    oldest.close();
  }
  onScreen.push({ key, close: () => close(key) });
  return key;
}

function showMessage(level: 'error' | 'warning' | 'success' | 'info', text: string, durationS: number): void {
  const key = admit((k) => message.destroy(k));
  void message.open({ key, type: level, content: text, duration: durationS, onClose: () => gone(key) });
}

/** Every in-app toast goes through one queue: one per second, at most three on screen. */
const queue = createThrottleQueue<Toast>((t) => {
  if (t.kind === 'message') showMessage(t.level, t.text, t.durationS);
  else
    loadNotification().then(
      ({ notification }) => {
        const key = admit((k) => notification.destroy(k));
        notification.error({ key, title: t.title, description: t.description, duration: t.durationS, onClose: () => gone(key) });
      },
      // The chunk did not load (a deploy replaced it, the network dropped): the message carries the title at least.
      () => showMessage('error', t.title, t.durationS),
    );
});

export const toast = {
  message: (level: 'error' | 'warning' | 'success' | 'info', text: string, durationS = 3) => queue.push({ kind: 'message', level, text, durationS }),
  notify: (title: string, description: string, durationS = 5) => queue.push({ kind: 'notification', title, description, durationS }),
};
