import { test, expect, randomPhone, seedSession } from '../support/fixtures.js';
import type { Page } from '@playwright/test';

/**
 * Spec section 8 through a real foreground call: "获取验证码" (GET /api/auth/send/msg).
 * The server has no endpoint that answers 905/912/933/991/999/437/507/10041 today, so those rows
 * fulfil that one call with the envelope (page.route); 1xxx codes, 401/430, transport errors and
 * analytics go to the real server.
 */
async function openLogin(page: Page) {
  await seedSession(page, null);
  await page.goto('/');
  await page.getByTestId('header-login').click();
  const modal = page.getByTestId('login-modal');
  await modal.getByRole('textbox', { name: '手机号' }).fill(randomPhone());
  return modal;
}

const stubSend = (page: Page, body: object) => page.route('**/api/auth/send/msg?*', (route) => route.fulfill({ json: body }));
const messages = (page: Page) => page.locator('.ant-message-notice');

test('905/912/other show the msg; 933 warns; 999 server busy; every code is reported', async ({ page }) => {
  const modal = await openLogin(page);
  const rows: [object, string][] = [
    [{ code: 905, msg: '今日次数已用完', data: null }, '今日次数已用完'],
    [{ code: 912, msg: '活动已结束', data: null }, '活动已结束'],
    [{ code: 933, msg: 'x', data: null }, '描述词存在敏感内容'],
    [{ code: 999, msg: 'internal', data: null }, '服务器开小差中，请稍后再试'],
    [{ code: 4321, msg: '未知错误码的提示', data: null }, '未知错误码的提示'],
  ];
  for (const [body, text] of rows) {
    await page.unroute('**/api/auth/send/msg?*');
    await stubSend(page, body);
    const report = page.waitForRequest((r) => r.url().endsWith('/api/engine/v2/log/collect') && r.method() === 'POST');
    await page.waitForTimeout(600); // past the 500 ms same-URL dedupe window
    await modal.getByTestId('send-code').click();
    await expect(messages(page).filter({ hasText: text })).toBeVisible();
    if (text === '描述词存在敏感内容') await expect(messages(page).filter({ hasText: text }).locator('.ant-message-warning')).toBeVisible();
    const payload = (await report).postDataJSON();
    expect(payload).toMatchObject({ type: 'api-code', url: '/auth/send/msg', code: (body as { code: number }).code });
  }
});

test('991 is an error notification titled 操作失败 (msg, or 暂无图片搜索结果)', async ({ page }) => {
  const modal = await openLogin(page);
  await stubSend(page, { code: 991, msg: '', data: null });
  await modal.getByTestId('send-code').click();
  const note = page.locator('.ant-notification-notice');
  await expect(note).toContainText('操作失败');
  await expect(note).toContainText('暂无图片搜索结果');
  await page.unroute('**/api/auth/send/msg?*');
  await stubSend(page, { code: 991, msg: '图片生成失败', data: null });
  await page.waitForTimeout(1100);
  await modal.getByTestId('send-code').click();
  await expect(page.locator('.ant-notification-notice').filter({ hasText: '图片生成失败' })).toBeVisible();
});

test('437/507 reject silently; 10041 is a normal result', async ({ page }) => {
  const modal = await openLogin(page);
  for (const code of [437, 507]) {
    await page.unroute('**/api/auth/send/msg?*');
    await stubSend(page, { code, msg: `silent ${code}`, data: null });
    const res = page.waitForResponse('**/api/auth/send/msg?*');
    await modal.getByTestId('send-code').click();
    await res;
    await page.waitForTimeout(300);
    await expect(page.getByText(`silent ${code}`)).toHaveCount(0);
    await expect(modal.getByTestId('send-code')).toHaveText(/获取验证码/);
  }
  await page.unroute('**/api/auth/send/msg?*');
  await stubSend(page, { code: 10041, msg: 'passthrough', data: { resendAfterSeconds: 60, sandbox: false } });
  await modal.getByTestId('send-code').click();
  await expect(modal.getByTestId('send-code')).toContainText('秒后重新获取');
  await expect(page.getByText('passthrough')).toHaveCount(0);
});

