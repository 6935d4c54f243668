import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The browser's side of notifications, as Chromium behaves: a registration whose worker is still installing refuses
 * showNotification ("No active registration available"); `ready` settles once a worker is active.
 */
interface Shown {
  title: string;
  body: string;
  actions: { action: string; title: string }[];
}

function fakeBrowser(init: { active: boolean; workerRefuses?: boolean; pageThrows?: boolean }) {
  const opts = { ...init };
  const worker: Shown[] = [];
  const page: Shown[] = [];
  const store = new Map<string, string>();
  const reg = {
    active: null as object | null,
    async showNotification(title: string, o: NotificationOptions & { actions?: Shown['actions'] }) {
      if (!reg.active || opts.workerRefuses) throw new TypeError('No active registration available on the ServiceWorkerRegistration.');
      worker.push({ title, body: o.body ?? '', actions: o.actions ?? [] });
    },
    async getNotifications() {
      return worker;
    },
  };
  let activate!: () => void;
  const ready = new Promise<typeof reg>((resolve) => {
    activate = () => {
      reg.active = {};
      resolve(reg);
    };
  });
  if (opts.active) activate();
  class PageNotification {
    static permission = 'granted';
    onclick: (() => void) | null = null;
    onclose: (() => void) | null = null;
    constructor(title: string, o: NotificationOptions) {
      if (opts.pageThrows) throw new TypeError("Failed to construct 'Notification': Illegal constructor.");
      page.push({ title, body: o.body ?? '', actions: [] });
    }
    close() {}
  }
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  vi.stubGlobal('Notification', PageNotification);
  vi.stubGlobal('navigator', { serviceWorker: { getRegistration: async () => reg, ready } });
  return { worker, page, opts, activate };
}

const notifier = () => import('./comment-notifier');

describe('comment notifier: the worker is waited for, and a refused show is not counted as shown', () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => vi.unstubAllGlobals());

  it('a poll that comes while the worker is still installing shows through the worker once it is active', async () => {
    const { maybeNotifyComments } = await notifier();
    const b = fakeBrowser({ active: false });
    const poll = maybeNotifyComments(2);
    setTimeout(b.activate, 30);
    await poll;
    expect(b.worker).toHaveLength(1);
    expect(b.worker[0]!.body).toBe('您有2条新的评论消息');
    expect(b.worker[0]!.actions.map((a) => a.title)).toEqual(['打开页面']);
    expect(b.page).toHaveLength(0);
  });

  it('a worker that refuses: a page notification tells the creator instead, once per total', async () => {
    const b = fakeBrowser({ active: true, workerRefuses: true });
    const { maybeNotifyComments } = await notifier();
    await maybeNotifyComments(3);
    await maybeNotifyComments(3);
    expect(b.worker).toHaveLength(0);
    expect(b.page.map((n) => n.body)).toEqual(['您有3条新的评论消息']);
  });

  it('when neither way can show it, the next poll tries again', async () => {
    const b = fakeBrowser({ active: true, workerRefuses: true, pageThrows: true });
    const { maybeNotifyComments } = await notifier();
    await maybeNotifyComments(4);
    expect(b.worker).toHaveLength(0);
    expect(b.page).toHaveLength(0);
    // The worker shows again (restarted by the browser): the same total is still news to the creator.
    b.opts.workerRefuses = false;
    await maybeNotifyComments(4);
    expect(b.worker.map((n) => n.body)).toEqual(['您有4条新的评论消息']);
  });
});
