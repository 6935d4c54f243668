import { test, expect } from '../support/fixtures.js';

test('the service worker registers at /sw.js; NAVIGATE_TO replaces history, RESTORE_WINDOW focuses', async ({ page, context }) => {
  await page.goto('/knowledge');
  await page.getByRole('link', { name: '选题' }).click();
  await expect(page.getByTestId('page-topic')).toBeVisible();
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  expect(new URL(worker.url()).pathname).toBe('/sw.js');
  await page.evaluate(() => navigator.serviceWorker.ready);
  const historyLength = await page.evaluate(() => history.length);

  await page.evaluate(() => {
    (window as unknown as { __focused: number }).__focused = 0;
    const original = window.focus.bind(window);
    window.focus = () => {
      (window as unknown as { __focused: number }).__focused++;
      original();
    };
  });
  await worker.evaluate(async () => {
    const sw = self as unknown as { clients: { matchAll(o: object): Promise<{ postMessage(m: unknown): void }[]> } };
    for (const c of await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })) c.postMessage({ type: 'NAVIGATE_TO', url: '/mine' });
  });
  await expect(page.getByTestId('page-mine')).toBeVisible();
  expect(await page.evaluate(() => history.length)).toBe(historyLength);
  await page.goBack();
  await expect(page.getByTestId('page-knowledge')).toBeVisible();

  // RESTORE_WINDOW focuses only a hidden window.
  await page.evaluate(() => Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' }));
  await worker.evaluate(async () => {
    const sw = self as unknown as { clients: { matchAll(o: object): Promise<{ postMessage(m: unknown): void }[]> } };
    for (const c of await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })) c.postMessage({ type: 'RESTORE_WINDOW' });
  });
  await expect.poll(() => page.evaluate(() => (window as unknown as { __focused: number }).__focused)).toBe(1);

  // Messages pointing off-site are ignored.
  await worker.evaluate(async () => {
    const sw = self as unknown as { clients: { matchAll(o: object): Promise<{ postMessage(m: unknown): void }[]> } };
    for (const c of await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })) c.postMessage({ type: 'NAVIGATE_TO', url: 'https://evil.example/' });
  });
  await page.waitForTimeout(300);
  await expect(page.getByTestId('page-knowledge')).toBeVisible();
});
