import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import QRCode from 'qrcode';

/**
 * Serves the local Xiaohongshu creator page set (login.html, publish.html and their scripts, in this
 * folder) with the server side they talk to: QR login with cookies (web_session, a1), the publish
 * endpoint, the creator APIs (personal_info, posted notes, topic search) and edith's unread_count
 * and mentions. Both the creator and the edith URL point here. Failures on demand.
 *
 * The data centre (数据中心): /statistics/account (账号概览: the overview cards and the daily trend table of the last
 * 30 complete days) and /statistics/data-analysis (笔记数据: each note's totals), server-rendered with the site's
 * class names; figures are a pure function of the note ids and the date (`xhsNoteTotals`, `xhsAccountDay`), the
 * newest day is yesterday ("数据更新至").
 */
export type XhsFailure = 'captcha' | 'rejected' | 'expire';

export interface XhsCreatorStandin {
  url: string;
  /** `imageSha256`: each uploaded image's hash in order, so a test can tell which pictures arrived (an image note). */
  notes: Array<{ id: string; userId: string; title: string; desc: string; topics: string[]; images: number; imageSha256: string[]; postTime: string | null; time: number }>;
  /** Plays the phone: scans (and confirms) the latest QR shown. */
  scanLatest(confirm: boolean, name?: string): Promise<void>;
  failNext(kind: XhsFailure): void;
  expireSessions(): void;
  addComment(noteId: string, nickname: string, content: string): void;
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;
const shanghaiDay = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);
const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const h32 = (s: string) => createHash('sha256').update(s).digest().readUInt32BE(0);
/** The trend table's window (the page's 近30日). */
export const XHS_TREND_DAYS = 30;

/** A note's totals at the end of `day` (it grows for ten days after posting, then holds). */
export function xhsNoteTotals(note: { id: string; time: number }, day: string) {
  const k = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${shanghaiDay(note.time)}T00:00:00Z`)) / DAY_MS) + 1;
  if (k <= 0) return { view: 0, like: 0, collect: 0, comment: 0, share: 0 };
  const h = h32(`xhs-note:${note.id}`);
  const view = Math.floor(((300 + (h % 2000)) * Math.min(k, 10)) / 10);
  return {
    view,
    like: Math.floor((view * (5 + ((h >>> 8) % 5))) / 100),
    collect: Math.floor((view * (2 + ((h >>> 12) % 3))) / 100),
    comment: Math.floor(view / 80),
    share: Math.floor(view / 120),
  };
}

/** The account's row of the trend table: the day's amounts over its notes; followers grow with likes (one per five). */
export function xhsAccountDay(fans: number, notes: Array<{ id: string; time: number }>, day: string) {
  const sum = (d: string) =>
    notes.reduce(
      (a, n) => {
        const t = xhsNoteTotals(n, d);
        return { view: a.view + t.view, like: a.like + t.like, collect: a.collect + t.collect, comment: a.comment + t.comment, share: a.share + t.share };
      },
      { view: 0, like: 0, collect: 0, comment: 0, share: 0 },
    );
  const [today, before] = [sum(day), sum(plusDays(day, -1))];
  const fansAt = (likes: number) => fans + Math.floor(likes / 5);
  return {
    day,
    view: today.view - before.view,
    like: today.like - before.like,
    collect: today.collect - before.collect,
    comment: today.comment - before.comment,
    share: today.share - before.share,
    netFans: fansAt(today.like) - fansAt(before.like),
    fans: fansAt(today.like),
  };
}

const num = (n: number) => n.toLocaleString('en-US');
const esc = (v: string) => v.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function accountPage(fans: number, notes: Array<{ id: string; time: number }>, yesterday: string) {
  const rows: string[] = [];
  for (let i = 0; i < XHS_TREND_DAYS; i++) {
    const d = xhsAccountDay(fans, notes, plusDays(yesterday, -i));
    rows.push(
      `<tr class="d-table-row"><td class="d-table-cell">${d.day}</td>${[d.view, d.like, d.collect, d.comment, d.share, d.netFans, d.fans].map((v) => `<td class="d-table-cell">${num(v)}</td>`).join('')}</tr>`,
    );
  }
  const last = xhsAccountDay(fans, notes, yesterday);
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>账号概览 - 小红书创作服务平台（本地页面集）</title></head><body>
<div class="data-center"><div class="menu"><a class="menu-item active" href="/statistics/account">账号概览</a><a class="menu-item" href="/statistics/data-analysis">笔记数据</a></div>
<div class="account-overview"><div class="header"><span class="title">账号诊断</span><span class="data-update-time">数据更新至 ${yesterday}</span></div>
<div class="overview-cards"><div class="overview-card" data-key="fans"><span class="label">总粉丝数</span><span class="num">${num(last.fans)}</span></div>
<div class="overview-card" data-key="view"><span class="label">昨日观看</span><span class="num">${num(last.view)}</span></div></div>
<div class="d-tabs"><div class="d-tab">近7日</div><div class="d-tab active">近30日</div></div>
<table class="d-table trend-table"><thead><tr><th>日期</th><th>观看数</th><th>点赞数</th><th>收藏数</th><th>评论数</th><th>分享数</th><th>净涨粉</th><th>粉丝总数</th></tr></thead><tbody>${rows.join('')}</tbody></table>
</div></div></body></html>`;
}

