import type { Page } from '@playwright/test';
import { test, expect, apiLogin, mintHandoverToken, openUserMenu, seedSession } from '../support/fixtures.js';

/**
 * Spec sections 3 and 4 through the production build: the start-up in main.tsx and session.ts, the login state, the
 * address's sparkNavigate, and where the global setting's reward figures are shown (docs/spec/coverage.md).
 */

/** Records, in the page, whether the login modal ever appeared before `markUserAction` (a 430 opening it by itself). */
async function watchLoginModal(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __modal: string[]; __userAction: boolean };
    w.__modal = [];
    w.__userAction = false;
    new MutationObserver(() => {
      if (!w.__modal.length && document.querySelector('[data-testid="login-modal"]')) w.__modal.push(w.__userAction ? 'after-user-action' : 'by-itself');
    }).observe(document.body, { childList: true, subtree: true });
  });
}

test('login state is UNKNOWN until the session is known: the boot screen, neither the login button nor the user menu, while nowLoginUser is pending', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let asked!: () => void;
  const askedForUser = new Promise<void>((r) => (asked = r));
  await page.route('**/api/auth/nowLoginUser', async (route) => {
    asked();
    await held;
    await route.continue();
  });
  await page.goto('/knowledge');
  await askedForUser;
  // Still deciding: the boot screen, neither the logged-out nor the logged-in side (nor a layout chosen for either).
  await expect(page.getByTestId('app-booting')).toBeVisible();
  await expect(page.getByTestId('header-login')).toHaveCount(0);
  await expect(page.getByTestId('user-area')).toHaveCount(0);
  await expect(page.getByTestId('page-knowledge')).toHaveCount(0);
  release();
  await expect(page.getByTestId('user-area')).toBeVisible();
  await expect(page.getByTestId('page-knowledge')).toBeVisible();
  await expect(page.getByTestId('app-booting')).toHaveCount(0);
  await expect(page.getByTestId('header-login')).toHaveCount(0);
});

test('token login runs only when logged out: a signed-in tab keeps its session and drops the hand-over token unused', async ({ page, request }) => {
  const signedIn = await apiLogin(request);
  const other = await apiLogin(request);
  const accessToken = await mintHandoverToken(request, other);
  await seedSession(page, signedIn);
  const sparkLogins: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/auth/spark/login')) sparkLogins.push(r.url());
  });
  const me: number[] = [];
  page.on('response', async (r) => {
    if (r.url().endsWith('/api/auth/nowLoginUser')) me.push(((await r.json()) as { data: { id: number } }).data.id);
  });
  await page.goto(`/knowledge?accessToken=${encodeURIComponent(accessToken)}&scene=web`);
  await expect(page.getByTestId('user-area')).toBeVisible();
  expect(sparkLogins).toEqual([]);
  await expect.poll(() => me).toEqual([signedIn.user.id]);
  await expect(page).toHaveURL((u) => u.pathname === '/knowledge' && !u.search.includes('accessToken'));
  expect(await page.evaluate(() => [localStorage.getItem('tokenValue'), localStorage.getItem('accessToken')])).toEqual([signedIn.tokenValue, null]);
  // The hand-over token was never spent: it still logs its own user in.
  const used = await (await request.post('/api/auth/spark/login', { data: { accessToken, scene: 'web' } })).json();
  expect(used.code, JSON.stringify(used)).toBe(0);
  expect(used.data.user.id).toBe(other.user.id);
});

