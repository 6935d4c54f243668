import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import QRCode from 'qrcode';
import { escapeHtml, htmlPage } from '../../html/page.js';
import { sha256Hex } from '../../security/hashing.js';
import { textLength } from './types.js';
import { addDays, dayOf, sandboxMetrics } from './sandbox-metrics.js';

/**
 * 沙箱 creator platform: a small simulated creator site served by our own server under
 * `/sandbox-platform`. It behaves like a real one (QR login confirmed on a phone page, a publish form
 * with uploads, a notes list, comments, an unread-count API shaped like Xiaohongshu's, slow steps
 * and failures on demand), so the browser automation is exercised for real. Nothing leaves the machine.
 */

export type SandboxFailure = 'before_submit' | 'after_submit' | 'captcha' | 'reject' | 'rate_limit' | 'expire';

interface Creator {
  id: string;
  name: string;
  avatar: string;
  followers: number;
  unread: { likes: number; connections: number; mentions: number };
}
interface Note {
  id: string;
  creatorId: string;
  title: string;
  body: string;
  images: number;
  /** SHA-256 of each uploaded image, so tests can tell which picture arrived. */
  imageSha256?: string[];
  topics: string[];
  createdAt: number;
  scheduledAt: number | null;
}
interface Comment {
  id: string;
  noteId: string;
  author: string;
  content: string;
  createdAt: number;
}
interface State {
  creators: Record<string, Creator>;
  sessions: Record<string, string>;
  notes: Note[];
  comments: Comment[];
  seq: number;
}

const BASE = '/sandbox-platform';
const COOKIE = 'sbx_session';
const TICKET_TTL_MS = 5 * 60_000;
/** Pictures kept for note pages (in memory, newest last): a sandbox shows what arrived, it is not an archive. */
const PICTURES_KEPT = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const sandboxCreatorId = (identity: string) => `sbx${sha256Hex(`sandbox-platform:${identity}`).slice(0, 16)}`;

export class SandboxSite {
  private state: State = { creators: {}, sessions: {}, notes: [], comments: [], seq: 0 };
  private readonly tickets = new Map<string, { state: 'waiting' | 'scanned' | 'confirmed'; creatorId?: string; expiresAt: number }>();
  /** Extra delay on every page step, to look like a real site (and to let tests interrupt a run). */
  slowMs = 0;
  private readonly failQueue: SandboxFailure[] = [];
  private readonly file: string | null;

  constructor(
    /** Where a phone reaches us: the QR encodes this. */
    readonly publicUrl: string,
    dataDir: string | null,
  ) {
    this.file = dataDir ? path.resolve(dataDir, 'sandbox-platform.json') : null;
    if (this.file && existsSync(this.file)) {
      try {
        this.state = { ...this.state, ...(JSON.parse(readFileSync(this.file, 'utf8')) as State) };
      } catch {
        // A damaged file only loses sandbox data.
      }
    }
  }

  private save() {
    if (!this.file) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileSync(this.file, JSON.stringify(this.state));
  }

  /** The site's clock for its figures; tests move it forward (`_control {advanceDays}`) to watch notes grow. */
  private clockOffsetMs = 0;
  now() {
    return Date.now() + this.clockOffsetMs;
  }
  advanceDays(days: number) {
    this.clockOffsetMs += days * 86_400_000;
  }

  /** Data figures of a creator for `from`..`to`, complete days only (up to the site's yesterday). */
  metrics(creatorId: string, from: string, to: string) {
    const c = this.state.creators[creatorId];
    const lastDay = addDays(dayOf(this.now()), -1);
    const end = to < lastDay ? to : lastDay;
    const notes = this.notes(creatorId).map((n) => ({ id: n.id, title: n.title, url: `${BASE}/notes/${n.id}`, publishedAt: n.scheduledAt ?? n.createdAt }));
    const figures = c && from <= end ? sandboxMetrics(c.followers, notes, from, end) : { days: [], notes: [] };
    return { lastDay, days: figures.days, notes: figures.notes.map((n) => ({ ...n, publishedAt: n.publishedAt.getTime() })) };
  }

  /** Makes the next publish (or session use, for 'expire') fail the given way. */
  failNext(kind: SandboxFailure) {
    this.failQueue.push(kind);
  }

