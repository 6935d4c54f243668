import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-in for the WeChat Official Account publishing API: stable_token, material/add_material,
 * media/uploadimg, draft/add, freepublish/submit|get|batchget, user/get. It checks what WeChat checks
 * (token, multipart `media`, title <= 32, thumb_media_id known, content < 20,000 chars) and answers
 * with WeChat's error bodies. freepublish/get reports "in progress" once before success.
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

export interface WechatPublishStandin {
  url: string;
  /** Articles the datacube reports on (tests add them; a published article is added on its publish day). */
  articles: DatacubeArticle[];
  /** Every datacube request as received: endpoint and dates. */
  datacubeRequests: Array<{ path: string; begin: unknown; end: unknown }>;
  published: Array<{ publishId: string; articleId: string; title: string; content: string; url: string; at: number }>;
  tokenRequests: number;
  /** Next call to this endpoint answers with this errcode. */
  failNext(endpoint: string, errcode: number, errmsg?: string): void;
  expireToken(): void;
  close(): Promise<void>;
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

export async function startWechatPublishStandin(opts: {
  appId: string;
  appSecret: string;
  followers?: number;
  /** The stand-in's clock (datacube's "yesterday"). */
  now?: () => number;
}): Promise<WechatPublishStandin> {
  const now = opts.now ?? Date.now;
  let token: { value: string; expiresAt: number } | null = null;
  const media = new Map<string, string>();
  const drafts = new Map<string, { title: string; content: string }>();
  const submissions = new Map<string, { draft: string; polls: number; articleId: string }>();
  const failures = new Map<string, { errcode: number; errmsg: string }>();
  const state: WechatPublishStandin = {
    url: '',
    articles: [],
    datacubeRequests: [],
    published: [],
    tokenRequests: 0,
    failNext: (endpoint, errcode, errmsg = 'standin failure') => void failures.set(endpoint, { errcode, errmsg }),
    expireToken: () => {
      token = null;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://standin');
      const raw = Buffer.concat(chunks);
      const send = (payload: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(payload));
      };
      const path = url.pathname;
      const failure = failures.get(path);
      if (failure) {
        failures.delete(path);
        return send(failure);
      }
      if (path === '/cgi-bin/stable_token') {
        state.tokenRequests += 1;
        const body = JSON.parse(raw.toString() || '{}') as Record<string, unknown>;
        if (body.grant_type !== 'client_credential') return send({ errcode: 40002, errmsg: 'invalid grant_type' });
        if (body.appid !== opts.appId) return send({ errcode: 40013, errmsg: 'invalid appid' });
        if (body.secret !== opts.appSecret) return send({ errcode: 40125, errmsg: 'invalid appsecret' });
        if (!token || token.expiresAt < Date.now() || body.force_refresh === true) token = { value: randomBytes(32).toString('base64url'), expiresAt: Date.now() + 7200_000 };
        return send({ access_token: token.value, expires_in: Math.floor((token.expiresAt - Date.now()) / 1000) });
      }
      const at = url.searchParams.get('access_token');
      if (!at) return send({ errcode: 41001, errmsg: 'access_token missing' });
      if (!token || at !== token.value) return send({ errcode: 40001, errmsg: 'invalid credential, access_token is invalid or not latest' });
      const multipartMedia = () => {
        const type = req.headers['content-type'] ?? '';
        return type.startsWith('multipart/form-data') && raw.includes('name="media"') && raw.length > 200;
      };
      const json = () => JSON.parse(raw.toString() || '{}') as Record<string, unknown>;
      switch (path) {
        case '/cgi-bin/material/add_material': {
          if (!['image', 'thumb'].includes(url.searchParams.get('type') ?? '')) return send({ errcode: 40004, errmsg: 'invalid media type' });
          if (!multipartMedia()) return send({ errcode: 41005, errmsg: 'media data missing' });
          const id = randomBytes(16).toString('hex');
          media.set(id, `http://mmbiz.qpic.cn/standin/${id}`);
          return send({ media_id: id, url: media.get(id) });
        }
        case '/cgi-bin/media/uploadimg':
          if (!multipartMedia()) return send({ errcode: 41005, errmsg: 'media data missing' });
          return send({ url: `http://mmbiz.qpic.cn/standin/inline-${randomBytes(8).toString('hex')}` });
        case '/cgi-bin/draft/add': {
          const articles = json().articles as Array<Record<string, unknown>> | undefined;
          const a = articles?.[0];
          if (!a) return send({ errcode: 40007, errmsg: 'invalid articles' });
          if (typeof a.title !== 'string' || [...a.title].length > 32) return send({ errcode: 45003, errmsg: 'title size out of limit' });
          if (typeof a.thumb_media_id !== 'string' || !media.has(a.thumb_media_id)) return send({ errcode: 40007, errmsg: 'invalid media_id' });
          if (typeof a.content !== 'string' || a.content.length >= 20_000) return send({ errcode: 45002, errmsg: 'content size out of limit' });
          const id = randomBytes(16).toString('hex');
          drafts.set(id, { title: a.title, content: a.content });
          return send({ media_id: id });
        }
        case '/cgi-bin/freepublish/submit': {
          const id = json().media_id;
          if (typeof id !== 'string' || !drafts.has(id)) return send({ errcode: 40007, errmsg: 'invalid media_id' });
          const publishId = String(2247483000 + submissions.size + 1);
          submissions.set(publishId, { draft: id, polls: 0, articleId: randomBytes(10).toString('hex') });
          return send({ errcode: 0, errmsg: 'ok', publish_id: publishId, msg_data_id: 2247483001 });
        }
        case '/cgi-bin/freepublish/get': {
          const sub = submissions.get(String(json().publish_id));
          if (!sub) return send({ errcode: 48001, errmsg: 'api unauthorized' });
          sub.polls += 1;
          if (sub.polls < 2) return send({ publish_id: json().publish_id, publish_status: 1 });
          const d = drafts.get(sub.draft)!;
          let entry = state.published.find((p) => p.articleId === sub.articleId);
          if (!entry) {
            entry = {
              publishId: String(json().publish_id),
              articleId: sub.articleId,
              title: d.title,
              content: d.content,
              url: `https://mp.weixin.qq.com/s/${sub.articleId}`,
              at: Date.now(),
            };
            state.published.push(entry);
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
          const entry = state.published.find((p) => p.articleId === json().article_id);
          if (!entry) return send({ errcode: 53600, errmsg: 'Article ID 无效' });
          return send({ news_item: [{ title: entry.title, url: entry.url, is_deleted: false }] });
        }
        case '/cgi-bin/freepublish/batchget': {
          const items = [...state.published].reverse().map((p) => ({
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
          return send(datacube(path, body, { appId: opts.appId, baseFollowers: opts.followers ?? 1234, articles: state.articles, now: now() }));
        }
        case '/cgi-bin/user/get':
          return send({ total: opts.followers ?? 1234, count: 0, data: { openid: [] }, next_openid: '' });
        default:
          return send({ errcode: 40066, errmsg: 'invalid url' });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
