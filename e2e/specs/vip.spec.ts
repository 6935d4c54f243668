import { test, expect, apiLogin, latestCode, randomPhone, seedSession, type Session } from '../support/fixtures.js';
import type { APIRequestContext, Page } from '@playwright/test';

interface Plan {
  id: string;
  name: string;
  points: number;
  price: number;
  durationDays?: number;
}

async function apiData<T>(request: APIRequestContext, url: string, s?: Session): Promise<T> {
  const res = await (await request.get(url, s ? { headers: { [s.tokenName]: s.tokenValue } } : {})).json();
  expect(res.code, JSON.stringify(res)).toBe(0);
  return res.data as T;
}

async function balanceOn(page: Page): Promise<number> {
  const el = page.getByTestId('points-balance');
  await expect(el).toHaveText(/^\d+$/);
  return Number(await el.textContent());
}

/**
 * Opens the QR dialog for one card, pays on the sandbox checkout page in a second tab (the payer's
 * phone), and waits for the dialog to close by itself.
 */
async function buyWithSandbox(page: Page, buttonTestId: string) {
  await page.getByTestId(buttonTestId).click();
  const modal = page.getByTestId('pay-modal');
  await expect(modal.getByTestId('pay-qr')).toBeVisible();
  await expect(modal.getByTestId('pay-qr')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(modal.getByTestId('pay-sandbox')).toHaveText('沙箱');
  await expect(modal.getByTestId('pay-countdown')).toHaveText(/^\d\d:\d\d$/);
  const codeUrl = await modal.getByTestId('pay-open-checkout').getAttribute('href');
  expect(codeUrl).toContain('/api/pay/sandbox/checkout?orderNo=');

  const phone = await page.context().newPage();
  await phone.goto(codeUrl!);
  await expect(phone.getByText('沙箱').first()).toBeVisible();
  await phone.getByRole('button', { name: '确认支付' }).click();
  await expect(phone.getByText('支付成功')).toBeVisible();
  await phone.close();

  // Polling (every 2 s) sees `paid`: the dialog closes on its own.
  await expect(page.getByTestId('pay-modal')).toHaveCount(0, { timeout: 15_000 });
}

test('buy a VIP plan and a points bundle with the sandbox gateway; orders and history follow', async ({ page, request }) => {
  const s = await apiLogin(request);
  const plans = await apiData<Plan[]>(request, '/api/vip/subscribe/category');
  const bundles = await apiData<Plan[]>(request, '/api/vip/score/bundle/list');
  const plan = plans[0]!;
  const bundle = bundles[0]!;

  await seedSession(page, s);
  await page.goto('/integral');
  await expect(page.getByTestId('page-integral')).toBeVisible();
  await expect(page.getByTestId('plan-card')).toHaveCount(plans.length);
  await expect(page.getByTestId('bundle-card')).toHaveCount(bundles.length);
  await expect(page.getByTestId('plan-card').first()).toContainText(`¥${(plan.price / 100).toFixed(2)}`);
  await expect(page.getByTestId('vip-status')).toHaveText('普通用户');
  await expect(page.getByTestId(`buy-plan-${plan.id}`)).toHaveText('立即开通');
  const before = await balanceOn(page);
  // Everything below must happen without a page load: this marker would be lost by one.
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  await buyWithSandbox(page, `buy-plan-${plan.id}`);
  await expect(page.getByTestId('vip-status')).toContainText('会员有效');
  await expect(page.getByTestId('vip-expiry')).toContainText('有效期至');
  // Members renew; the page was opened before paying, and still counts the days like every other page.
  await expect(page.getByTestId(`buy-plan-${plan.id}`)).toHaveText('续费会员');
  await expect(page.getByTestId('vip-expiry')).toContainText(`剩余${plan.durationDays!}天`);
  await expect(page.getByTestId('points-balance')).toHaveText(String(before + plan.points));

  await buyWithSandbox(page, `buy-bundle-${bundle.id}`);
  await expect(page.getByTestId('points-balance')).toHaveText(String(before + plan.points + bundle.points));
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

  await page.getByTestId('integral-orders').click();
  await expect(page.getByTestId('page-orderInfo')).toBeVisible();
  const rows = page.getByTestId('orders-table').locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('order-status')).toHaveText(['已支付', '已支付']);
  await expect(page.getByTestId('orders-table')).toContainText(plan.name);
  await expect(page.getByTestId('orders-table')).toContainText(bundle.name);
  await expect(page.getByTestId('orders-table')).toContainText(`¥${(bundle.price / 100).toFixed(2)}`);

  await page.goto('/mine');
  await expect(page.getByTestId('vip-expiry')).toContainText(`剩余${plan.durationDays!}天`);
  const history = page.getByTestId('history-table');
  await expect(history).toContainText(`购买${plan.name}`);
  await expect(history).toContainText(`购买积分包 ${bundle.name}`);
  await expect(history).toContainText(`+${plan.points}`);
  await expect(history).toContainText(`+${bundle.points}`);
});

