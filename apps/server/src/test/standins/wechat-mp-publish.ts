import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-in for the WeChat Official Account publishing API: stable_token, material/add_material,
 * media/uploadimg, draft/add, freepublish/submit|get|batchget, user/get. It checks what WeChat checks
 * (token, multipart `media`, title <= 32, thumb_media_id known, content < 20,000 chars) and answers
 * with WeChat's error bodies. freepublish/get reports "in progress" once before success.
 */
export interface WechatPublishStandin {
  url: string;
  published: Array<{ publishId: string; articleId: string; title: string; content: string; url: string; at: number }>;
  tokenRequests: number;
  /** Next call to this endpoint answers with this errcode. */
  failNext(endpoint: string, errcode: number, errmsg?: string): void;
  expireToken(): void;
  close(): Promise<void>;
}

export async function startWechatPublishStandin(opts: { appId: string; appSecret: string; followers?: number }): Promise<WechatPublishStandin> {
  let token: { value: string; expiresAt: number } | null = null;
  const media = new Map<string, string>();
  const drafts = new Map<string, { title: string; content: string }>();
  const submissions = new Map<string, { draft: string; polls: number; articleId: string }>();
  const failures = new Map<string, { errcode: number; errmsg: string }>();
  const state: WechatPublishStandin = {
    url: '',
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
            entry = { publishId: String(json().publish_id), articleId: sub.articleId, title: d.title, content: d.content, url: `https://mp.weixin.qq.com/s/${sub.articleId}`, at: Date.now() };
            state.published.push(entry);
          }
          return send({ publish_id: json().publish_id, publish_status: 0, article_id: sub.articleId, article_detail: { count: 1, item: [{ idx: 1, article_url: entry.url }] }, fail_idx: [] });
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
