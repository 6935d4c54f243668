import type { BrowserContext, Page } from 'playwright-core';
import { BrowserCrashedError, type BrowserPool } from '../../browser/pool.js';
import { loadImages, type ImageFile } from './images.js';
import { captureDiagnostic, stepOfError } from './site-steps.js';
import {
  CaptchaError,
  LoginGoneError,
  PlatformError,
  SessionExpiredError,
  TransientPlatformError,
  type AccountProfile,
  type LoginStart,
  type PlatformAdapter,
  type PlatformComment,
  type PlatformId,
  type PlatformLimits,
  type PublishContent,
  type PublishOptions,
  type PublishResult,
  type ScanState,
  type SessionBlob,
  type UnreadCounts,
} from './types.js';

export interface SiteNote {
  id: string;
  title: string;
  url: string;
  createdAt: Date;
  status: PublishResult['status'];
}

const LOGIN_TTL_MS = 5 * 60_000;

/**
 * Browser automation of a creator website, shared by the sandbox platform and Xiaohongshu: the
 * pool, the QR-login lifecycle, session-expiry detection, screenshots and error translation live
 * here; each site supplies its pages and selectors through the abstract steps.
 */
export abstract class CreatorSiteAdapter implements PlatformAdapter {
  abstract readonly id: PlatformId;
  abstract readonly label: string;
  abstract readonly sandbox: boolean;
  abstract readonly limits: PlatformLimits;
  readonly usesBrowser = true;
  /** Creator sites publish image notes as such (upload images, title, body, topics). */
  readonly imageNotes = 'native' as const;
  /** Creator sites log in by scanning their QR in the platform's app. */
  readonly login = 'qr' as const;

  constructor(protected readonly pool: BrowserPool) {}

  // --- site steps -----------------------------------------------------------------------------
  protected abstract loginUrl(): string;
  /** Brings the QR into view and returns its image as a data: URL. */
  protected abstract readQr(page: Page): Promise<string>;
  /** The scan state while still on the login page. */
  protected abstract readScanState(page: Page): Promise<ScanState>;
  protected abstract isLoggedIn(page: Page): Promise<boolean>;
  /** Opens the publish page; false when the site sent us to its login page. */
  protected abstract openPublishPage(page: Page): Promise<boolean>;
  protected abstract readProfile(page: Page): Promise<AccountProfile>;
  /** Fills the form; must call `beforeSubmit` right before the final click and return the outcome. */
  protected abstract fillAndSubmit(page: Page, content: PublishContent, images: ImageFile[], opts: PublishOptions): Promise<PublishResult>;
  protected abstract listNotes(page: Page): Promise<SiteNote[]>;
  protected abstract fetchUnread(page: Page | null, session: SessionBlob): Promise<UnreadCounts>;
  protected abstract fetchComments(page: Page | null, session: SessionBlob): Promise<PlatformComment[]>;
  protected abstract fetchTopics(page: Page | null, session: SessionBlob, keyword: string): Promise<string[]>;
  /** Extra hint for the scan step (the sandbox gives its phone page URL). */
  protected scanHint(_page: Page): Promise<Record<string, string>> {
    return Promise.resolve({});
  }

  // --- login ----------------------------------------------------------------------------------
  async startLogin(ownerKey: string, _input: Record<string, unknown> = {}): Promise<LoginStart> {
    const key = `login:${this.id}:${ownerKey}`;
    const page = await this.pool.openPage(key);
    try {
      await page.goto(this.loginUrl(), { waitUntil: 'domcontentloaded', timeout: 30_000 });
      const qrImage = await this.readQr(page);
      return { state: JSON.stringify({ key, ...(await this.scanHint(page)) }), qrImage, expiresInMs: LOGIN_TTL_MS };
    } catch (err) {
      const wrapped = this.wrap(err, '打开登录页失败');
      // A login page that changed (the QR not found) is a site drift an operator needs to see, like a publish step.
      wrapped.diagnostic = (await captureDiagnostic(page, wrapped, wrapped.message)) ?? undefined;
      await this.pool.release(key);
      throw wrapped;
    }
  }

