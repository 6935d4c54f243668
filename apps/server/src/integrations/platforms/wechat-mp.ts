import { createHash } from 'node:crypto';
import { loadImages, type ImageFile } from './images.js';
import { addDays, dayOf } from './sandbox-metrics.js';
import {
  ContentRejectedError,
  PlatformError,
  RateLimitedError,
  SessionExpiredError,
  TransientPlatformError,
  htmlToText,
  type AccountProfile,
  type LoginStart,
  type PlatformAdapter,
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

export interface WechatMpPublisherOptions {
  apiBase: string;
  /** freepublish/get polling: interval and how many times before answering 'reviewing'. */
  pollIntervalMs?: number;
  pollTimes?: number;
  now?: () => number;
}

interface Credentials {
  appId: string;
  appSecret: string;
}

const REQUEST_TIMEOUT_MS = 15_000;
const REFRESH_MARGIN_MS = 300_000;
const STALE_TOKEN = new Set([40001, 42001, 40014]);
/** Wrong AppID / AppSecret, or the secret was reset: the binding is no longer valid. */
const BAD_CREDENTIALS = new Set([40013, 40125, 40164, 41004, 61024]);
const RATE_LIMITED = new Set([45009, 45011, 45047, -1]);
/** datacube's longest span per call: user figures 7 days, article figures 1 day; article totals cover 7 days after sending. */
const USER_SPAN_DAYS = 7;
const ARTICLE_DAYS = 7;

interface ArticleFigures {
  int_page_read_count: number;
  add_to_fav_count: number;
  share_count: number;
}

/** `from`..`to` cut into inclusive spans of at most `max` days. */
function spans(from: string, to: string, max: number): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let b = from; b <= to; b = addDays(b, max)) {
    const e = addDays(b, max - 1);
    out.push([b, e < to ? e : to]);
  }
  return out;
}

/** freepublish/get publish_status → what went wrong. */
const PUBLISH_FAILURES: Record<number, string> = { 2: '原创校验未通过', 3: '发布失败', 4: '审核未通过', 5: '已被删除', 6: '文章已被封禁' };

class WechatError extends Error {
  constructor(
    message: string,
    readonly errcode?: number,
  ) {
    super(message);
  }
}

/**
 * WeChat Official Account publishing through the official API: the user binds with the account's
 * AppID and AppSecret (kept encrypted as the "session"); publishing uploads the cover
 * (add_material) and in-article images (uploadimg), adds a draft, submits it with freepublish and
 * polls freepublish/get for the article link. The server's IP must be whitelisted (errcode 40164).
 */
export class WechatMpPublisher implements PlatformAdapter {
  readonly id = 'wechat_mp' as const;
  readonly label = '微信公众号';
  readonly sandbox = false;
  /** The official API: AppID and AppSecret, no scan. */
  readonly login = 'credentials' as const;
  /** Official Accounts have no image notes: a 图文 note goes out as an article with its cards inline. */
  readonly imageNotes = 'inline' as const;
  readonly limits: PlatformLimits = {
    titleMax: 32,
    titleRequired: true,
    bodyMax: 20_000,
    imagesMin: 1,
    imagesMax: 20,
    topicsMax: 10,
    schedule: { mode: 'queue', minAheadMs: 0, maxAheadMs: 30 * 24 * 3600_000 },
  };

  private readonly apiBase: string;
  private readonly now: () => number;
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();
  private readonly inflight = new Map<string, Promise<string>>();

  constructor(private readonly opts: WechatMpPublisherOptions) {
    this.apiBase = opts.apiBase.replace(/\/+$/, '');
    this.now = opts.now ?? Date.now;
  }

  // --- binding: no QR, the credentials are checked by fetching a token ---
  async startLogin(_ownerKey: string, input: Record<string, unknown>): Promise<LoginStart> {
    const appId = typeof input.appId === 'string' ? input.appId.trim() : '';
    const appSecret = typeof input.appSecret === 'string' ? input.appSecret.trim() : '';
    if (!appId || !appSecret) throw new ContentRejectedError('请填写公众号的 AppID 和 AppSecret');
    await this.call({ appId, appSecret }, async () => undefined);
    return { state: JSON.stringify({ appId, appSecret }), qrImage: null, expiresInMs: 10 * 60_000 };
  }

