import type { Locator, Page } from 'playwright-core';
import type { BrowserPool } from '../../../browser/pool.js';
import { CreatorSiteAdapter, type SiteNote } from '../creator-site.js';
import type { ImageFile } from '../images.js';
import { builtInProfiles, effectiveProfile, inStep, locate, locateOptional, StepFailedError, type SiteProfile, type SiteProfileSource } from '../site-steps.js';
import {
  CaptchaError,
  ContentRejectedError,
  PlatformError,
  RateLimitedError,
  SessionExpiredError,
  TransientPlatformError,
  UnavailableError,
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
import { readXhsMetrics } from './data-centre.js';
import { toSiteNote, XhsPageApi, type PostedNote } from './page-api.js';
import { xhsCaptchaMarkers, xhsCookies, xhsProfile } from './selectors.js';
import { findQr } from './login-qr.js';
import { confirm, dismissOverlays, exactTopic, submit, waitForPreviews } from './form-controls.js';

export interface XhsOptions {
  /** https://creator.xiaohongshu.com, or a local page set in tests. */
  creatorUrl: string;
  /** https://edith.xiaohongshu.com (topic suggestions). */
  edithUrl: string;
  /** The operator's selector overrides (console 平台健康), read at every use. */
  profiles?: SiteProfileSource;
  /** Pause between typed characters, as a person types (tests set 0). */
  typingDelayMs?: number;
  /** How long a topic's suggestion list may take before the topic is skipped. */
  topicWaitMs?: number;
}

const EXPIRED = '小红书登录已失效，请重新扫码绑定';
/** Unread counts and mentions are www.xiaohongshu.com APIs: the creator-centre login cannot read them. */
const INBOX_UNAVAILABLE = '小红书的消息通知需要小红书网页版登录，创作中心扫码登录读取不到，暂不支持';

/**
 * Xiaohongshu creator-centre automation (there is no official publishing API for creators): QR login kept as browser
 * storage state; an image note published through the web form step by step (tab, upload, title, body, topics,
 * declare, schedule, submit, confirm), each step's locators from the site profile (selectors.ts, overridable at run
 * time); web-API calls signed by the page's own signer (page-api.ts).
 */
export class XiaohongshuAdapter extends CreatorSiteAdapter {
  readonly id = 'xiaohongshu' as const;
  readonly label = '小红书';
  readonly sandbox = false;
  readonly siteProfile = xhsProfile;
  readonly limits: PlatformLimits = {
    titleMax: 20,
    titleRequired: true,
    bodyMax: 1000,
    imagesMin: 1,
    imagesMax: 18,
    topicsMax: 10,
    schedule: { mode: 'native', minAheadMs: 3600_000, maxAheadMs: 14 * 24 * 3600_000 },
    // Peers report warnings, then a 7-day mute, for bursts of automated notes (xiaohongshu-mcp #307, #715).
    pacing: { minIntervalMs: 2 * 3600_000, dailyCap: 5, jitterMs: 10 * 60_000 },
  };
  /** Shown instead of unread counts and comments (see INBOX_UNAVAILABLE); the account stays active. */
  readonly inboxUnavailable = INBOX_UNAVAILABLE;

  private readonly base: string;
  private readonly edith: string;
  private readonly api = new XhsPageApi();

  constructor(
    pool: BrowserPool,
    private readonly opts: XhsOptions,
  ) {
    super(pool);
    this.base = opts.creatorUrl.replace(/\/+$/, '');
    this.edith = opts.edithUrl.replace(/\/+$/, '');
  }

  /** The built-in profile with the operator's active override on top, read now (a change applies to the next run). */
  private profile(): SiteProfile {
    return effectiveProfile(xhsProfile, (this.opts.profiles ?? builtInProfiles).override(this.id));
  }
  private path(name: string): string {
    return this.profile().paths[name] ?? xhsProfile.paths[name]!;
  }
  private onLoginPage(page: Page): boolean {
    return new URL(page.url()).pathname.startsWith(this.path('login'));
  }
  private async captchaShown(page: Page): Promise<boolean> {
    if (xhsCaptchaMarkers.urls.some((re) => re.test(page.url()))) return true;
    const text = await page
      .locator('body')
      .innerText({ timeout: 1000 })
      .catch(() => '');
    return xhsCaptchaMarkers.texts.test(text);
  }

  protected loginUrl() {
    return `${this.base}${this.path('login')}`;
  }

  // --- login ----------------------------------------------------------------------------------
  /**
   * The creator login opens on the SMS panel; the corner icon switches to the QR. Its React handler drops clicks now
   * and then, so the icon is clicked again until the QR shows. The QR has no stable class on the creator site: found
   * by the old class, else as the largest square image in the login box.
   */
  protected async readQr(page: Page): Promise<string> {
    const profile = this.profile();
    return inStep('login.qrImage', async () => {
      let qr: Locator | null = null;
      for (let attempt = 0; attempt < 5 && !qr; attempt++) {
        qr = await findQr(page, profile, attempt === 0 ? 500 : 1500);
        if (qr) break;
        const icon = await locate(page, profile, 'login.qrSwitch', this.label, { timeoutMs: 15_000 });
        await icon.click();
      }
      qr ??= await findQr(page, profile, 3000);
      if (!qr) throw new StepFailedError('login.qrImage', [...(profile.steps['login.qrImage'] ?? []), '登录框内最大的方形图片'], this.label);
      const src = await qr.getAttribute('src');
      if (src?.startsWith('data:image/')) return src;
      // A remote image: captured as the user will see it.
      return `data:image/png;base64,${(await qr.screenshot({ type: 'png' })).toString('base64')}`;
    });
  }

  protected async readScanState(page: Page): Promise<ScanState> {
    if (await this.captchaShown(page)) throw new CaptchaError('扫码后小红书要求安全验证：请在手机上完成验证后重新获取二维码');
    const profile = this.profile();
    if (await locateOptional(page, profile, 'login.expired', { timeoutMs: 0 })) return 'expired';
    if (await locateOptional(page, profile, 'login.scanned', { timeoutMs: 0 })) return 'scanned';
    return 'waiting';
  }

  /**
   * Logged in once the creator site has issued its own token cookie (a www login alone gets a 401 at upload,
   * xiaohongshu-mcp PR #818), or the page left the login for a creator page that is not a captcha.
   */
  protected async isLoggedIn(page: Page): Promise<boolean> {
    const u = new URL(page.url());
    if (xhsCaptchaMarkers.urls.some((re) => re.test(page.url()))) return false;
    const cookies = await page.context().cookies();
    if (cookies.some((c) => c.name === xhsCookies.accessToken && c.value)) return true;
    return u.origin === new URL(this.base).origin && !this.onLoginPage(page);
  }

  protected async openPublishPage(page: Page): Promise<boolean> {
    this.api.watch(page);
    return inStep('open', async () => {
      await this.goto(page, `${this.base}${this.path('publish')}`);
      if (this.onLoginPage(page)) return false;
      if (await this.captchaShown(page)) throw new CaptchaError('小红书要求安全验证，请在小红书App或网页完成验证后重新扫码');
      // The form is ready when its upload input exists (the image tab is active) or a tab can be clicked.
      const profile = this.profile();
      const ready = await Promise.race([
        locate(page, profile, 'upload.input', this.label, { state: 'attached', timeoutMs: 20_000 }).then(() => true),
        locate(page, profile, 'tab.image', this.label, { timeoutMs: 20_000 }).then(() => true),
      ]).catch(() => null);
      if (!ready) throw new StepFailedError('tab.image', [...profile.steps['upload.input']!, ...profile.steps['tab.image']!], this.label);
      return true;
    });
  }

  /**
   * Right after a QR login the site is still redirecting itself (login -> /new/home): a navigation of ours started then
   * is interrupted by the site's. Let the site's land, then go again.
   */
  private async goto(page: Page, url: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 45_000 });
        return;
      } catch (err) {
        if (attempt >= 3 || !/interrupted by another navigation/i.test(String(err))) throw err;
        await page.waitForLoadState('domcontentloaded', { timeout: 10_000 }).catch(() => undefined);
      }
    }
  }

  /**
   * personal_info carries no user id in 2026 (redNum is the display id): the id is the creator session's user-id cookie,
   * else the page's own store, else the older reply's user_id. Never a made-up id: two accounts must stay two.
   */
  protected async readProfile(page: Page): Promise<AccountProfile> {
    return inStep('profile', async () => {
      type Info = {
        user_id?: string;
        userId?: string;
        red_id?: string;
        name: string;
        avatar?: string;
        fans_count?: number;
        fansCount?: number;
        notes_count?: number;
        grow_info?: { fans_count?: number };
      };
      const d = await this.api.get<Info>(page, `${this.base}${this.path('personalInfo')}`, { reuse: true });
      const cookies = await page.context().cookies();
      const fromCookie = cookies.find((c) => c.name === xhsCookies.userId)?.value;
      const fromStore = await page
        .evaluate(() => {
          type VueHost = { __vue_app__?: { config: { globalProperties: { $store?: { state?: { Auth?: { userInfo?: { userId?: string } } } } } } } };
          const app = document.querySelector('#app') as unknown as VueHost | null;
          return app?.__vue_app__?.config.globalProperties.$store?.state?.Auth?.userInfo?.userId ?? null;
        })
        .catch(() => null);
      const id = fromCookie || fromStore || d.user_id || d.userId || null;
      if (!id) throw new PlatformError('没能识别这个小红书账号（创作中心页面可能已改版），请稍后再试或联系我们');
      const noteCount = d.notes_count ?? (await this.postedPage(page, 0)).total;
      return { platformUserId: id, accountName: d.name, avatar: d.avatar ?? null, followerCount: d.fans_count ?? d.fansCount ?? d.grow_info?.fans_count ?? 0, noteCount };
    });
  }

  // --- publish --------------------------------------------------------------------------------
  protected async fillAndSubmit(page: Page, content: PublishContent, images: ImageFile[], opts: PublishOptions): Promise<PublishResult> {
    const profile = this.profile();
    const dismiss = () => dismissOverlays(page, profile);
    const warnings = await this.fillForm(page, profile, content, images, opts);
    if (opts.dryRun) {
      // The canary proves the submit control is there and usable, and stops: nothing is clicked.
      await inStep('submit', async () => {
        const host = await locateOptional(page, profile, 'submit.host', { timeoutMs: 2000 });
        if (!host) await locate(page, profile, 'submit.button', this.label, { timeoutMs: 15_000, onCovered: dismiss });
      });
      return { status: 'reviewing', url: null, noteId: null, stoppedBeforeSubmit: true, warnings };
    }

    const started = Date.now();
    const blocked = page
      .waitForResponse((r) => r.status() === 461 || r.status() === 471, { timeout: 60_000 })
      .then(() => 'captcha' as const)
      .catch(() => null);
    await inStep('submit', () => submit(page, profile, opts, dismiss, this.label));
    const outcome = await inStep('confirm', () => confirm(page, profile, blocked));
    if (outcome === 'captcha') throw new CaptchaError('小红书要求安全验证，请在小红书App或网页完成验证后重新扫码');
    if (outcome.startsWith('toast:')) {
      const text = outcome.slice('toast:'.length) || '发布失败';
      if (/登录/.test(text)) throw new SessionExpiredError(EXPIRED);
      if (/频繁/.test(text)) throw new RateLimitedError(text);
      throw new ContentRejectedError(text);
    }
    const notes = await this.listNotes(page);
    const hit = notes.find((n) => n.title === content.title.trim() && n.createdAt.getTime() >= started - 180_000);
    // Left the form for somewhere other than the success page: only a note in the list proves it was posted.
    if (outcome === 'left' && !hit) throw new TransientPlatformError('发布后页面跳转到了其他页面，笔记列表中没有找到这篇笔记');
    const status = opts.scheduleAt ? 'scheduled' : (hit?.status ?? 'reviewing');
    return { status, url: hit?.url ?? null, noteId: hit?.id ?? null, ...(warnings.length ? { warnings } : {}) };
  }

  /** Every step up to the final submit; returns what went out differently from what was asked. */
  private async fillForm(page: Page, profile: SiteProfile, content: PublishContent, images: ImageFile[], opts: PublishOptions): Promise<string[]> {
    const L = this.label;
    const typing = this.opts.typingDelayMs ?? 35;
    const dismiss = () => dismissOverlays(page, profile);
    const warnings: string[] = [];
    await dismiss();

    await inStep('tab', async () => {
      // `target=image` opens the image tab already; the tab row also holds hidden decoy copies, so click only if needed.
      if (await locateOptional(page, profile, 'upload.input', { state: 'attached', timeoutMs: 1500 })) return;
      await (await locate(page, profile, 'tab.image', L, { onCovered: dismiss })).click();
    });

    await inStep('upload', async () => {
      // One image at a time, each waited for: the site drops files set while one is still uploading, and its input
      // loses the `upload-input` class after the first (xiaohongshu-mcp 70f07e8, 44061fd).
      for (const [i, f] of images.entries()) {
        const input = await locate(page, profile, 'upload.input', L, { state: 'attached', timeoutMs: 30_000 });
        await input.setInputFiles({ name: f.name, mimeType: f.mimeType, buffer: f.buffer });
        await waitForPreviews(page, profile, i + 1, L);
      }
    });

    await inStep('title', async () => {
      const title = await locate(page, profile, 'title', L, { timeoutMs: 20_000, onCovered: dismiss });
      await title.click();
      await title.fill('');
      await title.pressSequentially(content.title, { delay: typing });
    });

    const editor = await inStep('body', async () => {
      const body = await locate(page, profile, 'body', L, { onCovered: dismiss });
      await body.click();
      await body.pressSequentially(htmlToText(content.body), { delay: typing });
      return body;
    });

    await inStep('topics', async () => {
      for (const topic of content.topics) {
        // Picked from the suggestions, never typed as plain text; a topic the site does not offer is skipped.
        const typed = ` #${topic}`;
        await editor.pressSequentially(typed, { delay: Math.max(typing, 20) });
        const item = await locateOptional(page, profile, 'topics.item', { timeoutMs: this.opts.topicWaitMs ?? 8000 });
        if (item) {
          // The list is refreshed as each character arrives: the exact topic once it shows, else the first offered.
          await ((await exactTopic(page, profile, topic)) ?? item).click();
          continue;
        }
        for (let k = 0; k < [...typed].length; k++) await page.keyboard.press('Backspace');
        warnings.push(`话题「${topic}」小红书没有给出建议，已跳过`);
      }
    });

    if (content.aiGenerated) {
      await inStep('declare', async () => {
        // 《人工智能生成合成内容标识办法》: AI-made notes carry the platform's own declaration. A form without one (the
        // site before it added it) still publishes, and the creator is told to declare it in the app.
        const open = await locateOptional(page, profile, 'declare.open', { timeoutMs: 5000, onCovered: dismiss });
        if (!open) {
          warnings.push('小红书发布页没有找到「笔记含AI合成内容」声明，请在小红书App中为这篇笔记补充AI内容声明');
          return;
        }
        await open.click();
        await (await locate(page, profile, 'declare.ai', L, { timeoutMs: 10_000 })).click();
      });
    }

    if (opts.scheduleAt) {
      await inStep('schedule', async () => {
        const local = new Date(opts.scheduleAt!.getTime() + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
        await (await locate(page, profile, 'schedule.switch', L, { onCovered: dismiss })).click();
        const input = await locate(page, profile, 'schedule.input', L);
        await input.click();
        await input.press('ControlOrMeta+a');
        await input.pressSequentially(local, { delay: Math.min(typing, 20) });
        await input.press('Enter');
        const shown = (await input.inputValue()).trim();
        if (shown !== local) throw new PlatformError(`定时发布时间没有设置成功（页面显示「${shown || '空'}」，应为「${local}」）`);
      });
    }

    return warnings;
  }

  // --- notes ----------------------------------------------------------------------------------
  private async postedPage(page: Page, n: number): Promise<{ notes: PostedNote[]; next: number; total: number }> {
    try {
      const d = await this.api.get<{ notes?: PostedNote[]; page?: number; tags?: Array<{ id?: string; notes_count?: number }> }>(
        page,
        `${this.base}${this.path('postedNotes')}${n}`,
      );
      const all = d.tags?.find((t) => t.id === 'special.note_time_desc')?.notes_count;
      return { notes: d.notes ?? [], next: typeof d.page === 'number' ? d.page : -1, total: all ?? d.notes?.length ?? 0 };
    } catch (err) {
      // The previous generation had only v1 (one page, no tab_status).
      if (!(err instanceof TransientPlatformError) || !/接口不存在/.test(err.message)) throw err;
      const d = await this.api.get<{ notes?: PostedNote[] }>(page, `${this.base}${this.path('postedNotesV1')}`);
      return { notes: d.notes ?? [], next: -1, total: d.notes?.length ?? 0 };
    }
  }

  /** The newest notes (up to three pages of the note manager), with their review state. */
  protected async listNotes(page: Page): Promise<SiteNote[]> {
    return inStep('notes', async () => {
      // Calls are signed by the page's signer: a page without it (a bare success page) is left for the form first.
      const signer = await page.evaluate(() => typeof (window as unknown as { _webmsxyw?: unknown })._webmsxyw === 'function').catch(() => false);
      if (!signer || !page.url().startsWith(this.base) || this.onLoginPage(page)) {
        this.api.watch(page);
        await this.goto(page, `${this.base}${this.path('publish')}`);
      }
      if (this.onLoginPage(page)) throw new SessionExpiredError(EXPIRED);
      const out: SiteNote[] = [];
      for (let n = 0, pages = 0; n >= 0 && pages < 3; pages++) {
        const r = await this.postedPage(page, n);
        out.push(...r.notes.map(toSiteNote));
        n = r.next;
      }
      return out;
    });
  }

  private onCreatorPage<T>(accountKey: string, session: SessionBlob, fn: (page: Page) => Promise<T>, what: string): Promise<T> {
    return this.withPage(accountKey, session, what, async (page) => {
      this.api.watch(page);
      await this.goto(page, `${this.base}${this.path('publish')}`);
      if (this.onLoginPage(page)) throw new SessionExpiredError(EXPIRED);
      return fn(page);
    });
  }

  /** Not readable with a creator session (see INBOX_UNAVAILABLE): said plainly, and never an expired account. */
  override unreadCounts(): Promise<UnreadCounts> {
    return Promise.reject(new UnavailableError(INBOX_UNAVAILABLE));
  }

  override comments(): Promise<PlatformComment[]> {
    return Promise.reject(new UnavailableError(INBOX_UNAVAILABLE));
  }

  /** Suggestions as the editor asks for them: POST to edith with the note's title and text, signed by the page. */
  override searchTopics(accountKey: string, session: SessionBlob, keyword: string): Promise<string[]> {
    return this.onCreatorPage(
      accountKey,
      session,
      async (page) => {
        const d = await this.api.post<{ topic_info_dtos?: Array<{ name: string }> }>(page, `${this.edith}${this.path('topicSuggest')}`, {
          keyword,
          suggest_topic_request: { title: '', desc: '' },
          page: { page_size: 20, page: 1 },
        });
        return (d.topic_info_dtos ?? []).map((t) => t.name);
      },
      '搜索话题失败',
    );
  }

  /** The data centre is read from its pages in the browser, so snapshots of this platform run on the publisher role. */
  readonly metricsUseBrowser = true;

  async metrics(accountKey: string, session: SessionBlob, range: { from: string; to: string }): Promise<PlatformMetrics> {
    return this.withPage(accountKey, session, '读取数据中心失败', (page) => readXhsMetrics(page, this.base, this.profile(), range));
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