  private takeFailure(kinds: SandboxFailure[]): SandboxFailure | null {
    const i = this.failQueue.findIndex((k) => kinds.includes(k));
    return i < 0 ? null : this.failQueue.splice(i, 1)[0]!;
  }

  expireSessions(creatorId?: string) {
    for (const [token, id] of Object.entries(this.state.sessions)) if (!creatorId || id === creatorId) delete this.state.sessions[token];
    this.save();
  }

  notes(creatorId?: string) {
    return this.state.notes.filter((n) => !creatorId || n.creatorId === creatorId);
  }

  addComment(noteId: string, author: string, content: string): Comment | null {
    const note = this.state.notes.find((n) => n.id === noteId);
    if (!note) return null;
    const comment = { id: `c${++this.state.seq}`, noteId, author, content, createdAt: Date.now() };
    this.state.comments.push(comment);
    const creator = this.state.creators[note.creatorId];
    if (creator) creator.unread.mentions += 1;
    this.save();
    return comment;
  }

  private creatorOf(req: FastifyRequest): Creator | null {
    const token = /(?:^|;\s*)sbx_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    const id = token ? this.state.sessions[token] : undefined;
    return id ? (this.state.creators[id] ?? null) : null;
  }

  private newTicket() {
    const ticket = randomBytes(12).toString('base64url');
    this.tickets.set(ticket, { state: 'waiting', expiresAt: Date.now() + TICKET_TTL_MS });
    return ticket;
  }

  private ticket(t: string | undefined) {
    const entry = t ? this.tickets.get(t) : undefined;
    if (!entry || entry.expiresAt < Date.now()) return null;
    return entry;
  }

  private confirm(ticket: string, identity: string) {
    const entry = this.ticket(ticket);
    if (!entry) return false;
    const id = sandboxCreatorId(identity);
    this.state.creators[id] ??= {
      id,
      name: identity,
      avatar: `${BASE}/avatar/${id}.svg`,
      followers: 100 + (parseInt(id.slice(3, 7), 16) % 900),
      unread: { likes: 0, connections: 0, mentions: 0 },
    };
    entry.state = 'confirmed';
    entry.creatorId = id;
    this.save();
    return true;
  }

  private readonly pictures = new Map<string, { type: string; buf: Buffer }>();

  private keepPicture(sha: string, mimetype: string, buf: Buffer) {
    this.pictures.delete(sha);
    this.pictures.set(sha, { type: /^image\/(png|jpeg|gif|webp)$/.test(mimetype) ? mimetype : 'application/octet-stream', buf });
    if (this.pictures.size > PICTURES_KEPT) this.pictures.delete(this.pictures.keys().next().value!);
  }