  async pollLogin(): Promise<{ scanState: ScanState }> {
    return { scanState: 'confirmed' };
  }

  async completeLogin(state: string): Promise<{ session: SessionBlob; profile: AccountProfile }> {
    const creds = JSON.parse(state) as Credentials;
    const stats = await this.stats('', state);
    return { session: JSON.stringify(creds), profile: { platformUserId: creds.appId, accountName: `公众号 ${creds.appId}`, avatar: null, ...stats } };
  }

  async cancelLogin(): Promise<void> {}

  async checkSession(_accountKey: string, session: SessionBlob): Promise<AccountProfile> {
    const creds = JSON.parse(session) as Credentials;
    const stats = await this.stats('', session);
    return { platformUserId: creds.appId, accountName: `公众号 ${creds.appId}`, avatar: null, ...stats };
  }

  // --- publishing ---
  async publish(_accountKey: string, session: SessionBlob, content: PublishContent, opts: PublishOptions): Promise<PublishResult> {
    const creds = JSON.parse(session) as Credentials;
    const images = await loadImages(content.images, opts.images);
    for (const img of images) if (img.buffer.length > 10 * 1024 * 1024) throw new ContentRejectedError(`图片 ${img.name} 超过10MB`);
    const [cover, ...inline] = images;
    const thumb = await this.call(creds, (t) => this.upload<{ media_id: string; url: string }>(t, `/cgi-bin/material/add_material?type=image`, cover!));
    const urls: string[] = [];
    for (const img of inline) {
      if (img.buffer.length > 1024 * 1024) throw new ContentRejectedError(`正文图片 ${img.name} 超过1MB`);
      urls.push((await this.call(creds, (t) => this.upload<{ url: string }>(t, '/cgi-bin/media/uploadimg', img))).url);
    }
    // An image note becomes an article with every card inline, the cover card too (it is also the thumbnail).
    if (content.kind === 'image' && cover) urls.unshift((await this.call(creds, (t) => this.upload<{ url: string }>(t, '/cgi-bin/media/uploadimg', cover))).url);
    const html = this.articleHtml(content, urls);
    const draft = await this.call(creds, (t) =>
      this.post<{ media_id: string }>(t, '/cgi-bin/draft/add', {
        articles: [
          {
            title: content.title,
            author: '',
            digest: htmlToText(content.body).slice(0, 120),
            content: html,
            content_source_url: '',
            thumb_media_id: thumb.media_id,
            need_open_comment: 1,
            only_fans_can_comment: 0,
          },
        ],
      }),
    );
    await opts.beforeSubmit();
    const submitted = await this.call(creds, (t) => this.post<{ publish_id: string | number }>(t, '/cgi-bin/freepublish/submit', { media_id: draft.media_id }));
    return this.waitForPublish(creds, `publish:${String(submitted.publish_id)}`);
  }

  private articleHtml(content: PublishContent, urls: string[]): string {
    // Scripts are stripped by WeChat anyway; external images would be dropped, so only uploaded ones go in.
    let body = content.body.replace(/<script[\s\S]*?<\/script>/gi, '').replace(/<img[^>]*>/gi, '');
    if (!/<[a-z][\s\S]*>/i.test(body))
      body = body
        .split(/\n+/)
        .map((p) => `<p>${p.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`)
        .join('');
    const imgs = urls.map((u) => `<p><img src="${u}"></p>`).join('');
    const topics = content.topics.length ? `<p>${content.topics.map((t) => `#${t}`).join(' ')}</p>` : '';
    const html = `${body}${imgs}${topics}`;
    if (html.length >= 20_000) throw new ContentRejectedError('正文超过公众号限制（2万字符）');
    return html;
  }

