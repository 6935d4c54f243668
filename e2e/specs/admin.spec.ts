import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { test, expect, apiLogin, randomPhone, seedSession, type Session } from '../support/fixtures.js';
import { OwnServer } from '../support/own-server.js';

/** The console's own chunk (vite.config.ts names it): a normal user must never request it. */
const ADMIN_CHUNK = /\/assets\/admin-console-[\w-]+\.js/;

function recordScripts(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') urls.push(r.url());
  });
  return urls;
}

async function apiData<T>(request: APIRequestContext, method: 'GET' | 'POST', url: string, s?: Session, data?: unknown): Promise<T> {
  const headers = s ? { [s.tokenName]: s.tokenValue } : {};
  const res = await (await (method === 'GET' ? request.get(url, { headers }) : request.post(url, { headers, data }))).json();
  expect(res.code, `${url}: ${JSON.stringify(res)}`).toBe(0);
  return res.data as T;
}

test('a normal user who opens /admin is refused in place and downloads no console code', async ({ page, request }) => {
  const scripts = recordScripts(page);
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/admin/users');
  await expect(page.getByTestId('admin-refused')).toContainText('无权限访问管理后台');
  await expect(page.getByTestId('admin-console')).toHaveCount(0);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((u) => ADMIN_CHUNK.test(u))).toEqual([]);
});

test('a visitor who opens /admin is asked to log in and downloads no console code', async ({ page }) => {
  const scripts = recordScripts(page);
  await seedSession(page, null);
  await page.goto('/admin');
  await expect(page.getByTestId('admin-login')).toBeVisible();
  expect(scripts.filter((u) => ADMIN_CHUNK.test(u))).toEqual([]);
});

