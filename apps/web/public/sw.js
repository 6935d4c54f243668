/* Inkstone service worker: routes notification clicks back to an open page (spec section 2). */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('notificationclick', (event) => {
  const url = (event.notification.data && event.notification.data.url) || '/operationBoard';
  event.notification.close();
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const client = windows.find((c) => c.focused) || windows[0];
      if (!client) {
        await self.clients.openWindow(url);
        return;
      }
      client.postMessage({ type: 'NAVIGATE_TO', url });
      client.postMessage({ type: 'RESTORE_WINDOW' });
      try {
        await client.focus();
      } catch {
        // Focusing needs a user gesture in some browsers; RESTORE_WINDOW covers it from the page.
      }
    })(),
  );
});
