import { test, expect, apiLogin, seedSession } from '../support/fixtures.js';

/**
 * 选题 on the defaults (bundled dated snapshot, offline writer): pick tracks at onboarding -> /topic shows hot topics
 * of those tracks -> collect one -> generate angles (template, labelled 非 AI) -> write from one (home input
 * prefilled) -> /divergent: expand a node, save, reopen.
 */
test('tracks at onboarding, hot topics, collect, angles, write this, divergent map', async ({ page, request }) => {
  const s = await apiLogin(request, { fillProfile: false });
  await seedSession(page, s);
  const trackInfo = page.waitForResponse((r) => r.url().includes('/api/topic/v3/track/info'));
  await page.goto('/');
  // track/info after login answers (no more 1002).
  expect((await (await trackInfo).json()).code).toBe(0);

  await test.step('onboarding picks the tracks', async () => {
    const fill = page.getByTestId('profile-fill');
    await expect(fill).toBeVisible();
    await fill.getByText('个人创作者').click();
    // Picked by typing (filter, then Enter) rather than by clicking into the opening dropdown, whose options can still
    // be moving under the pointer on a loaded machine; each pick is checked before the next.
    const industries = fill.locator('.ant-select').first();
    await industries.click();
    for (const name of ['教育', '美食']) {
      await page.keyboard.type(name);
      await expect(page.locator('.ant-select-item-option-active[title="' + name + '"]')).toBeVisible();
      await page.keyboard.press('Enter');
      await expect(industries.locator('.ant-select-selection-item[title="' + name + '"]')).toBeVisible();
    }
    await page.keyboard.press('Escape');
    const saved = page.waitForResponse((r) => r.url().includes('/api/topic/v3/track/save'));
    await page.getByRole('button', { name: /保\s*存/ }).click();
    expect((await (await saved).json()).data.sysTrack).toEqual(['教育', '美食']);
    await expect(fill).toBeHidden();
  });

  let title = '';
  await test.step('/topic shows the hot topics of my tracks', async () => {
    await page.goto('/topic');
    await expect(page.getByTestId('topic-snapshot')).toContainText('内置快照');
    await page.getByRole('tab', { name: '教育' }).click();
    const rows = page.getByTestId('topic-row');
    await expect(rows.first()).toBeVisible();
    title = (await rows.first().getByTestId('topic-title').innerText()).trim();
    expect(title.length).toBeGreaterThan(0);
  });

  await test.step('open it, collect it, and find it in my collection', async () => {
    await page.getByTestId('topic-row').first().getByTestId('topic-title').click();
    const drawer = page.getByTestId('topic-drawer');
    await expect(drawer.getByRole('heading')).toContainText(title);
    await expect(drawer.getByRole('link', { name: /内置快照/ })).toHaveAttribute('href', /^https:\/\//);
    await drawer.getByRole('button', { name: '收藏' }).click();
    await expect(drawer.getByRole('button', { name: '取消收藏' })).toBeVisible();
  });

  await test.step('angles from the offline writer, labelled as not AI, and 写这个 prefills the home input', async () => {
    const drawer = page.getByTestId('topic-drawer');
    await drawer.getByTestId('topic-angles-generate').click();
    await expect(drawer.getByTestId('topic-angles-label')).toContainText('非 AI');
    await expect(drawer.getByTestId('topic-angle')).toHaveCount(6);
    await drawer.getByTestId('topic-angle').first().getByRole('button', { name: '写这个' }).click();
    await expect(page).toHaveURL(/\/$/);
    const input = page.getByRole('textbox', { name: '写作主题' });
    await expect(input).toHaveValue(new RegExp(`选题：${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    await expect(input).toHaveValue(/角度：事件梳理/);
  });

  await test.step('my collection keeps it', async () => {
    await page.goto('/topic');
    await page.getByTestId('topic-view').getByText('我的收藏').click();
    await expect(page.getByTestId('topic-collections').getByTestId('topic-title')).toHaveText([title]);
  });

  await test.step('/divergent: expand a node, save, reopen', async () => {
    await page.goto('/divergent?topic=冬季露营');
    const canvas = page.getByTestId('divergent-canvas');
    await expect(canvas.getByText('写作角度')).toBeVisible({ timeout: 20_000 });
    await canvas.getByText('写作角度').click();
    await expect(page.getByTestId('divergent-expand')).toBeEnabled();
    await page.getByTestId('divergent-expand').click();
    await expect(canvas.getByText('事件梳理：一文看懂：冬季露营')).toBeVisible();
    const saved = page.waitForResponse((r) => r.url().includes('/api/topic/v3/map/save'));
    await page.getByTestId('divergent-save').click();
    const id = (await (await saved).json()).data.id as number;
    await expect(page).toHaveURL(new RegExp(`id=${id}`));
    await expect(page.getByTestId('divergent-map-item')).toHaveText([/冬季露营/]);
    await page.goto(`/divergent?id=${id}`);
    await expect(page.getByTestId('divergent-canvas').getByText('事件梳理：一文看懂：冬季露营')).toBeVisible({ timeout: 20_000 });
  });
});

/** The calendar on /topic lists what the server dates (chinese-days + the marketing table), not dates typed in the web. */
test('the calendar shows the marketing days the server dates (双11 in November) and writes from a suggested topic', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  // A fixed browser date, so the month shown is November whatever day the suite runs; the dates come from the server.
  await page.clock.setFixedTime(new Date('2026-11-05T10:00:00+08:00'));
  const calendar = page.waitForResponse((r) => r.url().includes('/api/topic/v3/calendar') && r.url().includes('month=2026-11'));
  await page.goto('/topic');
  await page.getByTestId('topic-view').getByText('节日日历').click();
  const served = (await (await calendar).json()).data as { days: Array<{ name: string; type: string; date: string; topics: string[] }> };
  expect(served.days).toContainEqual(expect.objectContaining({ name: '双11', type: 'marketing', date: '2026-11-11' }));
  const days = page.getByTestId('topic-calendar-day');
  await expect(days.filter({ hasText: '双11' })).toContainText('营销节点');
  await expect(days.filter({ hasText: '小雪' })).toContainText('节气');
  // Every entry the server sent is listed, and nothing else.
  await expect(days).toHaveCount(served.days.length);
  await expect(page.getByTestId('topic-calendar').locator('.topic-cal-mark').filter({ hasText: '双11' })).toBeVisible();
  await days.filter({ hasText: '双11' }).getByTestId('topic-calendar-topic').filter({ hasText: '双11必买清单' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('textbox', { name: '写作主题' })).toHaveValue(/双11必买清单/);
});
