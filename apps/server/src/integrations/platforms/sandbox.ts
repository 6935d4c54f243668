import type { Page } from 'playwright-core';
import type { BrowserPool } from '../../browser/pool.js';
import { CreatorSiteAdapter, cookieHeader, type SiteNote } from './creator-site.js';
import type { ImageFile } from './images.js';
import { builtInProfiles, effectiveProfile, inStep, locate, type SiteProfile, type SiteProfileSource } from './site-steps.js';
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
} from './types.js';

/** The sandbox platform's pages; like a real site's, they live in one place. */
export const sandboxSelectors = {
  qrImage: '#qrcode',
  scanState: '#scan-state',
  phoneLink: '#phone-link',
  creator: '#creator',
  images: '#images',
  title: '#title',
  body: '#content',
  topics: '#topics',
  schedule: '#schedule',
  submit: '#submit',
  success: '#publish-success',
  noteLink: '#note-link',
  captcha: '#captcha',
  error: '.publish-error',
  noteItem: '.note-item',
} as const;

const S = sandboxSelectors;

/**
 * The publish form's steps as a site profile, so 平台健康 can override them (and shows their failures) on the sandbox
 * as on a real site. Login and the notes list keep their fixed selectors above.
 */
export const sandboxProfile: SiteProfile = {
  paths: {},
  steps: { 'upload.input': [S.images], title: [S.title], body: [S.body], topics: [S.topics], schedule: [S.schedule], submit: [S.submit] },
};
/** A step's wait: the sandbox page is served locally, so a locator that finds nothing in 5 s finds nothing. */
const STEP_MS = 5_000;

/**
 * 沙箱 platform adapter: drives the simulated creator site served by our own server with the same
 * browser automation a real creator site gets. `baseUrl` is read lazily: the server knows its own
 * port only once it listens.
 */
export class SandboxPlatformAdapter extends CreatorSiteAdapter {
  readonly id = 'sandbox' as const;
  readonly label = '沙箱平台';
  readonly sandbox = true;
  readonly siteProfile = sandboxProfile;
  readonly limits: PlatformLimits = {
    titleMax: 20,
    titleRequired: true,
    bodyMax: 1000,
    imagesMin: 1,
    imagesMax: 18,
    topicsMax: 10,
    schedule: { mode: 'queue', minAheadMs: 0, maxAheadMs: 14 * 24 * 3600_000 },
  };

  constructor(
    pool: BrowserPool,
    private readonly baseUrl: () => string,
    /**
     * True when the sandbox site is served by the product itself (always, outside the contract suite). The
     * browser automation reaches it at a loopback address, but users may open the product as `localhost`, a LAN
     * address or a public name: links they see (avatar, note, phone page) become server-relative paths,
     * so they load from whatever origin the page came from and the CSP's 'self' covers them.
     */
    private readonly sameServer = false,
    /** The operators' overrides (平台健康), read at every publish. */
    private readonly profiles: SiteProfileSource = builtInProfiles,
  ) {
    super(pool);
  }

  private profile(): SiteProfile {
    return effectiveProfile(sandboxProfile, this.profiles.override(this.id));
  }

  /** A link shown to users, resolved against the page the automation read it from. */
  private link(href: string, pageUrl: string): string {
    const u = new URL(href, pageUrl);
    return this.sameServer ? `${u.pathname}${u.search}${u.hash}` : u.toString();
  }

  private url(p: string) {
    return `${this.baseUrl().replace(/\/+$/, '')}/sandbox-platform${p}`;
  }

  protected loginUrl() {
    return this.url('/login');
  }

  protected async readQr(page: Page): Promise<string> {
    const src = await page.locator(S.qrImage).getAttribute('src', { timeout: 15_000 });
    if (!src) throw new TransientPlatformError('登录二维码未出现');
    return src;
  }

