import type { Page } from '@playwright/test';
import { test, expect, apiLogin, openUserMenu, seedSession } from '../support/fixtures.js';

async function openFromMenu(page: Page, item: string, testId: string) {
  await (await openUserMenu(page)).getByRole('menuitem', { name: item }).click();
  const modal = page.getByTestId(testId);
  await expect(modal).toBeVisible();
  return modal;
}

/** Closes the open modal by its close button and waits until it is gone (its mask no longer takes clicks). */
const closeModal = async (page: Page, testId: string) => {
  await page
    .locator('.ant-modal-wrap')
    .filter({ has: page.getByTestId(testId) })
    .locator('.ant-modal-close')
    .click();
  await expect(page.getByTestId(testId)).toHaveCount(0);
  await expect(page.locator('.ant-modal-mask:visible')).toHaveCount(0);
};

test('the user menu opens each help modal with its content', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/');
  await expect(page.getByTestId('user-area')).toBeVisible();

  const newbie = await openFromMenu(page, '新手引导', 'modal-newbieGuide');
  await expect(newbie).toContainText('输入主题');
  await newbie.getByRole('button', { name: '下一步' }).click();
  await newbie.getByRole('button', { name: '下一步' }).click();
  await newbie.getByRole('button', { name: '下一步' }).click();
  await newbie.getByRole('button', { name: '开始创作' }).click();
  await expect(newbie).toBeHidden();

  const guide = await openFromMenu(page, '功能指引', 'modal-guide');
  await expect(guide.getByRole('link', { name: '知识库' })).toHaveAttribute('href', '/knowledge');
  await closeModal(page, 'modal-guide');

  const info = await openFromMenu(page, '账号信息', 'modal-information');
  await expect(info).toContainText(`${s.phone.slice(0, 3)}****${s.phone.slice(-4)}`);
  await expect(info).toContainText('3.4.3');
  await closeModal(page, 'modal-information');

  const activity = await openFromMenu(page, '活动', 'modal-activity');
  await expect(activity).toContainText('每日登录奖励');
  await expect(activity.getByRole('link', { name: '查看活动页' })).toHaveAttribute('href', '/activity');
  await closeModal(page, 'modal-activity');

  const download = await openFromMenu(page, '下载客户端', 'modal-download');
  await expect(download.getByTestId('download-link')).toHaveAttribute('href', 'https://download.example.com/inkstone');
  await closeModal(page, 'modal-download');

  const release = await openFromMenu(page, '更新说明', 'modal-releaseNote');
  await expect(release).toContainText('版本 3.4.3');
  await release.getByRole('button', { name: '知道了' }).click();
  await expect(release).toBeHidden();
});

test('选择创作平台 saves the platforms with the creator profile', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/');
  const platform = await openFromMenu(page, '选择创作平台', 'modal-platform');
  await platform.getByLabel('哔哩哔哩').check();
  const saved = page.waitForResponse('**/api/user/fill/info');
  await platform.getByRole('button', { name: '保存' }).click();
  expect((await (await saved).json()).code).toBe(0);
  await expect(platform).toBeHidden();
  const me = (await (await request.get('/api/auth/nowLoginUser', { headers: { [s.tokenName]: s.tokenValue } })).json()).data as { creationPlatform: string[] };
  expect(me.creationPlatform).toEqual(expect.arrayContaining(['xiaohongshu', 'bilibili']));
});

test('the release note opens by itself once for a new version and sends the app version', async ({ page, request }) => {
  const s = await apiLogin(request);
  // This device last saw an older version.
  await seedSession(page, s, { 'releaseNote:seen': '3.4.2' });
  const asked = page.waitForRequest('**/api/app/release?*');
  await page.goto('/');
  expect(new URL((await asked).url()).searchParams.get('version')).toBe('3.4.3');
  const release = page.getByTestId('modal-releaseNote');
  await expect(release).toBeVisible();
  await expect(release.getByTestId('release-client-version')).toContainText('3.4.3');
  await release.getByRole('button', { name: '知道了' }).click();
  await expect(release).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('releaseNote:seen'))).toBe('3.4.3');
  await page.reload();
  await expect(page.getByTestId('user-area')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByTestId('modal-releaseNote')).toHaveCount(0);
});

test('a sensitive prompt opens the sensitive-content modal naming the words, where, and what to do', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/');
  await page.getByLabel('写作主题').fill('帮我写一篇 网络 赌博 推广文案');
  const created = page.waitForResponse('**/api/mp/task/create');
  await page.getByTestId('home-start').click();
  const reply = (await (await created).json()) as { code: number; data: { words: string[] } };
  expect(reply.code).toBe(933);
  const modal = page.getByTestId('modal-sensitiveContent');
  await expect(modal).toBeVisible();
  await expect(modal).toContainText('写作内容中包含以下敏感词');
  for (const w of reply.data.words) await expect(modal.getByTestId('sensitive-words')).toContainText(w);
  await expect(modal).toContainText('后重试');
  await modal.getByRole('button', { name: '去修改' }).click();
  await expect(modal).toBeHidden();
});

test('what the creator types while the saved home input is still loading is kept, and saved in its place', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/writing/style/homepage/input?createType=article', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  const topic = page.getByLabel('写作主题');
  await topic.fill('周末露营装备清单');
  const saved = page.waitForRequest((r) => r.url().includes('/api/writing/style/save/homepage/input'));
  const loaded = page.waitForResponse((r) => r.url().includes('/api/writing/style/homepage/input?createType=article'));
  release();
  await loaded;
  expect((await saved).postDataJSON().editorContent.top).toBe('周末露营装备清单');
  await expect(topic).toHaveValue('周末露营装备清单');
});

test('menus slide in, unless the system asks for reduced motion: then they appear at once', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  // Every class the dropdown ever carries, whatever its frames: '-active' motion classes live only while it animates.
  const openMenuWatchingClasses = async () => {
    await page.goto('/');
    await expect(page.getByTestId('user-area')).toBeVisible();
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __dropdownClasses: string[] }).__dropdownClasses = seen;
      new MutationObserver((ms) => {
        for (const m of ms) if (m.target instanceof HTMLElement && m.target.classList.contains('ant-dropdown')) seen.push(m.target.className);
      }).observe(document.body, { attributes: true, attributeFilter: ['class'], subtree: true });
    });
    await openUserMenu(page);
    await page.keyboard.press('Escape');
    await expect(page.locator('.ant-dropdown:not(.ant-dropdown-hidden)')).toHaveCount(0);
    return page.evaluate(() => (window as unknown as { __dropdownClasses: string[] }).__dropdownClasses.some((c) => /ant-slide-up-(appear|enter)-active/.test(c)));
  };

  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await openMenuWatchingClasses()).toBe(true);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await openMenuWatchingClasses()).toBe(false);
});
