import { test, expect, apiLogin, openUserMenu, seedSession } from '../support/fixtures.js';

test('the profile prompt asks once: 稍后填写 is remembered on the server across reloads', async ({ page, request }) => {
  const s = await apiLogin(request, { fillProfile: false });
  await seedSession(page, s);
  await page.goto('/');
  const fill = page.getByTestId('profile-fill');
  await expect(fill).toBeVisible();
  const saved = page.waitForResponse('**/api/user/setting/update');
  await page.getByTestId('profile-fill-later').click();
  expect((await (await saved).json()).code).toBe(0);
  await expect(fill).toBeHidden();

  // The prompt is decided when the settings arrive: once they have, and the page is quiet, nothing asks again.
  const settings = page.waitForResponse('**/api/user/setting/list');
  await page.reload();
  expect((await (await settings).json()).data).toContainEqual(expect.objectContaining({ settingKey: 'profilePromptDismissed', settingValue: 'true' }));
  await expect(page.getByTestId('user-area')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(fill).toHaveCount(0);

  // The form is still one click away in the user menu.
  await (await openUserMenu(page)).getByRole('menuitem', { name: '完善创作者资料' }).click();
  await expect(fill).toBeVisible();
});

test('an unknown persona shows one not-found state with a way back, no toasts and no endless skeleton', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  const detail = page.waitForResponse('**/api/persona/detail?*');
  await page.goto('/accountManager/persona/987654321');
  expect((await (await detail).json()).code).toBe(1002);
  const notFound = page.getByTestId('persona-not-found');
  await expect(notFound).toContainText('人设不存在或已删除');
  await expect(page.locator('.ant-skeleton')).toHaveCount(0);
  await expect(page.getByTestId('persona-form')).toBeHidden();
  // The page says it once; the request layer does not toast it as well.
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);

  await notFound.getByRole('button', { name: '新建人设' }).click();
  await expect(page).toHaveURL(/\/accountManager\/persona\/new$/);
  await expect(page.getByTestId('persona-form')).toBeVisible();

  // An address that cannot name a persona is a not-found too, not a blank "new" form.
  await page.goto('/accountManager/persona/not-an-id');
  await expect(page.getByTestId('persona-not-found')).toBeVisible();
  await page.getByTestId('persona-not-found').getByRole('button', { name: '返回账号管理' }).click();
  await expect(page).toHaveURL(/\/accountManager$/);
});
