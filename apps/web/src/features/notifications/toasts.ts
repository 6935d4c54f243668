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

/** Every in-app toast goes through one queue: one per second, at most three on screen. */
const queue = createThrottleQueue<Toast>((t) => {
  if (t.kind === 'message') void message.open({ type: t.level, content: t.text, duration: t.durationS });
  else
    loadNotification().then(
      ({ notification }) => notification.error({ title: t.title, description: t.description, duration: t.durationS }),
      // The chunk did not load (a deploy replaced it, the network dropped): the message carries the title at least.
      () => void message.open({ type: 'error', content: t.title, duration: t.durationS }),
    );
});

export const toast = {
  message: (level: 'error' | 'warning' | 'success' | 'info', text: string, durationS = 3) => queue.push({ kind: 'message', level, text, durationS }),
  notify: (title: string, description: string, durationS = 5) => queue.push({ kind: 'notification', title, description, durationS }),
};
