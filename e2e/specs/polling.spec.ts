import { test, expect, apiLogin, openUserMenu, seedSession } from '../support/fixtures.js';

test('polls the notice bubble every 15 s while logged in and stops on logout', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.clock.install();
  let bubbles = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/notice/bubble')) bubbles++;
  });
  await page.goto('/');
  await expect(page.getByTestId('user-area')).toBeVisible();
  await expect.poll(() => bubbles).toBe(1);
  // Each 15 s step fires exactly one poll: a shorter interval would fire more, a longer one none.
  for (const expected of [2, 3, 4]) {
    await page.clock.runFor(15_000);
    await expect.poll(() => bubbles).toBe(expected);
    await page.waitForTimeout(200);
    expect(bubbles).toBe(expected);
  }

  const loggedOut = page.waitForResponse('**/api/auth/logout**');
  await (await openUserMenu(page)).getByRole('menuitem', { name: '退出登录' }).click();
  await loggedOut;
  // The fake clock also holds the menu's close animation and React's commit timers: advance it in small steps until the
  // logged-out header shows (a single fixed step raced the logout reply on a loaded machine). Steps stay far below the
  // 15 s poll interval, so a poll still running after logout would be counted below.
  await expect
    .poll(async () => {
      await page.clock.runFor(250);
      return page.getByTestId('header-login').isVisible();
    })
    .toBe(true);
  await page.clock.runFor(45_000);
  await page.waitForTimeout(300);
  expect(bubbles).toBe(4);
});

test('a network error on the notice call shows the persistent offline message; back online dismisses it', async ({ page, context, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  const firstCheck = page.waitForResponse('**/api/notice/bubble');
  await page.goto('/');
  await expect(page.getByTestId('user-area')).toBeVisible();
  await firstCheck;
  await context.setOffline(true);
  const offline = page.locator('.ant-message-notice').filter({ hasText: '网络已断开，请检查网络连接' });
  await expect(offline).toBeVisible();
  await page.waitForTimeout(3500); // persistent: no auto-close
  await expect(offline).toBeVisible();
  await context.setOffline(false);
  await expect(offline).toHaveCount(0);
});