test('an owner granted by the CLI refunds a paid VIP order from the console; the buyer loses the VIP days and points; the audit log shows it', async ({ browser }) => {
  // Two server starts on a shared two-core machine.
  test.setTimeout(180_000);
  // Its own server: the CLI cannot open the shared server's embedded database while that server runs.
  const srv = new OwnServer();
  try {
    await srv.start();
    const api = await playwrightRequest.newContext({ baseURL: srv.baseURL, extraHTTPHeaders: { 'x-forwarded-for': '10.77.0.1' } });
    const ownerPhone = randomPhone();
    // The account exists first (a login), then the operator grants the role on the stopped server, as on a real install.
    // Sessions are rows of the database: this one outlives the restart.
    const owner = await apiLogin(api, { phone: ownerPhone });
    await srv.stop();
    const granted = await srv.admin('role:grant', '--phone', ownerPhone, '--role', 'owner');
    expect(granted).toContain('owner');
    await srv.start();

    // A buyer pays for a VIP plan on the sandbox gateway.
    const buyer = await apiLogin(api);
    const pointsBefore = (await apiData<{ score: number }>(api, 'GET', '/api/vip/user/score', buyer)).score;
    const plans = await apiData<Array<{ id: string; name: string; points: number; price: number }>>(api, 'GET', '/api/vip/subscribe/category');
    const plan = plans.find((p) => p.points > 0) ?? plans[0]!;
    const qr = await apiData<{ orderNo: string }>(api, 'POST', '/api/vip/pay/qrcode', buyer, { categoryId: plan.id });
    const paid = await api.post('/api/pay/sandbox/checkout', { form: { orderNo: qr.orderNo } });
    expect(await paid.text()).toContain('支付成功');
    await expect.poll(async () => (await apiData<{ status: string }>(api, 'GET', `/api/vip/pay/order/status?orderNo=${qr.orderNo}`, buyer)).status).toBe('paid');
    expect((await apiData<{ isVip: boolean }>(api, 'GET', '/api/vip/user/info', buyer)).isVip).toBe(true);
    expect((await apiData<{ score: number }>(api, 'GET', '/api/vip/user/score', buyer)).score).toBe(pointsBefore + plan.points);

    // The owner logs in and opens the console: the console chunk loads for them.
    const context = await browser.newContext({ baseURL: srv.baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
    const page = await context.newPage();
    const scripts = recordScripts(page);
    await seedSession(page, owner);
    await page.goto('/admin');
    await expect(page.getByTestId('admin-console')).toBeVisible();
    await expect(page.getByTestId('admin-role')).toHaveText('所有者');
    expect(scripts.some((u) => ADMIN_CHUNK.test(u))).toBe(true);

    // Orders -> the buyer's order -> full refund, confirmed twice.
    await page.getByTestId('admin-menu').getByRole('link', { name: '订单' }).click();
    await page.getByRole('searchbox', { name: '订单号' }).fill(qr.orderNo);
    await page.getByRole('searchbox', { name: '订单号' }).press('Enter');
    const row = page.getByTestId('admin-orders-table').locator('tbody tr.ant-table-row');
    await expect(row).toHaveCount(1);
    await row.click();
    const drawer = page.getByTestId('admin-order-drawer');
    await expect(drawer.getByTestId('admin-order-status')).toContainText('已支付');
    await drawer.getByTestId('admin-refund-open').click();
    const refund = page.getByTestId('admin-refund');
    await refund.getByRole('textbox', { name: '退款原因' }).fill('用户申请全额退款（e2e）');
    await refund.getByRole('button', { name: '下一步' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await expect(confirm).toContainText('确认退款');
    await confirm.getByRole('button', { name: '确认退款' }).click();
    await expect(page.locator('.ant-message')).toContainText('退款成功');
    await expect(drawer.getByTestId('admin-order-status')).toContainText('已退款');
    await expect(drawer.getByTestId('admin-order-refunds')).toContainText('用户申请全额退款（e2e）');

    // The buyer's VIP and points reflect it.
    expect((await apiData<{ isVip: boolean }>(api, 'GET', '/api/vip/user/info', buyer)).isVip).toBe(false);
    expect((await apiData<{ score: number }>(api, 'GET', '/api/vip/user/score', buyer)).score).toBe(pointsBefore);
    await page.keyboard.press('Escape');
    await page.goto(`/admin/users/${buyer.user.id}`);
    await expect(page.getByTestId('admin-user-points')).toHaveText(String(pointsBefore));
    await expect(page.getByTestId('admin-user-ledger')).toContainText('订单退款扣回积分');
    // Closing the user's drawer returns to the list (the URL drops the id).
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/admin\/users$/);

    // The audit log shows the refund, with who did it.
    await page.getByTestId('admin-menu').getByRole('link', { name: '审计日志' }).click();
    await page.getByRole('searchbox', { name: '对象ID' }).fill(qr.orderNo);
    await page.getByRole('searchbox', { name: '对象ID' }).press('Enter');
    const audit = page.getByTestId('admin-audit-table');
    await expect(audit).toContainText('order.refund.request');
    await expect(audit).toContainText('order.refund.succeeded');
    await expect(audit).toContainText('所有者');

    await context.close();
    await api.dispose();
  } finally {
    await srv.dispose();
  }
});

test('an owner manages 模型与来源: a model whose key is never shown again, 连接测试 reports the vendor error, a sensitive word refuses tasks until removed', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const srv = new OwnServer();
  try {
    await srv.start();
    const api = await playwrightRequest.newContext({ baseURL: srv.baseURL, extraHTTPHeaders: { 'x-forwarded-for': '10.77.0.2' } });
    const ownerPhone = randomPhone();
    const owner = await apiLogin(api, { phone: ownerPhone });
    await srv.stop();
    expect(await srv.admin('role:grant', '--phone', ownerPhone, '--role', 'owner')).toContain('owner');
    await srv.start();

    const context = await browser.newContext({ baseURL: srv.baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
    const page = await context.newPage();
    await seedSession(page, owner);
    await page.goto('/admin/models');
    await expect(page.getByTestId('admin-models')).toBeVisible();

    // A model pointing at a port nobody listens on: saved with its key, which the table then shows only as sk-…last4.
    const key = 'sk-e2e-secret-key-7f3a';
    await page.getByTestId('admin-model-add').click();
    const form = page.getByTestId('admin-model-form');
    await form.getByLabel(/模型 ID/).fill('e2e-model');
    await form.getByLabel('显示名称').fill('端到端模型');
    await form.getByLabel(/接口地址/).fill('http://127.0.0.1:9/v1');
    await form.getByLabel('模型名').fill('e2e-chat');
    await form.getByLabel('API Key').fill(key);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.locator('.ant-message')).toContainText('已添加 e2e-model');
    const row = page.locator('tr', { hasText: 'e2e-model' });
    await expect(row).toContainText('sk-…7f3a');
    expect(await page.content()).not.toContain(key);

    // Editing shows 留空则不修改 for the key.
    await page.getByTestId('admin-model-edit-e2e-model').click();
    await expect(page.getByTestId('admin-model-form').getByPlaceholder('留空则不修改')).toBeVisible();
    await page.keyboard.press('Escape');

    await page.getByTestId('admin-model-test-e2e-model').click();
    await expect(page.getByTestId('admin-model-test-error')).toContainText(/connection/i);
    await page.getByRole('button', { name: /知道了|OK|确定/ }).click();

    // A sensitive word: tasks containing it are refused at once (933), and pass again once it is removed.
    const writer = await apiLogin(api);
    const word = `端到端禁词${Date.now() % 100000}`;
    const task = async () =>
      (
        await (
          await api.post('/api/mp/task/create', {
            headers: { [writer.tokenName]: writer.tokenValue },
            data: { createType: 'article', content: `介绍一下${word}`, modelConfigType: 'offline' },
          })
        ).json()
      ).code as number;
    await page.getByRole('tab', { name: '敏感词' }).click();
    await page.getByTestId('admin-lexicon-word').fill(word);
    await page.getByTestId('admin-lexicon-add').click();
    await expect(page.locator('.ant-message')).toContainText('立即生效');
    expect(await task()).toBe(933);
    await page.getByTestId('admin-lexicon-search').getByRole('searchbox').fill(word);
    await page.getByTestId('admin-lexicon-search').getByRole('searchbox').press('Enter');
    await page.getByTestId(`admin-lexicon-remove-${word}`).click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确定|OK/ })
      .click();
    await expect(page.locator('.ant-message')).toContainText(`已删除「${word}」`);
    expect(await task()).toBe(0);

    await context.close();
    await api.dispose();
  } finally {
    await srv.dispose();
  }
});
