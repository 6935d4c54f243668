import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, TOKEN_NAME } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../test/app.js';
import { loginByPhone } from '../test/auth-helpers.js';
import { describeOnDatabases } from '../test/database.js';
import { parseResponse, rawRequest } from './raw-http.js';
import { connectionDrainOf } from './connection-drain.js';
import { hotLaneOf } from './hot-lane.js';

const hasChinese = /[\u4e00-\u9fff]/;

describeOnDatabases('input hardening on %s', (dbKind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind });
    token = (await loginByPhone(t)).tokenValue;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('NUL bytes', () => {
    it('are refused in the query, naming the field', async () => {
      const res = await t.call('GET', '/auth/isRegister?phoneOrOpenId=a%00b');
      expect(res).toMatchObject({ status: 200, code: ErrorCode.VALIDATION, msg: 'phoneOrOpenId：不能包含空字符' });
    });

    it('are refused in a JSON body, naming the (nested) field', async () => {
      const res = await t.call('POST', '/persona/save', { token, body: { name: 'a\u0000b' } });
      expect(res).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'name：不能包含空字符' });
      const nested = await t.call('POST', '/persona/save', { token, body: { name: '人设', tabooWords: ['ok', 'x\u0000'] } });
      expect(nested).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'tabooWords.1：不能包含空字符' });
    });

    it('are refused in path parameters and in object keys, without echoing the key', async () => {
      const param = await t.call('GET', '/features/a%00b');
      expect(param).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'clientKey：不能包含空字符' });
      const key = await t.call('POST', '/engine/v2/log/collect', { body: { level: 'info', extra: { 'k\u0000<x>': 1 } } });
      expect(key).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'extra：不能包含空字符' });
      expect(key.msg).not.toContain('<x>');
    });

    it('lone UTF-16 surrogates (which jsonb refuses) are refused the same way', async () => {
      const res = await t.call('POST', '/writing/style/save/homepage/input', {
        token,
        rawBody: '{"createType":"article","abilityType":"x\\ud800"}',
        headers: { 'content-type': 'application/json' },
      });
      expect(res).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'abilityType：包含无效的字符' });
      const paired = await t.call('POST', '/writing/style/save/homepage/input', { token, body: { createType: 'article', abilityType: '😀' } });
      expect(paired.code).toBe(0);
    });

    it('cannot reach us in headers: Node refuses them, and the refusal is the envelope', async () => {
      const res = await rawRequest(t.url, `GET /api/auth/nowLoginUser HTTP/1.1\r\nHost: a\r\ninkstone-token: ab\u0000cd\r\n\r\n`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ code: ErrorCode.VALIDATION, msg: '请求格式不正确' });
    });

    it('are refused in form bodies too', async () => {
      const res = await t.call('POST', '/auth/doLogin0', {
        rawBody: 'phone=13800138000&code=12%0034',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'code：不能包含空字符' });
    });
  });

  describe('PostgreSQL text errors', () => {
    it('map to 1001 when NUL reaches the database past the guard', async () => {
      // The multipart upload reads its fields in the handler, after the guard: the database refuses the name.
      const form = new FormData();
      form.append('file', new Blob(['正文内容'], { type: 'text/plain' }), 'a\u0000b.txt');
      const res = await fetch(`${t.url}/api/writing/file/upload`, { method: 'POST', headers: { 'inkstone-token': token }, body: form });
      const env = (await res.json()) as { code: number; msg: string };
      expect(env.code).toBe(ErrorCode.VALIDATION);
      expect(env.msg).toMatch(hasChinese);
    });
  });

  describe('JSON nesting', () => {
    it('refuses bodies nested deeper than 64 levels with a validation error', async () => {
      const deep = '['.repeat(5000) + ']'.repeat(5000);
      const res = await t.call('POST', '/engine/v2/log/collect', { rawBody: `{"a":${deep}}`, headers: { 'content-type': 'application/json' } });
      expect(res).toMatchObject({ status: 200, code: ErrorCode.VALIDATION });
      expect(res.msg).toContain('嵌套层级');
      const fine = await t.call('POST', '/engine/v2/log/collect', { body: { a: JSON.parse('['.repeat(60) + ']'.repeat(60)) } });
      expect(fine.code).toBe(0);
      const alive = await fetch(`${t.url}/healthz`);
      expect(alive.status).toBe(200);
    });
  });

  describe('framework-level errors stay in the envelope and never echo the input', () => {
    const marker = 'ECHO_MARKER_7f3a';

    it('a URL over 16 KiB (HTTP 431 from Node)', async () => {
      const res = await rawRequest(t.url, `GET /api/auth/isRegister?phoneOrOpenId=${marker}${'x'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`);
      expect(res.status).toBe(200);
      const env = JSON.parse(res.body) as { code: number; msg: string };
      expect(env.code).toBe(ErrorCode.VALIDATION);
      expect(env.msg).toMatch(hasChinese);
      expect(res.text).not.toContain(marker);
      expect(res.closed).toBe(true);
    });

    it('a malformed request line (HTTP 400 from Node)', async () => {
      const res = await rawRequest(t.url, `GET /api/${marker} HTTP/1.1\r\nHost: a\r\nBad Header Line\r\n\r\n`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ code: ErrorCode.VALIDATION, msg: '请求格式不正确' });
      expect(res.text).not.toContain(marker);
    });

    it('a path parameter over 100 characters (HTTP 414 from Fastify)', async () => {
      const res = await t.call('GET', `/features/${marker}${'y'.repeat(200)}`);
      expect(res).toMatchObject({ status: 200, code: ErrorCode.VALIDATION, msg: '路径参数过长' });
      expect(JSON.stringify(res)).not.toContain(marker);
    });

    it('a broken percent-encoding in the path (HTTP 400 from the router)', async () => {
      const res = await rawRequest(t.url, `GET /api/features/${marker}%E0%A4%A HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ code: ErrorCode.VALIDATION, msg: '网址格式不正确' });
      expect(res.text).not.toContain(marker);
    });

    it('an unsupported content type, a wrong method and an unknown path', async () => {
      const media = await t.call('POST', '/auth/doLogin0', { rawBody: `<x>${marker}</x>`, headers: { 'content-type': 'application/xml' } });
      expect(media).toMatchObject({ status: 200, code: ErrorCode.VALIDATION, msg: '不支持的请求内容类型' });
      const method = await t.call('PATCH', '/auth/isLogin');
      expect(method).toMatchObject({ status: 200, code: ErrorCode.NOT_FOUND, msg: '接口不存在' });
      const publishApi = await t.call('DELETE', `${t.url}/publish-api/${marker}`);
      expect(publishApi).toMatchObject({ status: 200, code: ErrorCode.NOT_FOUND });
      expect(JSON.stringify([media, method, publishApi])).not.toContain(marker);
    });
  });

  describe('an unauthenticated small body', () => {
    it('is refused and its keep-alive connection carries the next request', async () => {
      // Two requests on one connection, the second sent only after the first answer has arrived, as a keep-alive
      // client does. Closing after the refusal raced such a client ("other side closed").
      const { hostname, port } = new URL(t.url);
      const socket = net.connect(Number(port), hostname);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      let received = '';
      let closed = false;
      socket.on('data', (d) => (received += d.toString('utf8')));
      socket.on('error', () => undefined);
      socket.on('close', () => (closed = true));
      const waitFor = async (count: number) => {
        const started = Date.now();
        while (received.split('HTTP/1.1 ').length - 1 < count && !closed && Date.now() - started < 3000) await new Promise((r) => setTimeout(r, 10));
      };
      const body = JSON.stringify({ channel: 'sms' });
      socket.write(`POST /api/homepage/recall/channel HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      await waitFor(1);
      const first = parseResponse(received, closed);
      expect(JSON.parse(first.body)).toMatchObject({ code: ErrorCode.NOT_LOGGED_IN });
      expect(first.headers['connection']).not.toBe('close');
      await new Promise((r) => setTimeout(r, 100));
      expect(closed).toBe(false);
      socket.write(`GET /api/auth/isLogin HTTP/1.1\r\nHost: a\r\n${TOKEN_NAME}: ${token}\r\n\r\n`);
      await waitFor(2);
      socket.destroy();
      const second = parseResponse(received.slice(received.indexOf('HTTP/1.1', 10)), false);
      expect(second.status).toBe(200);
      expect(JSON.parse(second.body)).toMatchObject({ code: 0 });
    });
  });

  describe('an unauthenticated upload', () => {
    it('is refused before its body is read, and the connection is closed', async () => {
      const { hostname, port } = new URL(t.url);
      const socket = net.connect(Number(port), hostname);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const started = Date.now();
      socket.write('POST /api/writing/file/upload HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=zz\r\n' + `Content-Length: ${1024 ** 3}\r\n\r\n`);
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let sent = 0;
      let received = '';
      let closedAt = 0;
      socket.on('data', (d) => (received += d.toString('utf8')));
      socket.on('error', () => undefined);
      const closed = new Promise<void>((resolve) =>
        socket.once('close', () => {
          closedAt = Date.now();
          resolve();
        }),
      );
      // Keep sending (a body that would take a GiB) until the server hangs up or 5 s pass.
      const pump = (async () => {
        while (!socket.destroyed && Date.now() - started < 5000) {
          if (!socket.write(chunk)) await new Promise((r) => setTimeout(r, 5));
          sent += chunk.length;
          if (sent % (1024 * 1024) === 0) await new Promise((r) => setImmediate(r));
        }
      })();
      await Promise.race([closed, new Promise((r) => setTimeout(r, 6000))]);
      await pump;
      socket.destroy();
      const res = parseResponse(received, true);
      expect(res.status).toBe(200);
      expect(res.headers['connection']).toBe('close');
      expect(JSON.parse(res.body)).toMatchObject({ code: ErrorCode.NOT_LOGGED_IN });
      expect(closedAt).toBeGreaterThan(0);
      expect(closedAt - started).toBeLessThan(3000);
      expect(sent).toBeLessThan(256 * 1024 * 1024);
    });
  });
});

