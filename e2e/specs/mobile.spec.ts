import { test, expect } from '../support/fixtures.js';

const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

test.use({ userAgent: IPHONE_UA, viewport: { width: 390, height: 844 } });

test('phone browsers: invitation/integral codes go to /activity; other paths to the mobile home', async ({ page }) => {
  await page.goto('/?channelid=ch1&invitationCode=INV42');
  await expect(page).toHaveURL((u) => u.pathname === '/activity' && u.searchParams.get('channelid') === 'ch1' && u.searchParams.get('invitationCode') === 'INV42');
  await expect(page.getByTestId('layout-standalone')).toBeVisible();
  await expect(page.getByTestId('activity-code')).toContainText('INV42');

  await page.goto('/topic?integralCode=PTS9');
  await expect(page).toHaveURL((u) => u.pathname === '/activity' && u.searchParams.get('integralCode') === 'PTS9');

  // VITE_MOBILE_HOME_URL is unset in this build: the mobile home page is /activity.
  await page.goto('/knowledge?channelid=ch2');
  await expect(page).toHaveURL((u) => u.pathname === '/activity' && u.search === '?channelid=ch2');
  await expect(page.getByTestId('page-activity')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('channelId'))).toBe('ch2');
});
