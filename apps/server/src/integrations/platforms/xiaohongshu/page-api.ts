import type { Page } from 'playwright-core';
import type { SiteNote } from '../creator-site.js';
import { CaptchaError, PlatformError, RateLimitedError, SessionExpiredError, TransientPlatformError, type PublishResult } from '../types.js';
import { xhsNoteUrl } from './selectors.js';

interface ApiReply<T> {
  code?: number;
  success?: boolean;
  msg?: string;
  data?: T;
}

const EXPIRED = '小红书登录已失效，请重新扫码绑定';

/**
 * The site's web API, called from inside a creator page. Every creator and edith call carries X-s / X-t signatures that
 * the page computes with its own signer (`window._webmsxyw(path, body)`, what ReaJason/xhs and MediaCrawler call too);
 * a plain fetch goes out unsigned and marks the session as a robot. So a call is signed by the page's signer or not
 * sent at all. Replies the page itself fetched while loading (its header's personal_info) are read, not asked again.
 */
export class XhsPageApi {
  /** What each page fetched by itself, by path: read instead of calling again. */
  private readonly seen = new WeakMap<Page, Map<string, unknown>>();

  /** Starts recording the page's own API replies; call before navigating. */
  watch(page: Page): void {
    if (this.seen.has(page)) return;
    const log = new Map<string, unknown>();
    this.seen.set(page, log);
    // Only what the page fetched since it last loaded: an account's page is reused, and older replies are stale.
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) log.clear();
    });
    page.on('response', (res) => {
      const u = new URL(res.url());
      if (!/^\/(api|web_api)\//.test(u.pathname) || res.request().method() !== 'GET' || res.status() !== 200) return;
      void res
        .json()
        .then((body: unknown) => log.set(u.pathname, body))
        .catch(() => undefined);
    });
  }

  /** A reply the page received by itself, when it succeeded. */
  private fromPage<T>(page: Page, url: string): T | null {
    const body = this.seen.get(page)?.get(new URL(url).pathname) as ApiReply<T> | undefined;
    return body && body.code === 0 && body.success !== false && body.data !== undefined ? body.data : null;
  }

  async get<T>(page: Page, url: string, opts: { reuse?: boolean } = {}): Promise<T> {
    if (opts.reuse) {
      const known = this.fromPage<T>(page, url);
      if (known) return known;
    }
    return this.call<T>(page, 'GET', url);
  }

  post<T>(page: Page, url: string, body: unknown): Promise<T> {
    return this.call<T>(page, 'POST', url, body);
  }

  private async call<T>(page: Page, method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
    const r = await page.evaluate(
      async ({ url, method, body }) => {
        const signer = (window as unknown as { _webmsxyw?: (path: string, data?: unknown) => Record<string, unknown> })._webmsxyw;
        if (typeof signer !== 'function') return { unsigned: true as const, status: 0, body: null };
        const u = new URL(url, location.href);
        const sig = signer(u.pathname + u.search, body);
        const headers: Record<string, string> = { 'X-s': String(sig['X-s'] ?? ''), 'X-t': String(sig['X-t'] ?? '') };
        if (sig['X-S-Common'] !== undefined) headers['X-S-Common'] = String(sig['X-S-Common']);
        if (body !== undefined) headers['content-type'] = 'application/json;charset=UTF-8';
        const res = await fetch(u.href, { method, credentials: 'include', headers, body: body === undefined ? undefined : JSON.stringify(body) });
        return { unsigned: false as const, status: res.status, body: (await res.json().catch(() => null)) as unknown };
      },
      { url, method, body },
    );
    if (r.unsigned) throw new PlatformError('小红书页面没有提供请求签名（页面可能已改版），为保护账号已停止调用接口');
    return XhsPageApi.typed<T>(r.status, r.body as ApiReply<T> | null, url);
  }

  /** The site's replies as typed failures: logged out, captcha, risk control and throttling are different things. */
  static typed<T>(status: number, body: ApiReply<T> | null, url: string): T {
    const code = body?.code;
    if (status === 461 || status === 471) throw new CaptchaError('小红书要求安全验证，请在小红书App或网页完成验证后重新扫码');
    // -101 is the creator client's "logged out"; -100 the www site's.
    if (status === 401 || code === -101 || code === -100) throw new SessionExpiredError(EXPIRED);
    if (code === 300012) throw new RateLimitedError('小红书风控：当前网络环境异常（300012），请稍后再试');
    if (code === 300011) throw new RateLimitedError('小红书风控：账号操作受限（300011），请暂停发布，稍后再试');
    if (code === 300015) throw new TransientPlatformError('小红书请求签名校验失败（300015）');
    if (status === 429 || code === 300013) throw new RateLimitedError('小红书访问频次过高，请稍后再试');
    if (status === 404) throw new TransientPlatformError(`小红书接口不存在：${new URL(url).pathname}`);
    if (status >= 400 || !body || body.success === false || (code !== undefined && code !== 0)) {
      throw new TransientPlatformError(`小红书接口返回 ${status} ${body?.msg ?? ''}`.trim());
    }
    return body.data as T;
  }
}

/** A posted note as the note manager lists it (v2 since 2026; v1 had the same fields without tab_status). */
export interface PostedNote {
  id: string;
  display_title: string;
  /** China-local "YYYY-MM-DD HH:mm" (v2), or epoch ms (older replies). */
  time: string | number;
  tab_status?: number;
  schedule_post_time?: number | null;
}

/** tab_status: 1 published, 2 in review (审核中), 3 not approved (未通过), 4 scheduled. */
const TAB_STATUS: Record<number, PublishResult['status']> = { 1: 'published', 2: 'reviewing', 3: 'rejected', 4: 'scheduled' };

/** The site shows China time without a zone: parsed as UTC+8 whatever the server's own zone is. */
export function chinaLocalTime(t: string | number): Date {
  if (typeof t === 'number') return new Date(t);
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(t.trim());
  if (m) return new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}+08:00`);
  const parsed = Date.parse(t);
  return new Date(Number.isFinite(parsed) ? parsed : 0);
}

export function toSiteNote(n: PostedNote): SiteNote {
  const status = n.tab_status !== undefined && TAB_STATUS[n.tab_status] ? TAB_STATUS[n.tab_status]! : n.schedule_post_time ? 'scheduled' : 'published';
  return { id: n.id, title: n.display_title, url: `${xhsNoteUrl}${n.id}`, createdAt: chinaLocalTime(n.time), status };
}
