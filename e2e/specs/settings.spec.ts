import type { APIRequestContext } from '@playwright/test';
import { test, expect, apiLogin, mintHandoverToken, seedSession, type Session } from '../support/fixtures.js';

/** A 1x1 PNG: real image bytes, so the server's magic-byte check passes for the cropped upload. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const me = async (request: APIRequestContext, s: Session) =>
  (await (await request.get('/api/auth/nowLoginUser', { headers: { [s.tokenName]: s.tokenValue } })).json()).data as {
    nickname: string;
    avatar: string | null;
    creationPlatform: string[];
    wxBound: boolean;
  };

test('profile: crop and upload an avatar, change the nickname under its rules, save the creator profile', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/personalSet');
  const tab = page.getByTestId('settings-profile');
  await expect(tab).toBeVisible();

  await page.getByTestId('avatar-file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByTestId('avatar-crop')).toBeVisible();
  const uploaded = page.waitForResponse('**/api/user/avatar');
  await page.getByTestId('avatar-save').click();
  expect((await (await uploaded).json()).code).toBe(0);
  await expect(page.getByTestId('avatar-current')).toHaveAttribute('src', /^\/uploads\//);
  expect((await me(request, s)).avatar).toMatch(/^\/uploads\//);

  const nickname = page.getByTestId('settings-nickname');
  await nickname.getByLabel('昵称').fill('坏 名字');
  await nickname.getByRole('button', { name: '保存昵称' }).click();
  await expect(nickname).toContainText('昵称只能包含中文、字母、数字、下划线、连字符');
  await nickname.getByLabel('昵称').fill('砚台_小编');
  const renamed = page.waitForResponse('**/api/user/change-nickname?*');
  await nickname.getByRole('button', { name: '保存昵称' }).click();
  expect((await (await renamed).json()).code).toBe(0);
  expect((await me(request, s)).nickname).toBe('砚台_小编');

  const creator = page.getByTestId('settings-creator');
  await creator.getByLabel('知乎').check();
  const filled = page.waitForResponse('**/api/user/fill/info');
  await creator.getByRole('button', { name: '保存资料' }).click();
  expect((await (await filled).json()).code).toBe(0);
  expect((await me(request, s)).creationPlatform).toEqual(expect.arrayContaining(['xiaohongshu', 'zhihu']));
});

test('notifications: the catalogue drives the switches, and do-not-disturb stores its time', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/personalSet/notice');
  const publish = page.getByTestId('setting-notifyPublish');
  await expect(publish).toHaveAttribute('aria-checked', 'true');
  const saved = page.waitForResponse('**/api/user/setting/update');
  await publish.click();
  expect((await (await saved).json()).code).toBe(0);
  await expect(publish).toHaveAttribute('aria-checked', 'false');

  await page.getByTestId('dnd-select').click();
  const dnd = page.waitForResponse('**/api/user/setting/update');
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText('1 小时').click();
  const reply = (await (await dnd).json()) as { data: { settingKey: string; settingValue: string }[] };
  expect(Number(reply.data.find((x) => x.settingKey === 'doNotDisturb')!.settingValue)).toBeGreaterThan(Date.now());
  await expect(page.getByTestId('dnd-state')).toContainText('免打扰至');

  await page.reload();
  await expect(page.getByTestId('setting-notifyPublish')).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByTestId('setting-notifyComment')).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('dnd-state')).toContainText('免打扰至');
});

