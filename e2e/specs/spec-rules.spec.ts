import { test, expect, apiLogin, seedSession, type Session } from '../support/fixtures.js';
import type { APIRequestContext, Page } from '@playwright/test';

/**
 * Rules of spec sections 4, 5 and 8 that other specs do not reach, against the real server
 * (docs/spec/coverage.md lists which test proves which rule). Calls fulfilled with page.route: the
 * upload refused with a code (the server refuses no image the client lets through, except by 430,
 * which is the login rule's) and the per-account unread counts of the notification click test.
 */

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function apiPost<T>(request: APIRequestContext, s: Session, path: string, data: object): Promise<T> {
  const body = await (await request.post(path, { headers: { [s.tokenName]: s.tokenValue }, data })).json();
  expect(body.code, JSON.stringify(body)).toBe(0);
  return body.data as T;
}

/** A logged-in user on the editor with a saved draft (the title and image tools live there). */
async function openEditor(page: Page, request: APIRequestContext) {
  const s = await apiLogin(request);
  const draft = await apiPost<{ id: number }>(request, s, '/api/writing/draft/save', {
    title: '周末骑行',
    markdown: '周末骑车去河边，风很轻，心情也很轻。\n\n绿道上人不多，适合慢慢骑。',
  });
  await seedSession(page, s);
  await page.goto(`/editor?draftId=${draft.id}`);
  await expect(page.getByTestId('editor-body')).toContainText('绿道上人不多');
  return s;
}

const messages = (page: Page) => page.locator('.ant-message-notice');

test('logged in: points, tracks, settings and global settings load; an undecided notification permission is asked; a stored recall channel is posted once', async ({
  page,
  request,
}) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  // Headless Chromium has no permission prompt: the page sees "default" and the request is counted.
  await page.addInitScript(() => {
    const w = window as unknown as { __asked: number };
    w.__asked = 0;
    Object.defineProperty(Notification, 'permission', { configurable: true, get: () => 'default' });
    Notification.requestPermission = async () => {
      w.__asked++;
      return 'default';
    };
  });
  const startup = ['/api/vip/user/score', '/api/topic/v3/track/info', '/api/user/setting/list', '/api/user/global-setting'].map((p) =>
    page.waitForResponse((r) => new URL(r.url()).pathname === p),
  );
  const recall = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/homepage/recall/channel');
  await page.goto('/knowledge?recallActivity=spring-recall');
  for (const res of await Promise.all(startup)) expect((await res.json()).code, res.url()).toBe(0);
  const posted = await recall;
  expect(posted.method()).toBe('POST');
  expect(posted.postDataJSON()).toEqual({ channel: 'spring-recall' });
  expect((await (await posted.response())!.json()).code).toBe(0);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('recallActivity'))).toBeNull();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __asked: number }).__asked)).toBe(1);

  // The marker is used once: the next page load (without the parameter) posts nothing.
  let again = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/homepage/recall/channel') again++;
  });
  const settings = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/user/global-setting');
  await page.goto('/topic');
  await settings;
  await page.waitForLoadState('networkidle');
  expect(again).toBe(0);
});

test('a decided notification permission is not asked again', async ({ page, context, request, baseURL }) => {
  await context.grantPermissions(['notifications'], { origin: baseURL });
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.addInitScript(() => {
    const w = window as unknown as { __asked: number };
    w.__asked = 0;
    const original = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = async () => {
      w.__asked++;
      return original();
    };
  });
  const settings = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/user/global-setting');
  await page.goto('/knowledge');
  await settings;
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => Notification.permission)).toBe('granted');
  expect(await page.evaluate(() => (window as unknown as { __asked: number }).__asked)).toBe(0);
});

test('hiding the page reports close-software (sid, version v2); showing it reports open-software', async ({ page, request }) => {
  const s = await apiLogin(request);
  await seedSession(page, s);
  await page.goto('/knowledge');
  await expect(page.getByTestId('user-area')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const report = (event: string) => page.waitForRequest((r) => r.url().includes('/api/user/event/report') && new URL(r.url()).searchParams.get('event') === event);
  const setVisibility = (state: string) =>
    page.evaluate((st) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => st });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);

  const closing = report('close-software');
  await setVisibility('hidden');
  const closed = await closing;
  const url = new URL(closed.url());
  expect(url.searchParams.get('version')).toBe('v2');
  expect(url.searchParams.get('sid')).toBe(await page.evaluate(() => localStorage.getItem('duid')));
  expect((await (await closed.response())!.json()).code).toBe(0);

  const opening = report('open-software');
  await setVisibility('visible');
  expect((await (await (await opening).response())!.json()).code).toBe(0);
});

