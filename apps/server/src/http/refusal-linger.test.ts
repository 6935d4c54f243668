import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, TOKEN_NAME } from '@inkstone/shared';
import { nextIp, startTestApp, type TestApp } from '../test/app.js';
import { loginByPhone } from '../test/auth-helpers.js';
import { pushBody, type PushOutcome } from './raw-http.js';

/**
 * A refusal answered while the client is still sending its body (a refused upload, an over-limit or wrongly typed
 * body, a URL over the header limit) must reach the client: the server writes the envelope, half-closes, and reads
 * and drops what the client still sends for a bounded time instead of closing at once, which reset the connection
 * and lost the answer (the client's next write failed before it read what had arrived).
 *
 * Each refusal is tried with two clients: one that reads while it sends and stops once the answer is in (a browser),
 * and one that sends several MiB more before it reads anything (simple clients; this one lost the answer every time).
 */

const MiB = 1024 * 1024;
const TRIES = 10;

describe('refusals while the client is still sending', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = (await loginByPhone(t)).tokenValue;
  });
  afterAll(async () => {
    await t?.close();
  });

  const multipartHead = (path: string, filename: string, type: string, auth: boolean) => {
    const part = `--zz\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
    return (
      `POST ${path} HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: ${nextIp()}\r\n${auth ? `${TOKEN_NAME}: ${token}\r\n` : ''}` +
      `Content-Type: multipart/form-data; boundary=zz\r\nContent-Length: ${1024 ** 3}\r\n\r\n${part}`
    );
  };

  /** Every try read the whole envelope, the server then closed its side, and nothing was reset. */
  const expectAnswered = (outcomes: PushOutcome[], code: number, msg: string) => {
    const seen = outcomes.map((o) => ({
      code: o.reply ? (JSON.parse(o.reply.body) as { code: number }).code : null,
      msg: o.reply ? (JSON.parse(o.reply.body) as { msg: string }).msg : null,
      connection: o.reply?.headers['connection'] ?? null,
      serverEnded: o.serverEnded,
      error: o.error,
    }));
    expect(seen).toEqual(outcomes.map(() => ({ code, msg, connection: 'close', serverEnded: true, error: null })));
  };

  /** TRIES tries, alternating the two clients; `extra` is what the late reader sends on top of the refused part. */
  const tries = async (head: () => string, o: { before?: number; extra?: number; frame?: (chunk: Buffer) => Buffer } = {}) => {
    const out: PushOutcome[] = [];
    for (let i = 0; i < TRIES; i++) {
      const readWhileSending = i % 2 === 0;
      const bodyBytes = readWhileSending ? 1024 ** 3 : (o.before ?? 0) + (o.extra ?? 8 * MiB);
      out.push(await pushBody(t.url, head(), { bodyBytes, readWhileSending, frame: o.frame }));
    }
    return out;
  };

  it('an image upload of the wrong type (1 GiB declared)', async () => {
    const out = await tries(() => multipartHead('/api/wx/upload', 'photo.png', 'image/png', true));
    expectAnswered(out, ErrorCode.FILE_TYPE_MISMATCH, '文件类型不匹配');
  });

  it('an image over 20 MB, refused once it crosses the limit', async () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64 * 1024 - 16)]);
    const out: PushOutcome[] = [];
    for (let i = 0; i < TRIES; i++) {
      const readWhileSending = i % 2 === 0;
      out.push(
        await pushBody(t.url, multipartHead('/api/wx/upload', 'big.png', 'image/png', true), {
          bodyBytes: readWhileSending ? 1024 ** 3 : 28 * MiB,
          readWhileSending,
          chunk: png,
        }),
      );
    }
    expectAnswered(out, ErrorCode.FILE_TOO_LARGE, '请上传20MB以内的文件');
  });

  it('a quoted file of a type that is not accepted', async () => {
    const out = await tries(() => multipartHead('/api/writing/file/upload', 'a.exe', 'application/octet-stream', true));
    expectAnswered(out, ErrorCode.QUOTE_FILE_TYPE_UNSUPPORTED, '请上传docx、pdf、txt、md格式的文件');
  });

  it('an upload without a session (refused before the body is read)', async () => {
    const out = await tries(() => multipartHead('/api/wx/upload', 'photo.png', 'image/png', false));
    expectAnswered(out, ErrorCode.NOT_LOGGED_IN, '请先登录');
  });

  it('a JSON body declared over the body limit', async () => {
    const head = () => `POST /api/auth/doLogin0 HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: ${nextIp()}\r\nContent-Type: application/json\r\nContent-Length: ${1024 ** 3}\r\n\r\n`;
    expectAnswered(await tries(head), ErrorCode.PAYLOAD_TOO_LARGE, '请求内容过大');
  });

  it('a chunked JSON body that grows past the body limit', async () => {
    const head = () => `POST /api/auth/doLogin0 HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: ${nextIp()}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const frame = (chunk: Buffer) => Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    expectAnswered(await tries(head, { before: 1 * MiB, frame }), ErrorCode.PAYLOAD_TOO_LARGE, '请求内容过大');
  });

  it('a large body of a content type no route accepts', async () => {
    const head = () => `POST /api/auth/doLogin0 HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: ${nextIp()}\r\nContent-Type: application/xml\r\nContent-Length: ${1024 ** 3}\r\n\r\n`;
    expectAnswered(await tries(head), ErrorCode.VALIDATION, '不支持的请求内容类型');
  });

  it('a URL over the header limit, with the client still writing it', async () => {
    // Twenty connections at once, each writing a request line that never ends.
    const head = () => `GET /api/auth/isRegister?phoneOrOpenId=`;
    const out = await Promise.all(Array.from({ length: 20 }, (_, i) => pushBody(t.url, head(), { bodyBytes: i % 2 === 0 ? 1024 ** 3 : 8 * MiB, readWhileSending: i % 2 === 0 })));
    expectAnswered(out, ErrorCode.VALIDATION, '请求头或网址过长');
  });

  it('the server stays healthy and keeps serving afterwards', async () => {
    const res = await t.call('GET', '/auth/isLogin', { token });
    expect(res.code).toBe(0);
  });
});