test('duplicate messages for the same URL within 500 ms show once, and again after the window', async ({ page }) => {
  const modal = await openLogin(page);
  // Every message that ever appears is counted, so an auto-closed one is not missed.
  await page.evaluate(() => {
    const w = window as unknown as { shownTexts: string[] };
    w.shownTexts = [];
    // One count per notice element: a list and the notice inside it can arrive as two mutation records.
    const seen = new WeakSet<Element>();
    new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.addedNodes) {
          if (!(n instanceof HTMLElement)) continue;
          for (const el of n.matches('.ant-message-notice') ? [n] : n.querySelectorAll('.ant-message-notice')) {
            if (seen.has(el)) continue;
            seen.add(el);
            w.shownTexts.push(el.textContent ?? '');
          }
        }
    }).observe(document.body, { childList: true, subtree: true });
  });
  const shown = (text: string) => page.evaluate((t) => (window as unknown as { shownTexts: string[] }).shownTexts.filter((s) => s.includes(t)).length, text);
  const reports = () => page.waitForRequest((r) => r.url().endsWith('/api/engine/v2/log/collect'));

  // The page's clock stands still (timers keep running): each answer is handled at the instant the test sets, the
  // second one 499 ms after the first, inside the window.
  const t0 = new Date('2026-03-01T09:00:00+08:00');
  await stubSend(page, { code: 905, msg: '重复提示', data: null });
  for (const at of [0, 499]) {
    await page.clock.setFixedTime(new Date(t0.getTime() + at));
    // The code is reported right before the message decision, so each answer is handled before the next click.
    const reported = reports();
    await modal.getByTestId('send-code').click();
    await reported;
  }
  // 500 ms after the first (the window's end) the same URL shows its message again; a different text tells it apart.
  await page.unroute('**/api/auth/send/msg?*');
  await stubSend(page, { code: 905, msg: '窗口之后', data: null });
  await page.clock.setFixedTime(new Date(t0.getTime() + 500));
  const reported = reports();
  await modal.getByTestId('send-code').click();
  await reported;
  // Toasts go out at most one a second (by the same clock): let time flow again so the queue can drain.
  await page.clock.resume();
  await page.clock.setSystemTime(new Date(t0.getTime() + 5_000));
  await expect.poll(() => shown('窗口之后')).toBe(1);
  // The queue is first in, first out: had the second answer been let through, it would be counted by now.
  expect(await shown('重复提示')).toBe(1);
});

test('a foreground reply that is no envelope (a 200 HTML page) says the server is busy', async ({ page }) => {
  const modal = await openLogin(page);
  await page.route('**/api/auth/send/msg?*', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<html><body>维护中</body></html>' }));
  await modal.getByTestId('send-code').click();
  await expect(messages(page).filter({ hasText: '服务器开小差中，请稍后再试' })).toHaveCount(1);
  await expect(page.getByText('维护中')).toHaveCount(0);
  await expect(modal.getByTestId('send-code')).toHaveText(/获取验证码/);
});

test('a 502 page from the gateway on a foreground call says the server is busy', async ({ page }) => {
  const modal = await openLogin(page);
  await page.route('**/api/auth/send/msg?*', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>502 Bad Gateway</body></html>' }));
  await modal.getByTestId('send-code').click();
  await expect(messages(page).filter({ hasText: '服务器开小差中，请稍后再试' })).toHaveCount(1);
  await expect(page.getByText('Bad Gateway')).toHaveCount(0);
});

test('real server: a wrong code shows its msg; offline is silent; a slow login times out', async ({ page, context }) => {
  test.setTimeout(45_000);
  const modal = await openLogin(page);
  await modal.getByRole('textbox', { name: '验证码' }).fill('000000');
  await modal.getByTestId('login-submit').click();
  await expect(messages(page).filter({ hasText: /验证码/ })).toBeVisible();

  await context.setOffline(true);
  await page.waitForTimeout(600);
  const before = await messages(page).count();
  await modal.getByTestId('send-code').click();
  await page.waitForTimeout(800);
  await expect(messages(page).filter({ hasText: /请求超时|服务器开小差/ })).toHaveCount(0);
  expect(await messages(page).count()).toBeLessThanOrEqual(before);
  await context.setOffline(false);

  // Login calls time out after 10 s: the real server's reply is held back past that.
  await page.route('**/api/auth/doLogin0', async (route) => {
    await new Promise((r) => setTimeout(r, 11_000));
    await route.continue().catch(() => {});
  });
  await modal.getByTestId('login-submit').click();
  await expect(messages(page).filter({ hasText: '请求超时，请稍后再试' })).toBeVisible({ timeout: 15_000 });
});
