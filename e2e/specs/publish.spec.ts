import { test, expect, apiLogin, flagOn, recordNotifications, seedSession, shownNotifications } from '../support/fixtures.js';
import type { BrowserContext, Page } from '@playwright/test';
import { sandboxCreatorId } from '../../apps/server/src/integrations/platforms/sandbox-site.js';

/**
 * The whole publishing chain against the real server and its embedded 沙箱 creator site: QR
 * binding confirmed on the "phone" page, publishing now and scheduled (the server's browser fills
 * the sandbox's form), a fan comment turning into a browser notification, the operation board,
 * an expired session, and unbinding. Nothing is stubbed but the agent-state flag and the
 * Notification API (recorded instead of drawn).
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const shown = shownNotifications;

async function bindSandbox(page: Page, context: BrowserContext, identity: string) {
  await page.getByTestId('open-bind').click();
  const modal = page.getByTestId('bind-modal');
  await expect(modal.getByRole('radio', { name: '沙箱平台' })).toBeChecked();
  await modal.getByTestId('bind-start').click();
  await expect(modal.getByTestId('bind-qr')).toBeVisible({ timeout: 30_000 });
  await expect(modal.getByTestId('bind-state')).toHaveText('等待扫码');
  const [phone] = await Promise.all([context.waitForEvent('page'), modal.getByTestId('bind-scan-url').click()]);
  await phone.getByLabel('模拟的创作者账号').fill(identity);
  await phone.locator('#confirm').click();
  await expect(phone.locator('#confirmed')).toBeVisible();
  await phone.close();
  await expect(modal.getByTestId('bind-done')).toContainText(identity, { timeout: 30_000 });
  await modal.getByTestId('bind-finish').click();
  const item = page.getByTestId('account-item').filter({ hasText: identity });
  await expect(item).toBeVisible();
  await expect(item).toContainText('沙箱');
  return Number(await item.getAttribute('data-account-id'));
}

test('bind two 沙箱 accounts by QR, publish now and scheduled, fan comment notifies, unbind', async ({ page, context, request, baseURL }) => {
  test.setTimeout(240_000);
  await context.grantPermissions(['notifications'], { origin: baseURL });
  const s = await apiLogin(request);
  await seedSession(page, s);
  await flagOn(page);
  await recordNotifications(page);
  await page.goto('/accountManager');
  await expect(page.getByTestId('accounts-empty')).toBeVisible();

  const idA = await bindSandbox(page, context, '沙箱创作者甲');
  const idB = await bindSandbox(page, context, '沙箱创作者乙');
  await expect(page.getByTestId('accounts-count')).toContainText('共 2 个账号');

  // Pinning 甲 (bound first, so listed last) moves it to the top of the list.
  await expect(page.getByTestId('account-item').first()).toHaveAttribute('data-account-id', String(idB));
  await page.locator(`[data-testid=account-item][data-account-id="${idA}"]`).getByTestId('account-pin').click();
  await expect(page.getByTestId('account-item').first()).toHaveAttribute('data-account-id', String(idA));
  await expect(page.getByTestId('account-item').first().getByTestId('account-pin')).toHaveText('取消置顶');

  // Publish now to 甲.
  await page.getByTestId('open-publish').click();
  const dialog = page.getByTestId('publish-dialog');
  await dialog.getByLabel('标题').fill('砚台测试笔记');
  await dialog.getByLabel('正文').fill('今天分享一个读书和学习的小方法，日常记录。');
  await dialog.locator('input[type=file]').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
  await expect(dialog.locator('.ant-upload-list-item')).toHaveCount(1);
  await expect(dialog.getByTestId('topic-suggestions').locator('.ant-tag').first()).toBeVisible();
  await dialog.getByTestId('topic-suggestions').locator('.ant-tag').first().click();
  await dialog.getByLabel('沙箱创作者甲').check();
  await page.getByTestId('publish-submit').click();
  const progress = dialog.getByTestId('publish-progress');
  await expect(progress).toHaveAttribute('data-status', 'succeeded', { timeout: 90_000 });
  const linkA = progress.getByTestId('publish-job-link');
  await expect(linkA).toHaveAttribute('href', /\/sandbox-platform\/notes\/n\d+$/);
  const noteUrl = (await linkA.getAttribute('href'))!;

  // Scheduled to 乙, 30 s ahead: filling the picker and submitting take several seconds on a busy machine, and with
  // 8 s the time had already come (status 发布中, or refused as past) before the status could be read.
  await page.getByRole('button', { name: '再发一篇' }).click();
  await dialog.getByLabel('沙箱创作者甲').uncheck();
  await dialog.getByLabel('沙箱创作者乙').check();
  await dialog.getByTestId('publish-when').getByText('定时发布').click();
  const at = await page.evaluate(() => {
    const d = new Date(Date.now() + 30_000);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  });
  const picker = dialog.getByPlaceholder('选择发布时间');
  await picker.click();
  await picker.fill(at);
  await picker.press('Enter');
  await expect(picker).toHaveValue(at);
  await page.getByTestId('publish-submit').click();
  await expect(progress.getByTestId('publish-job-status')).toContainText('定时发布');
  await expect(progress).toHaveAttribute('data-status', 'succeeded', { timeout: 90_000 });
  await expect(progress.getByTestId('publish-job-link')).toHaveAttribute('href', /\/sandbox-platform\/notes\/n\d+$/);
  await page.getByTestId('publish-close').click();

  // A fan comments on 甲's note; the engagement sync and the 15 s poll turn it into a notification.
  // Links to the sandbox site are paths on this server (whatever host the page was opened as).
  expect(noteUrl).toMatch(/^\/sandbox-platform\/notes\/n\d+$/);
  const noteId = noteUrl.split('/').pop()!;
  const commented = await (await request.post(`/sandbox-platform/api/notes/${noteId}/comments`, { data: { author: '路过的粉丝', content: '这个多少钱？求链接' } })).json();
  expect(commented.success).toBe(true);
  await expect.poll(() => shown(page), { timeout: 45_000, intervals: [1000] }).toHaveLength(1);
  expect((await shown(page))[0]!.body).toBe('您有1条新的评论消息');

  // The operation board: counts, the intent comment with a reply to copy, the publish record.
  await page.goto(`/operationBoard/${idA}`);
  await expect(page.getByTestId('unread-mentions')).toContainText('1');
  const comment = page.getByTestId('intent-comment');
  await expect(comment).toContainText('这个多少钱？求链接');
  await expect(comment).toContainText('购买意向');
  await expect(comment.getByTestId('suggested-reply')).not.toBeEmpty();
  await comment.getByTestId('copy-reply').click();
  await expect(page.getByText('已复制回复')).toBeVisible();
  await expect(page.getByTestId('board-history').getByTestId('publish-job-link')).toHaveAttribute('href', noteUrl);

  // The platform drops 甲's sessions (only 甲's: other specs publish through the same sandbox site meanwhile): a check
  // flags the account and offers to bind again.
  await (await request.post('/sandbox-platform/api/_control', { data: { expireSessions: sandboxCreatorId('沙箱创作者甲') } })).json();
  await page.goto('/accountManager');
  const itemA = page.locator(`[data-testid=account-item][data-account-id="${idA}"]`);
  await itemA.getByRole('button', { name: '检查登录' }).click();
  await expect(itemA.getByTestId('account-expired')).toBeVisible();
  await expect(itemA.getByTestId('account-rebind')).toBeVisible();

  for (const id of [idA, idB]) {
    await page.locator(`[data-testid=account-item][data-account-id="${id}"]`).getByTestId('account-unbind').click();
    await page.locator('.ant-popconfirm:not(.ant-popover-hidden)').getByRole('button', { name: '解绑' }).click();
    await expect(page.locator(`[data-testid=account-item][data-account-id="${id}"]`)).toHaveCount(0);
  }
  await expect(page.getByTestId('accounts-empty')).toBeVisible();
});
