import type { Page } from 'playwright-core';
import type { BrowserPool } from '../../../browser/pool.js';
import { CreatorSiteAdapter, type SiteNote } from '../creator-site.js';
import type { ImageFile } from '../images.js';
import {
  CaptchaError,
  ContentRejectedError,
  RateLimitedError,
  SessionExpiredError,
  TransientPlatformError,
  htmlToText,
  type AccountProfile,
  type PlatformComment,
  type PlatformLimits,
  type PlatformMetrics,
  type PublishContent,
  type PublishOptions,
  type PublishResult,
  type ScanState,
  type SessionBlob,
  type UnreadCounts,
} from '../types.js';
import { xhsPaths as P, xhsSelectors as S } from './selectors.js';

export interface XhsOptions {
  /** https://creator.xiaohongshu.com, or the local page set in tests. */
  creatorUrl: string;
  /** https://edith.xiaohongshu.com (web API: unread counts, mentions). */
  edithUrl: string;
}

interface ApiReply<T> {
  code?: number;
  success?: boolean;
  msg?: string;
  data?: T;
}

/**
 * Xiaohongshu creator-center automation (there is no official publishing API for users): QR login
 * saved as browser storage state; the session is valid while /publish/publish does not redirect to
 * /login; image notes are published through the web form. Web-API calls run inside a creator page,
 * so the site's own script adds its signatures (x-s, x-t) and cookies; captchas (HTTP 461/471) and
 * login expiry become typed errors.
 */
export class XiaohongshuAdapter extends CreatorSiteAdapter {
  readonly id = 'xiaohongshu' as const;
  readonly label = '小红书';
  readonly sandbox = false;
  readonly limits: PlatformLimits = {
    titleMax: 20,
    titleRequired: true,
    bodyMax: 1000,
    imagesMin: 1,
    imagesMax: 18,
    topicsMax: 10,
    schedule: { mode: 'native', minAheadMs: 3600_000, maxAheadMs: 14 * 24 * 3600_000 },
  };

  private readonly base: string;
  private readonly edith: string;

  constructor(pool: BrowserPool, opts: XhsOptions) {
    super(pool);
    this.base = opts.creatorUrl.replace(/\/+$/, '');
    this.edith = opts.edithUrl.replace(/\/+$/, '');
  }

  protected loginUrl() {
    return `${this.base}${P.login}`;
  }

  protected async readQr(page: Page): Promise<string> {
    const qr = page.locator(S.login.qrImage);
    if (!(await qr.isVisible().catch(() => false))) await page.locator(S.login.qrSwitch).click({ timeout: 15_000 });
    await qr.waitFor({ state: 'visible', timeout: 15_000 });
    const src = await qr.getAttribute('src');
    if (src?.startsWith('data:image/')) return src;
    // A remote image: capture it as the user will see it.
    return `data:image/png;base64,${(await qr.screenshot({ type: 'png' })).toString('base64')}`;
  }

  protected async readScanState(page: Page): Promise<ScanState> {
    if (
      await page
        .locator(S.login.expired)
        .isVisible()
        .catch(() => false)
    )
      return 'expired';
    if (
      await page
        .locator(S.login.scanned)
        .isVisible()
        .catch(() => false)
    )
      return 'scanned';
    return 'waiting';
  }

  protected async isLoggedIn(page: Page): Promise<boolean> {
    const u = new URL(page.url());
    return u.origin === new URL(this.base).origin && !u.pathname.startsWith(P.login);
  }

  protected async openPublishPage(page: Page): Promise<boolean> {
    await page.goto(`${this.base}${P.publish}`, { waitUntil: 'domcontentloaded', timeout: 45_000 });
    if (new URL(page.url()).pathname.startsWith(P.login)) return false;
    await page.locator(S.publish.imageTab).first().waitFor({ timeout: 20_000 });
    return true;
  }

  /** A web-API call from inside a creator page (cookies and the site's request signing apply). */
  private async pageApi<T>(page: Page, url: string): Promise<T> {
    const r = await page.evaluate(async (u) => {
      const res = await fetch(u, { credentials: 'include' });
      return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
    }, url);
    if (r.status === 461 || r.status === 471) throw new CaptchaError('小红书要求安全验证，请重新扫码登录该账号');
    const body = r.body as ApiReply<T> | null;
    if (r.status === 401 || body?.code === -100) throw new SessionExpiredError('小红书登录已失效，请重新扫码绑定');
    if (r.status === 429 || body?.code === 300013) throw new RateLimitedError('小红书访问频次过高，请稍后再试');
    if (r.status >= 400 || !body || body.success === false) throw new TransientPlatformError(`小红书接口返回 ${r.status} ${body?.msg ?? ''}`.trim());
    return body.data as T;
  }

  protected async readProfile(page: Page): Promise<AccountProfile> {
    const d = await this.pageApi<{ red_id?: string; user_id?: string; name: string; avatar?: string; fans_count?: number; notes_count?: number }>(
      page,
      `${this.base}${P.personalInfo}`,
    );
    return { platformUserId: String(d.user_id ?? d.red_id), accountName: d.name, avatar: d.avatar ?? null, followerCount: d.fans_count ?? 0, noteCount: d.notes_count ?? 0 };
  }