test('security: masked phone, WeChat bound by the QR scan and unbound, another device signed out', async ({ page, request }) => {
  const s = await apiLogin(request);
  // A second device: the same account logged in elsewhere by a hand-over token.
  const other = (await (await request.post('/api/auth/spark/login', { data: { accessToken: await mintHandoverToken(request, s) } })).json()).data as Session;
  await seedSession(page, s);
  await page.goto('/personalSet/security');
  await expect(page.getByTestId('bound-phone')).toHaveText(`${s.phone.slice(0, 3)}****${s.phone.slice(-4)}`);

  await expect(page.getByTestId('device-item')).toHaveCount(2);
  await expect(page.getByTestId('device-item').filter({ hasText: '本机' })).toHaveCount(1);
  await expect(page.getByTestId('device-list')).toContainText('最近活跃');
  await page.getByTestId('device-revoke').click();
  await expect(page.getByTestId('device-item')).toHaveCount(1);
  expect((await (await request.get('/api/auth/nowLoginUser', { headers: { [other.tokenName]: other.tokenValue } })).json()).code).toBe(430);

  await expect(page.getByTestId('wx-state')).toHaveText('未绑定');
  await page.getByTestId('wx-bind-start').click();
  const qr = page.getByTestId('wx-bind-qr');
  await expect(qr).toBeVisible();
  const href = await qr.getByRole('link', { name: '打开模拟扫码页' }).getAttribute('href');
  const scene = new URL(href!, 'http://x').searchParams.get('scene')!;
  const scanned = await request.post('/api/dev/wx-sandbox/scan', { form: { scene, identity: `设置页${s.user.id}` } });
  expect(scanned.status()).toBe(200);
  await expect(page.getByTestId('wx-state')).toHaveText('已绑定');
  expect((await me(request, s)).wxBound).toBe(true);

  await page.getByTestId('wx-unbind').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: '解绑' }).click();
  await expect(page.getByTestId('wx-state')).toHaveText('未绑定');
  expect((await me(request, s)).wxBound).toBe(false);
});

test('account: the consequences are listed and deletion asks for a code sent to the bound phone', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/personalSet/account');
  await expect(page.getByTestId('delete-consequences')).toContainText('剩余积分与会员权益作废');
  // Submitting without a code or the confirmation is refused in the form.
  await page.getByTestId('delete-submit').click();
  await expect(page.getByTestId('delete-account')).toContainText('请输入验证码');
  await expect(page.getByTestId('delete-account')).toContainText('请确认已了解注销后果');
  // The login code went to this phone moments ago: the server's once-a-minute rule answers for the bound phone.
  const sent = page.waitForResponse('**/api/auth/delete/code');
  await page.getByTestId('delete-send-code').click();
  expect((await (await sent).json()).code).toBe(1101);
  await expect(page.locator('.ant-message')).toContainText('验证码发送过于频繁');
  // A wrong code deletes nothing.
  await page.getByLabel('注销验证码').fill('000000');
  await page.getByText('我已了解以上后果，确认注销').click();
  const del = page.waitForResponse('**/api/auth/delete/v2');
  await page.getByTestId('delete-submit').click();
  expect((await (await del).json()).code).not.toBe(0);
  expect((await me(request, s)).nickname).not.toBe('已注销用户');
});

test('points and VIP shortcuts; the home input: ability types from the server, kept by 清空, and the price of starting', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/personalSet/points');
  await expect(page.getByTestId('settings-points')).toContainText('积分余额');
  await expect(page.getByTestId('settings-points').getByRole('link', { name: '积分规则' })).toHaveAttribute('href', '/pointsRule');
  await expect(page.getByTestId('settings-points')).toContainText('深度写作');

  await page.goto('/');
  const ability = page.getByTestId('ability-select');
  await ability.click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText('小红书笔记').click();
  await expect(ability).toContainText('小红书笔记');
  // The default writer is the offline one (free); the stand-in model costs what the dictionary says.
  await expect(page.getByTestId('home-input')).toContainText('免费（离线写作助手）');
  await page.getByTestId('model-select').click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText('模拟模型（测试替身）').click();
  const costs = (await (await request.get('/api/vip/score/point/consume')).json()).data as { feature: string; point: number }[];
  const deep = costs.find((c) => c.feature === 'article_deep')!.point;
  await expect(page.getByTestId('points-cost-article_deep')).toHaveText(deep > 0 ? `消耗 ${deep} 积分` : '免费');

  await page.getByRole('button', { name: '清空' }).click();
  await expect(ability).not.toContainText('小红书笔记');
  await ability.click();
  await expect(page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText('口播脚本')).toBeVisible();
});

test('390 px wide: every tab fits the screen without sideways scrolling', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [tab, id] of [
    ['profile', 'settings-profile'],
    ['notice', 'settings-notice'],
    ['security', 'settings-security'],
    ['account', 'settings-account'],
    ['points', 'settings-points'],
  ]) {
    await page.goto(`/personalSet/${tab}`);
    await expect(page.getByTestId(id!)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), tab).toBeLessThanOrEqual(390);
  }
});
