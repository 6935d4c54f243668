import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@inkstone/shared';
import { parseResponse, type RawResponse } from './http/raw-http.js';
import { DRAIN_MS } from './http/connection-drain.js';
import { startServer, type ServerProc } from './test/process.js';

/**
 * SIGTERM as a load balancer sees it: every connection open at the signal gets a whole reply (its own, or the
 * 服务正在重启 envelope for a request that arrives while the process drains), none a reset, and the process exits as
 * soon as that work is done, or once the drain's time is up.
 */

/** A raw keep-alive connection that collects what it receives. */
class Conn {
  readonly socket: net.Socket;
  private buf = Buffer.alloc(0);
  private readonly waiters = new Set<() => void>();
  error: string | null = null;
  closed = false;
  private readonly connecting: Promise<void>;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = net.connect(Number(port), hostname);
    this.connecting = new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
    // Settled either way; a failed connect shows in `error` as well.
    this.connecting.catch(() => undefined);
    const wake = () => {
      for (const w of this.waiters) w();
    };
    this.socket.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      wake();
    });
    this.socket.on('error', (err: NodeJS.ErrnoException) => (this.error ??= err.code ?? err.message));
    this.socket.on('close', () => {
      this.closed = true;
      wake();
    });
  }

  /** Resolves once the connection is established (rejects when it could not be). */
  connected(): Promise<void> {
    return this.connecting;
  }

  /** The whole replies received so far. */
  replies(): RawResponse[] {
    const out: RawResponse[] = [];
    let rest = this.buf;
    for (;;) {
      const split = rest.indexOf('\r\n\r\n');
      if (split < 0) return out;
      const head = parseResponse(rest.subarray(0, split).toString('utf8'), false);
      const length = Number(head.headers['content-length']);
      if (rest.length - split - 4 < length) return out;
      out.push(parseResponse(rest.subarray(0, split + 4 + length).toString('utf8'), false));
      rest = rest.subarray(split + 4 + length);
    }
  }

  /** Resolves with the `n`th whole reply, or null once the connection closed without it. */
  reply(n: number): Promise<RawResponse | null> {
    return new Promise((resolve) => {
      const check = () => {
        const got = this.replies()[n - 1];
        if (got || this.closed) {
          this.waiters.delete(check);
          resolve(got ?? null);
        }
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Resolves once the connection is closed. */
  gone(): Promise<void> {
    return this.reply(Number.MAX_SAFE_INTEGER).then(() => undefined);
  }
}

const envelopeOf = (r: RawResponse | null) => (r ? (JSON.parse(r.body) as { code: number; msg: string }) : null);
const GET = (p: string) => `GET ${p} HTTP/1.1\r\nHost: a\r\n\r\n`;
/** A login call whose 2-byte body is still to come: it is being answered until the body is written. */
const HELD = 'POST /api/auth/doLogin0 HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n';

/** Resolves once the server's output holds `text` at least `times` times. */
async function waitForOutput(s: ServerProc, text: string, times = 1): Promise<void> {
  // The child's output arrives as events; look again whenever some does.
  while (s.output().split(text).length - 1 < times) {
    await new Promise<void>((resolve) => {
      const on = () => {
        s.child.stdout!.off('data', on);
        s.child.stderr!.off('data', on);
        resolve();
      };
      s.child.stdout!.on('data', on);
      s.child.stderr!.on('data', on);
    });
  }
}

describe('SIGTERM drains the connections it has', () => {
  let dataDir: string;
  const servers: ServerProc[] = [];
  const start = async () => {
    const s = await startServer({ DATA_DIR: mkdtempSync(path.join(dataDir, 'd-')), LOG_LEVEL: 'debug' });
    servers.push(s);
    return s;
  };
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'inkstone-drain-'));
  });
  afterAll(() => {
    for (const s of servers) s.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('in flight, kept alive, half sent or still in the accept queue: each gets a whole reply, then the process exits', async () => {
    const s = await start();
    // Kept-alive connections, idle at the signal after one answered request each.
    const idle = Array.from({ length: 5 }, () => new Conn(s.url));
    for (const c of idle) {
      await c.connected();
      c.socket.write(GET('/api/auth/isLogin'));
      expect(envelopeOf(await c.reply(1))).toMatchObject({ code: expect.any(Number) });
    }
    // Requests being answered: their bodies are still to come.
    const held = Array.from({ length: 8 }, () => new Conn(s.url));
    for (const c of held) {
      await c.connected();
      c.socket.write(HELD);
    }
    await waitForOutput(s, '"url":"/api/auth/doLogin0"', held.length);
    // A request whose headers are half sent: the server has no request for it yet, only bytes.
    const half = new Conn(s.url);
    await half.connected();
    half.socket.write('GET /api/auth/isLogin HTTP/1.1\r\nHost: a\r\n');
    // With the process stopped, a connection completes in the kernel's accept queue and sends its request; the signal
    // is then handled together with it.
    process.kill(s.pid, 'SIGSTOP');
    const queued = new Conn(s.url);
    await queued.connected();
    queued.socket.write(GET('/api/auth/isLogin'));
    s.child.kill('SIGTERM');
    const signalledAt = Date.now();
    process.kill(s.pid, 'SIGCONT');
    await waitForOutput(s, 'shutting down');

    // Requests arriving on open connections while the process drains get the envelope, and their connection closes.
    for (const c of idle) c.socket.write(GET('/api/auth/isLogin'));
    const late = await Promise.all(idle.map((c) => c.reply(2)));
    for (const r of late) {
      expect(envelopeOf(r)).toEqual({ code: ErrorCode.SERVICE_UNAVAILABLE, msg: '服务正在重启，请稍后再试', data: null });
      expect(r!.headers['connection']).toBe('close');
    }
    // The queued connection was taken in, not reset: its request has an answer (its own or the envelope).
    expect(envelopeOf(await queued.reply(1))).toMatchObject({ code: expect.any(Number) });
    // The requests in flight get their own answer (the body {} is refused by the route's schema).
    for (const c of held) c.socket.write('{}');
    for (const c of held) expect(envelopeOf(await c.reply(1))).toMatchObject({ code: ErrorCode.VALIDATION });
    // Nothing else is in flight now; the half-sent request still holds the drain, and is answered.
    half.socket.write('\r\n');
    expect(envelopeOf(await half.reply(1))).toEqual({ code: ErrorCode.SERVICE_UNAVAILABLE, msg: '服务正在重启，请稍后再试', data: null });

    const exit = await s.exited;
    const tookMs = Date.now() - signalledAt;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(tookMs).toBeLessThan(DRAIN_MS);
    const all = [...idle, ...held, half, queued];
    await Promise.all(all.map((c) => c.gone()));
    expect(all.map((c) => c.error)).toEqual(all.map(() => null));
  }, 180_000);

  it('a request that never finishes is cut when the drain time is up, and the process exits then', async () => {
    const s = await start();
    const held = new Conn(s.url);
    await held.connected();
    held.socket.write(HELD);
    const first = new Conn(s.url);
    await first.connected();
    first.socket.write(GET('/api/auth/isLogin'));
    await first.reply(1);
    const signalledAt = Date.now();
    s.child.kill('SIGTERM');
    const exit = await s.exited;
    const tookMs = Date.now() - signalledAt;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(tookMs).toBeGreaterThanOrEqual(DRAIN_MS - 100);
    expect(tookMs).toBeLessThan(DRAIN_MS + 3_000);
    await held.gone();
  }, 180_000);
});
