import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXhsCreatorStandin, type XhsCreatorStandin } from './server.js';

// A 1x1 PNG: the server checks image bytes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const png = (name: string) => ({ name, mimeType: 'image/png', buffer: PNG });

/** The 2026 page set in Chromium: what the adapter is written against must really be there. */
describe('xhs-creator stand-in, 2026 pages (browser)', () => {
  let browser: Browser;
  let standin: XhsCreatorStandin;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    standin = await startXhsCreatorStandin();
    context = await browser.newContext();
    page = await context.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await standin?.close();
  });

  it('QR login: the first switch click is ignored, the QR has no qrcode-img class, confirm sets creator cookies only', async () => {
    await page.goto(`${standin.url}/login`);
    const qrSwitch = page.locator('.login-box-container img.css-wemwzq');
    await qrSwitch.click();
    await page.waitForTimeout(400);
    expect(await page.getByText('APP扫一扫登录').count()).toBe(0);
    await qrSwitch.click();
    await page.getByText('APP扫一扫登录').waitFor();
    expect(await page.locator('.qrcode-img').count()).toBe(0);
    const largest = await page
      .locator('.login-box-container img')
      .evaluateAll(
        (imgs) =>
          imgs.map((i) => ({ w: i.getBoundingClientRect().width, h: i.getBoundingClientRect().height, src: (i as HTMLImageElement).src })).sort((a, b) => b.w * b.h - a.w * a.h)[0],
      );
    expect(largest).toMatchObject({ w: 160, h: 160 });
    expect(largest!.src).toMatch(/^data:image\/png;base64,/);

    await standin.scanLatest(false);
    await page.getByText('扫码成功，请在手机上确认').waitFor();
    await standin.scanLatest(true, '小红薯自测');
    await page.waitForURL((u) => u.pathname === '/new/home');
    const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c]));
    expect(cookies['access-token-creator.xiaohongshu.com']?.value).toMatch(/^customer\.creator\.AT-/);
    expect(cookies['access-token-creator.xiaohongshu.com']?.httpOnly).toBe(true);
    expect(cookies['x-user-id-creator.xiaohongshu.com']?.value).toMatch(/^[0-9a-f]{24}$/);
    expect(cookies['a1']?.httpOnly).toBe(false);
    expect(cookies['web_session']).toBeUndefined();
    expect(standin.unsignedCalls).toEqual([]);
  });

  it('refuses and records an unsigned call; a call signed with the page’s _webmsxyw passes; personal_info has no user id', async () => {
    await page.goto(`${standin.url}/publish/publish?from=homepage&target=image`);
    const unsigned = await page.evaluate(async () => {
      const r = await fetch('/api/galaxy/creator/home/personal_info', { credentials: 'include' });
      return { status: r.status, body: (await r.json()) as unknown };
    });
    expect(unsigned).toEqual({ status: 406, body: { code: 300015, success: false, msg: '签名错误' } });
    expect(standin.unsignedCalls).toEqual(['GET /api/galaxy/creator/home/personal_info']);

    const signed = await page.evaluate(async () => {
      const path = '/api/galaxy/creator/home/personal_info';
      const sig = (window as unknown as { _webmsxyw(u: string, d?: unknown): { 'X-s': string; 'X-t': number } })._webmsxyw(path, undefined);
      const r = await fetch(path, { credentials: 'include', headers: { 'X-s': sig['X-s'], 'X-t': String(sig['X-t']) } });
      return (await r.json()) as { code: number; data: Record<string, unknown> };
    });
    expect(signed.code).toBe(0);
    expect(Object.keys(signed.data).sort()).toEqual(['avatar', 'fans_count', 'faved_count', 'follow_count', 'grow_info', 'name', 'personal_desc', 'red_num']);
    expect(signed.data.name).toBe('小红薯自测');
    const userId = await page.evaluate(
      () =>
        (document.querySelector('#app') as unknown as { __vue_app__: { config: { globalProperties: { $store: { state: { Auth: { userInfo: { userId: string } } } } } } } })
          .__vue_app__.config.globalProperties.$store.state.Auth.userInfo.userId,
    );
    expect(userId).toMatch(/^[0-9a-f]{24}$/);
    expect(standin.unsignedCalls).toHaveLength(1);
  });

  it('hides decoy tabs, drops files set during an upload, renames the input, and publishes only from the 发布 pill', async () => {
    await page.goto(`${standin.url}/publish/publish?from=homepage&target=image`);
    const tabs = page.locator('.creator-tab', { hasText: '上传图文' });
    expect(await tabs.count()).toBe(3);
    // As xiaohongshu-mcp judges it: on screen, not transparent, and the element itself at its centre.
    const usable = await tabs.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        const onScreen = r.width > 0 && r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight;
        const hit = onScreen ? document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) : null;
        return onScreen && Number(getComputedStyle(el).opacity) > 0.1 && !!hit && el.contains(hit);
      }),
    );
    expect(usable).toEqual([false, false, true]);

    const button = page.locator('xhs-publish-btn');
    expect(await button.getAttribute('submit-disabled')).toBe('true');
    await page.locator('input.upload-input').setInputFiles(png('a.png'));
    await page.locator('.img-preview-area .pr').first().waitFor();
    expect(await page.locator('input.upload-input').count()).toBe(0);
    const input = page.locator('input[type="file"][accept*=".png"]');
    expect(await input.count()).toBe(1);
    // Two at once: the second arrives while the first is uploading and is lost.
    await input.setInputFiles([png('b.png'), png('c.png')]);
    await page.waitForTimeout(700);
    expect(await page.locator('.img-preview-area .pr').count()).toBe(2);
    await input.setInputFiles(png('d.png'));
    await expect.poll(() => page.locator('.img-preview-area .pr').count()).toBe(3);

    expect(await page.locator('.ql-editor').count()).toBe(0);
    await page.locator('div.d-input input.d-text[placeholder="填写标题会有更多赞哦～"]').fill('二〇二六自测');
    const body = page.locator('div.tiptap.ProseMirror[contenteditable="true"][role="textbox"]');
    expect(await body.locator('p[data-placeholder*="输入正文描述"]').count()).toBe(1);
    await body.click();
    await page.keyboard.type('秋天的第一杯奶茶 #奶茶', { delay: 10 });
    await page.locator('#creator-editor-topic-container .item').first().click();
    const searched = page.waitForResponse((r) => r.url().endsWith('/web_api/sns/v1/search/topic') && (r.request().postDataJSON() as { keyword: string }).keyword === '冷门话题');
    await page.keyboard.type('#冷门话题', { delay: 10 });
    expect(await (await searched).json()).toMatchObject({ code: 0, data: { topic_info_dtos: [] } });
    await page.waitForTimeout(300);
    expect(await page.locator('#creator-editor-topic-container .item').count()).toBe(0);
    await page.getByText('添加内容类型声明').click();
    await page.locator('.d-popover').getByText('笔记含AI合成内容').click();
    await expect.poll(() => button.getAttribute('submit-disabled')).toBe('false');

    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    expect(box.width).toBeGreaterThan(500);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/publish/publish');
    expect(standin.notes).toHaveLength(0);

    await page.mouse.click(box.x + box.width - 48, box.y + box.height / 2);
    await page.waitForURL((u) => u.pathname === '/publish/success');
    expect(standin.notes).toHaveLength(1);
    expect(standin.notes[0]).toMatchObject({ title: '二〇二六自测', images: 3, topics: ['奶茶'], aiDeclared: true, postTime: null, tabStatus: 1 });
    expect(standin.notes[0]!.desc).toBe('秋天的第一杯奶茶 #奶茶[话题]# #冷门话题');
    expect(standin.unsignedCalls).toHaveLength(1);
  });

  it('lists posted notes on the v2 path only; logged out is code -101', async () => {
    const list = await page.evaluate(async () => {
      const call = async (path: string) => {
        const sig = (window as unknown as { _webmsxyw(u: string, d?: unknown): { 'X-s': string; 'X-t': number } })._webmsxyw(path, undefined);
        const r = await fetch(path, { credentials: 'include', headers: { 'X-s': sig['X-s'], 'X-t': String(sig['X-t']) } });
        return { status: r.status, body: (await r.json()) as { data: { page: number; notes: Array<Record<string, unknown>> } } };
      };
      return { v2: await call('/api/galaxy/v2/creator/note/user/posted?tab=0&page=0'), v1: await call('/api/galaxy/creator/note/user/posted?tab=0') };
    });
    expect(list.v1.status).toBe(404);
    expect(list.v2.body.data.page).toBe(-1);
    expect(list.v2.body.data.notes[0]).toMatchObject({ display_title: '二〇二六自测', tab_status: 1, schedule_post_time: 0 });
    expect(list.v2.body.data.notes[0]!.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);

    standin.expireSessions();
    const out = await page.evaluate(async () => {
      const path = '/api/galaxy/creator/home/personal_info';
      const sig = (window as unknown as { _webmsxyw(u: string, d?: unknown): { 'X-s': string; 'X-t': number } })._webmsxyw(path, undefined);
      const r = await fetch(path, { credentials: 'include', headers: { 'X-s': sig['X-s'], 'X-t': String(sig['X-t']) } });
      return { status: r.status, body: (await r.json()) as unknown };
    });
    expect(out).toEqual({ status: 200, body: { code: -101, success: false, msg: '未登录' } });
    await page.goto(`${standin.url}/publish/publish?from=homepage&target=image`);
    expect(page.url()).toBe(`${standin.url}/login?redirectReason=401`);
  });
});