  protected override async scanHint(page: Page): Promise<Record<string, string>> {
    const href = await page
      .locator(S.phoneLink)
      .getAttribute('href')
      .catch(() => null);
    return href ? { scanUrl: this.link(href, page.url()) } : {};
  }

  protected async readScanState(page: Page): Promise<ScanState> {
    const s = await page.locator(S.scanState).getAttribute('data-state', { timeout: 15_000 });
    return s === 'scanned' || s === 'confirmed' || s === 'expired' ? s : 'waiting';
  }

  protected async isLoggedIn(page: Page): Promise<boolean> {
    return /\/sandbox-platform\/publish/.test(page.url());
  }

  protected async openPublishPage(page: Page): Promise<boolean> {
    if (!/\/sandbox-platform\/publish$/.test(new URL(page.url(), 'http://x').pathname)) {
      await page.goto(this.url('/publish'), { waitUntil: 'domcontentloaded', timeout: 30_000 });
    }
    if (new URL(page.url()).pathname.endsWith('/login')) return false;
    await page.locator(S.creator).waitFor({ timeout: 15_000 });
    return true;
  }

  protected async readProfile(page: Page): Promise<AccountProfile> {
    const el = page.locator(S.creator);
    const [id, name, avatar, followers, notes] = await Promise.all(['data-id', 'data-name', 'data-avatar', 'data-followers', 'data-notes'].map((a) => el.getAttribute(a)));
    if (!id || !name) throw new TransientPlatformError('读取账号信息失败');
    return { platformUserId: id, accountName: name, avatar: avatar ? this.link(avatar, page.url()) : null, followerCount: Number(followers) || 0, noteCount: Number(notes) || 0 };
  }

