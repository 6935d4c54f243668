import { readFileSync } from 'node:fs';
import { test, expect, apiLogin, seedSession } from '../support/fixtures.js';
import { accountDay, addDays, noteFigures, type MetricsNote } from '../../apps/server/src/integrations/platforms/sandbox-metrics.js';
import { sandboxCreatorId } from '../../apps/server/src/integrations/platforms/sandbox-site.js';
import { pdfText } from '../../apps/server/src/test/pdf-text.js';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const fmt = (n: number) => n.toLocaleString('zh-CN');

/**
 * /dataAnalyse against the real server and its embedded 沙箱 creator site: the empty states teach (bind an account
 * from the page itself, then wait for or ask for the first snapshot), 刷新 is rate-limited with the server's message,
 * the first snapshot fills the cards, the charts and the table load, and the CSV and PDF exports download. Two notes are
 * published and the sandbox site's clock moved three days on; the server's data "today" is fixed (DATA_TODAY, set by
 * the e2e setup) so the cards, the table and the PDF show the sandbox's exact figures for the day before it.
 */
test('data analysis: bind from the empty state, publish, 刷新 (rate-limited), exact figures, CSV and PDF export', async ({ page, context, request }) => {
  test.setTimeout(180_000);
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/dataAnalyse');
  const root = page.getByTestId('page-dataAnalyse');
  await expect(root.getByTestId('data-no-account')).toBeVisible();

  // Bind a 沙箱 account without leaving the page.
  await root.getByTestId('data-bind').click();
  const modal = page.getByTestId('bind-modal');
  await expect(modal.getByRole('radio', { name: '沙箱平台' })).toBeChecked();
  await modal.getByTestId('bind-start').click();
  await expect(modal.getByTestId('bind-qr')).toBeVisible({ timeout: 30_000 });
  const [phone] = await Promise.all([context.waitForEvent('page'), modal.getByTestId('bind-scan-url').click()]);
  await phone.getByLabel('模拟的创作者账号').fill('数据创作者');
  await phone.locator('#confirm').click();
  await expect(phone.locator('#confirmed')).toBeVisible();
  await phone.close();
  await expect(modal.getByTestId('bind-done')).toContainText('数据创作者', { timeout: 30_000 });
  await modal.getByTestId('bind-finish').click();

  // Two notes through the publishing API, then three days pass on the sandbox site.
  const headers = { [s.tokenName]: s.tokenValue };
  const list = (await (await request.get('/api/publish/account/list/v3?pageNum=1&pageSize=20', { headers })).json()) as { data: { records: Array<{ id: number }> } };
  const accountId = list.data.records[0]!.id;
  const titles = ['数据笔记之一', '数据笔记之二'];
  for (const title of titles) {
    const pub = (await (
      await request.post('/publish-api/publish/article', {
        headers,
        data: { accountIds: [accountId], content: { title, body: '<p>数据分析的测试笔记。</p>', images: [PNG], topics: [] } },
      })
    ).json()) as { code: number; data: { publishId: string } };
    expect(pub.code).toBe(0);
    await expect
      .poll(
        async () =>
          ((await (await request.get(`/publish-api/publish/result?publishId=${pub.data.publishId}`, { headers })).json()) as { data: { jobs: Array<{ status: string }> } }).data
            .jobs[0]?.status,
        { timeout: 90_000 },
      )
      .toBe('succeeded');
  }
  await request.post('/sandbox-platform/api/_control', { data: { advanceDays: 3 } });
  const creator = sandboxCreatorId('数据创作者');
  const sandboxNotes = (await (await request.get('/sandbox-platform/api/_notes')).json()) as {
    data: { notes: Array<{ id: string; title: string; creatorId: string; createdAt: number; scheduledAt: number | null }> };
  };
  const notes: MetricsNote[] = sandboxNotes.data.notes
    .filter((n) => n.creatorId === creator && titles.includes(n.title))
    .map((n) => ({ id: n.id, title: n.title, url: null, publishedAt: n.scheduledAt ?? n.createdAt }));
  expect(notes).toHaveLength(2);
  const yesterday = addDays(process.env.E2E_DATA_TODAY!, -1);
  const base = 100 + (parseInt(creator.slice(3, 7), 16) % 900);
  const followers = accountDay(base, notes, yesterday).followers;
  const views = notes.map((n) => noteFigures(n, yesterday).views);

  // Bound, no snapshot yet: the page says when data comes and offers 刷新.
  const noData = root.getByTestId('data-no-data');
  await expect(noData).toBeVisible();
  await expect(noData).toContainText('首份数据将在下次同步后出现');
  await noData.getByTestId('data-refresh').click();
  // Said next to the button and in a toast; the first snapshot can land at once and replace the empty state (and its
  // note) with the dashboard, so either place counts.
  await expect(page.getByText(/已提交 1 个账号的数据同步/).first()).toBeVisible();

  // The first snapshot arrives: cards, trend, table.
  await expect(root.getByTestId('data-overview')).toBeVisible({ timeout: 60_000 });
  // The figures of the sandbox's yesterday, exactly; both notes were published inside the 7 days shown.
  await expect(root.getByTestId('data-card-follow').getByTestId('data-count')).toHaveText(fmt(followers));
  await expect(root.getByTestId('data-card-follow').getByTestId('data-inc')).toContainText(fmt(followers - base));
  await expect(root.getByTestId('data-card-read').getByTestId('data-count')).toHaveText(fmt(views[0]! + views[1]!));
  await expect(root.getByTestId('data-card-article').getByTestId('data-count')).toHaveText('2');
  await expect(root.getByTestId('data-trend-chart')).toBeVisible();
  await expect(root.getByTestId('data-accounts')).toContainText('数据创作者');
  await expect(root.getByTestId('data-notes')).toBeVisible();
  for (const [i, n] of notes.entries()) await expect(root.getByTestId('data-notes').locator('tr', { hasText: n.title })).toContainText(fmt(views[i]!));

  // A second 刷新 within the minute shows the server's rate-limit message in place.
  await root.getByTestId('data-refresh').click();
  await expect(root.getByTestId('data-refresh-note')).toContainText('刷新过于频繁');

  // CSV export of the daily series downloads a file.
  const [download] = await Promise.all([page.waitForEvent('download'), root.getByTestId('data-export-series').click()]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8');
  expect(csv).toContain(`${yesterday},${followers},`);

  // The PDF report: printed by the server's Chromium, with the same figures.
  const [pdf] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), root.getByTestId('data-export-pdf').click()]);
  expect(pdf.suggestedFilename()).toMatch(/^数据报告_.*\.pdf$/);
  const bytes = new Uint8Array(readFileSync(await pdf.path()));
  expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  const { text } = await pdfText(bytes);
  expect(text).toContain(`阅读/浏览${fmt(views[0]! + views[1]!)}`);
  expect(text).toContain(`粉丝数${fmt(followers)}`);
  for (const n of notes) expect(text).toContain(n.title);

  // On a phone the cards wrap and nothing on this page reaches past the screen (wide tables scroll inside their card).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('data-mobile.png'), fullPage: true });
  const widest = await root.evaluate((el) =>
    Math.max(...[el, ...el.querySelectorAll<HTMLElement>('.data-cards, .data-panel, .toolbar')].map((e) => e.getBoundingClientRect().right)),
  );
  expect(widest).toBeLessThanOrEqual(390);
  const cards = root.getByTestId('data-overview').locator('.stat-card');
  const [first, last] = [await cards.first().boundingBox(), await cards.last().boundingBox()];
  expect(last!.y).toBeGreaterThan(first!.y);
});
