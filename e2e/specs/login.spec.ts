import { test, expect, apiLogin, latestCode, mintHandoverToken, openUserMenu, randomPhone, seedSession } from '../support/fixtures.js';

test('SMS login end to end: sandbox outbox, profile fill, nickname, logout', async ({ page, request }) => {
  const phone = randomPhone();
  await page.goto('/');
  await page.getByTestId('header-login').click();
  const modal = page.getByTestId('login-modal');
  await expect(modal).toBeVisible();
  await modal.getByRole('textbox', { name: '手机号' }).fill(phone);
  await modal.getByTestId('send-code').click();
  await expect(modal.getByTestId('sms-sandbox')).toContainText('沙箱');
  await expect(modal.getByTestId('sms-sandbox').locator('a')).toHaveAttribute('href', '/api/dev/sms-outbox/page');
  await expect(modal.getByTestId('send-code')).toContainText('秒后重新获取');
  await expect(modal.getByTestId('send-code')).toBeDisabled();
  await modal.getByRole('textbox', { name: '验证码' }).fill(await latestCode(request, phone));
  await modal.getByTestId('login-submit').click();
  await expect(modal).toBeHidden();

  // A new user has no profile yet: the profile-fill modal asks for it.
  const fill = page.getByTestId('profile-fill');
  await expect(fill).toBeVisible();
  await fill.getByText('个人创作者').click();
  await fill.getByText('小红书').click();
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(fill).toBeHidden();

  await expect(page.getByTestId('user-area')).toBeVisible();
  // Newbie tour on the home input, once per device.
  const tour = page.locator('.ant-tour');
  await expect(tour).toContainText('从这里开始创作');
  await tour.locator('.ant-tour-close').click();
  await expect(tour).toBeHidden();
  const token = await page.evaluate(() => localStorage.getItem('tokenValue'));
  expect(token).toBeTruthy();

  // Survives a reload (profile from nowLoginUser).
  await page.reload();
  await expect(page.getByTestId('user-nickname')).not.toBeEmpty();
  await expect(page.getByTestId('page-home')).toBeVisible();
  await expect(page.locator('.ant-tour')).toHaveCount(0);

  await (await openUserMenu(page)).getByRole('menuitem', { name: '修改昵称' }).click();
  await page.getByLabel('新昵称').fill('砚台测试');
  await page
    .getByTestId('change-nickname')
    .getByRole('button', { name: /保\s*存/ })
    .click();
  await expect(page.getByTestId('user-nickname')).toHaveText('砚台测试');

  const loggedOut = page.waitForResponse('**/api/auth/logout*');
  await (await openUserMenu(page)).getByRole('menuitem', { name: '退出登录' }).click();
  await loggedOut;
  await expect(page.getByTestId('header-login')).toBeVisible();
  // The server session is really gone.
  const isLogin = await (await request.get('/api/auth/isLogin', { headers: { 'inkstone-token': token! } })).json();
  expect(isLogin.code).not.toBe(0);
});

test('token login from the address goes home and strips the token', async ({ page, request }) => {
  const s = await apiLogin(request);
  const accessToken = await mintHandoverToken(request, s);
  await seedSession(page, null);
  await page.goto(`/knowledge?accessToken=${encodeURIComponent(accessToken)}&scene=web`);
  await expect(page.getByTestId('user-area')).toBeVisible();
  await expect(page).toHaveURL((u) => u.pathname === '/' && !u.search.includes('accessToken'));
  await expect(page.getByTestId('page-home')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
});

test('token login with sparkNavigate stays on the page', async ({ page, request }) => {
  const s = await apiLogin(request);
  const accessToken = await mintHandoverToken(request, s);
  await seedSession(page, null);
  await page.goto(`/knowledge?sparkNavigate=1&accessToken=${encodeURIComponent(accessToken)}`);
  await expect(page.getByTestId('user-area')).toBeVisible();
  await expect(page.getByTestId('page-knowledge')).toBeVisible();
  await expect(page).toHaveURL((u) => u.pathname === '/knowledge' && u.search === '?sparkNavigate=1');
});

test('a bad hand-over token shows the login modal', async ({ page }) => {
  await seedSession(page, null);
  await page.goto('/topic?accessToken=not-a-real-token-000');
  await expect(page.getByTestId('login-modal')).toBeVisible();
  await expect(page).toHaveURL((u) => !u.search.includes('accessToken'));
  await expect(page.getByTestId('page-topic')).toBeVisible();
});

test('WeChat QR login: sandbox scan, 1203 not bound, bind with phone + code', async ({ page, request }) => {
  await seedSession(page, null);
  await page.goto('/');
  await page.getByTestId('header-login').click();
  await page.getByRole('tab', { name: '微信扫码登录' }).click();
  const wx = page.getByTestId('wx-login');
  await expect(wx.getByRole('img', { name: '微信登录二维码' })).toBeVisible();
  await expect(wx).toContainText('沙箱');
  const href = await wx.getByRole('link', { name: '打开模拟扫码页' }).getAttribute('href');
  const scene = new URL(href!, 'http://x').searchParams.get('scene')!;
  // The sandbox scan page plays the phone: confirming records the scan like the WeChat event push.
  const scan = await request.post('/api/dev/wx-sandbox/scan', { form: { scene, identity: `e2e-${scene.slice(0, 8)}` } });
  expect(await scan.text()).toContain('已确认登录');

  const bind = page.getByTestId('wx-bind');
  await expect(bind).toBeVisible({ timeout: 10_000 });
  const phone = randomPhone();
  await bind.getByRole('textbox', { name: '手机号' }).fill(phone);
  await bind.getByTestId('send-code').click();
  await expect(bind.getByTestId('send-code')).toContainText('秒后重新获取');
  await bind.getByRole('textbox', { name: '验证码' }).fill(await latestCode(request, phone));
  await bind.getByRole('button', { name: '绑定并登录' }).click();
  await expect(page.getByTestId('login-modal')).toHaveCount(0);
  await expect(page.getByTestId('profile-fill')).toBeVisible();
});
