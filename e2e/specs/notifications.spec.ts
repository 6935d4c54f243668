import { test, expect, apiLogin, recordNotifications, seedSession, shownNotifications } from '../support/fixtures.js';
import type { Page } from '@playwright/test';

/**
 * Comment notifications need per-account unread counts. Here the account list and the per-account
 * unread call are fulfilled with page.route so the totals can be steered exactly (publish.spec.ts
 * covers the real chain: a bound 沙箱 account, a fan comment, the notification); the session,
 * settings and notice calls hit the real server.
 * The browser's Notification API is recorded instead of drawing real OS notifications.
 */
async function stubAccounts(page: Page, mentions: { value: number }) {
  await page.route('**/api/publish/account/list/v3?*', (route) =>
    route.fulfill({ json: { code: 0, msg: 'ok', data: { records: [{ id: 1, cookies: '[]' }], total: 1, pageNum: 1, pageSize: 200 } } }),
  );
  await page.route('**/api/publish/account/unread?*', (route) =>
    route.fulfill({ json: { code: 0, msg: 'ok', data: { unread_count: mentions.value, likes: 0, connections: 0, mentions: mentions.value } } }),
  );
  await recordNotifications(page);
}
const shown = shownNotifications;

test('granted: shows HH:mm / 您有N条新的评论消息 once per new total; do-not-disturb mutes', async ({ page, context, request, baseURL }) => {
  await context.grantPermissions(['notifications'], { origin: baseURL });
  const s = await apiLogin(request);
  await seedSession(page, s);
  const mentions = { value: 2 };
  await stubAccounts(page, mentions);
  await page.clock.install();
  await page.goto('/');
  await expect(page.getByTestId('user-area')).toBeVisible();
  await expect.poll(() => shown(page)).toHaveLength(1);
  const [first] = await shown(page);
  expect(first!.title).toMatch(/^\d{2}:\d{2}$/);
  expect(first!.body).toBe('您有2条新的评论消息');

  await page.clock.runFor(15_000); // same total: not shown again
  await page.waitForTimeout(500);
  expect(await shown(page)).toHaveLength(1);

  mentions.value = 3;
  await page.clock.runFor(15_000);
  await expect.poll(() => shown(page)).toHaveLength(2);
  expect((await shown(page))[1]!.body).toBe('您有3条新的评论消息');

  // Do-not-disturb for an hour, saved through the real settings API, applies after the next login load.
  const until = String(Date.now() + 3600_000);
  const put = await request.put('/api/user/setting/update', { headers: { [s.tokenName]: s.tokenValue }, data: { settingKey: 'doNotDisturb', settingValue: until } });
  expect((await put.json()).code).toBe(0);
  mentions.value = 5;
  await page.reload();
  await expect(page.getByTestId('user-area')).toBeVisible();
  await page.waitForResponse('**/api/publish/account/unread?*');
  await page.clock.runFor(15_000);
  await page.waitForTimeout(500);
  expect(await shown(page)).toHaveLength(0);
});

test('not granted: nothing is shown', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await stubAccounts(page, { value: 4 });
  await page.goto('/');
  await page.waitForResponse('**/api/publish/account/unread?*');
  await page.waitForTimeout(500);
  expect(await shown(page)).toHaveLength(0);
  expect(await page.evaluate(() => Notification.permission)).not.toBe('granted');
});

test('only the first tab shows notifications', async ({ context, request, baseURL }) => {
  await context.grantPermissions(['notifications'], { origin: baseURL });
  const s = await apiLogin(request);
  const first = await context.newPage();
  const second = await context.newPage();
  for (const p of [first, second]) {
    await seedSession(p, s);
    await stubAccounts(p, { value: 7 });
  }
  await first.goto('/');
  await expect.poll(() => shown(first)).toHaveLength(1);
  await second.goto('/');
  await second.waitForResponse('**/api/publish/account/unread?*');
  await second.waitForTimeout(500);
  expect(await shown(second)).toHaveLength(0);
  // The first tab goes away: its marker is released (the other tab may already have claimed it on its next poll,
  // which is the hand-over working, so the rule is "no longer the first tab's", not "empty").
  const marker = (p: typeof second) => p.evaluate(() => localStorage.getItem('notificationFirstPage'));
  const firstTab = (JSON.parse((await marker(first)) ?? 'null') as { tabId: string } | null)?.tabId;
  expect(firstTab).toBeTruthy();
  await first.close();
  await expect.poll(async () => (JSON.parse((await marker(second)) ?? 'null') as { tabId: string } | null)?.tabId ?? null).not.toBe(firstTab);
});

test('notifications page: bell in the header, and a loading, list, empty or error state', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/');
  await page.getByTestId('header-bell').click();
  await expect(page.getByTestId('page-notifications')).toBeVisible();
  await expect(page.getByTestId('notifications-list').or(page.getByTestId('notifications-empty')).or(page.getByTestId('notifications-error'))).toBeVisible();
});
