import { test, expect, apiLogin, seedSession } from '../support/fixtures.js';

/**
 * The text view of a non-PDF document scrolls the first mark into view in an effect. Chromium's scrollIntoView now
 * returns a Promise; an effect that returned it would hand React a "cleanup" that is not a function, and leaving the
 * page would throw. This opens the view and leaves it inside the app, as a user going back does.
 */
test('a text document opens with the passage marked and the page can be left without an error', async ({ page, request }) => {
  test.setTimeout(120_000);
  const s = await apiLogin(request);
  const headers = { [s.tokenName]: s.tokenValue };
  const text = '山间小路的露营指南：先选平整的营地，再搭帐篷。\n'.repeat(30);
  const up = await (
    await request.post('/api/knowledge/doc/upload', { headers, multipart: { file: { name: '露营指南.txt', mimeType: 'text/plain', buffer: Buffer.from(text) } } })
  ).json();
  expect(up.code, JSON.stringify(up)).toBe(0);
  await expect.poll(async () => (await (await request.get(`/api/knowledge/doc/info?id=${up.data.id}`, { headers })).json()).data?.status, { timeout: 60_000 }).toBe('ready');

  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await seedSession(page, s);
  await page.goto('/topic');
  await expect(page.getByTestId('page-topic')).toBeVisible();
  // In-app navigation (the router follows history), so leaving unmounts the view instead of loading a new document.
  await page.evaluate(
    (url) => {
      history.pushState({}, '', url);
      dispatchEvent(new PopStateEvent('popstate'));
    },
    `/pdfDetail?fileId=${up.data.id}&q=${encodeURIComponent('搭帐篷')}`,
  );
  await expect(page.getByTestId('pd-text')).toBeVisible();
  await expect(page.getByTestId('pd-mark').first()).toHaveText('搭帐篷');
  await page.evaluate(() => history.back());
  await expect(page.getByTestId('page-topic')).toBeVisible();
  await expect(page.getByTestId('page-pdfDetail')).toHaveCount(0);
  expect(errors.filter((e) => /not a function|destroy/i.test(e))).toEqual([]);
});