  private async waitForPublish(creds: Credentials, noteId: string): Promise<PublishResult> {
    const times = this.opts.pollTimes ?? 15;
    for (let i = 0; i < times; i++) {
      const r = await this.publishStatus('', JSON.stringify(creds), noteId);
      if (r.status !== 'reviewing') return r;
      await new Promise((res) => setTimeout(res, this.opts.pollIntervalMs ?? 2000));
    }
    return { status: 'reviewing', url: null, noteId };
  }

  async publishStatus(_accountKey: string, session: SessionBlob, noteId: string): Promise<PublishResult> {
    const creds = JSON.parse(session) as Credentials;
    // noteId is `publish:<publish_id>` while WeChat is still publishing, then the article_id.
    if (!noteId.startsWith('publish:')) {
      const a = await this.call(creds, (t) =>
        this.post<{ news_item?: Array<{ url?: string; is_deleted?: boolean }> }>(t, '/cgi-bin/freepublish/getarticle', { article_id: noteId }),
      );
      const item = a.news_item?.[0];
      if (!item || item.is_deleted) throw new ContentRejectedError('文章已被删除');
      return { status: 'published', url: item.url ?? null, noteId };
    }
    const publishId = noteId.slice('publish:'.length);
    const r = await this.call(creds, (t) =>
      this.post<{ publish_status: number; article_id?: string; article_detail?: { item?: Array<{ article_url?: string }> }; fail_idx?: number[] }>(t, '/cgi-bin/freepublish/get', {
        publish_id: publishId,
      }),
    );
    if (r.publish_status === 0) return { status: 'published', url: r.article_detail?.item?.[0]?.article_url ?? null, noteId: r.article_id ?? noteId };
    if (r.publish_status === 1) return { status: 'reviewing', url: null, noteId };
    throw new ContentRejectedError(PUBLISH_FAILURES[r.publish_status] ?? `发布失败（状态 ${r.publish_status}）`);
  }

  /** The published list (freepublish/batchget), newest first, matched by title and time. */
  async findPublished(_accountKey: string, session: SessionBlob, content: PublishContent, since: Date): Promise<PublishResult | null> {
    const creds = JSON.parse(session) as Credentials;
    const r = await this.call(creds, (t) =>
      this.post<{ item?: Array<{ article_id: string; update_time: number; content?: { news_item?: Array<{ title: string; url: string }> } }> }>(
        t,
        '/cgi-bin/freepublish/batchget',
        {
          offset: 0,
          count: 20,
          no_content: 1,
        },
      ),
    );
    for (const item of r.item ?? []) {
      if (item.update_time * 1000 < since.getTime() - 60_000) continue;
      const news = item.content?.news_item?.find((n) => n.title === content.title.trim());
      if (news) return { status: 'published', url: news.url, noteId: item.article_id };
    }
    return null;
  }

  async stats(_accountKey: string, session: SessionBlob): Promise<{ followerCount: number; noteCount: number }> {
    const creds = JSON.parse(session) as Credentials;
    const users = await this.call(creds, (t) => this.get<{ total?: number }>(t, '/cgi-bin/user/get'));
    const published = await this.call(creds, (t) => this.post<{ total_count?: number }>(t, '/cgi-bin/freepublish/batchget', { offset: 0, count: 1, no_content: 1 }));
    return { followerCount: users.total ?? 0, noteCount: published.total_count ?? 0 };
  }

