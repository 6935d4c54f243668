import { createHash } from 'node:crypto';
import { test, expect, apiLogin, seedSession } from '../support/fixtures.js';
import type { BrowserContext, Locator, Page } from '@playwright/test';

/**
 * The 图文 flow end to end against the real server (offline writer, card renderer, embedded 沙箱 creator site):
 * home 图文 -> the task's stream -> /xhsEditor -> a card's text, the order, a template -> /imageEditor crop + text,
 * saved back -> published to a bound sandbox account as an image note whose images are every card, in order.
 */

async function bindSandbox(page: Page, context: BrowserContext, identity: string) {
  await page.goto('/accountManager');
  await page.getByTestId('open-bind').click();
  const modal = page.getByTestId('bind-modal');
  await expect(modal.getByRole('radio', { name: '沙箱平台' })).toBeChecked();
  await modal.getByTestId('bind-start').click();
  await expect(modal.getByTestId('bind-qr')).toBeVisible({ timeout: 30_000 });
  const [phone] = await Promise.all([context.waitForEvent('page'), modal.getByTestId('bind-scan-url').click()]);
  await phone.getByLabel('模拟的创作者账号').fill(identity);
  await phone.locator('#confirm').click();
  await expect(phone.locator('#confirmed')).toBeVisible();
  await phone.close();
  await expect(modal.getByTestId('bind-done')).toContainText(identity, { timeout: 30_000 });
  await modal.getByTestId('bind-finish').click();
  await expect(page.getByTestId('account-item').filter({ hasText: identity })).toBeVisible();
}

