import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-in for api.weixin.qq.com, the Official Account publishing API, following the official documentation at
 * developers.weixin.qq.com (订阅号/服务号 API: 获取稳定版接口调用凭据, 素材管理 add_material, 上传图文消息内的图片 uploadimg,
 * 草稿箱 draft_add / draft_get / draft_count / draft_batchget, 发布能力 freepublish_submit / get / getarticle / batchget,
 * 用户管理 user/get) and its product guide on publishing (guide/product/publish.html). It checks what those pages say
 * WeChat checks and answers with WeChat's error bodies:
 *
 * - stable_token per AppID (40013 unknown AppID, 40125 wrong secret); every other call needs that AppID's current token (40001).
 * - material/add_material: multipart `media`; type=image takes bmp/png/jpeg/jpg/gif up to 10 MB, type=thumb jpg up to
 *   64 KB, told by magic bytes (40005 invalid file type, 40009 invalid image size) -> `{media_id, url}` (permanent).
 * - media/uploadimg: multipart `media`, jpg/png only and under 1 MB (40005, 40009) -> `{url}`.
 * - draft/add: `article_type` news (the default: title <= 32, author <= 16, digest <= 128, content < 20,000 characters
 *   and < 1 MB, thumb_media_id a permanent image of the account) or newspic (图片消息/贴图: title <= 32, content plain
 *   text, `image_info.image_list[].image_media_id` 1 to 20 permanent images, the first being the cover). The docs name
 *   no errcode for a missing or over-long image_list: the stand-in answers WeChat's generic 47001 "data format error".
 *   Content is kept as sent (WeChat strips JS and drops images not from uploadimg), so tests see what the adapter sent.
 * - draft/get, draft/count, draft/batchget read the draft box; a draft leaves it once published (as the docs say).
 * - freepublish/get reports "in progress" once before success.
 * - Since July 2025 (发布能力: "个人主体账号、企业主体未认证账号及不支持认证的账号将被回收以上接口的调用权限") an
 *   account started with `verified: false` answers 48001 "api unauthorized" on freepublish/* and on user/get (the
 *   follower list needs a verified account), while stable_token, material, uploadimg and draft/* keep working.
 *
 * The data side (数据统计, datacube): getusersummary and getusercumulate (at most 7 days a call), getarticlesummary and
 * getarticletotal (1 day a call), POST with `begin_date`/`end_date`, answering `{list: [...]}` with the documented field
 * names; an end_date of today or later, a span over the limit or begin after end answers 61501 "date range error", a
 * malformed date 61500 "date format error" (the 1-day lag: yesterday is the newest day). Figures are a pure function
 * of the AppID, the article and the date (`datacubeUser`, `datacubeArticle` below), so tests compute what to expect.
 */
export interface DatacubeArticle {
  /** `<msg_data_id>_<index>` as datacube names a sent article. */
  msgid: string;
  title: string;
  /** The day it was sent (ref_date of getarticletotal). */
  refDate: string;
}

const DAY_MS = 86_400_000;
const shanghaiDay = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);
const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const spanDays = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
const h32 = (s: string) => createHash('sha256').update(s).digest().readUInt32BE(0);
/** Followers are counted from this day on (cumulate_user before it is the base). */
const DATACUBE_ORIGIN = '2026-01-01';

/** getusersummary rows of a day (one per user_source) and getusercumulate's cumulate_user at its end. */
export function datacubeUser(appId: string, baseFollowers: number, day: string) {
  const rows = (d: string) => {
    const h = h32(`wx-user:${appId}:${d}`);
    return [
      { ref_date: d, user_source: 0, new_user: 3 + (h % 17), cancel_user: (h >>> 8) % 4 },
      { ref_date: d, user_source: 30, new_user: (h >>> 12) % 9, cancel_user: (h >>> 16) % 2 },
    ];
  };
  let cumulate = baseFollowers;
  for (let d = DATACUBE_ORIGIN; d <= day; d = plusDays(d, 1)) for (const r of rows(d)) cumulate += r.new_user - r.cancel_user;
  return { summary: rows(day), cumulate };
}