describe('shutting down', () => {
  /** A raw connection to the app, collecting what it receives; `closed` resolves when the server closes it. */
  const connect = async (t: TestApp) => {
    const { hostname, port } = new URL(t.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.on('error', () => undefined);
    const conn = { socket, received: '', closed: new Promise<'socket closed'>((r) => socket.once('close', () => r('socket closed'))) };
    socket.on('data', (d) => (conn.received += d.toString('utf8')));
    return conn;
  };
  /** A login call whose 2-byte body is still to come: it holds its request open until the body is written. */
  const HELD_REQUEST = 'POST /api/auth/doLogin0 HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n';

  it('answers a request that arrives while closing with the envelope, not a raw 503', async () => {
    const t = await startTestApp();
    const conn = await connect(t);
    const socket = conn.socket;
    // The first request holds the connection open (its body is still to come) while the server starts closing.
    socket.write(HELD_REQUEST);
    await new Promise((r) => setTimeout(r, 100));
    const closing = t.app.close();
    await new Promise((r) => setTimeout(r, 100));
    // Finish it and pipeline a second request behind it: the second arrives during shutdown.
    socket.write('{}GET /api/auth/isLogin HTTP/1.1\r\nHost: a\r\n\r\n');
    await Promise.race([conn.closed, new Promise((r) => setTimeout(r, 3000))]);
    socket.destroy();
    await closing;
    await t.container.close();
    const second = conn.received.slice(conn.received.indexOf('HTTP/1.1', 10));
    const res = parseResponse(second, true);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE, msg: '服务正在重启，请稍后再试' });
  });

  it('while draining (a SIGTERM, before Fastify closes) a kept-alive connection stays open, and a poll on it gets the 1008 envelope, not the hot lane', async () => {
    const t = await startTestApp();
    const token = (await loginByPhone(t)).tokenValue;
    const conn = await connect(t);
    /** Resolves once `n` whole replies (or the close) have arrived. */
    const replies = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          const whole = conn.received
            .split('HTTP/1.1 ')
            .slice(1)
            .filter((r) => {
              const res = parseResponse(`HTTP/1.1 ${r}`, false);
              return Buffer.byteLength(res.body) >= Number(res.headers['content-length']);
            });
          if (whole.length >= n) resolve();
        };
        conn.socket.on('data', check);
        void conn.closed.then(() => resolve());
        check();
      });
    const poll = `GET /api/notice/bubble HTTP/1.1\r\nHost: a\r\n${TOKEN_NAME}: ${token}\r\n\r\n`;
    conn.socket.write(poll);
    await replies(1);
    expect(JSON.parse(parseResponse(conn.received, false).body)).toMatchObject({ code: 0 });
    const answered = hotLaneOf(t.app)!.stats().answered;
    const drain = connectionDrainOf(t.app);
    drain.begin();
    drain.closeAfterReplies();
    // The idle connection was not closed: the next request on it is answered.
    conn.socket.write(poll);
    await replies(2);
    const second = parseResponse(conn.received.slice(conn.received.indexOf('HTTP/1.1', 10)), false);
    expect(JSON.parse(second.body)).toEqual({ code: ErrorCode.SERVICE_UNAVAILABLE, msg: '服务正在重启，请稍后再试', data: null });
    expect(second.headers['connection']).toBe('close');
    expect(hotLaneOf(t.app)!.stats().answered).toBe(answered);
    expect(await conn.closed).toBe('socket closed');
    await t.close();
  });

  it('closes promptly: neither a reply under way as closing began nor a connection opened ahead of need holds it', async () => {
    const t = await startTestApp();
    const busy = await connect(t);
    // Opened and never used, as Chromium opens one ahead of its next request: Node never counts it as idle.
    const spare = await connect(t);
    busy.socket.write(HELD_REQUEST);
    await new Promise((r) => setTimeout(r, 100));
    const closing = t.app.close().then(() => 'app closed' as const);
    await new Promise((r) => setTimeout(r, 100));
    // The request finishes after closing began, and its client keeps the connection.
    busy.socket.write('{}');
    // Without the drain the close waited out the 72 s keep-alive timeout, and for the spare connection, its client.
    const waited = new Promise<'still open'>((r) => setTimeout(() => r('still open'), 10_000).unref());
    expect(await Promise.race([closing, waited])).toBe('app closed');
    expect(await Promise.race([busy.closed, waited])).toBe('socket closed');
    expect(await Promise.race([spare.closed, waited])).toBe('socket closed');
    await t.container.close();
    // The request under way was answered, not cut.
    const res = parseResponse(busy.received, true);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ code: ErrorCode.VALIDATION });
  });
});