  // --- data (数据统计): the datacube API ---
  /**
   * Daily account figures and per-article totals from datacube. Its figures lag a day (yesterday is the newest day it
   * answers), and each endpoint takes a limited span (user figures 7 days, article figures 1 day), so the range is cut
   * into calls of at most that. followers = cumulate_user; newFollowers = new_user - cancel_user over every source
   * (the net change, as the other platforms report it); views, collects and shares are the day's 图文页 reads,
   * favourites and shares (getarticlesummary). Datacube has no likes or comments: those are 0. Notes come from
   * getarticletotal (cumulative details for the 7 days after each send), so the days asked reach 6 days back for the
   * articles still growing; after those 7 days an article keeps its last totals.
   */
  async metrics(_accountKey: string, session: SessionBlob, range: { from: string; to: string }): Promise<PlatformMetrics> {
    const creds = JSON.parse(session) as Credentials;
    const lastDay = addDays(dayOf(this.now()), -1);
    const to = range.to < lastDay ? range.to : lastDay;
    if (range.from > to) return { lastDay, days: [], notes: [] };
    const cube = <T>(path: string, begin: string, end: string) =>
      this.call(creds, (t) => this.post<{ list?: T[] }>(t, path, { begin_date: begin, end_date: end })).then((r) => r.list ?? []);

    const summary = new Map<string, { newUser: number; cancelUser: number }>();
    const cumulate = new Map<string, number>();
    for (const [begin, end] of spans(range.from, to, USER_SPAN_DAYS)) {
      for (const r of await cube<{ ref_date: string; new_user: number; cancel_user: number }>('/datacube/getusersummary', begin, end)) {
        const x = summary.get(r.ref_date) ?? { newUser: 0, cancelUser: 0 };
        x.newUser += r.new_user;
        x.cancelUser += r.cancel_user;
        summary.set(r.ref_date, x);
      }
      for (const r of await cube<{ ref_date: string; cumulate_user: number }>('/datacube/getusercumulate', begin, end)) cumulate.set(r.ref_date, r.cumulate_user);
    }

    const days: PlatformMetrics['days'] = [];
    for (let d = range.from; d <= to; d = addDays(d, 1)) {
      const reads = await cube<ArticleFigures & { msgid: string }>('/datacube/getarticlesummary', d, d);
      const s = summary.get(d) ?? { newUser: 0, cancelUser: 0 };
      days.push({
        day: d,
        followers: cumulate.get(d) ?? 0,
        newFollowers: s.newUser - s.cancelUser,
        views: reads.reduce((n, r) => n + r.int_page_read_count, 0),
        likes: 0,
        collects: reads.reduce((n, r) => n + r.add_to_fav_count, 0),
        comments: 0,
        shares: reads.reduce((n, r) => n + r.share_count, 0),
      });
    }

    const notes: PlatformMetrics['notes'] = [];
    const firstSend = addDays(range.from, -(ARTICLE_DAYS - 1));
    for (let sent = firstSend; sent <= to; sent = addDays(sent, 1)) {
      for (const a of await cube<{ ref_date: string; msgid: string; title: string; details?: Array<ArticleFigures & { stat_date: string }> }>(
        '/datacube/getarticletotal',
        sent,
        sent,
      )) {
        const details = (a.details ?? []).slice().sort((x, y) => (x.stat_date < y.stat_date ? -1 : 1));
        if (!details.length) continue;
        for (let d = sent > range.from ? sent : range.from; d <= to; d = addDays(d, 1)) {
          const at = details.findLast((x) => x.stat_date <= d);
          if (!at) continue;
          notes.push({
            day: d,
            noteId: a.msgid,
            title: a.title,
            url: null,
            // datacube gives the send day only; noon of it stands in for the hour (WeChat sends are not timed here).
            publishedAt: new Date(Date.parse(`${a.ref_date}T12:00:00+08:00`)),
            views: at.int_page_read_count,
            likes: 0,
            collects: at.add_to_fav_count,
            comments: 0,
            shares: at.share_count,
          });
        }
      }
    }
    return { lastDay, days, notes };
  }

  /** The official API exposes no unread / mention counter for a web session; comments need per-article calls (not offered yet). */
  async unreadCounts(): Promise<UnreadCounts> {
    return { unread_count: 0, likes: 0, connections: 0, mentions: 0 };
  }
  async comments(): Promise<PlatformComment[]> {
    return [];
  }
  async searchTopics(): Promise<string[]> {
    return [];
  }

  // --- protocol ---
  /** Runs `fn` with a token; a stale token is replaced (force_refresh) once; WeChat errors become typed ones. */
  private async call<T>(creds: Credentials, fn: (token: string) => Promise<T>): Promise<T> {
    try {
      const token = await this.token(creds, false);
      try {
        return await fn(token);
      } catch (err) {
        if (!(err instanceof WechatError) || err.errcode === undefined || !STALE_TOKEN.has(err.errcode)) throw err;
        if (this.tokens.get(this.cacheKey(creds))?.token === token) this.tokens.delete(this.cacheKey(creds));
        return await fn(await this.token(creds, true));
      }
    } catch (err) {
      throw this.typed(err);
    }
  }