/**
 * An article's totals at the end of `day` (getarticletotal's details are cumulative): reads rise for the 7 days
 * datacube reports after sending and stay there; favourites and shares are per-article shares of the reads.
 */
export function datacubeArticle(a: DatacubeArticle, day: string) {
  const k = spanDays(a.refDate, day);
  if (k < 0)
    return {
      target_user: 0,
      int_page_read_user: 0,
      int_page_read_count: 0,
      ori_page_read_user: 0,
      ori_page_read_count: 0,
      share_user: 0,
      share_count: 0,
      add_to_fav_user: 0,
      add_to_fav_count: 0,
    };
  const h = h32(`wx-article:${a.msgid}`);
  const peak = 200 + (h % 3000);
  const reads = Math.floor((peak * Math.min(k + 1, 7)) / 7);
  const users = Math.floor((reads * 85) / 100);
  const shares = Math.floor((reads * (1 + ((h >>> 8) % 3))) / 100);
  const favs = Math.floor((reads * (1 + ((h >>> 12) % 5))) / 100);
  return {
    target_user: 1000 + ((h >>> 4) % 9000),
    int_page_read_user: users,
    int_page_read_count: reads,
    ori_page_read_user: Math.floor(users / 50),
    ori_page_read_count: Math.floor(reads / 50),
    share_user: Math.max(0, shares - 1),
    share_count: shares,
    add_to_fav_user: favs,
    add_to_fav_count: favs,
  };
}

/** What datacube answers for one `begin_date`/`end_date` pair, checked as WeChat checks it. */
function datacube(path: string, body: Record<string, unknown>, ctx: { appId: string; baseFollowers: number; articles: DatacubeArticle[]; now: number }) {
  const limits: Record<string, number> = { '/datacube/getusersummary': 7, '/datacube/getusercumulate': 7, '/datacube/getarticlesummary': 1, '/datacube/getarticletotal': 1 };
  const { begin_date: begin, end_date: end } = body;
  const date = /^\d{4}-\d{2}-\d{2}$/;
  if (typeof begin !== 'string' || typeof end !== 'string' || !date.test(begin) || !date.test(end) || Number.isNaN(Date.parse(begin)) || Number.isNaN(Date.parse(end))) {
    return { errcode: 61500, errmsg: 'date format error' };
  }
  const yesterday = plusDays(shanghaiDay(ctx.now), -1);
  if (begin > end || end > yesterday || spanDays(begin, end) + 1 > limits[path]!) return { errcode: 61501, errmsg: 'date range error' };
  const list: unknown[] = [];
  for (let d = begin; d <= end; d = plusDays(d, 1)) {
    if (path === '/datacube/getusersummary') list.push(...datacubeUser(ctx.appId, ctx.baseFollowers, d).summary.filter((r) => r.new_user || r.cancel_user));
    else if (path === '/datacube/getusercumulate') list.push({ ref_date: d, cumulate_user: datacubeUser(ctx.appId, ctx.baseFollowers, d).cumulate });
    else if (path === '/datacube/getarticlesummary') {
      for (const a of ctx.articles) {
        const today = datacubeArticle(a, d);
        const before = datacubeArticle(a, plusDays(d, -1));
        if (today.int_page_read_count === before.int_page_read_count) continue;
        const { target_user: _t, ...t } = today;
        const { target_user: _b, ...b } = before;
        const delta = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v - b[k as keyof typeof b]]));
        list.push({ ref_date: d, msgid: a.msgid, title: a.title, ...delta });
      }
    } else {
      for (const a of ctx.articles.filter((x) => x.refDate === d)) {
        const details = [];
        for (let s = d; s <= plusDays(d, 6) && s <= yesterday; s = plusDays(s, 1)) details.push({ stat_date: s, ...datacubeArticle(a, s) });
        list.push({ ref_date: d, msgid: a.msgid, title: a.title, details });
      }
    }
  }
  return { list };
}

export interface StandinAccount {
  appId: string;
  appSecret: string;
  followers?: number;
  /** false: a personal-subject, unverified or un-verifiable account (48001 on freepublish/* and user/get). Default true. */
  verified?: boolean;
}

