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

/** The session blob: the credentials and what binding learnt about the account. */
interface Credentials {
  appId: string;
  appSecret: string;
  /**
   * Whether WeChat lets the account publish through the API (freepublish). Since July 2025 personal-subject,
   * unverified and un-verifiable accounts get 48001 there and can only add drafts. Absent in blobs bound before that
   * was known: found out on first use.
   */
  canPublish?: boolean;
}

const UNAUTHORIZED = 48001;
/** uploadimg: "jpg/png, 大小必须在1MB以下"; kept under 10^6 bytes so it holds whichever megabyte WeChat counts. */
const INLINE_MAX_BYTES = 1_000_000;
/** add_material type=image: bmp/png/jpeg/jpg/gif up to 10 MB. */
const MATERIAL_MAX_BYTES = 10 * 1024 * 1024;
const MATERIAL_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp']);
/** Decoding bombs: a small file claiming a huge canvas is refused before its pixels are allocated. */
const MAX_PIXELS = 80_000_000;
/** newspic (贴图): at most 20 images, the first is the cover. */
const NEWSPIC_MAX_IMAGES = 20;
/** Re-encoding steps, gentlest first: quality at full size, then smaller (each ~3/4 of the last edge). */
const JPEG_STEPS: ReadonlyArray<readonly [scale: number, quality: number]> = [
  [1, 85],
  [1, 72],
  [1, 60],
  [0.75, 70],
  [0.56, 70],
  [0.42, 70],
  [0.32, 70],
  [0.24, 70],
  [0.18, 70],
];
/** Where a 48001 is answered, in the user's words. */
const API_NAMES: Array<[prefix: string, name: string]> = [
  ['/cgi-bin/freepublish/', '发布'],
  ['/cgi-bin/user/', '用户列表'],
  ['/datacube/', '数据统计'],
];

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
    readonly endpoint?: string,
  ) {
    super(message);
  }
}

/** 48001 "api unauthorized": the account may not call this endpoint (personal subject or not verified). Not retried. */
export class ApiUnauthorizedError extends ContentRejectedError {
  constructor(readonly endpoint: string) {
    const name = API_NAMES.find(([prefix]) => endpoint.startsWith(prefix))?.[1];
    super(`公众号未开放${name ?? '该'}接口权限（48001：个人主体或未认证账号）`);
  }
}

/** Any other 4xxxx refusal, keeping WeChat's errcode for the callers that tell them apart. */
class WechatRejectedError extends ContentRejectedError {
  constructor(
    message: string,
    readonly errcode: number,
  ) {
    super(message);
  }
}

const parseSession = (blob: SessionBlob): Credentials => JSON.parse(blob) as Credentials;
const sessionOf = (creds: Credentials, canPublish: boolean): SessionBlob => JSON.stringify({ appId: creds.appId, appSecret: creds.appSecret, canPublish } satisfies Credentials);

/** sharp (libvips) is loaded with the first image that needs re-encoding, not at start-up. */
const loadSharp = () => import('sharp').then((m) => m.default);

/** `which` as the user reads it: 第N张图片. */
const which = (index: number) => `第${index + 1}张图片`;

/**
 * The image as a JPEG under `maxBytes`: transparency flattened on white, the first frame of an animation, quality
 * lowered and then the size reduced in bounded steps until it fits.
 */
async function toJpegUnder(img: ImageFile, index: number, maxBytes: number): Promise<ImageFile> {
  const sharp = await loadSharp();
  const open = () => sharp(img.buffer, { limitInputPixels: MAX_PIXELS, animated: false }).rotate();
  let edge: number;
  try {
    const meta = await open().metadata();
    if (!meta.width || !meta.height) throw new Error('no size');
    edge = Math.max(meta.width, meta.height);
  } catch {
    throw new ContentRejectedError(`${which(index)}无法识别或像素过大，请换一张jpg或png图片`);
  }
  for (const [scale, quality] of JPEG_STEPS) {
    const side = Math.max(1, Math.round(edge * scale));
    const pipeline = scale < 1 ? open().resize({ width: side, height: side, fit: 'inside' }) : open();
    const buffer = await pipeline.flatten({ background: '#ffffff' }).jpeg({ quality }).toBuffer();
    if (buffer.length < maxBytes) return { name: `${img.name.replace(/\.[^.]*$/, '')}.jpg`, mimeType: 'image/jpeg', buffer };
  }
  throw new ContentRejectedError(`${which(index)}压缩后仍超过公众号的大小限制，请换一张较小的图片`);
}