  /**
   * `hooks`: the test switches `/api/_control` (failures, slowness, session expiry) and `/api/_notes` (every note of
   * every creator). Anyone who reaches them could break or read other people's sandbox publishing, so they exist
   * only for tests and e2e (NODE_ENV=test or SANDBOX_HOOKS=1), never on a demo server.
   */
  routes(opts: { hooks?: boolean } = {}) {
    return async (app: FastifyInstance) => {
      await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 18, fields: 20 } });
      const page = (reply: FastifyReply, title: string, body: string, status = 200) =>
        reply
          .status(status)
          .type('text/html; charset=utf-8')
          .send(
            htmlPage({
              title: `${title} - 沙箱创作平台`,
              head: `<link rel="stylesheet" href="${BASE}/static/site.css">`,
              body: `<header><span class="tag">沙箱</span> 沙箱创作平台 <small>模拟的创作者中心，不会发布到任何真实平台</small></header><main>${body}</main>`,
            }),
          );
      const slow = () => (this.slowMs > 0 ? sleep(this.slowMs) : Promise.resolve());
      const requireCreator = (req: FastifyRequest, reply: FastifyReply): Creator | null => {
        if (this.takeFailure(['expire'])) this.expireSessions();
        const c = this.creatorOf(req);
        if (!c) void reply.redirect(`${BASE}/login?redirectReason=401`, 302);
        return c;
      };

      app.get(`${BASE}/static/site.css`, async (_req, reply) =>
        reply
          .type('text/css')
          .header('cache-control', 'no-cache')
          .send(
            'body{font-family:system-ui,"Noto Sans CJK SC",sans-serif;margin:0;color:#222}header{background:#ff2442;color:#fff;padding:10px 20px}main{max-width:760px;margin:20px auto;padding:0 16px}' +
              '.tag{background:#fa8c16;color:#fff;border-radius:4px;padding:0 6px;font-size:12px}label{display:block;margin:12px 0 4px}input,textarea{width:100%;box-sizing:border-box;padding:8px;font-size:15px}' +
              'button{background:#ff2442;color:#fff;border:0;border-radius:6px;padding:10px 24px;font-size:16px;margin-top:16px}.error{color:#c00}.note-item{border-bottom:1px solid #eee;padding:8px 0}',
          ),
      );
      app.get(`${BASE}/static/login.js`, async (_req, reply) =>
        reply.type('application/javascript').header('cache-control', 'no-cache').send(`(function(){
var el=document.getElementById('scan-state');var t=el.getAttribute('data-ticket');
function tick(){fetch('${BASE}/api/qr/status?ticket='+encodeURIComponent(t)).then(function(r){return r.json()}).then(function(j){
var s=j.data&&j.data.state||'expired';el.setAttribute('data-state',s);el.textContent={waiting:'请使用手机扫码',scanned:'已扫码，请在手机上确认',confirmed:'登录成功，正在跳转…',expired:'二维码已过期，请刷新'}[s]||s;
if(s==='confirmed'){location.href='${BASE}/login/finish?ticket='+encodeURIComponent(t);return}if(s!=='expired')setTimeout(tick,800)}).catch(function(){setTimeout(tick,1500)})}
tick()})();`),
      );
      app.get(`${BASE}/avatar/:id`, async (req, reply) => {
        const id = (req.params as { id: string }).id.replace(/\.svg$/, '');
        const hue = parseInt(sha256Hex(id).slice(0, 2), 16) * 1.4;
        return reply
          .type('image/svg+xml')
          .send(
            `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" rx="32" fill="hsl(${hue},60%,60%)"/><text x="32" y="40" font-size="22" text-anchor="middle" fill="#fff">沙</text></svg>`,
          );
      });

      app.get(`${BASE}/login`, async (_req, reply) => {
        await slow();
        const ticket = this.newTicket();
        const qr = await QRCode.toDataURL(`${this.publicUrl}${BASE}/m/scan?ticket=${ticket}`, { margin: 1, width: 220 });
        return page(
          reply,
          '扫码登录',
          `<h2>扫码登录创作平台</h2><div class="login-box"><img id="qrcode" class="qrcode-img" alt="登录二维码" src="${qr}" width="220" height="220">
<p id="scan-state" data-ticket="${ticket}" data-state="waiting">请使用手机扫码</p><p><a id="phone-link" href="${BASE}/m/scan?ticket=${ticket}" target="_blank">（沙箱）在本机打开手机确认页</a></p></div>
<script src="${BASE}/static/login.js"></script>`,
        );
      });
      app.get(`${BASE}/api/qr/status`, async (req) => {
        const entry = this.ticket((req.query as { ticket?: string }).ticket);
        return { code: 0, success: true, data: { state: entry?.state ?? 'expired' } };
      });
      app.get(`${BASE}/login/finish`, async (req, reply) => {
        const t = (req.query as { ticket?: string }).ticket ?? '';
        const entry = this.ticket(t);
        if (!entry || entry.state !== 'confirmed' || !entry.creatorId) return reply.redirect(`${BASE}/login`, 302);
        this.tickets.delete(t);
        const token = randomBytes(24).toString('base64url');
        this.state.sessions[token] = entry.creatorId;
        this.save();
        reply.header('set-cookie', `${COOKIE}=${token}; Path=${BASE}; HttpOnly; SameSite=Lax; Max-Age=2592000`);
        return reply.redirect(`${BASE}/publish`, 302);
      });

      // The creator's phone.
      app.get(`${BASE}/m/scan`, async (req, reply) => {
        const t = (req.query as { ticket?: string }).ticket ?? '';
        const entry = this.ticket(t);
        if (!entry) return page(reply, '二维码已失效', '<h2>二维码已失效</h2><p>请在电脑上刷新二维码。</p>');
        if (entry.state === 'waiting') entry.state = 'scanned';
        return page(
          reply,
          '确认登录',
          `<h2>沙箱创作平台 请求登录</h2><form method="post" action="${BASE}/m/confirm"><input type="hidden" name="ticket" value="${escapeHtml(t)}">
<label>模拟的创作者账号<input name="identity" value="沙箱创作者" maxlength="32"></label><button id="confirm" type="submit">确认登录</button></form>`,
        );
      });
      app.post(`${BASE}/m/confirm`, async (req, reply) => {
        const body = (req.body ?? {}) as { ticket?: string; identity?: string };
        const identity = (body.identity ?? '').trim().slice(0, 32) || '沙箱创作者';
        const done = this.confirm(body.ticket ?? '', identity);
        return page(reply, done ? '已确认' : '二维码已失效', done ? '<h2 id="confirmed">已确认登录</h2><p>请回到电脑上的页面。</p>' : '<h2>二维码已失效</h2>');
      });

      app.get(`${BASE}/publish`, async (req, reply) => {
        await slow();
        const c = requireCreator(req, reply);
        if (!c) return reply;
        return page(
          reply,
          '发布笔记',
          `<div id="creator" data-id="${c.id}" data-name="${escapeHtml(c.name)}" data-avatar="${escapeHtml(c.avatar)}" data-followers="${c.followers}" data-notes="${this.notes(c.id).length}">当前账号：${escapeHtml(c.name)}</div>
<h2>发布图文笔记</h2><form id="publish-form" method="post" action="${BASE}/publish" enctype="multipart/form-data">
<label>图片（1-18 张）<input id="images" type="file" name="images" accept="image/*" multiple></label>
<label>标题（最多20字）<input id="title" name="title"></label><label>正文（最多1000字）<textarea id="content" name="content" rows="8"></textarea></label>
<label>话题（逗号分隔）<input id="topics" name="topics"></label><label>定时发布（可选）<input id="schedule" name="schedule" type="datetime-local"></label>
<button id="submit" type="submit">发布</button></form><p><a href="${BASE}/notes">笔记管理</a></p>`,
        );
      });

      app.post(`${BASE}/publish`, async (req, reply) => {
        await slow();
        const c = requireCreator(req, reply);
        if (!c) return reply;
        const fields: Record<string, string> = {};
        let images = 0;
        const imageSha256: string[] = [];
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            const buf = await part.toBuffer();
            if (buf.length > 0) images += 1;
            if (buf.length > 0) {
              const sha = createHash('sha256').update(buf).digest('hex');
              imageSha256.push(sha);
              this.keepPicture(sha, part.mimetype, buf);
            }
          } else fields[part.fieldname] = String(part.value ?? '');
        }
        const failure = this.takeFailure(['before_submit', 'after_submit', 'captcha', 'reject', 'rate_limit']);
        if (failure === 'captcha') return page(reply, '安全验证', '<div id="captcha" class="captcha">请完成安全验证（滑块）</div>', 461);
        if (failure === 'rate_limit') return page(reply, '操作频繁', '<p class="publish-error" data-kind="rate_limited">操作过于频繁，请稍后再试</p>', 429);
        if (failure === 'reject') return page(reply, '发布失败', '<p class="publish-error" data-kind="rejected">内容涉嫌违规，发布失败</p>');
        if (failure === 'before_submit') return page(reply, '服务器错误', '<p class="publish-error" data-kind="server">服务器开小差了</p>', 500);
        const title = (fields.title ?? '').trim();
        const body = fields.content ?? '';
        const errors: string[] = [];
        if (!title) errors.push('请填写标题');
        if (textLength(title) > 20) errors.push('标题最多20字');
        if (textLength(body) > 1000) errors.push('正文最多1000字');
        if (images < 1 || images > 18) errors.push('请上传1-18张图片');
        if (errors.length) return page(reply, '发布失败', `<p class="publish-error" data-kind="rejected">${escapeHtml(errors.join('；'))}</p>`);
        const scheduledAt = fields.schedule ? Date.parse(fields.schedule) : NaN;
        const note: Note = {
          id: `n${++this.state.seq}`,
          creatorId: c.id,
          title,
          body,
          images,
          imageSha256,
          topics: (fields.topics ?? '')
            .split(/[,，#\s]+/)
            .filter(Boolean)
            .slice(0, 10),
          createdAt: Date.now(),
          scheduledAt: Number.isFinite(scheduledAt) ? scheduledAt : null,
        };
        this.state.notes.push(note);
        this.save();
        if (failure === 'after_submit') return page(reply, '服务器错误', '<p class="publish-error" data-kind="server">网络异常</p>', 502);
        return reply.redirect(`${BASE}/publish/success?noteId=${note.id}`, 303);
      });

      app.get(`${BASE}/publish/success`, async (req, reply) => {
        const id = (req.query as { noteId?: string }).noteId ?? '';
        const note = this.state.notes.find((n) => n.id === id);
        if (!note) return page(reply, '未找到', '<p>笔记不存在</p>', 404);
        return page(
          reply,
          '发布成功',
          `<h2 id="publish-success" data-note-id="${note.id}" data-status="${note.scheduledAt ? 'scheduled' : 'published'}">发布成功</h2><p><a id="note-link" href="${BASE}/notes/${note.id}">查看笔记</a></p>`,
        );
      });

      app.get(`${BASE}/notes`, async (req, reply) => {
        await slow();
        const c = requireCreator(req, reply);
        if (!c) return reply;
        const items = this.notes(c.id)
          // An image note shows what makes it one: its cover, how many images, and its topics.
          .map((n) => {
            const cover = n.imageSha256?.[0] ? `<img class="note-cover" src="${BASE}/images/${n.imageSha256[0]}" alt="封面" width="90">` : '';
            const topics = n.topics.map((t) => `#${escapeHtml(t)}`).join(' ');
            return `<div class="note-item" data-id="${n.id}" data-title="${escapeHtml(n.title)}" data-created="${n.createdAt}" data-images="${n.images}" data-topics="${escapeHtml(n.topics.join(','))}">${cover}<a href="${BASE}/notes/${n.id}">${escapeHtml(n.title)}</a> <span class="note-kind">图文 · ${n.images}张图</span> <span class="note-topics">${topics}</span></div>`;
          })
          .join('');
        return page(reply, '笔记管理', `<h2>笔记管理</h2><div id="note-list">${items || '<p class="empty">暂无笔记</p>'}</div>`);
      });

      app.get(`${BASE}/notes/:id`, async (req, reply) => {
        const note = this.state.notes.find((n) => n.id === (req.params as { id: string }).id);
        if (!note) return page(reply, '未找到', '<p>笔记不存在</p>', 404);
        const comments = this.state.comments.filter((x) => x.noteId === note.id);
        const pictures = (note.imageSha256 ?? []).map((sha) => `<img class="note-image" src="${BASE}/images/${sha}" alt="笔记图片" width="270">`).join('');
        return page(
          reply,
          note.title,
          `<article><h2>${escapeHtml(note.title)}</h2><div id="note-images">${pictures}</div><p>${escapeHtml(note.body).replace(/\n/g, '<br>')}</p><p>${note.topics.map((t) => `#${escapeHtml(t)}`).join(' ')}</p></article>
<h3>评论</h3>${comments.map((x) => `<p class="comment"><b>${escapeHtml(x.author)}</b>：${escapeHtml(x.content)}</p>`).join('') || '<p>暂无评论</p>'}
<form method="post" action="${BASE}/notes/${note.id}/comments"><label>（沙箱）模拟粉丝评论<input name="content" maxlength="200"></label><input type="hidden" name="author" value="沙箱粉丝"><button type="submit">评论</button></form>`,
        );
      });
      app.get(`${BASE}/images/:sha`, async (req, reply) => {
        const pic = this.pictures.get((req.params as { sha: string }).sha);
        if (!pic) return reply.status(404).type('text/plain; charset=utf-8').send('图片不存在');
        return reply.type(pic.type).header('x-content-type-options', 'nosniff').header('cache-control', 'private, max-age=3600').send(pic.buf);
      });
      app.post(`${BASE}/notes/:id/comments`, async (req, reply) => {
        const body = (req.body ?? {}) as { author?: unknown; content?: unknown };
        const id = (req.params as { id: string }).id;
        if (!this.state.notes.some((n) => n.id === id)) return page(reply, '未找到', '<p>笔记不存在</p>', 404);
        const content = typeof body.content === 'string' ? body.content.trim() : '';
        if (content) this.addComment(id, (typeof body.author === 'string' ? body.author : '沙箱粉丝').slice(0, 32), content.slice(0, 200));
        // Only ids of existing notes get here, but the Location header must stay ASCII whatever an id holds.
        return reply.redirect(`${BASE}/notes/${encodeURIComponent(id)}`, 303);
      });

      // JSON API, cookie session, shaped like Xiaohongshu's web API replies.
      const api = (req: FastifyRequest, reply: FastifyReply): Creator | null => {
        if (this.takeFailure(['expire'])) this.expireSessions();
        const c = this.creatorOf(req);
        if (!c) void reply.status(401).send({ code: -100, success: false, msg: '登录已过期', data: {} });
        return c;
      };
      app.get(`${BASE}/api/unread_count`, async (req, reply) => {
        const c = api(req, reply);
        if (!c) return reply;
        const u = c.unread;
        return {
          code: 0,
          success: true,
          msg: '成功',
          data: { unread_count: u.likes + u.connections + u.mentions, likes: u.likes, connections: u.connections, mentions: u.mentions },
        };
      });
      app.get(`${BASE}/api/me`, async (req, reply) => {
        const c = api(req, reply);
        if (!c) return reply;
        return { code: 0, success: true, data: { id: c.id, name: c.name, avatar: c.avatar, followers: c.followers, notes: this.notes(c.id).length } };
      });
      app.get(`${BASE}/api/notes`, async (req, reply) => {
        const c = api(req, reply);
        if (!c) return reply;
        return {
          code: 0,
          success: true,
          data: { notes: this.notes(c.id).map((n) => ({ id: n.id, title: n.title, createdAt: n.createdAt, scheduledAt: n.scheduledAt, images: n.images, topics: n.topics })) },
        };
      });
      app.get(`${BASE}/api/data`, async (req, reply) => {
        const c = api(req, reply);
        if (!c) return reply;
        const q = req.query as { from?: string; to?: string };
        const valid = (d: unknown): d is string => typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d);
        if (!valid(q.from) || !valid(q.to)) return reply.status(400).send({ code: 400, success: false, msg: '日期格式错误', data: null });
        return { code: 0, success: true, data: this.metrics(c.id, q.from, q.to) };
      });
      app.get(`${BASE}/api/comments`, async (req, reply) => {
        const c = api(req, reply);
        if (!c) return reply;
        const mine = new Map(this.notes(c.id).map((n) => [n.id, n]));
        const comments = this.state.comments.filter((x) => mine.has(x.noteId)).map((x) => ({ ...x, noteTitle: mine.get(x.noteId)!.title }));
        return { code: 0, success: true, data: { comments } };
      });
      app.get(`${BASE}/api/topics`, async (req) => {
        const kw = ((req.query as { keyword?: string }).keyword ?? '').trim();
        const base = ['日常', '生活记录', '好物分享', '学习', '职场', '穿搭', '美食', '旅行', '读书', '成长'];
        return { code: 0, success: true, data: { topics: kw ? [kw, `${kw}分享`, `${kw}日常`, ...base.filter((b) => b.includes(kw))] : base } };
      });
      // Test and CLI hooks (the sandbox's own "fan" and its failure switch).
      app.post(`${BASE}/api/notes/:id/comments`, async (req) => {
        const body = (req.body ?? {}) as { author?: string; content?: string };
        const comment = this.addComment((req.params as { id: string }).id, String(body.author ?? '沙箱粉丝').slice(0, 32), String(body.content ?? '').slice(0, 200));
        return comment ? { code: 0, success: true, data: comment } : { code: 404, success: false, msg: '笔记不存在', data: null };
      });
      if (!opts.hooks) return;
      app.post(`${BASE}/api/_control`, async (req) => {
        const body = (req.body ?? {}) as { slowMs?: number; failNext?: SandboxFailure; expireSessions?: boolean | string; advanceDays?: number };
        if (typeof body.advanceDays === 'number' && Number.isInteger(body.advanceDays) && body.advanceDays > 0 && body.advanceDays <= 3660) this.advanceDays(body.advanceDays);
        if (typeof body.slowMs === 'number') this.slowMs = Math.max(0, Math.min(body.slowMs, 60_000));
        if (body.failNext) this.failNext(body.failNext);
        if (body.expireSessions) this.expireSessions(typeof body.expireSessions === 'string' ? body.expireSessions : undefined);
        return { code: 0, success: true, data: { slowMs: this.slowMs, pendingFailures: [...this.failQueue], now: this.now() } };
      });
      app.get(`${BASE}/api/_notes`, async () => ({ code: 0, success: true, data: { notes: this.state.notes } }));
    };
  }
}