test('start-up (main.tsx): the first load of a day removes the previous day marker; query parameters and the device id are kept locally', async ({ page }) => {
  const morning = new Date('2026-03-02T09:00:00+08:00');
  await page.clock.setFixedTime(morning);
  await seedSession(page, null, { 'dailyMarker:2026-03-01': String(morning.getTime() - 86_400_000), 'dailyMarker:2026-02-27': '1' });
  await page.goto('/?channelid=c-7&recallActivity=spring&bd_vid=b1&qhclickid=q1&msclkid=m1&sparkNavigate=1&other=x');
  await expect(page.getByTestId('header-login')).toBeVisible();
  const stored = () =>
    page.evaluate(() =>
      Object.fromEntries(
        Object.keys(localStorage)
          .map((k) => [k, localStorage.getItem(k)] as const)
          .filter(([k]) => k !== 'tour:home:done'),
      ),
    );
  const first = await stored();
  expect(Object.entries(first).filter(([k]) => k.startsWith('dailyMarker:'))).toEqual([['dailyMarker:2026-03-02', String(morning.getTime())]]);
  expect(first).toMatchObject({ channelId: 'c-7', recallActivity: 'spring', bd_vid: 'b1', qhclickid: 'q1', msclkid: 'm1', sparkNavigate: '1' });
  expect(first).not.toHaveProperty('other');
  expect(first.duid).toMatch(/^[0-9a-f-]{36}$/);

  // Later the same day: the day's marker stays as it was, and so does the device id.
  await page.clock.setFixedTime(new Date('2026-03-02T18:00:00+08:00'));
  await page.goto('/');
  await expect(page.getByTestId('header-login')).toBeVisible();
  const second = await stored();
  expect(Object.entries(second).filter(([k]) => k.startsWith('dailyMarker:'))).toEqual([['dailyMarker:2026-03-02', String(morning.getTime())]]);
  expect(second.duid).toBe(first.duid);
});

test('sparkNavigate in the address: a 430 on a call the user makes logs out and removes the account, but opens no login modal', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/knowledge?sparkNavigate=1');
  await expect(page.getByTestId('user-area')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => localStorage.getItem('account'))).not.toBeNull();
  await watchLoginModal(page);
  await page.route('**/api/user/change-nickname?*', (route) => route.fulfill({ json: { code: 430, msg: '登录已失效', data: null } }));

  await (await openUserMenu(page)).getByRole('menuitem', { name: '修改昵称' }).click();
  await page.getByLabel('新昵称').fill('新的昵称');
  const res = page.waitForResponse('**/api/user/change-nickname?*');
  await page
    .getByTestId('change-nickname')
    .getByRole('button', { name: /保\s*存/ })
    .click();
  expect((await (await res).json()).code).toBe(430);
  await expect(page.getByTestId('header-login')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('account'))).toBeNull();
  // Had the 430 opened the modal, its code would have been fetched and shown by now.
  await page.waitForLoadState('networkidle');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('change-nickname')).toBeHidden();
  await page.evaluate(() => ((window as unknown as { __userAction: boolean }).__userAction = true));
  await page.getByTestId('header-login').click();
  await expect(page.getByTestId('login-modal')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __modal: string[] }).__modal)).toEqual(['after-user-action']);
  await expect(page).toHaveURL((u) => u.pathname === '/knowledge' && u.searchParams.has('sparkNavigate'));
});

test("the global setting's reward figures are shown where the user sees rewards: the home page and the points rules", async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  // Figures no other source gives: activeReward is the daily reward, autoRenewalDays the return reward.
  await page.route('**/api/user/global-setting', (route) => route.fulfill({ json: { code: 0, msg: 'ok', data: { activeReward: 23, autoRenewalDays: 41, logo: '' } } }));
  await page.goto('/');
  await expect(page.getByTestId('daily-reward')).toHaveText('每日登录奖励 23 积分');
  await page.goto('/pointsRule');
  await expect(page.getByTestId('rule-daily')).toHaveText('23');
  await expect(page.getByTestId('earn-rules')).toContainText('再次登录时额外获得 41 积分');
});

test('the notice bubble: unreadNoticeNum from /notice/bubble is the count on the header bell', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.route('**/api/notice/bubble', (route) => route.fulfill({ json: { code: 0, msg: 'ok', data: { unreadNoticeNum: 7 } } }));
  await page.goto('/knowledge');
  await expect(page.getByTestId('header-bell').locator('.ant-badge-count')).toHaveAttribute('title', '7');
  await expect(page.getByTestId('header-bell')).toHaveAttribute('aria-label', '消息通知');
});