  protected async fillAndSubmit(page: Page, content: PublishContent, images: ImageFile[], opts: PublishOptions): Promise<PublishResult> {
    await page.locator(S.publish.imageTab).first().click();
    await page.locator(S.publish.uploadInput).setInputFiles(images.map((f) => ({ name: f.name, mimeType: f.mimeType, buffer: f.buffer })));
    const title = page.locator(S.publish.title);
    await title.waitFor({ timeout: 60_000 });
    await title.fill(content.title);
    const editor = page.locator(S.publish.body);
    await editor.click();
    await editor.pressSequentially(htmlToText(content.body), { delay: 0 });
    for (const topic of content.topics) {
      // Topics are picked from the suggestion list, never typed as plain text.
      await editor.pressSequentially(` #${topic}`, { delay: 20 });
      const item = page.locator(S.publish.topicItem).first();
      await item.waitFor({ timeout: 10_000 });
      await item.click();
    }
    if (opts.scheduleAt) {
      await page.locator(S.publish.scheduleSwitch).click();
      const local = new Date(opts.scheduleAt.getTime() + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
      await page.locator(S.publish.scheduleInput).fill(local);
    }
    await opts.beforeSubmit();
    const started = Date.now();
    const blocked = page
      .waitForResponse((r) => r.status() === 461 || r.status() === 471, { timeout: 60_000 })
      .then(() => 'captcha' as const)
      .catch(() => null);
    await page.locator(S.publish.submit).click();
    const outcome = await Promise.race([
      page.waitForURL((u) => u.pathname.startsWith(P.successPrefix), { timeout: 60_000 }).then(() => 'ok' as const),
      page
        .locator(S.publish.toast)
        .first()
        .waitFor({ timeout: 60_000 })
        .then(() => 'toast' as const),
      page
        .locator(S.publish.captcha)
        .first()
        .waitFor({ timeout: 60_000 })
        .then(() => 'captcha' as const),
      blocked.then((b) => b ?? new Promise<never>(() => undefined)),
    ]);
    if (outcome === 'captcha') throw new CaptchaError('小红书要求安全验证，请重新扫码登录该账号');
    if (outcome === 'toast') {
      const text = (await page.locator(S.publish.toast).first().textContent())?.trim() ?? '发布失败';
      if (/登录/.test(text)) throw new SessionExpiredError('小红书登录已失效，请重新扫码绑定');
      if (/频繁/.test(text)) throw new RateLimitedError(text);
      throw new ContentRejectedError(text);
    }
    const notes = await this.listNotes(page);
    const hit = notes.find((n) => n.title === content.title.trim() && n.createdAt.getTime() >= started - 120_000);
    return { status: opts.scheduleAt ? 'scheduled' : (hit?.status ?? 'reviewing'), url: hit?.url ?? null, noteId: hit?.id ?? null };
  }

  protected async listNotes(page: Page): Promise<SiteNote[]> {
    if (!page.url().startsWith(this.base)) await page.goto(`${this.base}${P.publish}`, { waitUntil: 'domcontentloaded', timeout: 45_000 });
    if (new URL(page.url()).pathname.startsWith(P.login)) throw new SessionExpiredError('小红书登录已失效，请重新扫码绑定');
    const d = await this.pageApi<{ notes: Array<{ id: string; display_title: string; time: string | number; type?: string; schedule_post_time?: number | null }> }>(
      page,
      `${this.base}${P.postedNotes}`,
    );
    return d.notes.map((n) => ({
      id: n.id,
      title: n.display_title,
      url: `${P.noteUrl}${n.id}`,
      createdAt: new Date(typeof n.time === 'number' ? n.time : Date.parse(n.time)),
      status: n.schedule_post_time ? 'scheduled' : 'published',
    }));
  }

  private onCreatorPage<T>(accountKey: string, session: SessionBlob, fn: (page: Page) => Promise<T>, what: string): Promise<T> {
    return this.withPage(accountKey, session, what, async (page) => {
      await page.goto(`${this.base}${P.publish}`, { waitUntil: 'domcontentloaded', timeout: 45_000 });
      if (new URL(page.url()).pathname.startsWith(P.login)) throw new SessionExpiredError('小红书登录已失效，请重新扫码绑定');
      return fn(page);
    });
  }

  override unreadCounts(accountKey: string, session: SessionBlob): Promise<UnreadCounts> {
    return this.onCreatorPage(accountKey, session, (page) => this.pageApi<UnreadCounts>(page, `${this.edith}${P.unreadCount}`), '读取未读消息失败');
  }

  override comments(accountKey: string, session: SessionBlob): Promise<PlatformComment[]> {
    return this.onCreatorPage(
      accountKey,
      session,
      async (page) => {
        const d = await this.pageApi<{
          message_list: Array<{
            id: string;
            time: number;
            type: string;
            user_info?: { nickname?: string };
            comment_info?: { content?: string };
            item_info?: { id?: string; content?: string };
          }>;
        }>(page, `${this.edith}${P.mentions}`);
        return (d.message_list ?? [])
          .filter((m) => m.comment_info?.content)
          .map((m) => ({
            id: m.id,
            noteId: m.item_info?.id ?? null,
            noteTitle: m.item_info?.content ?? null,
            author: m.user_info?.nickname ?? '小红书用户',
            content: m.comment_info!.content!,
            createdAt: new Date(m.time * 1000),
          }));
      },
      '读取评论失败',
    );
  }

  override searchTopics(accountKey: string, session: SessionBlob, keyword: string): Promise<string[]> {
    return this.onCreatorPage(
      accountKey,
      session,
      async (page) => {
        const d = await this.pageApi<{ topic_info_dtos?: Array<{ name: string }> }>(page, `${this.base}${P.topicSuggest}?keyword=${encodeURIComponent(keyword)}`);
        return (d.topic_info_dtos ?? []).map((t) => t.name);
      },
      '搜索话题失败',
    );
  }

  /** The data centre is read from its pages in the browser, so snapshots of this platform run on the publisher role. */
  readonly metricsUseBrowser = true;

  /**
   * 数据中心 through the creator pages: 账号概览's trend table gives the account's days (the last 30 complete days the
   * page shows, up to "数据更新至"), 笔记数据 each note's totals as of that day. Only the part of `range` the pages
   * cover comes back; older days are not offered by the site.
   */
  async metrics(accountKey: string, session: SessionBlob, range: { from: string; to: string }): Promise<PlatformMetrics> {
    return this.withPage(accountKey, session, '读取数据中心失败', async (page) => {
      const open = async (path: string) => {
        await page.goto(`${this.base}${path}`, { waitUntil: 'domcontentloaded', timeout: 45_000 });
        if (new URL(page.url()).pathname.startsWith(P.login)) throw new SessionExpiredError('小红书登录已失效，请重新扫码绑定');
        const text = await page.locator(S.data.updatedTo).first().textContent({ timeout: 20_000 });
        const day = /(\d{4}-\d{2}-\d{2})/.exec(text ?? '')?.[1];
        if (!day) throw new TransientPlatformError('小红书数据中心页面未显示数据日期');
        return day;
      };
      const figure = (t: string | null | undefined) => {
        const n = Number((t ?? '').replace(/[,\s]/g, ''));
        if (!Number.isFinite(n)) throw new TransientPlatformError(`小红书数据中心的数字无法识别：${t ?? ''}`);
        return n;
      };
      const inRange = (d: string) => d >= range.from && d <= range.to;

      const lastDay = await open(P.accountData);
      const cells = await page.locator(S.data.trendRows).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
      const days: PlatformMetrics['days'] = cells
        .filter((c) => c.length >= 8 && inRange(c[0]!))
        .map((c) => ({
          day: c[0]!,
          views: figure(c[1]),
          likes: figure(c[2]),
          collects: figure(c[3]),
          comments: figure(c[4]),
          shares: figure(c[5]),
          newFollowers: figure(c[6]),
          followers: figure(c[7]),
        }))
        .sort((a, b) => (a.day < b.day ? -1 : 1));

      const notes: PlatformMetrics['notes'] = [];
      if (inRange(lastDay)) {
        const notesDay = await open(P.notesData);
        const items = await page.locator(S.data.noteItems).evaluateAll(
          (els, sel) =>
            els.map((el) => ({
              id: el.getAttribute('data-note-id') ?? '',
              title: el.querySelector(sel.title)?.textContent?.trim() ?? '',
              time: el.querySelector(sel.time)?.textContent?.trim() ?? '',
              cells: Object.fromEntries([...el.querySelectorAll(sel.cell)].map((c) => [c.getAttribute('data-key') ?? '', c.querySelector('.value')?.textContent?.trim() ?? ''])),
            })),
          { title: S.data.noteTitle, time: S.data.noteTime, cell: S.data.noteCell },
        );
        for (const it of items) {
          const at = /(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})/.exec(it.time);
          if (!it.id || !at) continue;
          notes.push({
            day: notesDay,
            noteId: it.id,
            title: it.title,
            url: `${P.noteUrl}${it.id}`,
            publishedAt: new Date(`${at[1]}T${at[2]}:00+08:00`),
            views: figure(it.cells.view),
            likes: figure(it.cells.like),
            collects: figure(it.cells.collect),
            comments: figure(it.cells.comment),
            shares: figure(it.cells.share),
          });
        }
      }
      return { lastDay, days, notes };
    });
  }

  // The base class's page-less variants are not used: every web-API call runs in a page (signing).
  protected fetchUnread(): Promise<UnreadCounts> {
    throw new TransientPlatformError('unused');
  }
  protected fetchComments(): Promise<PlatformComment[]> {
    throw new TransientPlatformError('unused');
  }
  protected fetchTopics(): Promise<string[]> {
    throw new TransientPlatformError('unused');
  }
}