  private typed(err: unknown): PlatformError {
    if (err instanceof PlatformError) return err;
    if (!(err instanceof WechatError)) return new TransientPlatformError(`公众号接口请求失败：${err instanceof Error ? err.message : String(err)}`);
    const code = err.errcode;
    if (code === 40164) return new ContentRejectedError('服务器IP未加入公众号的IP白名单（40164），请在公众号后台添加后重试');
    if (code !== undefined && BAD_CREDENTIALS.has(code)) return new SessionExpiredError('AppID 或 AppSecret 无效，请重新绑定');
    if (code !== undefined && RATE_LIMITED.has(code)) return new RateLimitedError('公众号接口调用过于频繁，请稍后再试');
    if (code !== undefined && code >= 40000 && code < 50000) return new ContentRejectedError(`公众号拒绝了请求：${err.message}`);
    return new TransientPlatformError(`公众号接口暂时不可用：${err.message}`);
  }

  /** Tokens are cached per AppID and secret: a reset secret never rides on an old token. */
  private cacheKey(creds: Credentials) {
    return `${creds.appId}:${createHash('sha256').update(creds.appSecret).digest('hex').slice(0, 16)}`;
  }

  private async token(creds: Credentials, force: boolean): Promise<string> {
    const cacheKey = this.cacheKey(creds);
    const cached = this.tokens.get(cacheKey);
    if (!force && cached && cached.expiresAt - this.now() > REFRESH_MARGIN_MS) return cached.token;
    const key = `${cacheKey}:${force}`;
    let flight = this.inflight.get(key);
    if (!flight) {
      flight = (async () => {
        const body = await this.request<{ access_token?: string; expires_in?: number }>('POST', '/cgi-bin/stable_token', {
          json: { grant_type: 'client_credential', appid: creds.appId, secret: creds.appSecret, force_refresh: force },
        });
        if (!body.access_token || !body.expires_in) throw new WechatError('stable_token returned no access_token');
        this.tokens.set(cacheKey, { token: body.access_token, expiresAt: this.now() + body.expires_in * 1000 });
        return body.access_token;
      })().finally(() => this.inflight.delete(key));
      this.inflight.set(key, flight);
    }
    return flight;
  }

  private post<T>(token: string, path: string, json: unknown) {
    return this.request<T>('POST', `${path}${path.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`, { json });
  }
  private get<T>(token: string, path: string) {
    return this.request<T>('GET', `${path}${path.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`, {});
  }
  private upload<T>(token: string, path: string, file: ImageFile) {
    const form = new FormData();
    form.append('media', new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name);
    return this.request<T>('POST', `${path}${path.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`, { form });
  }

  private async request<T>(method: string, path: string, body: { json?: unknown; form?: FormData }): Promise<T> {
    const endpoint = path.split('?')[0];
    let res: Response;
    try {
      res = await fetch(`${this.apiBase}${path}`, {
        method,
        headers: body.json !== undefined ? { 'content-type': 'application/json' } : undefined,
        body: body.json !== undefined ? JSON.stringify(body.json) : body.form,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      // The URL carries the token: keep it out of messages.
      throw new TransientPlatformError(`${endpoint} 请求失败：${err instanceof Error ? err.message : String(err)}`);
    }
    if (!res.ok) throw new TransientPlatformError(`${endpoint} 返回 HTTP ${res.status}`);
    const json = (await res.json().catch(() => null)) as (T & { errcode?: number; errmsg?: string }) | null;
    if (!json || typeof json !== 'object') throw new TransientPlatformError(`${endpoint} 返回了无效的 JSON`);
    if (json.errcode !== undefined && json.errcode !== 0) throw new WechatError(`${endpoint}: ${json.errcode} ${json.errmsg ?? ''}`.trim(), json.errcode);
    return json;
  }
}
