import { test, expect, apiLogin, seedSession } from '../support/fixtures.js';

/**
 * Publishing to Xiaohongshu as the site is in 2026 (the local page set started by global setup: TipTap body, the
 * closed-shadow <xhs-publish-btn>, decoy tabs, signed web-API calls): a creator binds an account by scanning the QR
 * the server's browser read off the creator site, publishes a note from the dialog, and the note arrives on the
 * site; the operation board says plainly that the inbox cannot be read with this login.
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const xhs = () => process.env.E2E_XHS_URL!;

test('bind a 小红书 account by QR and publish a note to the 2026 creator site', async ({ page, request }) => {
  test.setTimeout(180_000);
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/accountManager');
  await expect(page.getByTestId('accounts-empty')).toBeVisible();

  const name = `小红薯${Date.now().toString(36)}`;
  await page.getByTestId('open-bind').click();
  const modal = page.getByTestId('bind-modal');
  // antd's button radios keep the input hidden: the creator clicks the button's label.
  await modal.locator('label.ant-radio-button-wrapper').filter({ hasText: '小红书' }).click();
  await expect(modal.getByRole('radio', { name: '小红书' })).toBeChecked();
  await modal.getByTestId('bind-start').click();
  await expect(modal.getByTestId('bind-qr')).toBeVisible({ timeout: 60_000 });
  // The creator scans with the Xiaohongshu app: the stand-in's phone.
  const scanned = await request.post(`${xhs()}/__standin/scan`, { data: { confirm: true, name } });
  expect(scanned.ok()).toBe(true);
  await expect(modal.getByTestId('bind-done')).toContainText(name, { timeout: 60_000 });
  await modal.getByTestId('bind-finish').click();
  const item = page.getByTestId('account-item').filter({ hasText: name });
  await expect(item).toContainText('小红书');
  const accountId = Number(await item.getAttribute('data-account-id'));

  await page.getByTestId('open-publish').click();
  const dialog = page.getByTestId('publish-dialog');
  await dialog.getByLabel('标题').fill('砚台的小红书笔记');
  await dialog.getByLabel('正文').fill('周末去湖边走了走，记录一下。');
  await dialog.locator('input[type=file]').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
  await expect(dialog.locator('.ant-upload-list-item')).toHaveCount(1);
  await dialog.getByLabel(name).check();
  await page.getByTestId('publish-submit').click();
  const progress = dialog.getByTestId('publish-progress');
  await expect(progress).toHaveAttribute('data-status', 'succeeded', { timeout: 120_000 });
  await expect(progress.getByTestId('publish-job-link')).toHaveAttribute('href', /^https:\/\/www\.xiaohongshu\.com\/explore\/[0-9a-f]+$/);

  const site = (await (await request.get(`${xhs()}/__standin/notes`)).json()) as { notes: Array<{ title: string; images: number }>; unsignedCalls: string[] };
  expect(site.notes.find((n) => n.title === '砚台的小红书笔记')?.images).toBe(1);
  expect(site.unsignedCalls).toEqual([]);
  await page.getByTestId('publish-close').click();

  await page.goto(`/operationBoard/${accountId}`);
  await expect(page.getByTestId('board-unread-unavailable')).toContainText('网页版登录');
});