test('closing the QR dialog cancels it; an expired order offers 刷新', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  const statusCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/vip/pay/order/status')) statusCalls.push(r.url());
  });
  // The server decides expiry; the dialog must follow it.
  await page.route('**/api/vip/pay/order/status?**', (route) => route.fulfill({ json: { code: 0, msg: 'ok', data: { status: 'expired' } } }));
  await page.goto('/integral');
  await page.getByTestId('plan-card').first().getByRole('button').click();
  const modal = page.getByTestId('pay-modal');
  await expect(modal.getByTestId('pay-expired')).toContainText('二维码已过期', { timeout: 10_000 });
  await page.unroute('**/api/vip/pay/order/status?**');
  await modal.getByRole('button', { name: '刷新' }).click();
  await expect(modal.getByTestId('pay-expired')).toHaveCount(0);
  await expect(modal.getByTestId('pay-countdown')).toBeVisible();

  await page.locator('.ant-modal-close').click();
  await expect(page.getByTestId('pay-modal')).toHaveCount(0);
  const n = statusCalls.length;
  await page.waitForTimeout(4500);
  expect(statusCalls.length, 'no polling after close').toBe(n);
});

test('a 1501 reply opens the lackPoints prompt, refreshes the balance and leads to /integral', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  // The daily claim stands in for a paid call, answered with the server's real 1501 shape. The day's reward
  // is normally credited at start-up already; this page is told it is not, so the button is offered.
  await page.route('**/api/activity/homepage/config', (route) =>
    route.fulfill({ json: { code: 0, msg: 'ok', data: { dailyReward: 20, returnReward: 100, logo: '/logo.svg', dailyClaimedToday: false, contest: null } } }),
  );
  await page.route('**/api/vip/activity/daily/claim', (route) =>
    route.fulfill({ json: { code: 1501, msg: '积分不足', data: { iDataEventId: 'article_deep', balance: 0, need: 20 } } }),
  );
  await page.goto('/mine');
  await expect(page.getByTestId('daily-claim')).toBeEnabled();
  const refreshed = page.waitForRequest((r) => r.url().includes('/api/vip/user/score'));
  await page.getByTestId('daily-claim').click();
  const prompt = page.getByTestId('lack-points');
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('「深度写作」需要 20 积分');
  await refreshed;
  await prompt.getByTestId('lack-points-buy').click();
  await expect(page).toHaveURL(/\/integral$/);
  await expect(page.getByTestId('lack-points')).toHaveCount(0);
  await expect(page.getByTestId('page-integral')).toBeVisible();
});

test('/mine: welcome points and the daily reward arrive without a click, invitation code, redeem code errors from the server', async ({ page, request }) => {
  const s = await apiLogin(request);
  const claims: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/vip/activity/daily/claim')) claims.push(r.url());
  });
  await seedSession(page, s);
  await page.goto('/mine');
  const setting = await apiData<{ activeReward: number }>(request, '/api/user/global-setting');
  const config = await apiData<{ welcomePoints: number }>(request, '/api/vip/activity/config');
  // A brand-new account: the welcome grant plus today's login reward, credited by opening the app.
  await expect(page.getByTestId('points-balance')).toHaveText(String(config.welcomePoints + setting.activeReward));
  const before = await balanceOn(page);
  const claim = page.getByTestId('daily-claim');
  await expect(claim).toHaveText('今日已领取');
  await expect(claim).toBeDisabled();
  const history = page.getByTestId('history-table');
  await expect(history).toContainText('每日登录奖励');
  await expect(history).toContainText('新用户欢迎积分');
  expect(claims, 'credited without the button').toEqual([]);

  const popup = await apiData<{ inviteCode: string }>(request, '/api/vip/activity/invite/popup', s);
  await expect(page.getByTestId('invite-code')).toHaveText(popup.inviteCode);
  await expect(page.getByTestId('invite-count')).toHaveText('0');

  // A real round trip: the server's 1505 message under the input.
  await page.getByRole('textbox', { name: '兑换码' }).fill('NO-SUCH-CODE-42');
  await page.getByTestId('redeem-submit').click();
  await expect(page.getByTestId('redeem-error')).toHaveText('兑换码不存在或已停用');

  // Codes can only be minted by the admin CLI, which cannot open the running server's PGlite:
  // the success path is answered here with the endpoint's real shape.
  await page.route('**/api/vip/coupon-code/exchange', (route) =>
    route.fulfill({ json: { code: 0, msg: 'ok', data: { kind: 'points', value: 88, score: before + 88, vipExpiredTime: null } } }),
  );
  await page.getByRole('textbox', { name: '兑换码' }).fill('GOOD-CODE-88');
  await page.getByTestId('redeem-submit').click();
  await expect(page.locator('.ant-message')).toContainText('兑换成功，获得 88 积分');
  await expect(page.getByTestId('redeem-error')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: '兑换码' })).toHaveValue('');
});