test('title generation says the server is busy whatever the code (a persona deleted meanwhile)', async ({ page, request }) => {
  const s = await openEditor(page, request);
  const persona = await apiPost<{ id: number; name: string }>(request, s, '/api/persona/save', { name: '骑行博主', tone: '轻松' });
  await page.reload();
  await expect(page.getByTestId('editor-body')).toContainText('绿道上人不多');
  await page.getByRole('combobox', { name: '改写人设' }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '骑行博主' }).click();
  await apiPost(request, s, '/api/persona/delete', { id: persona.id });

  const res = page.waitForResponse('**/api/writing/title/generate');
  await page.getByTestId('gen-titles').click();
  const body = await (await res).json();
  expect(body.code).not.toBe(0);
  expect(body.msg).toBe('人设不存在');
  await expect(messages(page).filter({ hasText: '服务器开小差中，请稍后再试' })).toBeVisible();
  await expect(page.getByText('人设不存在')).toHaveCount(0);
});

test('image search without results: 991 from the server is an error notice 操作失败 with its msg', async ({ page, request }) => {
  await openEditor(page, request);
  await page.getByRole('button', { name: '插入图片' }).click();
  await page.getByRole('tab', { name: '我的素材' }).click();
  await page.getByPlaceholder('按名称或关键词搜索已上传的图片').fill('没有这张图');
  const res = page.waitForResponse('**/api/material/v3/image/search?*');
  await page.getByRole('button', { name: /搜\s*索/ }).click();
  expect((await (await res).json()).code).toBe(991);
  const note = page.locator('.ant-notification-notice');
  await expect(note).toContainText('操作失败');
  await expect(note).toContainText('暂无图片搜索结果');
});

test('at most 3 toasts on screen, messages and notices together: five failures in five seconds, never more than three at once', async ({ page, request }) => {
  // The page's timers run on the test's clock: once paused, nothing closes or moves on unless the test advances it.
  await page.clock.install();
  await openEditor(page, request);
  await page.getByRole('button', { name: '插入图片' }).click();
  await page.getByRole('tab', { name: '我的素材' }).click();
  const search = page.getByPlaceholder('按名称或关键词搜索已上传的图片');
  await search.fill('没有这张图');
  // A first answer loads the notice code and closes again; then three 5 s error notices (991) and two 3 s error
  // messages, one a second, each still open when the fifth comes.
  let answered = -1;
  await page.route('**/api/material/v3/image/search?*', (route) => {
    answered++;
    if (answered === 0) return route.fulfill({ json: { code: 991, msg: '预热', data: null } });
    return route.fulfill({ json: answered <= 3 ? { code: 991, msg: `没有结果 ${answered}`, data: null } : { code: 1234, msg: `图库暂不可用 ${answered}`, data: null } });
  });
  // The texts of the toasts on screen; one that is leaving (its close animation may wait for the clock) is gone.
  const onScreen = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('.ant-notification-notice, .ant-message-notice')].filter((el) => !el.closest('[class*="-leave"]')).map((el) => el.textContent ?? ''),
    );
  const showing = async (text: string) => (await onScreen()).filter((t) => t.includes(text)).length;
  await search.press('Enter');
  await expect.poll(() => showing('预热')).toBe(1);
  // A moment ahead of the page's clock, which keeps running until then.
  await page.clock.pauseAt(new Date((await page.evaluate(() => Date.now())) + 1_000));
  await page.clock.runFor(6_000);
  await expect.poll(async () => (await onScreen()).length).toBe(0);

  // Every toast that ever appears from here is counted, message or notice, and the most ever on screen at once is kept.
  await page.evaluate(() => {
    const w = window as unknown as { __total: number; __max: number };
    w.__total = 0;
    w.__max = 0;
    const seen = new WeakSet<Element>();
    new MutationObserver(() => {
      const live = [...document.querySelectorAll('.ant-notification-notice, .ant-message-notice')].filter((el) => !el.closest('[class*="-leave"]'));
      for (const el of live)
        if (!seen.has(el)) {
          seen.add(el);
          w.__total++;
        }
      w.__max = Math.max(w.__max, live.length);
    }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  });
  for (let i = 1; i <= 5; i++) {
    const res = page.waitForResponse('**/api/material/v3/image/search?*');
    // Enter, not the button: the toasts shown cover it.
    await search.press('Enter');
    await res;
    await expect.poll(() => showing(` ${i}`)).toBe(1);
    if (i < 5) await page.clock.runFor(1_000);
  }
  expect(await page.evaluate(() => (window as unknown as { __total: number }).__total)).toBe(5);
  expect(await page.evaluate(() => (window as unknown as { __max: number }).__max)).toBe(3);
  // The oldest made way: the newest three stay.
  const left = await onScreen();
  expect(left).toHaveLength(3);
  for (const text of ['没有结果 3', '图库暂不可用 4', '图库暂不可用 5']) expect(left.filter((t) => t.includes(text))).toHaveLength(1);
});

