import { navigateTo, safeInternalPath } from '../../lib/navigation';

export type WorkerMessage = { type: 'NAVIGATE_TO'; url: string } | { type: 'RESTORE_WINDOW' };

export function handleWorkerMessage(data: unknown): void {
  if (!data || typeof data !== 'object') return;
  const msg = data as Partial<WorkerMessage> & { url?: unknown };
  if (msg.type === 'NAVIGATE_TO') {
    const path = safeInternalPath(msg.url);
    if (path) navigateTo(path, { replace: true });
  } else if (msg.type === 'RESTORE_WINDOW') {
    if (document.visibilityState === 'hidden') window.focus();
  }
}

/** Registers /sw.js once the page has loaded and listens for its messages. */
export function startServiceWorker(): () => void {
  if (!('serviceWorker' in navigator)) return () => {};
  const onMessage = (e: MessageEvent) => handleWorkerMessage(e.data);
  navigator.serviceWorker.addEventListener('message', onMessage);
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
  return () => navigator.serviceWorker.removeEventListener('message', onMessage);
}