test('/pointsRule lists the points dictionary and how to earn', async ({ page, request }) => {
  const costs = await apiData<{ feature: string; name: string; point: number }[]>(request, '/api/vip/score/point/consume');
  expect(costs.length).toBeGreaterThan(0);
  await page.goto('/pointsRule');
  const table = page.getByTestId('costs-table');
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(costs.length);
  for (const c of costs) await expect(table).toContainText(c.name);
  await expect(table).toContainText(`${costs[0]!.point} 积分`);
  const setting = await apiData<{ activeReward: number }>(request, '/api/user/global-setting');
  await expect(page.getByTestId('rule-daily')).toHaveText(String(setting.activeReward));
  await expect(page.getByTestId('rule-inviter')).toHaveText(/^\d+$/);
});

test('/purchaseAgreement is the real text', async ({ page }) => {
  await page.goto('/purchaseAgreement');
  const doc = page.getByTestId('agreement');
  await expect(doc).toContainText('不支持因个人原因');
  await expect(doc).toContainText('不提供自动续费');
});

test.describe('on a phone', () => {
  test.use({
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    viewport: { width: 390, height: 844 },
  });

  test('/activity with an invitationCode: invite landing, the code reaches registration', async ({ page, request }) => {
    const inviter = await apiLogin(request);
    const { inviteCode } = await apiData<{ inviteCode: string }>(request, '/api/vip/activity/invite/popup', inviter);
    await seedSession(page, null);
    await page.goto(`/?channelid=m1&invitationCode=${inviteCode}`);
    await expect(page).toHaveURL((u) => u.pathname === '/activity' && u.searchParams.get('invitationCode') === inviteCode);
    const landing = page.getByTestId('invite-landing');
    await expect(landing).toContainText('你的好友邀请你加入砚');
    await expect(page.getByTestId('activity-code')).toContainText(inviteCode);
    await expect(page.getByTestId('activity-rules')).toBeVisible();
    // Fits the phone: no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);

    await landing.getByTestId('invite-login').click();
    const modal = page.getByTestId('login-modal');
    await expect(modal).toBeVisible();
    const phone = randomPhone();
    await modal.getByRole('textbox', { name: '手机号' }).fill(phone);
    await modal.getByTestId('send-code').click();
    await expect(modal.getByTestId('send-code')).toContainText('秒后重新获取');
    await modal.getByRole('textbox', { name: '验证码' }).fill(await latestCode(request, phone));
    await modal.getByTestId('login-submit').click();
    await expect(modal).toHaveCount(0);

    // The invitee was registered with the code: both sides got their reward.
    await expect.poll(async () => (await apiData<{ invitedCount: number }>(request, '/api/vip/activity/invite/popup', inviter)).invitedCount, { timeout: 15_000 }).toBe(1);
  });

  test('/activity with an integralCode offers redemption after login', async ({ page, request }) => {
    const s = await apiLogin(request);
    await seedSession(page, s);
    await page.goto('/?integralCode=NOPE1234');
    await expect(page).toHaveURL((u) => u.pathname === '/activity');
    const landing = page.getByTestId('integral-landing');
    await expect(landing.getByRole('textbox', { name: '兑换码' })).toHaveValue('NOPE1234');
    await landing.getByTestId('redeem-submit').click();
    await expect(landing.getByTestId('redeem-error')).toHaveText('兑换码不存在或已停用');
  });
});

test('/integralEmpty opened directly judges the real balance', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  const costs = await apiData<{ feature: string; point: number }[]>(request, '/api/vip/score/point/consume');
  await page.goto('/mine');
  const balance = await balanceOn(page);
  // A new account holds the welcome points: enough for every paid feature, so no 积分不足.
  expect(balance).toBeGreaterThanOrEqual(Math.max(...costs.map((c) => c.point)));
  await page.goto('/integralEmpty');
  await expect(page.getByTestId('integral-empty-balance')).toHaveText(String(balance));
  await expect(page.getByTestId('integral-empty-verdict')).toHaveText('你的积分充足');
  await expect(page.getByTestId('page-integralEmpty')).not.toContainText('积分不足');
  await expect(page.getByTestId('integral-empty-back')).toBeVisible();
  // Asked about something dearer than the balance, it does say so.
  await page.route('**/api/vip/score/point/consume', (route) =>
    route.fulfill({ json: { code: 0, msg: 'ok', data: [{ feature: 'article_deep', name: '深度写作', point: balance + 1 }] } }),
  );
  await page.goto('/integralEmpty?eventId=article_deep');
  await expect(page.getByTestId('integral-empty-verdict')).toHaveText('你的积分不足');
  await expect(page.getByTestId('integral-empty-feature')).toContainText(`需要 ${balance + 1} 积分`);
});
