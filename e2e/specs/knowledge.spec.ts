import { test, expect, apiLogin, seedSession } from '../support/fixtures.js';
import { chinesePdf } from '../../apps/server/src/modules/knowledge/pdf-fixture.js';

/**
 * 知识库: upload a real multi-page Chinese PDF from the page -> its parse progress ends in 已解析 -> search finds a
 * phrase with its page and the words marked -> the hit opens /pdfDetail at that page with the passage marked ->
 * the home input quotes the document (the quote picker) and the offline writer writes an article citing it [n] ->
 * in the editor a click on the citation opens the PDF at the cited page with the passage marked.
 */
test('upload a PDF, search it, open the passage at its page, write quoting it, open a citation from the editor', async ({ page, request }) => {
  test.setTimeout(120_000);
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
    // The e2e server runs without an embeddings model: the page says search is words only.
    await expect(page.getByTestId('kn-search-note')).toHaveText('未配置向量模型（EMBEDDINGS_BASE_URL），向量检索未开启：仅全文检索');
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

  await test.step('the home input quotes the document; the article cites it', async () => {
    await page.goto('/');
    await expect(page.getByTestId('model-select')).toContainText('离线写作助手');
    await page.getByRole('combobox', { name: '引用知识库' }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '行业报告.pdf' }).first().click();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('knowledge-quote')).toContainText('行业报告.pdf');
    await page.getByRole('textbox', { name: '写作主题' }).fill('动力电池回收的产业机会');
    const created = page.waitForResponse((r) => r.url().includes('/api/mp/task/create'));
    await page.getByTestId('home-start').click();
    const body = (await (await created).request().postDataJSON()) as { knowledge?: { docIds: number[] } };
    expect(body.knowledge?.docIds).toHaveLength(1);
    await expect(page).toHaveURL(/\/editor\?draftId=\d+$/, { timeout: 30_000 });
    await expect(page.getByTestId('editor-body')).toContainText('[1] 行业报告.pdf 第2页 /pdfDetail?');
  });

  await test.step('a click on the citation in the editor opens the PDF at that page with the passage marked', async () => {
    const reference = page
      .getByTestId('editor-body')
      .locator('p')
      .filter({ hasText: /\[1\] 行业报告\.pdf 第2页/ })
      .first();
    const opened = page.context().waitForEvent('page');
    await reference.getByText(/行业报告\.pdf 第2页/).click();
    const viewer = await opened;
    await expect(viewer).toHaveURL(/\/pdfDetail\?fileId=\d+&page=2&q=/);
    const view = viewer.getByTestId('pd-page-view');
    await expect(view).toHaveAttribute('data-page', '2');
    await expect(view.locator('.pd-hl').first()).toBeAttached();
    await viewer.close();
  });
});

test('a new folder is created and opened; a page on a private address is refused in the import dialog, which stays open', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/knowledge');
  await expect(page.getByTestId('docs-empty')).toBeVisible();

  await page.getByTestId('folder-create').click();
  const created = page.waitForResponse((r) => r.url().includes('/api/knowledge/folder/create'));
  await page.getByTestId('folder-name').fill('行业研究');
  await page.getByTestId('folder-name').press('Enter');
  const folder = (await (await created).json()) as { code: number; data: { id: number } };
  expect(folder.code).toBe(0);
  await expect(page.locator('.kn-folder.active')).toContainText('行业研究');
  await expect(page.getByTestId('folder-name')).toHaveCount(0);

  await page.getByTestId('kn-import').click();
  await expect(page.getByTestId('kn-import-ok')).toBeDisabled();
  await page.getByTestId('kn-import-url').fill('http://127.0.0.1:9/内网页面');
  const imported = page.waitForRequest((r) => r.url().includes('/api/knowledge/doc/import'));
  await page.getByTestId('kn-import-ok').click();
  // Imported into the folder that is open.
  expect((await imported).postDataJSON()).toMatchObject({ folderId: folder.data.id });
  await expect(page.getByTestId('import-error')).not.toBeEmpty();
  await expect(page.getByTestId('kn-import-url')).toBeVisible();
  await expect(page.getByTestId('docs-empty')).toBeVisible();
});