  protected async fillAndSubmit(page: Page, content: PublishContent, images: ImageFile[], opts: PublishOptions): Promise<PublishResult> {
    const p = this.profile();
    const step = (key: string, state?: 'attached') => inStep(key, () => locate(page, p, key, this.label, { timeoutMs: STEP_MS, state }));
    // A step that fails carries its key; CreatorSiteAdapter.publish turns it into the diagnostic 平台健康 shows.
    await inStep('upload', async () => (await step('upload.input', 'attached')).setInputFiles(images.map((f) => ({ name: f.name, mimeType: f.mimeType, buffer: f.buffer }))));
    await inStep('title', async () => (await step('title')).fill(content.title));
    await inStep('body', async () => (await step('body')).fill(htmlToText(content.body)));
    if (content.topics.length) await inStep('topics', async () => (await step('topics')).fill(content.topics.join(',')));
    if (opts.scheduleAt) await inStep('schedule', async () => (await step('schedule')).fill(opts.scheduleAt!.toISOString().slice(0, 16)));
    const submit = await step('submit');
    // The canary: every step ran and the submit is there; nothing is clicked, nothing is posted.
    if (opts.dryRun) return { status: 'published', url: null, noteId: null, stoppedBeforeSubmit: true };
    await opts.beforeSubmit();
    const [response] = await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: 60_000 }), submit.click()]);
    if (new URL(page.url()).pathname.endsWith('/login')) throw new SessionExpiredError('登录已失效，请重新扫码绑定');
    const status = response?.status() ?? 0;
    if (status === 461 || (await page.locator(S.captcha).count())) throw new CaptchaError('平台要求安全验证，请重新登录该账号');
    const error = page.locator(S.error);
    if (await error.count()) {
      const kind = await error.getAttribute('data-kind');
      const text = (await error.textContent())?.trim() ?? '发布失败';
      if (kind === 'rejected') throw new ContentRejectedError(text);
      if (kind === 'rate_limited') throw new RateLimitedError(text);
      throw new TransientPlatformError(text);
    }
    const success = page.locator(S.success);
    await success.waitFor({ timeout: 15_000 });
    const noteId = await success.getAttribute('data-note-id');
    const href = await page.locator(S.noteLink).getAttribute('href');
    return {
      status: (await success.getAttribute('data-status')) === 'scheduled' ? 'scheduled' : 'published',
      noteId,
      url: href ? this.link(href, page.url()) : null,
    };
  }

  protected async listNotes(page: Page): Promise<SiteNote[]> {
    await page.goto(this.url('/notes'), { waitUntil: 'domcontentloaded', timeout: 30_000 });
    if (new URL(page.url()).pathname.endsWith('/login')) throw new SessionExpiredError('登录已失效，请重新扫码绑定');
    return page
      .locator(S.noteItem)
      .evaluateAll((els) =>
        els.map((el) => ({
          id: el.getAttribute('data-id') ?? '',
          title: el.getAttribute('data-title') ?? '',
          created: Number(el.getAttribute('data-created')),
          href: (el.querySelector('a') as HTMLAnchorElement | null)?.href ?? '',
        })),
      )
      .then((rows) =>
        rows.map((r) => ({ id: r.id, title: r.title, url: r.href ? this.link(r.href, page.url()) : '', createdAt: new Date(r.created), status: 'published' as const })),
      );
  }

  private async api<T>(session: SessionBlob, p: string): Promise<T> {
    const url = this.url(p);
    let res: Response;
    try {
      res = await fetch(url, { headers: { cookie: cookieHeader(session, url) }, signal: AbortSignal.timeout(10_000) });
    } catch (err) {
      throw new TransientPlatformError(`沙箱平台请求失败: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (res.status === 401) throw new SessionExpiredError('登录已失效，请重新扫码绑定');
    if (!res.ok) throw new TransientPlatformError(`沙箱平台返回 HTTP ${res.status}`);
    const body = (await res.json()) as { success: boolean; data: T; msg?: string };
    if (!body.success) throw new TransientPlatformError(body.msg ?? '沙箱平台请求失败');
    return body.data;
  }

  protected fetchUnread(_page: Page | null, session: SessionBlob): Promise<UnreadCounts> {
    return this.api<UnreadCounts>(session, '/api/unread_count');
  }

  protected async fetchComments(_page: Page | null, session: SessionBlob): Promise<PlatformComment[]> {
    const data = await this.api<{ comments: Array<{ id: string; noteId: string; noteTitle: string; author: string; content: string; createdAt: number }> }>(
      session,
      '/api/comments',
    );
    return data.comments.map((c) => ({ id: c.id, noteId: c.noteId, noteTitle: c.noteTitle, author: c.author, content: c.content, createdAt: new Date(c.createdAt) }));
  }

  protected async fetchTopics(_page: Page | null, session: SessionBlob, keyword: string): Promise<string[]> {
    const data = await this.api<{ topics: string[] }>(session, `/api/topics?keyword=${encodeURIComponent(keyword)}`);
    return data.topics;
  }

  /** The site's data API (no browser, so snapshots run on the worker role). */
  readonly metricsUseBrowser = false;

  /** The site's data API (no browser): complete days of `range`, figures as the site computes them. */
  async metrics(_accountKey: string, session: SessionBlob, range: { from: string; to: string }): Promise<PlatformMetrics> {
    const data = await this.api<{ lastDay: string; days: PlatformMetrics['days']; notes: Array<Omit<PlatformMetrics['notes'][number], 'publishedAt'> & { publishedAt: number }> }>(
      session,
      `/api/data?from=${range.from}&to=${range.to}`,
    );
    return {
      lastDay: data.lastDay,
      days: data.days,
      notes: data.notes.map((n) => ({
        ...n,
        url: n.url ? (this.sameServer ? n.url : this.url(n.url.replace(/^\/sandbox-platform/, ''))) : null,
        publishedAt: new Date(n.publishedAt),
      })),
    };
  }

  /** Cheaper than the page check: the profile API answers 401 once the session is gone. */
  override async stats(_accountKey: string, session: SessionBlob) {
    const me = await this.api<{ followers: number; notes: number }>(session, '/api/me');
    return { followerCount: me.followers, noteCount: me.notes };
  }
}
