import { test, expect, apiLogin, seedSession } from '../support/fixtures.js';
import { chinesePdf } from '../../apps/server/src/modules/knowledge/pdf-fixture.js';

/**
 * 知识库: upload a real multi-page Chinese PDF from the page -> its parse progress ends in 已解析 -> search finds a
 * phrase with its page and the words marked -> the hit opens /pdfDetail at that page with the passage marked.
 */
test('upload a PDF, search it, open the passage at its page', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/knowledge');
  await expect(page.getByTestId('docs-empty')).toBeVisible();

  await test.step('upload: accepted, then parsed', async () => {
    const pdf = chinesePdf([
      ['第一章 概述', '本报告整理了内容创作行业的公开资料。'],
      ['第二章 能源', '碳中和目标推动新能源汽车快速发展，动力电池回收成为新的产业机会。'],
      ['第三章 城市', '老旧小区改造与城市更新计划同步推进。'],
    ]);
    const uploaded = page.waitForResponse((r) => r.url().includes('/api/knowledge/doc/upload'));
    await page.locator('input[type=file]').setInputFiles({ name: '行业报告.pdf', mimeType: 'application/pdf', buffer: pdf });
    expect((await (await uploaded).json()).code).toBe(0);
    const row = page.getByTestId('docs-table').getByRole('row', { name: /行业报告\.pdf/ });
    await expect(row.getByTestId('doc-status')).toHaveText(/已解析 · 3页/);
    await expect(page.getByTestId('kn-quota')).toContainText('已用 1/');
  });

  await test.step('search finds the phrase with its page, words marked', async () => {
    await page.getByTestId('kn-search').locator('input').fill('动力电池回收');
    await page.getByTestId('kn-search').locator('input').press('Enter');
    const hit = page.getByTestId('search-hit').first();
    await expect(hit).toContainText('行业报告.pdf');
    await expect(hit).toContainText('第2页');
    await expect(hit.locator('mark').first()).toBeVisible();
    expect((await hit.locator('mark').allInnerTexts()).join('')).toContain('电池');
  });

  await test.step('the hit opens /pdfDetail at page 2 with the passage marked', async () => {
    await page.getByTestId('hit-open').first().click();
    await expect(page).toHaveURL(/\/pdfDetail\?fileId=\d+&page=2&q=/);
    const view = page.getByTestId('pd-page-view');
    await expect(view).toHaveAttribute('data-page', '2');
    await expect(view.locator('.pd-hl').first()).toBeAttached();
    await expect(page.getByTestId('pd-thumb')).toHaveCount(3);
    await page.getByTestId('pd-next').click();
    await expect(view).toHaveAttribute('data-page', '3');
  });
});
