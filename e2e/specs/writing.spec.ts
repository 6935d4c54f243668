import { readFileSync } from 'node:fs';
import { test, expect, apiLogin, latestCode, randomPhone, seedSession, type Session } from '../support/fixtures.js';
import type { APIRequestContext, Page } from '@playwright/test';

/** Points for model-backed features (the offline writer is free): buy the first bundle through the sandbox gateway. */
async function buyPoints(request: APIRequestContext, tokenName: string, tokenValue: string) {
  const headers = { [tokenName]: tokenValue };
  const bundles = await (await request.get('/api/vip/score/bundle/list', { headers })).json();
  expect(bundles.code).toBe(0);
  const qr = await (await request.post('/api/vip/pay/score-bundle/qrcode', { headers, data: { bundleId: bundles.data[0].id } })).json();
  expect(qr.code, JSON.stringify(qr)).toBe(0);
  const paid = await request.post('/api/pay/sandbox/checkout', { form: { orderNo: qr.data.orderNo } });
  expect(await paid.text()).toContain('支付成功');
}

async function pick(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
}

const editorText = (page: Page) => page.getByTestId('editor-body');

/** EventSource requests do not surface as Playwright requests: record the URLs the page opens. */
async function recordEventSources(page: Page) {
  await page.addInitScript(() => {
    const Original = window.EventSource;
    const urls: string[] = [];
    (window as unknown as { __es: string[] }).__es = urls;
    window.EventSource = class extends Original {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        urls.push(String(url));
      }
    };
  });
}
const streamUrls = (page: Page) => page.evaluate(() => (window as unknown as { __es: string[] }).__es);

test('a new user writes, resumes, edits and exports an article with the offline writer', async ({ page, request }) => {
  test.setTimeout(120_000);
  await seedSession(page, null);
  await recordEventSources(page);
  await page.goto('/');

  // Log in through the SMS sandbox outbox.
  const phone = randomPhone();
  await page.getByTestId('header-login').click();
  const modal = page.getByTestId('login-modal');
  await modal.getByRole('textbox', { name: '手机号' }).fill(phone);
  await modal.getByTestId('send-code').click();
  await expect(modal.getByTestId('send-code')).toContainText('秒后重新获取');
  await modal.getByRole('textbox', { name: '验证码' }).fill(await latestCode(request, phone));
  await modal.getByTestId('login-submit').click();
  const fill = page.getByTestId('profile-fill');
  await expect(fill).toBeVisible();
  await fill.getByText('个人创作者').click();
  await fill.getByText('小红书').click();
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(fill).toBeHidden();
  const tokenValue = (await page.evaluate(() => localStorage.getItem('tokenValue')))!;
  await buyPoints(request, 'inkstone-token', tokenValue);

  // A persona.
  await page.goto('/accountManager/persona/new');
  const form = page.getByTestId('persona-form');
  await form.getByLabel('人设名称').fill('骑行博主');
  await form.getByLabel('语气').fill('轻松、真诚');
  await form.getByLabel('目标读者').fill('周末想运动的上班族');
  await form.getByLabel('示例文本 1').fill('周末骑车去河边，风很轻，心情也很轻。');
  await page.getByTestId('persona-save').click();
  await expect(page).toHaveURL(/\/accountManager\/persona\/\d+$/);
  await expect(page.getByTestId('persona-list')).toContainText('骑行博主');

  // Home input: offline writer, quoted file, persona, deep mode (default).
  await page.goto('/');
  await expect(page.getByTestId('model-select')).toContainText('离线写作助手（非AI）');
  await page.getByTestId('quote-file-input').setInputFiles({
    name: '骑行笔记.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('城市骑行的三条建议：检查刹车，规划路线，注意补水。河边绿道是周末骑行的好去处。'),
  });
  await expect(page.getByTestId('quote-list')).toContainText('骑行笔记.txt');
  await pick(page, '人设', '骑行博主');
  await expect(page.getByTestId('write-type').locator('.ant-segmented-item-selected')).toHaveText('深度写作');
  await page.getByRole('textbox', { name: '写作主题' }).fill('写一篇周末城市骑行的入门指南');
  await page.getByTestId('home-start').click();

  // Streams into the editor, which then opens the saved draft.
  await expect(page).toHaveURL(/\/editor\?taskId=/);
  const taskId = new URL(page.url()).searchParams.get('taskId')!;
  await expect(page).toHaveURL(/\/editor\?draftId=\d+$/, { timeout: 30_000 });
  // Labelled beside the text, not inside it: the body may be published as it is.
  await expect(page.getByTestId('offline-label')).toContainText('离线写作助手生成，非AI');
  await expect(editorText(page)).toContainText('导语');
  await expect(editorText(page)).not.toContainText('离线写作助手');
  await expect(page.getByTestId('editor-title')).not.toHaveValue('');
  await expect(page.getByTestId('save-state')).toHaveText('已保存');
  const draftUrl = page.url();

  // The offline writer is too quick to reload inside its stream: play a reload that had seen the first
  // events (the snapshot the page keeps) and check the stream resumes after them, not from the start.
  const sse = await (await request.get(`/api/mp/task/stream/${taskId}`, { headers: { 'inkstone-token': tokenValue } })).text();
  const events = [...sse.matchAll(/id: (\d+)\nevent: (\w+)\ndata: (.*)\n/g)].map((m) => ({ id: Number(m[1]), type: m[2]!, data: JSON.parse(m[3]!) }));
  const deltas = events.filter((e) => e.type === 'delta');
  expect(deltas.length).toBeGreaterThan(1);
  const cut = deltas[0]!.id;
  const seen = events.filter((e) => e.id <= cut);
  await page.evaluate(
    ({ taskId, cut, text }) =>
      sessionStorage.setItem(
        'writing:stream',
        JSON.stringify({
          taskId,
          status: 'streaming',
          text,
          reasoning: '',
          title: '',
          stage: 'write',
          message: '',
          percent: 30,
          stages: [],
          sources: [],
          usage: null,
          draftId: null,
          error: null,
          lastEventId: cut,
        }),
      ),
    {
      taskId,
      cut,
      text: seen
        .filter((e) => e.type === 'delta')
        .map((e) => e.data.text as string)
        .join(''),
    },
  );
  await page.goto(`/editor?taskId=${taskId}`);
  await expect(page).toHaveURL(draftUrl);
  const resumedUrl = (await streamUrls(page)).find((u) => u.includes(`/mp/task/stream/${taskId}`))!;
  expect(new URL(resumedUrl, 'http://x').searchParams.get('lastEventId')).toBe(String(cut));
  await expect(page.getByTestId('offline-label')).toBeVisible();
  await expect(editorText(page)).toContainText('导语');

  // Two AI abilities on the whole text: accept one, discard the other.
  const before = (await editorText(page).innerText()).length;
  await page.getByTestId('abilities').getByRole('button', { name: '缩写' }).click();
  const preview = page.getByTestId('ability-preview');
  await expect(preview.getByRole('button', { name: '接受' })).toBeEnabled({ timeout: 20_000 });
  await preview.getByRole('button', { name: '放弃' }).click();
  await expect(preview).toHaveCount(0);
  expect((await editorText(page).innerText()).length).toBe(before);

  await page.getByTestId('abilities').getByRole('button', { name: '润色' }).click();
  await expect(preview.getByRole('button', { name: '接受' })).toBeEnabled({ timeout: 20_000 });
  const polished = (await preview.locator('.ability-text').innerText()).trim();
  expect(polished.length).toBeGreaterThan(0);
  await preview.getByRole('button', { name: '接受' }).click();
  await expect(preview).toHaveCount(0);
  await expect(editorText(page)).toContainText(polished.split('\n')[0]!.slice(0, 12));
  await expect(page.getByTestId('save-state')).toHaveText('已保存', { timeout: 15_000 });

  // Title generation.
  await page.getByTestId('gen-titles').click();
  const titles = page.getByTestId('title-list');
  await expect(titles.locator('.ant-list-item').first()).toBeVisible({ timeout: 20_000 });
  const first = (await titles.locator('.ant-list-item').first().innerText()).replace(/使用$/, '').trim();
  await titles.getByRole('button', { name: '使用' }).first().click();
  await expect(page.getByTestId('editor-title')).toHaveValue(first);

  // Export .docx: a real zip.
  const download = page.waitForEvent('download');
  await page.getByTestId('export-docx').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.docx$/);
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
});