  private loginPage(state: string): Page {
    const { key } = JSON.parse(state) as { key: string };
    const page = this.pool.livePage(key);
    if (!page || page.isClosed()) throw new LoginGoneError('登录已失效，请重新获取二维码');
    return page;
  }

  async pollLogin(state: string): Promise<{ scanState: ScanState; qrImage?: string | null; error?: string }> {
    let page: Page;
    try {
      page = this.loginPage(state);
    } catch {
      return { scanState: 'expired' };
    }
    try {
      if (await this.isLoggedIn(page)) return { scanState: 'confirmed' };
      return { scanState: await this.readScanState(page) };
    } catch (err) {
      // A captcha after the scan needs a person; polling on would leave the creator waiting until the QR expires.
      if (err instanceof CaptchaError) return { scanState: 'failed', error: err.message };
      // A navigation under way (the site moving on after the scan) is not a failure.
      if (/navigat|Execution context was destroyed/i.test(String(err))) return { scanState: 'scanned' };
      // A slow page is not a failed login: report no change and let the caller poll again.
      if (/Timeout/i.test(String(err))) return { scanState: 'waiting' };
      throw this.wrap(err, '读取扫码状态失败');
    }
  }

  async completeLogin(state: string): Promise<{ session: SessionBlob; profile: AccountProfile }> {
    const page = this.loginPage(state);
    try {
      // After the phone confirms, the site is still redirecting (confirm -> finish -> creator page) for a moment,
      // longer on a busy machine: give it up to 15 s before calling the login unconfirmed.
      const deadline = Date.now() + 15_000;
      while (!(await this.isLoggedIn(page).catch(() => false))) {
        if (Date.now() > deadline) throw new PlatformError('尚未在手机上确认登录');
        await page.waitForLoadState('domcontentloaded', { timeout: 5_000 }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 250));
      }
      if (!(await this.openPublishPage(page))) throw new SessionExpiredError('登录未完成');
      const profile = await this.readProfile(page);
      // The storage state with the browser identity this login showed: the account presents the same one from now on.
      const session = await this.pool.sessionState(page.context());
      return { session, profile };
    } catch (err) {
      throw this.wrap(err, '读取登录信息失败');
    } finally {
      await this.cancelLogin(state);
    }
  }

  async cancelLogin(state: string): Promise<void> {
    try {
      await this.pool.release((JSON.parse(state) as { key: string }).key);
    } catch {
      // Nothing to free.
    }
  }

  // --- account --------------------------------------------------------------------------------
  /** `pool.withPage`, with failures outside the callback (context creation, a crash) typed too. */
  protected async withPage<T>(accountKey: string, session: SessionBlob, what: string, fn: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
    try {
      return await this.pool.withPage(`acct:${accountKey}`, session, fn);
    } catch (err) {
      throw this.wrap(err, what);
    }
  }

  async checkSession(accountKey: string, session: SessionBlob): Promise<AccountProfile> {
    return this.withPage(accountKey, session, '检查登录状态失败', async (page) => {
      try {
        if (!(await this.openPublishPage(page))) throw new SessionExpiredError('登录已失效，请重新扫码绑定');
        return await this.readProfile(page);
      } catch (err) {
        throw this.wrap(err, '检查登录状态失败');
      }
    });
  }

  async publish(accountKey: string, session: SessionBlob, content: PublishContent, opts: PublishOptions): Promise<PublishResult> {
    const images = await loadImages(content.images, opts.images);
    return this.withPage(accountKey, session, '发布失败', async (page, context) => {
      let evidence: Buffer | undefined;
      try {
        if (!(await this.openPublishPage(page))) throw new SessionExpiredError('登录已失效，请重新扫码绑定');
        const result = await this.fillAndSubmit(page, content, images, {
          ...opts,
          beforeSubmit: async () => {
            // What the page looked like just before submitting: kept in case the browser dies next. One pixel per CSS
            // pixel: an account's device may have a 2x screen, and four times the pixels cost every publish.
            evidence = await page.screenshot({ type: 'png', scale: 'css', timeout: 5000 }).catch(() => undefined);
            await opts.beforeSubmit();
          },
        });
        const after = await this.pool.sessionState(context);
        return after !== session ? { ...result, session: after } : result;
      } catch (err) {
        const wrapped = this.wrap(err, '发布失败');
        wrapped.screenshot = (await page.screenshot({ type: 'png', scale: 'css', timeout: 5000 }).catch(() => undefined)) ?? evidence;
        // A failure inside a named step leaves what an operator needs to fix it (console 平台健康).
        wrapped.diagnostic = (await captureDiagnostic(page, wrapped, wrapped.message)) ?? undefined;
        throw wrapped;
      }
    });
  }

  async findPublished(accountKey: string, session: SessionBlob, content: PublishContent, since: Date): Promise<PublishResult | null> {
    const notes = await this.notes(accountKey, session);
    const title = content.title.trim();
    // The site's clock and ours may differ a little.
    const hit = notes.find((n) => n.title === title && n.createdAt.getTime() >= since.getTime() - 60_000);
    return hit ? { status: hit.status, url: hit.url, noteId: hit.id } : null;
  }

  async publishStatus(accountKey: string, session: SessionBlob, noteId: string): Promise<PublishResult> {
    const hit = (await this.notes(accountKey, session)).find((n) => n.id === noteId);
    if (!hit) return { status: 'reviewing', url: null, noteId };
    return { status: hit.status, url: hit.url, noteId };
  }

  private notes(accountKey: string, session: SessionBlob): Promise<SiteNote[]> {
    return this.withPage(accountKey, session, '读取笔记列表失败', async (page) => {
      try {
        return await this.listNotes(page);
      } catch (err) {
        throw this.wrap(err, '读取笔记列表失败');
      }
    });
  }

  async stats(accountKey: string, session: SessionBlob): Promise<{ followerCount: number; noteCount: number }> {
    const p = await this.checkSession(accountKey, session);
    return { followerCount: p.followerCount ?? 0, noteCount: p.noteCount ?? 0 };
  }

  releaseAccount(accountKey: string): Promise<boolean> {
    return this.pool.release(`acct:${accountKey}`);
  }

  unreadCounts(_accountKey: string, session: SessionBlob): Promise<UnreadCounts> {
    return this.fetchUnread(null, session);
  }

  comments(_accountKey: string, session: SessionBlob): Promise<PlatformComment[]> {
    return this.fetchComments(null, session);
  }

  searchTopics(_accountKey: string, session: SessionBlob, keyword: string): Promise<string[]> {
    return this.fetchTopics(null, session, keyword);
  }

  /** Playwright timeouts and crashes become typed, retryable errors; typed errors pass through. */
  protected wrap(err: unknown, what: string): PlatformError {
    const wrapped = this.typed(err, what);
    const step = stepOfError(err);
    if (step && !stepOfError(wrapped)) Object.assign(wrapped, { siteStep: step.key });
    return wrapped;
  }

  private typed(err: unknown, what: string): PlatformError {
    if (err instanceof PlatformError) return err;
    if (err instanceof BrowserCrashedError) return Object.assign(new TransientPlatformError(`${what}：浏览器异常退出`), { cause: err });
    const msg = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    if (/Timeout|timed out/i.test(msg)) return Object.assign(new TransientPlatformError(`${what}：页面响应超时`), { cause: err });
    if (/closed|disconnected|crash/i.test(msg)) return Object.assign(new TransientPlatformError(`${what}：浏览器异常退出`), { cause: err });
    if (/net::|ECONNREFUSED|fetch failed/i.test(msg)) return Object.assign(new TransientPlatformError(`${what}：网络异常`), { cause: err });
    return Object.assign(new TransientPlatformError(`${what}：${msg}`), { cause: err });
  }
}

/** `name=value; ...` for the cookies of a storage state that apply to `url`. */
export function cookieHeader(session: SessionBlob, url: string): string {
  const u = new URL(url);
  const state = JSON.parse(session) as { cookies?: Array<{ name: string; value: string; domain: string; path: string }> };
  return (state.cookies ?? [])
    .filter((c) => {
      const d = c.domain.replace(/^\./, '');
      return (u.hostname === d || u.hostname.endsWith(`.${d}`)) && u.pathname.startsWith(c.path || '/');
    })
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');
}