const thumbs = (page: Page) => page.getByTestId('card-thumb');
const ids = (page: Page) => thumbs(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-card-id')));
const thumbSrc = (thumb: Locator) => thumb.locator('img').getAttribute('src');

interface SandboxNote {
  id: string;
  title: string;
  images: number;
  imageSha256?: string[];
  topics: string[];
}

test('home 图文 -> stream -> xhsEditor edits -> image editor -> publish an image note to the sandbox', async ({ page, context, request }) => {
  test.setTimeout(240_000);
  const s = await apiLogin(request);
  await seedSession(page, s);
  const identity = `图文沙箱${Date.now().toString(36)}`;
  await bindSandbox(page, context, identity);

  // Home: the 图文 box is its own input; starting it shows the stream, then the editor opens.
  // The saved 图文 input arrives after the page shows: typing before it would be replaced by it.
  const saved = page.waitForResponse((r) => r.url().includes('/homepage/input?createType=graphic'));
  await page.goto('/');
  await saved;
  await page.getByTestId('home-input').getByText('图文', { exact: true }).click();
  await expect(page.getByTestId('graphic-options')).toBeVisible();
  await page.getByLabel('写作主题').fill('周末露营清单。帐篷和睡袋要提前检查。带一盏营地灯。记得防蚊。');
  await page.getByLabel('内容卡片数量').fill('3');
  await page.getByLabel('内容卡片数量').blur();
  await expect(page.getByTestId('home-start')).toHaveText(/生成图文/);
  await page.getByTestId('home-start').click();
  await expect(page.getByTestId('graphic-stream').or(page.getByTestId('page-xhsEditor'))).toBeVisible({ timeout: 30_000 });
  await page.waitForURL(/\/xhsEditor\?taskId=/, { timeout: 90_000 });
  const taskId = new URL(page.url()).searchParams.get('taskId')!;

  await expect(page.getByTestId('phone-preview')).toBeVisible({ timeout: 30_000 });
  await expect(thumbs(page)).toHaveCount(4);
  const before = await ids(page);

  // The title follows the 20-character rule with a live counter; the preview shows it.
  const title = `露营清单${Date.now().toString(36).slice(-4)}`;
  await page.getByTestId('note-title').fill('一'.repeat(21));
  await expect(page.getByText('标题最多20字', { exact: false }).first()).toBeVisible();
  await expect(page.getByTestId('xhs-publish')).toBeDisabled();
  await page.getByTestId('note-title').fill(title);
  await expect(page.getByTestId('preview-title')).toHaveText(title);
  await expect(page.getByTestId('autosave-state')).toHaveText('已自动保存', { timeout: 15_000 });

  // Edit the second card's text: the card is drawn again (a new picture).
  await thumbs(page).nth(1).getByRole('button').click();
  const oldSrc = await thumbSrc(thumbs(page).nth(1));
  await page.getByTestId('card-text').fill('帐篷\n睡袋\n营地灯\n驱蚊液');
  await page.getByTestId('card-text-apply').click();
  await expect.poll(() => thumbSrc(thumbs(page).nth(1)), { timeout: 30_000 }).not.toBe(oldSrc);

  // Reorder by dragging the second card onto the third.
  // A card call in flight makes the cards not draggable: wait until the text edit has settled.
  await expect(thumbs(page).nth(1)).toHaveAttribute('draggable', 'true');
  // The HTML5 drag events themselves (a synthetic mouse drag starts a native drag only sometimes in headless Chromium).
  const dataTransfer = await page.evaluateHandle(() => new DataTransfer());
  await thumbs(page).nth(1).dispatchEvent('dragstart', { dataTransfer });
  await thumbs(page).nth(2).dispatchEvent('dragover', { dataTransfer });
  await thumbs(page).nth(2).dispatchEvent('drop', { dataTransfer });
  await expect.poll(() => ids(page)).toEqual([before[0], before[2], before[1], before[3]]);

  // Switch the picked card's template.
  const picked = thumbs(page).nth(2);
  const beforeTemplate = await thumbSrc(picked);
  await page.getByRole('combobox', { name: '模板' }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '金句引用' }).click();
  await expect.poll(() => thumbSrc(thumbs(page).nth(2)), { timeout: 30_000 }).not.toBe(beforeTemplate);

  // Material search: this server has no photo service (MATERIALS_PROVIDER=none), and the picker says so instead of
  // showing empty results; the card keeps its picture.
  const beforePicker = await thumbSrc(thumbs(page).nth(2));
  await page.getByTestId('open-material-picker').click();
  await expect(page.getByTestId('material-off')).toContainText('素材搜索未开启');
  await expect(page.getByLabel('搜索素材')).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('material-off')).toBeHidden();
  expect(await thumbSrc(thumbs(page).nth(2))).toBe(beforePicker);

  // Image editor: crop to 1:1, add a text layer, save back to the card.
  const beforeEdit = await thumbSrc(thumbs(page).nth(2));
  await page.getByTestId('open-image-editor').click();
  await page.waitForURL(new RegExp(`/imageEditor/${taskId}\\?card=2`));
  await expect(page.getByTestId('image-stage').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('crop-ratio').getByText('1:1').click();
  await page.getByTestId('add-text').click();
  await page.getByTestId('text-content').fill('出发吧');
  await page.getByTestId('text-content').press('Enter');
  await expect(page.getByTestId('undo')).toBeEnabled();
  // Shape stickers beside the emoji: each is a step of the undo history.
  const layers = page.getByTestId('layer-count');
  await page.getByTestId('add-shape-arrow').click();
  await expect(layers).toHaveText('文字 1 · 形状 1');
  await expect(page.getByTestId('shape-controls')).toBeVisible();
  await page.getByTestId('add-shape-rect').click();
  await expect(layers).toHaveText('文字 1 · 形状 2');
  await page.getByTestId('undo').click();
  await expect(layers).toHaveText('文字 1 · 形状 1');
  await page.getByTestId('redo').click();
  await expect(layers).toHaveText('文字 1 · 形状 2');
  await page.getByTestId('shape-remove').click();
  await expect(layers).toHaveText('文字 1 · 形状 1');
  await page.getByTestId('image-save').click();
  await page.waitForURL(/\/xhsEditor\?taskId=/, { timeout: 30_000 });
  await expect(thumbs(page)).toHaveCount(4);
  await expect.poll(() => thumbSrc(thumbs(page).nth(2)), { timeout: 30_000 }).not.toBe(beforeEdit);
  const finalIds = await ids(page);
  expect(finalIds).toEqual([before[0], before[2], before[1], before[3]]);
  const cardUrls = await thumbs(page)
    .locator('img')
    .evaluateAll((els) => els.map((e) => (e as HTMLImageElement).src));
  // The 1:1 crop is stored as 1:1 (the PNG's own header says 1080x1080) and the preview shows that shape.
  const edited = await (await request.get(cardUrls[2]!)).body();
  expect([edited.readUInt32BE(16), edited.readUInt32BE(20)]).toEqual([1080, 1080]);
  await expect(page.getByTestId('preview-image').nth(2)).toHaveAttribute('data-size', '1080x1080');
  await expect(page.getByTestId('preview-image').nth(0)).toHaveAttribute('data-size', '1080x1440');

  // Publish: the dialog holds the cards as the note's images; the sandbox shows an image note with all of them.
  await page.getByTestId('xhs-publish').click();
  const dialog = page.getByTestId('publish-dialog');
  await expect(dialog.locator('.ant-upload-list-item')).toHaveCount(4);
  await dialog.getByLabel(identity).check();
  await page.getByTestId('publish-submit').click();
  await expect(dialog.getByTestId('publish-progress')).toHaveAttribute('data-status', 'succeeded', { timeout: 120_000 });

  const all = (await (await request.get('/sandbox-platform/api/_notes')).json()) as { data: { notes: SandboxNote[] } };
  expect(all.data.notes.map((n) => n.title)).toContain(title);
  const note = all.data.notes.find((n) => n.title === title);
  expect(note!.images).toBe(4);
  const detail = await (await request.get(`/sandbox-platform/notes/${note!.id}`)).text();
  expect(detail.match(/class="note-image"/g)).toHaveLength(4);
  // The very card files, in the editor's order (the edited 1:1 picture included).
  const sha = async (url: string) =>
    createHash('sha256')
      .update(await (await request.get(url)).body())
      .digest('hex');
  if (note!.imageSha256) expect(note!.imageSha256).toEqual(await Promise.all(cardUrls.map(sha)));

  // The drafts list (shared with articles) marks the note 图文 and opens it in /xhsEditor.
  await page.keyboard.press('Escape');
  await page.goto('/editor');
  await page.getByRole('tab', { name: '草稿' }).click();
  const draft = page.getByTestId('drafts').locator('.ant-list-item').filter({ hasText: title });
  await expect(draft.getByTestId('draft-graphic-mark')).toHaveText('图文');
  await draft.locator('.link-button').click();
  await page.waitForURL(new RegExp(`/xhsEditor\\?taskId=${taskId}`));
  await expect(thumbs(page)).toHaveCount(4);
});
