import { randomBytes } from 'node:crypto';
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
 */
export type XhsFailure = 'captcha' | 'rejected' | 'expire';

export interface XhsCreatorStandin {
  url: string;
  notes: Array<{ id: string; userId: string; title: string; desc: string; topics: string[]; images: number; postTime: string | null; time: number }>;
  /** Plays the phone: scans (and confirms) the latest QR shown. */
  scanLatest(confirm: boolean, name?: string): Promise<void>;
  failNext(kind: XhsFailure): void;
  expireSessions(): void;
  addComment(noteId: string, nickname: string, content: string): void;
  close(): Promise<void>;
}

const dir = fileURLToPath(new URL('.', import.meta.url));
const file = (name: string) => readFileSync(`${dir}/${name}`, 'utf8');

export async function startXhsCreatorStandin(): Promise<XhsCreatorStandin> {
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
          return json({ code: 0, success: true, data: { qr_id: latestQr, url: await QRCode.toDataURL(`https://www.xiaohongshu.com/mobile/login?qrId=${latestQr}`, { margin: 1, width: 160 }) } });
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
        if (!userId) return needLogin();
        const user = users.get(userId)!;
        if (p === '/api/galaxy/creator/home/personal_info') {
          return json({ code: 0, success: true, data: { user_id: user.id, red_id: '9527', name: user.name, avatar: 'https://sns-avatar.example/a.jpg', fans_count: user.fans, notes_count: state.notes.filter((n) => n.userId === user.id).length } });
        }
        if (p === '/api/galaxy/creator/note/user/posted') {
          const notes = state.notes.filter((n) => n.userId === user.id).reverse();
          return json({ code: 0, success: true, data: { notes: notes.map((n) => ({ id: n.id, display_title: n.title, time: n.time, type: 'normal', schedule_post_time: n.postTime ? Date.parse(n.postTime) : null })) } });
        }
        if (p === '/web_api/sns/v1/search/topic') {
          const kw = url.searchParams.get('keyword') ?? '';
          return json({ code: 0, success: true, data: { topic_info_dtos: [{ name: kw, view_num: 1000 }, { name: `${kw}日常`, view_num: 10 }] } });
        }
        if (p === '/api/sns/web/unread_count') {
          const mine = new Set(state.notes.filter((n) => n.userId === user.id).map((n) => n.id));
          const mentions = comments.filter((c) => mine.has(c.noteId)).length;
          return json({ code: 0, success: true, msg: '成功', data: { unread_count: mentions + 2, likes: 2, connections: 0, mentions } });
        }
        if (p === '/api/sns/web/v1/you/mentions') {
          const mine = new Map(state.notes.filter((n) => n.userId === user.id).map((n) => [n.id, n]));
          const list = comments.filter((c) => mine.has(c.noteId)).map((c) => ({ id: c.id, time: Math.floor(c.time / 1000), type: 'comment/item', user_info: { nickname: c.nickname }, comment_info: { content: c.content }, item_info: { id: c.noteId, content: mine.get(c.noteId)!.title } }));
          return json({ code: 0, success: true, data: { message_list: list, has_more: false } });
        }
        if (p === '/web_api/sns/v2/note' && req.method === 'POST') {
          const failure = take(['captcha', 'rejected']);
          if (failure === 'captcha') return json({ code: 461, success: false, msg: '需要验证' }, 461);
          if (failure === 'rejected') return json({ code: -9101, success: false, msg: '内容包含违规信息，请修改后发布' });
          const raw = Buffer.concat(chunks).toString('latin1');
          const field = (name: string) => {
            const m = new RegExp(`name="${name}"\\r\\n\\r\\n([\\s\\S]*?)\\r\\n--`).exec(raw);
            return m ? Buffer.from(m[1]!, 'latin1').toString('utf8') : '';
          };
          const images = (raw.match(/name="images"; filename=/g) ?? []).length;
          const title = field('title');
          if (!images || images > 18) return json({ code: -1, success: false, msg: '请上传1-18张图片' });
          if ([...title].length > 20) return json({ code: -1, success: false, msg: '标题最多20个字' });
          const note = { id: randomBytes(12).toString('hex'), userId: user.id, title, desc: field('desc'), topics: field('topics').split(',').filter(Boolean), images, postTime: field('post_time') || null, time: Date.now() };
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
