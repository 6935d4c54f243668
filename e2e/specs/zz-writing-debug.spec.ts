import { test, apiLogin, seedSession } from '../support/fixtures.js';
import type { Page } from '@playwright/test';
async function pick(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
}
for (const variant of ['persona', 'quote']) test('debug ' + variant, async ({ page, request }) => {
  const s = await apiLogin(request);
  const h = { [s.tokenName]: s.tokenValue };
  const bundles = await (await request.get('/api/vip/score/bundle/list', { headers: h })).json();
  const qr = await (await request.post('/api/vip/pay/score-bundle/qrcode', { headers: h, data: { bundleId: bundles.data[0].id } })).json();
  await request.post('/api/pay/sandbox/checkout', { form: { orderNo: qr.data.orderNo } });
  await request.post('/api/persona/save', { headers: h, data: { name: '骑行博主', tone: '轻松、真诚' } });
  await seedSession(page, s);
  await page.goto('/');
  if (variant === 'quote') {
    await page.getByTestId('quote-file-input').setInputFiles({ name: '骑行笔记.txt', mimeType: 'text/plain', buffer: Buffer.from('城市骑行的三条建议：检查刹车，规划路线，注意补水。') });
    await page.getByTestId('quote-list').waitFor();
  } else await pick(page, '人设', '骑行博主');
  await page.getByRole('textbox', { name: '写作主题' }).fill('写一篇周末城市骑行的入门指南');
  await page.getByTestId('home-start').click();
  await page.waitForTimeout(3000);
  console.log(variant, page.url(), (await page.getByTestId('page-editor').innerText({ timeout: 5000 }).catch(() => 'HUNG')).slice(0, 80));
});