test('a configured model (stand-in) streams into the editor and a reload mid-stream resumes', async ({ page, request }) => {
  test.setTimeout(90_000);
  const s: Session = await apiLogin(request);
  await buyPoints(request, s.tokenName, s.tokenValue);
  await seedSession(page, s);
  await recordEventSources(page);
  await page.goto('/');
  await pick(page, '写作模型', '模拟模型');
  await page.getByTestId('write-type').getByText('快速写作').click();
  await page.getByRole('textbox', { name: '写作主题' }).fill('春日骑行');
  await page.getByTestId('home-start').click();
  await expect(page).toHaveURL(/\/editor\?taskId=/);
  await expect(editorText(page)).toContainText('春天适合骑行', { timeout: 20_000 });
  await expect(page.getByTestId('stream-status')).toBeVisible();
  const before = await page.evaluate(() => JSON.parse(sessionStorage.getItem('writing:stream') ?? 'null') as { status: string } | null);
  expect(before?.status).toBe('streaming');
  await page.reload();
  await expect(page).toHaveURL(/taskId=/);
  await expect.poll(async () => (await streamUrls(page)).length).toBeGreaterThan(0);
  const lastEventId = Number(new URL((await streamUrls(page))[0]!, 'http://x').searchParams.get('lastEventId'));
  expect(lastEventId).toBeGreaterThan(0);
  // The resumed page keeps what it had and continues: the whole article, once.
  await expect(editorText(page)).toContainText('模拟模型输出到此结束', { timeout: 30_000 });
  await expect(page).toHaveURL(/\/editor\?draftId=\d+$/);
  expect((await editorText(page).innerText()).split('出发前的准备').length).toBe(2);
  await expect(page.getByTestId('editor-title')).toHaveValue('春日骑行指南');
});
