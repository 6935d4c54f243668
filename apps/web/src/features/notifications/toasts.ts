import { message, notification } from 'antd';
import { limits } from '@inkstone/shared';
import { createThrottleQueue } from './rules';

message.config({ maxCount: limits.maxToasts, top: 64 });
notification.config({ maxCount: limits.maxToasts });

type Toast =
  | { kind: 'message'; level: 'error' | 'warning' | 'success' | 'info'; text: string; durationS: number }
  | { kind: 'notification'; title: string; description: string; durationS: number };

/** Every in-app toast goes through one queue: one per second, at most three on screen. */
const queue = createThrottleQueue<Toast>((t) => {
  if (t.kind === 'message') void message.open({ type: t.level, content: t.text, duration: t.durationS });
  else notification.error({ title: t.title, description: t.description, duration: t.durationS });
});

export const toast = {
  message: (level: 'error' | 'warning' | 'success' | 'info', text: string, durationS = 3) => queue.push({ kind: 'message', level, text, durationS }),
  notify: (title: string, description: string, durationS = 5) => queue.push({ kind: 'notification', title, description, durationS }),
};
