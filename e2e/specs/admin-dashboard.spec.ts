import { request as playwrightRequest } from '@playwright/test';
import { test, expect, apiLogin, randomPhone, seedSession } from '../support/fixtures.js';
import { OwnServer } from '../support/own-server.js';

test('an operator granted by the CLI sees the dashboard, publishes a rich-text notice a user reads, then withdraws it', async ({ browser }) => {
  // Two server starts on a shared two-core machine.
  test.setTimeout(180_000);
  // Its own server: the CLI cannot open the shared server's embedded database while that server runs.
  const srv = new OwnServer();
  try {
    await srv.start();
    const api = await playwrightRequest.newContext({ baseURL: srv.baseURL, extraHTTPHeaders: { 'x-forwarded-for': '10.77.0.2' } });
    const opPhone = randomPhone();
    const operator = await apiLogin(api, { phone: opPhone });
    await srv.stop();
    expect(await srv.admin('role:grant', '--phone', opPhone, '--role', 'operator')).toContain('operator');
    await srv.start();
    const reader = await apiLogin(api);

    const context = await browser.newContext({ baseURL: srv.baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
    const page = await context.newPage();
    await seedSession(page, operator);
    await page.goto('/admin/dashboard');
    const dash = page.getByTestId('admin-dashboard');
    await expect(dash).toBeVisible();
    // Two logins today (the operator and the reader) on this fresh server.
    await expect(page.getByTestId('dash-signups')).toContainText('2');
    await expect(page.getByTestId('dash-chart-users').locator('canvas')).toHaveCount(1);
    await expect(page.getByTestId('dash-chart-revenue').locator('canvas')).toHaveCount(1);

    await page.getByTestId('admin-menu').getByRole('link', { name: '通知' }).click();
    await page.getByRole('button', { name: '发布通知' }).click();
    const modal = page.locator('.ant-modal').filter({ hasText: '发布通知' });
    await modal.getByLabel('标题').fill('春节活动');
    const editor = modal.getByTestId('notice-editor').locator('[contenteditable="true"]');
    await editor.click();
    await modal.getByRole('button', { name: /^加\s*粗$/ }).click();
    await page.keyboard.type('全场八折');
    await modal.getByRole('button', { name: /^发\s*布$/ }).click();
    await expect(page.locator('.ant-message')).toContainText('已发布');
    const row = page.getByTestId('admin-notices').locator('tbody tr.ant-table-row').filter({ hasText: '春节活动' });
    await expect(row).toContainText('已发布');
    await expect(row).toContainText('0 / 2');

    // The reader sees it, bold text included, in the notice centre.
    // Its own context: the session lives in localStorage, which pages of one context share.
    const readerContext = await browser.newContext({ baseURL: srv.baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
    const userPage = await readerContext.newPage();
    await seedSession(userPage, reader);
    await userPage.goto('/notifications');
    await userPage.getByText('春节活动').first().click();
    await expect(userPage.getByTestId('notice-detail').locator('strong')).toHaveText('全场八折');
    await userPage.keyboard.press('Escape');

    await page.reload();
    await expect(row).toContainText('1 / 2');
    await row.getByRole('button', { name: /^撤\s*回$/ }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click();
    await expect(row).toContainText('已撤回');

    await userPage.reload();
    await expect(userPage.getByText('春节活动')).toHaveCount(0);
    await readerContext.close();
    await context.close();
    await api.dispose();
  } finally {
    await srv.dispose();
  }
});