function notesPage(notes: Array<{ id: string; title: string; time: number }>, yesterday: string) {
  const items = notes
    .filter((n) => shanghaiDay(n.time) <= yesterday)
    .map((n) => {
      const t = xhsNoteTotals(n, yesterday);
      const at = new Date(n.time + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
      const cell = (key: string, label: string, v: number) =>
        `<div class="data-cell" data-key="${key}"><span class="label">${label}</span><span class="value">${num(v)}</span></div>`;
      return `<div class="note-data-item" data-note-id="${n.id}"><div class="note-info"><span class="title">${esc(n.title)}</span><span class="publish-time">发布于 ${at}</span></div><div class="note-data">${cell('view', '观看', t.view)}${cell('like', '点赞', t.like)}${cell('collect', '收藏', t.collect)}${cell('comment', '评论', t.comment)}${cell('share', '分享', t.share)}</div></div>`;
    });
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>笔记数据 - 小红书创作服务平台（本地页面集）</title></head><body>
<div class="data-center"><div class="menu"><a class="menu-item" href="/statistics/account">账号概览</a><a class="menu-item active" href="/statistics/data-analysis">笔记数据</a></div>
<div class="note-data-list"><div class="header"><span class="data-update-time">数据更新至 ${yesterday}</span></div>${items.join('') || '<div class="empty">暂无笔记数据</div>'}</div></div></body></html>`;
}

const dir = fileURLToPath(new URL('.', import.meta.url));
const file = (name: string) => readFileSync(`${dir}/${name}`, 'utf8');

export async function startXhsCreatorStandin(opts: { now?: () => number } = {}): Promise<XhsCreatorStandin> {
  const now = opts.now ?? Date.now;
  const qrs = new Map<string, { status: 'waiting' | 'scanned' | 'confirmed'; userId?: string }>();
  const users = new Map<string, { id: string; name: string; fans: number }>();
  const sessions = new Map<string, string>();
  const comments: Array<{ id: string; noteId: string; nickname: string; content: string; time: number }> = [];
  const failures: XhsFailure[] = [];
  let latestQr = '';
  const take = (kinds: XhsFailure[]) => {
    const i = failures.findIndex((f) => kinds.includes(f));
    return i < 0 ? null : failures.splice(i, 1)[0]!;
  };

  const state: XhsCreatorStandin = {
    url: '',
    notes: [],
    async scanLatest(confirm, name = '小红薯创作者') {
      const qr = qrs.get(latestQr);
      if (!qr) throw new Error('no QR shown yet');
      qr.status = 'scanned';
      if (confirm) {
        const id = `5f${randomBytes(11).toString('hex')}`;
        users.set(id, { id, name, fans: 321 });
        qr.status = 'confirmed';
        qr.userId = id;
      }
    },
    failNext: (kind) => void failures.push(kind),
    expireSessions: () => sessions.clear(),
    addComment: (noteId, nickname, content) => void comments.push({ id: `m${comments.length + 1}`, noteId, nickname, content, time: Date.now() }),
    close: () => new Promise((r) => server.close(() => r())),
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://standin');
        const p = url.pathname;
        const cookie = /(?:^|;\s*)web_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
        if (take(['expire'])) sessions.clear();
        const userId = cookie ? sessions.get(cookie) : undefined;
        const html = (body: string) => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(body);
        };
        const json = (payload: unknown, status = 200, headers: Record<string, string | string[]> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
          res.end(JSON.stringify(payload));
        };
        const needLogin = () => json({ code: -100, success: false, msg: '登录已过期', data: {} }, 401);
        if (p === '/login') return html(file('login.html'));
        if (p.startsWith('/static/') && p.endsWith('.js')) {
          res.writeHead(200, { 'content-type': 'application/javascript' });
          return res.end(file(p.slice('/static/'.length)));
        }
        if (p === '/api/cas/customer/web/qr-code/create') {
          latestQr = randomBytes(8).toString('hex');
          qrs.set(latestQr, { status: 'waiting' });
          return json({
            code: 0,
            success: true,
            data: { qr_id: latestQr, url: await QRCode.toDataURL(`https://www.xiaohongshu.com/mobile/login?qrId=${latestQr}`, { margin: 1, width: 160 }) },
          });
        }
        if (p === '/api/cas/customer/web/qr-code/status') {
          const qr = qrs.get(url.searchParams.get('qr_id') ?? '');
          if (!qr) return json({ code: 0, success: true, data: { status: 'expired' } });
          if (qr.status === 'confirmed' && qr.userId) {
            const token = randomBytes(20).toString('hex');
            sessions.set(token, qr.userId);
            return json({ code: 0, success: true, data: { status: 'confirmed' } }, 200, {
              'set-cookie': [`web_session=${token}; Path=/; HttpOnly`, `a1=${randomBytes(16).toString('hex')}; Path=/`],
            });
          }
          return json({ code: 0, success: true, data: { status: qr.status } });
        }
        if (p === '/new/home') return html(userId ? '<h1>创作服务平台首页</h1>' : '<script>location.href="/login"</script>');
        if (p === '/publish/publish') {
          if (!userId) {
            res.writeHead(302, { location: '/login?redirectReason=401' });
            return res.end();
          }
          return html(file('publish.html'));
        }
        if (p === '/publish/success') return html('<h1 class="success">发布成功</h1>');
        if (p === '/statistics/account' || p === '/statistics/data-analysis') {
          if (!userId) {
            res.writeHead(302, { location: '/login?redirectReason=401' });
            return res.end();
          }
          const mine = state.notes.filter((n) => n.userId === userId);
          const yesterday = plusDays(shanghaiDay(now()), -1);
          return html(p === '/statistics/account' ? accountPage(users.get(userId)!.fans, mine, yesterday) : notesPage(mine, yesterday));
        }
        if (!userId) return needLogin();
        const user = users.get(userId)!;
        if (p === '/api/galaxy/creator/home/personal_info') {
          return json({
            code: 0,
            success: true,
            data: {
              user_id: user.id,
              red_id: '9527',
              name: user.name,
              avatar: 'https://sns-avatar.example/a.jpg',
              fans_count: user.fans,
              notes_count: state.notes.filter((n) => n.userId === user.id).length,
            },
          });
        }
        if (p === '/api/galaxy/creator/note/user/posted') {
          const notes = state.notes.filter((n) => n.userId === user.id).reverse();
          return json({
            code: 0,
            success: true,
            data: {
              notes: notes.map((n) => ({
                id: n.id,
                display_title: n.title,
                time: n.time,
                type: 'normal',
                image_count: n.images,
                schedule_post_time: n.postTime ? Date.parse(n.postTime) : null,
              })),
            },
          });
        }
        if (p === '/web_api/sns/v1/search/topic') {
          const kw = url.searchParams.get('keyword') ?? '';
          return json({
            code: 0,
            success: true,
            data: {
              topic_info_dtos: [
                { name: kw, view_num: 1000 },
                { name: `${kw}日常`, view_num: 10 },
              ],
            },
          });
        }
        if (p === '/api/sns/web/unread_count') {
          const mine = new Set(state.notes.filter((n) => n.userId === user.id).map((n) => n.id));
          const mentions = comments.filter((c) => mine.has(c.noteId)).length;
          return json({ code: 0, success: true, msg: '成功', data: { unread_count: mentions + 2, likes: 2, connections: 0, mentions } });
        }
        if (p === '/api/sns/web/v1/you/mentions') {
          const mine = new Map(state.notes.filter((n) => n.userId === user.id).map((n) => [n.id, n]));
          const list = comments
            .filter((c) => mine.has(c.noteId))
            .map((c) => ({
              id: c.id,
              time: Math.floor(c.time / 1000),
              type: 'comment/item',
              user_info: { nickname: c.nickname },
              comment_info: { content: c.content },
              item_info: { id: c.noteId, content: mine.get(c.noteId)!.title },
            }));
          return json({ code: 0, success: true, data: { message_list: list, has_more: false } });
        }
        if (p === '/web_api/sns/v2/note' && req.method === 'POST') {
          const failure = take(['captcha', 'rejected']);
          if (failure === 'captcha') return json({ code: 461, success: false, msg: '需要验证' }, 461);
          if (failure === 'rejected') return json({ code: -9101, success: false, msg: '内容包含违规信息，请修改后发布' });
          // The multipart body read by the platform's own FormData parser (undici), as the real site's server would.
          const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': String(req.headers['content-type'] ?? '') } }).formData();
          const field = (name: string) => String(form.get(name) ?? '');
          const files = form.getAll('images').filter((f): f is File => typeof f !== 'string');
          const bytes = await Promise.all(files.map(async (f) => Buffer.from(await f.arrayBuffer())));
          const images = bytes.length;
          const title = field('title');
          if (!images || images > 18) return json({ code: -1, success: false, msg: '请上传1-18张图片' });
          // The image flow takes pictures only: png, jpeg, gif or webp by their first bytes.
          const isImage = (b: Buffer) =>
            /^(89504e47|ffd8ff|47494638)/.test(b.subarray(0, 4).toString('hex')) ||
            (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP');
          if (bytes.some((b) => !isImage(b))) return json({ code: -1, success: false, msg: '图片格式不支持，请上传jpg、png格式图片' });
          if ([...title].length > 20) return json({ code: -1, success: false, msg: '标题最多20个字' });
          const note = {
            id: randomBytes(12).toString('hex'),
            userId: user.id,
            title,
            desc: field('desc'),
            topics: field('topics').split(',').filter(Boolean),
            images,
            imageSha256: bytes.map((b) => createHash('sha256').update(b).digest('hex')),
            postTime: field('post_time') || null,
            time: Date.now(),
          };
          state.notes.push(note);
          return json({ code: 0, success: true, data: { id: note.id } });
        }
        return json({ code: 404, success: false, msg: 'not found' }, 404);
      })().catch((err: unknown) => {
        res.writeHead(500);
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