/** An image as the stand-in received it (uploadimg or add_material), told by its magic bytes. */
export interface StandinImage {
  appId: string;
  endpoint: 'uploadimg' | 'add_material';
  /** add_material's `type` (image | thumb); null for uploadimg. */
  type: string | null;
  filename: string;
  format: ImageFormat | null;
  bytes: number;
  sha256: string;
  data: Buffer;
  url: string;
  /** Permanent media_id (add_material only). */
  mediaId: string | null;
}

export interface StandinDraft {
  appId: string;
  mediaId: string;
  articleType: 'news' | 'newspic';
  title: string;
  digest: string;
  content: string;
  thumbMediaId: string | null;
  /** newspic: image_info.image_list in order. */
  imageMediaIds: string[];
  updateTime: number;
}

export interface WechatPublishStandin {
  url: string;
  /** Articles the datacube reports on (tests add them; a published article is added on its publish day). */
  articles: DatacubeArticle[];
  /** Every datacube request as received: endpoint and dates. */
  datacubeRequests: Array<{ path: string; begin: unknown; end: unknown }>;
  published: Array<{
    appId: string;
    publishId: string;
    articleId: string;
    articleType: 'news' | 'newspic';
    title: string;
    content: string;
    /** newspic: the hashes of its images in order (what readers see). */
    imageSha256: string[];
    url: string;
    at: number;
  }>;
  /** Images accepted by uploadimg and add_material, in order. */
  images: StandinImage[];
  /** Drafts still in the draft box (published ones leave it). */
  drafts: StandinDraft[];
  /** Every call made with a token: the account, endpoint and the errcode answered (0 when it succeeded). */
  calls: Array<{ appId: string; path: string; errcode: number }>;
  tokenRequests: number;
  /** Next call to this endpoint answers with this errcode. */
  failNext(endpoint: string, errcode: number, errmsg?: string): void;
  /** Verification lapsing or being granted (认证 is renewed yearly): changes what the account's freepublish answers. */
  setVerified(appId: string, verified: boolean): void;
  expireToken(): void;
  close(): Promise<void>;
}

type ImageFormat = 'jpg' | 'png' | 'gif' | 'bmp' | 'webp';

/** The format by magic bytes, as WeChat tells an upload's type (not by its name or content-type). */
function imageFormat(b: Buffer): ImageFormat | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1'))) return 'gif';
  if (b.length >= 2 && b.subarray(0, 2).toString('latin1') === 'BM') return 'bmp';
  if (b.length >= 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return null;
}

/** The `media` part of a multipart/form-data body: its file name and bytes. */
function mediaPart(contentType: string, raw: Buffer): { filename: string; data: Buffer } | null {
  const m = /^multipart\/form-data;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!m) return null;
  const delimiter = Buffer.from(`--${m[1] ?? m[2]}`);
  let at = raw.indexOf(delimiter);
  while (at !== -1) {
    const headStart = at + delimiter.length + 2;
    if (raw.subarray(at + delimiter.length, headStart).toString() === '--') return null;
    const headEnd = raw.indexOf('\r\n\r\n', headStart);
    if (headEnd === -1) return null;
    const next = raw.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headEnd + 4);
    if (next === -1) return null;
    const headers = raw.subarray(headStart, headEnd).toString('utf8');
    if (/content-disposition:[^\r\n]*\bname="media"/i.test(headers)) {
      return { filename: /filename="([^"]*)"/i.exec(headers)?.[1] ?? '', data: raw.subarray(headEnd + 4, next) };
    }
    at = next + 2;
  }
  return null;
}

const MB = 1024 * 1024;
/** 发布能力 and 用户管理: what an unverified account may no longer call. */
const VERIFIED_ONLY = ['/cgi-bin/freepublish/submit', '/cgi-bin/freepublish/get', '/cgi-bin/freepublish/getarticle', '/cgi-bin/freepublish/batchget', '/cgi-bin/user/get'];