/** What media/uploadimg takes: jpg or png under 1 MB as is; anything else (webp, gif, larger) re-encoded to JPEG. */
function forUploadimg(img: ImageFile, index: number): Promise<ImageFile> {
  if ((img.mimeType === 'image/jpeg' || img.mimeType === 'image/png') && img.buffer.length < INLINE_MAX_BYTES) return Promise.resolve(img);
  return toJpegUnder(img, index, INLINE_MAX_BYTES);
}

/** What material/add_material type=image takes: bmp/png/jpeg/gif up to 10 MB as is; webp (or larger) re-encoded to JPEG. */
function forMaterial(img: ImageFile, index: number): Promise<ImageFile> {
  if (MATERIAL_TYPES.has(img.mimeType) && img.buffer.length <= MATERIAL_MAX_BYTES) return Promise.resolve(img);
  return toJpegUnder(img, index, MATERIAL_MAX_BYTES);
}

/**
 * WeChat Official Account publishing through the official API: the user binds with the account's
 * AppID and AppSecret (kept encrypted as the "session"); publishing uploads the cover
 * (add_material) and in-article images (uploadimg), adds a draft, submits it with freepublish and
 * polls freepublish/get for the article link. The server's IP must be whitelisted (errcode 40164).
 *
 * Since July 2025 WeChat refuses freepublish (and the follower list) to personal-subject, unverified and
 * un-verifiable accounts with 48001. Binding finds out which kind the account is (`canPublish` in the session);
 * for those accounts publishing saves the draft and says so (status 'draft'): the owner publishes it from the
 * draft box at mp.weixin.qq.com.
 */