test('image upload: 上传失败 when the server refuses, 上传图片失败 when no answer comes, 文件读取失败 when the file cannot be read', async ({ page, context, request }) => {
  await openEditor(page, request);
  await page.getByRole('button', { name: '插入图片' }).click();
  const input = page.getByLabel('选择图片');
  const file = { name: 'dot.png', mimeType: 'image/png', buffer: PNG };

  // Refused with a code: the upload call's own text, not the server's.
  await page.route('**/api/wx/upload', (route) => route.fulfill({ json: { code: 1502, msg: '存储暂不可用', data: null } }));
  await input.setInputFiles(file);
  await expect(messages(page).filter({ hasText: /^上传失败$/ })).toBeVisible();
  await expect(page.getByText('存储暂不可用')).toHaveCount(0);
  await page.unroute('**/api/wx/upload');

  // No answer at all: the real request fails on the wire.
  await context.setOffline(true);
  await input.setInputFiles({ ...file, name: 'dot2.png' });
  await expect(messages(page).filter({ hasText: '上传图片失败' })).toBeVisible();
  await context.setOffline(false);

  // The browser cannot read the file (it went away after it was picked).
  await page.evaluate(() => {
    const original = Blob.prototype.arrayBuffer;
    Blob.prototype.arrayBuffer = function () {
      Blob.prototype.arrayBuffer = original;
      return Promise.reject(new DOMException('The requested file could not be read', 'NotReadableError'));
    };
  });
  await input.setInputFiles({ ...file, name: 'dot3.png' });
  await expect(messages(page).filter({ hasText: '文件读取失败' })).toBeVisible();

  // And a real upload still works afterwards.
  const up = page.waitForResponse('**/api/wx/upload');
  await input.setInputFiles({ ...file, name: 'dot4.png' });
  expect((await (await up).json()).code).toBe(0);
});

test('the comment notification carries the open-page action; clicking it opens /operationBoard in the open tab', async ({ page, context, request, baseURL }) => {
  await context.grantPermissions(['notifications'], { origin: baseURL });
  const s = await apiLogin(request);
  await seedSession(page, s);
  // Per-account unread counts come from bound platform accounts; publish.spec.ts runs that real chain
  // (bind a 沙箱 account, a fan comments). Here the two polling calls answer a fixed mention count.
  await page.route('**/api/publish/account/list/v3?*', (route) =>
    // A whole record as the server sends it (the board renders the account's name and platform).
    route.fulfill({
      json: {
        code: 0,
        msg: 'ok',
        data: {
          records: [
            {
              id: 1,
              platform: 'sandbox',
              platformName: '沙箱',
              sandbox: true,
              accountName: '评论测试号',
              avatar: null,
              status: 'active',
              statusReason: null,
              top: false,
              followerCount: 0,
              noteCount: 0,
              cookies: '[]',
              createdAt: '2026-01-01T00:00:00.000Z',
              lastSyncedAt: null,
            },
          ],
          total: 1,
          pageNum: 1,
          pageSize: 200,
        },
      },
    }),
  );
  await page.route('**/api/publish/account/unread?*', (route) => route.fulfill({ json: { code: 0, msg: 'ok', data: { unread_count: 2, likes: 0, connections: 0, mentions: 2 } } }));
  await page.goto('/knowledge');
  await expect(page.getByTestId('page-knowledge')).toBeVisible();
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  type Shown = { title: string; body: string; data: { url?: string }; actions: { action: string; title: string }[] };
  const shown = () =>
    worker.evaluate(async () => {
      const reg = (self as unknown as { registration: ServiceWorkerRegistration }).registration;
      return (await reg.getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        data: n.data as { url?: string },
        actions: (n as unknown as { actions: { action: string; title: string }[] }).actions,
      }));
    });
  await expect.poll(async () => (await shown()).length, { timeout: 20_000 }).toBe(1);
  const [n] = (await shown()) as Shown[];
  expect(n!.title).toMatch(/^\d{2}:\d{2}$/);
  expect(n!.body).toBe('您有2条新的评论消息');
  expect(n!.data.url).toBe('/operationBoard');
  expect(n!.actions.map((a) => a.title)).toEqual(['打开页面']);

  // The operating system's click, played inside the worker: its notificationclick handler runs as for a real one.
  await worker.evaluate(async () => {
    const sw = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
    const [notification] = await sw.registration.getNotifications();
    const Ctor = (self as unknown as { NotificationEvent: new (type: string, init: object) => Event }).NotificationEvent;
    try {
      sw.dispatchEvent(new Ctor('notificationclick', { notification, action: 'open' }));
    } catch {
      // waitUntil refuses an untrusted event; the handler's work has started by then.
    }
  });
  // The board opens (in the main layout without the flag) and selects the first account.
  await expect(page).toHaveURL(/\/operationBoard(\/1)?$/);
  await expect(page.getByTestId('page-operationBoard')).toBeVisible();
  await expect.poll(async () => (await shown()).length).toBe(0);
});