export async function startWechatPublishStandin(
  opts: StandinAccount & {
    /** More accounts served by the same host (each with its own token). */
    accounts?: StandinAccount[];
    /** The stand-in's clock (datacube's "yesterday"). */
    now?: () => number;
  },
): Promise<WechatPublishStandin> {
  const now = opts.now ?? Date.now;
  const accounts = new Map<string, StandinAccount & { verified: boolean; token: { value: string; expiresAt: number } | null }>();
  for (const a of [opts, ...(opts.accounts ?? [])])
    accounts.set(a.appId, { appId: a.appId, appSecret: a.appSecret, followers: a.followers, verified: a.verified ?? true, token: null });
  const submissions = new Map<string, { draft: StandinDraft; polls: number; articleId: string }>();
  const failures = new Map<string, { errcode: number; errmsg: string }>();
  const state: WechatPublishStandin = {
    url: '',
    articles: [],
    datacubeRequests: [],
    published: [],
    images: [],
    drafts: [],
    calls: [],
    tokenRequests: 0,
    failNext: (endpoint, errcode, errmsg = 'standin failure') => void failures.set(endpoint, { errcode, errmsg }),
    setVerified: (appId, verified) => {
      accounts.get(appId)!.verified = verified;
    },
    expireToken: () => {
      for (const a of accounts.values()) a.token = null;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://standin');
      const raw = Buffer.concat(chunks);
      const path = url.pathname;
      let caller: string | null = null;
      const send = (payload: unknown) => {
        if (caller) state.calls.push({ appId: caller, path, errcode: (payload as { errcode?: number }).errcode ?? 0 });
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(payload));
      };
      const failure = failures.get(path);
      if (failure) {
        failures.delete(path);
        return send(failure);
      }
      if (path === '/cgi-bin/stable_token') {
        state.tokenRequests += 1;
        const body = JSON.parse(raw.toString() || '{}') as Record<string, unknown>;
        if (body.grant_type !== 'client_credential') return send({ errcode: 40002, errmsg: 'invalid grant_type' });
        const acct = typeof body.appid === 'string' ? accounts.get(body.appid) : undefined;
        if (!acct) return send({ errcode: 40013, errmsg: 'invalid appid' });
        if (body.secret !== acct.appSecret) return send({ errcode: 40125, errmsg: 'invalid appsecret' });
        if (!acct.token || acct.token.expiresAt < Date.now() || body.force_refresh === true)
          acct.token = { value: randomBytes(32).toString('base64url'), expiresAt: Date.now() + 7200_000 };
        return send({ access_token: acct.token.value, expires_in: Math.floor((acct.token.expiresAt - Date.now()) / 1000) });
      }
      const at = url.searchParams.get('access_token');
      if (!at) return send({ errcode: 41001, errmsg: 'access_token missing' });
      const acct = [...accounts.values()].find((a) => a.token?.value === at);
      if (!acct) return send({ errcode: 40001, errmsg: 'invalid credential, access_token is invalid or not latest' });
      caller = acct.appId;
      if (!acct.verified && VERIFIED_ONLY.includes(path)) return send({ errcode: 48001, errmsg: 'api unauthorized' });
      const json = () => JSON.parse(raw.toString() || '{}') as Record<string, unknown>;
      const permanentImage = (id: unknown) => typeof id === 'string' && state.images.some((i) => i.appId === acct.appId && i.mediaId === id);
      const draftBox = () => state.drafts.filter((d) => d.appId === acct.appId);
      const newsItem = (d: StandinDraft, withContent: boolean) => ({
        article_type: d.articleType,
        title: d.title,
        author: '',
        digest: d.digest,
        ...(withContent ? { content: d.content } : {}),
        content_source_url: '',
        thumb_media_id: d.thumbMediaId ?? '',
        ...(d.articleType === 'newspic' ? { image_info: { image_list: d.imageMediaIds.map((id) => ({ image_media_id: id })) } } : {}),
        need_open_comment: 1,
        only_fans_can_comment: 0,
        url: `http://mp.weixin.qq.com/s?__biz=standin&tempkey=${d.mediaId}`,
      });
      const receive = (endpoint: StandinImage['endpoint'], type: string | null, allowed: ImageFormat[], maxBytes: number, inclusive: boolean) => {
        const part = (req.headers['content-type'] ?? '').startsWith('multipart/form-data') ? mediaPart(req.headers['content-type']!, raw) : null;
        if (!part || part.data.length === 0) return send({ errcode: 41005, errmsg: 'media data missing' });
        const format = imageFormat(part.data);
        if (!format || !allowed.includes(format)) return send({ errcode: 40005, errmsg: 'invalid file type' });
        if (inclusive ? part.data.length > maxBytes : part.data.length >= maxBytes) return send({ errcode: 40009, errmsg: 'invalid image size' });
        const id = endpoint === 'add_material' ? randomBytes(16).toString('hex') : null;
        const img: StandinImage = {
          appId: acct.appId,
          endpoint,
          type,
          filename: part.filename,
          format,
          bytes: part.data.length,
          sha256: createHash('sha256').update(part.data).digest('hex'),
          data: Buffer.from(part.data),
          url: `http://mmbiz.qpic.cn/standin/${id ?? `inline-${randomBytes(8).toString('hex')}`}`,
          mediaId: id,
        };
        state.images.push(img);
        return send(id ? { media_id: id, url: img.url } : { url: img.url });
      };
      switch (path) {
        case '/cgi-bin/material/add_material': {
          const type = url.searchParams.get('type') ?? '';
          if (type === 'image') return receive('add_material', type, ['bmp', 'png', 'jpg', 'gif'], 10 * MB, true);
          if (type === 'thumb') return receive('add_material', type, ['jpg'], 64 * 1024, true);
          return send({ errcode: 40004, errmsg: 'invalid media type' });
        }
        case '/cgi-bin/media/uploadimg':
          // "图片仅支持jpg/png格式，大小必须在1MB以下"
          return receive('uploadimg', null, ['jpg', 'png'], MB, false);
        case '/cgi-bin/draft/add': {
          const articles = json().articles as Array<Record<string, unknown>> | undefined;
          const a = articles?.[0];
          if (!a) return send({ errcode: 40007, errmsg: 'invalid articles' });
          const type = a.article_type ?? 'news';
          if (type !== 'news' && type !== 'newspic') return send({ errcode: 47001, errmsg: 'data format error' });
          if (typeof a.title !== 'string' || [...a.title].length > 32) return send({ errcode: 45003, errmsg: 'title size out of limit' });
          if (typeof a.author === 'string' && [...a.author].length > 16) return send({ errcode: 45110, errmsg: 'author size out of limit' });
          if (typeof a.content !== 'string' || a.content.length >= 20_000 || Buffer.byteLength(a.content) >= MB)
            return send({ errcode: 45002, errmsg: 'content size out of limit' });
          const draft: StandinDraft = {
            appId: acct.appId,
            mediaId: randomBytes(16).toString('hex'),
            articleType: type,
            title: a.title,
            digest: typeof a.digest === 'string' ? a.digest : '',
            content: a.content,
            thumbMediaId: null,
            imageMediaIds: [],
            updateTime: Math.floor(Date.now() / 1000),
          };
          if (type === 'news') {
            if ([...draft.digest].length > 128) return send({ errcode: 45004, errmsg: 'description size out of limit' });
            if (!permanentImage(a.thumb_media_id)) return send({ errcode: 40007, errmsg: 'invalid media_id' });
            draft.thumbMediaId = a.thumb_media_id as string;
          } else {
            const list = (a.image_info as { image_list?: unknown } | undefined)?.image_list;
            if (!Array.isArray(list) || list.length < 1 || list.length > 20) return send({ errcode: 47001, errmsg: 'data format error' });
            const ids = list.map((x) => (x as { image_media_id?: unknown } | null)?.image_media_id);
            if (!ids.every(permanentImage)) return send({ errcode: 40007, errmsg: 'invalid media_id' });
            draft.imageMediaIds = ids as string[];
          }
          state.drafts.push(draft);
          return send({ media_id: draft.mediaId });
        }
        case '/cgi-bin/draft/get': {
          const d = draftBox().find((x) => x.mediaId === json().media_id);
          if (!d) return send({ errcode: 40007, errmsg: 'invalid media_id' });
          return send({ news_item: [newsItem(d, true)] });
        }
        case '/cgi-bin/draft/count':
          return send({ total_count: draftBox().length });
        case '/cgi-bin/draft/batchget': {
          const body = json();
          const offset = Number(body.offset ?? 0);
          const count = Number(body.count ?? 0);
          if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(count) || count < 1 || count > 20) return send({ errcode: 47001, errmsg: 'data format error' });
          const box = draftBox().reverse();
          const item = box
            .slice(offset, offset + count)
            .map((d) => ({ media_id: d.mediaId, content: { news_item: [newsItem(d, body.no_content !== 1)] }, update_time: d.updateTime }));
          return send({ total_count: box.length, item_count: item.length, item });
        }
        case '/cgi-bin/freepublish/submit': {
          const id = json().media_id;
          const draft = draftBox().find((d) => d.mediaId === id);
          if (!draft) return send({ errcode: 40007, errmsg: 'invalid media_id' });
          const publishId = String(2247483000 + submissions.size + 1);
          submissions.set(publishId, { draft, polls: 0, articleId: randomBytes(10).toString('hex') });
          return send({ errcode: 0, errmsg: 'ok', publish_id: publishId, msg_data_id: 2247483001 });
        }
        case '/cgi-bin/freepublish/get': {
          const sub = submissions.get(String(json().publish_id));
          if (!sub || sub.draft.appId !== acct.appId) return send({ errcode: 47003, errmsg: 'argument invalid' });
          sub.polls += 1;
          if (sub.polls < 2) return send({ publish_id: json().publish_id, publish_status: 1 });
          const d = sub.draft;
          let entry = state.published.find((p) => p.articleId === sub.articleId);
          if (!entry) {
            entry = {
              appId: acct.appId,
              publishId: String(json().publish_id),
              articleId: sub.articleId,
              articleType: d.articleType,
              title: d.title,
              content: d.content,
              imageSha256: d.imageMediaIds.map((id) => state.images.find((i) => i.mediaId === id)!.sha256),
              url: `https://mp.weixin.qq.com/s/${sub.articleId}`,
              at: Date.now(),
            };
            state.published.push(entry);
            state.drafts = state.drafts.filter((x) => x !== d);
            state.articles.push({ msgid: `${2247483000 + state.articles.length + 1}_1`, title: d.title, refDate: shanghaiDay(now()) });
          }
          return send({
            publish_id: json().publish_id,
            publish_status: 0,
            article_id: sub.articleId,
            article_detail: { count: 1, item: [{ idx: 1, article_url: entry.url }] },
            fail_idx: [],
          });
        }
        case '/cgi-bin/freepublish/getarticle': {
          const entry = state.published.find((p) => p.appId === acct.appId && p.articleId === json().article_id);
          if (!entry) return send({ errcode: 53600, errmsg: 'Article ID 无效' });
          return send({ news_item: [{ title: entry.title, url: entry.url, is_deleted: false }] });
        }
        case '/cgi-bin/freepublish/batchget': {
          const items = state.published
            .filter((p) => p.appId === acct.appId)
            .reverse()
            .map((p) => ({
              article_id: p.articleId,
              update_time: Math.floor(p.at / 1000),
              content: { news_item: [{ title: p.title, url: p.url }] },
            }));
          return send({ total_count: items.length, item_count: items.length, item: items });
        }
        case '/datacube/getusersummary':
        case '/datacube/getusercumulate':
        case '/datacube/getarticlesummary':
        case '/datacube/getarticletotal': {
          if (req.method !== 'POST') return send({ errcode: 43002, errmsg: 'require POST method' });
          let body: Record<string, unknown>;
          try {
            body = json();
          } catch {
            return send({ errcode: 47001, errmsg: 'data format error' });
          }
          state.datacubeRequests.push({ path, begin: body.begin_date, end: body.end_date });
          return send(datacube(path, body, { appId: acct.appId, baseFollowers: acct.followers ?? 1234, articles: state.articles, now: now() }));
        }
        case '/cgi-bin/user/get':
          return send({ total: acct.followers ?? 1234, count: 0, data: { openid: [] }, next_openid: '' });
        default:
          return send({ errcode: 40066, errmsg: 'invalid url' });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