export class WechatMpPublisher implements PlatformAdapter {
  readonly id = 'wechat_mp' as const;
  readonly label = '微信公众号';
  readonly sandbox = false;
  /** The official API: AppID and AppSecret, no scan. */
  readonly login = 'credentials' as const;
  /** A 图文 note goes out as WeChat's own image post (贴图, draft article_type newspic): its images in order, plain text. */
  readonly imageNotes = 'native' as const;
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
    const creds = parseSession(state);
    const found = await this.capabilities({ appId: creds.appId, appSecret: creds.appSecret });
    return { session: sessionOf(creds, found.canPublish), profile: this.profile(creds, found) };
  }

  async cancelLogin(): Promise<void> {}

  async checkSession(_accountKey: string, session: SessionBlob): Promise<AccountProfile> {
    const creds = parseSession(session);
    return this.profile(creds, await this.capabilities(creds));
  }

  /** An unknown follower count is left out, so the one stored is kept. */
  private profile(creds: Credentials, found: { followerCount: number | null; noteCount: number }): AccountProfile {
    return {
      platformUserId: creds.appId,
      accountName: `公众号 ${creds.appId}`,
      avatar: null,
      ...(found.followerCount !== null ? { followerCount: found.followerCount } : {}),
      noteCount: found.noteCount,
    };
  }

  /**
   * What the account may do, found by asking: freepublish/batchget answering 48001 means drafts only (its note count
   * is then the draft box's); user/get answering 48001 means the follower count is unknown (null), not a failure.
   * An account already known to be draft-only is not asked about freepublish again.
   */
  private async capabilities(creds: Credentials): Promise<{ canPublish: boolean; followerCount: number | null; noteCount: number }> {
    const followerCount = await this.call(creds, (t) => this.get<{ total?: number }>(t, '/cgi-bin/user/get')).then(
      (r) => r.total ?? 0,
      (err: unknown) => {
        if (err instanceof ApiUnauthorizedError) return null;
        throw err;
      },
    );
    if (creds.canPublish !== false) {
      try {
        const published = await this.call(creds, (t) => this.post<{ total_count?: number }>(t, '/cgi-bin/freepublish/batchget', { offset: 0, count: 1, no_content: 1 }));
        return { canPublish: true, followerCount, noteCount: published.total_count ?? 0 };
      } catch (err) {
        if (!(err instanceof ApiUnauthorizedError)) throw err;
      }
    }
    const drafts = await this.call(creds, (t) => this.get<{ total_count?: number }>(t, '/cgi-bin/draft/count'));
    return { canPublish: false, followerCount, noteCount: drafts.total_count ?? 0 };
  }

  // --- publishing ---
  /**
   * An article goes out as a news draft (cover via add_material, body images via uploadimg), an image note as a
   * newspic draft (every image a permanent material). A verified account then submits it (freepublish); a draft-only
   * one, or one whose submit answers 48001, ends with the saved draft: status 'draft', its media_id as noteId.
   */
  async publish(_accountKey: string, session: SessionBlob, content: PublishContent, opts: PublishOptions): Promise<PublishResult> {
    const creds = parseSession(session);
    const images = await loadImages(content.images, opts.images);
    const article = content.kind === 'image' ? await this.imagePost(creds, content, images) : await this.newsArticle(creds, content, images);
    const addDraft = () => this.call(creds, (t) => this.post<{ media_id: string }>(t, '/cgi-bin/draft/add', { articles: [article] }));
    if (creds.canPublish === false) {
      // The draft is the last step here: a retry after it looks in the draft box instead of adding a second one.
      await opts.beforeSubmit();
      const draft = await addDraft();
      return { status: 'draft', url: null, noteId: draft.media_id };
    }
    const draft = await addDraft();
    await opts.beforeSubmit();
    let submitted: { publish_id: string | number };
    try {
      submitted = await this.call(creds, (t) => this.post<{ publish_id: string | number }>(t, '/cgi-bin/freepublish/submit', { media_id: draft.media_id }));
    } catch (err) {
      // Verification lapsed, or a blob from before binding checked: the draft is saved, and the account is draft-only from now on.
      if (err instanceof ApiUnauthorizedError) return { status: 'draft', url: null, noteId: draft.media_id, session: sessionOf(creds, false) };
      throw err;
    }
    const result = await this.waitForPublish(creds, `publish:${String(submitted.publish_id)}`);
    return creds.canPublish === true ? result : { ...result, session: sessionOf(creds, true) };
  }

  private async newsArticle(creds: Credentials, content: PublishContent, images: ImageFile[]): Promise<Record<string, unknown>> {
    const [cover, ...inline] = images;
    if (!cover) throw new ContentRejectedError('公众号文章需要至少一张图片作为封面');
    const thumb = await this.addMaterial(creds, cover, 0);
    const urls: string[] = [];
    for (const [i, img] of inline.entries()) {
      const file = await forUploadimg(img, i + 1);
      urls.push((await this.call(creds, (t) => this.upload<{ url: string }>(t, '/cgi-bin/media/uploadimg', file))).url);
    }
    return {
      article_type: 'news',
      title: content.title,
      author: '',
      digest: htmlToText(content.body).slice(0, 120),
      content: this.articleHtml(content, urls),
      content_source_url: '',
      thumb_media_id: thumb,
      need_open_comment: 1,
      only_fans_can_comment: 0,
    };
  }

  /** 贴图 (draft_add article_type newspic): up to 20 permanent images in order, the first the cover; plain-text content. */
  private async imagePost(creds: Credentials, content: PublishContent, images: ImageFile[]): Promise<Record<string, unknown>> {
    if (!images.length) throw new ContentRejectedError('公众号贴图需要至少一张图片');
    if (images.length > NEWSPIC_MAX_IMAGES) throw new ContentRejectedError(`公众号贴图最多${NEWSPIC_MAX_IMAGES}张图片`);
    const ids: string[] = [];
    for (const [i, img] of images.entries()) ids.push(await this.addMaterial(creds, img, i));
    const topics = content.topics.length ? content.topics.map((t) => `#${t}`).join(' ') : '';
    const text = [htmlToText(content.body), topics].filter(Boolean).join('\n\n');
    if (text.length >= 20_000) throw new ContentRejectedError('正文超过公众号限制（2万字符）');
    return {
      article_type: 'newspic',
      title: content.title,
      content: text,
      need_open_comment: 1,
      only_fans_can_comment: 0,
      image_info: { image_list: ids.map((id) => ({ image_media_id: id })) },
    };
  }

  /** A permanent image (add_material type=image) -> its media_id. */
  private async addMaterial(creds: Credentials, img: ImageFile, index: number): Promise<string> {
    const file = await forMaterial(img, index);
    return (await this.call(creds, (t) => this.upload<{ media_id: string }>(t, '/cgi-bin/material/add_material?type=image', file))).media_id;
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
    const creds = parseSession(session);
    // noteId is `publish:<publish_id>` while WeChat is still publishing, then the article_id; a draft's media_id on a draft-only account.
    if (!noteId.startsWith('publish:')) {
      if (creds.canPublish === false) return this.draftStatus(creds, noteId);
      let a: { news_item?: Array<{ url?: string; is_deleted?: boolean }> };
      try {
        a = await this.call(creds, (t) => this.post<typeof a>(t, '/cgi-bin/freepublish/getarticle', { article_id: noteId }));
      } catch (err) {
        if (err instanceof ApiUnauthorizedError) return this.draftStatus(creds, noteId);
        throw err;
      }
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

  /** A draft still in the draft box; gone means the owner published or deleted it at mp.weixin.qq.com. */
  private async draftStatus(creds: Credentials, mediaId: string): Promise<PublishResult> {
    try {
      await this.call(creds, (t) => this.post<{ news_item?: unknown[] }>(t, '/cgi-bin/draft/get', { media_id: mediaId }));
    } catch (err) {
      // 40007 invalid media_id: no such draft any more.
      if (err instanceof WechatRejectedError && err.errcode === 40007) throw new ContentRejectedError('草稿已不在公众号草稿箱（可能已在后台发布或删除）');
      throw err;
    }
    return { status: 'draft', url: null, noteId: mediaId };
  }

  /**
   * The published list (freepublish/batchget), newest first, matched by title and time; for a draft-only account
   * (known, or answering 48001) the draft box (draft/batchget) the same way.
   */
  async findPublished(_accountKey: string, session: SessionBlob, content: PublishContent, since: Date): Promise<PublishResult | null> {
    const creds = parseSession(session);
    type Listing = { item?: Array<{ article_id?: string; media_id?: string; update_time: number; content?: { news_item?: Array<{ title: string; url?: string }> } }> };
    const match = (r: Listing) => {
      for (const item of r.item ?? []) {
        if (item.update_time * 1000 < since.getTime() - 60_000) continue;
        const news = item.content?.news_item?.find((n) => n.title === content.title.trim());
        if (news) return { item, news };
      }
      return null;
    };
    if (creds.canPublish !== false) {
      try {
        const r = await this.call(creds, (t) => this.post<Listing>(t, '/cgi-bin/freepublish/batchget', { offset: 0, count: 20, no_content: 1 }));
        const m = match(r);
        return m ? { status: 'published', url: m.news.url ?? null, noteId: m.item.article_id ?? null } : null;
      } catch (err) {
        if (!(err instanceof ApiUnauthorizedError)) throw err;
      }
    }
    const drafts = await this.call(creds, (t) => this.post<Listing>(t, '/cgi-bin/draft/batchget', { offset: 0, count: 20, no_content: 1 }));
    const m = match(drafts);
    return m ? { status: 'draft', url: null, noteId: m.item.media_id ?? null } : null;
  }

  /** Followers from user/get when the account may read it (else 0); notes published, or drafts for a draft-only account. */
  async stats(_accountKey: string, session: SessionBlob): Promise<{ followerCount: number; noteCount: number }> {
    const found = await this.capabilities(parseSession(session));
    return { followerCount: found.followerCount ?? 0, noteCount: found.noteCount };
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
    const creds = parseSession(session);
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
    if (code === UNAUTHORIZED) return new ApiUnauthorizedError(err.endpoint ?? '');
    if (code === 40164) return new ContentRejectedError('服务器IP未加入公众号的IP白名单（40164），请在公众号后台添加后重试');
    if (code !== undefined && BAD_CREDENTIALS.has(code)) return new SessionExpiredError('AppID 或 AppSecret 无效，请重新绑定');
    if (code !== undefined && RATE_LIMITED.has(code)) return new RateLimitedError('公众号接口调用过于频繁，请稍后再试');
    if (code !== undefined && code >= 40000 && code < 50000) return new WechatRejectedError(`公众号拒绝了请求：${err.message}`, code);
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
    if (json.errcode !== undefined && json.errcode !== 0) throw new WechatError(`${endpoint}: ${json.errcode} ${json.errmsg ?? ''}`.trim(), json.errcode, endpoint);
    return json;
  }
}
